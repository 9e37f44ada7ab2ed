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

export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

start=$(date +%s)
configure "$root/build-tsan" thread
cmake --build "$root/build-tsan" -j"$(nproc)" --target nnapi-unittests \
  nnapi-concurrent-runs nnapi-concurrency-model nnapi_faulty nnapi_host
echo "== ThreadSanitizer: runtime unit tests and 16 threads x 1000 runs"
(cd "$root/build-tsan" && ctest --output-on-failure \
  -R '^(Runtime\.|Devices\.|concurrent-runs$)')

configure "$root/build-asan" address,undefined
cmake --build "$root/build-asan" -j"$(nproc)"
echo "sanitizer builds took $(( $(date +%s) - start )) s"
cd "$root/build-asan"
# LeakSanitizer's tracer (GCC 12's libasan) dies of SIGSEGV stopping some
# multi-threaded test processes at exit ("Tracer caught signal 11"), so leaks
# are checked in the single-threaded processes: every corpus replay, the
# fault sweep's nnapi-run runs and the device tests (1,000 burst calls among
# them). Then everything runs without leak checks.
echo "== AddressSanitizer + UBSan + LeakSanitizer: corpus replays, fault sweep, devices"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
  ctest --output-on-failure -j"$(nproc)" -R '^(fuzz-replay|fault-sweep|Devices\.)'
echo "== AddressSanitizer + UndefinedBehaviorSanitizer: all tests"
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
  ctest --output-on-failure -j"$(nproc)"
