#!/usr/bin/env python3
# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Golden summary of one example scenario: run inasim-run, compare its summary.json with a file.

    golden.py [--incomplete] INASIM_RUN GOLDEN_FILE SCENARIO [KEY=VALUE ...]

inasim-run must exit 0 (everything completed); with --incomplete, a run cut short by its
stop_time is expected instead: exit 1 and "completed": false in the summary.

The summary is compared after removing the fields that measure the host rather than the
simulated system (FIELDS_NOT_COMPARED). With INASIM_UPDATE_GOLDEN=1 in the environment the file
is written instead of compared (`./inasim test --update-golden`; docs/driver.md says when that
is right). Standard library only.
"""

import json
import os
import subprocess
import sys
import tempfile

#: Top-level summary.json fields left out of the comparison, and why:
#:   wall_time_s, events_per_wall_s: the host's speed;
#:   events: how many scheduler events the simulator needed, which work on the simulator's speed
#:     (event batching, fewer timers) changes on purpose without changing any simulated result.
FIELDS_NOT_COMPARED = ("wall_time_s", "events_per_wall_s", "events")


def normalised(summary_path):
    """The summary as text, without FIELDS_NOT_COMPARED, in the order the runner wrote it."""
    with open(summary_path, encoding="utf-8") as f:
        summary = json.load(f)
    for key in FIELDS_NOT_COMPARED:
        summary.pop(key, None)
    return json.dumps(summary, indent=2) + "\n"


def main(argv):
    incomplete = bool(argv) and argv[0] == "--incomplete"
    if incomplete:
        argv = argv[1:]
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    run, golden, scenario, overrides = argv[0], argv[1], argv[2], argv[3:]
    with tempfile.TemporaryDirectory(prefix="inasim-golden-") as out:
        cmd = [run, scenario, *overrides, "--out", out]
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, errors="replace")
        summary = os.path.join(out, "summary.json")
        expected_rc = 1 if incomplete else 0
        if proc.returncode != expected_rc or not os.path.exists(summary):
            print(proc.stdout, end="")
            print(f"FAIL: {' '.join(cmd)} exited with {proc.returncode}, expected {expected_rc}"
                  + (" (a run cut short by stop_time)" if incomplete else ""))
            return 1
        with open(summary, encoding="utf-8") as f:
            completed = json.load(f).get("completed")
        if completed is not (not incomplete):
            print(f"FAIL: summary.json says completed: {completed}, expected {not incomplete}")
            return 1
        actual = normalised(summary)
    if os.environ.get("INASIM_UPDATE_GOLDEN") == "1":
        with open(golden, "w", encoding="utf-8") as f:
            f.write(actual)
        print(f"golden: wrote {golden}")
        return 0
    if not os.path.exists(golden):
        print(f"FAIL: {golden} does not exist; write it with ./inasim test --update-golden")
        return 1
    with open(golden, encoding="utf-8") as f:
        expected = f.read()
    if actual == expected:
        print(f"golden: summary identical to {golden}")
        return 0
    import difflib
    sys.stdout.writelines(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                               golden, "this build's summary", n=2))
    print(f"FAIL: the summary differs from {golden} (see docs/driver.md, 'Golden summaries', if "
          "the change is on purpose)")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
