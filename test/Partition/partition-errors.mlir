// Bad partitioner inputs get one clear error each (or a warning for an
// override entry that matches nothing).
// RUN: not nnapi-opt %s -nnapi-partition="device-profile=%S/Inputs/broken-profile.json" 2>&1 | FileCheck %s --check-prefix=BROKEN
// RUN: not nnapi-opt %s -nnapi-partition="device-profile=%S/Inputs/no-such-profile.json" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not nnapi-opt %s -nnapi-partition="min-partition-cost=-1" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not nnapi-opt %s -nnapi-partition="feature-level=9" 2>&1 | FileCheck %s --check-prefix=LEVEL
// RUN: not nnapi-opt %s -nnapi-partition="placement=%S/Inputs/placement-bad.json" 2>&1 | FileCheck %s --check-prefix=BADKEY
// RUN: not nnapi-opt %s -nnapi-partition="placement=%S/Inputs/broken-profile.json" 2>&1 | FileCheck %s --check-prefix=BADJSON
// RUN: not nnapi-opt %s -nnapi-partition="placement=%S/Inputs/no-such-placement.json" 2>&1 | FileCheck %s --check-prefix=NOFILE
// RUN: not nnapi-opt %s -nnapi-partition="placement=%S/Inputs/placement-impossible.json" -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=IMPOSSIBLE
// RUN: nnapi-opt %s -nnapi-partition="placement=%S/Inputs/placement-unmatched.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNMATCHED

// BROKEN: error: nnapi-partition: {{.*}}broken-profile.json: invalid JSON: line 4, column 1: expected a string key
// MISSING: error: nnapi-partition: {{.*}}no-such-profile.json: cannot open device profile
// NEGATIVE: error: nnapi-partition: min-partition-cost must be >= 0
// LEVEL: error: nnapi-partition: feature-level must be 1..8, got 9
// BADKEY: error: nnapi-partition: placement override '{{.*}}placement-bad.json': key 'cpu' must be "host" or "nnapi" with an array of op names or types
// BADJSON: error: nnapi-partition: placement override '{{.*}}broken-profile.json': invalid JSON: {{.+}}
// NOFILE: error: nnapi-partition: cannot read placement override '{{.*}}no-such-placement.json': No such file or directory
// IMPOSSIBLE: partition-errors.mlir:23:8: error: the placement override puts 'tosa.ceil#0' on NNAPI, but NNAPI cannot run it: unsupported: 'tosa.ceil' has no NNAPI lowering
// UNMATCHED: warning: nnapi-partition: placement override entry 'no_such_op' matches no op
func.func @main(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  %a = tosa.ceil %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  return %a : tensor<1x8xf32>
}
