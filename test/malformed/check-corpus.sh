#!/usr/bin/env bash
# Every malformed scenario in this folder fails with a clear message and no crash, in both
# `inasim-config check` and `inasim-run` (one validation path: check rejects what run rejects).
#   check-corpus.sh INASIM_RUN INASIM_CONFIG [FOLDER]
# Each FILE.yaml starts with "# expect: TEXT": both programs must exit 2 and print TEXT on stderr.
# A crash (a signal: exit 134 abort, 139 segfault) or any other exit code fails the test.
# inasim-run must also leave OUT/error.json whose message is the one on stderr (exit 2, a kind,
# and a key whenever the message names one).
set -uo pipefail
run=$1; config=$2; dir=${3:-$(dirname "$0")}
# Several files here once exhausted memory (a flap of 4e9 failures, a fat-tree of k=1000): if a
# bound regresses the test must fail, not take the machine with it, so the address space is
# capped at 4 GB; not under AddressSanitizer (./inasim test --sanitize), which reserves terabytes
# of address space up front.
if [ -z "${ASAN_OPTIONS:-}" ]; then ulimit -v 4000000; fi
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
failed=0; tried=0
check() { # NAME EXPECTED_TEXT PROGRAM ARGS...
    local name=$1 expect=$2; shift 2
    tried=$((tried + 1))
    "$@" >"$out/stdout" 2>"$out/stderr"
    local rc=$?
    if [ "$rc" -ne 2 ]; then
        echo "FAIL: $name: $(basename "$1") exited $rc, expected 2: $(head -c 400 "$out/stderr")"
        failed=$((failed + 1))
    elif ! grep -qF -- "$expect" "$out/stderr"; then
        echo "FAIL: $name: $(basename "$1") did not say \"$expect\"; it said: $(head -c 400 "$out/stderr")"
        failed=$((failed + 1))
    fi
}
check_report() { # NAME: the error.json of the inasim-run just checked agrees with its stderr
    local name=$1
    if ! python3 - "$out/run/error.json" "$out/stderr" <<'PY'
import json, re, sys
report = json.load(open(sys.argv[1]))
said = [l[len("inasim: "):] for l in open(sys.argv[2]).read().splitlines()
        if l.startswith("inasim: ") and not l.startswith("inasim: warning")][-1]
assert report["exit_code"] == 2 and report["kind"] in ("scenario", "other"), report
assert report["message"] == said, (report["message"], said)
named = re.search(r"key '([^']*)'", said)
assert report.get("key", "") == (named.group(1) if named else ""), (report.get("key"), said)
PY
    then
        echo "FAIL: $name: inasim-run's error.json does not match its message"
        failed=$((failed + 1))
    fi
    rm -f "$out/run/error.json"
}
for f in "$dir"/*.yaml; do
    expect=$(sed -n '1s/^# expect: //p' "$f")
    [ -n "$expect" ] || { echo "FAIL: $f has no '# expect:' first line"; failed=$((failed + 1)); continue; }
    name=$(basename "$f")
    check "$name" "$expect" "$config" check "$f"
    check "$name" "$expect" "$run" "$f" --out "$out/run"
    check_report "$name"
done
# Not files at all.
check /dev/zero "is not a regular file" "$config" check /dev/zero
check /dev/zero "is not a regular file" "$run" /dev/zero --out "$out/run"
check folder "is a folder" "$config" check "$dir"
check folder "is a folder" "$run" "$dir" --out "$out/run"
if [ "$failed" -ne 0 ]; then
    echo "malformed corpus: $failed of $tried checks failed"
    exit 1
fi
echo "malformed corpus: all $tried checks rejected with exit 2 and the expected message"
