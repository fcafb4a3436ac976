# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Building with CMake, a readable summary of what failed, and finding built programs."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from .common import ROOT, UserError, build_dir, chatter, display_path, jobs, say

# Ninja "[12/40] ..." and make "[ 30%] ..." progress lines.
_PROGRESS = re.compile(r"^\[\s*\d+(?:/\d+|%)\]\s")
# gcc/clang diagnostics: "path:line[:col]: error: message".
_COMPILER_ERROR = re.compile(
    r"^(?P<path>[^\s:][^:]*):(?P<line>\d+)(?::(?P<col>\d+))?: (?P<kind>fatal error|error): (?P<msg>.*)$"
)
_LINKER_ERROR = re.compile(r"^(\S*/)?ld: |undefined reference to|multiple definition of|"
                           r"ld returned \d+ exit status")
_CMAKE_ERROR = re.compile(r"^CMake Error")
# What an up-to-date Ninja or make build prints.
_NO_WORK = re.compile(r"Re-checking globbed directories|^ninja: no work to do|"
                      r"^make(\[\d+\])?: Nothing to be done|^\[100%\] Built target ")
_UNKNOWN_TARGET = re.compile(r"unknown target '([^']+)'|No rule to make target [`']([^']+)'")

#: Directories under the build tree that never hold programs.
_SKIP_DIRS = {"CMakeFiles", "Testing", "include", "lib", ".cmake"}

MAX_LISTED_ERRORS = 25


class UnknownTarget(UserError):
    """The build system has no such target (its CMakeLists.txt does not define it)."""

    def __init__(self, target):
        super().__init__(f"the build defines no target '{target}'")
        self.target = target


def _relative_source(path):
    try:
        return str(Path(path).resolve().relative_to(ROOT))
    except (ValueError, OSError):
        return path


def extract_errors(lines):
    """The error lines worth repeating after a failed build, in order, without duplicates.

    Compiler errors come back as "path:line:col: error: message" with the path relative to the
    repository; linker and CMake errors verbatim (a CMake error with its first message line).
    """
    errors = []
    seen = set()

    def add(text):
        if text not in seen:
            seen.add(text)
            errors.append(text)

    lines = list(lines)
    for i, raw in enumerate(lines):
        line = raw.rstrip()
        m = _COMPILER_ERROR.match(line)
        if m:
            loc = _relative_source(m.group("path")) + ":" + m.group("line")
            if m.group("col"):
                loc += ":" + m.group("col")
            add(f"{loc}: {m.group('kind')}: {m.group('msg')}")
        elif _LINKER_ERROR.search(line):
            add(line)
        elif _CMAKE_ERROR.match(line):
            detail = next((n.strip() for n in lines[i + 1:i + 4] if n.strip()), "")
            add(f"{line} {detail}".strip())
    return errors


def failed_targets(lines):
    """Outputs ninja reports as FAILED, relative to the build directory."""
    return [line[len("FAILED: "):].strip() for line in lines if line.startswith("FAILED: ")]


def build(targets=(), jobs_requested=None):
    """cmake --build the build directory (all, or just `targets`); raise UserError on failure.

    Returns True if anything was (re)built; an up-to-date build prints nothing.

    On a terminal, ninja/make progress lines overwrite each other and everything else is shown;
    elsewhere (CI logs) every line is shown. The full output goes to <build>/last-build.log, and a
    failure ends with the list of errors.
    """
    bdir = build_dir()
    if shutil.which("cmake") is None:
        raise UserError("cmake was not found; run ./inasim setup")
    cmd = ["cmake", "--build", str(bdir), "-j", str(jobs(jobs_requested))]
    for target in targets:
        cmd += ["--target", target]
    what = " ".join(targets) if targets else "everything"
    header = f"building {what} in {display_path(bdir)}/ ({' '.join(cmd[3:5])})"
    out = chatter()
    tty = out.isatty()
    width = shutil.get_terminal_size((100, 20)).columns - 1
    lines = []
    status_shown = False
    log_path = bdir / "last-build.log"
    with open(log_path, "w", encoding="utf-8", errors="replace") as log:
        # Through a pipe, ninja and gcc print plain, uncoloured lines: the log, the terminal and
        # the error summary all see the same text.
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True, errors="replace")
        try:
            for line in proc.stdout:
                log.write(line)
                line = line.rstrip("\n")
                lines.append(line)
                if header is not None:
                    # An up-to-date build says nothing: `run` and `bench` start right away.
                    if _NO_WORK.search(line):
                        continue
                    say(header)
                    header = None
                if tty and _PROGRESS.match(line):
                    out.write("\r\x1b[K" + line[:width])
                    out.flush()
                    status_shown = True
                    continue
                if status_shown:
                    out.write("\r\x1b[K")
                    status_shown = False
                out.write(line + "\n")
                out.flush()
        finally:
            rc = proc.wait()
    if status_shown:
        out.write("\r\x1b[K" if rc != 0 else "\n")
        out.flush()
    if rc == 0:
        return header is None
    if header is not None:
        say(header)
        for line in lines:
            print(line, file=out, flush=True)
    for line in lines:
        m = _UNKNOWN_TARGET.search(line)
        if m:
            raise UnknownTarget(m.group(1) or m.group(2))
    report_failure(lines, log_path)
    raise UserError(f"build failed (exit {rc}); full log: {display_path(log_path)}")


def report_failure(lines, log_path):
    """Repeat the errors (not the noise around them) at the end of a failed build."""
    errors = extract_errors(lines)
    failed = failed_targets(lines)
    tty = sys.stderr.isatty()
    red, bold, reset = ("\x1b[31m", "\x1b[1m", "\x1b[0m") if tty else ("", "", "")
    err = sys.stderr
    print(f"\n{bold}{red}==== build failed ===={reset}", file=err)
    if failed:
        print(f"{bold}failed outputs:{reset}", file=err)
        for target in failed:
            print(f"  {target}", file=err)
    if errors:
        print(f"{bold}errors ({len(errors)}):{reset}", file=err)
        for line in errors[:MAX_LISTED_ERRORS]:
            print(f"  {line}", file=err)
        if len(errors) > MAX_LISTED_ERRORS:
            print(f"  ... and {len(errors) - MAX_LISTED_ERRORS} more in {display_path(log_path)}",
                  file=err)
    else:
        print(f"no compiler error lines recognised; see the output above or {display_path(log_path)}",
              file=err)
    err.flush()


_program_cache = {}


def find_program(name):
    """The newest executable called `name` under the build directory, or None.

    Searched by name because programs land where their CMakeLists.txt puts them
    (build/<module>/examples/, build/bench/, build/scratch/...). Found once per process.
    """
    if name in _program_cache:
        return _program_cache[name]
    hits = []
    for dirpath, dirnames, filenames in os.walk(build_dir()):
        dirnames[:] = [d for d in dirnames if d not in _SKIP_DIRS]
        if name in filenames:
            path = Path(dirpath) / name
            if path.is_file() and os.access(path, os.X_OK):
                hits.append(path)
    found = max(hits, key=lambda p: p.stat().st_mtime) if hits else None
    _program_cache[name] = found
    return found


def build_program(name, jobs_requested=None):
    """Build the target `name` (a program of the same name) and return the program's path."""
    try:
        build([name], jobs_requested)
    except UnknownTarget:
        raise UserError(
            f"the build defines no program '{name}' (no CMake target of that name in this "
            "checkout)"
        ) from None
    path = find_program(name)
    if path is None:
        raise UserError(f"built target '{name}' but found no executable named {name} under "
                        f"{display_path(build_dir())}/")
    return path
