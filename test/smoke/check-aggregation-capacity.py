#!/usr/bin/env python3
# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Run a scenario with switch aggregation capacities and check what summary.json reports.

    check-aggregation-capacity.py INASIM_RUN OUT_DIR SCENARIO [KEY=VALUE ...]

Every switch whose pipeline reports an aggregation capacity must have served work at a measured
rate no higher than its capacity, and at least one switch must have served work; every job must
complete with no wrong value. Exit 0 when so, 1 otherwise (saying what failed).
"""
import json
import subprocess
import sys


def main(argv):
    run, out, scenario, overrides = argv[0], argv[1], argv[2], argv[3:]
    proc = subprocess.run([run, scenario, *overrides, "--out", out], stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(proc.stdout, end="")
    if proc.returncode != 0:
        print(f"FAIL: inasim-run exited with {proc.returncode}")
        return 1
    with open(f"{out}/summary.json", encoding="utf-8") as f:
        summary = json.load(f)
    served = 0
    limited = 0
    for sw in summary["switches"]:
        agg = sw.get("pipeline", {}).get("aggregation")
        if agg is None:
            continue
        limited += 1
        served += agg["packets"]
        cap = agg["capacity_bps"]
        print(f"{sw['name']}: capacity {cap / 1e9:g} Gb/s, {agg['packets']} packets, measured "
              f"{agg['measured_bps'] / 1e9:.4f} Gb/s, peak queue {agg['peak_queue_bytes']} B, "
              f"{agg['drops']} drops")
        if cap > 0 and agg["measured_bps"] > cap:
            print(f"FAIL: {sw['name']} aggregated at {agg['measured_bps']} b/s > {cap} b/s")
            return 1
    if limited == 0 or served == 0:
        print("FAIL: no switch with a capacity served aggregation work")
        return 1
    for job in summary["jobs"]:
        if not job.get("completed") or job.get("value_errors", 0) != 0:
            print(f"FAIL: job {job['name']} did not complete exactly")
            return 1
    print("aggregation capacity respected")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
