#!/usr/bin/env bash
# A build through ./run.sh's and ./test.sh's ccache settings (tools/build_env.sh) still compiles after
# a comment-only edit of a header its precompiled header includes (See Note [ccache keys a
# precompiled header by its headers' bytes] in tools/build_env.sh). Builds a two-file project twice
# in a private ccache directory, editing one comment in between, exactly as CI met it: the second
# build must compile, and its precompiled header must be a cache miss. Exit 0 (passed), 1 (failed),
# 77 (skipped: no ccache, the builds then run without it).
set -euo pipefail
source_root="$(cd "$(dirname "$0")/../.." && pwd)"
command -v ccache > /dev/null || { echo "ccache is not installed: nothing to check"; exit 77; }
compiler="${CXX:-c++}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export CCACHE_DIR="$work/cache"
source "$source_root/tools/build_env.sh"
cd "$work"
printf '// the first wording\n#pragma once\nstruct Widget { int x; };\n' > widget.h
printf '#include "widget.h"\n' > pch.hxx
build() {  # build N: the precompiled header, then a source that includes widget.h again
  rm -f pch.hxx.gch
  ccache "$compiler" -std=c++17 -x c++-header pch.hxx -o pch.hxx.gch -MD -MT pch.hxx.gch -MF pch.d
  printf '#include "widget.h"\nint main() { Widget w{%s}; return w.x - %s; }\n' "$1" "$1" > main.cpp
  ccache "$compiler" -std=c++17 -Winvalid-pch -include pch.hxx -c main.cpp -o main.o -MD -MT main.o -MF main.d
}
build 1
sed -i 's/the first wording/the second wording/' widget.h
ccache --zero-stats > /dev/null
if ! build 2; then
  echo "FAILED: after a comment-only edit of widget.h the precompiled header came from the cache" \
       "built from the old bytes (CCACHE_DEPEND=${CCACHE_DEPEND:-unset})"
  exit 1
fi
echo "passed: the build compiles after a comment-only edit of a precompiled header's header"
