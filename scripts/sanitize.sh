#!/usr/bin/env bash
# Builds the plain C++ side (runtime, host NNAPI device, nnapi-run, the fault
# library, unit tests, fuzz-corpus replays) with sanitizers and runs its tests:
#   build-asan/  AddressSanitizer + UndefinedBehaviorSanitizer: every unit
#                test, every corpus and crash input, the fault sweep and the
#                concurrency check
#   build-tsan/  ThreadSanitizer: the runtime's unit tests and the
#                concurrency check (16 threads x 1000 runs, failing calls)
# Models are compiled with the main build's nnapi-compile (build/ unless
# BUILD_DIR says otherwise; scripts/build.sh makes it). Any sanitizer report
# fails its test.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
compiler="$build/bin/nnapi-compile"
[ -x "$compiler" ] || { echo "sanitize: build $compiler first"; exit 2; }

configure() { # DIR SANITIZERS
  cmake -S "$root" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DNNAPI_MLIR_BUILD_COMPILER=OFF -DNNAPI_MLIR_BUILD_BENCHMARKS=OFF \
    -DNNAPI_MLIR_SANITIZE="$2" -DNNAPI_MLIR_TEST_COMPILER="$compiler" \
    >/dev/null
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

start=$(date +%s)
configure "$root/build-tsan" thread
cmake --build "$root/build-tsan" -j"$(nproc)" --target nnapi-unittests \
  nnapi-concurrent-runs nnapi-concurrency-model nnapi_faulty nnapi_host
echo "== ThreadSanitizer: runtime unit tests and 16 threads x 1000 runs"
(cd "$root/build-tsan" && ctest --output-on-failure \
  -R '^(Runtime\.|concurrent-runs$)')

configure "$root/build-asan" address,undefined
cmake --build "$root/build-asan" -j"$(nproc)"
echo "sanitizer builds took $(( $(date +%s) - start )) s"
echo "== AddressSanitizer + UndefinedBehaviorSanitizer: all tests"
cd "$root/build-asan"
# LeakSanitizer's tracer, which stops the process at exit to scan it, now and
# then dies of SIGSEGV on a loaded machine ("Tracer caught signal 11"): a
# test that fails is run once more. A real report repeats.
ctest --output-on-failure -j"$(nproc)" --repeat until-pass:2
