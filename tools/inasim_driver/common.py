# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Paths, messages and settings shared by every command."""

import os
import sys
from pathlib import Path

#: Repository root (this file is tools/inasim_driver/common.py).
ROOT = Path(__file__).resolve().parents[2]


class UserError(Exception):
    """A problem the user can act on: reported as one message, never as a traceback."""

    def __init__(self, message, code=1):
        super().__init__(message)
        self.code = code


# Where the driver's own chatter and the output of the tools it runs for set-up and build go.
# `run` moves it to stderr so that stdout carries only the simulation's own output.
_chatter = None


def chatter():
    """The stream for progress messages and set-up/build tool output."""
    return _chatter if _chatter is not None else sys.stdout


def set_chatter(stream):
    global _chatter
    _chatter = stream


def say(message):
    """A progress message of the driver itself."""
    stream = chatter()
    print(f"inasim: {message}", file=stream, flush=True)


def warn(message):
    print(f"inasim: warning: {message}", file=sys.stderr, flush=True)


def build_dir():
    """The CMake build directory: build/, or $INASIM_BUILD_DIR (relative to the repository)."""
    value = os.environ.get("INASIM_BUILD_DIR", "").strip()
    if not value:
        return ROOT / "build"
    path = Path(value)
    return path if path.is_absolute() else ROOT / path


def cpu_count():
    """CPUs this process may use (affinity, not the machine's total)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def jobs(requested=None):
    """Parallel jobs for builds and ctest: --jobs, else $INASIM_JOBS, else the CPU count."""
    if requested is not None:
        if requested < 1:
            raise UserError(f"--jobs must be at least 1, got {requested}", code=2)
        return requested
    value = os.environ.get("INASIM_JOBS", "").strip()
    if value:
        try:
            count = int(value)
        except ValueError:
            count = 0
        if count < 1:
            raise UserError(f"INASIM_JOBS must be a positive integer, got {value!r}", code=2)
        return count
    return cpu_count()


def display_path(path):
    """A path as short as possible for messages: relative to the cwd or the repository if inside."""
    path = Path(path)
    for base in (Path.cwd(), ROOT):
        try:
            rel = path.resolve().relative_to(base.resolve())
        except ValueError:
            continue
        return str(rel) if str(rel) != "." else "."
    return str(path)
