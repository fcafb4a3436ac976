#!/usr/bin/env bash
# The installed package, as a user outside this repository uses it: `cmake --install` into a
# fresh prefix, then scratch/two-jobs.cc built twice against it, once with pkg-config's one line
# and once with find_package(inasim), and each program run (two jobs, values checked).
# usage: install.sh BUILD_DIR SOURCE_DIR WORK_DIR [EXTRA_FLAGS]
# EXTRA_FLAGS: compiler and linker flags the outside program needs besides the package's own
# (the sanitizer build passes -fsanitize=address,undefined: its libraries need that runtime).
set -euo pipefail
build=$1 src=$2 work=$3 extra=${4:-}
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"

export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
# shellcheck disable=SC2046 # pkg-config's words are meant to split
# shellcheck disable=SC2086 # so are the extra flags
g++ -O1 $extra "$src/scratch/two-jobs.cc" $(pkg-config --cflags --libs inasim) -o "$work/two-jobs-pc"
"$work/two-jobs-pc" --tensor-kb=400 --iterations=1

cmake -S "$src/test/install" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$work/prefix" \
    -DINASIM_SCRATCH_SOURCE="$src/scratch/two-jobs.cc" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS="$extra" -DCMAKE_EXE_LINKER_FLAGS="$extra" >"$work/consumer.log"
cmake --build "$work/consumer" >>"$work/consumer.log"
"$work/consumer/two-jobs" --tensor-kb=400 --iterations=1
echo "install smoke: OK"
