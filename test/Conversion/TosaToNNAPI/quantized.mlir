// RUN: nnapi-opt %s -split-input-file -convert-tosa-to-nnapi | FileCheck %s

// A quantized composite becomes its 8-bit NNAPI operation: the int8 input
// and result viewed as quantized (quant.scast), per-channel weights along
// the output channels, an i32 bias (scale 0 beside per-channel weights),
// and the body's clamp as the fused activation.
// CHECK-LABEL: func @conv
// CHECK: %[[W:.*]] = "quant.scast"(%{{.*}}) : (tensor<3x1x1x2xi8>) -> tensor<3x1x1x2x!quant.uniform<i8:f32:0, {2.500000e-01,1.250000e-01,6.250000e-02}>>
// CHECK: %[[X:.*]] = "quant.scast"(%arg0) : (tensor<1x4x4x2xi8>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK: %[[Y:.*]] = nnapi.conv_2d %[[X]], %[[W]], %{{.*}} padding = [0, 0, 0, 0] strides = [1, 1] dilations = [1, 1] fused relu6 : ({{.*}}, tensor<3xi32>) -> tensor<1x4x4x3x!quant.uniform<i8:f32, 1.000000e-01:-128>>
// CHECK: %[[R:.*]] = "quant.scast"(%[[Y]]) : (tensor<1x4x4x3x!quant.uniform<i8:f32, 1.000000e-01:-128>>) -> tensor<1x4x4x3xi8>
// CHECK: return %[[R]]
func.func @conv(%x: tensor<1x4x4x2xi8>) -> tensor<1x4x4x3xi8> attributes {nnapi.partition} {
  %w = "tosa.const"() <{value = dense<1> : tensor<3x1x1x2xi8>}> : () -> tensor<3x1x1x2xi8>
  %b = "tosa.const"() <{value = dense<0> : tensor<3xi32>}> : () -> tensor<3xi32>
  %y = nnapi.composite "quantized_weighted"(%x, %w, %b) {composite_attributes = {axis = 0 : i64, input_scale = 0.5 : f64, input_zero_point = -3 : i64, weight_scale = array<f64: 0.25, 0.125, 0.0625>, weight_zero_point = 0 : i64, output_scale = 0.1 : f64, output_zero_point = -128 : i64}} : (tensor<1x4x4x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>) -> tensor<1x4x4x3xi8> {
  ^bb0(%a: tensor<1x4x4x2xi8>, %aw: tensor<3x1x1x2xi8>, %ab: tensor<3xi32>):
    %xf = tosa.cast %a : (tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xf32>
    %wf = "tosa.const"() <{value = dense<0.25> : tensor<3x1x1x2xf32>}> : () -> tensor<3x1x1x2xf32>
    %bf = "tosa.const"() <{value = dense<0.0> : tensor<3xf32>}> : () -> tensor<3xf32>
    %c = tosa.conv2d %xf, %wf, %bf {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>) -> tensor<1x4x4x3xf32>
    %r = tosa.clamp %c {max_fp = 6.0 : f32, max_int = 0 : i64, min_fp = 0.0 : f32, min_int = 0 : i64} : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
    %q = tosa.cast %r : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xi8>
    nnapi.yield %q : tensor<1x4x4x3xi8>
  }
  return %y : tensor<1x4x4x3xi8>
}

// -----

// Quantized TOSA's form (nnapi-raise-quantized-tosa, types stripped): the
// body's clamp of the stored values after the rescale is a fused
// activation when its bounds are one's range on the output parameters
// (ReLU6 at scale 0.1, zero point -10: [-10, 50]).
// CHECK-LABEL: func @stored_clamp
// CHECK: nnapi.conv_2d {{.*}} fused relu6 : {{.*}} -> tensor<1x4x4x3x!quant.uniform<i8:f32, 1.000000e-01:-10>>
func.func @stored_clamp(%x: tensor<1x4x4x2xi8>) -> tensor<1x4x4x3xi8> attributes {nnapi.partition} {
  %w = "tosa.const"() <{value = dense<1> : tensor<3x1x1x2xi8>}> : () -> tensor<3x1x1x2xi8>
  %b = "tosa.const"() <{value = dense<0> : tensor<3xi32>}> : () -> tensor<3xi32>
  %y = nnapi.composite "quantized_weighted"(%x, %w, %b) {composite_attributes = {input_scale = 0.5 : f64, input_zero_point = -3 : i64, weight_scale = array<f64: 0.25>, weight_zero_point = 0 : i64, output_scale = 0.1 : f64, output_zero_point = -10 : i64}} : (tensor<1x4x4x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>) -> tensor<1x4x4x3xi8> {
  ^bb0(%a: tensor<1x4x4x2xi8>, %aw: tensor<3x1x1x2xi8>, %ab: tensor<3xi32>):
    %c = tosa.conv2d %a, %aw, %ab {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, quantization_info = #tosa.conv_quant<input_zp = -3, weight_zp = 0>} : (tensor<1x4x4x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>) -> tensor<1x4x4x3xi32>
    %r = tosa.rescale %c {input_zp = 0 : i32, output_zp = -10 : i32, multiplier = array<i32: 1342177280>, shift = array<i8: 30>, scale32 = true, double_round = true, per_channel = false} : (tensor<1x4x4x3xi32>) -> tensor<1x4x4x3xi8>
    %k = tosa.clamp %r {min_int = -10 : i64, max_int = 50 : i64, min_fp = 0.0 : f32, max_fp = 0.0 : f32} : (tensor<1x4x4x3xi8>) -> tensor<1x4x4x3xi8>
    nnapi.yield %k : tensor<1x4x4x3xi8>
  }
  return %y : tensor<1x4x4x3xi8>
}

// -----

// Two in a row: the view back to int8 and the next view cancel.
// A quantize composite is QUANTIZE, a dequantize composite DEQUANTIZE.
// CHECK-LABEL: func @chain
// CHECK: %[[Q:.*]] = nnapi.quantize %arg0 : (tensor<1x4xf32>) -> tensor<1x4x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK-NOT: tensor<1x4xi8>
// CHECK: %[[F:.*]] = nnapi.fully_connected %[[Q]], %{{.*}}, %{{.*}} : (tensor<1x4x!quant.uniform<i8:f32, 5.000000e-01:-3>>, tensor<3x4x!quant.uniform<i8:f32, 2.500000e-01:2>>, tensor<3x!quant.uniform<i32:f32, 1.250000e-01>>) -> tensor<1x3x!quant.uniform<i8:f32, 1.000000e+00:4>>
// CHECK-NOT: tensor<1x3xi8>
// CHECK: %[[D:.*]] = nnapi.dequantize %[[F]]
// CHECK: return %[[D]]
func.func @chain(%x: tensor<1x4xf32>) -> tensor<1x3xf32> attributes {nnapi.partition} {
  %q = nnapi.composite "quantize"(%x) {composite_attributes = {scale = array<f32: 0.5>, zero_point = array<i64: -3>}} : (tensor<1x4xf32>) -> tensor<1x4xi8> {
  ^bb0(%a: tensor<1x4xf32>):
    %c = tosa.cast %a : (tensor<1x4xf32>) -> tensor<1x4xi8>
    nnapi.yield %c : tensor<1x4xi8>
  }
  %w = "tosa.const"() <{value = dense<1> : tensor<3x4xi8>}> : () -> tensor<3x4xi8>
  %b = "tosa.const"() <{value = dense<0> : tensor<3xi32>}> : () -> tensor<3xi32>
  %y = nnapi.composite "quantized_weighted"(%q, %w, %b) {composite_attributes = {input_scale = 0.5 : f64, input_zero_point = -3 : i64, weight_scale = array<f64: 0.25>, weight_zero_point = 2 : i64, output_scale = 1.0 : f64, output_zero_point = 4 : i64}} : (tensor<1x4xi8>, tensor<3x4xi8>, tensor<3xi32>) -> tensor<1x3xi8> {
  ^bb0(%a: tensor<1x4xi8>, %aw: tensor<3x4xi8>, %ab: tensor<3xi32>):
    %xf = tosa.cast %a : (tensor<1x4xi8>) -> tensor<1x4xf32>
    %wf = "tosa.const"() <{value = dense<0.25> : tensor<3x4xf32>}> : () -> tensor<3x4xf32>
    %bf = "tosa.const"() <{value = dense<0.0> : tensor<3xf32>}> : () -> tensor<3xf32>
    %c = tosa.fully_connected %xf, %wf, %bf : (tensor<1x4xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<1x3xf32>
    %qq = tosa.cast %c : (tensor<1x3xf32>) -> tensor<1x3xi8>
    nnapi.yield %qq : tensor<1x3xi8>
  }
  %d = nnapi.composite "dequantize"(%y) {composite_attributes = {scale = array<f32: 1.0>, zero_point = array<i64: 4>}} : (tensor<1x3xi8>) -> tensor<1x3xf32> {
  ^bb0(%a: tensor<1x3xi8>):
    %c = tosa.cast %a : (tensor<1x3xi8>) -> tensor<1x3xf32>
    nnapi.yield %c : tensor<1x3xf32>
  }
  return %d : tensor<1x3xf32>
}

// -----

// Max pooling keeps its input's parameters; a concatenation views each
// input with its own (NNAPI requantizes); the body's clamp of an average
// pool is its fused activation.
// CHECK-LABEL: func @data
// CHECK: %[[X:.*]] = "quant.scast"(%arg0) : (tensor<1x4x4x2xi8>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK: %[[M:.*]] = nnapi.max_pool_2d %[[X]] padding = [0, 1, 0, 1] strides = [2, 2] filter = [3, 3] : (tensor<1x4x4x2x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<1x2x2x2x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK: %[[A:.*]] = nnapi.average_pool_2d %[[M]] padding = [1, 1, 1, 1] strides = [1, 1] filter = [3, 3] fused relu : {{.*}} -> tensor<1x2x2x2x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK: %[[C:.*]] = nnapi.concatenation %[[M]], %[[A]] axis = 3 : {{.*}} -> tensor<1x2x2x4x!quant.uniform<i8:f32, 2.500000e-01:1>>
// CHECK: %[[R:.*]] = nnapi.reshape %[[C]] : (tensor<1x2x2x4x!quant.uniform<i8:f32, 2.500000e-01:1>>) -> tensor<1x16x!quant.uniform<i8:f32, 2.500000e-01:1>>
// CHECK: "quant.scast"(%[[R]])
func.func @data(%x: tensor<1x4x4x2xi8>) -> tensor<1x16xi8> attributes {nnapi.partition} {
  %m = nnapi.composite "quantized_data"(%x) {composite_attributes = {input_scale = 0.5 : f64, input_zero_point = -3 : i64, output_scale = 0.5 : f64, output_zero_point = -3 : i64}} : (tensor<1x4x4x2xi8>) -> tensor<1x2x2x2xi8> {
  ^bb0(%a: tensor<1x4x4x2xi8>):
    %f = tosa.cast %a : (tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xf32>
    %p = tosa.max_pool2d %f {kernel = array<i64: 3, 3>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 2>} : (tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32>
    %q = tosa.cast %p : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xi8>
    nnapi.yield %q : tensor<1x2x2x2xi8>
  }
  %v = nnapi.composite "quantized_data"(%m) {composite_attributes = {input_scale = 0.5 : f64, input_zero_point = -3 : i64, output_scale = 0.5 : f64, output_zero_point = -3 : i64}} : (tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8> {
  ^bb0(%a: tensor<1x2x2x2xi8>):
    %f = tosa.cast %a : (tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xf32>
    %p = tosa.avg_pool2d %f {acc_type = f32, kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
    %r = tosa.clamp %p {max_fp = 3.4028235e+38 : f32, max_int = 0 : i64, min_fp = 0.0 : f32, min_int = 0 : i64} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
    %q = tosa.cast %r : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xi8>
    nnapi.yield %q : tensor<1x2x2x2xi8>
  }
  %c = nnapi.composite "quantized_data"(%m, %v) {composite_attributes = {input_scales = array<f64: 0.5, 0.5>, input_zero_points = array<i64: -3, -3>, output_scale = 0.25 : f64, output_zero_point = 1 : i64}} : (tensor<1x2x2x2xi8>, tensor<1x2x2x2xi8>) -> tensor<1x2x2x4xi8> {
  ^bb0(%a: tensor<1x2x2x2xi8>, %b: tensor<1x2x2x2xi8>):
    %fa = tosa.cast %a : (tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xf32>
    %fb = tosa.cast %b : (tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xf32>
    %p = tosa.concat %fa, %fb {axis = 3 : i32} : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x4xf32>
    %q = tosa.cast %p : (tensor<1x2x2x4xf32>) -> tensor<1x2x2x4xi8>
    nnapi.yield %q : tensor<1x2x2x4xi8>
  }
  %r = nnapi.composite "quantized_data"(%c) {composite_attributes = {input_scale = 0.25 : f64, input_zero_point = 1 : i64, output_scale = 0.25 : f64, output_zero_point = 1 : i64}} : (tensor<1x2x2x4xi8>) -> tensor<1x16xi8> {
  ^bb0(%a: tensor<1x2x2x4xi8>):
    %f = tosa.cast %a : (tensor<1x2x2x4xi8>) -> tensor<1x2x2x4xf32>
    %p = tosa.reshape %f {new_shape = array<i64: 1, 16>} : (tensor<1x2x2x4xf32>) -> tensor<1x16xf32>
    %q = tosa.cast %p : (tensor<1x16xf32>) -> tensor<1x16xi8>
    nnapi.yield %q : tensor<1x16xi8>
  }
  return %r : tensor<1x16xi8>
}

// -----

// A quantized composite whose body transposes the stored values (a layout
// transpose of int8 data, or a QDQ Transpose group) is TRANSPOSE, with its
// input's parameters.
// CHECK-LABEL: func @transpose
// CHECK: %[[X:.*]] = "quant.scast"(%arg0) : (tensor<1x3x4x5xi8>) -> tensor<1x3x4x5x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK: %[[T:.*]] = nnapi.transpose %[[X]] perm = [0, 2, 3, 1] : (tensor<1x3x4x5x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<1x4x5x3x!quant.uniform<i8:f32, 5.000000e-01:-3>>
// CHECK: "quant.scast"(%[[T]])
func.func @transpose(%x: tensor<1x3x4x5xi8>) -> tensor<1x4x5x3xi8> attributes {nnapi.partition} {
  %t = nnapi.composite "quantized_data"(%x) {composite_attributes = {input_scale = 0.5 : f64, input_zero_point = -3 : i64, output_scale = 0.5 : f64, output_zero_point = -3 : i64}} : (tensor<1x3x4x5xi8>) -> tensor<1x4x5x3xi8> {
  ^bb0(%a: tensor<1x3x4x5xi8>):
    %p = "tosa.const"() <{value = dense<[0, 2, 3, 1]> : tensor<4xi32>}> : () -> tensor<4xi32>
    %r = tosa.transpose %a, %p : (tensor<1x3x4x5xi8>, tensor<4xi32>) -> tensor<1x4x5x3xi8>
    nnapi.yield %r : tensor<1x4x5x3xi8>
  }
  return %t : tensor<1x4x5x3xi8>
}

// -----

// A sigmoid with NNAPI's fixed output parameters is LOGISTIC; a product of
// two quantized inputs MUL, each input with its own parameters.
// CHECK-LABEL: func @activations
// CHECK: %[[G:.*]] = nnapi.logistic %{{.*}} : tensor<1x4x!quant.uniform<i8:f32, 5.000000e-01:-3>> -> tensor<1x4x!quant.uniform<i8:f32, 3.906250e-03:-128>>
// CHECK: nnapi.mul %{{.*}}, %[[G]] : (tensor<1x4x!quant.uniform<i8:f32, 5.000000e-01:-3>>, tensor<1x4x!quant.uniform<i8:f32, 3.906250e-03:-128>>) -> tensor<1x4x!quant.uniform<i8:f32, 2.500000e-01:1>>
func.func @activations(%x: tensor<1x4xi8>) -> tensor<1x4xi8> attributes {nnapi.partition} {
  %g = nnapi.composite "quantized_data"(%x) {composite_attributes = {input_scale = 0.5 : f64, input_zero_point = -3 : i64, output_scale = 0.00390625 : f64, output_zero_point = -128 : i64}} : (tensor<1x4xi8>) -> tensor<1x4xi8> {
  ^bb0(%a: tensor<1x4xi8>):
    %f = tosa.cast %a : (tensor<1x4xi8>) -> tensor<1x4xf32>
    %s = tosa.sigmoid %f : (tensor<1x4xf32>) -> tensor<1x4xf32>
    %q = tosa.cast %s : (tensor<1x4xf32>) -> tensor<1x4xi8>
    nnapi.yield %q : tensor<1x4xi8>
  }
  %m = nnapi.composite "quantized_binary"(%x, %g) {composite_attributes = {input_scale = 0.5 : f64, input_zero_point = -3 : i64, second_scale = 0.00390625 : f64, second_zero_point = -128 : i64, output_scale = 0.25 : f64, output_zero_point = 1 : i64}} : (tensor<1x4xi8>, tensor<1x4xi8>) -> tensor<1x4xi8> {
  ^bb0(%a: tensor<1x4xi8>, %b: tensor<1x4xi8>):
    %fa = tosa.cast %a : (tensor<1x4xi8>) -> tensor<1x4xf32>
    %fb = tosa.cast %b : (tensor<1x4xi8>) -> tensor<1x4xf32>
    %p = tosa.mul %fa, %fb {shift = 0 : i8} : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %q = tosa.cast %p : (tensor<1x4xf32>) -> tensor<1x4xi8>
    nnapi.yield %q : tensor<1x4xi8>
  }
  return %m : tensor<1x4xi8>
}
