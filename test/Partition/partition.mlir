// RUN: nnapi-opt %s -split-input-file -nnapi-partition="device-profile=%S/../Inputs/eager.json" | FileCheck %s

// A diamond: %a feeds a host op (ceil) and an NNAPI op; both branches meet
// in an add. One partition holding sigmoid and add would be entered again
// through the host op (not convex), so the sigmoid gets a partition and the
// tanh/add pair another.
// CHECK-LABEL: func @diamond
// CHECK: %[[P0:.*]] = call @diamond_nnapi_0(%arg0)
// CHECK: %[[H:.*]] = tosa.ceil %[[P0]]
// CHECK: %[[P1:.*]] = call @diamond_nnapi_1(%[[P0]], %[[H]])
// CHECK: return %[[P1]]
// CHECK: func.func private @diamond_nnapi_1
// CHECK-NEXT: tosa.tanh
// CHECK-NEXT: tosa.add
// CHECK: func.func private @diamond_nnapi_0({{.*}}) -> tensor<4xf32> attributes {nnapi.feature_level = 7 : i32, nnapi.partition}
// CHECK-NEXT: tosa.sigmoid
// CHECK-NEXT: return
func.func @diamond(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = tosa.sigmoid %x : (tensor<4xf32>) -> tensor<4xf32>
  %b = tosa.ceil %a : (tensor<4xf32>) -> tensor<4xf32>
  %c = tosa.tanh %a : (tensor<4xf32>) -> tensor<4xf32>
  %d = tosa.add %b, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// An unsupported op in the middle splits the chain into two partitions.
// CHECK-LABEL: func @split
// CHECK: call @split_nnapi_0
// CHECK: tosa.ceil
// CHECK: call @split_nnapi_1
// CHECK-DAG: func.func private @split_nnapi_0
// CHECK-DAG: func.func private @split_nnapi_1
func.func @split(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %a = tosa.sigmoid %x : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %b = tosa.ceil %a : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %c = tosa.tanh %b : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %c : tensor<1x4xf32>
}

// -----

// Constants are cloned into the partition rather than passed in.
// CHECK-LABEL: func @constants
// CHECK: call @constants_nnapi_0(%arg0) : (tensor<1x4xf32>)
// CHECK: func.func private @constants_nnapi_0(%{{.*}}: tensor<1x4xf32>)
// CHECK: "tosa.const"
// CHECK: tosa.add
func.func @constants(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %c = "tosa.const"() {value = dense<1.0> : tensor<1x4xf32>} : () -> tensor<1x4xf32>
  %a = tosa.add %x, %c : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return %a : tensor<1x4xf32>
}

// -----

// Nothing NNAPI can run: no partition.
// CHECK-LABEL: func @none
// CHECK-NOT: call
// CHECK-NOT: nnapi.partition
func.func @none(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = tosa.ceil %x : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
