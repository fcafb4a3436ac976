# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
# waf build (ns-3 <= 3.35) of the whole repository placed at contrib/<folder>/ of an ns-3 tree:
# the nine modules of src/, each by its own wscript, and the programs of scratch/.
#
# ns-3's contrib/wscript takes a folder that holds a wscript for one module named after the folder
# ("ns3-inasim"), and ns-3's top-level wscript builds only modules it knows by name. So build()
# below puts the nine modules' names where the folder's name stands in ns-3's two module lists
# before ns-3 reads them, and gives the folder's name the empty header set that contrib/wscript's
# module header for it expects. `./waf configure --enable-modules=inasim` (the folder's name)
# selects all nine; ns-3's own dependency scan adds core, network and point-to-point.
# docs/building.md, "waf-based ns-3", has the commands and what was run with them.
import os

# Each depends only on modules before it (docs/architecture.md, "Layout"); waf orders the builds by
# their `use` lists in any case, and this order is the one a reader follows.
MODULES = ['ina-fabric', 'ina-training', 'ina-protocol-kit', 'switchml', 'atp', 'esa', 'grid',
           'libra', 'ina-scenario']
FOLDERS = ['src/' + m for m in MODULES]


def options(opt):
    opt.recurse(FOLDERS, mandatory=False)


def configure(conf):
    # yaml-cpp and nlohmann-json are checked by the modules that use them
    conf.recurse(FOLDERS, mandatory=False)


def _in_place_of(names, package):
    if package not in names:
        return list(names)
    at = names.index(package)
    return names[:at] + ['ns3-' + m for m in MODULES] + names[at + 1:]


def build(bld):
    package = 'ns3-' + bld.path.name
    for key in ('NS3_CONTRIBUTED_MODULES', 'NS3_ENABLED_CONTRIBUTED_MODULES'):
        bld.env[key] = _in_place_of(bld.env[key], package)
    bld.recurse(FOLDERS)
    for m in MODULES:
        header = bld(features='ns3moduleheader')
        header.module = m
    none = bld(features='ns3header')
    none.module = bld.path.name
    none.source = []
    # scratch/*.cc, each a program linked with every module, as ns-3 builds its own scratch/
    for node in bld.path.ant_glob('scratch/*.cc'):
        name = os.path.splitext(node.name)[0]
        program = bld.create_ns3_program(name, MODULES)
        program.source = [node]
        program.install_path = None
