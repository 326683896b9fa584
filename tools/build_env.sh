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
