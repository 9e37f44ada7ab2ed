// RUN: nnapi-opt %s -split-input-file -nnapi-propagate-transposes | FileCheck %s

// Element-wise ops: the transpose sinks below them and meets its inverse.
// CHECK-LABEL: func @elementwise
// CHECK-NOT: tosa.transpose
// CHECK: %[[A:.*]] = tosa.add %arg0, %arg1 : (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
// CHECK-NEXT: %[[S:.*]] = tosa.sigmoid %[[A]]
// CHECK-NEXT: return %[[S]]
func.func @elementwise(%x: tensor<1x4x4x8xf32>, %y: tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32> {
  %to_nchw = "tosa.const"() {value = dense<[0, 3, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %to_nhwc = "tosa.const"() {value = dense<[0, 2, 3, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  %a = tosa.transpose %x, %to_nchw : (tensor<1x4x4x8xf32>, tensor<4xi32>) -> tensor<1x8x4x4xf32>
  %b = tosa.transpose %y, %to_nchw : (tensor<1x4x4x8xf32>, tensor<4xi32>) -> tensor<1x8x4x4xf32>
  %s = tosa.add %a, %b : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %g = tosa.sigmoid %s : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %r = tosa.transpose %g, %to_nhwc : (tensor<1x8x4x4xf32>, tensor<4xi32>) -> tensor<1x4x4x8xf32>
  return %r : tensor<1x4x4x8xf32>
}

// -----

// A U-Net's skip: the concat of two NCHW views of NHWC tensors along the
// channels (1) is the concat of the NHWC tensors along 3.
// CHECK-LABEL: func @concat_skip
// CHECK-NOT: tosa.transpose
// CHECK: %[[C:.*]] = tosa.concat %arg0, %arg1 {axis = 3 : i32} : (tensor<1x4x4x8xf32>, tensor<1x4x4x2xf32>) -> tensor<1x4x4x10xf32>
// CHECK-NEXT: return %[[C]]
func.func @concat_skip(%x: tensor<1x4x4x8xf32>, %y: tensor<1x4x4x2xf32>) -> tensor<1x4x4x10xf32> {
  %to_nchw = "tosa.const"() {value = dense<[0, 3, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %to_nhwc = "tosa.const"() {value = dense<[0, 2, 3, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  %a = tosa.transpose %x, %to_nchw : (tensor<1x4x4x8xf32>, tensor<4xi32>) -> tensor<1x8x4x4xf32>
  %b = tosa.transpose %y, %to_nchw : (tensor<1x4x4x2xf32>, tensor<4xi32>) -> tensor<1x2x4x4xf32>
  %c = tosa.concat %a, %b {axis = 1 : i32} : (tensor<1x8x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x10x4x4xf32>
  %r = tosa.transpose %c, %to_nhwc : (tensor<1x10x4x4xf32>, tensor<4xi32>) -> tensor<1x4x4x10xf32>
  return %r : tensor<1x4x4x10xf32>
}

// -----

// Concat operands transposed differently (or not at all) stay as they are.
// CHECK-LABEL: func @concat_mixed
// CHECK: tosa.transpose
// CHECK: tosa.concat %{{.*}}, %arg1 {axis = 1 : i32}
func.func @concat_mixed(%x: tensor<1x4x4x8xf32>, %y: tensor<1x2x4x4xf32>) -> tensor<1x10x4x4xf32> {
  %to_nchw = "tosa.const"() {value = dense<[0, 3, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %a = tosa.transpose %x, %to_nchw : (tensor<1x4x4x8xf32>, tensor<4xi32>) -> tensor<1x8x4x4xf32>
  %c = tosa.concat %a, %y {axis = 1 : i32} : (tensor<1x8x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x10x4x4xf32>
  return %c : tensor<1x10x4x4xf32>
}

// -----

// A global average pool imported as sums over NCHW's spatial axes (2, 3):
// the sums run over NHWC's (1, 2), and the transpose of the small result
// cancels against the one after.
// CHECK-LABEL: func @reduce_axes
// CHECK-NOT: tosa.transpose
// CHECK: %[[H:.*]] = tosa.reduce_sum %arg0 {axis = 1 : i32} : (tensor<1x4x6x8xf32>) -> tensor<1x1x6x8xf32>
// CHECK-NEXT: %[[W:.*]] = tosa.reduce_max %[[H]] {axis = 2 : i32} : (tensor<1x1x6x8xf32>) -> tensor<1x1x1x8xf32>
// CHECK-NEXT: return %[[W]]
func.func @reduce_axes(%x: tensor<1x4x6x8xf32>) -> tensor<1x1x1x8xf32> {
  %to_nchw = "tosa.const"() {value = dense<[0, 3, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %to_nhwc = "tosa.const"() {value = dense<[0, 2, 3, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  %a = tosa.transpose %x, %to_nchw : (tensor<1x4x6x8xf32>, tensor<4xi32>) -> tensor<1x8x4x6xf32>
  %h = tosa.reduce_sum %a {axis = 2 : i32} : (tensor<1x8x4x6xf32>) -> tensor<1x8x1x6xf32>
  %w = tosa.reduce_max %h {axis = 3 : i32} : (tensor<1x8x1x6xf32>) -> tensor<1x8x1x1xf32>
  %r = tosa.transpose %w, %to_nhwc : (tensor<1x8x1x1xf32>, tensor<4xi32>) -> tensor<1x1x1x8xf32>
  return %r : tensor<1x1x1x8xf32>
}
