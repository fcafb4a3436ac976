# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""What the smoke checks that drive inasim-run share: run one scenario, fail loudly (its output
and exit code) when it does not finish, and hand back the first job of its summary."""
import json
import subprocess


class SmokeFailure(SystemExit):
    """A run that did not finish. A SystemExit, so that a check that runs one scenario exits 1
    with the message; a check that runs several catches it, reports it and goes on."""


def run_first_job(inasim_run, args, where, label):
    """Run inasim-run ARGS --out WHERE; return jobs[0] of WHERE/summary.json, or raise
    SmokeFailure naming LABEL when inasim-run fails or the job did not complete."""
    proc = subprocess.run([inasim_run, *args, "--out", where], stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        print(proc.stdout, end="")
        raise SmokeFailure(f"FAIL {label}: inasim-run exited with {proc.returncode}")
    with open(f"{where}/summary.json", encoding="utf-8") as f:
        job = json.load(f)["jobs"][0]
    if not job.get("completed"):
        raise SmokeFailure(f"FAIL {label}: the job did not complete")
    return job
