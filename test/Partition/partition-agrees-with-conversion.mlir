// The partitioner asks convert-tosa-to-nnapi what NNAPI can run, so it never
// places what the conversion then refuses. Regression test: a rank-0
// tosa.add at feature level 2 (rank-0 operands arrived with level 3), forced
// to NNAPI by a placement override, used to be placed and then rejected by
// the conversion ("'nnapi.add' needs NNAPI feature level 3").
// RUN: not nnapi-opt %s -nnapi-partition="feature-level=2 placement=%S/Inputs/placement-add.json" -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=FORCED
// RUN: nnapi-opt %s -nnapi-partition="feature-level=2 emit-remarks=true device-profile=%S/../Inputs/eager.json" -verify-diagnostics -o /dev/null
// RUN: nnapi-opt %s -nnapi-partition="feature-level=3 device-profile=%S/../Inputs/eager.json" -convert-tosa-to-nnapi | FileCheck %s --check-prefix=FL3

// FORCED: error: the placement override puts 'tosa.add#0' on NNAPI, but NNAPI cannot run it: unsupported: needs NNAPI feature level 3 (input0 of rank 0), the target is 2
// FL3: func.func private @scalar_nnapi_0
// FL3-SAME: nnapi.feature_level = 3
// FL3: nnapi.add
func.func @scalar(%x: tensor<f32>) -> tensor<f32> {
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (input0 of rank 0), the target is 2}}
  %a = tosa.add %x, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %a : tensor<f32>
}
