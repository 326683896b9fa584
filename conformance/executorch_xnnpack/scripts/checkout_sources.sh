#!/usr/bin/env bash
# checkout_sources.sh: puts the source trees the ExecuTorch side needs under $ET_ROOT/src, all
# from local bare mirrors: ExecuTorch at $ET_REF, and XNNPACK, cpuinfo, FXdiv, FP16, pthreadpool
# and flatbuffers at the commits that release pins as submodules. Writes $ET_ROOT/pins.txt.
#
# pthreadpool: ExecuTorch v1.4.1 pins a56dcd79, which the project's mirror does not hold. Then the
# commit XNNPACK itself asks for (cmake/DownloadPThreadPool.cmake at XNNPACK's pin) is used, or,
# failing that, the newest commit of the mirror's main branch; pins.txt says which.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"
mkdir -p "$SRC_DIR"

for g in "$ET_GIT" "$XNN_GIT" "$CPUINFO_GIT" "$FXDIV_GIT" "$FP16_GIT" "$PTHREADPOOL_GIT" "$FB_GIT"; do
  git --git-dir="$g" rev-parse --git-dir > /dev/null 2>&1 || { echo "not a git mirror: $g" >&2; exit 1; }
done

# The ExecuTorch mirror has a branch literally called HEAD, so name the tag's commit explicitly.
ET_COMMIT=$(git --git-dir="$ET_GIT" rev-parse "$ET_REF^{commit}")
XNN_COMMIT=$(et_pin backends/xnnpack/third-party/XNNPACK)
CPUINFO_COMMIT=$(et_pin backends/xnnpack/third-party/cpuinfo)
FXDIV_COMMIT=$(et_pin backends/xnnpack/third-party/FXdiv)
FP16_COMMIT=$(et_pin backends/xnnpack/third-party/FP16)
FB_COMMIT=$(et_pin third-party/flatbuffers)

PT_PIN=$(et_pin backends/xnnpack/third-party/pthreadpool)
PT_COMMIT=$PT_PIN
PT_NOTE="ExecuTorch's pin"
if ! git --git-dir="$PTHREADPOOL_GIT" cat-file -e "$PT_PIN^{commit}" 2>/dev/null; then
  PT_COMMIT=$(git --git-dir="$XNN_GIT" show "$XNN_COMMIT:cmake/DownloadPThreadPool.cmake" 2>/dev/null |
              grep -o 'archive/[0-9a-f]\{40\}' | head -1 | cut -d/ -f2 || true)
  PT_NOTE="ExecuTorch's pin $PT_PIN is not in the mirror; XNNPACK's own pin"
  if [ -z "$PT_COMMIT" ] || ! git --git-dir="$PTHREADPOOL_GIT" cat-file -e "$PT_COMMIT^{commit}" 2>/dev/null; then
    PT_COMMIT=$(git --git-dir="$PTHREADPOOL_GIT" rev-parse refs/heads/main)
    PT_NOTE="ExecuTorch's pin $PT_PIN is not in the mirror; newest main"
  fi
fi

checkout_tree "$ET_GIT" "$ET_COMMIT" "$SRC_DIR/executorch"
checkout_tree "$XNN_GIT" "$XNN_COMMIT" "$SRC_DIR/XNNPACK"
checkout_tree "$CPUINFO_GIT" "$CPUINFO_COMMIT" "$SRC_DIR/cpuinfo"
checkout_tree "$FXDIV_GIT" "$FXDIV_COMMIT" "$SRC_DIR/FXdiv"
checkout_tree "$FP16_GIT" "$FP16_COMMIT" "$SRC_DIR/FP16"
checkout_tree "$PTHREADPOOL_GIT" "$PT_COMMIT" "$SRC_DIR/pthreadpool"
checkout_tree "$FB_GIT" "$FB_COMMIT" "$SRC_DIR/flatbuffers"

{
  echo "executorch   $ET_REF $ET_COMMIT"
  echo "XNNPACK      $XNN_COMMIT"
  echo "cpuinfo      $CPUINFO_COMMIT"
  echo "FXdiv        $FXDIV_COMMIT"
  echo "FP16         $FP16_COMMIT"
  echo "pthreadpool  $PT_COMMIT ($PT_NOTE; $(git --git-dir="$PTHREADPOOL_GIT" log -1 --format=%cs "$PT_COMMIT"))"
  echo "flatbuffers  $FB_COMMIT"
} > "$ET_ROOT/pins.txt"
sed 's/^/    /' "$ET_ROOT/pins.txt"
