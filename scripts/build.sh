#!/usr/bin/env bash
# Configures and builds nnapi-mlir into build/ (Release, Ninja, ccache when
# present): every target, or only the ones named (scripts/build.sh nnapi-run).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
# NNAPI_MLIR_WERROR=1 (CI) makes every compiler warning an error.
# NNAPI_MLIR_TESTS=OFF (scripts/demo.sh) leaves out the tests, benchmarks,
# Python and Java packages, whose packages `setup.sh demo` does not install.
extras="${NNAPI_MLIR_TESTS:-ON}"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-19/build/utils/lit/lit.py \
  -DNNAPI_MLIR_BUILD_TESTS="$extras" -DNNAPI_MLIR_BUILD_BENCHMARKS="$extras" \
  -DNNAPI_MLIR_BUILD_PYTHON="$extras" -DNNAPI_MLIR_BUILD_JAVA="$extras" \
  -DNNAPI_MLIR_WERROR="$([ "${NNAPI_MLIR_WERROR:-0}" = 1 ] && echo ON || echo OFF)"
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build" -j"$(nproc)" "${targets[@]}"
