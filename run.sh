#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: install what is missing, build Release, run the demo.
set -euo pipefail
cd "$(dirname "$0")"

./tools/setup_dependencies.sh
source tools/build_env.sh

# Only the `switchyard` command (and the library) is built here; the cache keeps the project's default options, so a ./test.sh
# that follows reuses this configuration (and sets what it relies on itself anyway).
echo "==> configure (Release) in build/release"
cmake -S . -B build/release -G Ninja "${SWITCHYARD_CMAKE_LAUNCHER[@]}" -DCMAKE_BUILD_TYPE=Release > /dev/null
echo "==> build"
cmake --build build/release --target switchyard_cli
echo "==> run switchyard demo"
echo
./build/release/tools/switchyard/switchyard demo
