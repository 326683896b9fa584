#!/usr/bin/env bash
# Installs the Debian packages Switchyard builds with, when any is missing. Sourced by ./run.sh and
# ./test.sh; safe to run again (it only calls apt-get when something is absent).
set -euo pipefail

SWITCHYARD_PACKAGES=(
  cmake ninja-build g++
  libabsl-dev robin-map-dev
  libflatbuffers-dev flatbuffers-compiler
  nlohmann-json3-dev
  libyaml-cpp-dev
  pkg-config libsleef-dev libopenblas-dev
  libxnnpack-dev libpthreadpool-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  # Tests only: PyTorch 1.13, the oracle the operators are compared against (conformance/oracle/);
  # Clang and its sanitizer runtimes, which compile ./test.sh's sanitizer builds (test.sh says why).
  libtorch-dev
  clang libclang-rt-14-dev
  valgrind python3 ccache
)

missing=()
for pkg in "${SWITCHYARD_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "==> dependencies: all installed (${SWITCHYARD_PACKAGES[*]})"
else
  echo "==> dependencies: installing ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
