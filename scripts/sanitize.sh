#!/usr/bin/env bash
# Builds the plain C++ side (runtime, host NNAPI device, nnapi-run, the fault
# library, unit tests, fuzz-corpus replays) with sanitizers and runs its tests:
#   build-asan/  AddressSanitizer + UndefinedBehaviorSanitizer: every unit
#                test, every corpus and crash input, the fault sweep and the
#                concurrency check
#   build-tsan/  ThreadSanitizer: the runtime's unit tests and the
#                concurrency checks (16 threads x 1000 runs, failing calls;
#                two models from four threads on a pool of three)
#   build-tsan-clang/  the same built with clang 19
#   build-asan-compiler/  the ONNX and TFLite importers (and the MLIR
#                libraries of ours they link) under ASan + UBSan: their fuzz
#                corpora and every crash input ever found replay there, so a
#                read past the end that happens not to crash still fails
# Models are compiled with the main build's nnapi-compile (build/ unless
# BUILD_DIR says otherwise; scripts/build.sh makes it). Any sanitizer report
# fails its test.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
compiler="$build/bin/nnapi-compile"
[ -x "$compiler" ] || { echo "sanitize: build $compiler first"; exit 2; }

configure() { # DIR SANITIZERS [CMAKE ARGS...]
  local dir=$1 sanitizers=$2
  shift 2
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DNNAPI_MLIR_BUILD_COMPILER=OFF -DNNAPI_MLIR_BUILD_BENCHMARKS=OFF \
    -DNNAPI_MLIR_SANITIZE="$sanitizers" -DNNAPI_MLIR_TEST_COMPILER="$compiler" \
    "$@" >/dev/null
}

export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

start=$(date +%s)
tsan_targets=(nnapi-unittests nnapi-concurrent-runs nnapi-concurrency-model
              nnapi-concurrency-eager-model nnapi_faulty nnapi_host)
tsan_tests='^(Runtime\.|Devices\.|Pools/Threads\.|ThreadPoolOption\.|ControlFlow\.|concurrent-runs$|concurrent-runs-pool$)'
configure "$root/build-tsan" thread
cmake --build "$root/build-tsan" -j"$(nproc)" --target "${tsan_targets[@]}"
echo "== ThreadSanitizer (GCC): runtime unit tests, 16 threads x 1000 runs, the pool"
(cd "$root/build-tsan" && ctest --output-on-failure -R "$tsan_tests")

# The same with clang, whose ThreadSanitizer is told about pthreadpool's
# hand-offs through __has_feature (GCC's through __SANITIZE_THREAD__): a
# clang build once reported false races in every parallel loop.
if ! command -v clang++-19 >/dev/null ||
   ! [ -d /usr/lib/llvm-19/lib/clang/19/lib/linux ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y \
    --no-install-recommends clang-19 libclang-rt-19-dev >/dev/null
fi
configure "$root/build-tsan-clang" thread \
  -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19
cmake --build "$root/build-tsan-clang" -j"$(nproc)" --target "${tsan_targets[@]}"
# Its concurrency models are instrumented too (test/lib/CMakeLists.txt).
for m in cnn.so cnn-eager.so; do
  nm -D "$root/build-tsan-clang/test/lib/$m" | grep -q ' U __tsan_func_entry' ||
    { echo "sanitize: $m is not instrumented for ThreadSanitizer"; exit 1; }
done
echo "== ThreadSanitizer (clang): runtime unit tests, 16 threads x 1000 runs, the pool (models instrumented)"
(cd "$root/build-tsan-clang" && ctest --output-on-failure -R "$tsan_tests")

# The importer replays first: its build is the one that takes MLIR's headers.
# LLVM and MLIR's own libraries are not instrumented, so their containers
# carry no ASan annotations: container-overflow checks are off there.
configure "$root/build-asan-compiler" address,undefined \
  -DNNAPI_MLIR_BUILD_COMPILER=ON -DNNAPI_MLIR_BUILD_PYTHON=OFF \
  -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-19/build/utils/lit/lit.py
cmake --build "$root/build-asan-compiler" -j"$(nproc)" \
  --target fuzz-onnx-import fuzz-tflite-import
echo "== AddressSanitizer + UBSan: the importers' corpora and crash inputs"
(cd "$root/build-asan-compiler" &&
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:detect_container_overflow=0 \
  ctest --output-on-failure --no-tests=error \
    -R '^fuzz-replay\.fuzz-(onnx|tflite)-import$')

configure "$root/build-asan" address,undefined
cmake --build "$root/build-asan" -j"$(nproc)"
echo "sanitizer builds took $(( $(date +%s) - start )) s"
cd "$root/build-asan"
# LeakSanitizer's tracer (GCC 12's libasan) dies of SIGSEGV stopping some
# multi-threaded test processes at exit ("Tracer caught signal 11"), so leaks
# are checked in the single-threaded processes: every corpus replay, the
# fault sweep's nnapi-run runs and the device tests (1,000 burst calls among
# them), on one thread (NNAPI_MLIR_THREADS=1: no pool workers). Then
# everything runs without leak checks, on the default pool. Thread-local
# storage is not scanned (use_tls=0): the tracer also reads a garbage
# dynamic-TLS entry for the dlopened host library in some test processes
# ("DTLS 6 at 0x9f9-...", then signal 11). Not scanning it can only report
# more leaks (a block that only TLS points to), never fewer.
echo "== AddressSanitizer + UBSan + LeakSanitizer: corpus replays, fault sweep, devices"
NNAPI_MLIR_THREADS=1 ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 LSAN_OPTIONS=use_tls=0 \
  ctest --output-on-failure -j"$(nproc)" -R '^(fuzz-replay|fault-sweep|Devices\.)'
echo "== AddressSanitizer + UndefinedBehaviorSanitizer: all tests"
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 \
  ctest --output-on-failure -j"$(nproc)"
