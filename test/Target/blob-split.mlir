// An operation with several results: SPLIT's pieces are its outputs, in
// order, after NNAPI's axis and num_splits operands.
// RUN: nnapi-translate --serialize-nnapi-blob %s -o %t.blob
// RUN: nnapi-translate --dump-nnapi-blob %t.blob | FileCheck %s

// CHECK: nnapi-blob version 5 feature_level 3
// CHECK: %0 TENSOR_FLOAT32 [2,6] input
// CHECK-NEXT: %1 INT32 = 1
// CHECK-NEXT: %2 INT32 = 3
// CHECK-NEXT: %3 TENSOR_FLOAT32 [2,2] output
// CHECK-NEXT: %4 TENSOR_FLOAT32 [2,2] output
// CHECK-NEXT: %5 TENSOR_FLOAT32 [2,2] output
// CHECK-NEXT: operations 1
// CHECK-NEXT: %3, %4, %5 = SPLIT(%0, %1, %2)
// CHECK-NEXT: inputs %0
// CHECK-NEXT: outputs %5 %3 %4
func.func @f(%x: tensor<2x6xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) attributes {nnapi.partition} {
  %0:3 = nnapi.split %x axis = 1 : (tensor<2x6xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
  return %0#2, %0#0, %0#1 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}
