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
