#!/bin/bash
# Measures this machine's host NNAPI device and host code with
# nnapi-profile-device and writes build/profiles/this-machine.json (and the
# raw samples beside it), for benchmarks that place with measured costs:
#
#   bash scripts/profile-this-machine.sh [BUILD_DIR] [nnapi-profile-device flags...]
#   /usr/bin/python3 benchmarks/ort_compare.py --build build \
#       --profile build/profiles/this-machine.json ...
#
# About 6 minutes on 2 cores; docs/device-profiles.md says what it measures.
set -euo pipefail
build=${1:-build}
shift || true
tool="$build/bin/nnapi-profile-device"
if [ ! -x "$tool" ]; then
  echo "profile-this-machine.sh: $tool not found; build first (README.md)" >&2
  exit 1
fi
mkdir -p "$build/profiles"
"$tool" -o "$build/profiles/this-machine.json" \
  --samples "$build/profiles/this-machine-samples.json" "$@"
