# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""./inasim run: set up and build if needed, then run one scenario with inasim-run."""

import argparse
import os
import re
import sys
import textwrap
from pathlib import Path

from . import bootstrap, building
from .common import ROOT, UserError, display_path, set_chatter

SUMMARY = "run one scenario (default: examples/scenarios/default.yaml)"

#: The simulation program (CMake target and executable name); its CLI is
#: inasim-run SCENARIO [KEY=VALUE ...] [--out DIR].
PROGRAM = "inasim-run"
SCENARIO_DIR = ROOT / "examples" / "scenarios"
DEFAULT_SCENARIO = SCENARIO_DIR / "default.yaml"

# A dotted key path (topology.k, jobs.0.workers, jobs.1.params.pool_size) then "=".
_OVERRIDE = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]*(\.[A-Za-z0-9_\-]+)*=")

_KEYS_HELP = """\
scenario keys (override any of them by dotted path; values take units: 100Gbps, 1us, 64MB):
  name seed check_values link stop_time routing
  topology.{type,hosts,k,leaves,spines,hosts_per_leaf,file,loss_rate}
  topology.host_link.{rate,delay}  topology.fabric_link.{rate,delay}
  topology.queue.{capacity,ecn_threshold}
  switch.{stages,sram_per_stage,stateful_alus_per_stage,ina_tiers}
  switch.recirculation.{rate,latency}
  jobs.<i>.{name,protocol,workers,placement,ps_hosts,start}
  jobs.<i>.workload.{model,tensor_bytes,iterations}  jobs.<i>.params.<Attribute>
  traffic.<i>.{pattern,hosts,flow_bytes,start}
  outputs.{pcap,timeseries_interval}
Unknown keys and bad values are errors that name the key. docs/scenario-reference.md
describes every key and its default."""

_EXAMPLES_HELP = """\
examples:
  ./inasim run
  ./inasim run examples/scenarios/default.yaml topology.hosts=16 jobs.0.workers=16
  ./inasim run default seed=7 --out results/seed7"""


def split_run_args(args):
    """(scenario or None, [KEY=VALUE ...]) from run's positional arguments.

    An argument that starts with a dotted key and '=' is an override; any other is the scenario.
    """
    scenario = None
    overrides = []
    for arg in args:
        if _OVERRIDE.match(arg):
            overrides.append(arg)
        elif "=" in arg and not os.path.exists(arg):
            raise UserError(
                f"bad override '{arg}': expected KEY=VALUE with a dotted key path, "
                "e.g. topology.k=8 or jobs.0.workers=16",
                code=2,
            )
        elif scenario is not None:
            raise UserError(
                f"more than one scenario given ('{scenario}' and '{arg}'); "
                "overrides are written KEY=VALUE",
                code=2,
            )
        else:
            scenario = arg
    return scenario, overrides


def example_scenarios():
    """(name, path) of the scenario files shipped in examples/scenarios/."""
    if not SCENARIO_DIR.is_dir():
        return []
    return sorted((p.stem, p) for p in SCENARIO_DIR.glob("*.yaml") if p.is_file())


def scenario_description(path):
    """The first sentence of the comment block that opens a scenario file, or ''."""
    words = []
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                line = line.strip()
                if not line.startswith("#"):
                    if line or words:
                        break
                    continue
                more = line.lstrip("#").split()
                if not more and words:
                    break  # an empty comment line ends the paragraph
                words += more
                if words and words[-1].endswith("."):
                    break
    except OSError:
        return ""
    text = " ".join(words)
    end = text.find(". ")
    return text[:end + 1] if end >= 0 else text


def resolve_scenario(arg):
    """The scenario file for `arg`: a path, or the name of a file in examples/scenarios/."""
    if arg is None:
        if not DEFAULT_SCENARIO.is_file():
            raise UserError(f"default scenario {display_path(DEFAULT_SCENARIO)} not found")
        return DEFAULT_SCENARIO
    path = Path(arg)
    if path.is_file():
        return path.resolve()
    if path.is_dir():
        raise UserError(f"scenario '{arg}' is a directory; expected a scenario file (.yaml)")
    if path.exists():
        # A device or a pipe (/dev/zero): not "not found", and not something to read forever.
        raise UserError(f"scenario '{arg}' is not a regular file; expected a scenario file (.yaml)")
    if "/" not in arg:
        for candidate in (SCENARIO_DIR / arg, SCENARIO_DIR / f"{arg}.yaml"):
            if candidate.is_file():
                return candidate
    names = ", ".join(name for name, _ in example_scenarios()) or "none"
    raise UserError(f"scenario file not found: {arg} (examples/scenarios/ has: {names})")


def help_epilog():
    parts = []
    scenarios = example_scenarios()
    if scenarios:
        lines = ["scenarios in examples/scenarios/ (pass a path, or just the name):"]
        for name, path in scenarios:
            about = scenario_description(path)
            lines.append(textwrap.fill(about, width=79, initial_indent=f"  {name:<20} ",
                                       subsequent_indent=" " * 23, break_on_hyphens=False)
                         if about else f"  {name}")
        parts.append("\n".join(lines))
    parts.append(_KEYS_HELP)
    parts.append(_EXAMPLES_HELP)
    return "\n\n".join(parts)


def main(argv):
    parser = argparse.ArgumentParser(
        prog="inasim run",
        usage="inasim run [-h] [SCENARIO] [KEY=VALUE ...] [--out DIR] [-j N]",
        description=textwrap.dedent(
            f"""\
            Set up and build if needed, then run one scenario with {PROGRAM}. It prints a
            progress line while it runs and a summary at the end; outputs (summary.json,
            config.yaml, CSV tables) go to --out DIR, default results/<scenario name>/ in the
            current directory. The exit code is {PROGRAM}'s."""
        ),
        epilog=help_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("args", nargs="*", metavar="SCENARIO | KEY=VALUE",
                        help="a scenario file or the name of one in examples/scenarios/ "
                             "(default: default), and overrides by dotted key path")
    parser.add_argument("--out", metavar="DIR", help="output directory")
    parser.add_argument("-j", "--jobs", type=int, metavar="N",
                        help="parallel compile jobs if a build is needed")
    args = parser.parse_intermixed_args(argv)

    scenario_arg, overrides = split_run_args(args.args)
    scenario = resolve_scenario(scenario_arg)
    if args.out is not None and not args.out.strip():
        raise UserError("--out needs a directory", code=2)

    # stdout belongs to the simulation: set-up and build messages go to stderr.
    set_chatter(sys.stderr)
    bootstrap.ensure_setup()
    program = building.build_program(PROGRAM, args.jobs)

    # The program runs in the caller's directory, like any command: relative paths in overrides
    # and --out, and the default results/<name>/, are taken from there (inasim-run resolves
    # paths inside a scenario file from the file's folder first).
    command = [str(program), str(Path(scenario).resolve()), *overrides]
    if args.out is not None:
        command += ["--out", args.out]
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execv(command[0], command)
    except OSError as e:
        raise UserError(f"cannot start {display_path(program)}: {e.strerror}") from None
    return 0  # not reached: execv replaced this process
