#!/usr/bin/env bash
# build_xnnpack.sh: builds XNNPACK (with cpuinfo and pthreadpool) as static libraries, configured the
# way ExecuTorch's backends/xnnpack/cmake/Dependencies.cmake configures it for its XNNPACK backend:
# static, position independent, no tests or benchmarks, production microkernels only, AVX-VNNI and
# AVX512-VNNI-GFNI off. (KleidiAI is Arm-only: XNNPACK's CMakeLists switches it off on x86 itself.)
# With Debian 12's gcc 12, XNNPACK's CMakeLists also turns off the AVX512-FP16/BF16/AMX and
# AVX-VNNI-INT8 kernels, which need gcc 13 or clang.
#
# Takes 3 to 7 minutes on 2 cores the first time; a rerun finds nothing to do. (XNNPACK's own
# CMakeLists puts ccache in front of the compilers whenever it is installed.)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

if [ ! -f "$XNN_BUILD/build.ninja" ]; then
  cmake -S "$SRC_DIR/XNNPACK" -B "$XNN_BUILD" -G Ninja $(cmake_launcher) -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS_RELEASE="-O2 -DNDEBUG" -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    -DXNNPACK_LIBRARY_TYPE=static -DXNNPACK_BUILD_TESTS=OFF -DXNNPACK_BUILD_BENCHMARKS=OFF \
    -DXNNPACK_BUILD_ALL_MICROKERNELS=OFF -DXNNPACK_ENABLE_AVXVNNI=OFF \
    -DXNNPACK_ENABLE_AVX512VNNIGFNI=OFF -DXNNPACK_ENABLE_KLEIDIAI=OFF \
    -DCPUINFO_SOURCE_DIR="$SRC_DIR/cpuinfo" -DPTHREADPOOL_SOURCE_DIR="$SRC_DIR/pthreadpool" \
    -DFXDIV_SOURCE_DIR="$SRC_DIR/FXdiv" -DFP16_SOURCE_DIR="$SRC_DIR/FP16" \
    -DCPUINFO_BUILD_TOOLS=OFF -DCPUINFO_BUILD_UNIT_TESTS=OFF -DCPUINFO_BUILD_MOCK_TESTS=OFF \
    -DCPUINFO_BUILD_BENCHMARKS=OFF -DPTHREADPOOL_BUILD_TESTS=OFF -DPTHREADPOOL_BUILD_BENCHMARKS=OFF
fi
$NICE ninja -C "$XNN_BUILD" -j"$JOBS" XNNPACK xnnpack-microkernels-prod cpuinfo pthreadpool
