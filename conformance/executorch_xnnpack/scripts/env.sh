# env.sh: settings and helpers shared by roundtrip.sh and the build scripts (sourced, not run).
#
# Every setting can be overridden from the environment; the defaults suit the project's machines,
# where bare git mirrors live under /work/.mirror. Nothing here touches the network.

PKG_DIR="${PKG_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"

# Bare git mirrors (read only).
MIRROR_ROOT="${MIRROR_ROOT:-/work/.mirror}"
ET_GIT="${ET_GIT:-$MIRROR_ROOT/pytorch+executorch/repo}"
XNN_GIT="${XNN_GIT:-$MIRROR_ROOT/google+XNNPACK/repo}"
CPUINFO_GIT="${CPUINFO_GIT:-$MIRROR_ROOT/pytorch+cpuinfo/repo}"
FXDIV_GIT="${FXDIV_GIT:-$MIRROR_ROOT/Maratyszcza+FXdiv/repo}"
FP16_GIT="${FP16_GIT:-$MIRROR_ROOT/Maratyszcza+FP16/repo}"
PTHREADPOOL_GIT="${PTHREADPOOL_GIT:-$MIRROR_ROOT/google+pthreadpool/repo}"
FB_GIT="${FB_GIT:-$MIRROR_ROOT/google+flatbuffers/repo}"

# The ExecuTorch release under test, and the work folder everything is checked out and built in.
ET_REF="${ET_REF:-v1.4.1}"
ET_ROOT="${ET_ROOT:-/tmp/et_xnnpack}"
JOBS="${JOBS:-2}"
NICE="${NICE:-nice -n 15}"
# Compiler launcher for every C/C++ compile here: ccache when installed (CCACHE=none to go without).
if [ -z "${CCACHE:-}" ]; then CCACHE=$(command -v ccache || echo none); fi

# Layout of $ET_ROOT (a rerun reuses whatever is already there at the right commit):
SRC_DIR="$ET_ROOT/src"                    # executorch/ XNNPACK/ cpuinfo/ FXdiv/ FP16/ pthreadpool/ flatbuffers/
FLATC_BUILD="$ET_ROOT/flatc-build"        # flatc at ExecuTorch's flatbuffers pin
XNN_BUILD="$ET_ROOT/xnnpack-build"        # XNNPACK static libraries
ET_BUILD="$ET_ROOT/executorch-build"      # ExecuTorch runtime, its XNNPACK delegate, the three runners
SY_BUILD="${SY_BUILD:-$ET_ROOT/switchyard-build}"   # used only when Switchyard is built here
TOOLS_BUILD="$ET_ROOT/tools-build"        # make_programs and sy_runner, against $SY_PREFIX
RESULTS="$ET_ROOT/results"                # programs/, outputs and logs of the last run
LOGS="$ET_ROOT/logs"                      # build logs (appended)

export PKG_DIR MIRROR_ROOT ET_GIT XNN_GIT CPUINFO_GIT FXDIV_GIT FP16_GIT PTHREADPOOL_GIT FB_GIT
export ET_REF ET_ROOT JOBS NICE CCACHE SRC_DIR FLATC_BUILD XNN_BUILD ET_BUILD SY_BUILD TOOLS_BUILD RESULTS LOGS

# checkout_tree GIT_DIR COMMIT DEST: writes COMMIT's tree into DEST unless DEST already holds it
# (recorded in DEST/.commit). Some mirrors lack a few binary blobs (images in ExecuTorch's docs):
# git reports them and carries on, which is harmless for a build.
checkout_tree() {
  local git_dir=$1 commit=$2 dest=$3
  if [ -f "$dest/.commit" ] && [ "$(cat "$dest/.commit")" = "$commit" ]; then return 0; fi
  rm -rf "$dest" && mkdir -p "$dest"
  git --git-dir="$git_dir" --work-tree="$dest" checkout -f "$commit" -- . 2>&1 | grep -v "unable to read sha1" || true
  echo "$commit" > "$dest/.commit"
}

# cmake_launcher: the CMake options that put $CCACHE in front of the compilers (nothing without it).
cmake_launcher() {
  if [ "$CCACHE" != none ]; then echo "-DCMAKE_C_COMPILER_LAUNCHER=$CCACHE -DCMAKE_CXX_COMPILER_LAUNCHER=$CCACHE"; fi
}

# et_pin PATH: the commit ExecuTorch $ET_REF pins as the submodule at PATH.
et_pin() { git --git-dir="$ET_GIT" ls-tree "$ET_REF" "$1" | awk '{print $3}'; }

# replace_if_changed NEW OLD: moves NEW over OLD only when they differ, so ninja sees no change
# (and rebuilds nothing) when a generated file comes out the same.
replace_if_changed() {
  if cmp -s "$1" "$2" 2>/dev/null; then rm -f "$1"; else mv "$1" "$2"; fi
}
