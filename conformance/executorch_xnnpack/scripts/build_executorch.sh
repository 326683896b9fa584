#!/usr/bin/env bash
# build_executorch.sh: builds ExecuTorch's runtime and ExecuTorch's own XNNPACK delegate from the
# checkout in $ET_ROOT/src/executorch, against the XNNPACK of build_xnnpack.sh, and links three
# runners from runner/et_runner.cpp and runner/portable_kernels.cpp into $ET_ROOT/executorch-build:
#
#   et_xnn_run            the sources' own defaults; Program::load with Verification::Minimal
#   et_xnn_run_verify     the same, with Verification::InternalConsistency (flatbuffers verifier)
#   et_xnn_run_cmakeflags the definitions ExecuTorch's CMake build adds by default: program.cpp
#                         with ET_ENABLE_DEPRECATED_CONSTANT_BUFFER=0 (top-level CMakeLists.txt),
#                         the delegate with ENABLE_XNNPACK_SHARED_WORKSPACE and ENABLE_XNNPACK_KLEIDI
#                         (backends/xnnpack/CMakeLists.txt, options ON in tools/cmake/preset/default.cmake)
#
# ExecuTorch's own CMake build is not used: it would build far more than needed. The source lists
# come from ExecuTorch's shim_et/xplat/executorch/build/build_variables.bzl (valid Python), the
# generated headers from flatc as schema/CMakeLists.txt and backends/xnnpack/CMakeLists.txt run it.
# ET_LOG stays enabled (a release CMake build turns it off) so ExecuTorch's own error messages land
# in the run logs. The compile commands go into a generated build.ninja: ninja rebuilds only what
# changed, and nothing when nothing did. 1 to 2 minutes on 2 cores from scratch.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

ET="$SRC_DIR/executorch"
FLATC="$FLATC_BUILD/flatc"
B="$ET_BUILD"
mkdir -p "$B" "$B/include"
# Sources include <executorch/...>: make the checkout reachable under that name.
ln -sfn "$ET" "$B/include/executorch"

# 1. Generated flatbuffers headers, swapped in only when they change.
G="$B/generated.new"
rm -rf "$G"
mkdir -p "$G/executorch/schema" "$G/executorch/extension/flat_tensor/serialize" \
         "$G/executorch/backends/xnnpack/serialization"
FLATC_ARGS=(--cpp --cpp-std c++11 --scoped-enums)
(cd "$ET/schema" && "$FLATC" "${FLATC_ARGS[@]}" --gen-mutable -o "$G/executorch/schema" scalar_type.fbs program.fbs)
(cd "$ET/extension/flat_tensor/serialize" && "$FLATC" "${FLATC_ARGS[@]}" --gen-mutable \
   -o "$G/executorch/extension/flat_tensor/serialize" scalar_type.fbs flat_tensor.fbs)
(cd "$ET/backends/xnnpack/serialization" && "$FLATC" "${FLATC_ARGS[@]}" \
   -o "$G/executorch/backends/xnnpack/serialization" runtime_schema.fbs)
# The delegate includes the runtime schema under the name schema_generated.h.
mv "$G/executorch/backends/xnnpack/serialization/runtime_schema_generated.h" \
   "$G/executorch/backends/xnnpack/serialization/schema_generated.h"
if diff -r -q "$G" "$B/generated" > /dev/null 2>&1; then rm -rf "$G"; else rm -rf "$B/generated" && mv "$G" "$B/generated"; fi

# 2. Source lists.
read_list() {
  python3 - "$ET/shim_et/xplat/executorch/build/build_variables.bzl" "$@" <<'EOF'
import sys
names = {}
exec(open(sys.argv[1]).read(), names)
print(" ".join(src for key in sys.argv[2:] for src in names[key]))
EOF
}
read -r -a RUNTIME_SRCS <<< "$(read_list EXECUTORCH_CORE_SRCS EXECUTORCH_SRCS KERNELS_UTIL_ALL_DEPS_SRCS \
  EXTENSION_DATA_LOADER_SRCS EXTENSION_FLAT_TENSOR_SRCS EXTENSION_THREADPOOL_SRCS)"
RUNTIME_SRCS+=(extension/threadpool/cpuinfo_utils.cpp runtime/platform/default/posix.cpp)
read -r -a DELEGATE_SRCS <<< "$(read_list XNNPACK_BACKEND_SRCS)"
# The portable kernels runner/portable_kernels.cpp registers, and the helpers they share.
for op in $(sed -n 's/^ *PORTABLE_OP(\([a-z_0-9]*\), ".*$/\1/p' "$PKG_DIR/runner/portable_kernels.cpp" | sort -u); do
  RUNTIME_SRCS+=("kernels/portable/cpu/op_$op.cpp")
done
for f in "$ET"/kernels/portable/cpu/pattern/*.cpp; do RUNTIME_SRCS+=("${f#"$ET"/}"); done

# ET_USE_THREADPOOL and the performance-cores flag are public definitions of ExecuTorch's
# extension_threadpool target, so every translation unit sees them.
DEFS="-DC10_USING_CUSTOM_GENERATED_MACROS -DFLATBUFFERS_MAX_ALIGNMENT=1024 -DET_USE_THREADPOOL \
-DEXECUTORCH_THREADPOOL_USE_PERFORMANCE_CORES"
INCS="-I$B/include -I$ET/runtime/core/portable_type/c10 -I$B/generated -I$SRC_DIR/flatbuffers/include \
-I$SRC_DIR/XNNPACK/include -I$SRC_DIR/pthreadpool/include -I$SRC_DIR/cpuinfo/include"
CXXFLAGS="-std=c++17 ${OPT:--O2 -DNDEBUG} $DEFS -fPIC -Wno-deprecated-declarations $INCS"
CMAKE_DEFS="-DET_ENABLE_DEPRECATED_CONSTANT_BUFFER=0 -DENABLE_XNNPACK_SHARED_WORKSPACE -DENABLE_XNNPACK_KLEIDI"

XNN_LIBS="$XNN_BUILD/libXNNPACK.a $XNN_BUILD/libxnnpack-microkernels-prod.a $XNN_BUILD/cpuinfo/libcpuinfo.a \
$XNN_BUILD/pthreadpool/libpthreadpool.a"
for lib in $XNN_LIBS; do [ -f "$lib" ] || { echo "missing $lib: run build_xnnpack.sh first" >&2; exit 1; }; done

launcher=""
[ "$CCACHE" != none ] && launcher=$CCACHE
# 3. build.ninja. Objects of the CMake-flags variant live under obj-cmake/.
obj() { local s=$1; echo "$2/${s%.cpp}.o"; }
{
  echo "cxxflags = $CXXFLAGS"
  echo "rule cxx"
  echo "  command = $launcher g++ \$cxxflags \$extra -MMD -MF \$out.d -c \$in -o \$out"
  echo "  description = CXX \$out"
  echo "  depfile = \$out.d"
  echo "  deps = gcc"
  echo "rule archive"
  echo "  command = rm -f \$out && ar rcs \$out \$in"
  echo "rule link"
  echo "  command = g++ \$in -o \$out -Wl,--whole-archive \$whole -Wl,--no-whole-archive $XNN_LIBS -lpthread -ldl -lm"
  echo "  description = LINK \$out"
  runtime=""; runtime_cmake=""; delegate=""; delegate_cmake=""
  for s in "${RUNTIME_SRCS[@]}"; do
    o=$(obj "$s" obj); echo "build $o: cxx $ET/$s"; runtime+=" $o"
    if [ "$s" = runtime/executor/program.cpp ]; then
      o=$(obj "$s" obj-cmake); echo "build $o: cxx $ET/$s"; echo "  extra = $CMAKE_DEFS"
    fi
    runtime_cmake+=" $o"
  done
  for s in "${DELEGATE_SRCS[@]}"; do
    o=$(obj "$s" obj); echo "build $o: cxx $ET/$s"; delegate+=" $o"
    o=$(obj "$s" obj-cmake); echo "build $o: cxx $ET/$s"; echo "  extra = $CMAKE_DEFS"; delegate_cmake+=" $o"
  done
  echo "build libet_runtime.a: archive$runtime"
  echo "build libet_runtime_cmake.a: archive$runtime_cmake"
  echo "build libet_xnnpack.a: archive$delegate"
  echo "build libet_xnnpack_cmake.a: archive$delegate_cmake"
  echo "build obj/portable_kernels.o: cxx $PKG_DIR/runner/portable_kernels.cpp"
  echo "build obj/et_runner.o: cxx $PKG_DIR/runner/et_runner.cpp"
  echo "build obj/et_runner_verify.o: cxx $PKG_DIR/runner/et_runner.cpp"
  echo "  extra = -DRUNNER_VERIFICATION=InternalConsistency"
  # --whole-archive keeps the registrations nothing refers to: the prim operators and the
  # delegate's static register_backend("XnnpackBackend").
  for v in "et_xnn_run obj/et_runner.o libet_runtime.a libet_xnnpack.a" \
           "et_xnn_run_verify obj/et_runner_verify.o libet_runtime.a libet_xnnpack.a" \
           "et_xnn_run_cmakeflags obj/et_runner.o libet_runtime_cmake.a libet_xnnpack_cmake.a"; do
    set -- $v
    echo "build $1: link $2 obj/portable_kernels.o | $3 $4 $XNN_LIBS"
    echo "  whole = $3 $4"
  done
} > "$B/build.ninja.new"
replace_if_changed "$B/build.ninja.new" "$B/build.ninja"
$NICE ninja -C "$B" -j"$JOBS" et_xnn_run et_xnn_run_verify et_xnn_run_cmakeflags
