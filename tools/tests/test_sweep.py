# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Tests of ./inasim sweep: the table, the local runner, resuming a killed sweep, failures,
the Slurm batch script, and (with INASIM_SLURM_TEST=1) a real single-node Slurm.

Most tests use stand-ins for inasim-config and inasim-run (small Python scripts, below) so that
they are fast and can make runs slow, fail or end incomplete on purpose. Where the real programs
are built, ExpansionTest and RealSweepTest also run them.

Run: python3 -m unittest discover -s tools/tests    (or through ctest: driver/unittest)
Slurm: INASIM_SLURM_TEST=1 python3 -m unittest -v test_sweep.SlurmTest   (in tools/tests, as root)
"""

import contextlib
import csv
import io
import json
import os
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
from pathlib import Path
from unittest import mock

TOOLS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOOLS))

from inasim_driver import building, cmd_sweep, progress, sweep_results, sweep_slurm  # noqa: E402
from inasim_driver.common import ROOT, UserError  # noqa: E402

# ---------------------------------------------------------------------------------------------
# Stand-ins for the C++ programs

# inasim-config: `expand-sweep FILE` prints FILE (the tests write the expansion as JSON there);
# `effective BASE OVERRIDES...` prints what the fake run writes as config.yaml.
FAKE_CONFIG = """\
import sys
def effective(base, overrides):
    with open(base) as f:
        first = f.readline().strip()
    return "base: " + first + "\\n" + "".join(o + "\\n" for o in overrides)
if sys.argv[1] == "expand-sweep":
    sys.stdout.write(open(sys.argv[2]).read())
elif sys.argv[1] == "effective":
    sys.stdout.write(effective(sys.argv[2], sys.argv[3:]))
else:
    sys.exit(1)
"""

# inasim-run: BASE OVERRIDES... --out DIR. Overrides fake.sleep=S, fake.exit=N and
# fake.value=V steer it; every start is logged to $FAKE_RUN_LOG as "<out dir name>".
FAKE_RUN = """\
import json, os, sys, time
args = sys.argv[1:]
out = args[args.index("--out") + 1]
base = args[0]
overrides = [a for a in args[1:args.index("--out")]]
opts = dict(o.split("=", 1) for o in overrides)
with open(os.environ["FAKE_RUN_LOG"], "a") as log:
    log.write(os.path.basename(out) + "\\n")
os.makedirs(out, exist_ok=True)
time.sleep(float(opts.get("fake.sleep", "0")))
code = int(opts.get("fake.exit", "0"))
if code >= 2:
    print("[inasim] sim 0.000001 s |   1.0 % done | wall 0.1 s | 1.00 M events/s", file=sys.stderr)
    print("inasim: " + opts.get("fake.error", "switch program does not fit"), file=sys.stderr)
    if "fake.error_key" in opts:
        with open(os.path.join(out, "error.json"), "w") as f:
            json.dump({"exit_code": code, "kind": "scenario", "message": "m",
                       "key": opts["fake.error_key"], "file": "base.yaml", "line": 7,
                       "override": "", "what": "w"}, f)
    sys.exit(code)
value = float(opts.get("fake.value", "1"))
seed = int(opts.get("seed", "1"))
summary = {
    "name": "fake", "seed": seed, "wall_time_s": 0.5, "sim_time_s": value / 1000,
    "events": 100, "completed": code == 0,
    "jobs": [{"name": "j0", "protocol": opts.get("jobs.0.protocol", "ring"), "workers": 4,
              "worker_hosts": [0, 1, 2, 3], "ps_hosts": [], "iterations": 2,
              "iteration_time_s": [value, value + seed], "jct_s": 2 * value + seed,
              "agg_throughput_gbps": 10.0 * seed, "completed": code == 0,
              "protocol_counters": {"slots": 7}}],
    "switches": [{"name": "tor0", "tier": "tor", "peak_aggregators_in_use": 3,
                  "recirculated_packets": 1,
                  "pipeline": {"stages": {"used": 2, "available": 12}}},
                 {"name": "tor1", "tier": "tor", "peak_aggregators_in_use": 5,
                  "recirculated_packets": 2,
                  "pipeline": {"stages": {"used": 4, "available": 12}}}],
    "links": {"drops": 0, "ecn_marks": 1, "lost": seed},
}
if code == 1:
    summary["incomplete_reason"] = "job 'j0' finished 1 of 2 iterations by t = 1 s"
with open(os.path.join(out, "summary.json"), "w") as f:
    json.dump(summary, f)
with open(base) as f:
    first = f.readline().strip()
with open(os.path.join(out, "config.yaml"), "w") as f:
    f.write("base: " + first + "\\n" + "".join(o + "\\n" for o in overrides))
print("inasim: fake run done")
sys.exit(code)
"""


def write_script(path, body):
    path.write_text(f"#!{sys.executable}\n" + body)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def make_plan(base, axes, points, repeats=1, name="t"):
    """An expansion as inasim-config prints it: `points` is a list of {axis: value} (the
    product/zip order already applied), each repeated `repeats` times with seeds 1, 2, ..."""
    runs = []
    for point in points:
        for repeat in range(repeats):
            index = len(runs)
            seed = 1 + repeat
            short = "-".join(f"{k.split('.')[-1]}={v}" for k, v in point.items()
                             if not k.startswith("fake."))
            runs.append({
                "id": f"r{index:04d}" + (f"-{short}" if short else "") + f"-seed={seed}",
                "index": index, "repeat": repeat, "seed": seed, "values": dict(point),
                "overrides": [f"{k}={v}" for k, v in point.items()] + [f"seed={seed}"],
            })
    return {"name": name, "sweep_file": "t.yaml", "base": str(base), "repeats": repeats,
            "base_seed": 1, "axes": list(axes), "runs": runs}


class FakeSweep(unittest.TestCase):
    """A temporary folder with the stand-in programs, a base scenario and helpers to run the
    sweep command in this process with the build patched out."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        self.config = write_script(self.dir / "inasim-config", FAKE_CONFIG)
        self.run_prog = write_script(self.dir / "inasim-run", FAKE_RUN)
        self.base = self.dir / "base.yaml"
        self.base.write_text("name: base\n# a comment\n")
        self.log = self.dir / "starts.log"
        self.out = self.dir / "out"
        self.env = mock.patch.dict(os.environ, {"FAKE_RUN_LOG": str(self.log)})
        self.env.start()

    def tearDown(self):
        self.env.stop()
        self.tmp.cleanup()

    def write_sweep(self, plan):
        path = self.dir / "t.yaml"
        path.write_text(json.dumps(plan))
        return path

    # The driver as a program of its own, with the build patched out (a sweep to kill).
    WRAPPER = """\
import sys
sys.path.insert(0, {tools!r})
from unittest import mock
from inasim_driver import bootstrap, building, cli
programs = {{"inasim-run": {run!r}, "inasim-config": {config!r}}}
with mock.patch.object(bootstrap, "ensure_setup"), mock.patch.object(building, "build"), \\
        mock.patch.object(building, "find_program", side_effect=programs.get):
    sys.exit(cli.main(sys.argv[1:]))
"""

    def driver_command(self, plan):
        """(argv, env) of the sweep command on `plan` run as a program of its own."""
        sweep_file = self.write_sweep(plan)
        wrapper = write_script(self.dir / "driver", self.WRAPPER.format(
            tools=str(TOOLS), run=str(self.run_prog), config=str(self.config)))
        argv = [str(wrapper), "sweep", str(sweep_file), "--out", str(self.out), "-j", "1"]
        return argv, dict(os.environ, FAKE_RUN_LOG=str(self.log))

    @staticmethod
    def start(argv, env):
        """Starts `argv` in a session of its own, so that its process group can be killed."""
        return subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)

    def sweep(self, *argv):
        """cmd_sweep.main with the build patched out; returns (exit code or UserError, output)."""
        programs = {"inasim-run": self.run_prog, "inasim-config": self.config}
        out = io.StringIO()
        with mock.patch.object(cmd_sweep.bootstrap, "ensure_setup"), \
                mock.patch.object(cmd_sweep.building, "build"), \
                mock.patch.object(cmd_sweep.building, "find_program",
                                  side_effect=programs.get), \
                mock.patch.object(cmd_sweep, "chatter", return_value=out), \
                mock.patch("inasim_driver.common.chatter", return_value=out), \
                contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            try:
                code = cmd_sweep.main(list(argv))
            except UserError as e:
                code = e
        return code, out.getvalue()

    def starts(self):
        """Run folder name -> how many times the fake run started there."""
        counts = {}
        if self.log.exists():
            for line in self.log.read_text().split():
                counts[line] = counts.get(line, 0) + 1
        return counts

    def table(self):
        with open(self.out / "results.csv", newline="") as f:
            rows = list(csv.reader(f))
        return rows[0], rows[1:]


# ---------------------------------------------------------------------------------------------


class FlattenTest(unittest.TestCase):
    def test_summary_fields(self):
        summary = {
            "name": "x", "seed": 3, "wall_time_s": 1.5, "events": 10, "completed": True,
            "incomplete_reason": "text is left out",
            "jobs": [{"name": "j0", "protocol": "ring", "workers": 4, "worker_hosts": [0, 1],
                      "ps_hosts": [], "iteration_time_s": [1.0, 2.0, 6.0], "jct_s": 9.0,
                      "completed": False, "protocol_counters": {"slots": 7}},
                     {"name": "j1", "iteration_time_s": [], "jct_s": 1}],
            "switches": [{"name": "a", "peak_aggregators_in_use": 3, "recirculated_packets": 1,
                          "pipeline": {"stages": {"used": 2, "available": 12},
                                       "per_stage": [{"stage": 0}]}},
                         {"name": "b", "peak_aggregators_in_use": 5, "recirculated_packets": 0,
                          "pipeline": {"stages": {"used": 4, "available": 12}}}],
            "links": {"drops": 1, "lost": 2},
            "flows": {"count": 8, "fct_mean_s": 0.25, "fct_p99_s": float("nan")},
        }
        self.assertEqual(sweep_results.flatten_summary(summary), {
            "wall_time_s": 1.5, "events": 10, "completed": 1,
            "jobs.0.workers": 4, "jobs.0.iteration_time_s.mean": 3.0,
            "jobs.0.iteration_time_s.count": 3, "jobs.0.jct_s": 9.0, "jobs.0.completed": 0,
            "jobs.0.protocol_counters.slots": 7,
            "jobs.1.iteration_time_s.mean": None, "jobs.1.iteration_time_s.count": 0,
            "jobs.1.jct_s": 1,
            "switches.count": 2,
            "switches.peak_aggregators_in_use.max": 5, "switches.peak_aggregators_in_use.sum": 8,
            "switches.recirculated_packets.max": 1, "switches.recirculated_packets.sum": 1,
            "switches.pipeline.stages.used.max": 4,
            "links.drops": 1, "links.lost": 2,
            "flows.count": 8, "flows.fct_mean_s": 0.25, "flows.fct_p99_s": None,
        })

    def test_axis_values(self):
        self.assertEqual(sweep_results.axis_value("16"), 16)
        self.assertEqual(sweep_results.axis_value("0.001"), 0.001)
        self.assertEqual(sweep_results.axis_value("1e-4"), 1e-4)
        self.assertEqual(sweep_results.axis_value("10Gbps"), "10Gbps")
        self.assertEqual(sweep_results.axis_value("nan"), "nan")

    def test_bad_plans(self):
        for plan, message in (([], "expected a JSON object"),
                              ({"name": "x", "base": "b", "axes": []}, "key 'runs'"),
                              ({"name": "x", "base": "b", "axes": [], "runs": [
                                  {"id": "../x", "index": 0, "seed": 1, "values": {},
                                   "overrides": []}]}, "not a folder name")):
            with self.subTest(message=message):
                with self.assertRaises(sweep_results.PlanError) as ctx:
                    sweep_results.check_plan(plan, "p.json")
                self.assertIn(message, str(ctx.exception))


class LocalSweepTest(FakeSweep):
    def plan(self, **kwargs):
        # axes: protocol x workers (product), zip {hosts, rate}, 2 repeats = 2*2*1*2 = 8 runs.
        points = [{"jobs.0.protocol": p, "jobs.0.workers": w, "topology.hosts": "8",
                   "topology.host_link.rate": "10Gbps"} for p in ("ring", "ps") for w in ("4", "8")]
        return make_plan(self.base, ["jobs.0.protocol", "jobs.0.workers", "topology.hosts",
                                     "topology.host_link.rate"], points, repeats=2, **kwargs)

    def test_all_ok_layout_and_table(self):
        plan = self.plan()
        code, output = self.sweep(str(self.write_sweep(plan)), "--out", str(self.out), "-j", "3")
        self.assertEqual(code, 0, output)
        self.assertIn("8 runs: 8 ok, 0 incomplete, 0 failed", output)
        self.assertEqual(sorted(p.name for p in (self.out / "runs").iterdir()),
                         sorted(r["id"] for r in plan["runs"]))
        first = self.out / "runs" / plan["runs"][0]["id"]
        for name in ("summary.json", "config.yaml", "status.json", "stdout.log", "stderr.log"):
            self.assertTrue((first / name).is_file(), name)
        status = json.loads((first / "status.json").read_text())
        self.assertEqual(status["status"], "ok")
        self.assertEqual(status["overrides"], plan["runs"][0]["overrides"])
        self.assertEqual(status["command"][1:], [str(self.base), *plan["runs"][0]["overrides"],
                                                 "--out", str(first)])

        columns, rows = self.table()
        self.assertEqual(columns[:14], [
            "run_id", "index", "jobs.0.protocol", "jobs.0.workers", "topology.hosts",
            "topology.host_link.rate", "seed", "repeat", "status", "exit_code", "error",
            "error_key", "error_where", "duration_s"])
        # The summary's jobs.0.workers (4) is left out: the axis column of that name holds the
        # value as swept.
        self.assertEqual(columns[14:], [
            "wall_time_s", "sim_time_s", "events", "completed",
            "jobs.0.iterations", "jobs.0.iteration_time_s.mean", "jobs.0.iteration_time_s.count",
            "jobs.0.jct_s", "jobs.0.agg_throughput_gbps", "jobs.0.completed",
            "jobs.0.protocol_counters.slots", "switches.count",
            "switches.peak_aggregators_in_use.max", "switches.peak_aggregators_in_use.sum",
            "switches.recirculated_packets.max", "switches.recirculated_packets.sum",
            "switches.pipeline.stages.used.max", "links.drops", "links.ecn_marks", "links.lost"])
        self.assertEqual(len(rows), 8)
        by_col = [dict(zip(columns, row)) for row in rows]
        self.assertEqual([r["run_id"] for r in by_col], [r["id"] for r in plan["runs"]])
        self.assertEqual([(r["jobs.0.protocol"], r["jobs.0.workers"], r["seed"]) for r in by_col],
                         [("ring", "4", "1"), ("ring", "4", "2"), ("ring", "8", "1"),
                          ("ring", "8", "2"), ("ps", "4", "1"), ("ps", "4", "2"),
                          ("ps", "8", "1"), ("ps", "8", "2")])
        # fake run: iteration times [1, 1 + seed], jct 2 + seed, throughput 10 * seed.
        self.assertEqual([r["jobs.0.jct_s"] for r in by_col[:2]], ["3.0", "4.0"])
        self.assertEqual([r["jobs.0.iteration_time_s.mean"] for r in by_col[:2]], ["1.5", "2.0"])
        self.assertEqual({r["topology.host_link.rate"] for r in by_col}, {"10Gbps"})
        self.assertEqual({r["status"] for r in by_col}, {"ok"})

        db = sqlite3.connect(self.out / "results.sqlite")
        try:
            got = db.execute('SELECT run_id, "jobs.0.workers", "topology.host_link.rate", seed, '
                             '"jobs.0.jct_s" FROM runs ORDER BY "index" LIMIT 2').fetchall()
            axes = db.execute("SELECT key FROM axes ORDER BY position").fetchall()
            name = db.execute("SELECT value FROM sweep WHERE key = 'name'").fetchone()
        finally:
            db.close()
        self.assertEqual(got, [(plan["runs"][0]["id"], 4, "10Gbps", 1, 3.0),
                               (plan["runs"][1]["id"], 4, "10Gbps", 2, 4.0)])
        self.assertEqual([a for (a,) in axes], plan["axes"])
        self.assertEqual(name, ("t",))

    def test_failed_run_is_recorded_and_the_rest_finish(self):
        points = [{"fake.value": "1"}, {"fake.value": "2", "fake.exit": "3"},
                  {"fake.value": "3", "fake.exit": "1"}, {"fake.value": "4"}]
        for p in points:
            p.setdefault("fake.exit", "0")
        plan = make_plan(self.base, ["fake.value", "fake.exit"], points)
        code, output = self.sweep(str(self.write_sweep(plan)), "--out", str(self.out), "-j", "1")
        self.assertEqual(code, 1, output)
        self.assertIn("4 runs: 2 ok, 1 incomplete, 1 failed", output)
        columns, rows = self.table()
        by_col = [dict(zip(columns, row)) for row in rows]
        self.assertEqual([r["status"] for r in by_col], ["ok", "failed", "incomplete", "ok"])
        self.assertEqual(by_col[1]["exit_code"], "3")
        self.assertEqual(by_col[1]["error"], "the model refused the set-up (exit 3): "
                                             "inasim: switch program does not fit")
        self.assertEqual(by_col[1]["jobs.0.jct_s"], "")
        self.assertEqual(by_col[2]["error"], "job 'j0' finished 1 of 2 iterations by t = 1 s")
        self.assertEqual(by_col[2]["jobs.0.jct_s"], "7.0")
        self.assertEqual(by_col[3]["jobs.0.jct_s"], "9.0")
        self.assertIn(f"failed {plan['runs'][1]['id']}: the model refused", output)

        # On resume a failed run runs again, unless --keep-failed; --rerun-all reruns all.
        code, output = self.sweep(str(self.write_sweep(plan)), "--out", str(self.out),
                                  "--keep-failed")
        self.assertEqual(code, 1)
        self.assertEqual(set(self.starts().values()), {1})
        code, output = self.sweep(str(self.write_sweep(plan)), "--out", str(self.out))
        self.assertIn("3 finished earlier (kept), 1 to run again", output)
        self.assertEqual(self.starts()[plan["runs"][1]["id"]], 2)
        self.assertEqual(sum(self.starts().values()), 5)
        self.sweep(str(self.write_sweep(plan)), "--out", str(self.out), "--rerun-all")
        self.assertEqual(sum(self.starts().values()), 9)

    def test_error_report_gives_key_and_place_columns(self):
        # inasim-run's error.json (kind, key, file, line) reaches status.json and the table, so
        # failed runs can be told apart by key without reading their messages.
        points = [{"fake.value": "1", "fake.exit": "2", "fake.error_key": "jobs.0.params.Rto"},
                  {"fake.value": "2", "fake.exit": "3"}]
        plan = make_plan(self.base, ["fake.value", "fake.exit"], points)
        code, output = self.sweep(str(self.write_sweep(plan)), "--out", str(self.out), "-j", "1")
        self.assertEqual(code, 1, output)
        columns, rows = self.table()
        by_col = [dict(zip(columns, row)) for row in rows]
        self.assertEqual([r["status"] for r in by_col], ["failed", "failed"])
        self.assertEqual((by_col[0]["error_key"], by_col[0]["error_where"]),
                         ("jobs.0.params.Rto", "base.yaml:7"))
        self.assertEqual((by_col[1]["error_key"], by_col[1]["error_where"]), ("", ""))
        status = json.loads((self.out / "runs" / plan["runs"][0]["id"] / "status.json")
                            .read_text())
        self.assertEqual((status["error_kind"], status["error_key"], status["error_where"]),
                         ("scenario", "jobs.0.params.Rto", "base.yaml:7"))

    def test_resume_skips_finished_and_notices_a_changed_base(self):
        plan = self.plan()
        sweep_file = str(self.write_sweep(plan))
        self.assertEqual(self.sweep(sweep_file, "--out", str(self.out))[0], 0)
        self.assertEqual(sum(self.starts().values()), 8)
        code, output = self.sweep(sweep_file, "--out", str(self.out))
        self.assertEqual(code, 0)
        self.assertIn("8 finished earlier (kept)", output)
        self.assertEqual(sum(self.starts().values()), 8)

        # A comment in the base file leaves the effective configuration as it was: kept.
        self.base.write_text("name: base\n# another comment\n")
        self.assertEqual(self.sweep(sweep_file, "--out", str(self.out))[0], 0)
        self.assertEqual(sum(self.starts().values()), 8)
        # A changed key changes it: every run again.
        self.base.write_text("name: other\n")
        code, output = self.sweep(sweep_file, "--out", str(self.out))
        self.assertIn("8 to run again", output)
        self.assertEqual(set(self.starts().values()), {2})

    def test_timeout_and_list(self):
        # The quick run must finish inside --timeout however loaded the machine is (a Python
        # start can take seconds at a load of 15 on 2 cores), and the slow one never can.
        plan = make_plan(self.base, ["fake.sleep"], [{"fake.sleep": "0"}, {"fake.sleep": "3600"}])
        sweep_file = str(self.write_sweep(plan))
        start = time.monotonic()
        code, output = self.sweep(sweep_file, "--out", str(self.out), "--timeout", "20")
        self.assertLess(time.monotonic() - start, 600)  # the slow run was cut, not waited for
        self.assertEqual(code, 1)
        status = json.loads((self.out / "runs" / plan["runs"][1]["id"] / "status.json").read_text())
        self.assertEqual(status["status"], "failed")
        self.assertEqual(status["error"], "timed out after 20 s (--timeout)")
        code, output = self.sweep(sweep_file, "--out", str(self.out), "--list")
        self.assertEqual(code, 0)
        self.assertRegex(output, rf"{plan['runs'][0]['id']}\s+ok\s+fake.sleep=0 seed=1")
        self.assertRegex(output, rf"{plan['runs'][1]['id']}\s+failed\s+fake.sleep=3600 seed=1")

    def test_bad_sweep_and_missing_file(self):
        code, _ = self.sweep(str(self.dir / "nope.yaml"))
        self.assertIsInstance(code, UserError)
        self.assertIn("sweep file not found", str(code))
        broken = self.dir / "broken.yaml"
        broken.write_text("{\"name\": 3}")
        code, _ = self.sweep(str(broken))
        self.assertIsInstance(code, UserError)
        self.assertIn("key 'name' missing or not a str", str(code))

    def test_run_index(self):
        plan = self.plan()
        self.out.mkdir()
        sweep_results.write_json_atomic(self.out / "sweep.json", plan)
        code, output = self.sweep("--run-index", "5", "--out", str(self.out),
                                  "--program", str(self.run_prog))
        self.assertEqual(code, 0, output)
        self.assertEqual(self.starts(), {plan["runs"][5]["id"]: 1})
        code, output = self.sweep("--run-index", "5", "--out", str(self.out),
                                  "--program", str(self.run_prog))
        self.assertIn("already finished (ok), not rerun", output)
        self.assertEqual(self.starts(), {plan["runs"][5]["id"]: 1})
        code, _ = self.sweep("--run-index", "8", "--out", str(self.out))
        self.assertIn("the sweep has runs 0 to 7", str(code))

    def test_lock(self):
        plan = self.plan()
        self.out.mkdir()
        with cmd_sweep.OutLock(self.out):
            code, _ = self.sweep(str(self.write_sweep(plan)), "--out", str(self.out))
        self.assertIsInstance(code, UserError)
        self.assertIn("in use by another ./inasim sweep (pid", str(code))


class KillResumeTest(FakeSweep):
    """A sweep killed (SIGKILL to its process group) while a run is going on, then started again."""

    def test_killed_sweep_resumes_without_rerunning_finished_runs(self):
        plan = make_plan(self.base, ["fake.value"],
                         [{"fake.value": str(v), "fake.sleep": "0.4"} for v in range(5)])
        argv, env = self.driver_command(plan)
        proc = self.start(argv, env)
        runs_dir = self.out / "runs"
        deadline = time.monotonic() + 30
        try:
            while time.monotonic() < deadline:
                finished = [r["id"] for r in plan["runs"]
                            if (runs_dir / r["id"] / "status.json").exists()]
                started = self.starts()
                running = [i for i in started if i not in finished]
                if finished and running:
                    break
                time.sleep(0.02)
            else:
                self.fail("the sweep never had a finished and a running run at once")
        finally:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        finished = [r["id"] for r in plan["runs"] if (runs_dir / r["id"] / "status.json").exists()]
        self.assertTrue(finished)
        self.assertLess(len(finished), 5)
        mtimes = {i: (runs_dir / i / "status.json").stat().st_mtime_ns for i in finished}
        # Usually one run was going on; if the kill fell between two runs, none was.
        interrupted = [i for i in self.starts() if i not in finished]
        self.assertLessEqual(len(interrupted), 1)

        subprocess.run(argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, check=True, timeout=60)
        starts = self.starts()
        for run_id in finished:
            self.assertEqual(starts[run_id], 1, f"{run_id} ran again")
            self.assertEqual((runs_dir / run_id / "status.json").stat().st_mtime_ns,
                             mtimes[run_id])
        for run_id in interrupted:
            self.assertEqual(starts[run_id], 2)
        self.assertEqual(sum(starts.values()), 5 + len(interrupted))
        columns, rows = self.table()
        self.assertEqual(len(rows), 5)
        self.assertEqual([dict(zip(columns, r))["status"] for r in rows], ["ok"] * 5)
        self.assertEqual([dict(zip(columns, r))["fake.value"] for r in rows],
                         ["0", "1", "2", "3", "4"])


class OrphanTest(FakeSweep):
    """A sweep SIGKILLed on its own (not its process group) leaves no run process behind."""

    @staticmethod
    def alive(pid):
        try:
            with open(f"/proc/{pid}/status", encoding="ascii") as f:
                state = next(line for line in f if line.startswith("State:"))
        except (OSError, StopIteration):
            return False
        return "Z" not in state.split()[1]

    @unittest.skipUnless(sys.platform.startswith("linux"), "PR_SET_PDEATHSIG is Linux's")
    def test_runs_die_with_a_killed_sweep(self):
        plan = make_plan(self.base, ["fake.value"], [{"fake.value": "1", "fake.sleep": "120"}])
        proc = self.start(*self.driver_command(plan))
        children = []
        try:
            deadline = time.monotonic() + 60
            while not children and time.monotonic() < deadline:
                try:
                    with open(f"/proc/{proc.pid}/task/{proc.pid}/children") as f:
                        children = [int(c) for c in f.read().split()]
                except OSError:
                    pass
                time.sleep(0.05)
            self.assertTrue(children, "the sweep never started its run")
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            deadline = time.monotonic() + 60
            while any(self.alive(c) for c in children) and time.monotonic() < deadline:
                time.sleep(0.05)
            self.assertFalse([c for c in children if self.alive(c)],
                             "a run outlived its SIGKILLed sweep")
        finally:
            for c in children:
                try:
                    os.kill(c, signal.SIGKILL)
                except OSError:
                    pass
            if proc.poll() is None:
                proc.kill()
                proc.wait()


class UmaskTest(unittest.TestCase):
    def test_written_files_honour_the_umask(self):
        with tempfile.TemporaryDirectory() as d:
            previous = os.umask(0o022)
            try:
                sweep_results.write_atomic(Path(d) / "a.json", "{}")
                os.umask(0o077)
                sweep_results.write_atomic(Path(d) / "b.json", "{}")
            finally:
                os.umask(previous)
            self.assertEqual((Path(d) / "a.json").stat().st_mode & 0o777, 0o644)
            self.assertEqual((Path(d) / "b.json").stat().st_mode & 0o777, 0o600)


class ProgressTest(unittest.TestCase):
    def test_line_and_eta(self):
        now = [100.0]
        stream = io.StringIO()
        p = progress.SweepProgress(stream, "sweep x", total=10, finished_before=2,
                                   clock=lambda: now[0])
        self.assertIsNone(p.eta_seconds())
        now[0] = 130.0
        p.set_counts(finished=5, failed=1, running=2)
        # 3 runs finished in 30 s, 5 remain: 50 s.
        self.assertEqual(p.eta_seconds(), 50.0)
        self.assertEqual(p.line(), "sweep x [##########----------] 5/10 finished, 1 failed, "
                                   "5 remaining (2 running) | 0:30 elapsed, ETA 0:50")
        # A narrow terminal loses the bar, then the elapsed time, never the counts and ETA.
        self.assertEqual(p.line(90), "sweep x 5/10 finished, 1 failed, 5 remaining (2 running) | "
                                     "0:30 elapsed, ETA 0:50")
        self.assertEqual(p.line(70), "sweep x 5/10 finished, 1 failed, 5 remaining (2 running) | "
                                     "ETA 0:50")
        p.set_counts(finished=5, failed=1, running=0, queued=3)
        self.assertIn("(0 running, 3 queued)", p.line())

    def test_log_lines_are_periodic(self):
        now = [0.0]
        stream = io.StringIO()
        p = progress.SweepProgress(stream, "s", total=4, clock=lambda: now[0], log_interval=10)
        p.show()
        p.set_counts(1, 0, 1)
        now[0] = 5.0
        p.show()  # changed, but within 10 s: no line
        now[0] = 11.0
        p.show()  # changed and 10 s since the last line
        now[0] = 12.0
        p.show()
        now[0] = 72.0
        p.show()  # no change, but 60 s of silence
        self.assertEqual(len(stream.getvalue().splitlines()), 3)
        self.assertNotIn("\r", stream.getvalue())

    def test_durations(self):
        self.assertEqual(progress.format_duration(12), "0:12")
        self.assertEqual(progress.format_duration(3725), "1:02:05")


class SlurmScriptTest(unittest.TestCase):
    def test_batch_script(self):
        with mock.patch.dict(os.environ, {"INASIM_BUILD_DIR": "/b/build x"}):
            text = sweep_slurm.batch_script("fct", Path("/o/fct"), [3, 5, 6], 2, Path("/w"),
                                            Path("/b/inasim-run"), partition="short",
                                            time_limit="0:10:00", extra=["--mem=2G"],
                                            python="/usr/bin/python3")
        lines = text.splitlines()
        self.assertEqual(lines[0], "#!/bin/bash")
        for line in ("#SBATCH --job-name=inasim-fct", "#SBATCH --array=0-2%2",
                     "#SBATCH --output=/o/fct/slurm/%A_%a.out", "#SBATCH --chdir=/w",
                     "#SBATCH --partition=short", "#SBATCH --time=0:10:00", "#SBATCH --mem=2G",
                     "RUNS=(3 5 6)", "export INASIM_BUILD_DIR='/b/build x'",
                     f"exec /usr/bin/python3 {ROOT / 'inasim'} sweep --out /o/fct --program "
                     '/b/inasim-run --run-index "${RUNS[$SLURM_ARRAY_TASK_ID]}"'):
            self.assertIn(line, lines)
        no_limit = sweep_slurm.batch_script("f", Path("/o"), [0], None, Path("/w"), "/p",
                                            python="py", timeout=90.0)
        self.assertIn("#SBATCH --array=0-0", no_limit.splitlines())
        self.assertIn(f"exec py {ROOT / 'inasim'} sweep --out /o --program /p --timeout 90 "
                      '--run-index "${RUNS[$SLURM_ARRAY_TASK_ID]}"', no_limit.splitlines())

    def test_job_id(self):
        self.assertEqual(sweep_slurm.parse_job_id("1234\n"), "1234")
        self.assertEqual(sweep_slurm.parse_job_id("77;cluster\n"), "77")
        with self.assertRaises(UserError):
            sweep_slurm.parse_job_id("sbatch: error: invalid partition\n")


# ---------------------------------------------------------------------------------------------
# With the real programs


def built_program(name):
    """A program of the build this test runs from (ctest's working directory is inside it),
    else of $INASIM_BUILD_DIR or build/; None when it is not built."""
    candidates = []
    here = Path.cwd()
    for folder in (here, *here.parents):
        if (folder / "CMakeCache.txt").is_file():
            candidates.append(folder)
            break
    if os.environ.get("INASIM_BUILD_DIR"):
        candidates.append(Path(os.environ["INASIM_BUILD_DIR"]))
    candidates.append(ROOT / "build")
    for folder in candidates:
        building._program_cache.pop(name, None)
        with mock.patch.dict(os.environ, {"INASIM_BUILD_DIR": str(folder)}):
            found = building.find_program(name)
        building._program_cache.pop(name, None)
        if found is not None:
            return found
    return None


class RealProgramsTest(unittest.TestCase):
    def setUp(self):
        self.config = built_program("inasim-config")
        self.run_prog = built_program("inasim-run")
        if self.config is None or self.run_prog is None:
            self.skipTest("inasim-config / inasim-run are not built")
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)
        (self.dir / "base.yaml").write_text(textwrap.dedent("""\
            name: tiny
            seed: 5
            topology: {type: star, hosts: 4}
            traffic: [{pattern: permutation, flow_bytes: 20KB}]
            """))

    def tearDown(self):
        self.tmp.cleanup()

    def test_expansion_json(self):
        """The driver's plan: product of axes, zip group as one dimension, repeats fastest."""
        sweep = self.dir / "s.yaml"
        sweep.write_text(textwrap.dedent("""\
            base: base.yaml
            repeats: 2
            axes:
              traffic.0.flow_bytes: [10KB, 20KB]
            zip:
              - topology.hosts: [2, 4]
                topology.host_link.rate: {range: [10Gbps, 20Gbps], step: 10Gbps}
            """))
        plan = cmd_sweep.expand(self.config, sweep)
        self.assertEqual(plan["name"], "s")
        self.assertEqual(plan["base"], str((self.dir / "base.yaml").resolve()))
        self.assertEqual(plan["axes"], ["traffic.0.flow_bytes", "topology.hosts",
                                        "topology.host_link.rate"])
        self.assertEqual([(r["values"]["traffic.0.flow_bytes"], r["values"]["topology.hosts"],
                           r["values"]["topology.host_link.rate"], r["seed"])
                          for r in plan["runs"]],
                         [("10KB", "2", "10Gbps", 5), ("10KB", "2", "10Gbps", 6),
                          ("10KB", "4", "20Gbps", 5), ("10KB", "4", "20Gbps", 6),
                          ("20KB", "2", "10Gbps", 5), ("20KB", "2", "10Gbps", 6),
                          ("20KB", "4", "20Gbps", 5), ("20KB", "4", "20Gbps", 6)])
        self.assertEqual(plan["runs"][3]["overrides"],
                         ["traffic.0.flow_bytes=10KB", "topology.hosts=4",
                          "topology.host_link.rate=20Gbps", "seed=6"])
        self.assertEqual([r["index"] for r in plan["runs"]], list(range(8)))
        self.assertEqual(len({r["id"] for r in plan["runs"]}), 8)

    def test_bad_sweep_names_the_line(self):
        sweep = self.dir / "bad.yaml"
        sweep.write_text("base: base.yaml\naxes:\n  topology.hostz: [1, 2]\n")
        with self.assertRaises(UserError) as ctx:
            cmd_sweep.expand(self.config, sweep)
        self.assertEqual(ctx.exception.code, 2)
        self.assertIn("bad.yaml:3", str(ctx.exception))
        self.assertIn("topology.hostz", str(ctx.exception))

    def test_real_sweep_table(self):
        sweep = self.dir / "s.yaml"
        sweep.write_text("name: tiny-sweep\nbase: base.yaml\naxes:\n"
                         "  topology.loss_rate: [0, 0.01]\n  topology.hosts: [2, 4]\n")
        out = self.dir / "out"
        programs = {"inasim-run": self.run_prog, "inasim-config": self.config}
        sink = io.StringIO()
        with mock.patch.object(cmd_sweep.bootstrap, "ensure_setup"), \
                mock.patch.object(cmd_sweep.building, "build"), \
                mock.patch.object(cmd_sweep.building, "find_program", side_effect=programs.get), \
                mock.patch.object(cmd_sweep, "chatter", return_value=sink), \
                mock.patch("inasim_driver.common.chatter", return_value=sink), \
                contextlib.redirect_stderr(sink):
            code = cmd_sweep.main([str(sweep), "--out", str(out), "-j", "2"])
        self.assertEqual(code, 0, sink.getvalue())
        with open(out / "results.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), 4)
        self.assertEqual([(r["topology.loss_rate"], r["topology.hosts"]) for r in rows],
                         [("0", "2"), ("0", "4"), ("0.01", "2"), ("0.01", "4")])
        for row in rows:
            self.assertEqual(row["status"], "ok")
            self.assertEqual(row["seed"], "5")
            self.assertEqual(row["flows.count"], row["topology.hosts"])
            self.assertGreater(float(row["flows.fct_mean_s"]), 0)
        self.assertEqual(rows[0]["links.lost"], "0")
        run = out / "runs" / rows[3]["run_id"]
        self.assertIn("loss_rate: 0.01", (run / "config.yaml").read_text())
        self.assertTrue((run / "flows.csv").is_file())


# ---------------------------------------------------------------------------------------------
# A real Slurm (Debian's slurm-wlm and munge), started by the test


SLURM_CONF = """\
ClusterName=inasimtest
SlurmctldHost={host}
SlurmctldPort={ctld_port}
SlurmdPort={d_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={dir}/munge/munge.socket
StateSaveLocation={dir}/state
SlurmdSpoolDir={dir}/spool
SlurmctldPidFile={dir}/slurmctld.pid
SlurmdPidFile={dir}/slurmd.pid
SlurmctldLogFile={dir}/slurmctld.log
SlurmdLogFile={dir}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
NodeName={host} CPUs=2 State=UNKNOWN
PartitionName=test Nodes={host} Default=YES MaxTime=INFINITE State=UP
"""


@unittest.skipUnless(os.environ.get("INASIM_SLURM_TEST") == "1",
                     "real Slurm test: INASIM_SLURM_TEST=1 (installs slurm-wlm and munge, needs "
                     "root; see docs/sweeps.md)")
class SlurmTest(unittest.TestCase):
    """./inasim sweep --slurm against munged + slurmctld + slurmd on this machine."""

    PACKAGES = ("slurm-wlm", "munge")

    def setUp(self):
        if os.geteuid() != 0:
            self.skipTest("the Slurm daemons are started as root")
        from inasim_driver import bootstrap
        missing = bootstrap.missing_packages(self.PACKAGES)
        if missing:
            bootstrap.install_packages(missing)
        self.tmp = tempfile.TemporaryDirectory(prefix="inasim-slurm-")
        self.dir = Path(self.tmp.name)
        self.daemons = []
        self.addCleanup(self.tmp.cleanup)
        self.addCleanup(self.stop_daemons)
        for sub in ("munge", "state", "spool"):
            (self.dir / sub).mkdir(mode=0o700)
        host = socket.gethostname().split(".")[0]
        conf = self.dir / "slurm.conf"
        conf.write_text(SLURM_CONF.format(host=host, dir=self.dir, ctld_port=free_port(),
                                          d_port=free_port()))
        self.env = dict(os.environ, SLURM_CONF=str(conf))
        socket_path = self.dir / "munge" / "munge.socket"
        subprocess.run(["mungekey", "--create", f"--keyfile={self.dir}/munge/munge.key"],
                       check=True)
        self.start(["munged", "-F", "-f", f"--socket={socket_path}",
                    f"--key-file={self.dir}/munge/munge.key",
                    f"--pid-file={self.dir}/munged.pid", f"--seed-file={self.dir}/munge/seed",
                    f"--log-file={self.dir}/munged.log"])
        wait_until(lambda: socket_path.exists(), 10, "munged did not start")
        self.start(["slurmctld", "-D", "-i"])
        self.start(["slurmd", "-D"])
        wait_until(lambda: "idle" in subprocess.run(
            ["sinfo", "-h", "-o", "%T"], env=self.env, stdout=subprocess.PIPE, text=True,
            stderr=subprocess.DEVNULL).stdout, 60, "the node did not become idle")

    def start(self, cmd):
        log = open(self.dir / (Path(cmd[0]).name + ".out"), "w")
        self.daemons.append((subprocess.Popen(cmd, env=self.env, stdin=subprocess.DEVNULL,
                                              stdout=log, stderr=subprocess.STDOUT), log))

    def stop_daemons(self):
        for proc, log in reversed(self.daemons):
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            log.close()

    def test_sweep_as_job_array(self):
        config = built_program("inasim-config")
        run_prog = built_program("inasim-run")
        if config is None or run_prog is None:
            self.fail("build inasim-run and inasim-config first (./inasim build)")
        build_dir = run_prog.parent
        while not (build_dir / "CMakeCache.txt").is_file():
            build_dir = build_dir.parent
        (self.dir / "base.yaml").write_text(
            "name: tiny\ntopology: {type: star, hosts: 4}\n"
            "traffic: [{pattern: permutation, flow_bytes: 20KB}]\n")
        (self.dir / "s.yaml").write_text(
            "name: slurm-test\nbase: base.yaml\nrepeats: 2\n"
            "axes:\n  topology.loss_rate: [0, 0.01]\n  topology.hosts: [2, 4]\n")
        out = self.dir / "out"
        env = dict(self.env, INASIM_BUILD_DIR=str(build_dir))
        cmd = [sys.executable, str(ROOT / "inasim"), "sweep", str(self.dir / "s.yaml"), "--slurm",
               "--out", str(out), "--jobs", "2", "--poll", "1"]
        proc = subprocess.run(cmd, env=env, cwd=self.dir, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=300)
        self.assertEqual(proc.returncode, 0, proc.stdout)
        self.assertRegex(proc.stdout, r"submitted .*sweep-.*\.sbatch: Slurm job \d+, array of 8")
        with open(out / "results.csv", newline="") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), 8)
        self.assertEqual({r["status"] for r in rows}, {"ok"})
        self.assertEqual([r["seed"] for r in rows], ["1", "2"] * 4)
        logs = sorted((out / "slurm").glob("*_*.out"))
        self.assertEqual(len(logs), 8)
        self.assertIn("inasim: run r0000", logs[0].read_text() + "".join(
            p.read_text() for p in logs))
        # Again: nothing to submit, every run kept.
        again = subprocess.run(cmd, env=env, cwd=self.dir, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               timeout=120)
        self.assertEqual(again.returncode, 0, again.stdout)
        self.assertIn("8 finished earlier (kept)", again.stdout)
        self.assertNotIn("submitted", again.stdout)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(predicate, seconds, message):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(message)


if __name__ == "__main__":
    unittest.main()
