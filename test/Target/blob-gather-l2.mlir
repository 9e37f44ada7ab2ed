// GATHER's indices computed at run time are a TENSOR_INT32 model input
// after the axis operand; L2_NORMALIZATION takes an axis operand only when
// it is not the last axis of a 4-D input, and makes the blob level 4.
// RUN: nnapi-translate --serialize-nnapi-blob %s -o %t.blob
// RUN: nnapi-translate --dump-nnapi-blob %t.blob | FileCheck %s

// CHECK: nnapi-blob version 5 feature_level 4
// CHECK: %0 TENSOR_FLOAT32 [1,3,2,4] input
// CHECK-NEXT: %1 TENSOR_INT32 [2] input
// CHECK-NEXT: %2 INT32 = 1
// CHECK-NEXT: %3 TENSOR_FLOAT32 [1,2,2,4] output
// CHECK-NEXT: %4 TENSOR_FLOAT32 [1,3,2,4] output
// CHECK-NEXT: %5 INT32 = 1
// CHECK-NEXT: %6 TENSOR_FLOAT32 [1,3,2,4] output
// CHECK-NEXT: operations 3
// CHECK-NEXT: %3 = GATHER(%0, %2, %1)
// CHECK-NEXT: %4 = L2_NORMALIZATION(%0)
// CHECK-NEXT: %6 = L2_NORMALIZATION(%0, %5)
// CHECK-NEXT: inputs %0 %1
// CHECK-NEXT: outputs %3 %4 %6
func.func @f(%x: tensor<1x3x2x4xf32>, %ids: tensor<2xi32>) -> (tensor<1x2x2x4xf32>, tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>) attributes {nnapi.partition} {
  %0 = nnapi.gather %x[%ids] axis = 1 : (tensor<1x3x2x4xf32>, tensor<2xi32>) -> tensor<1x2x2x4xf32>
  %1 = nnapi.l2_normalization %x axis = 3 : tensor<1x3x2x4xf32>
  %2 = nnapi.l2_normalization %x axis = 1 : tensor<1x3x2x4xf32>
  return %0, %1, %2 : tensor<1x2x2x4xf32>, tensor<1x3x2x4xf32>, tensor<1x3x2x4xf32>
}
