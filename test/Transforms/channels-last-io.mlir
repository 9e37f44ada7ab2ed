// RUN: nnapi-opt %s -split-input-file -nnapi-channels-last-io | FileCheck %s

// The input's only use is the transpose to NHWC and the first result is a
// transpose back: both go, and the signature says NHWC. The second result is
// not a layout transpose and keeps its type.
// CHECK-LABEL: func @edges
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x5x3xf32> {nnapi.name = "x"}) -> (tensor<1x4x5x8xf32>, tensor<1x8xf32>)
// CHECK-NOT: tosa.transpose
// CHECK: %[[W:.*]] = tosa.concat %[[X]], %{{.*}} {axis = 3 : i32}
// CHECK: %[[P:.*]] = tosa.max_pool2d %[[W]]
// CHECK: return %[[P]], %{{.*}} : tensor<1x4x5x8xf32>, tensor<1x8xf32>
func.func @edges(%x: tensor<1x3x4x5xf32> {nnapi.name = "x"}) -> (tensor<1x8x4x5xf32>, tensor<1x8xf32>) {
  %to_nhwc = "tosa.const"() {value = dense<[0, 2, 3, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  %to_nchw = "tosa.const"() {value = dense<[0, 3, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %a = tosa.transpose %x, %to_nhwc : (tensor<1x3x4x5xf32>, tensor<4xi32>) -> tensor<1x4x5x3xf32>
  %c = "tosa.const"() {value = dense<0.0> : tensor<1x4x5x5xf32>} : () -> tensor<1x4x5x5xf32>
  %w = tosa.concat %a, %c {axis = 3 : i32} : (tensor<1x4x5x3xf32>, tensor<1x4x5x5xf32>) -> tensor<1x4x5x8xf32>
  %p = tosa.max_pool2d %w {kernel = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x5x8xf32>) -> tensor<1x4x5x8xf32>
  %r = tosa.transpose %p, %to_nchw : (tensor<1x4x5x8xf32>, tensor<4xi32>) -> tensor<1x8x4x5xf32>
  %s = tosa.reduce_sum %p {axis = 1 : i32} : (tensor<1x4x5x8xf32>) -> tensor<1x1x5x8xf32>
  %t = tosa.reduce_sum %s {axis = 2 : i32} : (tensor<1x1x5x8xf32>) -> tensor<1x1x1x8xf32>
  %f = tosa.reshape %t {new_shape = array<i64: 1, 8>} : (tensor<1x1x1x8xf32>) -> tensor<1x8xf32>
  return %r, %f : tensor<1x8x4x5xf32>, tensor<1x8xf32>
}

// -----

// An input also used without a transpose, an output transposed some other
// way and a private function keep their types.
// CHECK-LABEL: func @mixed_uses
// CHECK-SAME: (%{{.*}}: tensor<1x3x4x5xf32>) -> (tensor<1x4x5x3xf32>, tensor<1x3x4x5xf32>, tensor<5x4x3x1xf32>)
// CHECK-COUNT-2: tosa.transpose
// CHECK-LABEL: func private @inner
// CHECK-SAME: (%{{.*}}: tensor<1x3x4x5xf32>) -> tensor<1x4x5x3xf32>
// CHECK: tosa.transpose
func.func @mixed_uses(%x: tensor<1x3x4x5xf32>) -> (tensor<1x4x5x3xf32>, tensor<1x3x4x5xf32>, tensor<5x4x3x1xf32>) {
  %to_nhwc = "tosa.const"() {value = dense<[0, 2, 3, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  %rev = "tosa.const"() {value = dense<[3, 2, 1, 0]> : tensor<4xi32>} : () -> tensor<4xi32>
  %a = tosa.transpose %x, %to_nhwc : (tensor<1x3x4x5xf32>, tensor<4xi32>) -> tensor<1x4x5x3xf32>
  %b = tosa.transpose %x, %rev : (tensor<1x3x4x5xf32>, tensor<4xi32>) -> tensor<5x4x3x1xf32>
  return %a, %x, %b : tensor<1x4x5x3xf32>, tensor<1x3x4x5xf32>, tensor<5x4x3x1xf32>
}
func.func private @inner(%x: tensor<1x3x4x5xf32>) -> tensor<1x4x5x3xf32> {
  %to_nhwc = "tosa.const"() {value = dense<[0, 2, 3, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  %a = tosa.transpose %x, %to_nhwc : (tensor<1x3x4x5xf32>, tensor<4xi32>) -> tensor<1x4x5x3xf32>
  return %a : tensor<1x4x5x3xf32>
}

// -----

// Rank 3: both layout permutations would be [0, 2, 1], so a sequence model's
// own transpose at its output is not taken for a layout change.
// CHECK-LABEL: func @sequence
// CHECK-SAME: (%{{.*}}: tensor<1x4x6xf32>) -> tensor<1x6x4xf32>
// CHECK: tosa.transpose
func.func @sequence(%x: tensor<1x4x6xf32>) -> tensor<1x6x4xf32> {
  %swap = "tosa.const"() {value = dense<[0, 2, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %t = tosa.transpose %x, %swap : (tensor<1x4x6xf32>, tensor<3xi32>) -> tensor<1x6x4xf32>
  return %t : tensor<1x6x4xf32>
}
