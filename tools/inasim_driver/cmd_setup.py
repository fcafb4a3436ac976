# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""./inasim setup: install missing Debian packages and configure the build directory."""

import argparse
import textwrap

from . import bootstrap
from .common import build_dir, display_path, say

SUMMARY = "install missing Debian packages and configure build/"


def main(argv):
    parser = argparse.ArgumentParser(
        prog="inasim setup",
        description=textwrap.fill(
            "Install the Debian packages inasim needs that are missing (apt-get: as root, via "
            "sudo, or print the command to run), then configure the CMake build directory "
            "(Ninja, Release). Does nothing when both are done already.", width=79),
        epilog=textwrap.fill("packages: " + " ".join(bootstrap.PACKAGES), width=79,
                             break_on_hyphens=False, subsequent_indent="  "),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--reconfigure", action="store_true",
                        help="run CMake's configure step even if the build is configured "
                             "(rarely needed: builds re-run it when a CMakeLists.txt changes)")
    args = parser.parse_args(argv)
    bootstrap.ensure_setup(verbose=True)
    if args.reconfigure:
        bootstrap.configure(force=True)
    say(f"ready: ./inasim build (or cmake --build {display_path(build_dir())})")
    return 0
