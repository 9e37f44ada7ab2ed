// Bool tensors are TENSOR_BOOL8: a constant's bits, which MLIR packs, take
// a byte each in the blob (4 bytes for 4 elements).
// RUN: nnapi-translate --serialize-nnapi-blob %s | nnapi-translate --dump-nnapi-blob | FileCheck %s
// CHECK: %0 TENSOR_FLOAT32 [1,4] input
// CHECK: %2 TENSOR_BOOL8 [1,4]
// CHECK: %3 TENSOR_BOOL8 [1,4] const(4 bytes @16)
// CHECK: %5 TENSOR_FLOAT32 [1,4] output
// CHECK: %2 = GREATER(%0, %1)
// CHECK: %4 = LOGICAL_AND(%2, %3)
// CHECK: %5 = SELECT(%4, %0, %1)
func.func @f(%a: tensor<1x4xf32>) -> tensor<1x4xf32> attributes {nnapi.partition} {
  %z = arith.constant dense<0.0> : tensor<1x4xf32>
  %m = arith.constant dense<[[true, false, true, true]]> : tensor<1x4xi1>
  %0 = nnapi.greater %a, %z : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xi1>
  %1 = nnapi.logical_and %0, %m : (tensor<1x4xi1>, tensor<1x4xi1>) -> tensor<1x4xi1>
  %2 = nnapi.select %1, %a, %z : (tensor<1x4xi1>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return %2 : tensor<1x4xf32>
}
