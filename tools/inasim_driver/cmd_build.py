# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""./inasim build: set up if needed, then build everything (or the named targets)."""

import argparse

from . import bootstrap, building
from .common import say

SUMMARY = "set up if needed, then build everything (or the named CMake targets)"


def main(argv):
    parser = argparse.ArgumentParser(
        prog="inasim build",
        description="Set up if needed (./inasim setup), then build with cmake --build. On failure "
                    "the compiler and linker errors are listed again at the end; the full output "
                    "is kept in build/last-build.log.",
    )
    parser.add_argument("targets", nargs="*", metavar="TARGET",
                        help="CMake targets to build (default: all), e.g. inasim-run, inasim-gtest")
    parser.add_argument("-j", "--jobs", type=int, metavar="N",
                        help="parallel compile jobs (default: $INASIM_JOBS or the CPU count)")
    args = parser.parse_args(argv)
    bootstrap.ensure_setup()
    if building.build(args.targets, args.jobs):
        say("build finished")
    else:
        say("build is up to date")
    return 0
