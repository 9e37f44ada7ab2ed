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
status=0
mkdir -p Testing
ctest --output-on-failure -j"$(nproc)" | tee Testing/test-sh.log || status=$?
# Where the time goes, so that it stays visible (issue 49): ctest's and lit's
# ten slowest, then ctest's summary again to end the output.
echo "slowest ctest tests (s):"
grep -E "Test +#" Testing/test-sh.log | sed 's/\.\.\.*/ /' |
  awk '{ printf "  %8.1f  %s\n", $(NF-1), $4 }' | sort -rn | head -10 || true
echo "slowest lit tests (s):"
sort -rg test/.lit_test_times.txt 2>/dev/null |
  awk '{ printf "  %8.1f  %s\n", $1, $2 }' | head -10 || true
grep -E "tests passed|tests failed out of" Testing/test-sh.log | tail -1 || true
exit "$status"
