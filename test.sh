#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: install what is missing, build, and run every test:
#   1. the GoogleTest suites in a Release build (through ctest);
#   2. a downstream project using find_package(switchyard), against the install and the build tree;
#   3. the suites again under AddressSanitizer + UndefinedBehaviorSanitizer;
#   4. the concurrency suite under ThreadSanitizer;
#   5. every dispatch-overhead target, under callgrind (bench/README.md).
set -euo pipefail
cd "$(dirname "$0")"
root=$PWD
jobs=$(nproc)
start=$SECONDS
step() { echo; echo "==> [$((SECONDS - start))s] $*"; }

./tools/setup_dependencies.sh

step "Release build (build/release)"
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build/release
step "Release tests"
ctest --test-dir build/release --output-on-failure -j "$jobs"

step "dispatch-overhead check under callgrind (instruction counts are deterministic)"
python3 bench/overhead.py --binary build/release/bench/overhead_bench --callgrind-only --check

step "install to build/install and build a find_package(switchyard) consumer"
cmake --install build/release --prefix build/install > /dev/null
cmake -S tests/consumer -B build/consumer-installed -G Ninja -DCMAKE_PREFIX_PATH="$root/build/install" > /dev/null
cmake --build build/consumer-installed
./build/consumer-installed/consumer
cmake -S tests/consumer -B build/consumer-buildtree -G Ninja -Dswitchyard_DIR="$root/build/release" > /dev/null
cmake --build build/consumer-buildtree
./build/consumer-buildtree/consumer

step "AddressSanitizer + UndefinedBehaviorSanitizer build (build/asan)"
# -O0 -g1: the suites run in well under a second even unoptimised, and compiling the template-heavy
# test files without optimisation is what keeps this stage short on 2 cores.
cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O0 -g1" \
  -DSWITCHYARD_SANITIZE=address,undefined \
  -DSWITCHYARD_BUILD_BENCH=OFF -DSWITCHYARD_BUILD_EXAMPLES=OFF > /dev/null
cmake --build build/asan
step "tests under ASan + UBSan"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build/asan --output-on-failure -j "$jobs"

step "ThreadSanitizer build of the concurrency suite (build/tsan)"
cmake -S . -B build/tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g1" \
  -DSWITCHYARD_SANITIZE=thread \
  -DSWITCHYARD_BUILD_BENCH=OFF -DSWITCHYARD_BUILD_EXAMPLES=OFF > /dev/null
cmake --build build/tsan --target switchyard_concurrency_tests
step "concurrency tests under TSan"
TSAN_OPTIONS=halt_on_error=1 ctest --test-dir build/tsan -L concurrency --output-on-failure -j "$jobs"

step "all test stages passed in $((SECONDS - start))s"
