# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of the ./inasim driver's logic (no build, no network, no apt).

Run: python3 -m unittest discover -s tools/tests -t tools   (or through ctest: driver/unittest)
"""

import contextlib
import io
import json
import os
import stat
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inasim_driver import (bench_htsim, bootstrap, building, cli, cmd_bench, cmd_fuzz,  # noqa: E402
                           cmd_run, cmd_test)
from inasim_driver.common import ROOT, UserError  # noqa: E402


def write_script(path, body):
    """An executable Python script at `path`."""
    path.write_text(f"#!{sys.executable}\n" + textwrap.dedent(body))
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def start_patches(case, patches):
    """Start `patches` for the running test `case`; each stops when the test ends."""
    for p in patches:
        p.start()
        case.addCleanup(p.stop)
    return patches


class DpkgStatusTest(unittest.TestCase):
    def test_only_installed_state_counts(self):
        text = (
            "cmake\tinstall ok installed\n"
            "ns3\tdeinstall ok config-files\n"
            "g++\thold ok installed\n"
            "libgtest-dev\tinstall ok half-configured\n"
            "garbage line without tab\n"
        )
        self.assertEqual(bootstrap.parse_dpkg_status(text), {"cmake", "g++"})

    def test_missing_packages_uses_dpkg_output(self):
        fake = mock.Mock(stdout="cmake\tinstall ok installed\nns3\tinstall ok installed\n")
        with mock.patch.object(bootstrap.shutil, "which", return_value="/usr/bin/dpkg-query"), \
                mock.patch.object(bootstrap.subprocess, "run", return_value=fake) as run:
            missing = bootstrap.missing_packages(("cmake", "libns3-dev", "ns3", "g++"))
        self.assertEqual(missing, ["libns3-dev", "g++"])
        self.assertEqual(run.call_args[0][0][:3], ["dpkg-query", "-W", "-f=${Package}\t${Status}\n"])

    def test_no_dpkg_means_unknown(self):
        with mock.patch.object(bootstrap.shutil, "which", return_value=None):
            self.assertIsNone(bootstrap.missing_packages())

    def test_apt_commands(self):
        update, install = bootstrap.apt_commands(["cmake", "ns3"])
        self.assertEqual(update, ["apt-get", "update"])
        self.assertEqual(install,
                         ["apt-get", "install", "-y", "--no-install-recommends", "cmake", "ns3"])

    def test_not_root_without_sudo_prints_the_command(self):
        with mock.patch.object(bootstrap.os, "geteuid", return_value=1000), \
                mock.patch.object(bootstrap.shutil, "which",
                                  side_effect=lambda n: "/usr/bin/apt-get" if n == "apt-get" else None):
            with self.assertRaises(UserError) as ctx:
                bootstrap.install_packages(["cmake", "ns3"])
        self.assertEqual(ctx.exception.code, 1)
        self.assertIn("apt-get update && apt-get install -y --no-install-recommends cmake ns3",
                      str(ctx.exception))

    def test_package_list_has_the_build_dependencies(self):
        for pkg in ("cmake", "g++", "ninja-build", "libns3-dev", "ns3", "libgsl-dev",
                    "libxml2-dev", "libsqlite3-dev", "libpython3.11-dev", "libgtest-dev",
                    "libyaml-cpp-dev", "nlohmann-json3-dev", "liblpsolve55-dev", "python3-matplotlib"):
            self.assertIn(pkg, bootstrap.PACKAGES)
        self.assertEqual(len(bootstrap.PACKAGES), len(set(bootstrap.PACKAGES)))


class ConfigureStateTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.bdir = Path(self.tmp.name)
        self.env = mock.patch.dict(os.environ, {"INASIM_BUILD_DIR": str(self.bdir)})
        self.env.start()

    def tearDown(self):
        self.env.stop()
        self.tmp.cleanup()

    def write_cache(self, home, generator="Ninja"):
        (self.bdir / "CMakeCache.txt").write_text(
            "# This is the CMakeCache file.\n"
            "//Source directory\n"
            f"CMAKE_HOME_DIRECTORY:INTERNAL={home}\n"
            f"CMAKE_GENERATOR:INTERNAL={generator}\n"
            "CMAKE_BUILD_TYPE:STRING=Release\n"
        )

    def test_read_cache(self):
        self.write_cache("/src/x")
        values = bootstrap.read_cmake_cache(self.bdir / "CMakeCache.txt")
        self.assertEqual(values["CMAKE_HOME_DIRECTORY"], "/src/x")
        self.assertEqual(values["CMAKE_BUILD_TYPE"], "Release")

    def test_configured_needs_cache_and_generated_files(self):
        self.assertFalse(bootstrap.is_configured())
        self.write_cache(ROOT)
        self.assertFalse(bootstrap.is_configured())  # configure failed before generating
        (self.bdir / "build.ninja").write_text("")
        self.assertTrue(bootstrap.is_configured())

    def test_makefile_generator(self):
        self.write_cache(ROOT, generator="Unix Makefiles")
        (self.bdir / "build.ninja").write_text("")
        self.assertFalse(bootstrap.is_configured())
        (self.bdir / "Makefile").write_text("")
        self.assertTrue(bootstrap.is_configured())

    def test_configured_is_a_no_op(self):
        self.write_cache(ROOT)
        (self.bdir / "build.ninja").write_text("")
        with mock.patch.object(bootstrap.subprocess, "run") as run:
            self.assertFalse(bootstrap.configure())
        run.assert_not_called()

    def test_other_source_tree_is_an_error(self):
        self.write_cache("/somewhere/else")
        (self.bdir / "build.ninja").write_text("")
        with self.assertRaises(UserError) as ctx:
            bootstrap.configure()
        self.assertIn("configured for another source tree (/somewhere/else)", str(ctx.exception))


class RunArgsTest(unittest.TestCase):
    def test_scenario_and_overrides(self):
        scenario, overrides = cmd_run.split_run_args(
            ["topology.k=8", "my.yaml", "jobs.0.workers=16", "jobs.1.params.pool_size=4096",
             "seed=-3", "name=a=b"])
        self.assertEqual(scenario, "my.yaml")
        self.assertEqual(overrides, ["topology.k=8", "jobs.0.workers=16",
                                     "jobs.1.params.pool_size=4096", "seed=-3", "name=a=b"])

    def test_no_scenario(self):
        self.assertEqual(cmd_run.split_run_args(["seed=2"]), (None, ["seed=2"]))

    def test_bad_override_key(self):
        for arg in ("=5", "topology..k=8", ".k=3", "a b=1"):
            with self.subTest(arg=arg):
                with self.assertRaises(UserError) as ctx:
                    cmd_run.split_run_args([arg])
                self.assertEqual(ctx.exception.code, 2)
                self.assertIn(f"bad override '{arg}'", str(ctx.exception))

    def test_two_scenarios(self):
        with self.assertRaises(UserError) as ctx:
            cmd_run.split_run_args(["a.yaml", "b.yaml"])
        self.assertIn("more than one scenario given ('a.yaml' and 'b.yaml')", str(ctx.exception))


class ResolveScenarioTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.dir = Path(self.tmp.name)
        (self.dir / "default.yaml").write_text("# the default\nname: d\n")
        (self.dir / "rack.yaml").write_text("\n# a rack of 8\n#  hosts. More text.\n# Other.\n"
                                            "name: r\n")
        (self.dir / "two.yaml").write_text("# One line, no full stop\n#\n# second para.\n")
        (self.dir / "bare.yaml").write_text("name: b\n# late comment\n")
        start_patches(self, [mock.patch.object(cmd_run, "SCENARIO_DIR", self.dir),
                             mock.patch.object(cmd_run, "DEFAULT_SCENARIO",
                                               self.dir / "default.yaml")])

    def test_default_name_and_path(self):
        self.assertEqual(cmd_run.resolve_scenario(None), self.dir / "default.yaml")
        self.assertEqual(cmd_run.resolve_scenario("rack"), self.dir / "rack.yaml")
        self.assertEqual(cmd_run.resolve_scenario("rack.yaml"), self.dir / "rack.yaml")
        self.assertEqual(cmd_run.resolve_scenario(str(self.dir / "bare.yaml")),
                         (self.dir / "bare.yaml").resolve())

    def test_missing_scenario_names_the_examples(self):
        with self.assertRaises(UserError) as ctx:
            cmd_run.resolve_scenario("nope")
        self.assertEqual(str(ctx.exception),
                         "scenario file not found: nope "
                         "(examples/scenarios/ has: bare, default, rack, two)")

    def test_missing_default(self):
        (self.dir / "default.yaml").unlink()
        with self.assertRaises(UserError) as ctx:
            cmd_run.resolve_scenario(None)
        self.assertIn("default scenario", str(ctx.exception))
        self.assertIn("not found", str(ctx.exception))

    def test_descriptions(self):
        self.assertEqual(cmd_run.scenario_description(self.dir / "default.yaml"), "the default")
        self.assertEqual(cmd_run.scenario_description(self.dir / "rack.yaml"),
                         "a rack of 8 hosts.")
        self.assertEqual(cmd_run.scenario_description(self.dir / "two.yaml"),
                         "One line, no full stop")
        self.assertEqual(cmd_run.scenario_description(self.dir / "bare.yaml"), "")

    def test_run_execs_the_program(self):
        calls = []
        with mock.patch.object(cmd_run.bootstrap, "ensure_setup"), \
                mock.patch.object(cmd_run.building, "build_program",
                                  return_value=Path("/b/inasim-run")), \
                mock.patch.object(cmd_run.os, "execv",
                                  side_effect=lambda p, a: calls.append((p, a))), \
                mock.patch.object(cmd_run, "set_chatter"):
            cmd_run.main(["topology.k=8", "rack", "--out", "out/x", "seed=2"])
        self.assertEqual(calls, [("/b/inasim-run",
                                  ["/b/inasim-run", str((self.dir / "rack.yaml").resolve()),
                                   "topology.k=8", "seed=2", "--out", "out/x"])])


class FuzzTargetsTest(unittest.TestCase):
    """./inasim fuzz reads its targets and seeds from test/fuzz/targets.cmake, as CMake does."""

    def test_every_target_has_a_harness_and_existing_seeds(self):
        targets = cmd_fuzz.read_targets()
        self.assertEqual(sorted(targets),
                         ["model-zoo", "scenario", "sweep", "switch-packets", "topology"])
        for name, seeds in targets.items():
            self.assertTrue((cmd_fuzz.FUZZ_DIR / f"fuzz-{name}.cc").is_file(), name)
            self.assertTrue(seeds, f"{name} has no seeds")
            for seed in seeds:
                self.assertTrue((ROOT / seed).exists(), f"{name}: seed {seed} missing")

    def test_max_len_is_read_per_target(self):
        self.assertEqual(cmd_fuzz.read_max_len("model-zoo"), 8192)
        self.assertEqual(cmd_fuzz.read_max_len("switch-packets"), 3073)
        self.assertIsNone(cmd_fuzz.read_max_len("scenario"))

    def test_options_are_read_per_target(self):
        self.assertEqual(cmd_fuzz.read_options("switch-packets"), ["-reload=0"])
        self.assertEqual(cmd_fuzz.read_options("scenario"), [])

    def test_an_interrupted_run_is_not_a_failure_but_a_crash_is(self):
        self.assertEqual(cmd_fuzz.outcome(0, "Done 100 runs"), "clean")
        stopped = "==1== libFuzzer: run interrupted; exiting\nstat::number_of_executed_units: 5\n"
        self.assertEqual(cmd_fuzz.outcome(72, stopped), "interrupted")
        crash = ("==1== ERROR: AddressSanitizer: heap-buffer-overflow\n"
                 "artifact_prefix='x/'; Test unit written to x/crash-abc\n")
        self.assertEqual(cmd_fuzz.outcome(1, crash), "failed")
        self.assertEqual(cmd_fuzz.outcome(1, crash + stopped), "failed")

    def test_corpus_folder_and_memory_cap_reach_libfuzzer(self):
        with tempfile.TemporaryDirectory() as tmp:
            bdir, kept = Path(tmp) / "build-fuzz", Path(tmp) / "kept"
            bdir.mkdir()
            calls = []

            def fake_run(cmd, **kwargs):
                calls.append(cmd)
                (bdir / "fuzz-topology.log").write_text(
                    "stat::number_of_executed_units: 7\n", encoding="utf-8")
                return mock.Mock(returncode=0)

            with mock.patch.object(cmd_fuzz, "fuzz_build_dir", return_value=bdir), \
                    mock.patch.object(cmd_fuzz.subprocess, "run", side_effect=fake_run):
                executed, _, result, _ = cmd_fuzz.run_target("topology", [], 10, 0, kept)
                cmd_fuzz.run_target("topology", [], 10, 0)
            self.assertEqual((executed, result), (7, "clean"))
            self.assertIn(str(kept / "topology"), calls[0])
            self.assertTrue((kept / "topology").is_dir())
            self.assertIn("-rss_limit_mb=2048", calls[0])
            self.assertIn(str(bdir / "corpus" / "topology"), calls[1])

    def test_unknown_target_is_refused_before_building(self):
        with self.assertRaises(UserError) as caught:
            cmd_fuzz.main(["nosuch"])
        self.assertIn("unknown fuzz target 'nosuch'", str(caught.exception))
        self.assertEqual(caught.exception.code, 2)


class CtestSummaryTest(unittest.TestCase):
    def test_all_passed(self):
        lines = ["1/3 Test #1: a ...   Passed    0.01 sec", "",
                 "100% tests passed, 0 tests failed out of 3", "",
                 "Total Test time (real) =   0.05 sec"]
        self.assertEqual(cmd_test.parse_ctest_summary(lines), (3, 0, 0))

    def test_some_failed(self):
        self.assertEqual(
            cmd_test.parse_ctest_summary(["83% tests passed, 2 tests failed out of 12"]),
            (10, 2, 0))

    def test_skipped_are_not_passed(self):
        lines = ["100% tests passed, 0 tests failed out of 5", "",
                 "The following tests did not run:",
                 "\t  4 - Toy.LongOnly (Skipped)",
                 "\t  7 - ns3-suite/x (Disabled)",
                 "", "The following tests FAILED:",
                 "\t  2 - a (Failed)"]
        self.assertEqual(cmd_test.parse_ctest_summary(lines), (3, 0, 2))

    def test_no_tests(self):
        self.assertIsNone(cmd_test.parse_ctest_summary(["No tests were found!!!"]))


class BenchOutputTest(unittest.TestCase):
    def test_valid(self):
        metrics = cmd_bench.parse_bench_output(
            "scheduler",
            '{"scheduler.raw.events_per_s": 6250616.0, "scheduler.raw.events": 8000000, '
            '"scheduler.raw.wall_s": 1.279874}\n')
        self.assertEqual(metrics, {"scheduler.raw.events_per_s": 6250616.0,
                                   "scheduler.raw.events": 8000000,
                                   "scheduler.raw.wall_s": 1.279874})

    def check_error(self, text, expected):
        with self.assertRaises(cmd_bench.BenchOutputError) as ctx:
            cmd_bench.parse_bench_output("fabric", text)
        self.assertIn(expected, str(ctx.exception))

    def test_errors(self):
        self.check_error("", "printed nothing on stdout")
        self.check_error("running...\n{}", "is not one JSON object")
        self.check_error("[1, 2]", "is JSON list, expected an object")
        self.check_error("{}", "empty JSON object")
        self.check_error('{"switchml.w8.wall_s": 1}', "does not start with 'fabric.'")
        self.check_error('{"fabric.": 1}', "does not start with 'fabric.'")
        self.check_error('{"fabric.a.b": {"c": 1}}', "expected a number")
        self.check_error('{"fabric.a.b": true}', "expected a number")
        self.check_error('{"fabric.a.b": "3"}', "expected a number")
        self.check_error('{"fabric.a.b": NaN}', "not a finite number")

    def test_cpu_model(self):
        x86 = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC  7B13 64-Core\n"
        self.assertEqual(cmd_bench.cpu_model(x86), "AMD EPYC 7B13 64-Core")
        arm = "processor\t: 0\nBogoMIPS\t: 50.00\nCPU part\t: 0xd0c\nHardware\t: Neoverse\n"
        self.assertEqual(cmd_bench.cpu_model(arm), "Neoverse")
        self.assertEqual(cmd_bench.cpu_model("processor\t: 0\n"), "")

    def test_format_value(self):
        self.assertEqual(cmd_bench.format_value(8000000), "8,000,000")
        self.assertEqual(cmd_bench.format_value(6250616.4), "6,250,616")
        self.assertEqual(cmd_bench.format_value(1.279874), "1.28")


class BenchCommandTest(unittest.TestCase):
    """The whole bench command with fake benchmark programs (no build)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.dir = Path(self.tmp.name)
        self.programs = {
            "alpha-bench": write_script(self.dir / "alpha-bench", """\
                import sys
                print('{"alpha.x.rate": 2.5, "alpha.x.count": ' + sys.argv[1] + '}')
                """),
            "beta-bench": write_script(self.dir / "beta-bench", """\
                print('{"beta.y.wall_s": 0.125}')
                """),
            "broken-bench": write_script(self.dir / "broken-bench", """\
                print('{"broken.z": [1]}')
                """),
        }
        registry = {
            "alpha": cmd_bench.Benchmark("alpha-bench", ("7",), "a"),
            "beta": cmd_bench.Benchmark("beta-bench", (), "b"),
            "broken": cmd_bench.Benchmark("broken-bench", (), "c"),
            "htsim": cmd_bench.BENCHMARKS["htsim"],  # the real entry: named only, checks first
        }
        self.built = []
        self.patches = start_patches(self, [
            mock.patch.object(cmd_bench, "BENCHMARKS", registry),
            mock.patch.object(cmd_bench.bootstrap, "ensure_setup"),
            mock.patch.object(cmd_bench.building, "build",
                              side_effect=lambda targets, jobs=None: self.built.append(targets)),
            mock.patch.object(cmd_bench.building, "find_program",
                              side_effect=lambda name: self.programs.get(name)),
            mock.patch.object(cmd_bench, "machine_description", return_value="Test CPU, 2 cores"),
        ])

    def run_bench(self, argv):
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            try:
                code = cmd_bench.main(argv)
            except UserError as e:
                code = e
        return code, out.getvalue()

    def test_merges_into_one_flat_object(self):
        code, out = self.run_bench(["alpha", "beta", "alpha", "--out", str(self.dir / "o")])
        self.assertEqual(code, 0)
        self.assertEqual(self.built, [["alpha-bench", "beta-bench"]])
        with open(self.dir / "o" / "bench.json") as f:
            data = json.load(f)
        self.assertEqual(data, {"machine": "Test CPU, 2 cores", "alpha.x.rate": 2.5,
                                "alpha.x.count": 7, "beta.y.wall_s": 0.125})
        self.assertIn("alpha.x.count", out)

    def test_protocol_violation_fails_but_keeps_the_others(self):
        code, _ = self.run_bench(["broken", "beta", "--out", str(self.dir / "p")])
        self.assertIsInstance(code, UserError)
        self.assertIn("benchmark(s) failed: broken", str(code))
        with open(self.dir / "p" / "bench.json") as f:
            self.assertEqual(json.load(f), {"machine": "Test CPU, 2 cores", "beta.y.wall_s": 0.125})

    def test_unknown_name(self):
        code, _ = self.run_bench(["gamma"])
        self.assertIsInstance(code, UserError)
        self.assertEqual(code.code, 2)
        self.assertEqual(str(code),
                         "unknown benchmark gamma; registered: alpha, beta, broken, htsim")
        self.assertEqual(self.built, [])

    def test_default_leaves_htsim_out(self):
        code, _ = self.run_bench(["--out", str(self.dir / "d")])
        self.assertIsInstance(code, UserError)  # broken fails; the others ran
        self.assertEqual(self.built, [["alpha-bench", "beta-bench", "broken-bench"]])

    def test_named_only_runs_its_own_run_after_its_check(self):
        calls = []
        delta = cmd_bench.Benchmark(
            "beta-bench", (), "d", named_only=True,
            check=lambda args: calls.append("check") or "checked",
            run=lambda name, bench, checked: (calls.append((name, bench.program, checked))
                                              or ({"delta.w.rate": 1.5}, 0.0)))
        with mock.patch.dict(cmd_bench.BENCHMARKS, {"delta": delta}):
            code, _ = self.run_bench(["alpha", "--out", str(self.dir / "n")])
            self.assertEqual(code, 0)
            self.assertEqual(calls, [])  # not named: neither checked nor run
            code, _ = self.run_bench(["delta", "--out", str(self.dir / "n")])
        self.assertEqual(code, 0)
        self.assertEqual(calls, ["check", ("delta", "beta-bench", "checked")])
        self.assertEqual(self.built, [["alpha-bench"], ["beta-bench"]])
        with open(self.dir / "n" / "bench.json") as f:
            self.assertEqual(json.load(f), {"machine": "Test CPU, 2 cores", "delta.w.rate": 1.5})

    def check_htsim_rejected(self, argv, expected):
        with mock.patch.dict(os.environ, {}, clear=False):
            os.environ.pop(bench_htsim.ENV, None)
            code, _ = self.run_bench(argv)
        self.assertIsInstance(code, UserError)
        self.assertEqual(code.code, 2)
        self.assertIn(expected, str(code))
        self.assertEqual(self.built, [])  # refused before any build

    def test_htsim_needs_a_path(self):
        self.check_htsim_rejected(["htsim"], "htsim is not set")
        self.check_htsim_rejected(["htsim"], "--htsim PATH or INASIM_HTSIM=PATH")
        missing = self.dir / "no-htsim"
        self.check_htsim_rejected(["htsim", "--htsim", str(missing)],
                                  f"--htsim {missing}: no such file")
        plain = self.dir / "plain"
        plain.write_text("", encoding="utf-8")
        self.check_htsim_rejected(["htsim", "--htsim", str(plain)], "not executable")
        self.check_htsim_rejected(["htsim", "--htsim", str(self.dir)], "no such file")
        with mock.patch.dict(os.environ, {bench_htsim.ENV: str(missing)}):
            code, _ = self.run_bench(["htsim"])
        self.assertIn(f"--htsim {missing}: no such file", str(code))

    def test_real_registry_has_scheduler(self):
        for p in self.patches:
            p.stop()  # the cleanup's second stop of each does nothing
        self.assertEqual(cmd_bench.BENCHMARKS["scheduler"].program, "scheduler-bench")


class HtsimCompareTest(unittest.TestCase):
    def test_derangement(self):
        for n in (16, 128, 1024):
            perm = bench_htsim.derangement(n)
            self.assertEqual(sorted(perm), list(range(n)))
            self.assertTrue(all(d != i for i, d in enumerate(perm)))

    def test_path_hops(self):
        # k=4: two hosts per ToR, four per pod.
        self.assertEqual(bench_htsim.path_hops(4, 0, 1), 2)
        self.assertEqual(bench_htsim.path_hops(4, 1, 2), 4)
        self.assertEqual(bench_htsim.path_hops(4, 3, 4), 6)

    def test_connection_matrix(self):
        self.assertEqual(bench_htsim.connection_matrix([1, 0], 2872),
                         "Nodes 2\nConnections 2\n0->1 start 0 size 2872\n"
                         "1->0 start 0 size 2872\n")

    def test_parse_output(self):
        text = ("Flow Eqds_0_1 flowId 1 eqdsSrc 0 finished at 9.5 total packets 2 RTS 0\n"
                "Flow Eqds_1_0 flowId 2 eqdsSrc 1 finished at 9.7 total packets 2 RTS 0\n"
                ".Done\nNew: 4 Rtx: 1 RTS: 0 Bounced: 0\n")
        self.assertEqual(bench_htsim.parse_htsim_output(text, 2), (4, 1))
        with self.assertRaisesRegex(ValueError, "1 of 2 flows finished"):
            bench_htsim.parse_htsim_output(text.split("\n", 1)[1], 2)
        with self.assertRaisesRegex(ValueError, "no 'New: N Rtx: N' line"):
            bench_htsim.parse_htsim_output("Done\n", 2)


class BuildErrorsTest(unittest.TestCase):
    def test_extract_errors(self):
        src = ROOT / "src" / "ina-fabric" / "model" / "ina-switch.cc"
        lines = [
            "[3/9] Building CXX object src/ina-fabric/CMakeFiles/x.dir/model/ina-switch.cc.o",
            "FAILED: src/ina-fabric/CMakeFiles/x.dir/model/ina-switch.cc.o",
            "/usr/bin/c++ -O2 -c " + str(src),
            f"{src}: In member function 'void ns3::InaSwitch::Receive()':",
            f"{src}:42:7: error: 'foo' was not declared in this scope",
            f"{src}:42:7: note: suggested alternative: 'for'",
            f"{src}:42:7: error: 'foo' was not declared in this scope",
            "/usr/include/ns3/ptr.h:10: error: expected ';'",
            "/usr/bin/ld: a.o: in function `main': undefined reference to `ns3::X::Y()'",
            "collect2: error: ld returned 1 exit status",
            "CMake Error at src/ina-fabric/CMakeLists.txt:1 (build_lib):",
            "  Cannot find source file:",
            "ninja: build stopped: subcommand failed.",
        ]
        self.assertEqual(building.extract_errors(lines), [
            "src/ina-fabric/model/ina-switch.cc:42:7: error: 'foo' was not declared in this scope",
            "/usr/include/ns3/ptr.h:10: error: expected ';'",
            "/usr/bin/ld: a.o: in function `main': undefined reference to `ns3::X::Y()'",
            "collect2: error: ld returned 1 exit status",
            "CMake Error at src/ina-fabric/CMakeLists.txt:1 (build_lib): Cannot find source file:",
        ])
        self.assertEqual(building.failed_targets(lines),
                         ["src/ina-fabric/CMakeFiles/x.dir/model/ina-switch.cc.o"])

    def test_find_program_prefers_newest_and_skips_cmakefiles(self):
        with tempfile.TemporaryDirectory() as tmp:
            bdir = Path(tmp)
            for sub in ("CMakeFiles/x", "a", "b/c"):
                (bdir / sub).mkdir(parents=True)
            old = write_script(bdir / "a" / "prog", "")
            new = write_script(bdir / "b" / "c" / "prog", "")
            write_script(bdir / "CMakeFiles" / "x" / "prog", "")
            (bdir / "a" / "notexec").write_text("")
            os.utime(old, (1000, 1000))
            os.utime(new, (2000, 2000))
            os.utime(bdir / "CMakeFiles" / "x" / "prog", (3000, 3000))
            building._program_cache.clear()
            with mock.patch.dict(os.environ, {"INASIM_BUILD_DIR": tmp}):
                self.assertEqual(building.find_program("prog"), new)
                self.assertIsNone(building.find_program("notexec"))
            building._program_cache.clear()


class CliTest(unittest.TestCase):
    def run_cli(self, argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(argv)
        return code, out.getvalue(), err.getvalue()

    def test_help_lists_every_command(self):
        code, out, _ = self.run_cli(["--help"])
        self.assertEqual(code, 0)
        for name in ("run", "test", "bench", "build", "setup"):
            self.assertIn(f"\n  {name} ", out)

    def test_no_command_and_unknown_command_exit_2(self):
        self.assertEqual(self.run_cli([])[0], 2)
        code, _, err = self.run_cli(["sweepx"])
        self.assertEqual(code, 2)
        self.assertIn("unknown command 'sweepx'", err)

    def test_user_error_is_one_line_not_a_traceback(self):
        code, _, err = self.run_cli(["run", "no-such-scenario.yaml"])
        self.assertEqual(code, 1)
        self.assertTrue(err.startswith("inasim: error: scenario file not found: "
                                       "no-such-scenario.yaml"), err)
        self.assertNotIn("Traceback", err)

    def test_bad_override_exits_2(self):
        code, _, err = self.run_cli(["run", "=3"])
        self.assertEqual(code, 2)
        self.assertIn("bad override '=3'", err)


if __name__ == "__main__":
    unittest.main()
