# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""./inasim bench: run registered benchmark programs, merge their metrics into DIR/bench.json."""

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import time
from collections import namedtuple
from pathlib import Path

from . import bench_htsim, bootstrap, building
from .common import ROOT, UserError, cpu_count, display_path, say

SUMMARY = "run performance benchmarks; write DIR/bench.json"

#: `also`: benchmarks whose metrics this one is judged against, run in the same invocation
#: (ratios between runs of one invocation are meaningful on a noisy machine).
#: `named_only`: run only when named, never by default.
#: `check(args)`: called before anything is built (may raise UserError); what it returns goes to
#: `run(name, bench, checked)`, which returns (metrics, wall seconds). Without them the program is
#: run with its arguments (run_benchmark).
Benchmark = namedtuple("Benchmark", "program args about also named_only check run",
                       defaults=((), False, None, None))

#: The registry: benchmark name -> program (a CMake target of the same name) + arguments.
#: The program prints ONE flat JSON object on stdout, every key "<name>.<case>.<metric>", every
#: value a number (docs/driver.md, "Benchmarks"). Adding a benchmark is one line here.
BENCHMARKS = {
    "scheduler": Benchmark("scheduler-bench", (),
                           "raw ns-3 event rate: 1,000 self-rescheduling chains, 8 M events"),
    "fabric": Benchmark("fabric-bench", ("--packets=200000", "--p2p-packets=50000"),
                        "k=4 fat-tree permutation: inasim link vs PointToPoint, packet-hops/s",
                        ("scheduler",)),
    "scale": Benchmark("scale-bench", (),
                       "fat-trees k = 4, 8, 16, 24, the same permutation per host: ns per "
                       "packet-hop, peak RSS, set-up time, and their ratios to k=4"),
    "large": Benchmark("large-bench", (),
                       "k=16 fat-tree (1,024 hosts), 8 jobs x 128 workers, one ResNet-50 "
                       "iteration each, with SwitchML, ATP and ring: wall time, peak RSS, "
                       "completion, drops (long: minutes per protocol)"),
    "ring": Benchmark("ring-bench", (),
                      "ring all-reduce of 100 MB over 8 and 64 hosts on a 100 Gb/s star"),
    "switchml": Benchmark("switchml-bench", (),
                          "SwitchML 100 MB all-reduce, 8 and 64 workers on one 100 Gb/s switch: "
                          "hops/s vs PointToPoint, sim time vs line rate and ring", ("scheduler",)),
    "atp": Benchmark("atp-bench", (),
                     "8 ATP jobs x 8 workers (ResNet-50, VGG16) on a leaf-spine vs sharded PS: "
                     "wall time, hops/s, JCT per job, PS fallback", ("scheduler",)),
    "esa": Benchmark("esa-bench", (),
                     "the ESA paper's simulation (8 jobs x 8 workers of DNN A on one 100 Gb/s "
                     "switch) with ESA, ATP and SwitchML: wall time, hops/s, mean JCT, "
                     "utilisation", ("scheduler",)),
    "libra": Benchmark("libra-bench", (),
                       "one Libra job (OA-like sparse model, 30,000 hot parameters, LNS add) with "
                       "8, 16 and 32 workers on a 100 Gb/s star: wall time, hops/s, iteration time, "
                       "pairs/s", ("scheduler",)),
    "grid": Benchmark("grid-bench", (),
                      "GRID's planner at 100 workers on the paper's 500-server leaf-spine and "
                      "80-switch fat-tree (plan wall time, rate), and GRID at packet level on "
                      "Fig. 1's fabric (wall time, hops/s)", ("scheduler",)),
}

DEFAULT_OUT = ROOT / "results" / "bench"


class BenchOutputError(Exception):
    """A benchmark program broke the output protocol."""


def parse_bench_output(name, text):
    """The metrics printed by benchmark `name`: a flat JSON object of numbers, keys "<name>.*"."""
    text = text.strip()
    if not text:
        raise BenchOutputError("printed nothing on stdout (expected one JSON object)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        excerpt = text if len(text) <= 200 else text[:200] + "..."
        raise BenchOutputError(
            f"stdout is not one JSON object ({e.msg} at line {e.lineno} column {e.colno}): "
            f"{excerpt!r}"
        ) from None
    if not isinstance(data, dict):
        raise BenchOutputError(f"stdout is JSON {type(data).__name__}, expected an object")
    if not data:
        raise BenchOutputError("printed an empty JSON object (expected at least one metric)")
    prefix = name + "."
    for key, value in data.items():
        if not key.startswith(prefix) or len(key) == len(prefix):
            raise BenchOutputError(f"metric {key!r} does not start with {prefix!r} "
                                   f"(names are {name}.<case>.<metric>)")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise BenchOutputError(f"metric {key!r} is {json.dumps(value)}, expected a number "
                                   "(the object must be flat)")
        if not math.isfinite(value):
            raise BenchOutputError(f"metric {key!r} is not a finite number")
    return data


def cpu_model(cpuinfo_text):
    """The CPU model named in /proc/cpuinfo text, or ''."""
    for key in ("model name", "cpu model", "Hardware", "Processor", "cpu"):
        for line in cpuinfo_text.splitlines():
            field, sep, value = line.partition(":")
            if sep and field.strip() == key and value.strip():
                return " ".join(value.split())
    return ""


def machine_description():
    """CPU model and the number of cores this process may use, e.g. "AMD EPYC 7B13, 2 cores"."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            model = cpu_model(f.read())
    except OSError:
        model = ""
    model = model or platform.processor() or platform.machine() or "unknown CPU"
    cores = cpu_count()
    return f"{model}, {cores} core{'s' if cores != 1 else ''}"


def format_value(value):
    if isinstance(value, int):
        return f"{value:,}"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.4g}"


def run_benchmark(name, bench):
    """Run one benchmark; returns (metrics, wall seconds). Raises UserError on failure."""
    program = building.find_program(bench.program)
    if program is None:
        raise UserError(f"benchmark {name}: program {bench.program} not found after the build")
    cmd = [str(program), *bench.args]
    say(f"bench {name}: $ {display_path(program)} {' '.join(bench.args)}".rstrip())
    start = time.monotonic()
    # stderr stays on the terminal (progress, diagnostics); stdout is the protocol.
    proc = subprocess.run(cmd, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          text=True, errors="replace", check=False)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        tail = proc.stdout.strip()[-500:]
        raise UserError(f"benchmark {name}: {bench.program} exited with {proc.returncode}"
                        + (f"; stdout ended with: {tail}" if tail else ""))
    try:
        return parse_bench_output(name, proc.stdout), wall
    except BenchOutputError as e:
        raise UserError(f"benchmark {name}: {bench.program} {e}") from None


#: Packet-hops of the htsim benchmark's scale-bench: a shorter default than `scale`'s (htsim runs
#: every size twice).
HTSIM_HOPS = 5000000


def run_htsim(name, bench, binary):
    """scale-bench (`bench`), then htsim on the same sizes; returns (metrics, wall seconds)."""
    start = time.monotonic()
    scale, _ = run_benchmark("scale", bench)
    say(f"bench {name}: $ {display_path(binary)} (k = "
        + ", ".join(map(str, bench_htsim.SIZES)) + ", two flow lengths each)")
    metrics = bench_htsim.compare(binary, scale, HTSIM_HOPS)
    return metrics, time.monotonic() - start


#: Only when named (`./inasim bench htsim --htsim PATH`): htsim is the user's own build of another
#: simulator. It runs scale-bench on htsim's sizes and htsim beside it
#: (tools/inasim_driver/bench_htsim.py).
BENCHMARKS["htsim"] = Benchmark(
    "scale-bench", ("--k=" + ",".join(map(str, bench_htsim.SIZES)), f"--hops={HTSIM_HOPS}"),
    "htsim (EQDS, its htsim_eqds binary; --htsim PATH or INASIM_HTSIM) and scale-bench on the "
    "same fat-trees k = 4, 8, 16, 24 and permutation: CPU ns per packet-hop, ours/htsim and "
    "k/k=4 for each; only when named",
    named_only=True, check=lambda args: bench_htsim.htsim_path(args.htsim), run=run_htsim)


def list_benchmarks():
    print("registered benchmarks:")
    for name, bench in BENCHMARKS.items():
        # A benchmark with a run of its own runs more than its program.
        program = f"({name}) {bench.program}" if bench.run else bench.program
        print(f"  {name:<12} {program:<20} {bench.about}")


def main(argv):
    parser = argparse.ArgumentParser(
        prog="inasim bench",
        description=(
            "Set up and build if needed, run the named benchmarks (default: all registered) one "
            "after another, and merge their metrics into one flat JSON object in DIR/bench.json "
            "(metric name -> number, plus 'machine'). The file is replaced, not appended to."
        ),
        epilog="registered: " + ", ".join(n for n, b in BENCHMARKS.items() if not b.named_only)
        + "; " + ", ".join(n for n, b in BENCHMARKS.items() if b.named_only)
        + " only when named (see --list)",
    )
    parser.add_argument("names", nargs="*", metavar="NAME", help="benchmarks to run")
    parser.add_argument("--out", metavar="DIR",
                        help=f"output directory (default {display_path(DEFAULT_OUT)}/)")
    parser.add_argument("--list", action="store_true", help="list the registered benchmarks")
    parser.add_argument("--htsim", metavar="PATH",
                        help="htsim's htsim_eqds binary, for the htsim benchmark (default "
                        f"${bench_htsim.ENV})")
    parser.add_argument("-j", "--jobs", type=int, metavar="N",
                        help="parallel compile jobs if a build is needed")
    args = parser.parse_intermixed_args(argv)

    if args.list:
        list_benchmarks()
        return 0
    names = (list(dict.fromkeys(args.names))
             or [n for n, b in BENCHMARKS.items() if not b.named_only])
    unknown = [n for n in names if n not in BENCHMARKS]
    if unknown:
        raise UserError(f"unknown benchmark {', '.join(unknown)}; registered: "
                        + ", ".join(BENCHMARKS), code=2)
    names = list(dict.fromkeys([a for n in names for a in BENCHMARKS[n].also] + names))
    if args.out is not None and not args.out.strip():
        raise UserError("--out needs a directory", code=2)
    out_dir = Path(args.out).resolve() if args.out else DEFAULT_OUT
    checked = {n: BENCHMARKS[n].check(args) for n in names if BENCHMARKS[n].check}

    bootstrap.ensure_setup()
    programs = list(dict.fromkeys(BENCHMARKS[n].program for n in names))
    try:
        building.build(programs, args.jobs)
    except building.UnknownTarget as e:
        owners = [n for n in names if BENCHMARKS[n].program == e.target]
        raise UserError(f"benchmark {', '.join(owners) or e.target}: the build defines no "
                        f"program {e.target}") from None

    results = {"machine": machine_description()}
    failures = []
    for name in names:
        try:
            bench = BENCHMARKS[name]
            if bench.run:
                metrics, wall = bench.run(name, bench, checked.get(name))
            else:
                metrics, wall = run_benchmark(name, bench)
        except UserError as e:
            print(f"inasim: error: {e}", file=sys.stderr, flush=True)
            failures.append(name)
            continue
        results.update(metrics)
        say(f"bench {name}: {len(metrics)} metrics in {wall:.1f} s")
        width = max(len(k) for k in metrics)
        for key, value in metrics.items():
            print(f"  {key:<{width}}  {format_value(value):>16}", flush=True)

    if len(results) > 1:
        out_dir.mkdir(parents=True, exist_ok=True)
        path = out_dir / "bench.json"
        tmp = path.with_suffix(".json.tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=2)
            f.write("\n")
        os.replace(tmp, path)
        say(f"wrote {display_path(path)} ({results['machine']})")
    if failures:
        raise UserError("benchmark(s) failed: " + ", ".join(failures)
                        + ("; bench.json holds the others" if len(results) > 1 else ""))
    return 0
