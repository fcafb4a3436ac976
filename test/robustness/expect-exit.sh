#!/usr/bin/env bash
# expect-exit.sh CODE PROGRAM ARGS...: run PROGRAM, show its stdout and stderr, and end with
# "exit CODE as expected" when it exited with CODE (anything else, a crash above all, fails).
# With INASIM_TEST_VMEM_KB set, PROGRAM runs under that address-space cap (ulimit -v), so a run
# that regresses into allocating without bound fails instead of taking the machine; not under
# AddressSanitizer (./inasim test --sanitize), which reserves terabytes of address space.
expected=$1; shift
if [ -n "${INASIM_TEST_VMEM_KB:-}" ] && [ -z "${ASAN_OPTIONS:-}" ]; then
    ulimit -v "$INASIM_TEST_VMEM_KB"
fi
"$@" 2>&1
rc=$?
if [ "$rc" -eq "$expected" ]; then
    echo "exit $rc as expected"
    exit 0
fi
echo "FAIL: exit $rc, expected $expected"
exit 1
