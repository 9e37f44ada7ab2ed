// RUN: nnapi-opt %s -split-input-file -convert-tosa-to-nnapi | FileCheck %s

// CHECK-LABEL: func @conv_relu
// CHECK: nnapi.conv_2d %arg0, %{{.*}}, %{{.*}} padding = [3, 4, 1, 2] strides = [6, 5] dilations = [1, 1] fused relu
// CHECK-NOT: nnapi.relu
func.func @conv_relu(%x: tensor<1x8x8x3xf32>) -> tensor<1x2x3x4xf32> attributes {nnapi.partition} {
  %w = "tosa.const"() {value = dense<0.1> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %b = "tosa.const"() {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  // TOSA pad is [top, bottom, left, right], stride [y, x].
  %0 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 2, 3, 4>, stride = array<i64: 5, 6>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x2x3x4xf32>
  %1 = tosa.clamp %0 {min_fp = 0.0 : f32, max_fp = 3.40282347e+38 : f32, min_int = 0 : i64, max_int = 2147483647 : i64} : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  return %1 : tensor<1x2x3x4xf32>
}

// -----

// The depthwise weights [kh, kw, in, multiplier] become a [1, kh, kw, out]
// constant; a relu6 clamp folds into it.
// CHECK-LABEL: func @depthwise
// CHECK: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<1x3x3x8xf32>
// CHECK: nnapi.depthwise_conv_2d %arg0, %[[W]], %{{.*}} depth_multiplier = 2 fused relu6
func.func @depthwise(%x: tensor<1x8x8x4xf32>) -> tensor<1x8x8x8xf32> attributes {nnapi.partition} {
  %w = "tosa.const"() {value = dense<0.1> : tensor<3x3x4x2xf32>} : () -> tensor<3x3x4x2xf32>
  %b = "tosa.const"() {value = dense<0.0> : tensor<8xf32>} : () -> tensor<8xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<3x3x4x2xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
  %1 = tosa.clamp %0 {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %1 : tensor<1x8x8x8xf32>
}

// -----

// A decomposed softmax becomes one nnapi.softmax.
// CHECK-LABEL: func @softmax
// CHECK-NEXT: %[[S:.*]] = nnapi.softmax %arg0 beta = 1.000000e+00 axis = 1 : tensor<2x5xf32>
// CHECK-NEXT: return %[[S]]
func.func @softmax(%x: tensor<2x5xf32>) -> tensor<2x5xf32> attributes {nnapi.partition} {
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<2x5xf32>) -> tensor<2x1xf32>
  %s = tosa.sub %x, %m : (tensor<2x5xf32>, tensor<2x1xf32>) -> tensor<2x5xf32>
  %e = tosa.exp %s : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %r = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<2x5xf32>) -> tensor<2x1xf32>
  %c = tosa.reciprocal %r : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %o = tosa.mul %e, %c {shift = 0 : i8} : (tensor<2x5xf32>, tensor<2x1xf32>) -> tensor<2x5xf32>
  return %o : tensor<2x5xf32>
}

// -----

// CHECK-LABEL: func @elementwise
// CHECK: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<1xf32>
// CHECK: nnapi.sub
// CHECK: nnapi.mul
// CHECK: nnapi.div %[[ONE]], %{{.*}} fused relu1
// CHECK: nnapi.max_pool_2d %{{.*}} padding = [0, 0, 0, 0] strides = [2, 2] filter = [2, 2]
// CHECK: nnapi.average_pool_2d
// CHECK: nnapi.concatenation
// CHECK: nnapi.reshape
// CHECK: nnapi.logistic
// CHECK: nnapi.tanh
// CHECK: nnapi.fully_connected
// Functions that are not partitions are left alone.
// CHECK-LABEL: func @host
// CHECK: tosa.add
func.func @elementwise(%x: tensor<1x4x4x2xf32>) -> tensor<1x3xf32> attributes {nnapi.partition} {
  %0 = tosa.sub %x, %x : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %1 = tosa.mul %0, %x {shift = 0 : i8} : (tensor<1x4x4x2xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %2 = tosa.reciprocal %1 : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %3 = tosa.clamp %2 {min_fp = -1.0 : f32, max_fp = 1.0 : f32, min_int = -1 : i64, max_int = 1 : i64} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %4 = tosa.max_pool2d %3 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32>
  %5 = tosa.avg_pool2d %3 {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x4x2xf32>) -> tensor<1x2x2x2xf32>
  %6 = tosa.concat %4, %5 {axis = 3 : i32} : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>) -> tensor<1x2x2x4xf32>
  %7 = tosa.reshape %6 {new_shape = array<i64: 1, 16>} : (tensor<1x2x2x4xf32>) -> tensor<1x16xf32>
  %8 = tosa.sigmoid %7 : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %9 = tosa.tanh %8 : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %w = "tosa.const"() {value = dense<0.1> : tensor<3x16xf32>} : () -> tensor<3x16xf32>
  %b = "tosa.const"() {value = dense<0.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %10 = tosa.fully_connected %9, %w, %b : (tensor<1x16xf32>, tensor<3x16xf32>, tensor<3xf32>) -> tensor<1x3xf32>
  return %10 : tensor<1x3xf32>
}
func.func @host(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.add %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Element-wise TOSA ops with NNAPI operations of feature level 3; pow with a
// constant exponent of 0.5 is SQRT, any other exponent POW.
// CHECK-LABEL: func @elementwise_fl3
// CHECK: nnapi.exp
// CHECK: nnapi.log
// CHECK: nnapi.rsqrt
// CHECK: nnapi.abs
// CHECK: nnapi.neg
// CHECK: nnapi.floor
// CHECK: nnapi.sin
// CHECK: nnapi.maximum
// CHECK: nnapi.minimum
// CHECK: nnapi.sqrt
// CHECK: nnapi.pow
// CHECK-NOT: tosa.
func.func @elementwise_fl3(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> attributes {nnapi.partition} {
  %0 = tosa.exp %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = tosa.log %y : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = tosa.rsqrt %0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = tosa.abs %2 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = tosa.negate %3 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %5 = tosa.floor %4 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = tosa.sin %5 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = tosa.maximum %6, %1 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %8 = tosa.minimum %7, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %half = "tosa.const"() {value = dense<0.5> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %9 = tosa.pow %8, %half : (tensor<2x3xf32>, tensor<1x1xf32>) -> tensor<2x3xf32>
  %10 = tosa.pow %9, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %10 : tensor<2x3xf32>
}
