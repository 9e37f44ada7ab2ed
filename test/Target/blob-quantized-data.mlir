// 8-bit data through MAX_POOL_2D, CONCATENATION and RESHAPE on
// TENSOR_QUANT8_ASYMM (uint8, level 1): a concatenation whose inputs are
// quantized unlike its output needs feature level 3 (requantizingLevel);
// the pool and the reshape keep their input's scale and zero point.
// RUN: nnapi-translate --serialize-nnapi-blob %s -o %t.blob
// RUN: nnapi-translate --dump-nnapi-blob %t.blob | FileCheck %s

// CHECK: nnapi-blob version 5 feature_level 3
// CHECK: %0 TENSOR_QUANT8_ASYMM [1,4,4,2] scale 0.5 zero_point 128 input
// CHECK-NEXT: %1 TENSOR_QUANT8_ASYMM [1,2,2,2] scale 0.25 zero_point 100 input
// CHECK: TENSOR_QUANT8_ASYMM [1,2,2,2] scale 0.5 zero_point 128
// CHECK: TENSOR_QUANT8_ASYMM [1,2,2,4] scale 0.5 zero_point 128
// CHECK: TENSOR_QUANT8_ASYMM [1,16] scale 0.5 zero_point 128 output
// CHECK: = MAX_POOL_2D(%0,
// CHECK-NEXT: = CONCATENATION(
// CHECK-NEXT: = RESHAPE(
func.func @f(%x: tensor<1x4x4x2x!quant.uniform<u8:f32, 0.5:128>>, %y: tensor<1x2x2x2x!quant.uniform<u8:f32, 0.25:100>>) -> tensor<1x16x!quant.uniform<u8:f32, 0.5:128>> attributes {nnapi.partition} {
  %m = nnapi.max_pool_2d %x padding = [0, 0, 0, 0] strides = [2, 2] filter = [2, 2] : (tensor<1x4x4x2x!quant.uniform<u8:f32, 0.5:128>>) -> tensor<1x2x2x2x!quant.uniform<u8:f32, 0.5:128>>
  %c = nnapi.concatenation %m, %y axis = 3 : (tensor<1x2x2x2x!quant.uniform<u8:f32, 0.5:128>>, tensor<1x2x2x2x!quant.uniform<u8:f32, 0.25:100>>) -> tensor<1x2x2x4x!quant.uniform<u8:f32, 0.5:128>>
  %r = nnapi.reshape %c : (tensor<1x2x2x4x!quant.uniform<u8:f32, 0.5:128>>) -> tensor<1x16x!quant.uniform<u8:f32, 0.5:128>>
  return %r : tensor<1x16x!quant.uniform<u8:f32, 0.5:128>>
}
