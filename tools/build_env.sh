# Sourced by ./run.sh and ./test.sh: how builds are launched.
# ccache, when installed, makes a second ./test.sh (or ./run.sh then ./test.sh) recompile only what
# changed. Sources are hashed relative to the checkout, so clones at other paths share the cache.
SWITCHYARD_CMAKE_LAUNCHER=()
if command -v ccache > /dev/null 2>&1; then
  export CCACHE_BASEDIR="$PWD"
  export CCACHE_NOHASHDIR=1
  SWITCHYARD_CMAKE_LAUNCHER=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
