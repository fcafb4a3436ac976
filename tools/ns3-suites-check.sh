#!/usr/bin/env bash
# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
#
# ns-3's own test suites next to inasim's, without building ns-3 (docs/building.md, "ns-3's own
# tests with inasim in the tree"). Compiles the ns-3.37 suites that a library setting the time
# resolution or the scheduler at load would break (time, attributes, data-rate) from an ns-3.37
# source tree, links them into one test runner with every inasim module and every inasim TestSuite
# of the standalone build (as ns-3's test-runner links them in a source tree), against Debian's
# ns-3 3.37, and runs each suite in a process of its own, as ns-3's test.py does.
#
#   tools/ns3-suites-check.sh NS3_SOURCE_DIR [BUILD_DIR]     (BUILD_DIR: default build/)
#
# Prints one line per suite and "ns3-suites-check: N passed, M failed"; exits 0 only if all passed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
ns3=${1:?usage: tools/ns3-suites-check.sh NS3_SOURCE_DIR [BUILD_DIR]}
build=$(cd "${2:-$root/build}" && pwd)
suites_src=("$ns3/src/core/test/time-test-suite.cc" "$ns3/src/core/test/attribute-test-suite.cc"
            "$ns3/src/network/test/test-data-rate.cc")
for f in "${suites_src[@]}"; do
    [[ -f $f ]] || { echo "ns3-suites-check: $f not found (an ns-3.37 source tree?)" >&2; exit 2; }
done

work=$build/ns3-suites-check
mkdir -p "$work"
printf '#include "ns3/test.h"\nint\nmain(int argc, char* argv[])\n{\n    return ns3::TestRunner::Run(argc, argv);\n}\n' >"$work/runner.cc"
cxx=(g++)
command -v ccache >/dev/null && cxx=(ccache g++)
objs=()
for f in "$work/runner.cc" "${suites_src[@]}"; do
    o=$work/$(basename "$f" .cc).o
    # ns-3's asserts on, as in ns-3's default build profile: the failures this check looks for
    # were assertions (time.cc, nstime.h).
    "${cxx[@]}" -std=c++17 -O1 -DNS3_ASSERT_ENABLE -DNS3_LOG_ENABLE -c "$f" -o "$o"
    objs+=("$o")
done

libs=()
for m in "$root"/src/*/; do
    m=$(basename "$m")
    lib=$build/lib/libns3.37-$m.so
    [[ -f $lib ]] || continue
    libs+=("$lib")
    while IFS= read -r o; do objs+=("$o"); done < <(find "$build/src/$m" -path '*-test.dir/test/*.o')
done
(( ${#libs[@]} > 0 )) || { echo "ns3-suites-check: no inasim module in $build/lib (build first)" >&2; exit 2; }

# In utils/, like build/utils/test-runner, so ns-3's TestRunner finds the source tree above it.
runner=$build/utils/ns3-suites-runner
g++ -o "$runner" "${objs[@]}" -Wl,--no-as-needed "${libs[@]}" -Wl,-rpath,"$build/lib" \
    -l:libns3-core.so.37 -l:libns3-network.so.37 -l:libns3-stats.so.37 \
    -l:libns3-point-to-point.so.37 -lyaml-cpp -Wl,--as-needed

passed=0
failed=0
while IFS= read -r suite; do
    suite=${suite// /}
    [[ -n $suite ]] || continue
    if "$runner" --test-name="$suite" >"$work/$suite.log" 2>&1; then
        echo "PASS $suite"
        passed=$((passed + 1))
    else
        echo "FAIL $suite (exit $?; $work/$suite.log)"
        failed=$((failed + 1))
    fi
done < <("$runner" --list)
echo "ns3-suites-check: $passed passed, $failed failed"
(( failed == 0 ))
