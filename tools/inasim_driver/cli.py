# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Command dispatch for ./inasim. A new command is a cmd_<name>.py module plus one line below."""

import os
import sys

from . import cmd_bench, cmd_build, cmd_fuzz, cmd_plot, cmd_run, cmd_setup, cmd_sweep, cmd_test
from .common import ROOT, UserError

#: name -> module with SUMMARY and main(argv) -> exit code. Order = order in the help.
COMMANDS = {
    "run": cmd_run,
    "sweep": cmd_sweep,
    "plot": cmd_plot,
    "test": cmd_test,
    "bench": cmd_bench,
    "fuzz": cmd_fuzz,
    "build": cmd_build,
    "setup": cmd_setup,
}


def usage():
    width = max(len(name) for name in COMMANDS)
    lines = [
        "usage: inasim <command> [options]",
        "",
        "inasim: in-network aggregation for distributed ML training, simulated on ns-3 3.37.",
        "Every command installs and builds what is missing first (Debian 12).",
        "",
        "commands:",
    ]
    lines += [f"  {name:<{width}}  {module.SUMMARY}" for name, module in COMMANDS.items()]
    lines += [
        "",
        "'inasim <command> --help' shows a command's options; docs/driver.md has the details.",
        "environment: INASIM_BUILD_DIR (default build/), INASIM_JOBS (default: CPU count)",
    ]
    return "\n".join(lines)


def version():
    try:
        return (ROOT / "VERSION").read_text(encoding="utf-8").strip()
    except OSError:
        return "unknown"


def main(argv):
    if not argv:
        print(usage(), file=sys.stderr)
        return 2
    if argv[0] in ("-h", "--help") or argv == ["help"]:
        print(usage())
        return 0
    if argv[0] == "help":
        return main([argv[1], "--help"])
    if argv[0] == "--version":
        print(f"inasim {version()}")
        return 0
    name, rest = argv[0], argv[1:]
    module = COMMANDS.get(name)
    if module is None:
        print(usage(), file=sys.stderr)
        print(f"\ninasim: error: unknown command '{name}'", file=sys.stderr)
        return 2
    try:
        return module.main(rest)
    except UserError as e:
        sys.stdout.flush()
        print(f"inasim: error: {e}", file=sys.stderr, flush=True)
        return e.code
    except KeyboardInterrupt:
        print("\ninasim: interrupted", file=sys.stderr, flush=True)
        return 130
    except OSError as e:
        # A file the user named that cannot be read or written (--out naming a file, a folder
        # without permission): the file and the reason, not a traceback.
        sys.stdout.flush()
        where = f"{e.filename}: " if e.filename else ""
        print(f"inasim: error: {where}{e.strerror or e}", file=sys.stderr, flush=True)
        return 1
    except Exception as e:  # noqa: BLE001 -- the last resort: one line, never a traceback
        sys.stdout.flush()
        if os.environ.get("INASIM_DEBUG"):
            raise
        print(f"inasim: internal error: {type(e).__name__}: {e} (INASIM_DEBUG=1 shows where)",
              file=sys.stderr, flush=True)
        return 1
