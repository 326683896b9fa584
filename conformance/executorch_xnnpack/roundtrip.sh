#!/usr/bin/env bash
# roundtrip.sh: do the ExecuTorch programs Switchyard writes with XNNPACK delegates load and run in
# ExecuTorch's own runtime with ExecuTorch's own XNNPACK delegate, and compute what Switchyard
# computes? The single entry point of this folder; see README.md.
#
#   ./roundtrip.sh                 everything, idempotent: a rerun rebuilds only what changed
#   ./roundtrip.sh NAME_SUBSTRING  only the programs whose name contains it (wild programs too)
#
# Environment (defaults in brackets; scripts/env.sh has the full list):
#   ET_ROOT       work folder for checkouts, builds and results [/tmp/et_xnnpack]
#   MIRROR_ROOT   where the bare git mirrors live [/work/.mirror]; or each one: ET_GIT, XNN_GIT,
#                 CPUINFO_GIT, FXDIV_GIT, FP16_GIT, PTHREADPOOL_GIT, FB_GIT
#   ET_REF        ExecuTorch release under test [v1.4.1]
#   SY_PREFIX     an installed Switchyard to test; unset: Switchyard is built from SY_SOURCE [the
#                 repository this folder is in] in SY_BUILD [$ET_ROOT/switchyard-build] and
#                 installed into $ET_ROOT/switchyard-prefix
#   WILD_DIR      ExecuTorch-exported programs for the runner check [/work/shared/programs/wild];
#                 skipped when absent
#   JOBS          parallel compile jobs [2]; compiles run under NICE [nice -n 15]
#
# Exit status: 0 when every program passed or failed exactly as expected_failures.tsv says;
# 1 on anything else (a build step, an export, a runner, a comparison).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/scripts/env.sh"
ONLY="${1:-}"
WILD_DIR="${WILD_DIR:-/work/shared/programs/wild}"
mkdir -p "$ET_ROOT" "$LOGS"
start=$SECONDS
step() { echo "==> [$((SECONDS - start))s] $*"; }

# logged NAME COMMAND...: runs a build step with its output appended to $LOGS/NAME.log.
logged() {
  local name=$1; shift
  echo "=== $(date -Is) $*" >> "$LOGS/$name.log"
  if ! "$@" >> "$LOGS/$name.log" 2>&1; then
    tail -25 "$LOGS/$name.log"
    echo "roundtrip.sh: $name failed (log $LOGS/$name.log)" >&2
    exit 1
  fi
}

step "1. sources from the mirrors (ExecuTorch $ET_REF and the commits it pins)"
logged checkout "$PKG_DIR/scripts/checkout_sources.sh"
sed 's/^/    /' "$ET_ROOT/pins.txt"

step "2. flatc at ExecuTorch's flatbuffers pin"
logged flatc "$PKG_DIR/scripts/build_flatc.sh"

step "3. XNNPACK at ExecuTorch's pin (3 to 7 min the first time; log $LOGS/xnnpack.log)"
logged xnnpack "$PKG_DIR/scripts/build_xnnpack.sh"

step "4. ExecuTorch runtime, its XNNPACK delegate, the runners (1 to 2 min the first time)"
logged executorch "$PKG_DIR/scripts/build_executorch.sh"

step "5. Switchyard"
if [ -n "${SY_PREFIX:-}" ]; then
  [ -f "$SY_PREFIX/lib/cmake/switchyard/switchyardConfig.cmake" ] ||
    { echo "SY_PREFIX=$SY_PREFIX holds no installed Switchyard (lib/cmake/switchyard)" >&2; exit 1; }
  echo "    the installed Switchyard in $SY_PREFIX"
else
  export SY_PREFIX="$ET_ROOT/switchyard-prefix"
  logged switchyard "$PKG_DIR/scripts/build_switchyard.sh"
  echo "    Switchyard $(cat "$ET_ROOT/switchyard-commit.txt"), installed in $SY_PREFIX"
fi
# The tools are reconfigured every time (a second), so that a different SY_PREFIX is picked up; a
# build tree configured from another copy of this folder is started afresh.
if [ -f "$TOOLS_BUILD/CMakeCache.txt" ] &&
   ! grep -qxF "CMAKE_HOME_DIRECTORY:INTERNAL=$PKG_DIR/programs" "$TOOLS_BUILD/CMakeCache.txt"; then
  rm -rf "$TOOLS_BUILD"
fi
logged tools cmake -S "$PKG_DIR/programs" -B "$TOOLS_BUILD" -G Ninja $(cmake_launcher) -DCMAKE_BUILD_TYPE=Release \
  -Dswitchyard_DIR="$SY_PREFIX/lib/cmake/switchyard" -DCMAKE_PREFIX_PATH="$SY_PREFIX"
logged tools $NICE ninja -C "$TOOLS_BUILD" -j"$JOBS"

step "6. programs written by Switchyard's exporter"
rm -rf "$RESULTS" && mkdir -p "$RESULTS/programs"
export_rc=0
"$TOOLS_BUILD/make_programs" "$RESULTS/programs" $ONLY > "$RESULTS/make_programs.log" 2>&1 || export_rc=$?
echo "    $(grep -c '^wrote' "$RESULTS/make_programs.log") programs written, $(grep -c '^FAILED' "$RESULTS/make_programs.log" || true) failed"
grep '^FAILED' "$RESULTS/make_programs.log" | sed 's/^/    /' || true
if [ "$export_rc" -gt 1 ]; then cat "$RESULTS/make_programs.log" >&2; exit 1; fi

step "7. ExecuTorch's runners vs Switchyard's vs eager"
wild_list="$PKG_DIR/wild_programs.tsv"
if [ -n "$ONLY" ]; then
  grep -F -- "$ONLY" "$wild_list" > "$RESULTS/wild_programs.tsv" || true
  wild_list="$RESULTS/wild_programs.tsv"
fi
[ -d "$WILD_DIR" ] || echo "    $WILD_DIR not found: the ExecuTorch-exported programs are skipped"
compare_rc=0
python3 "$PKG_DIR/compare.py" --programs "$RESULTS/programs" --out "$RESULTS/runs" \
  --et et_xnn_run="$ET_BUILD/et_xnn_run" --et et_xnn_run_verify="$ET_BUILD/et_xnn_run_verify" \
  --et et_xnn_run_cmakeflags="$ET_BUILD/et_xnn_run_cmakeflags" --sy "$TOOLS_BUILD/sy_runner" \
  --cli "$SY_PREFIX/bin/switchyard" --expected "$PKG_DIR/expected_failures.tsv" \
  --wild-dir "$WILD_DIR" --wild-list "$wild_list" | tee "$RESULTS/summary.txt" || compare_rc=$?

step "done in $((SECONDS - start))s: $RESULTS/summary.txt, $RESULTS/runs/summary.tsv"
[ "$export_rc" = 0 ] && [ "$compare_rc" = 0 ]
