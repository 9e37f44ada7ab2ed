// RUN: nnapi-translate --serialize-nnapi-blob %s -o %t.blob
// RUN: nnapi-translate --dump-nnapi-blob %t.blob | FileCheck %s

// A dynamic dimension is NNAPI's unspecified 0, which the runtime fills in
// at each call from the spec's shape rules; a RESHAPE's dynamic dimension is
// its shape operand's -1.
// CHECK: %0 TENSOR_FLOAT32 [1,4,0,2] input
// CHECK: TENSOR_FLOAT32 [1,2,0,2]
// CHECK: TENSOR_INT32 [2] const(8 bytes
// CHECK: TENSOR_FLOAT32 [0,2] output
// CHECK: = CONV_2D(
// CHECK: = RESHAPE(
func.func @p(%x: tensor<1x4x?x2xf32>) -> tensor<?x2xf32> {
  %w = arith.constant dense<0.5> : tensor<2x3x3x2xf32>
  %b = arith.constant dense<0.25> : tensor<2xf32>
  %0 = nnapi.conv_2d %x, %w, %b padding = [1, 1, 0, 0] strides = [1, 1] dilations = [1, 1] fused relu6 : (tensor<1x4x?x2xf32>, tensor<2x3x3x2xf32>, tensor<2xf32>) -> tensor<1x2x?x2xf32>
  %1 = nnapi.reshape %0 : (tensor<1x2x?x2xf32>) -> tensor<?x2xf32>
  return %1 : tensor<?x2xf32>
}
