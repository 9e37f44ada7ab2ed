// RUN: nnapi-opt %s -split-input-file -nnapi-raise-quantized-tosa | FileCheck %s

// A quantized TOSA convolution with its rescale and the clamp of the stored
// values is one quantized composite: the parameters come off the types
// (per-channel weight scales along OHWI's O), the body keeps the TOSA ops.
// CHECK-LABEL: func @conv
// CHECK: %[[W:.*]] = "tosa.const"
// CHECK: %[[B:.*]] = "tosa.const"
// CHECK: %[[Q:.*]] = nnapi.composite "quantized_weighted"(%arg0, %[[W]], %[[B]]) {composite_attributes = {axis = 0 : i64, input_scale = 2.000000e-02 : f64, input_zero_point = -5 : i64, output_scale = 5.000000e-02 : f64, output_zero_point = 3 : i64, weight_scale = array<f64: 1.000000e-02, 4.000000e-03>, weight_zero_point = 0 : i64}}
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tosa.conv2d
// CHECK-NEXT: tosa.rescale
// CHECK-NEXT: tosa.clamp
// CHECK-NEXT: nnapi.yield
// CHECK: return %[[Q]]
func.func @conv(%x: tensor<1x4x4x3x!quant.uniform<i8:f32, 0.02:-5>>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.05:3>> {
  %w = "tosa.const"() <{value = dense<1> : tensor<2x3x3x3xi8>}> : () -> tensor<2x3x3x3x!quant.uniform<i8<-127:127>:f32:0, {0.01, 0.004}>>
  %b = "tosa.const"() <{value = dense<7> : tensor<2xi32>}> : () -> tensor<2xi32>
  %c = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, quantization_info = #tosa.conv_quant<input_zp = -5, weight_zp = 0>} : (tensor<1x4x4x3x!quant.uniform<i8:f32, 0.02:-5>>, tensor<2x3x3x3x!quant.uniform<i8<-127:127>:f32:0, {0.01, 0.004}>>, tensor<2xi32>) -> tensor<1x4x4x2xi32>
  // 0.02 x 0.01 / 0.05 = 0.004 = 1099511628 / 2^38; 0.0016 = 1759218604 / 2^40
  %r = tosa.rescale %c {input_zp = 0 : i32, output_zp = 3 : i32, multiplier = array<i32: 1099511628, 1759218604>, shift = array<i8: 38, 40>, scale32 = true, double_round = true, per_channel = true} : (tensor<1x4x4x2xi32>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.05:3>>
  %y = tosa.clamp %r {min_int = 3 : i64, max_int = 127 : i64, min_fp = 0.0 : f32, max_fp = 0.0 : f32} : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.05:3>>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.05:3>>
  return %y : tensor<1x4x4x2x!quant.uniform<i8:f32, 0.05:3>>
}

// -----

// A rescale whose multiplier is not input scale x weight scale / output
// scale: NNAPI would compute something else, so the group stays TOSA.
// CHECK-LABEL: func @other_multiplier
// CHECK-NOT: nnapi.composite
// CHECK: tosa.conv2d
// CHECK: tosa.rescale
func.func @other_multiplier(%x: tensor<1x4x4x3x!quant.uniform<i8:f32, 0.02:-5>>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.05:3>> {
  %w = "tosa.const"() <{value = dense<1> : tensor<2x3x3x3xi8>}> : () -> tensor<2x3x3x3x!quant.uniform<i8<-127:127>:f32:0, {0.01, 0.004}>>
  %b = "tosa.const"() <{value = dense<7> : tensor<2xi32>}> : () -> tensor<2xi32>
  %c = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, quantization_info = #tosa.conv_quant<input_zp = -5, weight_zp = 0>} : (tensor<1x4x4x3x!quant.uniform<i8:f32, 0.02:-5>>, tensor<2x3x3x3x!quant.uniform<i8<-127:127>:f32:0, {0.01, 0.004}>>, tensor<2xi32>) -> tensor<1x4x4x2xi32>
  %r = tosa.rescale %c {input_zp = 0 : i32, output_zp = 3 : i32, multiplier = array<i32: 1099511628, 1099511628>, shift = array<i8: 38, 38>, scale32 = true, double_round = true, per_channel = true} : (tensor<1x4x4x2xi32>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.05:3>>
  return %r : tensor<1x4x4x2x!quant.uniform<i8:f32, 0.05:3>>
}

// -----

// Weights with a zero point, an input zero point that quantization_info
// contradicts, and an unsigned result: none is NNAPI's int8 convolution.
// CHECK-LABEL: func @refused
// CHECK-NOT: nnapi.composite
func.func @refused(%x: tensor<1x4x4x3x!quant.uniform<i8:f32, 0.02:-5>>) -> (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.05:3>>, tensor<1x4x4x2x!quant.uniform<i8:f32, 0.05:3>>, tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:3>>) {
  %wz = "tosa.const"() <{value = dense<1> : tensor<2x3x3x3xi8>}> : () -> tensor<2x3x3x3x!quant.uniform<i8:f32, 0.01:2>>
  %w = "tosa.const"() <{value = dense<1> : tensor<2x3x3x3xi8>}> : () -> tensor<2x3x3x3x!quant.uniform<i8:f32, 0.01>>
  %b = "tosa.const"() <{value = dense<7> : tensor<2xi32>}> : () -> tensor<2xi32>
  %c1 = tosa.conv2d %x, %wz, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, quantization_info = #tosa.conv_quant<input_zp = -5, weight_zp = 2>} : (tensor<1x4x4x3x!quant.uniform<i8:f32, 0.02:-5>>, tensor<2x3x3x3x!quant.uniform<i8:f32, 0.01:2>>, tensor<2xi32>) -> tensor<1x4x4x2xi32>
  %r1 = tosa.rescale %c1 {input_zp = 0 : i32, output_zp = 3 : i32, multiplier = array<i32: 1099511628>, shift = array<i8: 38>, scale32 = true, double_round = true, per_channel = false} : (tensor<1x4x4x2xi32>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.05:3>>
  %c2 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, quantization_info = #tosa.conv_quant<input_zp = 0, weight_zp = 0>} : (tensor<1x4x4x3x!quant.uniform<i8:f32, 0.02:-5>>, tensor<2x3x3x3x!quant.uniform<i8:f32, 0.01>>, tensor<2xi32>) -> tensor<1x4x4x2xi32>
  %r2 = tosa.rescale %c2 {input_zp = 0 : i32, output_zp = 3 : i32, multiplier = array<i32: 1099511628>, shift = array<i8: 38>, scale32 = true, double_round = true, per_channel = false} : (tensor<1x4x4x2xi32>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 0.05:3>>
  %c3 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, quantization_info = #tosa.conv_quant<input_zp = -5, weight_zp = 0>} : (tensor<1x4x4x3x!quant.uniform<i8:f32, 0.02:-5>>, tensor<2x3x3x3x!quant.uniform<i8:f32, 0.01>>, tensor<2xi32>) -> tensor<1x4x4x2xi32>
  %r3 = tosa.rescale %c3 {input_zp = 0 : i32, output_zp = 3 : i32, multiplier = array<i32: 1099511628>, shift = array<i8: 38>, scale32 = true, double_round = true, per_channel = false} : (tensor<1x4x4x2xi32>) -> tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:3>>
  return %r1, %r2, %r3 : tensor<1x4x4x2x!quant.uniform<i8:f32, 0.05:3>>, tensor<1x4x4x2x!quant.uniform<i8:f32, 0.05:3>>, tensor<1x4x4x2x!quant.uniform<u8:f32, 0.05:3>>
}
