# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""./inasim plot: the standard figures (PNG and PDF) of one run's folder or of a sweep's folder.

matplotlib (Debian's python3-matplotlib) is imported here only, when a figure is drawn: the rest
of the driver stays standard-library only. The figures themselves are in figures.py.
"""

import argparse
import csv
import json
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from . import bootstrap
from . import sweep_results as results
from .common import ROOT, UserError, display_path, say

SUMMARY = "draw the standard figures (PNG + PDF) of a run or sweep folder"

MATPLOTLIB_PACKAGE = "python3-matplotlib"
FORMATS = ("png", "pdf", "svg")


#: Debian's interpreter, which python3-matplotlib is installed for.
SYSTEM_PYTHON = "/usr/bin/python3"
_REEXEC_MARK = "INASIM_PLOT_REEXEC"


def _other_python_with_matplotlib():
    """Debian's python3 when it is not this interpreter and can import matplotlib, else None.

    `python3` may be another installation (pyenv, a virtualenv) that does not see the packages
    Debian installs for /usr/bin/python3.
    """
    system = Path(SYSTEM_PYTHON)
    if os.environ.get(_REEXEC_MARK) or not system.is_file():
        return None
    if os.path.realpath(system) == os.path.realpath(sys.executable):
        return None
    probe = subprocess.run([str(system), "-c", "import matplotlib"], stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return str(system) if probe.returncode == 0 else None


def load_pyplot(argv):
    """matplotlib.pyplot on the Agg backend, installing Debian's package if it is missing.

    Where this interpreter cannot import matplotlib but Debian's can, the command runs again
    under Debian's (argv: this command's arguments).
    """
    try:
        import matplotlib
    except ImportError:
        missing = bootstrap.missing_packages((MATPLOTLIB_PACKAGE,))
        if missing:
            bootstrap.install_packages(missing)
        other = _other_python_with_matplotlib()
        if other is not None:
            sys.stdout.flush()
            sys.stderr.flush()
            os.execve(other, [other, str(ROOT / "inasim"), "plot", *argv],
                      dict(os.environ, **{_REEXEC_MARK: "1"}))
        try:
            import matplotlib
        except ImportError:
            raise UserError(
                f"plotting needs matplotlib, which {sys.executable} cannot import (Debian's "
                f"{MATPLOTLIB_PACKAGE} is for {SYSTEM_PYTHON}; ./inasim setup installs it)"
            ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


# ---------------------------------------------------------------------------------------------
# Reading a folder


def _cell(text):
    if text == "":
        return None
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        pass
    try:
        value = float(text)
        return value if math.isfinite(value) else None
    except ValueError:
        return text


def read_csv(path):
    """The rows of a CSV table as dicts, numbers converted; [] when the file is absent."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            return [{k: _cell(v or "") for k, v in row.items() if k is not None}
                    for row in reader], list(reader.fieldnames or [])
    except FileNotFoundError:
        return [], []


def folder_kind(directory):
    """"run" (a summary.json), "sweep" (sweep.json or results.csv) or None."""
    if (directory / "summary.json").is_file():
        return "run"
    if (directory / results.PLAN_FILE).is_file() or (directory / results.CSV_FILE).is_file():
        return "sweep"
    return None


def load_sweep(directory):
    """(columns, rows, axes) of a sweep folder.

    From sweep.json and the run folders when they are there (so a sweep still running on Slurm
    plots what has finished), else from results.csv, whose columns between `index` and `seed`
    are the axes.
    """
    if (directory / results.PLAN_FILE).is_file():
        try:
            plan = results.load_plan(directory)
        except (OSError, results.PlanError) as e:
            raise UserError(f"cannot read {display_path(directory / results.PLAN_FILE)}: {e}") \
                from None
        columns, rows = results.collect(plan, directory)
        return columns, rows, [a for a in plan["axes"] if a != "seed"]
    columns, rows = results.read_csv_table(directory / results.CSV_FILE)
    if "index" not in columns or "seed" not in columns:
        raise UserError(f"{display_path(directory / results.CSV_FILE)} is not a sweep table "
                        "(no 'index' and 'seed' columns)")
    axes = columns[columns.index("index") + 1:columns.index("seed")]
    return columns, rows, axes


# ---------------------------------------------------------------------------------------------


def run_summary_notes(directory):
    """Notes on a run's summary.json; UserError if it does not read.

    summary.json is written last: a folder whose summary does not read is a run that was cut
    short (killed while writing, a full disk), and its CSV tables cannot be trusted either.
    """
    notes = []
    summary_path = directory / "summary.json"
    try:
        with open(summary_path, encoding="utf-8") as f:
            summary = json.load(f)
    except ValueError as e:
        raise UserError(f"{display_path(summary_path)} is not valid JSON ({e}); the run was cut "
                        "short or the file is damaged: run it again") from None
    if not isinstance(summary, dict) or "completed" not in summary:
        raise UserError(f"{display_path(summary_path)} is not an inasim run summary (no "
                        "'completed' field)")
    if summary.get("completed") is False:
        notes.append(f"the run ended incomplete ({summary.get('ended_by', 'unknown')}): "
                     f"{summary.get('incomplete_reason', '')}; the figures show what finished")
    return notes


def plot_run(plt, directory, out_dir, formats):
    from . import figures
    figures.apply_style(plt)
    written = []
    notes = []
    iterations, _ = read_csv(directory / "iterations.csv")
    jobs, _ = read_csv(directory / "jobs.csv")
    protocols = {str(r.get("job")): r.get("protocol") for r in jobs}
    for r in iterations:
        r["job"] = str(r["job"])
    iterations = [r for r in iterations if isinstance(r.get("iteration_time_s"), (int, float))]
    if iterations:
        written += figures.iteration_time_figure(plt, iterations, protocols, out_dir, formats)
        written += figures.timeline_figure(plt, iterations, protocols, out_dir, formats)
    else:
        notes.append("no iterations.csv rows (no training job): no iteration figures")
    series, columns = read_csv(directory / "timeseries.csv")
    series = [r for r in series if isinstance(r.get("time_s"), (int, float))]
    if series:
        written += figures.queue_figure(plt, series, out_dir, formats)
        aggregators = figures.aggregator_columns(columns)
        if aggregators:
            written += figures.aggregator_figure(plt, series, aggregators, out_dir, formats)
        else:
            notes.append("timeseries.csv has no aggregator occupancy column: no aggregator "
                         "figure")
    else:
        notes.append("no time series (set outputs.timeseries_interval > 0): no queue or "
                     "aggregator figures")
    flows, _ = read_csv(directory / "flows.csv")
    flows = [r for r in flows if r.get("completed") is True]
    if flows:
        written += figures.fct_cdf_figure(plt, flows, out_dir, formats)
    return written, notes


def plot_sweep(plt, directory, out_dir, formats, args):
    from . import figures
    columns, rows, axes = load_sweep(directory)
    wanted = {results.OK} | ({results.INCOMPLETE} if args.include_incomplete else set())
    used = [r for r in rows if r.get("status") in wanted]
    if not used:
        counts = {}
        for r in rows:
            counts[r.get("status")] = counts.get(r.get("status"), 0) + 1
        raise UserError(f"no run to plot in {display_path(directory)}: "
                        + ", ".join(f"{n} {s}" for s, n in counts.items())
                        + (" (--include-incomplete plots incomplete runs)"
                           if counts.get(results.INCOMPLETE) else ""))
    notes = []
    left_out = len(rows) - len(used)
    if left_out:
        notes.append(f"{left_out} of {len(rows)} runs left out (status not "
                     f"{' or '.join(sorted(wanted))})")
    swept = figures.swept_axes(used, axes)
    if not swept:
        raise UserError(f"no axis of {display_path(directory)} has two values among the runs "
                        "plotted: nothing to draw against")
    candidates = [c for c in columns if c not in figures.NOT_METRICS and c not in axes]
    if args.metric:
        metrics = figures.select_metrics(candidates, used, args.metric)
        if not metrics:
            raise UserError("no column matches --metric " + " ".join(args.metric)
                            + "; columns: " + ", ".join(candidates))
    else:
        pool = candidates if args.all_metrics else figures.default_metrics(candidates, used)
        metrics = [c for c in pool
                   if any(isinstance(r.get(c), (int, float)) for r in used)
                   and not figures.is_constant(used, c)]
        constant = [c for c in pool if c not in metrics]
        if constant:
            notes.append("not drawn, the same in every run: " + ", ".join(constant))
        if not metrics:
            raise UserError("every metric is the same in every run; pick one with --metric")
    written = figures.sweep_figures(plt, columns, used, axes, metrics, out_dir, formats)
    return written, notes


def main(argv):
    parser = argparse.ArgumentParser(
        prog="inasim plot",
        description=textwrap.dedent("""\
            Draw the standard figures of a folder, as PNG and PDF (matplotlib, Agg).
            A run's folder (summary.json): iteration time per job, the per-iteration timeline,
            queue length and aggregator occupancy over time (when time series were recorded),
            and the flow completion time distribution. A sweep's folder (sweep.json or
            results.csv): each metric against each swept axis, one line per value of the other
            axes (protocol, ...), mean and standard deviation over the seeds as error bars."""),
        epilog=textwrap.dedent("""\
            examples:
              ./inasim plot results/default
              ./inasim plot results/fct-vs-loss
              ./inasim plot results/jct-vs-pool --metric 'jobs.*.jct_s' --format pdf"""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("dir", metavar="DIR", help="a run's or a sweep's output folder")
    parser.add_argument("--out", metavar="FIGDIR", help="where figures go (default DIR/figures/)")
    parser.add_argument("--format", default="png,pdf", metavar="LIST",
                        help="comma-separated formats: png, pdf, svg (default png,pdf)")
    parser.add_argument("--metric", action="append", metavar="PATTERN",
                        help="sweep: plot these results columns (shell patterns, e.g. "
                             "'jobs.*.jct_s'; repeatable) instead of the default ones")
    parser.add_argument("--all-metrics", action="store_true",
                        help="sweep: plot every numeric column that varies")
    parser.add_argument("--include-incomplete", action="store_true",
                        help="sweep: also plot runs that ended incomplete")
    args = parser.parse_args(argv)

    formats = [f.strip().lower() for f in args.format.split(",") if f.strip()]
    bad = [f for f in formats if f not in FORMATS]
    if not formats or bad:
        raise UserError(f"--format {args.format}: expected a list of {', '.join(FORMATS)}",
                        code=2)
    directory = Path(args.dir)
    if not directory.is_dir():
        raise UserError(f"no such folder: {args.dir}")
    kind = folder_kind(directory)
    if kind is None:
        raise UserError(f"{args.dir} is neither a run's folder (summary.json) nor a sweep's "
                        "(sweep.json, results.csv)")
    out_dir = Path(args.out) if args.out else directory / "figures"
    summary_notes = run_summary_notes(directory) if kind == "run" else []
    plt = load_pyplot(argv)
    out_dir.mkdir(parents=True, exist_ok=True)
    if kind == "run":
        written, notes = plot_run(plt, directory, out_dir, formats)
    else:
        written, notes = plot_sweep(plt, directory, out_dir, formats, args)
    for note in summary_notes + notes:
        say(note)
    if not written:
        raise UserError(f"nothing to draw in {display_path(directory)}")
    names = sorted({p.stem for p in written})
    say(f"wrote {len(written)} files ({', '.join(formats)}) to {display_path(out_dir)}/: "
        + ", ".join(names))
    return 0
