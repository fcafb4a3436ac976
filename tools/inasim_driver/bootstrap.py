# Copyright (c) 2026 inasim authors
# SPDX-License-Identifier: GPL-2.0-only
"""Set-up: the Debian packages inasim needs, and configuring the CMake build directory.

Every other command calls ensure_setup() first; when everything is in place it costs one
dpkg-query call and a few stat() calls.
"""

import os
import shutil
import subprocess

from .common import ROOT, UserError, build_dir, chatter, display_path, say

#: Every Debian 12 package inasim needs: the only list (docs/building.md quotes it).
PACKAGES = (
    "cmake",
    "g++",
    "ninja-build",
    # ns-3 3.37; its exported CMake targets check /usr/libexec/ns3/*-creator (package ns3) and
    # hard-code the include/library paths of the next four packages.
    "libns3-dev",
    "ns3",
    "libgsl-dev",
    "libxml2-dev",
    "libsqlite3-dev",
    "libpython3.11-dev",
    "libgtest-dev",
    "libyaml-cpp-dev",
    "nlohmann-json3-dev",
    "liblpsolve55-dev",  # GRID's planner (LP); pulls in libsuitesparse-dev for COLAMD
    "python3-matplotlib",  # figures (plotting)
)


def parse_dpkg_status(text):
    """Names of the installed packages in `dpkg-query -W -f='${Package}\\t${Status}\\n'` output."""
    installed = set()
    for line in text.splitlines():
        name, sep, status = line.partition("\t")
        # Status is "<want> <error> <state>"; only the state "installed" means usable
        # ("config-files", "half-configured", ... do not).
        if sep and status.split()[-1:] == ["installed"]:
            installed.add(name.strip())
    return installed


def missing_packages(packages=PACKAGES):
    """The packages of `packages` not installed, or None where dpkg is absent (not Debian)."""
    if shutil.which("dpkg-query") is None:
        return None
    proc = subprocess.run(
        ["dpkg-query", "-W", "-f=${Package}\t${Status}\n", *packages],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,  # "no packages found matching X" for never-installed ones
        text=True,
        check=False,
    )
    installed = parse_dpkg_status(proc.stdout)
    return [p for p in packages if p not in installed]


def apt_commands(packages):
    """The two commands that install `packages`, as argument lists."""
    return (
        ["apt-get", "update"],
        ["apt-get", "install", "-y", "--no-install-recommends", *packages],
    )


def install_packages(packages):
    """apt-get install `packages`: as root directly, else through sudo, else explain and fail."""
    update, install = apt_commands(packages)
    by_hand = f"{' '.join(update)} && {' '.join(install)}"
    if shutil.which("apt-get") is None:
        raise UserError(
            "missing packages: " + " ".join(packages) + "\n"
            "apt-get was not found; install them with your package manager, or on Debian 12:\n"
            f"  {by_hand}"
        )
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if os.geteuid() == 0:
        prefix = []
    elif shutil.which("sudo"):
        # sudo resets the environment; `env` carries DEBIAN_FRONTEND across.
        prefix = ["sudo", "env", "DEBIAN_FRONTEND=noninteractive"]
    else:
        raise UserError(
            "missing packages: " + " ".join(packages) + "\n"
            "not root and sudo is not installed; as root, run:\n"
            f"  {by_hand}"
        )
    say("installing missing packages: " + " ".join(packages))
    for cmd in (update, install):
        say("$ " + " ".join(prefix + cmd))
        rc = subprocess.run(prefix + cmd, env=env, stdin=subprocess.DEVNULL,
                            stdout=chatter(), stderr=subprocess.STDOUT, check=False).returncode
        if rc != 0:
            raise UserError(f"'{' '.join(cmd)}' failed (exit {rc}); see its messages above")
    still = missing_packages(packages)
    if still:
        raise UserError("still missing after apt-get install: " + " ".join(still))


def read_cmake_cache(path):
    """KEY -> value of a CMakeCache.txt (types dropped)."""
    values = {}
    with open(path, encoding="utf-8", errors="replace") as cache:
        for line in cache:
            line = line.rstrip("\n")
            if not line or line.startswith(("#", "//")):
                continue
            key, sep, value = line.partition("=")
            if sep:
                values[key.split(":", 1)[0]] = value
    return values


_GENERATOR_FILES = {"Ninja": "build.ninja", "Unix Makefiles": "Makefile"}


def is_configured():
    """True when the build directory holds a generated build system for this repository."""
    bdir = build_dir()
    cache = bdir / "CMakeCache.txt"
    if not cache.is_file():
        return False
    values = read_cmake_cache(cache)
    gen_file = _GENERATOR_FILES.get(values.get("CMAKE_GENERATOR", ""), "build.ninja")
    return (bdir / gen_file).is_file()


def configure(force=False, options=()):
    """Configure the build directory unless it already is; returns True when CMake ran.

    `options` (-DKEY=VALUE) are given to a first configure only: a configured tree keeps its own.
    """
    bdir = build_dir()
    cache = bdir / "CMakeCache.txt"
    cmd = ["cmake", "-S", str(ROOT), "-B", str(bdir)]
    if cache.is_file():
        values = read_cmake_cache(cache)
        home = values.get("CMAKE_HOME_DIRECTORY", "")
        if home and os.path.realpath(home) != os.path.realpath(ROOT):
            raise UserError(
                f"{display_path(bdir)} was configured for another source tree ({home}); "
                f"remove it (rm -rf {display_path(bdir)}) and run again"
            )
        if not force and is_configured():
            return False
        # An existing cache keeps its generator and options (also those set by hand).
    else:
        cmd.append("-DCMAKE_BUILD_TYPE=Release")
        cmd += list(options)
        if shutil.which("ninja"):
            cmd += ["-G", "Ninja"]
    if shutil.which("cmake") is None:
        raise UserError("cmake was not found; run ./inasim setup (Debian) or install CMake >= 3.21")
    say(f"configuring {display_path(bdir)}/")
    say("$ " + " ".join(cmd))
    rc = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=chatter(),
                        stderr=subprocess.STDOUT, check=False).returncode
    if rc != 0:
        raise UserError(f"configuring {display_path(bdir)}/ failed (cmake exit {rc}); "
                        "CMake's messages above say why")
    return True


def ensure_setup(verbose=False, options=()):
    """Install what is missing and configure the build directory, skipping what is done."""
    missing = missing_packages()
    if missing is None:
        if verbose:
            say("dpkg-query not found (not Debian?): not checking packages; need: "
                + " ".join(PACKAGES))
    elif missing:
        install_packages(missing)
    elif verbose:
        say(f"packages: all {len(PACKAGES)} present")
    ran = configure(options=options)
    if verbose and not ran:
        say(f"{display_path(build_dir())}/ is already configured")
