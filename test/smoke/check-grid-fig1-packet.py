#!/usr/bin/env python3
# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Run GRID's Fig. 1 example at packet level with several schemes and check each worker's rate.

    check-grid-fig1-packet.py INASIM_RUN OUT_DIR SCENARIO [--set KEY=VALUE ...] PROTOCOL=GBPS [...]

For each PROTOCOL the scenario runs with jobs.0.protocol=PROTOCOL and every --set override. The
rate a worker reaches is its gradient on the wire over the job's time (the paper's "gradient
sending rate"; every worker of a synchronous job sends every fragment before the job ends):
fragments x wire bytes per packet x 8 / JCT, with the wire bytes per packet = wire_bytes_sent
over every packet the workers sent (first sends, retransmissions, resends after a collision
notice). It must be within 5 % of GBPS (the paper's value), the job complete; GBPS `plan` means
the rate of the job's own plan (its plan_rate_bps). Exit 0 when every protocol passes, 1 otherwise.
"""
import sys

from inasim_smoke import SmokeFailure, run_first_job

TOLERANCE = 0.05


def rate_gbps(job):
    c = job["protocol_counters"]
    fragments = c["ps_fragments"]
    packets = fragments * job["workers"] + job["retransmissions"] + c.get("notice_resends", 0)
    wire = job["wire_bytes_sent"] / packets
    return fragments * wire * 8 / job["jct_s"] / 1e9


def main(argv):
    run, out, scenario = argv[0], argv[1], argv[2]
    overrides, wants = [], []
    rest = iter(argv[3:])
    for a in rest:
        if a == "--set":
            overrides.append(next(rest))
        else:
            wants.append(a)
    failed = 0
    for want in wants:
        protocol, expected = want.split("=")
        try:
            job = run_first_job(run, [scenario, f"jobs.0.protocol={protocol}", *overrides],
                                f"{out}/{protocol}", protocol)
        except SmokeFailure as e:
            print(e)
            failed += 1
            continue
        got = rate_gbps(job)
        plan = job["protocol_counters"].get("plan_rate_bps")
        if expected == "plan" and plan is None:
            print(f"FAIL {protocol}: the job reports no plan_rate_bps to compare with")
            failed += 1
            continue
        gbps = plan / 1e9 if expected == "plan" else float(expected)
        ok = abs(got - gbps) <= TOLERANCE * gbps
        print(f"{'ok  ' if ok else 'FAIL'} {protocol}: {got:.4f} Gb/s per worker, expected {gbps:g} "
              f"({(got / gbps - 1) * 100:+.1f} %)"
              + (f", plan {plan / 1e9:.4f}" if plan is not None else ""))
        failed += 0 if ok else 1
    if failed:
        return 1
    print("packet level: every scheme within 5 % of its expected rate")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
