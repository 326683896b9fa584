#!/usr/bin/env bash
# build_switchyard.sh: builds the Switchyard library from a source tree and installs it into a
# prefix, for the Switchyard side of the round trip (make_programs and sy_runner link against it).
#
#   SY_SOURCE  the Switchyard repository [the repository this folder sits in]
#   SY_BUILD   build tree [$ET_ROOT/switchyard-build]; a tree that is already configured is only
#              built, never reconfigured, so a developer's own build directory can be named here
#   SY_PREFIX  install prefix [$ET_ROOT/switchyard-prefix]
#
# Release, with the project's own options except that tests, benchmarks and examples are left out;
# ccache is used when installed. Writes $ET_ROOT/switchyard-commit.txt (the commit built, marked
# "+local changes" when the tree differs from it). About 15 minutes on 2 cores from scratch.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

SY_SOURCE="${SY_SOURCE:-$(git -C "$PKG_DIR" rev-parse --show-toplevel 2>/dev/null || true)}"
SY_PREFIX="${SY_PREFIX:-$ET_ROOT/switchyard-prefix}"
if [ -z "$SY_SOURCE" ] || [ ! -f "$SY_SOURCE/switchyard.h" ] || [ ! -f "$SY_SOURCE/CMakeLists.txt" ]; then
  echo "no Switchyard source tree (SY_SOURCE='$SY_SOURCE'): set SY_SOURCE, or SY_PREFIX to an installed Switchyard" >&2
  exit 1
fi

commit=$(git -C "$SY_SOURCE" rev-parse HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && [ -n "$(git -C "$SY_SOURCE" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  commit="$commit +local changes"
fi

if [ ! -f "$SY_BUILD/build.ninja" ]; then
  cmake -S "$SY_SOURCE" -B "$SY_BUILD" -G Ninja $(cmake_launcher) -DCMAKE_BUILD_TYPE=Release \
    -DSWITCHYARD_BUILD_TESTS=OFF -DSWITCHYARD_BUILD_BENCH=OFF -DSWITCHYARD_BUILD_EXAMPLES=OFF
fi
$NICE ninja -C "$SY_BUILD" -j"$JOBS"
cmake --install "$SY_BUILD" --prefix "$SY_PREFIX" > /dev/null
echo "$commit ($SY_SOURCE)" > "$ET_ROOT/switchyard-commit.txt"
echo "installed Switchyard $commit into $SY_PREFIX"
