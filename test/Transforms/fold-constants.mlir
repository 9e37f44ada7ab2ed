// RUN: nnapi-opt %s -split-input-file -nnapi-fold-constants | FileCheck %s

// A grouped convolution's per-group weight and bias slices become
// constants; the input's slices stay.
// CHECK-LABEL: func @slices
// CHECK-DAG: %[[W1:.*]] = "tosa.const"() <{value = dense<{{\[\[\[\[}}5.000000e+00, 6.000000e+00], [7.000000e+00, 8.000000e+00]]]]> : tensor<1x1x2x2xf32>}>
// CHECK-DAG: %[[B1:.*]] = "tosa.const"() <{value = dense<2.000000e+00> : tensor<1xf32>}>
// CHECK: %[[X:.*]] = tosa.slice %arg0
// CHECK: tosa.conv2d %[[X]], %[[W1]], %[[B1]]
func.func @slices(%x: tensor<1x2x2x4xf32>) -> tensor<1x2x1x1xf32> {
  %w = "tosa.const"() {value = dense<[[[[1.0, 2.0], [3.0, 4.0]]], [[[5.0, 6.0], [7.0, 8.0]]]]> : tensor<2x1x2x2xf32>} : () -> tensor<2x1x2x2xf32>
  %b = "tosa.const"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %xs = tosa.slice %x {start = array<i64: 0, 0, 0, 2>, size = array<i64: 1, 2, 2, 2>} : (tensor<1x2x2x4xf32>) -> tensor<1x2x2x2xf32>
  %ws = tosa.slice %w {start = array<i64: 1, 0, 0, 0>, size = array<i64: 1, 1, 2, 2>} : (tensor<2x1x2x2xf32>) -> tensor<1x1x2x2xf32>
  %bs = tosa.slice %b {start = array<i64: 1>, size = array<i64: 1>} : (tensor<2xf32>) -> tensor<1xf32>
  %0 = tosa.conv2d %xs, %ws, %bs {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x2xf32>, tensor<1x1x2x2xf32>, tensor<1xf32>) -> tensor<1x2x1x1xf32>
  return %0 : tensor<1x2x1x1xf32>
}

// -----

// CHECK-LABEL: func @transpose
// CHECK: "tosa.const"() <{value = dense<{{\[\[}}1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>}>
// CHECK-NOT: tosa.transpose
func.func @transpose() -> tensor<3x2xi32> {
  %c = "tosa.const"() {value = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
  %p = "tosa.const"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = tosa.transpose %c, %p : (tensor<2x3xi32>, tensor<2xi32>) -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// -----

// Rows of a constant table by constant indices, per batch row, are a
// constant; indices given at run time or out of range leave the gather.
// CHECK-LABEL: func @gather
// CHECK-DAG: "tosa.const"() <{value = dense<{{\[\[\[}}5.000000e+00, 6.000000e+00], [1.000000e+00, 2.000000e+00], [5.000000e+00, 6.000000e+00]], {{\[\[}}7.000000e+00, 8.000000e+00], [1.100000e+01, 1.200000e+01], [7.000000e+00, 8.000000e+00]]]> : tensor<2x3x2xf32>}>
// CHECK-COUNT-2: tosa.gather
// CHECK-NOT: tosa.gather
func.func @gather(%ids: tensor<2x3xi32>) -> (tensor<2x3x2xf32>, tensor<2x3x2xf32>, tensor<2x3x2xf32>) {
  %t = "tosa.const"() {value = dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], [[7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]]> : tensor<2x3x2xf32>} : () -> tensor<2x3x2xf32>
  %i = "tosa.const"() {value = dense<[[2, 0, 2], [0, 2, 0]]> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
  %0 = tosa.gather %t, %i : (tensor<2x3x2xf32>, tensor<2x3xi32>) -> tensor<2x3x2xf32>
  %1 = tosa.gather %t, %ids : (tensor<2x3x2xf32>, tensor<2x3xi32>) -> tensor<2x3x2xf32>
  %bad = "tosa.const"() {value = dense<[[0, 3, 0], [0, 0, 0]]> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
  %2 = tosa.gather %t, %bad : (tensor<2x3x2xf32>, tensor<2x3xi32>) -> tensor<2x3x2xf32>
  return %0, %1, %2 : tensor<2x3x2xf32>, tensor<2x3x2xf32>, tensor<2x3x2xf32>
}

// -----

// A dequantize composite of constant integers is the float32 constant its
// body computes: (q - zero point) * scale, per channel of `axis` (here
// (-128 - 1) * 0.5, (127 - 1) * 0.5; (0 - 2) * 0.25, (3 - 2) * 0.25), or
// for the whole tensor (int32 biases). Inputs that are not constant stay.
// CHECK-LABEL: func @dequantize_weights
// CHECK-DAG: "tosa.const"() <{value = dense<{{\[}}[-6.450000e+01, 6.300000e+01], [-5.000000e-01, 2.500000e-01]]> : tensor<2x2xf32>}>
// CHECK-DAG: "tosa.const"() <{value = dense<[-3.000000e+00, 1.000000e+00]> : tensor<2xf32>}>
// CHECK: nnapi.composite "dequantize"(%arg0)
// CHECK-NOT: nnapi.composite
func.func @dequantize_weights(%x: tensor<2xi8>) -> (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %q = "tosa.const"() <{value = dense<[[-128, 127], [0, 3]]> : tensor<2x2xi8>}> : () -> tensor<2x2xi8>
  %w = nnapi.composite "dequantize"(%q) {composite_attributes = {axis = 0 : i64, scale = array<f32: 0.5, 0.25>, zero_point = array<i64: 1, 2>}} : (tensor<2x2xi8>) -> tensor<2x2xf32> {
  ^bb0(%a: tensor<2x2xi8>):
    %f = tosa.cast %a : (tensor<2x2xi8>) -> tensor<2x2xf32>
    nnapi.yield %f : tensor<2x2xf32>
  }
  %b = "tosa.const"() <{value = dense<[-12, 4]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %bf = nnapi.composite "dequantize"(%b) {composite_attributes = {scale = array<f32: 0.25>, zero_point = array<i64: 0>}} : (tensor<2xi32>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xi32>):
    %f = tosa.cast %a : (tensor<2xi32>) -> tensor<2xf32>
    nnapi.yield %f : tensor<2xf32>
  }
  %xf = nnapi.composite "dequantize"(%x) {composite_attributes = {scale = array<f32: 0.25>, zero_point = array<i64: 0>}} : (tensor<2xi8>) -> tensor<2xf32> {
  ^bb0(%a: tensor<2xi8>):
    %f = tosa.cast %a : (tensor<2xi8>) -> tensor<2xf32>
    nnapi.yield %f : tensor<2xf32>
  }
  return %w, %bf, %xf : tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>
}
