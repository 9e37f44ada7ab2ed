// 8-bit quantized operations: quantized element types become
// TENSOR_QUANT8_ASYMM_SIGNED with their scale and zero point, per-axis
// weights TENSOR_QUANT8_SYMM_PER_CHANNEL with their channel dimension and
// scales, a quantized i32 bias TENSOR_INT32 with its scale (0 beside
// per-channel weights). quant.scast is a view: the viewed input, constant
// or result is one operand of the quantized type. Feature level 4 (signed).
// RUN: nnapi-translate --serialize-nnapi-blob %s -o %t.blob
// RUN: nnapi-translate --dump-nnapi-blob %t.blob | FileCheck %s

// CHECK: nnapi-blob version 5 feature_level 4
// CHECK: %0 TENSOR_QUANT8_ASYMM_SIGNED [1,4,4,2] scale 0.5 zero_point -3 input
// CHECK-NEXT: %1 TENSOR_QUANT8_SYMM_PER_CHANNEL [3,1,1,2] scales(dim 0: 0.25 0.125 0.0625) const(6 bytes
// CHECK-NEXT: %2 TENSOR_INT32 [3] const(12 bytes
// CHECK: %10 TENSOR_QUANT8_ASYMM_SIGNED [1,4,4,3] scale 1 zero_point 5
// CHECK-NEXT: %11 TENSOR_QUANT8_ASYMM_SIGNED [3,3] scale 0.25 zero_point 0 const
// CHECK-NEXT: %12 TENSOR_INT32 [3] scale 0.25 zero_point 0 const
// CHECK: %14 TENSOR_QUANT8_ASYMM_SIGNED [16,3] scale 2 zero_point -1 output
// CHECK-NEXT: %15 TENSOR_FLOAT32 [16,3] output
// CHECK: %10 = CONV_2D(%0, %1, %2,
// CHECK-NEXT: %14 = FULLY_CONNECTED(%10, %11, %12, %13)
// CHECK-NEXT: %15 = DEQUANTIZE(%14)
// CHECK-NEXT: inputs %0
// CHECK-NEXT: outputs %14 %15
func.func @f(%x: tensor<1x4x4x2xi8>) -> (tensor<16x3xi8>, tensor<16x3xf32>) attributes {nnapi.partition} {
  %xq = "quant.scast"(%x) : (tensor<1x4x4x2xi8>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5:-3>>
  %w = arith.constant dense<[[[[1, -2]]], [[[3, 4]]], [[[-5, 6]]]]> : tensor<3x1x1x2xi8>
  %wq = "quant.scast"(%w) : (tensor<3x1x1x2xi8>) -> tensor<3x1x1x2x!quant.uniform<i8:f32:0, {0.25, 0.125, 0.0625}>>
  %b = arith.constant dense<[10, 20, 30]> : tensor<3xi32>
  %y = nnapi.conv_2d %xq, %wq, %b padding = [0, 0, 0, 0] strides = [1, 1] dilations = [1, 1] fused relu : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5:-3>>, tensor<3x1x1x2x!quant.uniform<i8:f32:0, {0.25, 0.125, 0.0625}>>, tensor<3xi32>) -> tensor<1x4x4x3x!quant.uniform<i8:f32, 1.0:5>>
  %fw = arith.constant dense<1> : tensor<3x3xi8>
  %fwq = "quant.scast"(%fw) : (tensor<3x3xi8>) -> tensor<3x3x!quant.uniform<i8:f32, 0.25>>
  %fb = arith.constant dense<0> : tensor<3xi32>
  %fbq = "quant.scast"(%fb) : (tensor<3xi32>) -> tensor<3x!quant.uniform<i32:f32, 0.25>>
  %z = nnapi.fully_connected %y, %fwq, %fbq : (tensor<1x4x4x3x!quant.uniform<i8:f32, 1.0:5>>, tensor<3x3x!quant.uniform<i8:f32, 0.25>>, tensor<3x!quant.uniform<i32:f32, 0.25>>) -> tensor<16x3x!quant.uniform<i8:f32, 2.0:-1>>
  %zi = "quant.scast"(%z) : (tensor<16x3x!quant.uniform<i8:f32, 2.0:-1>>) -> tensor<16x3xi8>
  %d = nnapi.dequantize %z : (tensor<16x3x!quant.uniform<i8:f32, 2.0:-1>>) -> tensor<16x3xf32>
  return %zi, %d : tensor<16x3xi8>, tensor<16x3xf32>
}
