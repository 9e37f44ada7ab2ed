#!/usr/bin/env bash
# Sets up, builds, and runs the main job on the bundled example: a small CNN
# in TOSA is compiled with NNAPI partitions for the generic device profile
# (printing the partition summary, why each host op stays there, and a
# placement report), run through the runtime and the host NNAPI
# implementation, checked against host-only execution of the same model, and
# timed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"
out="$build/demo"
mkdir -p "$out"
/usr/bin/python3 "$root/examples/cnn/make_cnn.py" --model split --out-dir "$out"
echo "== nnapi-compile examples/cnn (split: conv, erf on the host, depthwise conv, pool, fc, softmax)"
"$build/bin/nnapi-compile" "$out/split.mlir" -o "$out/split.so" \
  --device-profile "$root/profiles/generic-fl7.json" --partition-summary \
  --emit-remarks --report "$out/report"
echo "   report: $out/report.html (also .json, .dot)"
echo "== nnapi-run: NNAPI partitions vs host-only execution"
"$build/bin/nnapi-run" "$out/split.so" --input "$out/split_input.npy" \
  --output-dir "$out/result" --compare-host --expect-nnapi --bench 20
echo "== against the independent numpy reference"
/usr/bin/python3 "$root/examples/cnn/compare_npy.py" "$out/result/output0.npy" \
  "$out/split_expected.npy" --rtol 1e-4 --atol 1e-7
