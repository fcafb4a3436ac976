# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
"""The files of an inasim module for its wscript (waf, ns-3 <= 3.35): the same globs as
inasim_module() in inasim-module.cmake beside this file, so CMake and waf build the same sources."""
import re


def module_files(bld):
    """(sources, public headers, test sources) of the module whose folder is bld.path.

    PRIVATE_HEADER_FILES named in the module's CMakeLists.txt are left out of the headers, as
    inasim_module() leaves them out of the installed ones."""
    text = bld.path.find_node('CMakeLists.txt').read()
    m = re.search(r'PRIVATE_HEADER_FILES\s+([^)]*?)(?=\n\s*[A-Z_]+\s|\))', text, re.S)
    private = set(m.group(1).split()) if m else set()

    def files(*patterns):
        return sorted(n.path_from(bld.path) for n in bld.path.ant_glob(list(patterns)))

    headers = [h for h in files('model/*.h', 'helper/*.h') if h not in private]
    return files('model/*.cc', 'helper/*.cc'), headers, files('test/*-test-suite.cc')


def build_module(bld, name, dependencies):
    """Build the module whose folder is bld.path, as every inasim wscript does: its library from
    module_files(), its test library when it has TestSuites, its public headers, and its
    examples/ when examples are enabled and it has an examples/wscript.

    Returns the library's task generator, for a module that adds libraries, include paths or
    defines to it (waf reads them when it posts the generator, after build() returns)."""
    sources, headers, tests = module_files(bld)
    module = bld.create_ns3_module(name, dependencies)
    module.source = sources
    if tests:
        module_test = bld.create_ns3_module_test_library(name)
        module_test.source = tests
    hdr = bld(features='ns3header')
    hdr.module = name
    hdr.source = headers
    if bld.env.ENABLE_EXAMPLES and bld.path.find_node('examples/wscript') is not None:
        bld.recurse('examples')
    return module
