#!/usr/bin/env bash
# Sets up, builds, and runs the main job on the bundled example: a small CNN
# in ONNX is imported, placed for the generic device profile (printing the
# partition summary and writing a placement report), compiled, run through
# the runtime and the host NNAPI implementation, checked against host-only
# execution and an independent numpy reference, and timed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
bash "$root/scripts/setup.sh" demo
# Only what the demo runs: the compiler, nnapi-run, the runtime and the host
# NNAPI device (scripts/test.sh installs and builds the rest).
NNAPI_MLIR_TESTS=OFF bash "$root/scripts/build.sh" \
  nnapi-compile nnapi-run nnapi_runtime nnapi_host
out="$build/demo"
mkdir -p "$out"
echo "== examples/onnx/cnn.onnx: a small real CNN in ONNX (NCHW, opset 13), built by"
echo "   examples/onnx/make_onnx_cnn.py with python3-onnx"
echo "== nnapi-compile: import, place by estimated latency (generic NNAPI device), compile"
"$build/bin/nnapi-compile" "$root/examples/onnx/cnn.onnx" -o "$out/cnn.so" \
  --device-profile "$root/profiles/generic-fl7.json" --partition-summary \
  --report "$out/report"
echo "   placement report: $out/report.html (also .json, .dot)"
echo "== nnapi-run: NNAPI partition vs host-only execution"
"$build/bin/nnapi-run" "$out/cnn.so" --input "$root/examples/onnx/cnn_input.npy" \
  --output-dir "$out/result" --compare-host --expect-nnapi --bench 20
echo "== against the independent numpy reference"
/usr/bin/python3 "$root/examples/cnn/compare_npy.py" "$out/result/output0.npy" \
  "$root/examples/onnx/cnn_expected.npy" --rtol 1e-4 --atol 1e-6
echo "== the same through nnapi-run's ONNX test-data runner"
"$build/bin/nnapi-run" "$root/examples/onnx/cnn.onnx" \
  --test-data "$root/examples/onnx/test_data_set_0"
