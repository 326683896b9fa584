#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: install what is missing, build Release, run the demo.
set -euo pipefail
cd "$(dirname "$0")"

./tools/setup_dependencies.sh

echo "==> configure (Release) in build/release"
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWITCHYARD_BUILD_TESTS=OFF > /dev/null
echo "==> build"
cmake --build build/release --target fallback_demo
echo "==> run examples/fallback_demo"
echo
./build/release/examples/fallback_demo
