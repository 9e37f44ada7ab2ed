#!/usr/bin/env bash
# Regenerates test/models/ort_refs/: ONNX Runtime's own outputs for the
# quantized test models (test/models/make_qdq_models.py), computed by the
# ONNX Runtime of ../shared/tools/ort (npm, installed outside the
# repository; graph optimization "all", so its int8 kernels). Each case's
# model.sha256 names the model the outputs belong to; check_ort_refs.py
# refuses outputs of another model. Also prints ONNX Runtime's own spread
# (benchmarks/ort_spread.js: its optimized against its unoptimized session)
# for comparison with the test's tolerances. Run after changing a case,
# then commit the directory.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tool="${ORT_TOOL:-$root/../shared/tools/ort}"
refs="$root/test/models/ort_refs"

bash "$tool/setup.sh" >/dev/null
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 "$root/test/models/make_qdq_models.py" "$tmp" >/dev/null
rm -rf "$refs"
for dir in "$tmp"/*/; do
  name="$(basename "$dir")"
  data="$dir/test_data_set_0"
  node "$tool/ort_run.js" "$dir/model.onnx" "$data" --write >/dev/null
  mkdir -p "$refs/$name"
  cp "$data"/output_*.pb "$refs/$name/"
  sha256sum "$dir/model.onnx" | cut -d' ' -f1 > "$refs/$name/model.sha256"
  spread="$(node "$root/benchmarks/ort_spread.js" "$dir/model.onnx" "$data")"
  echo "$name: $(ls "$refs/$name" | grep -c output_) outputs, ONNX Runtime's own $spread"
done
