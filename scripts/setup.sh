#!/usr/bin/env bash
# Installs every Debian 12 package that building and testing nnapi-mlir needs,
# or with `demo` only what scripts/demo.sh builds and runs (the compiler, the
# runtime, the host device: no test frameworks, browser, JDK, emulator or
# cross compiler, no arm64 package lists), so that a first demo on a fresh
# machine does not wait for them. Idempotent: packages already present are
# left alone. Needs root (or sudo).
set -euo pipefail

demo_packages=(
  build-essential cmake ninja-build ccache git
  llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools lld-19
  libonnx-dev libprotobuf-dev protobuf-compiler
  libxnnpack-dev libpthreadpool-dev
  flatbuffers-compiler libflatbuffers-dev
  python3 python3-numpy
)
# The rest for the tests: test frameworks, ONNX's test data and Python
# package, the Python bindings, Chromium (the report test), the AArch64
# cross compiler and qemu, the JDK and JUnit.
packages=(
  "${demo_packages[@]}"
  libgtest-dev libgmock-dev libbenchmark-dev
  libonnx-testdata python3-flatbuffers
  python3-onnx python3-dev python3-pytest pybind11-dev
  chromium
  qemu-user g++-aarch64-linux-gnu
  default-jdk-headless junit4
)

# Debian's arm64 packages (XNNPACK for the cross-built host device,
# scripts/build-aarch64.sh) need the architecture in apt's lists.
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
update=0
if [ "${1:-}" = demo ]; then
  packages=("${demo_packages[@]}")
elif ! dpkg --print-foreign-architectures | grep -qx arm64; then
  $SUDO dpkg --add-architecture arm64
  update=1
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  [ "$update" -eq 0 ] || $SUDO apt-get update
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
