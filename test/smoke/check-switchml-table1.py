#!/usr/bin/env python3
# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""SwitchML's Table 1 predictions (Scaling Distributed Machine Learning with In-Network
Aggregation, Section 5.2, Table 1: 8 workers at 10 Gb/s, batch 64).

    check-switchml-table1.py INASIM_CONFIG INASIM_RUN OUT_DIR SWEEP

SWEEP is examples/papers/switchml/table1.yaml. Its NCCL ring carries the host time per chunk that
the paper's VGG16 row gives; this test runs the sweep's own runs (inasim-config expand-sweep) of
the two models that row does not calibrate, inception3 and resnet50, as SwitchML and as that
ring, and checks that the ring's images/s and SwitchML's speed-up over it are within 15 % of the
paper's (docs/validation.md's tolerance). VGG16 is not checked: it agrees by construction.
Exit 0 when all four hold.
"""
import json
import subprocess
import sys

from inasim_smoke import run_first_job

# Table 1: Horovod+NCCL images/s and SwitchML's images/s over it.
PAPER = {"inception3": {"nccl": 799.0, "speedup": 1079.0 / 799.0},
         "resnet50": {"nccl": 911.0, "speedup": 1412.0 / 911.0}}
IMAGES_PER_ITERATION = 8 * 64  # 8 workers x batch 64
TOLERANCE = 0.15


def expand(inasim_config, sweep):
    proc = subprocess.run([inasim_config, "expand-sweep", sweep], stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        print(proc.stdout, end="")
        raise SystemExit(f"FAIL: inasim-config expand-sweep exited with {proc.returncode}")
    return json.loads(proc.stdout)


def iteration_time(inasim_run, base, out, run):
    job = run_first_job(inasim_run, [base, *run["overrides"]], f"{out}/{run['id']}", run["id"])
    times = job["iteration_time_s"]
    return sum(times) / len(times)


def main(argv):
    inasim_config, inasim_run, out, sweep = argv
    expansion = expand(inasim_config, sweep)
    times = {}
    for run in expansion["runs"]:
        values = run["values"]
        model = values["jobs.0.workload.model"]
        protocol = values["jobs.0.protocol"]
        params = values["jobs.0.params"]
        if model not in PAPER:
            continue
        if protocol == "switchml":
            kind = "switchml"
        elif protocol == "ring" and "MessageOverhead" in params:
            kind = "nccl"
        else:
            continue
        times[(model, kind)] = iteration_time(inasim_run, expansion["base"], out, run)
    ok = True
    for model, paper in PAPER.items():
        if (model, "nccl") not in times or (model, "switchml") not in times:
            print(f"FAIL {model}: the sweep has no SwitchML run or no NCCL ring with MessageOverhead")
            ok = False
            continue
        nccl = IMAGES_PER_ITERATION / times[(model, "nccl")]
        speedup = times[(model, "nccl")] / times[(model, "switchml")]
        for name, ours, theirs in (("NCCL images/s", nccl, paper["nccl"]),
                                   ("speed-up", speedup, paper["speedup"])):
            ratio = ours / theirs
            good = abs(ratio - 1.0) <= TOLERANCE
            ok = ok and good
            print(f"{model} {name}: ours {ours:.3f}, paper {theirs:.3f}, ratio {ratio:.3f}"
                  f"{'' if good else '  <- off by more than 15 %'}")
    if ok:
        print("switchml table1: the NCCL predictions within 15 % of the paper")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
