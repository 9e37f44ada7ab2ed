#!/usr/bin/env bash
# Builds the fuzz targets as libFuzzer programs (clang 19, AddressSanitizer
# and UndefinedBehaviorSanitizer) in build-fuzz/ and runs each for SECONDS.
#
#   bash scripts/fuzz.sh [SECONDS] [TARGET...]   (default: 60 s, all targets)
#
# Each target starts from its seed corpus in fuzz/corpus/<target>/ and keeps
# what it finds in build-fuzz/corpus/<target>/; a crashing input is written
# to build-fuzz/crashes/<target>/ (copy it to fuzz/crashes/<target>/ once
# fixed, so that ctest replays it forever). Prints one summary line per
# target: executions, seconds, corpus size, crashes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${FUZZ_BUILD_DIR:-$root/build-fuzz}"
seconds="${1:-60}"
shift || true
all=(fuzz-blob-reader fuzz-device-profile fuzz-npy fuzz-tensor-proto
     fuzz-runtime-blob fuzz-cache-entry fuzz-onnx-import fuzz-tflite-import)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

if ! command -v clang++-19 >/dev/null ||
   ! [ -d /usr/lib/llvm-19/lib/clang/19/lib/linux ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y \
    --no-install-recommends clang-19 libclang-rt-19-dev
fi
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
  -DNNAPI_MLIR_FUZZ=ON -DNNAPI_MLIR_SANITIZE=address,undefined \
  -DNNAPI_MLIR_BUILD_BENCHMARKS=OFF \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-19/build/utils/lit/lit.py >/dev/null
cmake --build "$build" -j"$(nproc)" --target "${targets[@]}"

status=0
for t in "${targets[@]}"; do
  work="$build/corpus/$t"
  crashes="$build/crashes/$t"
  mkdir -p "$work" "$crashes"
  max_len=65536
  [ "$t" = fuzz-runtime-blob ] || [ "$t" = fuzz-blob-reader ] && max_len=131072
  log="$build/$t.log"
  set +e
  ASAN_OPTIONS=detect_leaks=1 "$build/bin/$t" "$work" "$root/fuzz/corpus/$t" \
    -max_total_time="$seconds" -max_len="$max_len" -timeout=20 \
    -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$crashes/" >"$log" 2>&1
  rc=$?
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  time=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
  found=$(find "$crashes" -type f | wc -l)
  echo "$t: ${runs:-?} executions in ${time:-?} s, corpus $(ls "$work" | wc -l) inputs, $found crash inputs (exit $rc, log $log)"
  [ "$rc" -eq 0 ] && [ "$found" -eq 0 ] || status=1
done
exit $status
