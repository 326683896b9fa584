#!/usr/bin/env bash
# What the dtypes cost in code: builds libswitchyard and the portable kernels' archive twice, for
# every dtype and for the dtypes given (SWITCHYARD_KERNEL_DTYPES; See Note [A build compiles its
# kernels for the dtypes it selects] in core/kernel_dtypes.h), and prints their sizes side by side
# (docs/dtypes.md records a run). Two library builds: about 15 minutes each on 2 cores.
#
#   bench/kernel_dtype_sizes.sh                      # the five classic dtypes against all
#   bench/kernel_dtype_sizes.sh "Bool;Long;Float"    # a Float model's program
set -euo pipefail
cd "$(dirname "$0")/.."
dtypes="${1:-Bool;Int;Long;Float;Double}"
for config in every selected; do
  dir=build/dtype-sizes-$config
  selection=""
  [ "$config" = selected ] && selection="$dtypes"
  cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSWITCHYARD_BUILD_TESTS=OFF -DSWITCHYARD_BUILD_BENCH=OFF \
    -DSWITCHYARD_BUILD_EXAMPLES=OFF "-DSWITCHYARD_KERNEL_DTYPES=$selection" > /dev/null
  cmake --build "$dir" --target switchyard switchyard_portable_kernels > /dev/null
done
# The text (code) and data sections, as size(1) counts them.
code_of() { size --totals "$@" | awk 'END { print $1 + $2 }'; }
printf '%-36s %14s %14s %8s\n' "" "every dtype" "$dtypes" "ratio"
for file in libswitchyard.so selective/libswitchyard_portable_kernels.a; do
  every=$(code_of "build/dtype-sizes-every/$file")
  selected=$(code_of "build/dtype-sizes-selected/$file")
  awk -v f="$file (code + data, bytes)" -v a="$every" -v b="$selected" 'BEGIN { printf "%-36s %14d %14d %8.2f\n", f, a, b, b / a }'
done
