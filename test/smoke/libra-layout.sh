#!/usr/bin/env bash
# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
#
# Smoke check of libra-layout (ctest smoke/libra-layout):
#   libra-layout.sh PROGRAM
# 1. --report=all runs and prints the numbers the paper and the spec give:
#    skew (OA top-30K 50 %, SE 70 %), layout (heat + Algorithm 1 < 1 collision per packet, random
#    + sequential about 5.7 / 3.3 / 9.8), precision (U(0,1) average 99.84 %), resources (418,304 B
#    of tables, 671,424 B in all, m_max 32 / 48), hotset (>= 80 % at 4 %, >= 90 % at 8 %);
# 2. --report=layout prints the same twice, and the same rows as within --report=all;
# 3. a bad --report fails (exit 2) naming the value.
set -u
prog=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$prog" --report=all >"$tmp/out.csv" || fail "--report=all exited with $?"
out=$tmp/out.csv
has() { grep -q -- "$1" "$out" || fail "missing line matching '$1'"; }

has '^oa,150000000,0.975,30000,0.5011,'
has '^oa,150000000,0.975,60000,0.5378,'
has '^se,9000000,1.024,30000,0.7000,'
has '^se,9000000,1.024,60000,0.7387,'

awk -F, '
    $1 == "spec" && $4 == "heat" && $5 == "algorithm1" && $6 != "refused" {
        if ($8 + 0 >= 1) { print "heat+algorithm1 m=" $2 " cap=" $3 ": " $8 " collisions/packet"; bad = 1 }
        n++
    }
    $1 == "spec" && $4 == "random" && $5 == "sequential" {
        if ($8 + 0 < $12 - 0.3 || $8 + 0 > $12 + 0.3) {
            print "random+sequential m=" $2 " cap=" $3 ": " $8 ", spec " $12; bad = 1
        }
        r++
    }
    $1 == "spec" && $2 == 8 && $4 == "heat" && $5 == "algorithm1" && $6 != "refused" { bad = 1; print "cap > m accepted" }
    END { if (n != 2 || r != 3) { print "layout rows: " n " heat, " r " random"; bad = 1 } exit bad }
' "$out" || fail "layout numbers"

has '^U(0;1),100000,99.85[0-9],99.83[0-9],'
has '^float tables (7; 2-B entries),418304,408.50,408.5$'
has '^total,671424,655.69,656.5$'
has '^share of 20 MiB (%),,3.20,3.21$'
has 'm_max for K = 30000 on the default pipeline: 32 with the float tables, 48 without'

awk -F, '
    $1 == "0.04" { if ($8 + 0 < 0.80) { print "4 % sample precision " $8; bad = 1 } n++ }
    $1 == "0.08" { if ($8 + 0 < 0.90) { print "8 % sample precision " $8; bad = 1 } n++ }
    END { if (n != 2) { print "hotset rows: " n; bad = 1 } exit bad }
' "$out" || fail "hotset precision"

"$prog" --report=layout >"$tmp/layout1.csv" || fail "--report=layout exited with $?"
"$prog" --report=layout >"$tmp/layout2.csv" || fail "--report=layout exited with $?"
cmp -s "$tmp/layout1.csv" "$tmp/layout2.csv" || fail "two layout runs differ"
grep -v '^#' "$tmp/layout1.csv" | while IFS= read -r line; do
    grep -qxF -- "$line" "$out" || fail "layout run and all run differ at: $line"
done || exit 1

"$prog" --report=bogus >/dev/null 2>"$tmp/err.txt"
rc=$?
[ $rc -eq 2 ] || fail "a bad --report exited with $rc, expected 2"
grep -q -- "--report=bogus: expected skew, layout, precision, resources, hotset or all" \
    "$tmp/err.txt" || fail "bad report message: $(cat "$tmp/err.txt")"
echo "libra-layout smoke: OK"
