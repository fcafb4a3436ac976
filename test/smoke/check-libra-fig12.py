#!/usr/bin/env python3
# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Libra's headline on the paper's set-up: at 32 workers its aggregation throughput is 1.5-4x the
sparse PS's (Libra paper, Section 5.2, Figure 12), and its hot parameters take Figure 5's share of
the updates (OA: half).

    check-libra-fig12.py INASIM_RUN OUT_DIR BASE_SCENARIO

Runs BASE_SCENARIO (examples/papers/libra/base/rack.yaml) with 32 workers and 10 iterations as
libra and as libra-ps (the same pushes), and checks sparse_agg_throughput_gbps of the first over
the second is within [1.5, 4] and Libra's hot_share within 0.48 .. 0.51 (the pairs beyond the
recirculation cap go to the PS, so it sits about a point below 0.50). Exit 0 when both hold.
"""
import sys

from inasim_smoke import run_first_job


def run(inasim_run, out, scenario, protocol):
    args = [scenario, f"jobs.0.protocol={protocol}", "jobs.0.workers=32",
            "jobs.0.workload.iterations=10"]
    return run_first_job(inasim_run, args, f"{out}/{protocol}", protocol)["protocol_counters"]


def main(argv):
    inasim_run, out, scenario = argv
    libra = run(inasim_run, out, scenario, "libra")
    ps = run(inasim_run, out, scenario, "libra-ps")
    gain = libra["sparse_agg_throughput_gbps"] / ps["sparse_agg_throughput_gbps"]
    share = libra["hot_share"]
    print(f"Libra / sparse PS at 32 workers: {gain:.3f} (paper 1.5-4); hot share {share:.4f}")
    ok = 1.5 <= gain <= 4.0 and 0.48 <= share <= 0.51
    if ok:
        print("libra fig12: Libra within the paper's range")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
