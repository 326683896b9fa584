#!/usr/bin/env bash
# Builds Release and runs the dispatch-overhead experiment and the program benchmark
# (bench/README.md). Arguments go to bench/overhead.py: e.g. `bench/overhead.sh --check`,
# `bench/overhead.sh --callgrind-only`.
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/setup_dependencies.sh
echo "==> configure and build Release (build/release, targets overhead_bench and program_bench)"
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build/release --target overhead_bench program_bench
echo "==> running every row under callgrind and Google Benchmark"
python3 bench/overhead.py --binary build/release/bench/overhead_bench "$@"
