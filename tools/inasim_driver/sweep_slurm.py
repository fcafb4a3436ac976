# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""./inasim sweep --slurm: the unfinished runs of a sweep as a Slurm job array.

Each array task runs `./inasim sweep --run-index I --out DIR`, which writes DIR/runs/<id>/ like a
local run. The driver writes the batch script to DIR/slurm/, submits it with sbatch, polls squeue
until the array has left the queue, records tasks that ended without a result, and collects the
table as a local sweep does. The job ids are kept in DIR/slurm/jobs.json, so that running the same
command again (after --no-wait or Ctrl-C) waits for the same jobs instead of submitting again.
"""

import json
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from . import sweep_results as results
from .common import ROOT, UserError, build_dir, chatter, display_path, say, warn
from .progress import SweepProgress

JOBS_FILE = "jobs.json"
#: Slurm's default MaxArraySize: task ids 0 .. 1000.
DEFAULT_MAX_ARRAY_SIZE = 1001
#: After the array left the queue, how long to wait for status files that a shared file system
#: has not shown yet before recording their runs as failed.
RESULT_GRACE_S = 10.0


def _slurm_command(name):
    path = shutil.which(name)
    if path is None:
        raise UserError(f"--slurm needs the Slurm client command '{name}', which was not found "
                        "(on Debian: apt-get install slurm-client; a cluster's login node has "
                        "it)")
    return path


def _run(cmd):
    return subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, errors="replace", check=False)


def max_array_size():
    """The cluster's MaxArraySize (scontrol show config), or Slurm's default."""
    if shutil.which("scontrol") is None:
        return DEFAULT_MAX_ARRAY_SIZE
    proc = _run(["scontrol", "show", "config"])
    m = re.search(r"^MaxArraySize\s*=\s*(\d+)", proc.stdout, re.MULTILINE)
    return int(m.group(1)) if m and int(m.group(1)) > 0 else DEFAULT_MAX_ARRAY_SIZE


def _check_directive_path(path, what):
    if any(c.isspace() for c in str(path)):
        raise UserError(f"--slurm: the {what} {path} contains white space, which an #SBATCH "
                        "line cannot hold; use a path without spaces")


def batch_script(name, out_dir, indices, limit, workdir, program, partition=None,
                 time_limit=None, extra=(), python=None, timeout=None):
    """The sbatch script whose array task k runs run indices[k] of the sweep in out_dir."""
    slurm_dir = Path(out_dir) / "slurm"
    array = f"0-{len(indices) - 1}" + (f"%{limit}" if limit else "")
    lines = [
        "#!/bin/bash",
        f"# Written by ./inasim sweep --slurm for sweep '{name}': array task k runs run",
        "# RUNS[k] of sweep.json. Resubmitting it by hand (sbatch FILE) is fine: a task whose run",
        "# has finished does nothing.",
        f"#SBATCH --job-name=inasim-{name}",
        f"#SBATCH --array={array}",
        f"#SBATCH --output={slurm_dir}/%A_%a.out",
        "#SBATCH --ntasks=1",
        "#SBATCH --cpus-per-task=1",
        f"#SBATCH --chdir={workdir}",
    ]
    if partition:
        lines.append(f"#SBATCH --partition={partition}")
    if time_limit:
        lines.append(f"#SBATCH --time={time_limit}")
    lines += [f"#SBATCH {arg}" for arg in extra]
    runs = " ".join(str(i) for i in indices)
    command = [python or sys.executable, str(ROOT / "inasim"), "sweep", "--out", str(out_dir),
               "--program", str(program)]
    if timeout:
        command += ["--timeout", f"{timeout:g}"]
    lines += [
        "",
        "set -eu",
        f"RUNS=({runs})",
        f"export INASIM_BUILD_DIR={shlex.quote(str(build_dir()))}",
        "exec " + " ".join(shlex.quote(c) for c in command)
        + ' --run-index "${RUNS[$SLURM_ARRAY_TASK_ID]}"',
        "",
    ]
    return "\n".join(lines)


def parse_job_id(sbatch_output):
    """The job id in `sbatch --parsable` output ("123" or "123;cluster")."""
    text = sbatch_output.strip().splitlines()[-1] if sbatch_output.strip() else ""
    job_id = text.split(";")[0].strip()
    if not job_id.isdigit():
        raise UserError(f"sbatch printed no job id (output: {sbatch_output.strip()!r})")
    return job_id


def submit(script_path):
    proc = _run([_slurm_command("sbatch"), "--parsable", str(script_path)])
    if proc.returncode != 0:
        raise UserError(f"sbatch {display_path(script_path)} failed (exit {proc.returncode}): "
                        f"{proc.stderr.strip() or proc.stdout.strip()}")
    return parse_job_id(proc.stdout)


def queue_states(job_ids):
    """{state: number of array tasks} of the jobs still in the queue ({} when none is)."""
    if not job_ids:
        return {}
    proc = _run([_slurm_command("squeue"), "-h", "-r", "-j", ",".join(job_ids), "-o", "%T"])
    if proc.returncode != 0:
        # squeue rejects ids that have left the controller's memory: all of them are done.
        if "Invalid job id" in proc.stderr:
            return {}
        raise UserError(f"squeue failed (exit {proc.returncode}): {proc.stderr.strip()}")
    states = {}
    for line in proc.stdout.split():
        states[line] = states.get(line, 0) + 1
    return states


def task_states(job_id):
    """{array task id: Slurm state} from sacct, or {} where accounting is off."""
    if shutil.which("sacct") is None:
        return {}
    proc = _run(["sacct", "-n", "-P", "-X", "-j", job_id, "-o", "JobID,State"])
    states = {}
    if proc.returncode != 0:
        return states
    for line in proc.stdout.splitlines():
        jid, _, state = line.partition("|")
        m = re.match(rf"^{re.escape(job_id)}_(\d+)$", jid.strip())
        if m:
            states[int(m.group(1))] = state.strip()
    return states


def _log_tail(path, lines=3):
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    kept = [line.strip() for line in text.splitlines() if line.strip()]
    return " | ".join(kept[-lines:])


def record_lost_tasks(plan, out_dir, jobs):
    """Write a failed status for runs whose task started but left no result; returns the count.

    A task that never started (cancelled while pending) leaves its run pending instead.
    """
    by_index = {run["index"]: run for run in plan["runs"]}
    recorded = 0
    for job in jobs:
        states = None
        for task, index in enumerate(job["runs"]):
            run = by_index.get(index)
            if run is None:
                continue
            directory = results.run_dir(out_dir, run)
            if results.read_status(directory) is not None:
                continue
            log = Path(out_dir) / "slurm" / f"{job['job_id']}_{task}.out"
            tail = _log_tail(log)
            if tail is None:
                continue
            if states is None:
                states = task_states(job["job_id"])
            state = states.get(task)
            error = (f"Slurm task {job['job_id']}_{task} ended"
                     + (f" {state}" if state else "") + " without a result"
                     + (f": {tail}" if tail else "") + f" (log: {display_path(log)})")
            directory.mkdir(parents=True, exist_ok=True)
            results.write_json_atomic(directory / results.STATUS_FILE, {
                "run_id": run["id"], "index": run["index"], "status": results.FAILED,
                "exit_code": None, "error": error, "duration_s": None,
                "finished": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "host": None,
                "seed": run["seed"], "values": run["values"], "overrides": run["overrides"],
                "base": plan["base"], "base_sha256": plan.get("base_sha256"), "command": None,
            })
            recorded += 1
    return recorded


def _load_jobs(out_dir):
    try:
        with open(Path(out_dir) / "slurm" / JOBS_FILE, encoding="utf-8") as f:
            data = json.load(f)
        jobs = data.get("jobs", [])
        return [j for j in jobs if isinstance(j, dict) and "job_id" in j and "runs" in j]
    except (OSError, ValueError, AttributeError):
        return []


def _count(plan, out_dir, indices):
    """(finished, failed) among the runs with these indices, from their status files."""
    finished = failed = 0
    by_index = {run["index"]: run for run in plan["runs"]}
    for index in indices:
        status = results.read_status(results.run_dir(out_dir, by_index[index]))
        if status is not None:
            finished += 1
            failed += status["status"] == results.FAILED
    return finished, failed


def wait_for(plan, out_dir, jobs, poll, kept):
    """Poll squeue until every job has left the queue, showing the runs' progress."""
    job_ids = [j["job_id"] for j in jobs]
    indices = [i for j in jobs for i in j["runs"]]
    total = len(plan["runs"])
    failed_before = sum(1 for s in kept.values() if s["status"] == results.FAILED)
    progress = SweepProgress(chatter(), f"sweep {plan['name']}", total, len(kept), failed_before)
    say(f"waiting for Slurm job(s) {', '.join(job_ids)} ({len(indices)} runs; Ctrl-C stops "
        "waiting, the jobs keep running)")
    try:
        while True:
            states = queue_states(job_ids)
            finished, failed = _count(plan, out_dir, indices)
            queued = sum(n for s, n in states.items() if s in ("PENDING", "CONFIGURING"))
            running = sum(n for s, n in states.items() if s in ("RUNNING", "COMPLETING"))
            progress.set_counts(len(kept) + finished, failed_before + failed, running, queued)
            progress.show()
            if not states:
                break
            time.sleep(poll)
        # The array has left the queue; give a shared file system a moment to show the last
        # status files.
        deadline = time.monotonic() + RESULT_GRACE_S
        while _count(plan, out_dir, indices)[0] < len(indices) and time.monotonic() < deadline:
            time.sleep(min(poll, 1.0))
        finished, failed = _count(plan, out_dir, indices)
        progress.set_counts(len(kept) + finished, failed_before + failed, 0, 0)
    finally:
        progress.close()


def run(args, plan, out_dir, program, config_program):
    """The --slurm path of ./inasim sweep; returns the exit code."""
    from . import cmd_sweep

    slurm_dir = out_dir / "slurm"
    slurm_dir.mkdir(exist_ok=True)
    jobs_path = slurm_dir / JOBS_FILE
    interrupted = False
    kept = {}
    previous = signal.signal(signal.SIGTERM, cmd_sweep._raise_interrupted)
    try:
        active = [j for j in _load_jobs(out_dir) if queue_states([j["job_id"]])]
        if active:
            say(f"Slurm job(s) {', '.join(j['job_id'] for j in active)} of this sweep are still "
                "queued or running: waiting for them instead of submitting again")
            wait_for(plan, out_dir, active, args.poll, {})
            record_lost_tasks(plan, out_dir, active)

        # Runs of the jobs just waited for are not submitted again in the same invocation.
        rerun = None if active else args.rerun
        kept, discarded = cmd_sweep.scan(plan, out_dir, config_program, rerun)
        todo = [run for run in plan["runs"] if run["id"] not in kept]
        say(f"sweep {plan['name']}: {len(plan['runs'])} runs in {display_path(out_dir)}/"
            + (f", {len(kept)} finished earlier (kept)" if kept else "")
            + (f", {discarded} to run again" if discarded else ""))
        if todo:
            for path, what in ((out_dir, "output folder"), (Path.cwd(), "current folder")):
                _check_directive_path(path, what)
            limit = max_array_size()
            indices = [run["index"] for run in todo]
            chunks = [indices[i:i + limit] for i in range(0, len(indices), limit)]
            jobs = []
            stamp = time.strftime("%Y%m%d-%H%M%S")
            for n, chunk in enumerate(chunks):
                script = slurm_dir / (f"sweep-{stamp}" + (f"-{n}" if len(chunks) > 1 else "")
                                      + ".sbatch")
                results.write_atomic(script, batch_script(
                    plan["name"], out_dir, chunk, args.jobs, Path.cwd(), program,
                    args.partition, args.time_limit, args.sbatch_arg, timeout=args.timeout))
                job_id = submit(script)
                jobs.append({"job_id": job_id, "script": str(script), "runs": chunk})
                say(f"submitted {display_path(script)}: Slurm job {job_id}, array of "
                    f"{len(chunk)} task(s)" + (f", at most {args.jobs} at a time"
                                               if args.jobs else ""))
                results.write_json_atomic(jobs_path, {"jobs": jobs})
            if args.no_wait:
                say("not waiting (--no-wait): run the same command again to wait for the jobs "
                    "and collect the results")
                results.write_tables(plan, out_dir)
                return 0
            wait_for(plan, out_dir, jobs, args.poll, kept)
            lost = record_lost_tasks(plan, out_dir, jobs)
            if lost:
                warn(f"{lost} Slurm task(s) ended without a result; recorded as failed")
    except (cmd_sweep.Interrupted, KeyboardInterrupt):
        interrupted = True
        ids = [j["job_id"] for j in _load_jobs(out_dir)]
        if ids:
            say(f"stopped waiting; Slurm job(s) {', '.join(ids)} keep running (scancel "
                f"{' '.join(ids)} stops them)")
    finally:
        signal.signal(signal.SIGTERM, previous)
    _, rows = results.write_tables(plan, out_dir)
    kept_count = len(kept) if not interrupted else 0
    return cmd_sweep.report(plan, out_dir, rows, kept_count, interrupted)
