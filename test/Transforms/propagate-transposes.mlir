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

// The same with dynamic height and width (issue 54): they move with the
// layout like any other dimension. A constant operand is permuted; no
// transpose is left.
// CHECK-LABEL: func @elementwise_dynamic
// CHECK-NOT: tosa.transpose
// CHECK: %[[C:.*]] = "tosa.const"() <{value = dense<{{.*}}> : tensor<1x1x1x8xf32>}>
// CHECK: %[[A:.*]] = tosa.add %arg0, %[[C]] : (tensor<1x?x?x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x?x?x8xf32>
// CHECK-NEXT: %[[M:.*]] = tosa.clamp %[[A]]
// CHECK-SAME: -> tensor<1x?x?x8xf32>
// CHECK-NEXT: return %[[M]]
func.func @elementwise_dynamic(%x: tensor<1x?x?x8xf32>) -> tensor<1x?x?x8xf32> {
  %to_nchw = "tosa.const"() {value = dense<[0, 3, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %to_nhwc = "tosa.const"() {value = dense<[0, 2, 3, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  %bias = "tosa.const"() {value = dense<[[[[1.0]], [[2.0]], [[3.0]], [[4.0]], [[5.0]], [[6.0]], [[7.0]], [[8.0]]]]> : tensor<1x8x1x1xf32>} : () -> tensor<1x8x1x1xf32>
  %a = tosa.transpose %x, %to_nchw : (tensor<1x?x?x8xf32>, tensor<4xi32>) -> tensor<1x8x?x?xf32>
  %s = tosa.add %a, %bias : (tensor<1x8x?x?xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x?x?xf32>
  %m = tosa.clamp %s {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<1x8x?x?xf32>) -> tensor<1x8x?x?xf32>
  %r = tosa.transpose %m, %to_nhwc : (tensor<1x8x?x?xf32>, tensor<4xi32>) -> tensor<1x?x?x8xf32>
  return %r : tensor<1x?x?x8xf32>
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

// -----

// A residual add of the graph input: the block's NHWC copy of the input
// exists already (it feeds the pool), so the add runs in NHWC on it and the
// only transposes left are the one at the input and the one at the output.
// CHECK-LABEL: func @residual_of_input
// CHECK: %[[X:.*]] = tosa.transpose %arg0
// CHECK-NOT: tosa.transpose
// CHECK: %[[P:.*]] = tosa.avg_pool2d %[[X]]
// CHECK-NEXT: %[[S:.*]] = tosa.add %[[P]], %[[X]] : (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>)
// CHECK-NEXT: %[[C:.*]] = tosa.clamp %[[S]]
// CHECK-NEXT: %[[R:.*]] = tosa.transpose %[[C]]
// CHECK-NEXT: return %[[R]] : tensor<1x8x4x4xf32>
func.func @residual_of_input(%x: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %to_nchw = "tosa.const"() {value = dense<[0, 3, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %to_nhwc = "tosa.const"() {value = dense<[0, 2, 3, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  %a = tosa.transpose %x, %to_nhwc : (tensor<1x8x4x4xf32>, tensor<4xi32>) -> tensor<1x4x4x8xf32>
  %p = tosa.avg_pool2d %a {acc_type = f32, kernel = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %b = tosa.transpose %p, %to_nchw : (tensor<1x4x4x8xf32>, tensor<4xi32>) -> tensor<1x8x4x4xf32>
  %s = tosa.add %b, %x : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %r = tosa.clamp %s {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %r : tensor<1x8x4x4xf32>
}

// -----

// The same add when the NCHW view is used elsewhere too: sinking would add a
// transpose (of the input) without removing one, so nothing moves.
// CHECK-LABEL: func @residual_view_used_twice
// CHECK: %[[B:.*]] = tosa.transpose %arg1
// CHECK-NEXT: %[[S:.*]] = tosa.add %[[B]], %arg0 : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>)
// CHECK-NEXT: return %[[S]], %[[B]]
func.func @residual_view_used_twice(%x: tensor<1x8x4x4xf32>, %p: tensor<1x4x4x8xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) {
  %to_nchw = "tosa.const"() {value = dense<[0, 3, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %b = tosa.transpose %p, %to_nchw : (tensor<1x4x4x8xf32>, tensor<4xi32>) -> tensor<1x8x4x4xf32>
  %s = tosa.add %b, %x : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %s, %b : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>
}

// -----

// A squeeze-excite gate computed as [1, 1, 1, C] and reshaped to NCHW's
// [1, C, 1, 1]: the multiply runs in NHWC and both reshapes go.
// CHECK-LABEL: func @squeeze_excite
// CHECK-NOT: tosa.transpose
// CHECK-NOT: tosa.reshape
// CHECK: %[[G:.*]] = tosa.sigmoid %arg1 : (tensor<1x1x1x8xf32>) -> tensor<1x1x1x8xf32>
// CHECK-NEXT: %[[A:.*]] = tosa.add %[[G]], %{{.*}} : (tensor<1x1x1x8xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x8xf32>
// CHECK-NEXT: %[[M:.*]] = tosa.mul %arg0, %[[A]] {shift = 0 : i8} : (tensor<1x4x4x8xf32>, tensor<1x1x1x8xf32>) -> tensor<1x4x4x8xf32>
// CHECK-NEXT: return %[[M]]
func.func @squeeze_excite(%x: tensor<1x4x4x8xf32>, %g: tensor<1x1x1x8xf32>) -> tensor<1x4x4x8xf32> {
  %to_nchw = "tosa.const"() {value = dense<[0, 3, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %to_nhwc = "tosa.const"() {value = dense<[0, 2, 3, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  %half = "tosa.const"() {value = dense<0.5> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %a = tosa.transpose %x, %to_nchw : (tensor<1x4x4x8xf32>, tensor<4xi32>) -> tensor<1x8x4x4xf32>
  %r = tosa.reshape %g {new_shape = array<i64: 1, 8, 1, 1>} : (tensor<1x1x1x8xf32>) -> tensor<1x8x1x1xf32>
  %s = tosa.sigmoid %r : (tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32>
  %h = tosa.add %s, %half : (tensor<1x8x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x8x1x1xf32>
  %m = tosa.mul %a, %h {shift = 0 : i8} : (tensor<1x8x4x4xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x4x4xf32>
  %o = tosa.transpose %m, %to_nhwc : (tensor<1x8x4x4xf32>, tensor<4xi32>) -> tensor<1x4x4x8xf32>
  return %o : tensor<1x4x4x8xf32>
}

// -----

// A constant that is not a broadcast is permuted: NCHW [1, 2, 1, 3]
// (rows 1 2 3 / 4 5 6) is NHWC [1, 1, 3, 2].
// CHECK-LABEL: func @full_constant
// CHECK-NOT: tosa.transpose
// CHECK: %[[C:.*]] = "tosa.const"() <{value = dense<{{\[\[\[\[}}1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]]]> : tensor<1x1x3x2xf32>}>
// CHECK: tosa.add %arg0, %[[C]] : (tensor<1x1x3x2xf32>, tensor<1x1x3x2xf32>)
func.func @full_constant(%x: tensor<1x1x3x2xf32>) -> tensor<1x1x3x2xf32> {
  %to_nchw = "tosa.const"() {value = dense<[0, 3, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %to_nhwc = "tosa.const"() {value = dense<[0, 2, 3, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  %c = "tosa.const"() {value = dense<[[[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]]]> : tensor<1x2x1x3xf32>} : () -> tensor<1x2x1x3xf32>
  %a = tosa.transpose %x, %to_nchw : (tensor<1x1x3x2xf32>, tensor<4xi32>) -> tensor<1x2x1x3xf32>
  %s = tosa.add %a, %c : (tensor<1x2x1x3xf32>, tensor<1x2x1x3xf32>) -> tensor<1x2x1x3xf32>
  %o = tosa.transpose %s, %to_nhwc : (tensor<1x2x1x3xf32>, tensor<4xi32>) -> tensor<1x1x3x2xf32>
  return %o : tensor<1x1x3x2xf32>
}

// -----

// A U-Net skip from the graph input: the concat takes the NHWC copy the
// first convolution (here a pool) reads.
// CHECK-LABEL: func @concat_of_input
// CHECK: %[[X:.*]] = tosa.transpose %arg0
// CHECK-NOT: tosa.transpose
// CHECK: %[[P:.*]] = tosa.max_pool2d %[[X]]
// CHECK-NEXT: %[[C:.*]] = tosa.concat %[[P]], %[[X]] {axis = 3 : i32} : (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x16xf32>
// CHECK-NEXT: %[[R:.*]] = tosa.transpose %[[C]]
// CHECK-NEXT: return %[[R]] : tensor<1x16x4x4xf32>
func.func @concat_of_input(%x: tensor<1x8x4x4xf32>) -> tensor<1x16x4x4xf32> {
  %to_nchw = "tosa.const"() {value = dense<[0, 3, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %to_nhwc = "tosa.const"() {value = dense<[0, 2, 3, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  %a = tosa.transpose %x, %to_nhwc : (tensor<1x8x4x4xf32>, tensor<4xi32>) -> tensor<1x4x4x8xf32>
  %p = tosa.max_pool2d %a {kernel = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  %b = tosa.transpose %p, %to_nchw : (tensor<1x4x4x8xf32>, tensor<4xi32>) -> tensor<1x8x4x4xf32>
  %c = tosa.concat %b, %x {axis = 1 : i32} : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) -> tensor<1x16x4x4xf32>
  return %c : tensor<1x16x4x4xf32>
}

// -----

// A feature map flattened to [N, C, H*W] and transposed to [N, H*W, C] (a
// patch embedding before attention) is the NHWC map reshaped.
// CHECK-LABEL: func @patch_embedding
// CHECK-NOT: tosa.transpose
// CHECK: %[[R:.*]] = tosa.reshape %arg0 {new_shape = array<i64: 1, 12, 8>} : (tensor<1x3x4x8xf32>) -> tensor<1x12x8xf32>
// CHECK-NEXT: return %[[R]]
func.func @patch_embedding(%x: tensor<1x3x4x8xf32>) -> tensor<1x12x8xf32> {
  %to_nchw = "tosa.const"() {value = dense<[0, 3, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %swap = "tosa.const"() {value = dense<[0, 2, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %a = tosa.transpose %x, %to_nchw : (tensor<1x3x4x8xf32>, tensor<4xi32>) -> tensor<1x8x3x4xf32>
  %f = tosa.reshape %a {new_shape = array<i64: 1, 8, 12>} : (tensor<1x8x3x4xf32>) -> tensor<1x8x12xf32>
  %t = tosa.transpose %f, %swap : (tensor<1x8x12xf32>, tensor<3xi32>) -> tensor<1x12x8xf32>
  return %t : tensor<1x12x8xf32>
}

// -----

// Splitting a dimension: NCHW [1, 8, 3, 4] viewed as [1, 2, 4, 12] is not a
// merge of adjacent NHWC dimensions (C then H*W), but [1, 2, 4, 3, 4] splits C
// alone and becomes a reshape of NHWC [1, 3, 4, 2, 4] and a transpose.
// CHECK-LABEL: func @split_channels
// CHECK: %[[R:.*]] = tosa.reshape %arg0 {new_shape = array<i64: 1, 3, 4, 2, 4>} : (tensor<1x3x4x8xf32>) -> tensor<1x3x4x2x4xf32>
// CHECK-NEXT: %[[T:.*]] = tosa.transpose %[[R]], %{{.*}} : (tensor<1x3x4x2x4xf32>, tensor<5xi32>) -> tensor<1x2x4x3x4xf32>
// CHECK-NEXT: return %[[T]]
func.func @split_channels(%x: tensor<1x3x4x8xf32>) -> tensor<1x2x4x3x4xf32> {
  %to_nchw = "tosa.const"() {value = dense<[0, 3, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %a = tosa.transpose %x, %to_nchw : (tensor<1x3x4x8xf32>, tensor<4xi32>) -> tensor<1x8x3x4xf32>
  %f = tosa.reshape %a {new_shape = array<i64: 1, 2, 4, 3, 4>} : (tensor<1x8x3x4xf32>) -> tensor<1x2x4x3x4xf32>
  return %f : tensor<1x2x4x3x4xf32>
}

// -----

// Flattening C, H and W together for a dense layer needs the data in NCHW
// order: the transpose stays.
// CHECK-LABEL: func @flatten_stays
// CHECK: %[[T:.*]] = tosa.transpose %arg0
// CHECK-NEXT: %[[R:.*]] = tosa.reshape %[[T]] {new_shape = array<i64: 1, 96>}
func.func @flatten_stays(%x: tensor<1x3x4x8xf32>) -> tensor<1x96xf32> {
  %to_nchw = "tosa.const"() {value = dense<[0, 3, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %a = tosa.transpose %x, %to_nchw : (tensor<1x3x4x8xf32>, tensor<4xi32>) -> tensor<1x8x3x4xf32>
  %f = tosa.reshape %a {new_shape = array<i64: 1, 96>} : (tensor<1x8x3x4xf32>) -> tensor<1x96xf32>
  return %f : tensor<1x96xf32>
}

// -----

// A permutation that is its own inverse: the transpose being sunk is not a
// transposed copy of the add's other operand to reuse (that loops forever).
// CHECK-LABEL: func @self_inverse
// CHECK: %[[T:.*]] = tosa.transpose %arg0
// CHECK-NEXT: %[[S:.*]] = tosa.add %[[T]], %arg0
// CHECK-NEXT: return %[[S]]
func.func @self_inverse(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %p = "tosa.const"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %t = tosa.transpose %x, %p : (tensor<3x3xf32>, tensor<2xi32>) -> tensor<3x3xf32>
  %s = tosa.add %t, %x : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  return %s : tensor<3x3xf32>
}

// -----

// A constant held as a resource blob is not permuted here: nothing moves.
// CHECK-LABEL: func @resource_constant
// CHECK: %[[T:.*]] = tosa.transpose %arg0
// CHECK-NEXT: tosa.add %[[T]], %{{.*}} : (tensor<1x2x1x2xf32>, tensor<1x2x1x2xf32>)
func.func @resource_constant(%x: tensor<1x1x2x2xf32>) -> tensor<1x2x1x2xf32> {
  %to_nchw = "tosa.const"() {value = dense<[0, 3, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %c = "tosa.const"() {value = dense_resource<blob> : tensor<1x2x1x2xf32>} : () -> tensor<1x2x1x2xf32>
  %a = tosa.transpose %x, %to_nchw : (tensor<1x1x2x2xf32>, tensor<4xi32>) -> tensor<1x2x1x2xf32>
  %s = tosa.add %a, %c : (tensor<1x2x1x2xf32>, tensor<1x2x1x2xf32>) -> tensor<1x2x1x2xf32>
  return %s : tensor<1x2x1x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// A transpose sinks through quantize and dequantize composites: the body
// is the same computation on permuted tensors (its constants permuted), and
// a per-axis composite's axis follows its dimension (1 in NCHW is 3 in
// NHWC). Between two NHWC convolutions the pair cancels.
// CHECK-LABEL: func @quant_composites
// CHECK-NEXT: %[[Q:.*]] = nnapi.composite "quantize"(%arg0) {composite_attributes = {axis = 3 : i64, scale = array<f32: 5.000000e-01, 2.500000e-01>, zero_point = array<i64: 0, 1>}} : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xi8>
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<1x4x4x2xf32>):
// CHECK-NEXT: %[[S:.*]] = "tosa.const"() <{value = dense<{{\[\[\[\[}}5.000000e-01, 2.500000e-01]]]]> : tensor<1x1x1x2xf32>}>
// CHECK-NEXT: "tosa.const"() <{value = dense<0.000000e+00> : tensor<1x4x4x2xf32>}>
// CHECK-NEXT: tosa.add {{.*}} -> tensor<1x4x4x2xf32>
// CHECK-NEXT: %[[D:.*]] = arith.divf %[[A]], %{{.*}} : tensor<1x4x4x2xf32>
// CHECK-NEXT: %[[C:.*]] = tosa.cast %[[D]] : (tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xi8>
// CHECK-NEXT: nnapi.yield %[[C]] : tensor<1x4x4x2xi8>
// CHECK: %[[DQ:.*]] = nnapi.composite "dequantize"(%[[Q]]) {{.*}} : (tensor<1x4x4x2xi8>) -> tensor<1x4x4x2xf32>
// CHECK-NOT: tosa.transpose
// CHECK: return %[[DQ]]
func.func @quant_composites(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %to_nchw = "tosa.const"() <{value = dense<[0, 3, 1, 2]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %to_nhwc = "tosa.const"() <{value = dense<[0, 2, 3, 1]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %t = tosa.transpose %x, %to_nchw : (tensor<1x4x4x2xf32>, tensor<4xi32>) -> tensor<1x2x4x4xf32>
  %q = nnapi.composite "quantize"(%t) {composite_attributes = {axis = 1 : i64, scale = array<f32: 0.5, 0.25>, zero_point = array<i64: 0, 1>}} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xi8> {
  ^bb0(%a: tensor<1x2x4x4xf32>):
    %s = "tosa.const"() <{value = dense<[[[[0.5]], [[0.25]]]]> : tensor<1x2x1x1xf32>}> : () -> tensor<1x2x1x1xf32>
    %zeros = "tosa.const"() <{value = dense<0.0> : tensor<1x2x4x4xf32>}> : () -> tensor<1x2x4x4xf32>
    %b = tosa.add %zeros, %s : (tensor<1x2x4x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x4x4xf32>
    %d = arith.divf %a, %b : tensor<1x2x4x4xf32>
    %c = tosa.cast %d : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xi8>
    nnapi.yield %c : tensor<1x2x4x4xi8>
  }
  %dq = nnapi.composite "dequantize"(%q) {composite_attributes = {axis = 1 : i64, scale = array<f32: 0.5, 0.25>, zero_point = array<i64: 0, 1>}} : (tensor<1x2x4x4xi8>) -> tensor<1x2x4x4xf32> {
  ^bb0(%a: tensor<1x2x4x4xi8>):
    %f = tosa.cast %a : (tensor<1x2x4x4xi8>) -> tensor<1x2x4x4xf32>
    nnapi.yield %f : tensor<1x2x4x4xf32>
  }
  %back = tosa.transpose %dq, %to_nhwc : (tensor<1x2x4x4xf32>, tensor<4xi32>) -> tensor<1x4x4x2xf32>
  return %back : tensor<1x4x4x2xf32>
}

// -----

// A quantize with a scale computed at run time (DynamicQuantizeLinear): the
// true division (arith, same-shape operands) by the scale broadcast to the
// full shape (an add of a 1x1x1x1 tensor and a splat) is element-wise too;
// the broadcast is rebuilt in the new layout and the transposes meet.
// CHECK-LABEL: func @runtime_scale_division
// CHECK-NOT: tosa.transpose
// CHECK: %[[Z:.*]] = "tosa.const"() <{value = dense<0.000000e+00> : tensor<1x4x4x8xf32>}>
// CHECK: %[[B:.*]] = tosa.add %arg1, %[[Z]] : (tensor<1x1x1x1xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
// CHECK-NEXT: %[[D:.*]] = arith.divf %arg0, %[[B]] : tensor<1x4x4x8xf32>
// CHECK-NEXT: %[[C:.*]] = tosa.cast %[[D]] : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xi32>
// CHECK-NEXT: return %[[C]]
func.func @runtime_scale_division(%x: tensor<1x4x4x8xf32>, %s: tensor<1x1x1x1xf32>) -> tensor<1x4x4x8xi32> {
  %to_nchw = "tosa.const"() {value = dense<[0, 3, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %to_nhwc = "tosa.const"() {value = dense<[0, 2, 3, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  %zeros = "tosa.const"() {value = dense<0.0> : tensor<1x8x4x4xf32>} : () -> tensor<1x8x4x4xf32>
  %a = tosa.transpose %x, %to_nchw : (tensor<1x4x4x8xf32>, tensor<4xi32>) -> tensor<1x8x4x4xf32>
  %b = tosa.add %s, %zeros : (tensor<1x1x1x1xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %d = arith.divf %a, %b : tensor<1x8x4x4xf32>
  %c = tosa.cast %d : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xi32>
  %r = tosa.transpose %c, %to_nhwc : (tensor<1x8x4x4xi32>, tensor<4xi32>) -> tensor<1x4x4x8xi32>
  return %r : tensor<1x4x4x8xi32>
}

// -----

// A broadcast another op also reads stays, and so does the transpose.
// CHECK-LABEL: func @shared_broadcast
// CHECK: tosa.transpose
// CHECK: arith.divf
func.func @shared_broadcast(%x: tensor<1x4x4x8xf32>, %s: tensor<1x1x1x1xf32>) -> (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) {
  %to_nchw = "tosa.const"() {value = dense<[0, 3, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %zeros = "tosa.const"() {value = dense<0.0> : tensor<1x8x4x4xf32>} : () -> tensor<1x8x4x4xf32>
  %a = tosa.transpose %x, %to_nchw : (tensor<1x4x4x8xf32>, tensor<4xi32>) -> tensor<1x8x4x4xf32>
  %b = tosa.add %s, %zeros : (tensor<1x1x1x1xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %d = arith.divf %a, %b : tensor<1x8x4x4xf32>
  return %d, %b : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>
}
