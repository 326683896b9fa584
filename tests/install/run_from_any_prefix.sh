#!/usr/bin/env bash
# Installs a build to a temporary prefix, moves the prefix elsewhere, and runs the installed
# `switchyard` from there with no LD_LIBRARY_PATH: it must find libswitchyard (and the optimized
# library) through its own run path (See Note [Installed programs find their libraries relative to
# themselves] in CMakeLists.txt). It writes a program with `switchyard demo --save` and runs it with
# `switchyard run`; PROGRAM.pte, when given and present, is run too.
#   tests/install/run_from_any_prefix.sh BUILD_DIR [PROGRAM.pte]
set -euo pipefail
build=$1
program=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/installed" > /dev/null
mv "$tmp/installed" "$tmp/moved"
switchyard=(env -u LD_LIBRARY_PATH "$tmp/moved/bin/switchyard")
"${switchyard[@]}" --help > /dev/null
"${switchyard[@]}" demo --calls 100 --save "$tmp/demo.pte" > /dev/null
"${switchyard[@]}" run "$tmp/demo.pte" --random 0
if [ -n "$program" ] && [ -f "$program" ]; then
  "${switchyard[@]}" run "$program" --random 0
fi
echo "installed switchyard ran from a moved prefix"
