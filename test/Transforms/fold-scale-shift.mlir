// RUN: nnapi-opt %s -split-input-file -nnapi-fold-scale-shift | FileCheck %s

// A batch norm after a convolution: W[oc] * s[oc], b[oc] * s[oc] + t[oc].
// W = [[1, 2]], [[3, 4]] (2 output channels, 1x1 kernel, 2 inputs),
// b = [0.5, -1], s = [2, 10], t = [1, 1]:
// W' = [[2, 4]], [[30, 40]], b' = [0.5*2+1, -1*10+1] = [2, -9].
// CHECK-LABEL: func.func @conv_batch_norm
// CHECK-DAG: %[[W:.*]] = "tosa.const"() <{value = dense<{{\[\[\[\[}}2.000000e+00, 4.000000e+00]]], {{\[\[\[}}3.000000e+01, 4.000000e+01]]]]> : tensor<2x1x1x2xf32>}>
// CHECK-DAG: %[[B:.*]] = "tosa.const"() <{value = dense<[2.000000e+00, -9.000000e+00]> : tensor<2xf32>}>
// CHECK: %[[C:.*]] = tosa.conv2d %arg0, %[[W]], %[[B]]
// CHECK-NEXT: return %[[C]]
func.func @conv_batch_norm(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %w = "tosa.const"() {value = dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]]]> : tensor<2x1x1x2xf32>} : () -> tensor<2x1x1x2xf32>
  %b = "tosa.const"() {value = dense<[0.5, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %s = "tosa.const"() {value = dense<[[[[2.0, 10.0]]]]> : tensor<1x1x1x2xf32>} : () -> tensor<1x1x1x2xf32>
  %t = "tosa.const"() {value = dense<1.0> : tensor<1x1x1x2xf32>} : () -> tensor<1x1x1x2xf32>
  %0 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %1 = tosa.mul %0, %s {shift = 0 : i8} : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %2 = tosa.add %t, %1 : (tensor<1x1x1x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %2 : tensor<1x4x4x2xf32>
}

// -----

// Depthwise weights [KH, KW, C, M] = [1, 2, 2, 1]: output channel c * M + m
// is the flattened last two dimensions, so element i scales by s[i % 2].
// W = [[[[1], [2]], [[3], [4]]]], s = [10, 100] -> [10, 200, 30, 400].
// CHECK-LABEL: func.func @depthwise_scale
// CHECK-DAG: "tosa.const"() <{value = dense<{{\[\[\[\[}}1.000000e+01], [2.000000e+02]], {{\[\[}}3.000000e+01], [4.000000e+02]]]]> : tensor<1x2x2x1xf32>}>
// CHECK-DAG: "tosa.const"() <{value = dense<[1.000000e+01, 1.000000e+02]> : tensor<2xf32>}>
// CHECK: tosa.depthwise_conv2d
// CHECK-NOT: tosa.mul
func.func @depthwise_scale(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x3x2xf32> {
  %w = "tosa.const"() {value = dense<[[[[1.0], [2.0]], [[3.0], [4.0]]]]> : tensor<1x2x2x1xf32>} : () -> tensor<1x2x2x1xf32>
  %b = "tosa.const"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %s = "tosa.const"() {value = dense<[10.0, 100.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<1x2x2x1xf32>, tensor<2xf32>) -> tensor<1x4x3x2xf32>
  %1 = tosa.mul %0, %s {shift = 0 : i8} : (tensor<1x4x3x2xf32>, tensor<2xf32>) -> tensor<1x4x3x2xf32>
  return %1 : tensor<1x4x3x2xf32>
}

// -----

// Fully connected: a splat shift and a per-unit scale.
// CHECK-LABEL: func.func @fully_connected
// CHECK-DAG: "tosa.const"() <{value = dense<{{\[\[}}3.000000e+00, 3.000000e+00], [-1.000000e+00, -1.000000e+00]]> : tensor<2x2xf32>}>
// CHECK-DAG: "tosa.const"() <{value = dense<[3.500000e+00, -5.000000e-01]> : tensor<2xf32>}>
// CHECK: tosa.fully_connected
// CHECK-NEXT: return
func.func @fully_connected(%x: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %w = "tosa.const"() {value = dense<1.0> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %b = "tosa.const"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %s = "tosa.const"() {value = dense<[[3.0, -1.0]]> : tensor<1x2xf32>} : () -> tensor<1x2xf32>
  %t = "tosa.const"() {value = dense<0.5> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %0 = tosa.fully_connected %x, %w, %b : (tensor<3x2xf32>, tensor<2x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %1 = tosa.mul %0, %s {shift = 0 : i8} : (tensor<3x2xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>
  %2 = tosa.add %1, %t : (tensor<3x2xf32>, tensor<1x1xf32>) -> tensor<3x2xf32>
  return %2 : tensor<3x2xf32>
}

// -----

// What must not fold: a convolution with another user, a multiplier that
// varies along H, one that is not a constant, and a multiply that broadcasts
// the convolution to a larger shape.
// CHECK-LABEL: func.func @no_fold
// CHECK-COUNT-4: tosa.mul
func.func @no_fold(%x: tensor<1x4x4x2xf32>, %y: tensor<1x1x1x2xf32>) -> (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<2x4x4x2xf32>) {
  %w = "tosa.const"() {value = dense<1.0> : tensor<2x1x1x2xf32>} : () -> tensor<2x1x1x2xf32>
  %b = "tosa.const"() {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %s = "tosa.const"() {value = dense<2.0> : tensor<1x1x1x2xf32>} : () -> tensor<1x1x1x2xf32>
  %h = "tosa.const"() {value = dense<[[[[1.0]], [[2.0]], [[3.0]], [[4.0]]]]> : tensor<1x4x1x1xf32>} : () -> tensor<1x4x1x1xf32>
  %big = "tosa.const"() {value = dense<2.0> : tensor<2x1x1x2xf32>} : () -> tensor<2x1x1x2xf32>
  %c0 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %m0 = tosa.mul %c0, %s {shift = 0 : i8} : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %c1 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %m1 = tosa.mul %c1, %h {shift = 0 : i8} : (tensor<1x4x4x2xf32>, tensor<1x4x1x1xf32>) -> tensor<1x4x4x2xf32>
  %c2 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %m2 = tosa.mul %c2, %y {shift = 0 : i8} : (tensor<1x4x4x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x4x4x2xf32>
  %c3 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32>
  %m3 = tosa.mul %c3, %big {shift = 0 : i8} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>) -> tensor<2x4x4x2xf32>
  return %c0, %m0, %m1, %m2, %m3 : tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>, tensor<2x4x4x2xf32>
}

// -----

// A rank-0 producer (a full reduction) has no channels: left alone. Its
// channel count was read from an empty shape, which crashed on ONNX's
// expanded NegativeLogLikelihoodLoss tests.
// CHECK-LABEL: func.func @rank0_producer
// CHECK: tosa.reduce_sum
// CHECK: tosa.reshape
// CHECK: tosa.mul
func.func @rank0_producer(%x: tensor<4xf32>) -> tensor<f32> {
  %s = "tosa.const"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %0 = tosa.reduce_sum %x {axis = 0 : i32} : (tensor<4xf32>) -> tensor<1xf32>
  %1 = tosa.reshape %0 {new_shape = array<i64>} : (tensor<1xf32>) -> tensor<f32>
  %2 = tosa.mul %1, %s {shift = 0 : i8} : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %2 : tensor<f32>
}
