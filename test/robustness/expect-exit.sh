#!/usr/bin/env bash
# expect-exit.sh CODE PROGRAM ARGS...: run PROGRAM, show its stdout and stderr, and end with
# "exit CODE as expected" when it exited with CODE (anything else, a crash above all, fails).
expected=$1; shift
"$@" 2>&1
rc=$?
if [ "$rc" -eq "$expected" ]; then
    echo "exit $rc as expected"
    exit 0
fi
echo "FAIL: exit $rc, expected $expected"
exit 1
