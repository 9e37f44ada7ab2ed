#!/usr/bin/env bash
# Cross-builds the runtime side (libnnapi_runtime.so, the host NNAPI device
# libnnapi_host.so and nnapi-run) for aarch64-linux-gnu into build-aarch64/,
# with Debian's g++-aarch64-linux-gnu and cmake/aarch64-linux-gnu.cmake.
# XNNPACK, pthreadpool and cpuinfo come from Debian's arm64 packages,
# unpacked into build-aarch64/sysroot (docs/android.md says why not
# installed). Run scripts/setup.sh first (it adds the arm64 architecture and
# the cross compiler). Test the result with the compiler's build: ctest -R
# aarch64 (qemu-aarch64 runs it). The runtime is built without pthreadpool,
# as an app's NDK build is: its own workers run the host code's loops (the
# host device's XNNPACK still links Debian's pthreadpool, and runs on the
# calling thread).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${AARCH64_BUILD_DIR:-$root/build-aarch64}"
sysroot="$build/sysroot"
debs="$build/debs"
packages=(libxnnpack0 libxnnpack-dev libpthreadpool0 libpthreadpool-dev libcpuinfo0)

mkdir -p "$debs"
if [ ! -f "$sysroot/.complete" ]; then
  rm -rf "$sysroot"
  (cd "$debs" && apt-get download "${packages[@]/%/:arm64}")
  for deb in "$debs"/*_arm64.deb; do dpkg-deb -x "$deb" "$sysroot"; done
  touch "$sysroot/.complete"
fi

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="$root/cmake/aarch64-linux-gnu.cmake" \
  -DNNAPI_AARCH64_SYSROOT="$sysroot" \
  -DNNAPI_MLIR_BUILD_COMPILER=OFF -DNNAPI_MLIR_BUILD_TESTS=OFF \
  -DNNAPI_MLIR_BUILD_BENCHMARKS=OFF -DNNAPI_MLIR_PTHREADPOOL=OFF
cmake --build "$build" -j"$(nproc)" --target nnapi_runtime nnapi_host nnapi-run
