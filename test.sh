#!/usr/bin/env bash
# One command on a fresh Debian 12 machine: install what is missing, build, and run every test:
#   1. the GoogleTest suites in a Release build (through ctest);
#   2. every dispatch-overhead and program-runtime target, under callgrind (bench/README.md), and
#      ../shared/programs' programs against ExecuTorch's recorded instruction counts;
#   3. the installed `switchyard` run from a moved temporary prefix; a downstream project using
#      find_package(switchyard), against the install and the build tree (switchyard::switchyard with
#      the optimized kernels, switchyard::portable without), and one using the kernel-YAML and
#      selective-build CMake functions (tests/selective_consumer: a custom kernel library running a
#      program, and add.pte's selectively built executable, whose size must be under a fifth of
#      libswitchyard's), and the tutorial's npu PrivateUse1 backend (examples/npu_backend: an MLP
#      forward and backward on the npu), against the install;
#   4. the suites again under AddressSanitizer + UndefinedBehaviorSanitizer (the library with both,
#      the test files with ASan only);
#   5. the concurrency suites under ThreadSanitizer.
# `./test.sh --quick` runs stage 1 alone: the edit-build-test loop.
# Every build sets the options it relies on, whatever an earlier command (./run.sh, a developer's
# own cmake call) left in the build directory's cache, and every ctest stage fails when it finds no
# tests. Each stage prints how long it took.
set -euo pipefail
cd "$(dirname "$0")"
quick=0
for arg in "$@"; do
  case "$arg" in
    --quick) quick=1 ;;
    -h|--help) echo "usage: ./test.sh [--quick]   (--quick: the Release build and its tests only)"; exit 0 ;;
    *) echo "test.sh: unknown option '$arg' (usage: ./test.sh [--quick])" >&2; exit 2 ;;
  esac
done
root=$PWD
jobs=$(nproc)

./tools/setup_dependencies.sh
source tools/build_env.sh

start=$SECONDS
stage_start=$SECONDS
stage_name=""
step() {
  if [ -n "$stage_name" ]; then echo "==> done in $((SECONDS - stage_start))s: $stage_name"; fi
  stage_name="$*"; stage_start=$SECONDS
  echo; echo "==> [$((SECONDS - start))s] $*"
}
run_ctest() { ctest --no-tests=error --output-on-failure -j "$jobs" "$@"; }

step "Release build (build/release)"
# The library, benchmarks and examples as released (-O3); the test files themselves at -O0, which
# compiles them in about two thirds of the time (21 s against 15 s for one batch of eight test
# files) and leaves what they test, the library, as it ships. Every build of this script compiles
# the test files 32 to a unity batch (See Note [Test files are compiled in unity batches]). Each
# test binary runs whole, in two shards, as in the sanitizer stages: one process per test case
# (ctest's default here, -DSWITCHYARD_TEST_EACH_CASE_ALONE=ON) starts 2700 processes, which took
# 250 s against about 90 s (switchyard_tests alone: 20 s whole, about 200 s case by case).
cmake -S . -B build/release -G Ninja "${SWITCHYARD_CMAKE_LAUNCHER[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DSWITCHYARD_BUILD_TESTS=ON -DSWITCHYARD_BUILD_BENCH=ON -DSWITCHYARD_BUILD_EXAMPLES=ON \
  -DSWITCHYARD_WITH_PROFILER=ON -DSWITCHYARD_SANITIZE= -DSWITCHYARD_TEST_COMPILE_OPTIONS=-O0 \
  -DSWITCHYARD_TEST_EACH_CASE_ALONE=OFF -DSWITCHYARD_TEST_UNITY_BATCH_SIZE=32 > /dev/null
cmake --build build/release
# The sanitizer builds generate their sources with this build's generator (See Note [A build may
# generate with another build's switchyard_codegen] in cmake/SwitchyardCodegen.cmake).
release_codegen=$root/build/release/codegen/switchyard_codegen
step "Release tests"
run_ctest --test-dir build/release
if [ "$quick" = 1 ]; then
  step "finished"
  echo "==> the Release suite passed in $((SECONDS - start))s (--quick: callgrind, install, sanitizer stages skipped)"
  exit 0
fi

step "dispatch-overhead and program checks under callgrind (instruction counts are deterministic)"
python3 bench/overhead.py --binary build/release/bench/overhead_bench --callgrind-only --check --targets-only
# Every program both runtimes run, in no more instructions per execute than ExecuTorch's runtime.
python3 bench/executorch_targets.py --switchyard build/release/tools/switchyard/switchyard \
  --programs "$root/../shared/programs"

step "install to build/install and build a find_package(switchyard) consumer"
cmake --install build/release --prefix build/install > /dev/null
# The installed tool runs from any prefix: installed to a temporary one, moved, and run from there,
# on the program its demo writes and on ExecuTorch's add.pte (when ../shared/programs has it).
./tests/install/run_from_any_prefix.sh build/release "$root/../shared/programs/add.pte"
cmake -S tests/consumer -B build/consumer-installed -G Ninja -DCMAKE_PREFIX_PATH="$root/build/install" > /dev/null
cmake --build build/consumer-installed
./build/consumer-installed/consumer
./build/consumer-installed/consumer_portable
cmake -S tests/consumer -B build/consumer-buildtree -G Ninja -Dswitchyard_DIR="$root/build/release" > /dev/null
cmake --build build/consumer-buildtree
./build/consumer-buildtree/consumer
./build/consumer-buildtree/consumer_portable
# PyTorch backend code as written (a PrivateUse1 backend, the idioms of tests/torch_idioms/), compiled
# against the installed <switchyard/compat/torch.h> alone.
cmake -S tests/torch_idioms -B build/torch-idioms-installed -G Ninja -DCMAKE_PREFIX_PATH="$root/build/install" > /dev/null
cmake --build build/torch-idioms-installed
./build/torch-idioms-installed/switchyard_torch_idiom_tests
# The tutorial's "npu" PrivateUse1 backend (docs/tutorials/privateuse1_backend.md), an out-of-tree
# project against the install: an MLP forward and backward on the npu, checked against the CPU.
cmake -S examples/npu_backend -B build/npu-backend-installed -G Ninja -DCMAKE_PREFIX_PATH="$root/build/install" > /dev/null
cmake --build build/npu-backend-installed
./build/npu-backend-installed/npu_mlp
# Prints the selective executable's size beside libswitchyard's (and fails over a fifth).
selective_consumer() {
  local dir=$1; shift
  cmake -S tests/selective_consumer -B "$dir" -G Ninja "$@" > /dev/null
  cmake --build "$dir"
  "./$dir/run_add_custom" "$dir/add.pte"
  "./$dir/run_add_selective" "$dir/add.pte"
}
# Against the install only: the build-tree package is checked by the consumer above, and each
# selective build costs about 15 s.
selective_consumer build/selective-consumer-installed -DCMAKE_PREFIX_PATH="$root/build/install"

# Note [The sanitizer builds compile with Clang]
# Compiling is what the sanitizer stages cost on 2 cores, and Clang compiles this code with the
# sanitizers at -O0 two to four times as fast as GCC (comparison_ops.cpp under ASan+UBSan: 7 s
# against 27 s; a test file 5 s against 12 s). Releases, the benchmarks and the callgrind targets
# stay with GCC. A build folder configured with another compiler is configured afresh.
sanitizer_cxx=$(command -v clang++ || true)
if [ -z "$sanitizer_cxx" ]; then
  echo "test.sh: clang++ is missing (tools/setup_dependencies.sh installs it)" >&2; exit 1
fi
sanitizer_build() {
  local dir=$1
  if [ -f "$dir/CMakeCache.txt" ] && ! grep -qx "CMAKE_CXX_COMPILER:[A-Z]*=$sanitizer_cxx" "$dir/CMakeCache.txt"; then
    rm -rf "$dir/CMakeCache.txt" "$dir/CMakeFiles"
  fi
  cmake -S . -B "$dir" -G Ninja "${SWITCHYARD_CMAKE_LAUNCHER[@]}" -DCMAKE_CXX_COMPILER="$sanitizer_cxx" "${@:2}" > /dev/null
}

step "AddressSanitizer + UndefinedBehaviorSanitizer build (build/asan, Clang)"
# Library and tests at -O0: on 2 cores compiling is this stage's cost, and the suites still run in
# under a minute (measured: -O1 library 546 s build + 10 s tests, -O0 409 s + 38 s). The library,
# the code under test, has both sanitizers; the test files themselves only ASan: UBSan's checks
# took a third of their compile time (30 s against 21 s for one batch of eight test files). Each
# test binary runs whole, in two shards. The test files carry no debug information (-g0): a report still names their functions, and the library's
# frames keep their lines. The kernel code skips UBSan's null and alignment checks (See Note [Kernel
# code skips UBSan's null and alignment checks]), and the library compiles in unity batches (See
# Note [Sanitizer builds compile the library in unity batches]; both in cmake/SwitchyardComponent.cmake).
sanitizer_build build/asan -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG="-O0 -g1" -DSWITCHYARD_TEST_COMPILE_OPTIONS="-O0;-g0;-fno-sanitize=undefined" \
  -DSWITCHYARD_CODEGEN_EXECUTABLE="$release_codegen" -DSWITCHYARD_LIBRARY_UNITY=ON \
  -DSWITCHYARD_SANITIZE=address,undefined -DSWITCHYARD_WITH_PROFILER=ON -DSWITCHYARD_TEST_EACH_CASE_ALONE=OFF \
  -DSWITCHYARD_TEST_UNITY_BATCH_SIZE=32 \
  -DSWITCHYARD_BUILD_TESTS=ON -DSWITCHYARD_BUILD_BENCH=OFF -DSWITCHYARD_BUILD_EXAMPLES=OFF
cmake --build build/asan
step "tests under ASan + UBSan"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  run_ctest --test-dir build/asan

step "ThreadSanitizer build of the concurrency suites (build/tsan, Clang)"
# Without debug information (-g0, about 9% of this build): a race report names the functions. At
# -O0, as the ASan build: compiling, not running the concurrency suites, is this stage's cost on 2
# cores (at -O1 they built in 343 s and ran in 30 s). The library compiles in unity batches, as in
# the ASan build.
sanitizer_build build/tsan -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG="-O0 -g0" -DSWITCHYARD_TEST_COMPILE_OPTIONS= \
  -DSWITCHYARD_CODEGEN_EXECUTABLE="$release_codegen" -DSWITCHYARD_LIBRARY_UNITY=ON \
  -DSWITCHYARD_SANITIZE=thread -DSWITCHYARD_WITH_PROFILER=ON -DSWITCHYARD_TEST_EACH_CASE_ALONE=ON \
  -DSWITCHYARD_TEST_UNITY_BATCH_SIZE=32 \
  -DSWITCHYARD_BUILD_TESTS=ON -DSWITCHYARD_BUILD_BENCH=OFF -DSWITCHYARD_BUILD_EXAMPLES=OFF
cmake --build build/tsan --target switchyard_concurrency_tests switchyard_optimized_concurrency_tests
step "concurrency tests under TSan"
TSAN_OPTIONS=halt_on_error=1 run_ctest --test-dir build/tsan -L concurrency

step "finished"
echo "==> all test stages passed in $((SECONDS - start))s"
