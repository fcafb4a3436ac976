# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""./inasim fuzz: libFuzzer on the readers of user files (test/fuzz/, docs/reliability.md)."""

import argparse
import pathlib
import re
import shutil
import subprocess
import sys

from . import bootstrap
from .common import ROOT, UserError, chatter, display_path, jobs, say

SUMMARY = "fuzz the readers of user files with libFuzzer (clang; ASan + UBSan)"

#: Debian 12 packages the fuzz build needs beyond the main build's (libFuzzer is in clang-rt).
PACKAGES = ("clang", "libclang-rt-14-dev")

FUZZ_DIR = ROOT / "test" / "fuzz"
DEFAULT_RUNS = 1_000_000
#: An input that takes longer than this is a hang: libFuzzer keeps it as a bug. libFuzzer times
#: it by the wall clock, so on a machine loaded far beyond its cores a niced target can be stopped
#: by an input that is not slow: replay it alone before calling it a hang.
INPUT_TIMEOUT_S = 10
#: libFuzzer ends the run with a report when the process grows past this (its default, written
#: out): an input that allocates without bound is a bug, and the machine is shared. ASan reserves
#: terabytes of address space for its shadow, so `ulimit -v` cannot cap these binaries instead.
RSS_LIMIT_MB = 2048

_EXECUTED = re.compile(r"stat::number_of_executed_units:\s*(\d+)")
_ARTIFACT = re.compile(r"Test unit written to (\S+)")
_INTERRUPTED = "libFuzzer: run interrupted"


def outcome(rc, text):
    """'clean', 'interrupted' (stopped by a signal, nothing found so far) or 'failed'."""
    if rc == 0:
        return "clean"
    if _INTERRUPTED in text and _ARTIFACT.search(text) is None:
        return "interrupted"
    return "failed"


def read_targets():
    """target -> seed paths (relative to the root), from test/fuzz/targets.cmake."""
    text = (FUZZ_DIR / "targets.cmake").read_text(encoding="utf-8")
    names = re.search(r"set\(INASIM_FUZZ_TARGETS ([^)]*)\)", text)
    if not names:
        raise UserError("test/fuzz/targets.cmake lists no INASIM_FUZZ_TARGETS")
    targets = {}
    for name in names.group(1).split():
        seeds = re.search(r"set\(INASIM_FUZZ_SEEDS_%s ([^)]*)\)" % re.escape(name), text)
        targets[name] = seeds.group(1).split() if seeds else []
    return targets


def read_max_len(name):
    """The target's -max_len from test/fuzz/targets.cmake, or None (libFuzzer's default)."""
    text = (FUZZ_DIR / "targets.cmake").read_text(encoding="utf-8")
    m = re.search(r"set\(INASIM_FUZZ_MAX_LEN_%s (\d+)\)" % re.escape(name), text)
    return int(m.group(1)) if m else None


def read_options(name):
    """The target's own libFuzzer options from test/fuzz/targets.cmake (INASIM_FUZZ_OPTIONS_<t>)."""
    text = (FUZZ_DIR / "targets.cmake").read_text(encoding="utf-8")
    m = re.search(r"set\(INASIM_FUZZ_OPTIONS_%s ([^)]*)\)" % re.escape(name), text)
    return m.group(1).split() if m else []


def fuzz_build_dir():
    return ROOT / "build-fuzz"


def build(targets, n_jobs):
    missing = bootstrap.missing_packages(PACKAGES)
    if missing:
        bootstrap.install_packages(missing)
    clang = shutil.which("clang++")
    if clang is None:
        raise UserError("clang++ was not found; apt-get install clang libclang-rt-14-dev")
    bdir = fuzz_build_dir()
    if not (bdir / "build.ninja").is_file() and not (bdir / "Makefile").is_file():
        cmd = ["cmake", "-S", str(FUZZ_DIR), "-B", str(bdir), f"-DCMAKE_CXX_COMPILER={clang}"]
        if shutil.which("ninja"):
            cmd += ["-G", "Ninja"]
        say("$ " + " ".join(cmd))
        if subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=chatter(),
                          stderr=subprocess.STDOUT, check=False).returncode != 0:
            raise UserError(f"configuring {display_path(bdir)}/ failed; CMake's messages above say why")
    cmd = ["cmake", "--build", str(bdir), "-j", str(n_jobs), "--target"] + [f"fuzz-{t}" for t in targets]
    say("$ " + " ".join(cmd))
    if subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=chatter(),
                      stderr=subprocess.STDOUT, check=False).returncode != 0:
        raise UserError("building the fuzz targets failed; the compiler's messages above say why")


def run_target(name, seeds, runs, seconds, corpus_root=None):
    """Fuzz one target; returns (executions, artifact path or None, exit code).

    corpus_root: the folder holding one corpus folder per target (default build-fuzz/corpus), so
    that runs split over several invocations, or sessions, go on from what the last one learnt.
    """
    bdir = fuzz_build_dir()
    corpus = (corpus_root or bdir / "corpus") / name
    corpus.mkdir(parents=True, exist_ok=True)
    crashes = bdir / "crashes"
    crashes.mkdir(parents=True, exist_ok=True)
    cmd = [str(bdir / f"fuzz-{name}"), f"-runs={runs}", f"-timeout={INPUT_TIMEOUT_S}",
           f"-rss_limit_mb={RSS_LIMIT_MB}", f"-artifact_prefix={crashes}/{name}-",
           "-print_final_stats=1", str(corpus)]
    for seed in seeds:
        path = ROOT / seed
        if path.is_dir():
            cmd.append(str(path))
        elif path.is_file():
            # libFuzzer reads corpora from folders only: a seed file joins the working corpus.
            shutil.copyfile(path, corpus / path.name)
        else:
            raise UserError(f"test/fuzz/targets.cmake: seed {seed} of {name} does not exist")
    regressions = FUZZ_DIR / "regressions" / name
    if regressions.is_dir():
        cmd.append(str(regressions))
    if seconds:
        cmd.insert(2, f"-max_total_time={seconds}")
    max_len = read_max_len(name)
    if max_len:
        cmd.insert(2, f"-max_len={max_len}")
    cmd[2:2] = read_options(name)
    log_path = bdir / f"fuzz-{name}.log"
    with open(log_path, "w", encoding="utf-8") as log:
        rc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                            check=False, cwd=str(bdir)).returncode
    text = log_path.read_text(encoding="utf-8", errors="replace")
    executed = _EXECUTED.search(text)
    artifact = _ARTIFACT.search(text)
    return (int(executed.group(1)) if executed else None,
            artifact.group(1) if artifact else None, outcome(rc, text), log_path)


def main(argv):
    targets = read_targets()
    parser = argparse.ArgumentParser(
        prog="inasim fuzz",
        description=(
            "Build the libFuzzer targets (test/fuzz/) with clang, AddressSanitizer and "
            "UndefinedBehaviorSanitizer into build-fuzz/, and fuzz each one, starting from the "
            "repository's own files as seeds. A reader must parse an input or refuse it with "
            "the exception it documents; a crash, a sanitizer report, another exception or an "
            "input that takes over %d s is a bug: the input is saved in build-fuzz/crashes/ "
            "and the command exits 1. Copy it to test/fuzz/regressions/<target>/ and it "
            "becomes a regression test of ./inasim test." % INPUT_TIMEOUT_S),
        epilog="targets: " + ", ".join(targets))
    parser.add_argument("targets", nargs="*", metavar="TARGET",
                        help="targets to fuzz (default: all)")
    parser.add_argument("--runs", type=int, default=DEFAULT_RUNS,
                        help=f"inputs to try per target after the seeds (default {DEFAULT_RUNS:,})")
    parser.add_argument("--seconds", type=int, default=0,
                        help="stop each target after this many seconds (default: no limit)")
    parser.add_argument("--corpus", default=None, metavar="DIR",
                        help="keep each target's corpus in DIR/<target>/ (default "
                             "build-fuzz/corpus/): a folder outside the tree survives a clean "
                             "build, so runs split over several invocations add up")
    parser.add_argument("-j", "--jobs", type=int, default=None, help="parallel build jobs")
    args = parser.parse_args(argv)
    chosen = args.targets or list(targets)
    for t in chosen:
        if t not in targets:
            raise UserError(f"unknown fuzz target '{t}'; targets: {', '.join(targets)}", code=2)
    if args.runs < 1:
        raise UserError("--runs must be at least 1", code=2)
    if args.seconds < 0:
        raise UserError("--seconds must not be negative", code=2)
    corpus_root = None
    if args.corpus is not None:
        corpus_root = pathlib.Path(args.corpus).resolve()
        if corpus_root.exists() and not corpus_root.is_dir():
            raise UserError(f"--corpus {args.corpus}: not a folder", code=2)
    build(chosen, jobs(args.jobs))

    failed = 0
    for t in chosen:
        say(f"fuzzing {t} ({args.runs:,} runs" + (f", at most {args.seconds} s" if args.seconds else "") + ")")
        sys.stdout.flush()
        executed, artifact, result, log_path = run_target(t, targets[t], args.runs, args.seconds,
                                                          corpus_root)
        done = f"{executed:,} executions" if executed is not None else "executions unknown"
        if result == "clean":
            print(f"fuzz {t}: {done}, no crash, no sanitizer report", flush=True)
        elif result == "interrupted":
            print(f"fuzz {t}: interrupted after {done}, no crash so far", flush=True)
            print(f"inasim: fuzz: interrupted", flush=True)
            return 130
        else:
            failed += 1
            where = artifact or "(no input saved)"
            print(f"fuzz {t}: FAILED after {done}: input {where}; log {display_path(log_path)}",
                  flush=True)
    print(f"inasim: fuzz: {len(chosen) - failed} clean, {failed} failed", flush=True)
    return 1 if failed else 0
