# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""./inasim sweep: expand a sweep file into runs, run them N at a time (or as a Slurm job array),
skip the runs that already finished, and collect every run into results.csv and results.sqlite.

The expansion is `inasim-config expand-sweep` (the driver has no YAML parser); each run is one
`inasim-run BASE OVERRIDES... --out DIR/runs/<run-id>` process. docs/sweeps.md has the details.
"""

import argparse
import fcntl
import json
import os
import queue
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

from . import bootstrap, building
from . import sweep_results as results
from .common import ROOT, UserError, chatter, cpu_count, display_path, say, warn
from .progress import SweepProgress

SUMMARY = "run a sweep file's runs N at a time (or on Slurm); collect results.csv/.sqlite"

PROGRAM = "inasim-run"
CONFIG_PROGRAM = "inasim-config"
SWEEP_DIR = ROOT / "examples" / "sweeps"

#: inasim-run's exit codes (src/ina-scenario/examples/inasim-run.cc).
EXIT_MEANINGS = {
    0: "completed",
    1: "ended incomplete",
    2: "bad scenario (exit 2)",
    3: "the model refused the set-up (exit 3)",
    4: "the machine refused (out of memory, a file system error; exit 4)",
    130: "interrupted by SIGINT (exit 130, partial summary)",
    143: "interrupted by SIGTERM (exit 143, partial summary)",
}

#: Exit codes of a run stopped by the same Ctrl-C or SIGTERM as the sweep: inasim-run answers
#: them by writing a partial summary and exiting 128 + the signal; killed before it could, the
#: code is minus the signal.
INTERRUPTED_CODES = (-signal.SIGINT, -signal.SIGTERM, 128 + signal.SIGINT, 128 + signal.SIGTERM)

#: How many stderr lines of a failed run go into its `error`.
ERROR_TAIL_LINES = 3
ERROR_MAX_CHARS = 600


class Interrupted(Exception):
    """SIGINT or SIGTERM while runs are going on."""


def _raise_interrupted(signum, frame):
    raise Interrupted(signal.Signals(signum).name)


# ---------------------------------------------------------------------------------------------
# The sweep file and its expansion


def example_sweeps():
    if not SWEEP_DIR.is_dir():
        return []
    return sorted(p.stem for p in SWEEP_DIR.glob("*.yaml") if p.is_file())


def resolve_sweep(arg):
    """The sweep file for `arg`: a path, or the name of a file in examples/sweeps/."""
    path = Path(arg)
    if path.is_file():
        return path.resolve()
    if path.is_dir():
        raise UserError(f"sweep '{arg}' is a directory; expected a sweep file (.yaml)")
    if "/" not in arg:
        for candidate in (SWEEP_DIR / arg, SWEEP_DIR / f"{arg}.yaml"):
            if candidate.is_file():
                return candidate.resolve()
    names = ", ".join(example_sweeps()) or "none"
    raise UserError(f"sweep file not found: {arg} (examples/sweeps/ has: {names})")


def expand(config_program, sweep_path):
    """The plan of a sweep file: `inasim-config expand-sweep`'s JSON, `base` made absolute, and
    `base_sha256` (the base file's hash, to notice a changed base scenario on resume)."""
    proc = subprocess.run([str(config_program), "expand-sweep", str(sweep_path)],
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, errors="replace", check=False)
    if proc.returncode != 0:
        message = proc.stderr.strip()
        if message.startswith("error: "):
            message = message[len("error: "):]
        raise UserError(message or f"{CONFIG_PROGRAM} expand-sweep exited with "
                        f"{proc.returncode}", code=2 if proc.returncode == 2 else 1)
    try:
        plan = json.loads(proc.stdout)
        results.check_plan(plan, f"{CONFIG_PROGRAM} expand-sweep {sweep_path}")
    except (ValueError, results.PlanError) as e:
        raise UserError(f"cannot read the expansion of {display_path(sweep_path)}: {e}") from None
    base = Path(plan["base"])
    if not base.is_absolute():
        base = Path.cwd() / base
    plan["base"] = str(base.resolve())
    plan["sweep_file"] = str(Path(sweep_path).resolve())
    try:
        plan["base_sha256"] = results.file_sha256(plan["base"])
    except OSError as e:
        raise UserError(f"cannot read the base scenario {plan['base']}: {e.strerror}") from None
    return plan


def effective_config(config_program, plan, run):
    """The effective configuration (config.yaml text) of a run, or None if it does not load."""
    proc = subprocess.run([str(config_program), "effective", plan["base"], *run["overrides"]],
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True, errors="replace", check=False)
    return proc.stdout if proc.returncode == 0 else None


# ---------------------------------------------------------------------------------------------
# Which runs are finished


def usable_status(plan, run, out_dir, config_program=None, rerun=None):
    """(status, why not) for a run folder: the status when its result can be kept.

    A result is kept when status.json exists, records this run's overrides and base scenario, and
    the base file is unchanged or (checked with inasim-config) still gives the same effective
    configuration. `rerun` "failed" or "all" discards failed or all results; a discarded result
    gives a reason, a run without one gives none.
    """
    directory = results.run_dir(out_dir, run)
    status = results.read_status(directory)
    if status is None:
        return None, None
    if rerun == "all":
        return None, "--rerun-all"
    if rerun == "failed" and status["status"] == results.FAILED:
        return None, "it failed"
    if status.get("overrides") != run["overrides"] or status.get("base") != plan["base"]:
        return None, "it ran with other overrides or another base scenario"
    if status.get("base_sha256") != plan.get("base_sha256"):
        expected = effective_config(config_program, plan, run) if config_program else None
        try:
            actual = (directory / "config.yaml").read_text(encoding="utf-8")
        except OSError:
            actual = None
        if expected is None or actual != expected:
            return None, "the base scenario changed since it ran"
    return status, None


def scan(plan, out_dir, config_program=None, rerun=None, forget_stale=True):
    """{run id: kept status} and the number of discarded (stale or rerun) results.

    With forget_stale, a discarded result's status.json is removed at once, so that the table
    shows the run as pending until it has run again.
    """
    kept = {}
    discarded = 0
    for run in plan["runs"]:
        status, why = usable_status(plan, run, out_dir, config_program, rerun)
        if status is not None:
            kept[run["id"]] = status
        elif why is not None:
            discarded += 1
            if forget_stale:
                try:
                    os.unlink(results.run_dir(out_dir, run) / results.STATUS_FILE)
                except OSError:
                    pass
    return kept, discarded


def foreign_run_folders(plan, out_dir):
    """Folders in runs/ that are not runs of this plan (from an edited sweep file)."""
    runs_dir = Path(out_dir) / "runs"
    if not runs_dir.is_dir():
        return []
    ids = {run["id"] for run in plan["runs"]}
    return sorted(p.name for p in runs_dir.iterdir() if p.is_dir() and p.name not in ids)


# ---------------------------------------------------------------------------------------------
# One run


def error_tail(stderr_path):
    """The last few meaningful lines a run printed on stderr, as one line."""
    try:
        with open(stderr_path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return ""
    lines = [line.strip() for line in lines
             if line.strip() and not line.lstrip().startswith("[inasim] sim ")]
    text = " | ".join(lines[-ERROR_TAIL_LINES:])
    return text if len(text) <= ERROR_MAX_CHARS else "..." + text[-ERROR_MAX_CHARS:]


def _load_prctl():
    """libc's prctl, loaded once in the sweep (not in each child, where it would cost time)."""
    try:
        import ctypes
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _load_prctl() if sys.platform.startswith("linux") else None
_PR_SET_PDEATHSIG = 1


def _die_with_parent():
    """In a run's process, before exec: SIGTERM it when the sweep dies, however it dies.

    A sweep that is SIGKILLed (an OOM killer, a scheduler's hard limit) runs no handler of its
    own, so only the kernel can stop its runs; Linux does that with PR_SET_PDEATHSIG. inasim-run
    answers SIGTERM by writing a partial summary and exiting. Elsewhere this does nothing.
    """
    if _PRCTL is not None:
        _PRCTL(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def describe_exit(code, timed_out=None, signal_note=None):
    if timed_out is not None:
        return f"timed out after {timed_out:g} s (--timeout)"
    if signal_note:
        return signal_note
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"killed by {name}"
    return EXIT_MEANINGS.get(code, f"exit {code}")


def make_status(plan, run, directory, code, duration, command, timed_out=None, signal_note=None):
    """The status.json of a run that ended with exit `code`."""
    summary = results.read_summary(directory)
    if code == 0 and summary is not None and timed_out is None:
        state, error = results.OK, ""
    elif code == 1 and summary is not None and timed_out is None:
        state = results.INCOMPLETE
        error = str(summary.get("incomplete_reason") or "the run ended incomplete")
    else:
        state = results.FAILED
        meaning = describe_exit(code, timed_out, signal_note)
        if code in (0, 1) and summary is None and timed_out is None and not signal_note:
            meaning = f"exited with {code} but wrote no summary.json"
        tail = error_tail(directory / "stderr.log")
        error = f"{meaning}: {tail}" if tail else meaning
    # inasim-run's error.json names the key and the place apart (only a failed run has one).
    report = results.read_error_report(directory) if state == results.FAILED else None
    return {
        "run_id": run["id"],
        "index": run["index"],
        "status": state,
        "exit_code": code,
        "error": error,
        "error_kind": (report or {}).get("kind") or "",
        "error_key": (report or {}).get("key") or "",
        "error_where": results.error_where(report) if report else "",
        "duration_s": round(duration, 6),
        "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "host": socket.gethostname(),
        "seed": run["seed"],
        "values": run["values"],
        "overrides": run["overrides"],
        "base": plan["base"],
        "base_sha256": plan.get("base_sha256"),
        "command": command,
    }


class RunProcess:
    """One inasim-run process writing into its run folder."""

    def __init__(self, program, plan, run, out_dir):
        self.plan = plan
        self.run = run
        self.directory = results.run_dir(out_dir, run)
        # Whatever an unfinished earlier attempt left goes: the folder then holds one run.
        if self.directory.exists():
            shutil.rmtree(self.directory)
        self.directory.mkdir(parents=True)
        self.command = [str(program), plan["base"], *run["overrides"], "--out",
                        str(self.directory)]
        self.start = time.monotonic()
        with open(self.directory / "stdout.log", "wb") as out, \
                open(self.directory / "stderr.log", "wb") as err:
            self.proc = subprocess.Popen(self.command, stdin=subprocess.DEVNULL, stdout=out,
                                         stderr=err, preexec_fn=_die_with_parent)

    def wait(self, timeout=None):
        """Wait for the process; returns (exit code, timed-out seconds or None)."""
        try:
            return self.proc.wait(timeout=timeout), None
        except subprocess.TimeoutExpired:
            # SIGTERM first: inasim-run then writes a partial summary of how far it got.
            self.proc.terminate()
            try:
                return self.proc.wait(timeout=10), timeout
            except subprocess.TimeoutExpired:
                self.proc.kill()
                return self.proc.wait(), timeout

    def finish(self, code, timed_out=None, signal_note=None):
        """Write status.json (atomically, last); returns the status."""
        status = make_status(self.plan, self.run, self.directory, code,
                             time.monotonic() - self.start, self.command, timed_out, signal_note)
        results.write_json_atomic(self.directory / results.STATUS_FILE, status)
        return status

    def stop(self):
        """End the process (interrupted sweep); its folder stays unfinished."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# ---------------------------------------------------------------------------------------------
# Running locally


def run_local(program, plan, out_dir, todo, jobs, timeout, progress):
    """Run the runs `todo` at most `jobs` at a time; returns {run id: status} of those that ended.

    Raises Interrupted on SIGINT/SIGTERM after stopping the running processes (whose folders stay
    unfinished, so the next invocation reruns them).
    """
    ended = {}
    pending = list(todo)
    running = {}
    events = queue.Queue()

    def waiter(rp):
        code, timed_out = rp.wait(timeout)
        events.put((rp, code, timed_out))

    def record(rp, code, timed_out):
        status = rp.finish(code, timed_out)
        ended[rp.run["id"]] = status
        progress.finished += 1
        if status["status"] == results.FAILED:
            progress.failed += 1
            progress.message(f"inasim: run {rp.run['id']} failed: {status['error']}")

    try:
        while pending or running:
            while pending and len(running) < jobs:
                run = pending.pop(0)
                rp = RunProcess(program, plan, run, out_dir)
                running[run["id"]] = rp
                threading.Thread(target=waiter, args=(rp,), daemon=True).start()
            progress.running = len(running)
            progress.show()
            try:
                rp, code, timed_out = events.get(timeout=1.0)
            except queue.Empty:
                continue
            del running[rp.run["id"]]
            record(rp, code, timed_out)
            progress.running = len(running)
            progress.show()
    except (Interrupted, KeyboardInterrupt):
        # Runs that ended on their own before the signal are kept; the others (and those that
        # died of the same Ctrl-C) stay unfinished.
        while True:
            try:
                rp, code, timed_out = events.get_nowait()
            except queue.Empty:
                break
            running.pop(rp.run["id"], None)
            if code not in INTERRUPTED_CODES:
                record(rp, code, timed_out)
        for rp in running.values():
            rp.stop()
        progress.running = 0
        raise Interrupted("interrupted")
    return ended


def run_index(args):
    """--run-index I: run one run of the plan in --out (a Slurm array task), then exit."""
    if not args.out:
        raise UserError("--run-index needs --out DIR (the sweep folder holding sweep.json)",
                        code=2)
    out_dir = Path(args.out).resolve()
    try:
        plan = results.load_plan(out_dir)
    except OSError as e:
        raise UserError(f"cannot read {display_path(out_dir / results.PLAN_FILE)}: "
                        f"{e.strerror}") from None
    except results.PlanError as e:
        raise UserError(str(e)) from None
    runs = plan["runs"]
    if not 0 <= args.run_index < len(runs):
        raise UserError(f"--run-index {args.run_index}: the sweep has runs 0 to {len(runs) - 1}",
                        code=2)
    run = runs[args.run_index]
    status, _ = usable_status(plan, run, out_dir)
    if status is not None:
        print(f"inasim: run {run['id']}: already finished ({status['status']}), not rerun",
              flush=True)
        return 0
    program = args.program or building.find_program(PROGRAM)
    if program is None:
        raise UserError(f"no {PROGRAM} under {display_path(building.build_dir())}/; build it "
                        f"first (./inasim build {PROGRAM})")
    previous = signal.signal(signal.SIGTERM, _raise_interrupted)
    try:
        print(f"inasim: run {run['id']} on {socket.gethostname()}", flush=True)
        rp = RunProcess(program, plan, run, out_dir)
        try:
            code, timed_out = rp.wait(args.timeout)
            status = rp.finish(code, timed_out)
        except Interrupted:
            # Slurm's time limit or scancel: record it, so that the collector knows why.
            rp.stop()
            status = rp.finish(rp.proc.returncode, signal_note=(
                "terminated by SIGTERM (Slurm time limit or scancel)"))
    finally:
        signal.signal(signal.SIGTERM, previous)
    print(f"inasim: run {run['id']}: {status['status']}"
          + (f": {status['error']}" if status["error"] else ""), flush=True)
    return 0 if status["status"] != results.FAILED else 1


# ---------------------------------------------------------------------------------------------
# Reporting


def report(plan, out_dir, rows, reused, interrupted=False):
    """The closing lines; returns the exit code (0: every run ok or incomplete)."""
    counts = {}
    for row in rows:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    parts = [f"{counts.get(s, 0)} {s}" for s in (results.OK, results.INCOMPLETE, results.FAILED)]
    if counts.get(results.PENDING):
        parts.append(f"{counts[results.PENDING]} not run")
    say(f"sweep {plan['name']}: {len(rows)} runs: {', '.join(parts)}"
        + (f" ({reused} had finished before and were kept)" if reused else ""))
    failed = [row for row in rows if row["status"] == results.FAILED]
    for row in failed[:10]:
        say(f"  failed {row['run_id']}: {row['error']}")
    if len(failed) > 10:
        say(f"  ... and {len(failed) - 10} more (column 'error' of results.csv)")
    incomplete = [row for row in rows if row["status"] == results.INCOMPLETE]
    for row in incomplete[:3]:
        say(f"  incomplete {row['run_id']}: {row['error']}")
    say(f"table: {display_path(out_dir / results.CSV_FILE)}, "
        f"{display_path(out_dir / results.SQLITE_FILE)} ({len(rows)} rows)")
    if interrupted:
        say("interrupted: run the same command again to run the rest "
            "(finished runs are kept)")
        return 130
    if counts.get(results.OK, 0) + counts.get(results.INCOMPLETE, 0):
        say(f"figures: ./inasim plot {display_path(out_dir)}")
    return 0 if not failed and not counts.get(results.PENDING) else 1


def list_runs(plan, out_dir, kept):
    width = max((len(run["id"]) for run in plan["runs"]), default=10)
    for run in plan["runs"]:
        status = kept.get(run["id"])
        state = status["status"] if status else results.PENDING
        print(f"{run['id']:<{width}}  {state:<10}  {' '.join(run['overrides'])}")
    print(f"{len(plan['runs'])} runs; base {display_path(plan['base'])}")


# ---------------------------------------------------------------------------------------------


def parse_args(argv):
    parser = argparse.ArgumentParser(
        prog="inasim sweep",
        usage="inasim sweep [-h] SWEEP [--jobs N] [--out DIR] [--slurm] [options]",
        description=textwrap.dedent("""\
            Expand a sweep file (a base scenario, axes crossed as a product, zip groups, repeats
            over seeds, ranges) into runs and run each in its own folder DIR/runs/<run-id>/,
            N at a time here or as a Slurm job array (--slurm). Runs that finished earlier are
            kept, unfinished ones run again; a failed run is recorded and the others go on.
            Every run is collected into DIR/results.csv and DIR/results.sqlite, one row per run.
            Exit 0 when every run completed (or ended incomplete), 1 if any failed."""),
        epilog=textwrap.dedent(f"""\
            sweeps in examples/sweeps/: {', '.join(example_sweeps()) or 'none'}
            file format: docs/scenario-reference.md ("Sweep files"); walkthrough: docs/sweeps.md

            examples:
              ./inasim sweep examples/sweeps/fct-vs-loss.yaml --jobs 2
              ./inasim sweep fct-vs-loss --out results/fct-loss && ./inasim plot results/fct-loss
              ./inasim sweep fct-vs-loss --slurm --jobs 64 --partition short --time 0:30:00"""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("sweep", nargs="?", metavar="SWEEP",
                        help="a sweep file, or the name of one in examples/sweeps/")
    parser.add_argument("-j", "--jobs", type=int, metavar="N",
                        help=f"runs at a time (default: the CPU count, here {cpu_count()}); "
                             "with --slurm the array's %%N limit (default: none)")
    parser.add_argument("--out", metavar="DIR",
                        help="sweep folder (default: results/<sweep name>/ in the current folder)")
    parser.add_argument("--keep-failed", action="store_true",
                        help="keep the runs that failed earlier instead of running them again")
    parser.add_argument("--rerun-all", action="store_true",
                        help="run every run again, also those that finished")
    parser.add_argument("--timeout", type=float, metavar="S",
                        help="kill a run after S seconds of wall time (recorded as failed)")
    parser.add_argument("--list", action="store_true",
                        help="list the runs and their status; run nothing")
    slurm = parser.add_argument_group("Slurm")
    slurm.add_argument("--slurm", action="store_true",
                       help="submit the unfinished runs as a Slurm job array (sbatch), wait for "
                            "it and collect the results (DIR must be on a shared file system)")
    slurm.add_argument("--partition", metavar="P", help="sbatch --partition")
    slurm.add_argument("--time", metavar="T", dest="time_limit",
                       help="sbatch --time per run (e.g. 0:30:00)")
    slurm.add_argument("--sbatch-arg", action="append", default=[], metavar="ARG",
                       help="one more sbatch option, e.g. --sbatch-arg=--mem=4G (repeatable)")
    slurm.add_argument("--no-wait", action="store_true",
                       help="submit and return; the same command later waits and collects")
    slurm.add_argument("--poll", type=float, default=5.0, metavar="S",
                       help="seconds between squeue polls (default 5)")
    # What each Slurm array task runs (docs/sweeps.md): one run of DIR/sweep.json.
    parser.add_argument("--run-index", type=int, metavar="I", help=argparse.SUPPRESS)
    parser.add_argument("--program", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.jobs is not None and args.jobs < 1:
        raise UserError(f"--jobs must be at least 1, got {args.jobs}", code=2)
    if args.timeout is not None and args.timeout <= 0:
        raise UserError("--timeout must be a positive number of seconds", code=2)
    if args.poll <= 0:
        raise UserError("--poll must be a positive number of seconds", code=2)
    if args.out is not None and not args.out.strip():
        raise UserError("--out needs a directory", code=2)
    if args.run_index is None and args.sweep is None:
        parser.error("the sweep file is required")
    # What a resumed sweep discards: failed results by default (a fix or a rebuild may have
    # come in between; a deterministic failure fails again quickly), all with --rerun-all.
    args.rerun = "all" if args.rerun_all else (None if args.keep_failed else "failed")
    return args


class OutLock:
    """An exclusive lock on a sweep folder: one driver per folder at a time."""

    def __init__(self, out_dir):
        self.path = Path(out_dir) / ".sweep.lock"
        self.file = None

    def __enter__(self):
        self.file = open(self.path, "a+", encoding="utf-8")
        try:
            fcntl.flock(self.file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.file.seek(0)
            holder = self.file.read().strip() or "another process"
            self.file.close()
            raise UserError(f"{display_path(self.path.parent)} is in use by another "
                            f"./inasim sweep ({holder}); wait for it or use another --out") \
                from None
        self.file.seek(0)
        self.file.truncate()
        self.file.write(f"pid {os.getpid()} on {socket.gethostname()}\n")
        self.file.flush()
        return self

    def __exit__(self, *exc):
        self.file.close()


def main(argv):
    args = parse_args(argv)
    if args.run_index is not None:
        return run_index(args)

    sweep_path = resolve_sweep(args.sweep)
    bootstrap.ensure_setup()
    building.build([PROGRAM, CONFIG_PROGRAM])
    program = building.find_program(PROGRAM)
    config_program = building.find_program(CONFIG_PROGRAM)
    if program is None or config_program is None:
        raise UserError(f"built {PROGRAM} and {CONFIG_PROGRAM} but found them not under "
                        f"{display_path(building.build_dir())}/")

    plan = expand(config_program, sweep_path)
    out_dir = (Path(args.out) if args.out else Path("results") / plan["name"]).resolve()
    if not plan["runs"]:
        raise UserError(f"{display_path(sweep_path)} expands to no runs")

    if args.list:
        kept, _ = scan(plan, out_dir, config_program, None, forget_stale=False)
        list_runs(plan, out_dir, kept)
        return 0

    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "runs").mkdir(exist_ok=True)
    with OutLock(out_dir):
        results.write_json_atomic(out_dir / results.PLAN_FILE, plan)
        foreign = foreign_run_folders(plan, out_dir)
        if foreign:
            warn(f"{len(foreign)} folder(s) in {display_path(out_dir / 'runs')}/ are not runs of "
                 f"this sweep (left alone, not in the table), e.g. {foreign[0]}")
        if args.slurm:
            from . import sweep_slurm
            return sweep_slurm.run(args, plan, out_dir, program, config_program)
        return sweep_local(args, plan, out_dir, program, config_program)


def sweep_local(args, plan, out_dir, program, config_program):
    kept, discarded = scan(plan, out_dir, config_program, args.rerun)
    todo = [run for run in plan["runs"] if run["id"] not in kept]
    jobs = args.jobs or cpu_count()
    total = len(plan["runs"])
    failed_before = sum(1 for s in kept.values() if s["status"] == results.FAILED)
    say(f"sweep {plan['name']}: {total} runs in {display_path(out_dir)}/"
        + (f", {len(kept)} finished earlier (kept)" if kept else "")
        + (f", {discarded} to run again" if discarded else "")
        + (f"; running {len(todo)}, {min(jobs, len(todo))} at a time" if todo else ""))
    progress = SweepProgress(chatter(), f"sweep {plan['name']}", total, len(kept), failed_before)
    interrupted = False
    previous = signal.signal(signal.SIGTERM, _raise_interrupted)
    try:
        if todo:
            progress.show(force=True)
            run_local(program, plan, out_dir, todo, jobs, args.timeout, progress)
    except Interrupted:
        interrupted = True
    finally:
        signal.signal(signal.SIGTERM, previous)
        if todo:
            progress.close()
    _, rows = results.write_tables(plan, out_dir)
    return report(plan, out_dir, rows, len(kept), interrupted)
