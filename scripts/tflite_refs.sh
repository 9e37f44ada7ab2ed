#!/usr/bin/env bash
# Regenerates test/Frontend/TFLite/Inputs/tflite_refs/: TensorFlow Lite's own
# outputs for the TFLite test models (make_tflite_models.py), computed by the
# TensorFlow Lite interpreter of ../shared/tools/tflite (npm, installed
# outside the repository). Each case's model.sha256 names the model the
# outputs belong to; check_tflite_models.py refuses outputs of another model.
# Run after changing a case, then commit the directory.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
tool="${TFLITE_TOOL:-$root/../shared/tools/tflite}"
inputs="$root/test/Frontend/TFLite/Inputs"
refs="$inputs/tflite_refs"

bash "$tool/setup.sh" >/dev/null
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
NNAPI_TFLITE_SCHEMA_PY="$build/tflite-schema-python" \
  /usr/bin/python3 "$inputs/make_tflite_models.py" "$tmp" "$@"
for dir in "$tmp"/*/; do
  name="$(basename "$dir")"
  # Custom operators TensorFlow Lite's interpreter lacks: numpy only.
  if grep -q '"tflite": false' "$dir/case.json"; then
    echo "$name: no TensorFlow Lite outputs (it cannot run the model)"
    continue
  fi
  ins="$(ls "$dir"input_*.npy | sort -t_ -k2 -n | paste -sd,)"
  rm -rf "$refs/$name"
  mkdir -p "$refs/$name"
  node "$tool/tflite_run.js" "$dir/model.tflite" "$tmp/out-$name" \
    --inputs "$ins" >/dev/null
  cp "$tmp/out-$name"/output_*.npy "$refs/$name/"
  sha256sum "$dir/model.tflite" | cut -d' ' -f1 > "$refs/$name/model.sha256"
  echo "$name: $(ls "$refs/$name" | grep -c output_) outputs"
done
