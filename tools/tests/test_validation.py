# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Tests of tools/validation.py: values from a results table (means over seeds, ratios, only ok
runs), rows off by more than their tolerance with and without a cause, bounds, sweeps not run
(and rows kept from the last output when their results are gone),
and bad expected-values files named in the error.

Run: python3 -m unittest discover -s tools/tests    (or through ctest: driver/unittest)
"""

import contextlib
import io
import json
import sys
import tempfile
import unittest
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TOOLS))

import validation  # noqa: E402

CSV = """run_id,index,jobs.0.protocol,topology.loss_rate,seed,repeat,status,jobs.0.jct_s,jobs.1.jct_s
r0,0,switchml,0,1,0,ok,1.0,2.0
r1,1,switchml,0,2,1,ok,3.0,
r2,2,ring,0,1,0,ok,4.0,
r3,3,ring,0,2,1,failed,,
r4,4,ring,0.001,1,0,ok,9.0,
r5,5,switchml,0.001,1,0,ok,3.0,
"""


class ValidationTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        root = Path(self.tmp.name)
        self.papers = root / "papers"
        self.results = root / "results"
        (self.papers / "demo").mkdir(parents=True)
        (self.papers / "demo" / "exp.yaml").write_text("name: demo-exp  # a comment\nbase: x\n")
        (self.results / "demo-exp").mkdir(parents=True)
        (self.results / "demo-exp" / "results.csv").write_text(CSV)
        self.out = root / "validation.md"

    def tearDown(self):
        self.tmp.cleanup()

    def write_spec(self, rows, **extra):
        (self.papers / "demo" / "exp.expected.json").write_text(
            json.dumps({"paper": "Demo", "sweep": "exp.yaml", "rows": rows, **extra}))

    def run_main(self, *extra):
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = validation.main(["--papers", str(self.papers), "--results", str(self.results),
                                    "--out", str(self.out), *extra])
        return code, err.getvalue()

    def ring_over(self, loss, protocol):
        return {"metric": "jobs.0.jct_s",
                "where": {"jobs.0.protocol": protocol, "topology.loss_rate": loss}}

    def test_values_ratios_and_causes(self):
        self.write_spec([
            # ring 4.0 (the failed seed is left out) / switchml mean(1, 3) = 2.0
            {"experiment": "speed-up", "paper": 2.1,
             "ours": {"ratio": [self.ring_over("0", "ring"), self.ring_over("0", "switchml")]}},
            {"experiment": "loss speed-up", "paper": 1.5, "cause": "a known reason",
             "ours": {"ratio": [self.ring_over("0.001", "ring"),
                                self.ring_over(0.001, "switchml")]}},
            {"experiment": "claim", "paper": {"min": 1.0},
             "ours": {"ratio": [self.ring_over("0.001", "switchml"),
                                self.ring_over("0.001", "ring")]}},
        ])
        code, _ = self.run_main("--check")
        text = self.out.read_text()
        rows = [l for l in text.splitlines() if l.startswith("| Demo")]
        self.assertEqual(len(rows), 3)
        self.assertIn("| 2.100 | 2.000 | 0.95 |  |", rows[0])  # within 15 %: no cause
        self.assertIn("| 1.500 | 3.000 | 2.00 | a known reason |", rows[1])
        self.assertIn("| > 1.000 | 0.333 | does not hold | **off, cause not yet found** |",
                      rows[2])
        self.assertEqual(code, 1, "an unexplained row fails --check")

    def test_explained_rows_pass_check(self):
        self.write_spec([{"experiment": "x", "paper": 10, "tolerance": 0.5, "cause": "c",
                          "ours": self.ring_over("0", "ring")}])
        code, _ = self.run_main("--check")
        self.assertEqual(code, 0)
        self.assertIn("| 10.0 | 4.000 | 0.40 | c |", self.out.read_text())

    def test_scale_and_reciprocal(self):
        spec = self.ring_over("0", "switchml")
        self.write_spec([{"experiment": "rate", "paper": 256, **{"ours": dict(
            spec, scale=512, reciprocal=True)}},
            {"experiment": "ms", "paper": 2000, "ours": dict(spec, scale=1000)}])
        self.run_main()
        text = self.out.read_text()
        self.assertIn("| rate | 256 | 256 | 1.00 |", text)  # 512 / mean(1, 3)
        self.assertIn("| ms | 2000 | 2000 | 1.00 |", text)

    def test_not_compared_listed(self):
        self.write_spec([], not_compared=[{"experiment": "Fig. 9", "reason": "no option yet"}])
        self.assertEqual(self.run_main("--check")[0], 0)
        self.assertIn("- Demo, Fig. 9: no option yet", self.out.read_text())
        self.write_spec([], not_compared=[{"experiment": "Fig. 9"}])
        code, err = self.run_main()
        self.assertEqual(code, 2)
        self.assertIn("not_compared[0] needs 'experiment' and 'reason'", err)

    def test_column_pattern_is_a_mean_per_run(self):
        # switchml at loss 0: runs (1 + 2) / 2 = 1.5 and 3.0 -> 2.25
        self.write_spec([{"experiment": "mean jct", "paper": 2.25, "ours": {
            "metric": "jobs.*.jct_s", "where": {"jobs.0.protocol": "switchml",
                                                 "topology.loss_rate": "0"}}}])
        self.run_main()
        self.assertIn("| mean jct | 2.250 | 2.250 | 1.00 |", self.out.read_text())

    def test_sweep_not_run(self):
        (self.papers / "demo" / "exp.yaml").write_text("name: never-run\n")
        self.write_spec([{"experiment": "x", "paper": 1, "ours": self.ring_over("0", "ring")}])
        code, _ = self.run_main("--check")
        self.assertEqual(code, 1)
        self.assertIn("| 1.000 | not run |", self.out.read_text())

    def test_rows_without_results_keep_their_last_values(self):
        self.write_spec([{"experiment": "x | y", "source": "Fig. 1", "paper": 2,
                          "ours": self.ring_over("0", "ring"), "cause": "why"}])
        self.run_main()
        self.assertIn("| x \\| y (Fig. 1) | 2.000 | 4.000 | 2.00 | why |", self.out.read_text())
        # the results go away (another machine): the row keeps its values, --check passes
        (self.results / "demo-exp" / "results.csv").unlink()
        code, _ = self.run_main("--check")
        self.assertEqual(code, 0)
        self.assertIn("| x \\| y (Fig. 1) | 2.000 | 4.000 | 2.00 | why |", self.out.read_text())
        # a row that never had values still says so
        self.write_spec([{"experiment": "new", "paper": 1, "ours": self.ring_over("0", "ring")}])
        code, _ = self.run_main("--check")
        self.assertEqual(code, 1)
        self.assertIn("| new | 1.000 | not run |", self.out.read_text())

    def test_bad_files_are_named(self):
        (self.papers / "demo" / "exp.expected.json").write_text('{"paper": "D",\n "rows": [}')
        code, err = self.run_main()
        self.assertEqual(code, 2)
        self.assertIn("exp.expected.json:2: not valid JSON", err)
        self.write_spec([{"experiment": "x", "paper": "fast", "ours": self.ring_over("0", "ring")}])
        code, err = self.run_main()
        self.assertEqual(code, 2)
        self.assertIn("rows[0]: 'paper' must be a number", err)
        self.write_spec([{"experiment": "x", "paper": 1, "ours": {"where": {}}}])
        code, err = self.run_main()
        self.assertIn("rows[0]: a value spec needs 'metric'", err)


if __name__ == "__main__":
    unittest.main()
