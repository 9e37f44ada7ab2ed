// RUN: nnapi-opt %s -split-input-file -nnapi-inline-composites | FileCheck %s

// A QDQ convolution's host code (QuantizedHost.cpp): the float convolution
// of the dequantized operands becomes the 8-bit tosa.conv2d of the
// composite's inputs with the zero points and the i32 bias, its sums
// scaled by input scale x weight scale / output scale (0.25 x [0.5, 0.25,
// 0.125] / 0.5); the ReLU6's bounds move to output quanta (6 / 0.5) and the
// quantize no longer divides.
// CHECK-LABEL: func.func @conv
// CHECK-DAG: %[[W:.*]] = "tosa.const"() <{value = dense<{{\[\[\[\[}}1, 2]]], {{\[\[\[}}3, 4]]], {{\[\[\[}}-5, 6]]]]> : tensor<3x1x1x2xi8>}>
// CHECK-DAG: %[[B:.*]] = "tosa.const"() <{value = dense<[10, -20, 30]> : tensor<3xi32>}>
// CHECK: %[[ACC:.*]] = tosa.conv2d %arg0, %[[W]], %[[B]] {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, quantization_info = #tosa.conv_quant<input_zp = 3, weight_zp = 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>) -> tensor<1x4x4x3xi32>
// CHECK: %[[F:.*]] = tosa.cast %[[ACC]] : (tensor<1x4x4x3xi32>) -> tensor<1x4x4x3xf32>
// CHECK: %[[M:.*]] = "tosa.const"() <{value = dense<{{\[\[\[\[}}2.500000e-01, 1.250000e-01, 6.250000e-02]]]]> : tensor<1x1x1x3xf32>}>
// CHECK: %[[S:.*]] = tosa.mul %[[F]], %[[M]]
// CHECK: tosa.clamp %[[S]] {max_fp = 1.200000e+01 : f32, {{.*}}min_fp = 0.000000e+00 : f32
// CHECK-NOT: arith.divf
// CHECK-NOT: tosa.conv2d
// CHECK: return
func.func @conv(%x: tensor<1x4x4x2xi8>) -> tensor<1x4x4x3xi8> {
  %w = "tosa.const"() {value = dense<[[[[1, 2]]], [[[3, 4]]], [[[-5, 6]]]]> : tensor<3x1x1x2xi8>} : () -> tensor<3x1x1x2xi8>
  %b = "tosa.const"() {value = dense<[10, -20, 30]> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = nnapi.composite "quantized_weighted"(%x, %w, %b) {composite_attributes = {axis = 0 : i64, input_scale = 2.500000e-01 : f64, input_zero_point = 3 : i64, output_scale = 5.000000e-01 : f64, output_zero_point = -10 : i64, weight_scale = array<f64: 5.000000e-01, 2.500000e-01, 1.250000e-01>, weight_zero_point = 0 : i64}} : (tensor<1x4x4x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>) -> tensor<1x4x4x3xi8> {
  ^bb0(%ax: tensor<1x4x4x2xi8>, %aw: tensor<3x1x1x2xi8>, %ab: tensor<3xi32>):
    %xd = nnapi.composite "dequantize"(%ax) {composite_attributes = {scale = array<f32: 2.500000e-01>, zero_point = array<i64: 3>}} : (tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xf32> {
    ^bb0(%q: tensor<1x4x4x2xi8>):
      %s = "tosa.const"() {value = dense<2.500000e-01> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
      %z = "tosa.const"() {value = dense<3.000000e+00> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
      %c = tosa.cast %q : (tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xf32>
      %d = tosa.sub %c, %z : (tensor<1x4x4x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x4x2xf32>
      %m = tosa.mul %d, %s {shift = 0 : i8} : (tensor<1x4x4x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x4x2xf32>
      nnapi.yield %m : tensor<1x4x4x2xf32>
    }
    %wc = "tosa.const"() {value = dense<[[[[1, 2]]], [[[3, 4]]], [[[-5, 6]]]]> : tensor<3x1x1x2xi8>} : () -> tensor<3x1x1x2xi8>
    %wd = nnapi.composite "dequantize"(%wc) {composite_attributes = {axis = 0 : i64, scale = array<f32: 5.000000e-01, 2.500000e-01, 1.250000e-01>, zero_point = array<i64: 0, 0, 0>}} : (tensor<3x1x1x2xi8>) -> tensor<3x1x1x2xf32> {
    ^bb0(%q: tensor<3x1x1x2xi8>):
      %s = "tosa.const"() {value = dense<[[[[5.000000e-01]]], [[[2.500000e-01]]], [[[1.250000e-01]]]]> : tensor<3x1x1x1xf32>} : () -> tensor<3x1x1x1xf32>
      %c = tosa.cast %q : (tensor<3x1x1x2xi8>) -> tensor<3x1x1x2xf32>
      %m = tosa.mul %c, %s {shift = 0 : i8} : (tensor<3x1x1x2xf32>, tensor<3x1x1x1xf32>) -> tensor<3x1x1x2xf32>
      nnapi.yield %m : tensor<3x1x1x2xf32>
    }
    %bc = "tosa.const"() {value = dense<[10, -20, 30]> : tensor<3xi32>} : () -> tensor<3xi32>
    %bd = nnapi.composite "dequantize"(%bc) {composite_attributes = {axis = 0 : i64, scale = array<f32: 1.250000e-01, 6.250000e-02, 3.125000e-02>, zero_point = array<i64: 0, 0, 0>}} : (tensor<3xi32>) -> tensor<3xf32> {
    ^bb0(%q: tensor<3xi32>):
      %s = "tosa.const"() {value = dense<[1.250000e-01, 6.250000e-02, 3.125000e-02]> : tensor<3xf32>} : () -> tensor<3xf32>
      %c = tosa.cast %q : (tensor<3xi32>) -> tensor<3xf32>
      %m = tosa.mul %c, %s {shift = 0 : i8} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
      nnapi.yield %m : tensor<3xf32>
    }
    %conv = tosa.conv2d %xd, %wd, %bd {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<3x1x1x2xf32>, tensor<3xf32>) -> tensor<1x4x4x3xf32>
    %relu = tosa.clamp %conv {max_fp = 6.000000e+00 : f32, max_int = 0 : i64, min_fp = 0.000000e+00 : f32, min_int = 0 : i64} : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
    %q = nnapi.composite "quantize"(%relu) {composite_attributes = {scale = array<f32: 5.000000e-01>, zero_point = array<i64: -10>}} : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xi8> {
    ^bb0(%v: tensor<1x4x4x3xf32>):
      %z = "tosa.const"() {value = dense<-10> : tensor<1x1x1x1xi32>} : () -> tensor<1x1x1x1xi32>
      %s = "tosa.const"() {value = dense<5.000000e-01> : tensor<1x4x4x3xf32>} : () -> tensor<1x4x4x3xf32>
      %d = arith.divf %v, %s : tensor<1x4x4x3xf32>
      %c = tosa.clamp %d {max_fp = 1.07374182E+9 : f32, max_int = 0 : i64, min_fp = -1.07374182E+9 : f32, min_int = 0 : i64} : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
      %i = tosa.cast %c : (tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xi32>
      %a = tosa.add %i, %z : (tensor<1x4x4x3xi32>, tensor<1x1x1x1xi32>) -> tensor<1x4x4x3xi32>
      %k = tosa.clamp %a {max_fp = 0.000000e+00 : f32, max_int = 127 : i64, min_fp = 0.000000e+00 : f32, min_int = -128 : i64} : (tensor<1x4x4x3xi32>) -> tensor<1x4x4x3xi32>
      %o = tosa.cast %k : (tensor<1x4x4x3xi32>) -> tensor<1x4x4x3xi8>
      nnapi.yield %o : tensor<1x4x4x3xi8>
    }
    nnapi.yield %q : tensor<1x4x4x3xi8>
  }
  return %0 : tensor<1x4x4x3xi8>
}

// -----

// A QDQ depthwise convolution: the float depthwise convolution of x - zx
// (exact) and the constant w - zw (here w + 1: weight zero point -1) with
// the bias as floats, whose sums of integers are exact in float32 below
// 2^24; scaled as above. Without a quantize after it (the body yields the
// float), the scale is input x weight scale alone (0.25 x 0.5).
// CHECK-LABEL: func.func @depthwise
// CHECK: %[[XF:.*]] = tosa.cast %arg0 : (tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xf32>
// CHECK: %[[ZX:.*]] = "tosa.const"() <{value = dense<-4.000000e+00> : tensor<1x1x1x1xf32>}>
// CHECK: %[[XC:.*]] = tosa.sub %[[XF]], %[[ZX]]
// CHECK: %[[W:.*]] = "tosa.const"() <{value = dense<{{\[\[\[\[}}2.000000e+00], [0.000000e+00]]]]> : tensor<1x1x2x1xf32>}>
// CHECK: %[[B:.*]] = "tosa.const"() <{value = dense<[7.000000e+00, -7.000000e+00]> : tensor<2xf32>}>
// CHECK: %[[D:.*]] = tosa.depthwise_conv2d %[[XC]], %[[W]], %[[B]]
// CHECK: %[[M:.*]] = "tosa.const"() <{value = dense<1.250000e-01> : tensor<1x1x1x2xf32>}>
// CHECK: %[[S:.*]] = tosa.mul %[[D]], %[[M]]
// CHECK: return %[[S]]
func.func @depthwise(%x: tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xf32> {
  %w = "tosa.const"() {value = dense<[[[[1], [-1]]]]> : tensor<1x1x2x1xi8>} : () -> tensor<1x1x2x1xi8>
  %b = "tosa.const"() {value = dense<[7, -7]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = nnapi.composite "quantized_weighted"(%x, %w, %b) {composite_attributes = {input_scale = 2.500000e-01 : f64, input_zero_point = -4 : i64, output_scale = 1.000000e+00 : f64, output_zero_point = 0 : i64, weight_scale = array<f64: 5.000000e-01>, weight_zero_point = -1 : i64}} : (tensor<1x4x4x2xi8>, tensor<1x1x2x1xi8>, tensor<2xi32>) -> tensor<1x4x4x2xf32> {
  ^bb0(%ax: tensor<1x4x4x2xi8>, %aw: tensor<1x1x2x1xi8>, %ab: tensor<2xi32>):
    %c = nnapi.composite "dequantize"(%ax) {composite_attributes = {scale = array<f32: 2.500000e-01>, zero_point = array<i64: -4>}} : (tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xf32> {
    ^bb0(%q: tensor<1x4x4x2xi8>):
      %s = "tosa.const"() {value = dense<2.500000e-01> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
      %z = "tosa.const"() {value = dense<-4.000000e+00> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
      %f = tosa.cast %q : (tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xf32>
      %d = tosa.sub %f, %z : (tensor<1x4x4x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x4x2xf32>
      %m = tosa.mul %d, %s {shift = 0 : i8} : (tensor<1x4x4x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x4x2xf32>
      nnapi.yield %m : tensor<1x4x4x2xf32>
    }
    %wc = "tosa.const"() {value = dense<[[[[1.0], [-1.0]]]]> : tensor<1x1x2x1xf32>} : () -> tensor<1x1x2x1xf32>
    %bc = "tosa.const"() {value = dense<[7.0, -7.0]> : tensor<2xf32>} : () -> tensor<2xf32>
    %d = tosa.depthwise_conv2d %c, %wc, %bc {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<1x1x2x1xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
    nnapi.yield %d : tensor<1x4x4x2xf32>
  }
  return %0 : tensor<1x4x4x2xf32>
}

// -----

// A quantized composite of an 8-bit body (quantized TOSA with tosa.rescale)
// is inlined as it is.
// CHECK-LABEL: func.func @integer_body
// CHECK: tosa.conv2d %arg0, {{.*}} -> tensor<1x4x4x1xi32>
// CHECK-NOT: tosa.mul
func.func @integer_body(%x: tensor<1x4x4x1xi8>) -> tensor<1x4x4x1xi32> {
  %w = "tosa.const"() {value = dense<1> : tensor<1x1x1x1xi8>} : () -> tensor<1x1x1x1xi8>
  %b = "tosa.const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %0 = nnapi.composite "quantized_weighted"(%x, %w, %b) {composite_attributes = {input_scale = 1.0 : f64, input_zero_point = 0 : i64, output_scale = 1.0 : f64, output_zero_point = 0 : i64, weight_scale = array<f64: 1.0>, weight_zero_point = 0 : i64}} : (tensor<1x4x4x1xi8>, tensor<1x1x1x1xi8>, tensor<1xi32>) -> tensor<1x4x4x1xi32> {
  ^bb0(%ax: tensor<1x4x4x1xi8>, %aw: tensor<1x1x1x1xi8>, %ab: tensor<1xi32>):
    %c = tosa.conv2d %ax, %aw, %ab {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, quantization_info = #tosa.conv_quant<input_zp = 0, weight_zp = 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x1xi8>, tensor<1x1x1x1xi8>, tensor<1xi32>) -> tensor<1x4x4x1xi32>
    nnapi.yield %c : tensor<1x4x4x1xi32>
  }
  return %0 : tensor<1x4x4x1xi32>
}

// -----

// A body whose convolution does not read the dequantized input argument
// (here a float computed from it otherwise) keeps its float chain.
// CHECK-LABEL: func.func @not_dequantized
// CHECK: tosa.conv2d {{.*}} -> tensor<1x4x4x1xf32>
// CHECK-NOT: quantization_info
func.func @not_dequantized(%x: tensor<1x4x4x1xi8>) -> tensor<1x4x4x1xf32> {
  %w = "tosa.const"() {value = dense<1> : tensor<1x1x1x1xi8>} : () -> tensor<1x1x1x1xi8>
  %b = "tosa.const"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %0 = nnapi.composite "quantized_weighted"(%x, %w, %b) {composite_attributes = {input_scale = 1.0 : f64, input_zero_point = 0 : i64, output_scale = 1.0 : f64, output_zero_point = 0 : i64, weight_scale = array<f64: 1.0>, weight_zero_point = 0 : i64}} : (tensor<1x4x4x1xi8>, tensor<1x1x1x1xi8>, tensor<1xi32>) -> tensor<1x4x4x1xf32> {
  ^bb0(%ax: tensor<1x4x4x1xi8>, %aw: tensor<1x1x1x1xi8>, %ab: tensor<1xi32>):
    %f = tosa.cast %ax : (tensor<1x4x4x1xi8>) -> tensor<1x4x4x1xf32>
    %e = tosa.exp %f : (tensor<1x4x4x1xf32>) -> tensor<1x4x4x1xf32>
    %wc = "tosa.const"() {value = dense<1.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
    %bc = "tosa.const"() {value = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
    %c = tosa.conv2d %e, %wc, %bc {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>) -> tensor<1x4x4x1xf32>
    nnapi.yield %c : tensor<1x4x4x1xf32>
  }
  return %0 : tensor<1x4x4x1xf32>
}

// -----

// A QDQ addition: each operand scaled straight into output quanta, (x - 0)
// x (0.25 / 0.5) + (y - 3) x (0.125 / 0.5), and the quantize no longer
// divides.
// CHECK-LABEL: func.func @add
// CHECK: %[[XF:.*]] = tosa.cast %arg0 : (tensor<2x4xi8>) -> tensor<2x4xf32>
// CHECK: %[[SX:.*]] = "tosa.const"() <{value = dense<5.000000e-01> : tensor<1x1xf32>}>
// CHECK: %[[X:.*]] = tosa.mul %[[XF]], %[[SX]]
// CHECK: %[[YF:.*]] = tosa.cast %arg1 : (tensor<2x4xi8>) -> tensor<2x4xf32>
// CHECK: %[[ZY:.*]] = "tosa.const"() <{value = dense<3.000000e+00> : tensor<1x1xf32>}>
// CHECK: %[[YC:.*]] = tosa.sub %[[YF]], %[[ZY]]
// CHECK: %[[SY:.*]] = "tosa.const"() <{value = dense<2.500000e-01> : tensor<1x1xf32>}>
// CHECK: %[[Y:.*]] = tosa.mul %[[YC]], %[[SY]]
// CHECK: tosa.add %[[X]], %[[Y]]
// CHECK-NOT: arith.divf
// CHECK: return
func.func @add(%x: tensor<2x4xi8>, %y: tensor<2x4xi8>) -> tensor<2x4xi8> {
  %0 = nnapi.composite "quantized_binary"(%x, %y) {composite_attributes = {input_scale = 2.500000e-01 : f64, input_zero_point = 0 : i64, output_scale = 5.000000e-01 : f64, output_zero_point = 1 : i64, second_scale = 1.250000e-01 : f64, second_zero_point = 3 : i64}} : (tensor<2x4xi8>, tensor<2x4xi8>) -> tensor<2x4xi8> {
  ^bb0(%ax: tensor<2x4xi8>, %ay: tensor<2x4xi8>):
    %dx = nnapi.composite "dequantize"(%ax) {composite_attributes = {scale = array<f32: 2.500000e-01>, zero_point = array<i64: 0>}} : (tensor<2x4xi8>) -> tensor<2x4xf32> {
    ^bb0(%q: tensor<2x4xi8>):
      %s = "tosa.const"() {value = dense<2.500000e-01> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
      %c = tosa.cast %q : (tensor<2x4xi8>) -> tensor<2x4xf32>
      %m = tosa.mul %c, %s {shift = 0 : i8} : (tensor<2x4xf32>, tensor<1x1xf32>) -> tensor<2x4xf32>
      nnapi.yield %m : tensor<2x4xf32>
    }
    %dy = nnapi.composite "dequantize"(%ay) {composite_attributes = {scale = array<f32: 1.250000e-01>, zero_point = array<i64: 3>}} : (tensor<2x4xi8>) -> tensor<2x4xf32> {
    ^bb0(%q: tensor<2x4xi8>):
      %s = "tosa.const"() {value = dense<1.250000e-01> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
      %z = "tosa.const"() {value = dense<3.000000e+00> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
      %c = tosa.cast %q : (tensor<2x4xi8>) -> tensor<2x4xf32>
      %d = tosa.sub %c, %z : (tensor<2x4xf32>, tensor<1x1xf32>) -> tensor<2x4xf32>
      %m = tosa.mul %d, %s {shift = 0 : i8} : (tensor<2x4xf32>, tensor<1x1xf32>) -> tensor<2x4xf32>
      nnapi.yield %m : tensor<2x4xf32>
    }
    %a = tosa.add %dx, %dy : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %q = nnapi.composite "quantize"(%a) {composite_attributes = {scale = array<f32: 5.000000e-01>, zero_point = array<i64: 1>}} : (tensor<2x4xf32>) -> tensor<2x4xi8> {
    ^bb0(%v: tensor<2x4xf32>):
      %z = "tosa.const"() {value = dense<1> : tensor<1x1xi32>} : () -> tensor<1x1xi32>
      %s = "tosa.const"() {value = dense<5.000000e-01> : tensor<2x4xf32>} : () -> tensor<2x4xf32>
      %d = arith.divf %v, %s : tensor<2x4xf32>
      %c = tosa.clamp %d {max_fp = 1.07374182E+9 : f32, max_int = 0 : i64, min_fp = -1.07374182E+9 : f32, min_int = 0 : i64} : (tensor<2x4xf32>) -> tensor<2x4xf32>
      %i = tosa.cast %c : (tensor<2x4xf32>) -> tensor<2x4xi32>
      %k = tosa.add %i, %z : (tensor<2x4xi32>, tensor<1x1xi32>) -> tensor<2x4xi32>
      %l = tosa.clamp %k {max_fp = 0.000000e+00 : f32, max_int = 127 : i64, min_fp = 0.000000e+00 : f32, min_int = -128 : i64} : (tensor<2x4xi32>) -> tensor<2x4xi32>
      %o = tosa.cast %l : (tensor<2x4xi32>) -> tensor<2x4xi8>
      nnapi.yield %o : tensor<2x4xi8>
    }
    nnapi.yield %q : tensor<2x4xi8>
  }
  return %0 : tensor<2x4xi8>
}
