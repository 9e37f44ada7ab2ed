// RUN: nnapi-opt %s -nnapi-fuse-activations -split-input-file | FileCheck %s

// Each of relu, relu1 and relu6 folds into a producer that takes a fused
// activation and has no other user.
// CHECK-LABEL: func.func @folds
// CHECK-NEXT: %[[A:.*]] = nnapi.add %arg0, %arg1 fused relu :
// CHECK-NEXT: %[[M:.*]] = nnapi.mul %[[A]], %arg1 fused relu1 :
// CHECK-NEXT: %[[S:.*]] = nnapi.sub %[[M]], %arg1 fused relu6 :
// CHECK-NEXT: return %[[S]]
func.func @folds(%a: tensor<1x4xf32>, %b: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = nnapi.add %a, %b : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %1 = nnapi.relu %0 : tensor<1x4xf32>
  %2 = nnapi.mul %1, %b : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %3 = nnapi.relu1 %2 : tensor<1x4xf32>
  %4 = nnapi.sub %3, %b : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %5 = nnapi.relu6 %4 : tensor<1x4xf32>
  return %5 : tensor<1x4xf32>
}

// -----

// Not folded: the producer has another user (it would see the clamped
// value), the producer has no fused activation operand (MAXIMUM), or it
// already fuses one (relu6 then relu is not relu6).
// CHECK-LABEL: func.func @kept
// CHECK: %[[A:.*]] = nnapi.add %arg0, %arg1 :
// CHECK-NEXT: nnapi.relu %[[A]]
// CHECK: %[[X:.*]] = nnapi.maximum
// CHECK-NEXT: nnapi.relu %[[X]]
// CHECK: %[[F:.*]] = nnapi.add %arg0, %arg1 fused relu6 :
// CHECK-NEXT: nnapi.relu %[[F]]
func.func @kept(%a: tensor<1x4xf32>, %b: tensor<1x4xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) {
  %0 = nnapi.add %a, %b : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %1 = nnapi.relu %0 : tensor<1x4xf32>
  %2 = nnapi.maximum %a, %b : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %3 = nnapi.relu %2 : tensor<1x4xf32>
  %4 = nnapi.add %a, %b fused relu6 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %5 = nnapi.relu %4 : tensor<1x4xf32>
  return %0, %1, %3, %5 : tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>
}
