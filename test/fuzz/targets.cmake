# The fuzz targets and the sources each one needs, relative to the repository root: the readers
# of user files, pure C++ (yaml-cpp, no ns-3), so the libFuzzer build compiles them alone with
# coverage and sanitizers. Shared by test/fuzz/CMakeLists.txt (clang, libFuzzer: ./inasim fuzz)
# and test/CMakeLists.txt (the replay tests every build runs).
set(INASIM_FUZZ_TARGETS scenario sweep topology model-zoo switch-packets)
set(_scenario_reader
    src/ina-scenario/model/scenario-loader.cc
    src/ina-scenario/model/scenario.cc
    src/ina-scenario/model/scenario-error.cc
    src/ina-scenario/model/safe-name.cc
    src/ina-scenario/model/yaml-node-text.cc
    src/ina-fabric/model/ina-topology-size.cc
    src/ina-training/model/ina-units.cc)
set(INASIM_FUZZ_SOURCES_scenario ${_scenario_reader})
set(INASIM_FUZZ_SOURCES_sweep ${_scenario_reader} src/ina-scenario/model/sweep-expander.cc)
set(INASIM_FUZZ_SOURCES_topology src/ina-fabric/model/ina-topology.cc
    src/ina-fabric/model/ina-topology-size.cc)
set(INASIM_FUZZ_SOURCES_model-zoo
    src/ina-training/model/model-zoo.cc
    src/ina-training/model/ina-units.cc)
# The switch programs need the simulator: whole modules (every model/ and helper/ source, with
# coverage and sanitizers) on ns-3's libraries as Debian ships them.
set(INASIM_FUZZ_MODULES_switch-packets
    ina-fabric ina-training ina-protocol-kit switchml atp esa grid libra)
# Sources compiled without libFuzzer's comparison tracing (-fno-sanitize-coverage=trace-cmp; their
# edges are still counted, and ASan and UBSan check them as every other source). trace-cmp records
# the operands of every comparison so that mutations can aim at them; it is worth it where an
# input's bytes are compared. exact-match-table.cc holds only a match table's control plane
# (construction, Insert, Remove, Clear; the data plane's lookup, Find, is inline in the header
# and stays traced), which the target calls only at set-up with constants: the jobs' fixed ids
# and Libra's 209,152 LNS entries, one Insert each with four traced comparisons: about 30 % of the
# CPU of an execution that picks Libra (docs/reliability.md, "switch-packets made cheaper again").
set(INASIM_FUZZ_NO_TRACE_CMP_switch-packets src/ina-fabric/model/exact-match-table.cc)

# Seeds: the files users write, as the repository has them (relative to the root). The replay
# tests run every target on its seeds and on test/fuzz/regressions/<target>/, where every input
# a fuzzer found a bug with is kept.
set(INASIM_FUZZ_SEEDS_scenario examples/scenarios examples/sweeps/base test/malformed)
set(INASIM_FUZZ_SEEDS_sweep examples/sweeps examples/papers)
set(INASIM_FUZZ_SEEDS_topology topologies)
set(INASIM_FUZZ_SEEDS_model-zoo src/ina-training/data/model-zoo.yaml)
set(INASIM_FUZZ_SEEDS_switch-packets test/fuzz/seeds/switch-packets)

# The longest input libFuzzer makes (-max_len; without it, the longest seed). The packaged zoo
# (72 KB) made every model-zoo input tens of KB of YAML, 25 ms each in yaml-cpp alone; 8 KB holds
# a whole model of the zoo, which is all the reader's paths need.
set(INASIM_FUZZ_MAX_LEN_model-zoo 8192)
# 32 packets of 96 bytes and the protocol byte (fuzz-switch-packets.cc reads no more).
set(INASIM_FUZZ_MAX_LEN_switch-packets 3073)

# A target's own libFuzzer options (./inasim fuzz passes them; docs/reliability.md, "Toward 1 M
# executions per target", has what each saves and the coverage it reached with and without).
# switch-packets: -reload=0. libFuzzer re-reads its corpus folder every second for inputs other
# processes wrote and executes those it lacks; one process writes this folder, so it finds only
# its own (8 % of the samples of a 90-s run; the same coverage after 2,048 executions without it).
set(INASIM_FUZZ_OPTIONS_switch-packets -reload=0)
