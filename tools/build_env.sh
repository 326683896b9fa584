# Sourced by ./run.sh and ./test.sh: how builds are launched.
# ccache, when installed, makes a second ./test.sh (or ./run.sh then ./test.sh) recompile only what
# changed. Sources keep their absolute paths (no CCACHE_BASEDIR): registration sites are printed
# relative to the source root through -fmacro-prefix-map, which must see the absolute path.
SWITCHYARD_CMAKE_LAUNCHER=()
if command -v ccache > /dev/null 2>&1; then
  SWITCHYARD_CMAKE_LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
# The test binaries use a precompiled header (tests/CMakeLists.txt); ccache caches compilations
# that use one only with these relaxations (ccache's manual, "Precompiled headers").
export CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
#
# Note [ccache keys a precompiled header by its headers' bytes]
# GCC records in a precompiled header a digest of every `#pragma once` header it read, and a later
# `#include` of that header is skipped only if the file on disk still has that digest. ccache's
# preprocessor mode keys a result by the preprocessed text, which has no comments: after a change
# to a header's comments alone it returns the precompiled header built from the old bytes, and every
# test file that includes the edited header again fails with "redefinition of ..." (stop 46's CI, on
# a change to a comment in dispatcher/kernel_context.h). Depend mode keys every result by the bytes
# of the files the compiler's own -MD list names and never runs the preprocessor, so an edited
# comment is a miss, as it must be. A cache filled before keeps the stale header: its preprocessor
# hit recorded the edited file's bytes as the key, and depend mode finds it there. Such a cache is
# cured by changing tests/precompiled_header_key.h, which every test binary's precompiled header
# includes.
export CCACHE_DEPEND=1
