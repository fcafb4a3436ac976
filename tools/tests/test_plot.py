# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Tests of ./inasim plot: units and scales of figure axes, grouping of a sweep's runs into lines,
and the command itself on a small finished sweep and a run folder (non-empty PNG and PDF files).

Run: python3 -m unittest discover -s tools/tests    (or through ctest: driver/unittest)
"""

import importlib.util
import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOOLS))

from inasim_driver import cmd_plot, figures, sweep_results, units  # noqa: E402
from inasim_driver.common import ROOT  # noqa: E402


class UnitsTest(unittest.TestCase):
    def test_parse_quantity(self):
        self.assertEqual(units.parse_quantity("25Gbps"), (25e9, "rate"))
        self.assertEqual(units.parse_quantity("2.5 Gbps"), (2.5e9, "rate"))
        self.assertEqual(units.parse_quantity("500ns"), (500e-9, "time"))
        self.assertEqual(units.parse_quantity("64MB"), (64e6, "size"))
        self.assertEqual(units.parse_quantity("4KiB"), (4096.0, "size-binary"))
        self.assertEqual(units.parse_quantity("1e-4"), (1e-4, None))
        self.assertEqual(units.parse_quantity(16), (16.0, None))
        self.assertIsNone(units.parse_quantity("switchml"))
        self.assertIsNone(units.parse_quantity("10gbps"))  # units are case-sensitive
        self.assertIsNone(units.parse_quantity(True))

    def test_numeric_axis(self):
        self.assertEqual(units.numeric_axis(["100KB", "1MB", "4KiB"]),
                         ([1e5, 1e6, 4096.0], "size"))
        self.assertEqual(units.numeric_axis(["0", "1us"]), ([0.0, 1e-6], "time"))
        self.assertEqual(units.numeric_axis([4, 8]), ([4.0, 8.0], None))
        self.assertIsNone(units.numeric_axis(["1us", "1MB"]))
        self.assertIsNone(units.numeric_axis(["ring", "ps"]))
        self.assertIsNone(units.numeric_axis(["4", "1us"]))

    def test_display_unit(self):
        self.assertEqual(units.display_unit("time", [2e-4, 9e-4]), ("µs", 1e-6))
        self.assertEqual(units.display_unit("time", [0.0015]), ("ms", 1e-3))
        self.assertEqual(units.display_unit("rate", [10e9, 100e9]), ("Gb/s", 1e9))
        self.assertEqual(units.display_unit("size", [1e5, 1e7]), ("MB", 1e6))
        self.assertEqual(units.display_unit(None, [3]), ("", 1.0))

    def test_metric_kind_and_numbers(self):
        self.assertEqual(units.metric_kind("jobs.0.jct_s"), "time")
        self.assertEqual(units.metric_kind("jobs.0.iteration_time_s.mean"), "time")
        self.assertEqual(units.metric_kind("jobs.1.agg_throughput_gbps"), "rate-gbps")
        self.assertEqual(units.metric_kind("links.peak_backlog_bytes"), "size")
        self.assertIsNone(units.metric_kind("links.drops"))
        self.assertEqual(units.format_number(16.0), "16")
        self.assertEqual(units.format_number(0.0001), "0.0001")
        self.assertEqual(units.format_number(2.5), "2.5")


class FigureLogicTest(unittest.TestCase):
    def test_choose_scale(self):
        self.assertEqual(figures.choose_scale([2, 4, 8, 16]), ("log", 2))
        self.assertEqual(figures.choose_scale([1e5, 1e6, 1e7]), ("log", 10))
        self.assertEqual(figures.choose_scale([0, 1e-4, 1e-3, 1e-2]), ("symlog", 1e-4))
        self.assertEqual(figures.choose_scale([4, 8]), ("linear", None))
        self.assertEqual(figures.choose_scale([10, 20, 30, 40]), ("linear", None))
        self.assertEqual(figures.choose_scale([3, 6, 12, 48]), ("log", 2))
        self.assertEqual(figures.choose_scale([3, 9, 27]), ("log", 10))

    def test_zip_groups_are_one_dimension(self):
        rows = []
        for protocol in ("ring", "ps"):
            for hosts, rate in (("4", "10Gbps"), ("8", "25Gbps"), ("16", "100Gbps")):
                for seed in (1, 2):
                    rows.append({"p": protocol, "h": hosts, "r": rate, "seed": seed, "c": "x"})
        self.assertEqual(figures.swept_axes(rows, ["p", "h", "r", "c", "seed"]), ["p", "h", "r"])
        self.assertEqual(figures.dimensions(rows, ["p", "h", "r"]), [["p"], ["h", "r"]])

    def test_mean_std(self):
        self.assertEqual(figures.mean_std([1.0, 2.0, 3.0, None]), (2.0, 1.0, 3))
        self.assertEqual(figures.mean_std([5.0]), (5.0, 0.0, 1))
        self.assertEqual(figures.mean_std([None]), (None, None, 0))

    def test_labels(self):
        self.assertEqual(figures.axis_label("topology.host_link.rate"), "host link rate")
        self.assertEqual(figures.axis_label("jobs.0.params.PoolSize"), "pool size")
        self.assertEqual(figures.axis_label("jobs.0.workers"), "workers")
        self.assertEqual(figures.axis_label("jobs.1.workers"), "job 1 workers")
        self.assertEqual(figures.axis_label("traffic.0.flow_bytes"), "flow size")
        self.assertEqual(figures.metric_label("jobs.0.jct_s"), "job completion time")
        self.assertEqual(figures.metric_label("jobs.1.jct_s", several_jobs=True),
                         "job 1: job completion time")
        self.assertEqual(figures.metric_label("flows.fct_p99_s"), "99th-percentile FCT")
        self.assertEqual(figures.metric_label("links.tx_bytes"), "tx bytes")
        self.assertEqual(figures.metric_scaling("jobs.0.agg_throughput_gbps", [40.0, 90.0]),
                         ("Gb/s", 1.0))
        self.assertEqual(figures.metric_scaling("flows.fct_mean_s", [2e-5, 9e-5]),
                         ("µs", 1e6))
        self.assertEqual(figures.metric_scaling("events_per_wall_s", [1e6]), ("", 1.0))

    def test_metric_choice(self):
        columns = ["wall_time_s", "jobs.0.jct_s", "jobs.1.jct_s", "jobs.0.agg_throughput_gbps",
                   "links.drops", "flows.fct_mean_s", "status"]
        self.assertEqual(figures.default_metrics(columns, []),
                         ["jobs.0.jct_s", "jobs.1.jct_s", "jobs.0.agg_throughput_gbps",
                          "flows.fct_mean_s", "links.drops"])
        self.assertEqual(figures.select_metrics(columns, [], ["jobs.*.jct_s", "wall*", "status"]),
                         ["jobs.0.jct_s", "jobs.1.jct_s", "wall_time_s"])


def matplotlib_somewhere():
    """Whether this interpreter or Debian's can import matplotlib (the command uses either)."""
    if importlib.util.find_spec("matplotlib") is not None:
        return True
    system = Path(cmd_plot.SYSTEM_PYTHON)
    return system.is_file() and subprocess.run(
        [str(system), "-c", "import matplotlib"], stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, check=False).returncode == 0


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def plot(*argv):
    return subprocess.run([sys.executable, str(ROOT / "inasim"), "plot", *argv],
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=120, check=False)


PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class PlotCommandTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def assert_figures(self, folder, names):
        for name in names:
            png = folder / f"{name}.png"
            pdf = folder / f"{name}.pdf"
            self.assertTrue(png.is_file(), f"{png} missing; have: "
                            + ", ".join(sorted(p.name for p in folder.iterdir())))
            self.assertGreater(png.stat().st_size, 5000, png)
            self.assertEqual(png.read_bytes()[:8], PNG_MAGIC)
            self.assertTrue(pdf.read_bytes().startswith(b"%PDF"), pdf)

    def finished_sweep(self):
        """A sweep folder as ./inasim sweep leaves it: protocol x workers, 2 seeds, one failed
        run (left out of the figures)."""
        out = self.dir / "sweep"
        points = [(p, w) for p in ("ring", "switchml") for w in ("2", "4", "8")]
        runs = []
        for p, w in points:
            for repeat in (0, 1):
                index = len(runs)
                runs.append({"id": f"r{index:04d}-protocol={p}-workers={w}-seed={repeat + 1}",
                             "index": index, "repeat": repeat, "seed": repeat + 1,
                             "values": {"jobs.0.protocol": p, "jobs.0.workers": w},
                             "overrides": [f"jobs.0.protocol={p}", f"jobs.0.workers={w}",
                                           f"seed={repeat + 1}"]})
        plan = {"name": "t", "sweep_file": "t.yaml", "base": "/b.yaml", "repeats": 2,
                "base_seed": 1, "axes": ["jobs.0.protocol", "jobs.0.workers"], "runs": runs}
        write(out / "sweep.json", json.dumps(plan))
        for run in runs:
            workers = int(run["values"]["jobs.0.workers"])
            fast = run["values"]["jobs.0.protocol"] == "switchml"
            failed = run["index"] == 5
            status = {"status": "failed" if failed else "ok", "exit_code": 3 if failed else 0,
                      "error": "refused" if failed else "", "overrides": run["overrides"]}
            write(out / "runs" / run["id"] / "status.json", json.dumps(status))
            if not failed:
                jct = (1e-3 if fast else 2e-3) * workers + 1e-4 * run["seed"]
                write(out / "runs" / run["id"] / "summary.json", json.dumps({
                    "seed": run["seed"], "wall_time_s": 0.1, "completed": True,
                    "jobs": [{"jct_s": jct, "agg_throughput_gbps": 100.0 / workers / (
                        1 if fast else 2), "iteration_time_s": [jct / 3] * 3}],
                    "links": {"drops": 0}}))
        sweep_results.write_tables(plan, out)
        return out

    @unittest.skipUnless(matplotlib_somewhere(), "matplotlib is not installed (./inasim setup)")
    def test_sweep_figures(self):
        out = self.finished_sweep()
        proc = plot(str(out), "--metric", "jobs.*.jct_s", "--metric", "jobs.0.agg_*")
        self.assertEqual(proc.returncode, 0, proc.stdout)
        self.assertIn("1 of 12 runs left out (status not ok)", proc.stdout)
        self.assert_figures(out / "figures", [
            "jobs.0.jct_s-vs-jobs.0.protocol", "jobs.0.jct_s-vs-jobs.0.workers",
            "jobs.0.agg_throughput_gbps-vs-jobs.0.protocol",
            "jobs.0.agg_throughput_gbps-vs-jobs.0.workers"])
        self.assertEqual(len(list((out / "figures").iterdir())), 8)

        # Default metrics: links.drops is 0 everywhere and is left out; results.csv alone
        # (no sweep.json) is enough.
        (out / "sweep.json").unlink()
        proc = plot(str(out), "--out", str(self.dir / "figs"), "--format", "png")
        self.assertEqual(proc.returncode, 0, proc.stdout)
        self.assertIn("not drawn, the same in every run: links.drops", proc.stdout)
        self.assertEqual(sorted(p.name for p in (self.dir / "figs").iterdir()), [
            "jobs.0.agg_throughput_gbps-vs-jobs.0.protocol.png",
            "jobs.0.agg_throughput_gbps-vs-jobs.0.workers.png",
            "jobs.0.iteration_time_s.mean-vs-jobs.0.protocol.png",
            "jobs.0.iteration_time_s.mean-vs-jobs.0.workers.png",
            "jobs.0.jct_s-vs-jobs.0.protocol.png", "jobs.0.jct_s-vs-jobs.0.workers.png"])

    @unittest.skipUnless(matplotlib_somewhere(), "matplotlib is not installed (./inasim setup)")
    def test_run_figures(self):
        run = self.dir / "run"
        write(run / "summary.json", json.dumps({"seed": 1, "completed": True, "jobs": []}))
        write(run / "jobs.csv", "job,protocol,workers\nj0,switchml,4\nj1,ring,4\n")
        write(run / "iterations.csv", "job,iteration,iteration_time_s,end_s\n"
              "j0,0,0.0005,0.0005\nj0,1,0.0004,0.0009\nj0,2,0.0004,0.0013\n"
              "j1,0,0.0007,0.0008\nj1,1,0.0006,0.0014\n")
        rows = "".join(f"{t * 1e-5:.6f},{t * 1000},{t * 100},{t % 7},{t * 10},0,{t % 5}\n"
                       for t in range(1, 60))
        write(run / "timeseries.csv", "time_s,queued_bytes_total,queued_bytes_max_port,"
              "packets_in_flight,packet_hops,progress,tor0_aggregators_in_use\n" + rows)
        write(run / "flows.csv", "flow_id,fct_s,completed\n1,0.0001,true\n2,0.0003,true\n"
              "3,0.0002,true\n4,,false\n")
        proc = plot(str(run))
        self.assertEqual(proc.returncode, 0, proc.stdout)
        self.assert_figures(run / "figures", ["iteration-time", "timeline", "queues",
                                              "aggregators", "fct-cdf"])

    def test_errors(self):
        proc = plot(str(self.dir / "missing"))
        self.assertEqual(proc.returncode, 1)
        self.assertIn("inasim: error: no such folder", proc.stdout)
        proc = plot(str(self.dir))
        self.assertEqual(proc.returncode, 1)
        self.assertIn("is neither a run's folder (summary.json) nor a sweep's", proc.stdout)
        proc = plot(str(self.dir), "--format", "png,jpeg")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("--format png,jpeg: expected a list of png, pdf, svg", proc.stdout)
        self.assertNotIn("Traceback", proc.stdout)
        # A summary cut short (the run killed while writing) is an error, not figures.
        run = self.dir / "truncated"
        write(run / "summary.json", '{"seed": 1, "completed": tr')
        proc = plot(str(run))
        self.assertEqual(proc.returncode, 1, proc.stdout)
        self.assertIn("summary.json is not valid JSON", proc.stdout)
        self.assertNotIn("Traceback", proc.stdout)


if __name__ == "__main__":
    unittest.main()
