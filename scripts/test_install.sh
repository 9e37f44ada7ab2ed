#!/usr/bin/env bash
# Installs the build to a temporary prefix and uses it as an outsider would
# (docs/embedding.md): builds examples/embedding against the package, runs
# its compiler and its C app and checks the result with numpy, builds the app
# again with only the runtime component and MLIR hidden, and runs the Python
# tests against the installed package. Run by ctest (install-package).
#   scripts/test_install.sh BUILD_DIR [PYTHON]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"
python="${2:-/usr/bin/python3}"
example="$root/examples/embedding"

echo "== cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
test -f "$prefix/lib/cmake/nnapi-mlir/nnapi-mlirConfig.cmake"

echo "== examples/embedding against the installed package"
cmake -S "$example" -B "$work/example" -G Ninja \
  -DCMAKE_PREFIX_PATH="$prefix" > "$work/configure.log"
cmake --build "$work/example" > "$work/build.log" || {
  cat "$work/build.log"; exit 1; }
cd "$work/example"
./my-compiler "$example/model.mlir" -o mine.so | tee compile.log
grep -q "my-strip-identity removed 2 tosa.identity op(s)" compile.log
# With the identities gone the whole model is one NNAPI partition.
grep -q "nnapi @main_nnapi_0: 5 ops" compile.log
echo "-- an embedder's mistake: lowering a module that was never partitioned"
if ./my-compiler "$example/model.mlir" -o bad.so --skip-partitioning 2> err.log; then
  echo "my-compiler lowered an unpartitioned module"; exit 1
fi
grep -q "has not been through buildNNAPIPartitionPipeline" err.log
"$python" "$example/make_model.py" --input x.bin
./run-model mine.so x.bin y.bin | tee run.log
grep -q "partitions=1 nnapi_executions=1 host_fallbacks=0" run.log
"$python" "$example/make_model.py" --check x.bin y.bin
echo "-- the model nnapi_mlir_add_model() compiled with the installed nnapi-compile"
./run-model model_by_nnapi_compile.so x.bin y2.bin
"$python" "$example/make_model.py" --check x.bin y2.bin
echo "-- bad input to the app: a short input file"
head -c 100 x.bin > short.bin
if ./run-model mine.so short.bin y3.bin 2> err.log; then
  echo "run-model accepted a short input"; exit 1
fi
grep -q "not exactly the input's size" err.log

echo "== the app alone, with the runtime component and no MLIR"
cmake -S "$example" -B "$work/app" -G Ninja -DRUNTIME_ONLY=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_MLIR=ON -DCMAKE_DISABLE_FIND_PACKAGE_LLVM=ON \
  -DCMAKE_PREFIX_PATH="$prefix" > "$work/app-configure.log" 2>&1
cmake --build "$work/app" > "$work/app-build.log"
"$work/app/run-model" mine.so x.bin y4.bin > /dev/null
"$python" "$example/make_model.py" --check x.bin y4.bin

if [ -f "$prefix/share/java/nnapi-mlir.jar" ]; then
  echo "== the Java API from $prefix: examples/java/RunModel.java"
  mkdir -p "$work/java"
  cd "$work/java"
  javac -cp "$prefix/share/java/nnapi-mlir.jar" -d . "$root/examples/java/RunModel.java"
  "$prefix/bin/nnapi-compile" "$root/examples/onnx/cnn.onnx" -o libcnn.so
  "$python" -c "import numpy as np, sys; np.load(sys.argv[1]).tofile('x.bin')" \
    "$root/examples/onnx/cnn_input.npy"
  java -cp "$prefix/share/java/nnapi-mlir.jar:." -Djava.library.path="$prefix/lib" \
    RunModel libcnn.so x.bin y.bin | tee run.log
  grep -q "PartitionInfo('main_nnapi_0', device 'nnapi-mlir-host')" run.log
  "$python" -c "
import numpy as np, sys
y = np.fromfile('y.bin', np.float32)
e = np.load(sys.argv[1]).ravel()
assert np.allclose(y, e, rtol=1e-3, atol=1e-4), (y, e)
print('Java example matches numpy')" "$root/examples/onnx/cnn_expected.npy"
  echo "-- a missing model: the runtime's message, exit 1"
  if java -cp "$prefix/share/java/nnapi-mlir.jar:." -Djava.library.path="$prefix/lib" \
      RunModel missing.so x.bin y.bin 2> err.log; then
    echo "RunModel ran a missing model"; exit 1
  fi
  grep -q "error (status 6): cannot load model" err.log
fi

echo "== Python tests against $prefix"
cd "$root"
pydir="$(ls -d "$prefix"/lib/python3*/dist-packages)"
PYTHONPATH="$pydir" NNAPI_MLIR_EXPECT_PREFIX="$prefix" \
  "$python" -m pytest -q -p no:cacheprovider "$root/python/tests"
