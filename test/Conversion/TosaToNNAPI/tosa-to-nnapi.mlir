// RUN: nnapi-opt %s -split-input-file -nnapi-raise-composites -convert-tosa-to-nnapi | FileCheck %s

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
// CHECK: nnapi.sub
// CHECK: nnapi.mul
// CHECK: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<1x1x1x1xf32>
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

// -----

// Data movement: constant permutations, paddings and pad values become
// attributes; a non-zero pad value is PAD_V2.
// CHECK-LABEL: func @data_movement
// CHECK: %[[T:.*]] = nnapi.transpose %arg0 perm = [0, 2, 3, 1] : (tensor<1x4x6x6xf32>) -> tensor<1x6x6x4xf32>
// CHECK: %[[P:.*]] = nnapi.pad %[[T]] padding = [0, 0, 1, 1, 1, 1, 0, 0] : (tensor<1x6x6x4xf32>) -> tensor<1x8x8x4xf32>
// CHECK: %[[V:.*]] = nnapi.pad_v2 %[[P]] padding = [0, 0, 0, 0, 0, 2, 0, 0] value = -2.500000e+00
// CHECK: %[[S:.*]] = nnapi.slice %[[V]] begin = [0, 1, 2, 0] : (tensor<1x8x10x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK: nnapi.tile %[[S]] : (tensor<1x4x4x4xf32>) -> tensor<2x4x4x8xf32>
// CHECK-NOT: tosa.
func.func @data_movement(%x: tensor<1x4x6x6xf32>) -> tensor<2x4x4x8xf32> attributes {nnapi.partition} {
  %perm = "tosa.const"() {value = dense<[0, 2, 3, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = tosa.transpose %x, %perm : (tensor<1x4x6x6xf32>, tensor<4xi32>) -> tensor<1x6x6x4xf32>
  %pads = "tosa.const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>} : () -> tensor<4x2xi64>
  %1 = tosa.pad %0, %pads : (tensor<1x6x6x4xf32>, tensor<4x2xi64>) -> tensor<1x8x8x4xf32>
  %pads2 = "tosa.const"() {value = dense<[[0, 0], [0, 0], [0, 2], [0, 0]]> : tensor<4x2xi64>} : () -> tensor<4x2xi64>
  %value = "tosa.const"() {value = dense<-2.5> : tensor<f32>} : () -> tensor<f32>
  %2 = tosa.pad %1, %pads2, %value : (tensor<1x8x8x4xf32>, tensor<4x2xi64>, tensor<f32>) -> tensor<1x8x10x4xf32>
  %3 = tosa.slice %2 {start = array<i64: 0, 1, 2, 0>, size = array<i64: 1, 4, 4, 4>} : (tensor<1x8x10x4xf32>) -> tensor<1x4x4x4xf32>
  %4 = tosa.tile %3 {multiples = array<i64: 2, 1, 1, 2>} : (tensor<1x4x4x4xf32>) -> tensor<2x4x4x8xf32>
  return %4 : tensor<2x4x4x8xf32>
}

// -----

// Reductions keep the reduced dimension (as TOSA does); a chain of sums
// scaled by 1 / (elements reduced) is one MEAN.
// CHECK-LABEL: func @reductions
// CHECK: nnapi.reduce_sum %arg0 axes = [1] keep_dims : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// CHECK: nnapi.reduce_max %arg0 axes = [2] keep_dims
// CHECK: nnapi.reduce_min %arg0 axes = [0] keep_dims
// CHECK: nnapi.reduce_prod %arg0 axes = [2] keep_dims
// CHECK: nnapi.mean %arg0 axes = [1, 2] keep_dims : (tensor<2x3x4xf32>) -> tensor<2x1x1xf32>
// CHECK-NOT: tosa.
// CHECK-NOT: nnapi.mul
func.func @reductions(%x: tensor<2x3x4xf32>) -> (tensor<2x1x4xf32>, tensor<2x3x1xf32>, tensor<1x3x4xf32>, tensor<2x3x1xf32>, tensor<2x1x1xf32>) attributes {nnapi.partition} {
  %0 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %1 = tosa.reduce_max %x {axis = 2 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  %2 = tosa.reduce_min %x {axis = 0 : i32} : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
  %3 = tosa.reduce_prod %x {axis = 2 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  %s1 = tosa.reduce_sum %x {axis = 2 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  %s2 = tosa.reduce_sum %s1 {axis = 1 : i32} : (tensor<2x3x1xf32>) -> tensor<2x1x1xf32>
  %k = "tosa.const"() {value = dense<0.0833333358> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %4 = tosa.mul %s2, %k {shift = 0 : i8} : (tensor<2x1x1xf32>, tensor<1x1x1xf32>) -> tensor<2x1x1xf32>
  return %0, %1, %2, %3, %4 : tensor<2x1x4xf32>, tensor<2x3x1xf32>, tensor<1x3x4xf32>, tensor<2x3x1xf32>, tensor<2x1x1xf32>
}

// -----

// A sum scaled by anything but 1/N is a sum and a multiplication.
// CHECK-LABEL: func @not_a_mean
// CHECK: nnapi.reduce_sum
// CHECK: nnapi.mul
// CHECK-NOT: nnapi.mean
func.func @not_a_mean(%x: tensor<2x4xf32>) -> tensor<2x1xf32> attributes {nnapi.partition} {
  %s = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x1xf32>
  %k = "tosa.const"() {value = dense<0.5> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %0 = tosa.mul %s, %k {shift = 0 : i8} : (tensor<2x1xf32>, tensor<1x1xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// ONNX HardSwish as the importer writes it: one HARD_SWISH.
// CHECK-LABEL: func @hard_swish
// CHECK-NEXT: %[[R:.*]] = nnapi.hard_swish %arg0 : tensor<1x4x4x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @hard_swish(%x: tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32> attributes {nnapi.partition} {
  %sixth = "tosa.const"() {value = dense<0.166666672> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %half = "tosa.const"() {value = dense<0.5> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %0 = tosa.mul %x, %sixth {shift = 0 : i8} : (tensor<1x4x4x8xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x4x8xf32>
  %1 = tosa.add %0, %half : (tensor<1x4x4x8xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x4x8xf32>
  %2 = tosa.clamp %1 {min_fp = 0.0 : f32, max_fp = 1.0 : f32, min_int = 0 : i64, max_int = 1 : i64} : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %3 = tosa.mul %x, %2 {shift = 0 : i8} : (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %3 : tensor<1x4x4x8xf32>
}

// -----

// HardSigmoid (no NNAPI operation): its clamp to [0, 1] is MAXIMUM and
// MINIMUM; a clamp open at one end is one of them.
// CHECK-LABEL: func @hard_sigmoid
// CHECK: nnapi.mul
// CHECK: nnapi.add
// CHECK: %[[LO:.*]] = arith.constant dense<0.000000e+00> : tensor<1x1xf32>
// CHECK: %[[MAX:.*]] = nnapi.maximum %{{.*}}, %[[LO]]
// CHECK: %[[HI:.*]] = arith.constant dense<1.000000e+00> : tensor<1x1xf32>
// CHECK: %[[MIN:.*]] = nnapi.minimum %[[MAX]], %[[HI]]
// CHECK: %[[Q:.*]] = arith.constant dense<7.500000e-01> : tensor<1x1xf32>
// CHECK: nnapi.minimum %[[MIN]], %[[Q]] : (tensor<2x8xf32>, tensor<1x1xf32>)
// CHECK-NOT: nnapi.maximum
// CHECK-NOT: tosa.
func.func @hard_sigmoid(%x: tensor<2x8xf32>) -> tensor<2x8xf32> attributes {nnapi.partition} {
  %a = "tosa.const"() {value = dense<0.2> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %b = "tosa.const"() {value = dense<0.5> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %0 = tosa.mul %x, %a {shift = 0 : i8} : (tensor<2x8xf32>, tensor<1x1xf32>) -> tensor<2x8xf32>
  %1 = tosa.add %0, %b : (tensor<2x8xf32>, tensor<1x1xf32>) -> tensor<2x8xf32>
  %2 = tosa.clamp %1 {min_fp = 0.0 : f32, max_fp = 1.0 : f32, min_int = 0 : i64, max_int = 1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %3 = tosa.clamp %2 {min_fp = -3.40282347e+38 : f32, max_fp = 0.75 : f32, min_int = 0 : i64, max_int = 1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %3 : tensor<2x8xf32>
}

// -----

// A product with constant weights and one batch is FULLY_CONNECTED on
// B^T; otherwise BATCH_MATMUL.
// CHECK-LABEL: func @matmuls
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 3.000000e+00, 5.000000e+00], [2.000000e+00, 4.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK: %[[FC:.*]] = nnapi.fully_connected %arg0, %[[W]], %[[B]] : (tensor<1x4x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<4x2xf32>
// CHECK: nnapi.reshape %[[FC]] : (tensor<4x2xf32>) -> tensor<1x4x2xf32>
// CHECK: nnapi.batch_matmul %arg1, %arg2 : (tensor<3x4x5xf32>, tensor<3x5x6xf32>) -> tensor<3x4x6xf32>
func.func @matmuls(%a: tensor<1x4x3xf32>, %x: tensor<3x4x5xf32>, %y: tensor<3x5x6xf32>) -> (tensor<1x4x2xf32>, tensor<3x4x6xf32>) attributes {nnapi.partition} {
  %w = "tosa.const"() {value = dense<[[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]]> : tensor<1x3x2xf32>} : () -> tensor<1x3x2xf32>
  %0 = tosa.matmul %a, %w : (tensor<1x4x3xf32>, tensor<1x3x2xf32>) -> tensor<1x4x2xf32>
  %1 = tosa.matmul %x, %y : (tensor<3x4x5xf32>, tensor<3x5x6xf32>) -> tensor<3x4x6xf32>
  return %0, %1 : tensor<1x4x2xf32>, tensor<3x4x6xf32>
}

// -----

// erf (no NNAPI operation) as x P(x^2) / Q(x^2) of x clamped to [-4, 4].
// CHECK-LABEL: func @erf
// CHECK: %[[X:.*]] = nnapi.minimum %{{.*}}, %{{.*}}
// CHECK: %[[Y:.*]] = nnapi.mul %[[X]], %[[X]]
// CHECK-COUNT-6: nnapi.add
// CHECK-COUNT-4: nnapi.add
// CHECK: %[[R:.*]] = nnapi.div
// CHECK: nnapi.mul %[[X]], %[[R]]
// CHECK-NOT: tosa.
func.func @erf(%x: tensor<8xf32>) -> tensor<8xf32> attributes {nnapi.partition} {
  %0 = tosa.erf %x : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// TOSA's negative out_pad [top, bottom, left, right] crops: NNAPI padding
// [left, right, top, bottom]; stride [y, x] becomes [w, h]; relu fuses.
// CHECK-LABEL: func @transpose_conv
// CHECK: nnapi.transpose_conv_2d %arg0, %{{.*}}, %{{.*}} padding = [0, 1, 1, 0] strides = [2, 3] fused relu : (tensor<1x4x4x3xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x11x8x2xf32>
// CHECK-NOT: nnapi.relu
func.func @transpose_conv(%x: tensor<1x4x4x3xf32>) -> tensor<1x11x8x2xf32> attributes {nnapi.partition} {
  %w = "tosa.const"() {value = dense<0.5> : tensor<2x3x3x3xf32>} : () -> tensor<2x3x3x3xf32>
  %b = "tosa.const"() {value = dense<0.1> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = tosa.transpose_conv2d %x, %w, %b {out_pad = array<i64: -1, 0, 0, -1>, out_shape = array<i64: 1, 11, 8, 2>, stride = array<i64: 3, 2>} : (tensor<1x4x4x3xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x11x8x2xf32>
  %1 = tosa.clamp %0 {min_fp = 0.0 : f32, max_fp = 3.40282347e+38 : f32, min_int = 0 : i64, max_int = 2147483647 : i64} : (tensor<1x11x8x2xf32>) -> tensor<1x11x8x2xf32>
  return %1 : tensor<1x11x8x2xf32>
}

// -----

// tosa.resize samples output o at (o * d + offset) / n: each of NNAPI's
// samplings, as the ONNX importer writes them for 4 -> 8 (and 4 -> 7 with
// aligned corners), and nearest neighbours.
// CHECK-LABEL: func @resizes
// CHECK: nnapi.resize_bilinear %arg0 half_pixel_centers : (tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
// CHECK: nnapi.resize_bilinear %arg0 : (tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
// CHECK: nnapi.resize_bilinear %arg0 align_corners : (tensor<1x4x4x3xf32>) -> tensor<1x7x7x3xf32>
// CHECK: nnapi.resize_nearest_neighbor %arg0 : (tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
// CHECK: nnapi.resize_nearest_neighbor %arg0 align_corners : (tensor<1x4x4x3xf32>) -> tensor<1x7x7x3xf32>
func.func @resizes(%x: tensor<1x4x4x3xf32>) -> (tensor<1x8x8x3xf32>, tensor<1x8x8x3xf32>, tensor<1x7x7x3xf32>, tensor<1x8x8x3xf32>, tensor<1x7x7x3xf32>) attributes {nnapi.partition} {
  %0 = tosa.resize %x {scale = array<i64: 4, 2, 4, 2>, offset = array<i64: -1, -1>, border = array<i64: 1, 1>, mode = "BILINEAR"} : (tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
  %1 = tosa.resize %x {scale = array<i64: 4, 2, 4, 2>, offset = array<i64: 0, 0>, border = array<i64: 2, 2>, mode = "BILINEAR"} : (tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
  %2 = tosa.resize %x {scale = array<i64: 4, 2, 4, 2>, offset = array<i64: 0, 0>, border = array<i64: 0, 0>, mode = "BILINEAR"} : (tensor<1x4x4x3xf32>) -> tensor<1x7x7x3xf32>
  %3 = tosa.resize %x {scale = array<i64: 4, 2, 4, 2>, offset = array<i64: -2, -2>, border = array<i64: 0, 0>, mode = "NEAREST_NEIGHBOR"} : (tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
  %4 = tosa.resize %x {scale = array<i64: 4, 2, 4, 2>, offset = array<i64: 0, 0>, border = array<i64: 0, 0>, mode = "NEAREST_NEIGHBOR"} : (tensor<1x4x4x3xf32>) -> tensor<1x7x7x3xf32>
  return %0, %1, %2, %3, %4 : tensor<1x8x8x3xf32>, tensor<1x8x8x3xf32>, tensor<1x7x7x3xf32>, tensor<1x8x8x3xf32>, tensor<1x7x7x3xf32>
}

// -----

// PRelu/LeakyRelu, Elu and LogSoftmax as the ONNX importer decomposes them
// are one NNAPI operation each; an Elu with a negative alpha (NNAPI's ELU
// clamps alpha (exp(x) - 1) to at most 0) stays element-wise.
// CHECK-LABEL: func @activation_composites
// CHECK: %[[P:.*]] = nnapi.prelu %arg0, %{{.*}} : (tensor<1x3x4xf32>, tensor<1x3x1xf32>) -> tensor<1x3x4xf32>
// CHECK: %[[E:.*]] = nnapi.elu %arg0 alpha = 5.000000e-01 : tensor<1x3x4xf32>
// CHECK: nnapi.exp
// CHECK: nnapi.log_softmax %arg0 beta = 1.000000e+00 axis = 2 : tensor<1x3x4xf32>
// CHECK-NOT: tosa.
func.func @activation_composites(%x: tensor<1x3x4xf32>) -> (tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>) attributes {nnapi.partition} {
  %slope = "tosa.const"() {value = dense<[[[0.1], [0.2], [0.3]]]> : tensor<1x3x1xf32>} : () -> tensor<1x3x1xf32>
  %p0 = tosa.clamp %x {min_fp = 0.0 : f32, max_fp = 3.40282347e+38 : f32, min_int = 0 : i64, max_int = 2147483647 : i64} : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %n0 = tosa.clamp %x {min_fp = -3.40282347e+38 : f32, max_fp = 0.0 : f32, min_int = -2147483648 : i64, max_int = 0 : i64} : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %m0 = tosa.mul %n0, %slope {shift = 0 : i8} : (tensor<1x3x4xf32>, tensor<1x3x1xf32>) -> tensor<1x3x4xf32>
  %prelu = tosa.add %p0, %m0 : (tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x4xf32>

  %one = "tosa.const"() {value = dense<1.0> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %half = "tosa.const"() {value = dense<0.5> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %p1 = tosa.clamp %x {min_fp = 0.0 : f32, max_fp = 3.40282347e+38 : f32, min_int = 0 : i64, max_int = 2147483647 : i64} : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %n1 = tosa.clamp %x {min_fp = -3.40282347e+38 : f32, max_fp = 0.0 : f32, min_int = -2147483648 : i64, max_int = 0 : i64} : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %e1 = tosa.exp %n1 : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %s1 = tosa.sub %e1, %one : (tensor<1x3x4xf32>, tensor<1x1x1xf32>) -> tensor<1x3x4xf32>
  %m1 = tosa.mul %s1, %half {shift = 0 : i8} : (tensor<1x3x4xf32>, tensor<1x1x1xf32>) -> tensor<1x3x4xf32>
  %elu = tosa.add %p1, %m1 : (tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x4xf32>

  %minus = "tosa.const"() {value = dense<-0.5> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %p2 = tosa.clamp %x {min_fp = 0.0 : f32, max_fp = 3.40282347e+38 : f32, min_int = 0 : i64, max_int = 2147483647 : i64} : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %n2 = tosa.clamp %x {min_fp = -3.40282347e+38 : f32, max_fp = 0.0 : f32, min_int = -2147483648 : i64, max_int = 0 : i64} : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %e2 = tosa.exp %n2 : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %s2 = tosa.sub %e2, %one : (tensor<1x3x4xf32>, tensor<1x1x1xf32>) -> tensor<1x3x4xf32>
  %m2 = tosa.mul %s2, %minus {shift = 0 : i8} : (tensor<1x3x4xf32>, tensor<1x1x1xf32>) -> tensor<1x3x4xf32>
  %not_elu = tosa.add %p2, %m2 : (tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x4xf32>

  %mx = tosa.reduce_max %x {axis = 2 : i32} : (tensor<1x3x4xf32>) -> tensor<1x3x1xf32>
  %sh = tosa.sub %x, %mx : (tensor<1x3x4xf32>, tensor<1x3x1xf32>) -> tensor<1x3x4xf32>
  %ex = tosa.exp %sh : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %sum = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<1x3x4xf32>) -> tensor<1x3x1xf32>
  %lg = tosa.log %sum : (tensor<1x3x1xf32>) -> tensor<1x3x1xf32>
  %lsm = tosa.sub %sh, %lg : (tensor<1x3x4xf32>, tensor<1x3x1xf32>) -> tensor<1x3x4xf32>
  return %prelu, %elu, %not_elu, %lsm : tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>
}

// -----

// Instance normalization over height and width (NCHW: axes 2 and 3, as the
// ONNX importer writes InstanceNormalization; NHWC: axes 1 and 2) is one
// operation; its two means are part of it, not MEAN operations.
// CHECK-LABEL: func @instance_norm_nchw
// CHECK: nnapi.instance_normalization %arg0 gamma = 1.000000e+00 beta = 0.000000e+00 epsilon = 1.000000e-03 nchw : tensor<1x2x3x4xf32>
// CHECK-NOT: tosa.
// CHECK-NOT: nnapi.mean
func.func @instance_norm_nchw(%x: tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32> attributes {nnapi.partition} {
  %k = "tosa.const"() {value = dense<0.08333333333333333> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %eps = "tosa.const"() {value = dense<1.0e-03> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %a1 = tosa.reduce_sum %x {axis = 2 : i32} : (tensor<1x2x3x4xf32>) -> tensor<1x2x1x4xf32>
  %a2 = tosa.reduce_sum %a1 {axis = 3 : i32} : (tensor<1x2x1x4xf32>) -> tensor<1x2x1x1xf32>
  %mu = tosa.mul %a2, %k {shift = 0 : i8} : (tensor<1x2x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x2x1x1xf32>
  %c = tosa.sub %x, %mu : (tensor<1x2x3x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x3x4xf32>
  %sq = tosa.mul %c, %c {shift = 0 : i8} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %b1 = tosa.reduce_sum %sq {axis = 2 : i32} : (tensor<1x2x3x4xf32>) -> tensor<1x2x1x4xf32>
  %b2 = tosa.reduce_sum %b1 {axis = 3 : i32} : (tensor<1x2x1x4xf32>) -> tensor<1x2x1x1xf32>
  %var = tosa.mul %b2, %k {shift = 0 : i8} : (tensor<1x2x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x2x1x1xf32>
  %ve = tosa.add %var, %eps : (tensor<1x2x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x2x1x1xf32>
  %inv = tosa.rsqrt %ve : (tensor<1x2x1x1xf32>) -> tensor<1x2x1x1xf32>
  %r = tosa.mul %c, %inv {shift = 0 : i8} : (tensor<1x2x3x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x3x4xf32>
  return %r : tensor<1x2x3x4xf32>
}

// -----

// CHECK-LABEL: func @instance_norm_nhwc
// CHECK: nnapi.instance_normalization %arg0 gamma = 1.000000e+00 beta = 0.000000e+00 epsilon = 1.000000e-03 : tensor<1x2x3x4xf32>
// CHECK-NOT: tosa.
// CHECK-NOT: nnapi.mean
func.func @instance_norm_nhwc(%x: tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32> attributes {nnapi.partition} {
  %k = "tosa.const"() {value = dense<0.16666666666666666> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %eps = "tosa.const"() {value = dense<1.0e-03> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %a1 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<1x2x3x4xf32>) -> tensor<1x1x3x4xf32>
  %a2 = tosa.reduce_sum %a1 {axis = 2 : i32} : (tensor<1x1x3x4xf32>) -> tensor<1x1x1x4xf32>
  %mu = tosa.mul %a2, %k {shift = 0 : i8} : (tensor<1x1x1x4xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x4xf32>
  %c = tosa.sub %x, %mu : (tensor<1x2x3x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x2x3x4xf32>
  %sq = tosa.mul %c, %c {shift = 0 : i8} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %b1 = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<1x2x3x4xf32>) -> tensor<1x1x3x4xf32>
  %b2 = tosa.reduce_sum %b1 {axis = 2 : i32} : (tensor<1x1x3x4xf32>) -> tensor<1x1x1x4xf32>
  %var = tosa.mul %b2, %k {shift = 0 : i8} : (tensor<1x1x1x4xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x4xf32>
  %ve = tosa.add %var, %eps : (tensor<1x1x1x4xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x4xf32>
  %inv = tosa.rsqrt %ve : (tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
  %r = tosa.mul %c, %inv {shift = 0 : i8} : (tensor<1x2x3x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x2x3x4xf32>
  return %r : tensor<1x2x3x4xf32>
}

// -----

// Pad "reflect" as the ONNX importer writes it (reversed slices around x)
// is MIRROR_PAD; tosa.reverse is REVERSE; a gather with the same constant
// indices for every batch is GATHER on axis 1.
// CHECK-LABEL: func @mirror_reverse_gather
// CHECK: nnapi.mirror_pad %arg0 padding = [0, 0, 2, 1] : (tensor<2x4xf32>) -> tensor<2x7xf32>
// CHECK: nnapi.reverse %arg0 axis = 0 : tensor<2x4xf32>
// CHECK: %[[I:.*]] = arith.constant dense<[3, 1]> : tensor<2xi32>
// CHECK: nnapi.gather %arg1[%[[I]]] axis = 1 : (tensor<2x4x3xf32>, tensor<2xi32>) -> tensor<2x2x3xf32>
// CHECK-NOT: tosa.
func.func @mirror_reverse_gather(%x: tensor<2x4xf32>, %v: tensor<2x4x3xf32>) -> (tensor<2x7xf32>, tensor<2x4xf32>, tensor<2x2x3xf32>) attributes {nnapi.partition} {
  %b = tosa.slice %x {start = array<i64: 0, 1>, size = array<i64: 2, 2>} : (tensor<2x4xf32>) -> tensor<2x2xf32>
  %br = tosa.reverse %b {axis = 1 : i32} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %a = tosa.slice %x {start = array<i64: 0, 2>, size = array<i64: 2, 1>} : (tensor<2x4xf32>) -> tensor<2x1xf32>
  %ar = tosa.reverse %a {axis = 1 : i32} : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %0 = tosa.concat %br, %x, %ar {axis = 1 : i32} : (tensor<2x2xf32>, tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x7xf32>
  %1 = tosa.reverse %x {axis = 0 : i32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %i = "tosa.const"() {value = dense<[[3, 1], [3, 1]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  %2 = tosa.gather %v, %i : (tensor<2x4x3xf32>, tensor<2x2xi32>) -> tensor<2x2x3xf32>
  return %0, %1, %2 : tensor<2x7xf32>, tensor<2x4xf32>, tensor<2x2x3xf32>
}

// -----

// Indices computed at run time (token ids) with one row: GATHER reads them
// from the tensor; [1, K, C] by [1, W] is [1, 1, W, C], reshaped.
// CHECK-LABEL: func @gather_computed
// CHECK: %[[G:.*]] = nnapi.gather %arg0[%arg1] axis = 1 : (tensor<1x10x4xf32>, tensor<1x3xi32>) -> tensor<1x1x3x4xf32>
// CHECK: nnapi.reshape %[[G]] : (tensor<1x1x3x4xf32>) -> tensor<1x3x4xf32>
// CHECK-NOT: tosa.
func.func @gather_computed(%v: tensor<1x10x4xf32>, %ids: tensor<1x3xi32>) -> tensor<1x3x4xf32> attributes {nnapi.partition} {
  %0 = tosa.gather %v, %ids : (tensor<1x10x4xf32>, tensor<1x3xi32>) -> tensor<1x3x4xf32>
  return %0 : tensor<1x3x4xf32>
}

// -----

// A concat of slices that do not mirror x (an edge slice taken at the wrong
// place) stays slices and a concatenation.
// CHECK-LABEL: func @not_a_mirror_pad
// CHECK: nnapi.slice
// CHECK: nnapi.reverse
// CHECK: nnapi.concatenation
func.func @not_a_mirror_pad(%x: tensor<2x4xf32>) -> tensor<2x6xf32> attributes {nnapi.partition} {
  %b = tosa.slice %x {start = array<i64: 0, 2>, size = array<i64: 2, 2>} : (tensor<2x4xf32>) -> tensor<2x2xf32>
  %br = tosa.reverse %b {axis = 1 : i32} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %0 = tosa.concat %br, %x {axis = 1 : i32} : (tensor<2x2xf32>, tensor<2x4xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

// DepthToSpace (DCR) and SpaceToDepth as the ONNX importer writes them for
// NCHW tensors (reshape to rank 6, transpose, reshape back) are one
// operation each, in NCHW layout.
// CHECK-LABEL: func @depth_space
// CHECK: nnapi.depth_to_space %arg0 block_size = 2 nchw : (tensor<1x8x3x2xf32>) -> tensor<1x2x6x4xf32>
// CHECK: nnapi.space_to_depth %arg1 block_size = 2 nchw : (tensor<1x3x4x6xf32>) -> tensor<1x12x2x3xf32>
// CHECK-NOT: tosa.
func.func @depth_space(%x: tensor<1x8x3x2xf32>, %y: tensor<1x3x4x6xf32>) -> (tensor<1x2x6x4xf32>, tensor<1x12x2x3xf32>) attributes {nnapi.partition} {
  %p = "tosa.const"() {value = dense<[0, 3, 4, 1, 5, 2]> : tensor<6xi32>} : () -> tensor<6xi32>
  %0 = tosa.reshape %x {new_shape = array<i64: 1, 2, 2, 2, 3, 2>} : (tensor<1x8x3x2xf32>) -> tensor<1x2x2x2x3x2xf32>
  %1 = tosa.transpose %0, %p : (tensor<1x2x2x2x3x2xf32>, tensor<6xi32>) -> tensor<1x2x3x2x2x2xf32>
  %2 = tosa.reshape %1 {new_shape = array<i64: 1, 2, 6, 4>} : (tensor<1x2x3x2x2x2xf32>) -> tensor<1x2x6x4xf32>
  %q = "tosa.const"() {value = dense<[0, 3, 5, 1, 2, 4]> : tensor<6xi32>} : () -> tensor<6xi32>
  %3 = tosa.reshape %y {new_shape = array<i64: 1, 3, 2, 2, 3, 2>} : (tensor<1x3x4x6xf32>) -> tensor<1x3x2x2x3x2xf32>
  %4 = tosa.transpose %3, %q : (tensor<1x3x2x2x3x2xf32>, tensor<6xi32>) -> tensor<1x2x2x3x2x3xf32>
  %5 = tosa.reshape %4 {new_shape = array<i64: 1, 12, 2, 3>} : (tensor<1x2x2x3x2x3xf32>) -> tensor<1x12x2x3xf32>
  return %2, %5 : tensor<1x2x6x4xf32>, tensor<1x12x2x3xf32>
}

// -----

// Per-group convolutions of consecutive channel slices, concatenated in
// group order (ONNX Conv with group 2 once its weight slices are folded),
// are one GROUPED_CONV_2D whose filter and bias are the groups' in order.
// CHECK-LABEL: func @grouped_conv
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00]]], {{\[\[\[}}2.000000e+00]]]]> : tensor<2x1x1x1xf32>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<[3.000000e+00, 4.000000e+00]> : tensor<2xf32>
// CHECK: nnapi.grouped_conv_2d %arg0, %[[W]], %[[B]] padding = [0, 0, 0, 0] strides = [1, 1] num_groups = 2 fused relu : (tensor<1x2x2x2xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
// CHECK-NOT: tosa.
func.func @grouped_conv(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> attributes {nnapi.partition} {
  %w0 = "tosa.const"() {value = dense<1.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %w1 = "tosa.const"() {value = dense<2.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %b0 = "tosa.const"() {value = dense<3.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %b1 = "tosa.const"() {value = dense<4.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %x0 = tosa.slice %x {start = array<i64: 0, 0, 0, 0>, size = array<i64: 1, 2, 2, 1>} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x1xf32>
  %c0 = tosa.conv2d %x0, %w0, %b0 {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32>
  %x1 = tosa.slice %x {start = array<i64: 0, 0, 0, 1>, size = array<i64: 1, 2, 2, 1>} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x1xf32>
  %c1 = tosa.conv2d %x1, %w1, %b1 {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32>
  %0 = tosa.concat %c0, %c1 {axis = 3 : i32} : (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>) -> tensor<1x2x2x2xf32>
  %1 = tosa.clamp %0 {min_fp = 0.0 : f32, max_fp = 3.40282347e+38 : f32, min_int = 0 : i64, max_int = 2147483647 : i64} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %1 : tensor<1x2x2x2xf32>
}

// -----

// Slices out of group order are separate convolutions.
// CHECK-LABEL: func @not_grouped
// CHECK-COUNT-2: nnapi.conv_2d
// CHECK: nnapi.concatenation
func.func @not_grouped(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> attributes {nnapi.partition} {
  %w0 = "tosa.const"() {value = dense<1.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %b0 = "tosa.const"() {value = dense<3.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %x0 = tosa.slice %x {start = array<i64: 0, 0, 0, 1>, size = array<i64: 1, 2, 2, 1>} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x1xf32>
  %c0 = tosa.conv2d %x0, %w0, %b0 {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32>
  %x1 = tosa.slice %x {start = array<i64: 0, 0, 0, 0>, size = array<i64: 1, 2, 2, 1>} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x1xf32>
  %c1 = tosa.conv2d %x1, %w0, %b0 {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32>
  %0 = tosa.concat %c0, %c1 {axis = 3 : i32} : (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// ShuffleNet's channel shuffle (reshape to [n, g, c / g, h, w], swap the
// two, reshape back) is one CHANNEL_SHUFFLE on axis 1.
// CHECK-LABEL: func @channel_shuffle
// CHECK: nnapi.channel_shuffle %arg0 num_groups = 3 axis = 1 : tensor<1x6x2x3xf32>
// CHECK-NOT: tosa.
func.func @channel_shuffle(%x: tensor<1x6x2x3xf32>) -> tensor<1x6x2x3xf32> attributes {nnapi.partition} {
  %p = "tosa.const"() {value = dense<[0, 2, 1, 3, 4]> : tensor<5xi32>} : () -> tensor<5xi32>
  %0 = tosa.reshape %x {new_shape = array<i64: 1, 3, 2, 2, 3>} : (tensor<1x6x2x3xf32>) -> tensor<1x3x2x2x3xf32>
  %1 = tosa.transpose %0, %p : (tensor<1x3x2x2x3xf32>, tensor<5xi32>) -> tensor<1x2x3x2x3xf32>
  %2 = tosa.reshape %1 {new_shape = array<i64: 1, 6, 2, 3>} : (tensor<1x2x3x2x3xf32>) -> tensor<1x6x2x3xf32>
  return %2 : tensor<1x6x2x3xf32>
}

// -----

// LRN as the ONNX importer writes it (size 3 along the channels of NCHW):
// LOCAL_RESPONSE_NORMALIZATION with radius 1 and alpha = ONNX alpha / size
// (NNAPI scales the sum itself), on axis 1.
// CHECK-LABEL: func @local_response
// CHECK: nnapi.local_response_normalization %arg0 radius = 1 bias = 1.500000e+00 alpha = 0.00999999977 beta = 7.500000e-01 axis = 1 : tensor<1x5x2x3xf32>
// CHECK-NOT: tosa.
func.func @local_response(%x: tensor<1x5x2x3xf32>) -> tensor<1x5x2x3xf32> attributes {nnapi.partition} {
  %pads = "tosa.const"() {value = dense<[[0, 0], [1, 1], [0, 0], [0, 0]]> : tensor<4x2xi64>} : () -> tensor<4x2xi64>
  %k = "tosa.const"() {value = dense<0.01> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %b = "tosa.const"() {value = dense<1.5> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %e = "tosa.const"() {value = dense<-0.75> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %sq = tosa.mul %x, %x {shift = 0 : i8} : (tensor<1x5x2x3xf32>, tensor<1x5x2x3xf32>) -> tensor<1x5x2x3xf32>
  %p = tosa.pad %sq, %pads : (tensor<1x5x2x3xf32>, tensor<4x2xi64>) -> tensor<1x7x2x3xf32>
  %s0 = tosa.slice %p {start = array<i64: 0, 0, 0, 0>, size = array<i64: 1, 5, 2, 3>} : (tensor<1x7x2x3xf32>) -> tensor<1x5x2x3xf32>
  %s1 = tosa.slice %p {start = array<i64: 0, 1, 0, 0>, size = array<i64: 1, 5, 2, 3>} : (tensor<1x7x2x3xf32>) -> tensor<1x5x2x3xf32>
  %s2 = tosa.slice %p {start = array<i64: 0, 2, 0, 0>, size = array<i64: 1, 5, 2, 3>} : (tensor<1x7x2x3xf32>) -> tensor<1x5x2x3xf32>
  %u1 = tosa.add %s0, %s1 : (tensor<1x5x2x3xf32>, tensor<1x5x2x3xf32>) -> tensor<1x5x2x3xf32>
  %u2 = tosa.add %u1, %s2 : (tensor<1x5x2x3xf32>, tensor<1x5x2x3xf32>) -> tensor<1x5x2x3xf32>
  %sc = tosa.mul %u2, %k {shift = 0 : i8} : (tensor<1x5x2x3xf32>, tensor<1x1x1x1xf32>) -> tensor<1x5x2x3xf32>
  %d = tosa.add %sc, %b : (tensor<1x5x2x3xf32>, tensor<1x1x1x1xf32>) -> tensor<1x5x2x3xf32>
  %pw = tosa.pow %d, %e : (tensor<1x5x2x3xf32>, tensor<1x1x1x1xf32>) -> tensor<1x5x2x3xf32>
  %r = tosa.mul %x, %pw {shift = 0 : i8} : (tensor<1x5x2x3xf32>, tensor<1x5x2x3xf32>) -> tensor<1x5x2x3xf32>
  return %r : tensor<1x5x2x3xf32>
}

// -----

// LpNormalization with p = 2 as the ONNX importer writes it (zeros for a
// vector of zeros) is L2_NORMALIZATION on the summed axis; without the
// zero guard (NaN for zeros) it is not, and stays element-wise ops.
// CHECK-LABEL: func @l2_normalization
// CHECK: %[[Y:.*]] = nnapi.l2_normalization %arg0 axis = 1 : tensor<2x3x4xf32>
// CHECK: %[[S:.*]] = nnapi.reduce_sum
// CHECK: nnapi.rsqrt %[[S]]
// CHECK-NOT: tosa.
func.func @l2_normalization(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>) attributes {nnapi.partition} {
  %z = "tosa.const"() {value = dense<0.0> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %sq = tosa.mul %x, %x {shift = 0 : i8} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %s = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %e = tosa.equal %z, %s : (tensor<1x1x1xf32>, tensor<2x1x4xf32>) -> tensor<2x1x4xi1>
  %r = tosa.rsqrt %s : (tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
  %c = tosa.select %e, %z, %r : (tensor<2x1x4xi1>, tensor<1x1x1xf32>, tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
  %y = tosa.mul %c, %x {shift = 0 : i8} : (tensor<2x1x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %sq2 = tosa.mul %x, %x {shift = 0 : i8} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %s2 = tosa.reduce_sum %sq2 {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %r2 = tosa.rsqrt %s2 : (tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
  %y2 = tosa.mul %x, %r2 {shift = 0 : i8} : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
  return %y, %y2 : tensor<2x3x4xf32>, tensor<2x3x4xf32>
}

// -----

// Comparisons, logical ops and select; logical_not(equal) is NOT_EQUAL; a
// bool constant stays a constant operand.
// CHECK-LABEL: func @bool_ops
// CHECK-DAG: %[[M:.*]] = arith.constant dense<[true, false, true, true]> : tensor<4xi1>
// CHECK-DAG: %[[G:.*]] = nnapi.greater %arg0, %arg1
// CHECK-DAG: %[[NE:.*]] = nnapi.not_equal %arg0, %arg1
// CHECK-DAG: %[[GE:.*]] = nnapi.greater_equal %arg1, %arg0
// CHECK: %[[A:.*]] = nnapi.logical_and %[[G]], %[[NE]]
// CHECK: %[[O:.*]] = nnapi.logical_or %[[A]], %[[GE]]
// CHECK: %[[X:.*]] = nnapi.logical_and %[[O]], %[[M]]
// CHECK: %[[N:.*]] = nnapi.logical_not %[[X]]
// CHECK: nnapi.select %[[N]], %arg0, %arg1
// CHECK-NOT: tosa.
func.func @bool_ops(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> attributes {nnapi.partition} {
  %m = "tosa.const"() {value = dense<[true, false, true, true]> : tensor<4xi1>} : () -> tensor<4xi1>
  %g = tosa.greater %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %e = tosa.equal %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %ne = tosa.logical_not %e : (tensor<4xi1>) -> tensor<4xi1>
  %ge = tosa.greater_equal %b, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %0 = tosa.logical_and %g, %ne : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = tosa.logical_or %0, %ge : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %2 = tosa.logical_and %1, %m : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %3 = tosa.logical_not %2 : (tensor<4xi1>) -> tensor<4xi1>
  %4 = tosa.select %3, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %4 : tensor<4xf32>
}

// -----

// Bool reductions keep the reduced dimension, as TOSA does.
// CHECK-LABEL: func @bool_reductions
// CHECK: nnapi.reduce_any %{{.*}} axes = [1] keep_dims : (tensor<2x4xi1>) -> tensor<2x1xi1>
// CHECK: nnapi.reduce_all %{{.*}} axes = [0] keep_dims : (tensor<2x4xi1>) -> tensor<1x4xi1>
func.func @bool_reductions(%a: tensor<2x4xf32>, %b: tensor<2x4xf32>) -> (tensor<2x1xf32>, tensor<1x4xf32>) attributes {nnapi.partition} {
  %g = tosa.greater %a, %b : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
  %0 = tosa.reduce_any %g {axis = 1 : i32} : (tensor<2x4xi1>) -> tensor<2x1xi1>
  %1 = tosa.reduce_all %g {axis = 0 : i32} : (tensor<2x4xi1>) -> tensor<1x4xi1>
  %one = "tosa.const"() {value = dense<1.0> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
  %zero = "tosa.const"() {value = dense<0.0> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
  %2 = tosa.select %0, %one, %zero : (tensor<2x1xi1>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  %one4 = "tosa.const"() {value = dense<1.0> : tensor<1x4xf32>} : () -> tensor<1x4xf32>
  %zero4 = "tosa.const"() {value = dense<0.0> : tensor<1x4xf32>} : () -> tensor<1x4xf32>
  %3 = tosa.select %1, %one4, %zero4 : (tensor<1x4xi1>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return %2, %3 : tensor<2x1xf32>, tensor<1x4xf32>
}

// -----

// argmax is ARGMAX; the argmax of a negation (the importer's ArgMin) is
// ARGMIN of the negation's input.
// CHECK-LABEL: func @arg_ops
// CHECK: nnapi.argmax %arg0 axis = 1 : (tensor<3x5xf32>) -> tensor<3xi32>
// CHECK: nnapi.argmin %arg0 axis = 0 : (tensor<3x5xf32>) -> tensor<5xi32>
// CHECK-NOT: nnapi.neg
func.func @arg_ops(%x: tensor<3x5xf32>) -> (tensor<3xi32>, tensor<5xi32>) attributes {nnapi.partition} {
  %0 = tosa.argmax %x {axis = 1 : i32} : (tensor<3x5xf32>) -> tensor<3xi32>
  %n = tosa.negate %x : (tensor<3x5xf32>) -> tensor<3x5xf32>
  %1 = tosa.argmax %n {axis = 0 : i32} : (tensor<3x5xf32>) -> tensor<5xi32>
  return %0, %1 : tensor<3xi32>, tensor<5xi32>
}

// -----

// ONNX Split into equal pieces (the importer's slices, here in any order):
// one SPLIT whose results replace the slices by position along the axis.
// CHECK-LABEL: func @split
// CHECK: %[[S:.*]]:3 = nnapi.split %arg0 axis = 1 : (tensor<2x6x3xf32>) -> (tensor<2x2x3xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>)
// CHECK: return %[[S]]#2, %[[S]]#0, %[[S]]#1
// CHECK-NOT: tosa.
func.func @split(%x: tensor<2x6x3xf32>) -> (tensor<2x2x3xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>) attributes {nnapi.partition} {
  %c = tosa.slice %x {start = array<i64: 0, 4, 0>, size = array<i64: 2, 2, 3>} : (tensor<2x6x3xf32>) -> tensor<2x2x3xf32>
  %a = tosa.slice %x {start = array<i64: 0, 0, 0>, size = array<i64: 2, 2, 3>} : (tensor<2x6x3xf32>) -> tensor<2x2x3xf32>
  %b = tosa.slice %x {start = array<i64: 0, 2, 0>, size = array<i64: 2, 2, 3>} : (tensor<2x6x3xf32>) -> tensor<2x2x3xf32>
  return %c, %a, %b : tensor<2x2x3xf32>, tensor<2x2x3xf32>, tensor<2x2x3xf32>
}

// -----

// Unequal pieces, or pieces that leave a gap, are SLICEs.
// CHECK-LABEL: func @split_unequal
// CHECK-NOT: nnapi.split
// CHECK-COUNT-4: nnapi.slice
func.func @split_unequal(%x: tensor<2x6xf32>) -> (tensor<2x2xf32>, tensor<2x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>) attributes {nnapi.partition} {
  %a = tosa.slice %x {start = array<i64: 0, 0>, size = array<i64: 2, 2>} : (tensor<2x6xf32>) -> tensor<2x2xf32>
  %b = tosa.slice %x {start = array<i64: 0, 2>, size = array<i64: 2, 4>} : (tensor<2x6xf32>) -> tensor<2x4xf32>
  %c = tosa.slice %x {start = array<i64: 0, 0>, size = array<i64: 2, 3>} : (tensor<2x6xf32>) -> tensor<2x3xf32>
  %d = tosa.slice %x {start = array<i64: 0, 0>, size = array<i64: 2, 3>} : (tensor<2x6xf32>) -> tensor<2x3xf32>
  return %a, %b, %c, %d : tensor<2x2xf32>, tensor<2x4xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// tosa.cast between f32, f16, i32 and i1 is CAST; float to i32 is not (see
// tosa-to-nnapi-invalid.mlir).
// CHECK-LABEL: func @cast
// CHECK: nnapi.cast %arg0 : (tensor<2x3xi1>) -> tensor<2x3xf32>
// CHECK: nnapi.cast %arg1 : (tensor<2x3xi32>) -> tensor<2x3xf16>
// CHECK: nnapi.cast %arg2 : (tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NOT: tosa.
func.func @cast(%m: tensor<2x3xi1>, %i: tensor<2x3xi32>, %x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf16>, tensor<2x3xi1>) attributes {nnapi.partition} {
  %0 = tosa.cast %m : (tensor<2x3xi1>) -> tensor<2x3xf32>
  %1 = tosa.cast %i : (tensor<2x3xi32>) -> tensor<2x3xf16>
  %2 = tosa.cast %x : (tensor<2x3xf32>) -> tensor<2x3xi1>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<2x3xf16>, tensor<2x3xi1>
}

// -----

// The importer's every-step-th-element form of a stepped Slice (pad to
// count x step, rows, first column, back) is one STRIDED_SLICE; when the
// last reshape was folded into a later one, a RESHAPE follows it.
// CHECK-LABEL: func @strided_slice
// CHECK: %[[S:.*]] = nnapi.strided_slice %arg0 begin = [0, 0] end = [3, 9] strides = [1, 4] : (tensor<3x9xf32>) -> tensor<3x3xf32>
// CHECK: %[[T:.*]] = nnapi.strided_slice %arg1 begin = [0, 0] end = [6, 2] strides = [2, 1] : (tensor<6x2xf32>) -> tensor<3x2xf32>
// CHECK: nnapi.reshape %[[T]] : (tensor<3x2xf32>) -> tensor<6xf32>
// CHECK-NOT: tosa.
func.func @strided_slice(%x: tensor<3x9xf32>, %y: tensor<6x2xf32>) -> (tensor<3x3xf32>, tensor<6xf32>) attributes {nnapi.partition} {
  %pads = "tosa.const"() {value = dense<[[0, 0], [0, 3]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  %zero = "tosa.const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %p = tosa.pad %x, %pads, %zero : (tensor<3x9xf32>, tensor<2x2xi64>, tensor<f32>) -> tensor<3x12xf32>
  %r = tosa.reshape %p {new_shape = array<i64: 3, 3, 4>} : (tensor<3x12xf32>) -> tensor<3x3x4xf32>
  %c = tosa.slice %r {start = array<i64: 0, 0, 0>, size = array<i64: 3, 3, 1>} : (tensor<3x3x4xf32>) -> tensor<3x3x1xf32>
  %0 = tosa.reshape %c {new_shape = array<i64: 3, 3>} : (tensor<3x3x1xf32>) -> tensor<3x3xf32>
  %r2 = tosa.reshape %y {new_shape = array<i64: 3, 2, 2>} : (tensor<6x2xf32>) -> tensor<3x2x2xf32>
  %c2 = tosa.slice %r2 {start = array<i64: 0, 0, 0>, size = array<i64: 3, 1, 2>} : (tensor<3x2x2xf32>) -> tensor<3x1x2xf32>
  %1 = tosa.reshape %c2 {new_shape = array<i64: 6>} : (tensor<3x1x2xf32>) -> tensor<6xf32>
  return %0, %1 : tensor<3x3xf32>, tensor<6xf32>
}

// -----

// A pad of a step or more, or a column other than the first, is not every
// step-th element of x.
// CHECK-LABEL: func @not_strided_slice
// CHECK-NOT: nnapi.strided_slice
func.func @not_strided_slice(%x: tensor<3x8xf32>) -> (tensor<3x3xf32>, tensor<3x2xf32>) attributes {nnapi.partition} {
  %pads = "tosa.const"() {value = dense<[[0, 0], [0, 4]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  %zero = "tosa.const"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %p = tosa.pad %x, %pads, %zero : (tensor<3x8xf32>, tensor<2x2xi64>, tensor<f32>) -> tensor<3x12xf32>
  %r = tosa.reshape %p {new_shape = array<i64: 3, 3, 4>} : (tensor<3x12xf32>) -> tensor<3x3x4xf32>
  %c = tosa.slice %r {start = array<i64: 0, 0, 0>, size = array<i64: 3, 3, 1>} : (tensor<3x3x4xf32>) -> tensor<3x3x1xf32>
  %0 = tosa.reshape %c {new_shape = array<i64: 3, 3>} : (tensor<3x3x1xf32>) -> tensor<3x3xf32>
  %r2 = tosa.reshape %x {new_shape = array<i64: 3, 2, 4>} : (tensor<3x8xf32>) -> tensor<3x2x4xf32>
  %c2 = tosa.slice %r2 {start = array<i64: 0, 0, 1>, size = array<i64: 3, 2, 1>} : (tensor<3x2x4xf32>) -> tensor<3x2x1xf32>
  %1 = tosa.reshape %c2 {new_shape = array<i64: 3, 2>} : (tensor<3x2x1xf32>) -> tensor<3x2xf32>
  return %0, %1 : tensor<3x3xf32>, tensor<3x2xf32>
}
