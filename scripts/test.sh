#!/usr/bin/env bash
# Sets up, builds, and runs every test (unit tests and lit tests) with ctest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
bash "$root/scripts/setup.sh"
start=$(date +%s)
bash "$root/scripts/build.sh"
# The runtime side for AArch64, run under qemu by the lit tests; with it
# built, lit refuses to skip those tests.
bash "$root/scripts/build-aarch64.sh"
export NNAPI_MLIR_REQUIRE_AARCH64=1
echo "build took $(( $(date +%s) - start )) s"
cd "$build"
ctest --output-on-failure -j"$(nproc)"
