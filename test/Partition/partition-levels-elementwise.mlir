// Each element-wise operation of feature level 3 at level 2 stays on the host
// with a reason naming its level; at level 3 all are placed (FL3-ELEM).
// RUN: nnapi-opt %s -split-input-file -nnapi-partition="feature-level=2 emit-remarks=true device-profile=%S/../Inputs/eager.json" -verify-diagnostics -o /dev/null
// RUN: nnapi-opt %s -split-input-file -nnapi-partition="feature-level=3 device-profile=%S/../Inputs/eager.json" | FileCheck %s --check-prefix=FL3-ELEM
// FL3-ELEM-LABEL: func @fl3_elementwise
// FL3-ELEM-NOT: tosa.{{[a-z]+}} %
// FL3-ELEM: call @fl3_elementwise_nnapi_0
// FL3-ELEM-NEXT: return
func.func @fl3_elementwise(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (EXP), the target is 2}}
  %0 = tosa.exp %x : (tensor<4xf32>) -> tensor<4xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (LOG), the target is 2}}
  %1 = tosa.log %0 : (tensor<4xf32>) -> tensor<4xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (RSQRT), the target is 2}}
  %2 = tosa.rsqrt %1 : (tensor<4xf32>) -> tensor<4xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (ABS), the target is 2}}
  %3 = tosa.abs %2 : (tensor<4xf32>) -> tensor<4xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (NEG), the target is 2}}
  %4 = tosa.negate %3 : (tensor<4xf32>) -> tensor<4xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (SIN), the target is 2}}
  %5 = tosa.sin %4 : (tensor<4xf32>) -> tensor<4xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (MAXIMUM), the target is 2}}
  %6 = tosa.maximum %5, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (MINIMUM), the target is 2}}
  %7 = tosa.minimum %6, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (POW), the target is 2}}
  %8 = tosa.pow %7, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %half = "tosa.const"() {value = dense<0.5> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (SQRT), the target is 2}}
  %9 = tosa.pow %8, %half : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  return %9 : tensor<4xf32>
}

// -----

// FLOOR is a feature level 1 operation: placed at level 1.
// RUN: nnapi-opt %s -split-input-file -nnapi-partition="feature-level=1 device-profile=%S/../Inputs/eager.json" | FileCheck %s --check-prefix=FL1-FLOOR
// FL1-FLOOR-LABEL: func @fl1_floor
// FL1-FLOOR-NEXT: call @fl1_floor_nnapi_0
func.func @fl1_floor(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark@+1 {{NNAPI partition @fl1_floor_nnapi_0 of 1 op(s)}}
  %0 = tosa.floor %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
