// RUN: nnapi-opt %s -split-input-file -nnapi-codegen-prepare="vector-bits=128" | FileCheck %s

// Filters [F, KH, KW, C] are transposed at compile time to [KH, KW, C, F]:
// F = 3 filters of C = 2 channels, W[f][c] = 2f + c + 1.
// CHECK-LABEL: func.func @constant_filter
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1.000000e+00, 3.000000e+00, 5.000000e+00], [2.000000e+00, 4.000000e+00, 6.000000e+00]]]]> : tensor<1x1x2x3xf32>
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%arg0, %[[W]] :
// CHECK-NOT: linalg.transpose
func.func @constant_filter(%x: tensor<1x4x4x2xf32>, %init: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
  %w = arith.constant dense<[[[[1.0, 2.0]]], [[[3.0, 4.0]]], [[[5.0, 6.0]]]]> : tensor<3x1x1x2xf32>
  %0 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x4x4x2xf32>, tensor<3x1x1x2xf32>) outs(%init : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

// A filter computed at run time is transposed at run time.
// CHECK-LABEL: func.func @runtime_filter
// CHECK: %[[T:.*]] = linalg.transpose ins(%arg1 : tensor<3x1x1x2xf32>) outs({{.*}} : tensor<1x1x2x3xf32>) permutation = [1, 2, 3, 0]
// CHECK: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%arg0, %[[T]] :
func.func @runtime_filter(%x: tensor<1x4x4x2xf32>, %w: tensor<3x1x1x2xf32>, %init: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
  %0 = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x4x4x2xf32>, tensor<3x1x1x2xf32>) outs(%init : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

// A multiplier-1 depthwise convolution drops the multiplier dimension; the
// filter constant is reshaped at compile time.
// CHECK-LABEL: func.func @depthwise
// CHECK: %[[W:.*]] = arith.constant dense<{{.*}}> : tensor<3x3x4xf32>
// CHECK: %[[F:.*]] = linalg.fill {{.*}} -> tensor<1x2x2x4xf32>
// CHECK: %[[C:.*]] = linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%arg0, %[[W]] : tensor<1x4x4x4xf32>, tensor<3x3x4xf32>) outs(%[[F]] : tensor<1x2x2x4xf32>)
// CHECK: return %[[C]]
func.func @depthwise(%x: tensor<1x4x4x4xf32>) -> tensor<1x2x2x4xf32> {
  %w = arith.constant dense<[[[[1.0], [2.0], [3.0], [4.0]], [[1.0], [2.0], [3.0], [4.0]], [[1.0], [2.0], [3.0], [4.0]]], [[[1.0], [2.0], [3.0], [4.0]], [[1.0], [2.0], [3.0], [4.0]], [[1.0], [2.0], [3.0], [4.0]]], [[[1.0], [2.0], [3.0], [4.0]], [[1.0], [2.0], [3.0], [4.0]], [[1.0], [2.0], [3.0], [4.0]]]]> : tensor<3x3x4x1xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x2x4x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x2x4x1xf32>) -> tensor<1x2x2x4x1xf32>
  %0 = linalg.depthwise_conv_2d_nhwc_hwcm {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x4x4x4xf32>, tensor<3x3x4x1xf32>) outs(%f : tensor<1x2x2x4x1xf32>) -> tensor<1x2x2x4x1xf32>
  %1 = tensor.collapse_shape %0 [[0], [1], [2], [3, 4]] : tensor<1x2x2x4x1xf32> into tensor<1x2x2x4xf32>
  return %1 : tensor<1x2x2x4xf32>
}

// -----

// A matmul by a constant [K, N] = [2, 16] becomes a contraction with the
// constant packed into panels [N / P, K, P] of P = 8 columns (two 128-bit
// vectors): B[k][n] = 16k + n.
// CHECK-LABEL: func.func @packed_matmul
// CHECK: %[[P:.*]] = arith.constant dense<{{\[\[\[}}0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00], [1.600000e+01, 1.700000e+01, 1.800000e+01, 1.900000e+01, 2.000000e+01, 2.100000e+01, 2.200000e+01, 2.300000e+01]], {{\[\[}}8.000000e+00, {{.*}}1.500000e+01], [2.400000e+01, {{.*}}3.100000e+01]]]> : tensor<2x2x8xf32>
// CHECK: %[[C:.*]] = tensor.expand_shape %arg1 {{\[\[}}0], [1, 2]] output_shape [3, 2, 8] : tensor<3x16xf32> into tensor<3x2x8xf32>
// CHECK: %[[G:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %[[P]] : tensor<3x2xf32>, tensor<2x2x8xf32>) outs(%[[C]] : tensor<3x2x8xf32>)
// CHECK: tensor.collapse_shape %[[G]] {{\[\[}}0], [1, 2]] : tensor<3x2x8xf32> into tensor<3x16xf32>
func.func @packed_matmul(%a: tensor<3x2xf32>, %init: tensor<3x16xf32>) -> tensor<3x16xf32> {
  %b = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0]]> : tensor<2x16xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<3x2xf32>, tensor<2x16xf32>) outs(%init : tensor<3x16xf32>) -> tensor<3x16xf32>
  return %0 : tensor<3x16xf32>
}

// -----

// An integer matmul (the widened form of one with zero points) packs the
// same way; its contraction multiplies and adds integers.
// CHECK-LABEL: func.func @packed_integer_matmul
// CHECK: linalg.generic {{.*}} ins(%arg0, %{{.*}} : tensor<3x2xi32>, tensor<2x2x8xi32>)
// CHECK: arith.muli
// CHECK: arith.addi
func.func @packed_integer_matmul(%a: tensor<3x2xi32>, %init: tensor<3x16xi32>) -> tensor<3x16xi32> {
  %b = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]]> : tensor<2x16xi32>
  %0 = linalg.matmul ins(%a, %b : tensor<3x2xi32>, tensor<2x16xi32>) outs(%init : tensor<3x16xi32>) -> tensor<3x16xi32>
  return %0 : tensor<3x16xi32>
}

// -----

// Around a packed matmul (a 1x1 convolution: NHWC reshaped to rows), the
// bias broadcast that initializes it and the clamp after it (on the NHWC
// shape, with unit dimensions read at constant 0) take the panel shape, so
// that both fuse into the matmul's tiles.
// CHECK-LABEL: func.func @packed_matmul_neighbours
// CHECK: %[[BIAS:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}} : tensor<2x8xf32>) outs(%{{.*}} : tensor<4x2x8xf32>)
// CHECK: %[[MM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<4x2xf32>, tensor<2x2x8xf32>) outs(%[[BIAS]] : tensor<4x2x8xf32>)
// CHECK: %[[RELU:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[MM]] : tensor<4x2x8xf32>) outs(%{{.*}} : tensor<4x2x8xf32>)
// CHECK: arith.maximumf
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[RELU]] {{\[\[}}0], [1, 2]] : tensor<4x2x8xf32> into tensor<4x16xf32>
// CHECK: tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1, 2], [3]] output_shape [1, 2, 2, 16] : tensor<4x16xf32> into tensor<1x2x2x16xf32>
#rows = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
#nhwc = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @packed_matmul_neighbours(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x16xf32> {
  %b = arith.constant dense<[[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0, 31.0]]> : tensor<2x16xf32>
  %bias = arith.constant dense<[0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5]> : tensor<16xf32>
  %a = tensor.collapse_shape %x [[0, 1, 2], [3]] : tensor<1x2x2x2xf32> into tensor<4x2xf32>
  %e = tensor.empty() : tensor<4x16xf32>
  %init = linalg.generic {indexing_maps = [#bias, #rows], iterator_types = ["parallel", "parallel"]} ins(%bias : tensor<16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4x16xf32>
  %0 = linalg.matmul ins(%a, %b : tensor<4x2xf32>, tensor<2x16xf32>) outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = tensor.expand_shape %0 [[0, 1, 2], [3]] output_shape [1, 2, 2, 16] : tensor<4x16xf32> into tensor<1x2x2x16xf32>
  %e4 = tensor.empty() : tensor<1x2x2x16xf32>
  %zero = arith.constant 0.0 : f32
  %2 = linalg.generic {indexing_maps = [#nhwc, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<1x2x2x16xf32>) outs(%e4 : tensor<1x2x2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x2x2x16xf32>
  return %2 : tensor<1x2x2x16xf32>
}

// -----

// A column count that is not a multiple of the panel, or an operand that is
// not a constant: no packing.
// CHECK-LABEL: func.func @not_packed
// CHECK: linalg.matmul
// CHECK: linalg.matmul
func.func @not_packed(%a: tensor<3x2xf32>, %b: tensor<2x16xf32>, %init: tensor<3x12xf32>, %init2: tensor<3x16xf32>) -> (tensor<3x12xf32>, tensor<3x16xf32>) {
  %c = arith.constant dense<1.5> : tensor<2x12xf32>
  %0 = linalg.matmul ins(%a, %c : tensor<3x2xf32>, tensor<2x12xf32>) outs(%init : tensor<3x12xf32>) -> tensor<3x12xf32>
  %1 = linalg.matmul ins(%a, %b : tensor<3x2xf32>, tensor<2x16xf32>) outs(%init2 : tensor<3x16xf32>) -> tensor<3x16xf32>
  return %0, %1 : tensor<3x12xf32>, tensor<3x16xf32>
}

// -----

// A batch of one is a plain matmul.
// CHECK-LABEL: func.func @unit_batch
// CHECK: linalg.matmul ins({{.*}} : tensor<4x5xf32>, tensor<5x6xf32>) outs({{.*}} : tensor<4x6xf32>)
// CHECK-NOT: linalg.batch_matmul
func.func @unit_batch(%a: tensor<1x4x5xf32>, %b: tensor<1x5x6xf32>, %c: tensor<1x4x6xf32>) -> tensor<1x4x6xf32> {
  %0 = linalg.batch_matmul ins(%a, %b : tensor<1x4x5xf32>, tensor<1x5x6xf32>) outs(%c : tensor<1x4x6xf32>) -> tensor<1x4x6xf32>
  return %0 : tensor<1x4x6xf32>
}

// -----

// A padded tensor is a buffer of its own (alloc_tensor: CSE leaves it
// alone) whose border is filled, one slab per padded side, and whose
// interior the producer writes directly (its destination is replaced by the
// interior slice).
// CHECK-LABEL: func.func @pad_into_producer
// CHECK: %[[B0:.*]] = bufferization.alloc_tensor() : tensor<1x6x7x2xf32>
// CHECK: %[[TOP:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x1x7x2xf32>)
// CHECK: %[[B1:.*]] = tensor.insert_slice %[[TOP]] into %[[B0]][0, 0, 0, 0] [1, 1, 7, 2]
// CHECK: %[[BOTTOM:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x1x7x2xf32>)
// CHECK: %[[B2:.*]] = tensor.insert_slice %[[BOTTOM]] into %[[B1]][0, 5, 0, 0] [1, 1, 7, 2]
// CHECK: %[[LEFT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x2x2xf32>)
// CHECK: %[[B3:.*]] = tensor.insert_slice %[[LEFT]] into %[[B2]][0, 1, 0, 0] [1, 4, 2, 2]
// CHECK: %[[RIGHT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x1x2xf32>)
// CHECK: %[[B4:.*]] = tensor.insert_slice %[[RIGHT]] into %[[B3]][0, 1, 6, 0] [1, 4, 1, 2]
// CHECK: %[[IN:.*]] = tensor.extract_slice %[[B4]][0, 1, 2, 0] [1, 4, 4, 2]
// CHECK: %[[P:.*]] = linalg.generic {{.*}} outs(%[[IN]] : tensor<1x4x4x2xf32>)
// CHECK: tensor.insert_slice %[[P]] into %[[B4]][0, 1, 2, 0] [1, 4, 4, 2]
// CHECK-NOT: tensor.pad
func.func @pad_into_producer(%x: tensor<1x4x4x2xf32>) -> tensor<1x6x7x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x4x4x2xf32>) outs(%e : tensor<1x4x4x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x4x4x2xf32>
  %p = tensor.pad %r low[0, 1, 2, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x4x4x2xf32> to tensor<1x6x7x2xf32>
  return %p : tensor<1x6x7x2xf32>
}

// -----

// The same with dynamic height and width (issue 54): the buffer's sizes
// come from the producer's destination (which exists before the producer),
// plus the padding; the slabs along a dynamic dimension take its size.
// CHECK-LABEL: func.func @pad_dynamic_into_producer
// CHECK-SAME: (%[[X:.*]]: tensor<1x?x?x2xf32>)
// CHECK: %[[E:.*]] = tensor.empty({{.*}}) : tensor<1x?x?x2xf32>
// CHECK: %[[H:.*]] = tensor.dim %[[E]], %c1
// CHECK: %[[W:.*]] = tensor.dim %[[E]], %c2
// CHECK: %[[H2:.*]] = arith.addi %[[H]], %c2
// CHECK: %[[W3:.*]] = arith.addi %[[W]], %c3
// CHECK: %[[B0:.*]] = bufferization.alloc_tensor(%[[H2]], %[[W3]]) : tensor<1x?x?x2xf32>
// CHECK: %[[TOP:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x1x?x2xf32>)
// CHECK: %[[B1:.*]] = tensor.insert_slice %[[TOP]] into %[[B0]][0, 0, 0, 0] [1, 1, %[[W3]], 2]
// CHECK: %[[BOTTOM_AT:.*]] = arith.addi %[[H]], %c1
// CHECK: %[[BOTTOM:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x1x?x2xf32>)
// CHECK: %[[B2:.*]] = tensor.insert_slice %[[BOTTOM]] into %[[B1]][0, %[[BOTTOM_AT]], 0, 0] [1, 1, %[[W3]], 2]
// CHECK: %[[LEFT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x?x2x2xf32>)
// CHECK: %[[B3:.*]] = tensor.insert_slice %[[LEFT]] into %[[B2]][0, 1, 0, 0] [1, %[[H]], 2, 2]
// CHECK: %[[RIGHT_AT:.*]] = arith.addi %[[W]], %c2
// CHECK: %[[RIGHT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x?x1x2xf32>)
// CHECK: %[[B4:.*]] = tensor.insert_slice %[[RIGHT]] into %[[B3]][0, 1, %[[RIGHT_AT]], 0] [1, %[[H]], 1, 2]
// CHECK: %[[IN:.*]] = tensor.extract_slice %[[B4]][0, 1, 2, 0] [1, %[[H]], %[[W]], 2]
// CHECK: %[[P:.*]] = linalg.generic {{.*}} outs(%[[IN]] : tensor<1x?x?x2xf32>)
// CHECK: tensor.insert_slice %[[P]] into %[[B4]][0, 1, 2, 0] [1, %{{.*}}, %{{.*}}, 2]
// CHECK-NOT: tensor.pad
func.func @pad_dynamic_into_producer(%x: tensor<1x?x?x2xf32>) -> tensor<1x?x?x2xf32> {
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %h = tensor.dim %x, %c1 : tensor<1x?x?x2xf32>
  %w = tensor.dim %x, %c2 : tensor<1x?x?x2xf32>
  %e = tensor.empty(%h, %w) : tensor<1x?x?x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x?x?x2xf32>) outs(%e : tensor<1x?x?x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x?x?x2xf32>
  %p = tensor.pad %r low[0, 1, 2, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %zero : f32
  } : tensor<1x?x?x2xf32> to tensor<1x?x?x2xf32>
  return %p : tensor<1x?x?x2xf32>
}

// -----

// Without a producer (a function argument), the source is inserted into
// the bordered buffer: still no fill of the interior.
// CHECK-LABEL: func.func @pad_argument
// CHECK-COUNT-2: linalg.fill
// CHECK-NOT: linalg.fill
// CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 0, 1, 0] [1, 3, 3, 1]
func.func @pad_argument(%x: tensor<1x3x3x1xf32>) -> tensor<1x3x5x1xf32> {
  %cst = arith.constant -3.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 0] high[0, 0, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<1x3x3x1xf32> to tensor<1x3x5x1xf32>
  return %p : tensor<1x3x5x1xf32>
}

// -----

// A read of a unit dimension at constant 0 reads it at the loop index.
// CHECK-LABEL: func.func @unit_dim_read
// CHECK: linalg.generic {indexing_maps = [#[[ID:.*]], #[[ID]]]
func.func @unit_dim_read(%x: tensor<1x3xf32>) -> tensor<1x3xf32> {
  %e = tensor.empty() : tensor<1x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<1x3xf32>) outs(%e : tensor<1x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}

// -----

// An element-wise op that writes into one of its inputs (as
// ConvertElementwiseToLinalg writes a / b into a) writes into an empty
// tensor instead, so that the chain it belongs to has one user per link;
// its splat constant input (a quantize's scale as a tensor) is a scalar in
// the payload.
// CHECK-LABEL: func.func @divide_in_place
// CHECK: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: %[[A:.*]] = linalg.generic
// CHECK: arith.negf
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK: linalg.generic {{.*}} ins(%[[A]] : tensor<4x8xf32>) outs(%[[E]] : tensor<4x8xf32>)
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK: arith.divf %[[IN]], %[[TWO]] : f32
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @divide_in_place(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = arith.constant dense<2.0> : tensor<4x8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4x8xf32>
  %d = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%a, %s : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %q = arith.divf %in, %in2 : f32
    linalg.yield %q : f32
  } -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

// -----

// Only element-wise ops take their splat inputs into the payload: a
// reduction keeps its operands as they are.
// CHECK-LABEL: func.func @splat_in_reduction
// CHECK: %[[S:.*]] = arith.constant dense<2.000000e+00> : tensor<4x8xf32>
// CHECK: linalg.generic {{.*}} ins(%arg0, %[[S]] : tensor<4x8xf32>, tensor<4x8xf32>)
func.func @splat_in_reduction(%x: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %s = arith.constant dense<2.0> : tensor<4x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %s : tensor<4x8xf32>, tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %t = arith.addf %acc, %m : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// An attention's scores scaled by a constant: the scaling takes the shape of
// the matmul that TOSA's batch of one became (its splat operand inlined
// first), so it fuses into the matmul's tiles with dynamic sizes too.
// CHECK-LABEL: func.func @scaled_scores
// CHECK: %[[M:.*]] = linalg.matmul {{.*}} -> tensor<?x?xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%[[M]] : tensor<?x?xf32>)
// CHECK: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK: tensor.expand_shape {{.*}} into tensor<1x?x?xf32>
func.func @scaled_scores(%q: tensor<1x?x64xf32>, %k: tensor<1x64x?xf32>) -> tensor<1x?x?xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %scale = arith.constant dense<0.125> : tensor<1x1x1xf32>
  %n = tensor.dim %q, %c1 : tensor<1x?x64xf32>
  %m = tensor.dim %k, %c2 : tensor<1x64x?xf32>
  %e = tensor.empty(%n, %m) : tensor<1x?x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<1x?x?xf32>) -> tensor<1x?x?xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<1x?x64xf32>, tensor<1x64x?xf32>) outs(%z : tensor<1x?x?xf32>) -> tensor<1x?x?xf32>
  %o = tensor.empty(%n, %m) : tensor<1x?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (0, 0, 0)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %scale : tensor<1x?x?xf32>, tensor<1x1x1xf32>) outs(%o : tensor<1x?x?xf32>) {
  ^bb0(%x: f32, %c: f32, %y: f32):
    %p = arith.mulf %x, %c : f32
    linalg.yield %p : f32
  } -> tensor<1x?x?xf32>
  return %r : tensor<1x?x?xf32>
}
