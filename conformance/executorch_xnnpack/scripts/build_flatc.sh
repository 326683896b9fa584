#!/usr/bin/env bash
# build_flatc.sh: builds flatc from the flatbuffers commit ExecuTorch pins ($ET_ROOT/src/flatbuffers).
# ExecuTorch's headers need a flatbuffers newer than Debian 12's 2.0.8 (they use the two-parameter
# flatbuffers::Vector), and the generated headers must match the library headers they are compiled
# with, so both come from the pin. Only the flatc binary is built.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/env.sh"

if [ ! -f "$FLATC_BUILD/build.ninja" ]; then
  cmake -S "$SRC_DIR/flatbuffers" -B "$FLATC_BUILD" -G Ninja $(cmake_launcher) -DCMAKE_BUILD_TYPE=Release \
    -DFLATBUFFERS_BUILD_TESTS=OFF -DFLATBUFFERS_BUILD_FLATLIB=OFF -DFLATBUFFERS_BUILD_FLATHASH=OFF \
    -DFLATBUFFERS_INSTALL=OFF > /dev/null
fi
$NICE ninja -C "$FLATC_BUILD" -j"$JOBS" flatc
