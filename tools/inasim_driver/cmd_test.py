# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""./inasim test: set up, build everything, run ctest; print `inasim: N passed, M failed`."""

import argparse
import os
import re
import shutil
import subprocess
import sys

from . import bootstrap, building
from .common import UserError, build_dir, display_path, jobs, say

SUMMARY = "build and run every test (GoogleTest, ns-3 TestSuites, smoke runs)"

#: Per-test time limit (s) for tests that set none themselves: a hung test fails instead of
#: eating the whole CI budget.
DEFAULT_TIMEOUT_S = 600
LONG_TIMEOUT_S = 3600

#: Where --sanitize builds (relative to the repository), and how the sanitizers report: the
#: first error ends the process with a stack trace, so the test it happens in fails.
SANITIZE_BUILD_DIR = "build-sanitize"
SANITIZER_ENV = {
    "ASAN_OPTIONS": "abort_on_error=1:detect_leaks=1:strict_string_checks=1",
    "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
    # Why each suppression is there is written in the file.
    "LSAN_OPTIONS": "suppressions=" + os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                   "lsan-suppressions.txt"),
}

#: ctest label of the golden-summary tests (test/golden/CMakeLists.txt).
GOLDEN_LABEL = "golden"

_SUMMARY = re.compile(r"^\s*(\d+)% tests passed, (\d+) tests? failed out of (\d+)\s*$")
# Listed under "The following tests did not run:"; ctest counts them as passed.
_NOT_RUN = re.compile(r"^\s+\d+ - .* \((Skipped|Disabled)\)\s*$")


def parse_ctest_summary(lines):
    """(passed, failed, skipped) from ctest's closing lines, or None if there is no summary.

    ctest's "P% tests passed, F tests failed out of N" counts skipped and disabled tests as
    passed; here they are counted apart, since they did not run.
    """
    result = None
    skipped = 0
    for line in lines:
        m = _SUMMARY.match(line)
        if m:
            failed = int(m.group(2))
            total = int(m.group(3))
            result = (total, failed)
        elif _NOT_RUN.match(line):
            skipped += 1
    if result is None:
        return None
    total, failed = result
    return (total - failed - skipped, failed, skipped)


def main(argv):
    parser = argparse.ArgumentParser(
        prog="inasim test",
        description=(
            "Set up if needed, build everything, then run every test registered with ctest "
            "(GoogleTest cases, ns-3 TestSuites, example and benchmark smoke runs) in parallel. "
            "Ends with the line 'inasim: N passed, M failed'. Exit 0 only if at least one test "
            "ran and all passed."
        ),
        epilog="labels: gtest, ns3, unit, example, bench, smoke, golden, driver (--list -L LABEL lists them)",
    )
    parser.add_argument("--long", action="store_true",
                        help="also run the long checks (sets INASIM_LONG_TESTS=1 for the tests)")
    parser.add_argument("-k", metavar="PATTERN", dest="pattern",
                        help="only tests whose name matches this regular expression (ctest -R)")
    parser.add_argument("-L", "--label", metavar="LABEL",
                        help="only tests with this label (ctest -L), e.g. gtest or ns3")
    parser.add_argument("--update-golden", action="store_true",
                        help="rewrite test/golden/*.json from this build instead of comparing "
                             "(only the golden tests run; a commit that changes them says which "
                             "behaviour changed and why)")
    parser.add_argument("--list", action="store_true",
                        help="list the tests (after building) instead of running them")
    parser.add_argument("--timeout", type=int, metavar="S",
                        help=f"per-test time limit in seconds (default {DEFAULT_TIMEOUT_S}, "
                             f"{LONG_TIMEOUT_S} with --long)")
    parser.add_argument("--sanitize", action="store_true",
                        help="build into build-sanitize/ with AddressSanitizer and "
                             "UndefinedBehaviorSanitizer and run the tests there: a sanitizer "
                             "report fails the test it happens in")
    parser.add_argument("-j", "--jobs", type=int, metavar="N",
                        help="parallel build jobs and tests (default: $INASIM_JOBS or the CPU "
                             "count)")
    args = parser.parse_args(argv)
    n_jobs = jobs(args.jobs)
    if args.timeout is not None and args.timeout < 1:
        raise UserError("--timeout must be at least 1 second", code=2)

    options = ()
    if args.sanitize:
        # A build tree of its own, so the normal build stays as it is.
        os.environ["INASIM_BUILD_DIR"] = str(SANITIZE_BUILD_DIR)
        options = ("-DINASIM_SANITIZE=ON",)
    bootstrap.ensure_setup(options=options)
    try:
        building.build([], n_jobs)
    except UserError as e:
        print(f"inasim: error: {e}", file=sys.stderr, flush=True)
        print("inasim: build failed, no test ran", flush=True)
        return 1
    if shutil.which("ctest") is None:
        raise UserError("ctest was not found (it comes with cmake); run ./inasim setup")

    cmd = ["ctest", "--output-on-failure", "-j", str(n_jobs)]
    if args.pattern:
        cmd += ["-R", args.pattern]
    if args.label:
        cmd += ["-L", args.label]
    if args.update_golden:
        cmd += ["-L", GOLDEN_LABEL]
    if args.list:
        cmd.append("-N")
        return subprocess.run(cmd, cwd=build_dir(), stdin=subprocess.DEVNULL,
                              check=False).returncode
    timeout = args.timeout or (LONG_TIMEOUT_S if args.long else DEFAULT_TIMEOUT_S)
    cmd += ["--timeout", str(timeout)]
    env = dict(os.environ)
    if args.long:
        env["INASIM_LONG_TESTS"] = "1"
    if args.update_golden:
        env["INASIM_UPDATE_GOLDEN"] = "1"
    if args.sanitize:
        env.update(SANITIZER_ENV)
    say(f"$ (cd {display_path(build_dir())} && {' '.join(cmd)})"
        + (" with INASIM_LONG_TESTS=1" if args.long else "")
        + (" with INASIM_UPDATE_GOLDEN=1" if args.update_golden else ""))
    sys.stdout.flush()

    lines = []
    proc = subprocess.Popen(cmd, cwd=build_dir(), env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            errors="replace")
    try:
        for line in proc.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            lines.append(line.rstrip("\n"))
    finally:
        rc = proc.wait()

    counts = parse_ctest_summary(lines)
    passed, failed, skipped = counts if counts is not None else (0, 0, 0)
    if counts is None or passed + failed + skipped == 0:
        conditions = []
        if args.pattern:
            conditions.append(f"matches -k {args.pattern}")
        if args.label:
            conditions.append(f"has label {args.label}")
        what = " and ".join(conditions) if conditions else "is registered"
        print(f"inasim: error: no test ran: no test {what} (ctest exit {rc})",
              file=sys.stderr, flush=True)
    elif rc != 0 and failed == 0:
        # ctest itself failed (e.g. a test could not be started) although none failed.
        print(f"inasim: error: ctest exited with {rc}", file=sys.stderr, flush=True)
    elif passed == 0 and failed == 0:
        print("inasim: error: every selected test was skipped", file=sys.stderr, flush=True)
    if args.update_golden and failed == 0 and passed > 0:
        print("inasim: golden summaries rewritten; review `git diff test/golden` and say in the "
              "commit which behaviour changed and why", flush=True)
    print(f"inasim: {passed} passed, {failed} failed"
          + (f", {skipped} skipped" if skipped else ""), flush=True)
    return 0 if (rc == 0 and failed == 0 and passed > 0) else 1
