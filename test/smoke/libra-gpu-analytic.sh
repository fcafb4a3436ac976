#!/usr/bin/env bash
# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
#
# Smoke check of libra-gpu-analytic (ctest smoke/libra-gpu-analytic):
#   libra-gpu-analytic.sh PROGRAM EXAMPLE_DIR
# 1. default (illustrative) run on VGG16: the header says ILLUSTRATIVE, the CSV header is exact,
#    every node count has a row per policy, and dp's backward time is <= fixed's, se's and mg-n's;
# 2. --fit on the shipped synthetic samples prints a parameter file that --params reads back;
# 3. a bad sample file fails (exit 2) naming file:line.
set -u
prog=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$prog" --model=vgg16 --nodes=8,64,512,2048 --policies=se,fixed,mg-n,libra-m,dp >"$tmp/out.csv" ||
    fail "the default run exited with $?"
grep -q '^# parameters: ILLUSTRATIVE' "$tmp/out.csv" || fail "no ILLUSTRATIVE label in the header"
header=$(grep -v '^#' "$tmp/out.csv" | head -n 1)
[ "$header" = "model,nodes,policy,groups,threads,backward_s,iteration_s,throughput_norm" ] ||
    fail "CSV header is '$header'"
grep -v '^#' "$tmp/out.csv" | awk -F, '
    NR > 1 { t[$2 "," $3] = $6; nodes[$2] = 1; rows++ }
    END {
        if (rows != 20) { print "expected 20 rows, got " rows; exit 1 }
        for (n in nodes) {
            d = t[n ",dp"]
            if (d == "" || t[n ",fixed"] == "" || t[n ",se"] == "" || t[n ",mg-n"] == "") {
                print "N=" n ": missing rows"; exit 1
            }
            if (d + 0 > t[n ",fixed"] + 0 || d + 0 > t[n ",se"] + 0 || d + 0 > t[n ",mg-n"] + 0) {
                print "N=" n ": dp " d " slower than fixed " t[n ",fixed"] ", se " t[n ",se"] \
                      " or mg-n " t[n ",mg-n"]; exit 1
            }
            printf "N=%s: dp %s <= fixed %s, se %s, mg-n %s\n", n, d, t[n ",fixed"], t[n ",se"], t[n ",mg-n"]
        }
    }' || fail "dp is not the fastest"

"$prog" --fit="$dir/samples.csv" >"$tmp/fitted.yaml" || fail "--fit exited with $?"
"$prog" --params="$tmp/fitted.yaml" --nodes=8 --policies=dp >"$tmp/refit.csv" ||
    fail "--params could not read what --fit printed"
grep -q "^# parameters: from $tmp/fitted.yaml" "$tmp/refit.csv" || fail "fitted parameters not named"

printf 'kind,threads,work,time_s\ncompute,128,0.01,fast\n' >"$tmp/bad.csv"
"$prog" --fit="$tmp/bad.csv" >/dev/null 2>"$tmp/err.txt"
rc=$?
[ $rc -eq 2 ] || fail "a bad sample file exited with $rc, expected 2"
grep -q "$tmp/bad.csv:2: time_s: expected a positive finite number of seconds, got 'fast'" \
    "$tmp/err.txt" || fail "bad sample message: $(cat "$tmp/err.txt")"
echo "libra-gpu-analytic smoke: OK"
