// RUN: nnapi-opt %s -split-input-file -verify-diagnostics

func.func @conv_depth(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x2xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{filter input depth 2 does not match input depth 3}}
  %0 = nnapi.conv_2d %x, %w, %b padding = [0, 0, 0, 0] strides = [1, 1] dilations = [1, 1] : (tensor<1x8x8x3xf32>, tensor<4x3x3x2xf32>, tensor<4xf32>) -> tensor<1x6x6x4xf32>
  return
}

// -----

func.func @conv_bias(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<5xf32>) {
  // expected-error@+1 {{bias size 5 does not match output depth 4}}
  %0 = nnapi.conv_2d %x, %w, %b padding = [0, 0, 0, 0] strides = [1, 1] dilations = [1, 1] : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<5xf32>) -> tensor<1x6x6x4xf32>
  return
}

// -----

func.func @conv_rank(%x: tensor<8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{input must have rank 4, got 3}}
  %0 = nnapi.conv_2d %x, %w, %b padding = [0, 0, 0, 0] strides = [1, 1] dilations = [1, 1] : (tensor<8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x6x6x4xf32>
  return
}

// -----

func.func @conv_shape(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{result shape [1, 8, 8, 4] does not match the expected [1, 6, 6, 4]}}
  %0 = nnapi.conv_2d %x, %w, %b padding = [0, 0, 0, 0] strides = [1, 1] dilations = [1, 1] : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @negative_padding(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{padding must be non-negative}}
  %0 = nnapi.conv_2d %x, %w, %b padding = [-1, 0, 0, 0] strides = [1, 1] dilations = [1, 1] : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x6x6x4xf32>
  return
}

// -----

func.func @zero_stride(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{stride_w must be positive}}
  %0 = nnapi.conv_2d %x, %w, %b padding = [0, 0, 0, 0] strides = [0, 1] dilations = [1, 1] : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x6x6x4xf32>
  return
}

// -----

func.func @padding_size(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{attribute 'padding' failed to satisfy constraint: i64 dense array attribute with exactly 4 elements}}
  %0 = nnapi.conv_2d %x, %w, %b padding = [0, 0] strides = [1, 1] dilations = [1, 1] : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x6x6x4xf32>
  return
}

// -----

func.func @window_too_big(%x: tensor<1x2x2x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{the window of 3 does not fit the height 2 plus padding}}
  %0 = nnapi.conv_2d %x, %w, %b padding = [0, 0, 0, 0] strides = [1, 1] dilations = [1, 1] : (tensor<1x2x2x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x1x1x4xf32>
  return
}

// -----

func.func @depthwise_filter(%x: tensor<1x8x8x4xf32>, %w: tensor<2x3x3x4xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{depthwise filter must have shape [1, kh, kw, out]}}
  %0 = nnapi.depthwise_conv_2d %x, %w, %b padding = [1, 1, 1, 1] strides = [1, 1] dilations = [1, 1] depth_multiplier = 1 : (tensor<1x8x8x4xf32>, tensor<2x3x3x4xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @depthwise_multiplier(%x: tensor<1x8x8x4xf32>, %w: tensor<1x3x3x4xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{depthwise output depth 4 != input depth 4 * depth multiplier 2}}
  %0 = nnapi.depthwise_conv_2d %x, %w, %b padding = [1, 1, 1, 1] strides = [1, 1] dilations = [1, 1] depth_multiplier = 2 : (tensor<1x8x8x4xf32>, tensor<1x3x3x4xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @fuse_code(%a: tensor<4xf32>) {
  // expected-error@+1 {{expected string or keyword containing one of the following enum values for attribute 'fused_activation' [none, relu, relu1, relu6]}}
  %0 = nnapi.add %a, %a fused sigmoid : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @broadcast(%a: tensor<3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{shapes [3] and [4] do not broadcast}}
  %0 = nnapi.add %a, %b : (tensor<3xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @mixed_types(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error@+1 {{operands and results must share one element type, got 'f32' and 'f16'}}
  %0 = nnapi.mul %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return
}

// -----

func.func @rank5(%a: tensor<1x1x1x1x4xf32>) {
  // expected-error@+1 {{lhs must have rank 0 to 4, got 5}}
  %0 = nnapi.add %a, %a : (tensor<1x1x1x1x4xf32>, tensor<1x1x1x1x4xf32>) -> tensor<1x1x1x1x4xf32>
  return
}

// -----

func.func @int_tensor(%a: tensor<4xi32>) {
  // expected-error@+1 {{must be ranked tensor of 32-bit float or 16-bit float values}}
  %0 = nnapi.relu %a : tensor<4xi32>
  return
}

// -----

// A dynamic dimension only where the spec's shape rules compute the
// outputs (RELU has one, the sequence RNN not).
func.func @dynamic(%x: tensor<2x?x4xf32>, %w: tensor<3x4xf32>, %r: tensor<3x3xf32>, %b: tensor<3xf32>, %h: tensor<2x3xf32>) {
  // expected-error@+1 {{operand #0 must be statically shaped: NNAPI's UNIDIRECTIONAL_SEQUENCE_RNN has no shape rule for dynamic dimensions}}
  %y = nnapi.unidirectional_sequence_rnn %x, %w, %r, %b, %h fused relu {time_major = false} : (tensor<2x?x4xf32>, tensor<3x4xf32>, tensor<3x3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x?x3xf32>
  return
}

// -----

func.func @dynamic_reshape(%a: tensor<?x6xf32>) {
  // expected-error@+1 {{result has more than one dynamic dimension}}
  %0 = nnapi.reshape %a : (tensor<?x6xf32>) -> tensor<?x?xf32>
  return
}

// -----

func.func @dynamic_resize(%a: tensor<1x?x4x2xf32>) {
  // expected-error@+1 {{the result's height and width must be static (NNAPI's output size operands)}}
  %0 = nnapi.resize_bilinear %a : (tensor<1x?x4x2xf32>) -> tensor<1x?x8x2xf32>
  return
}

// -----

func.func @fc_input(%x: tensor<1x63xf32>, %w: tensor<10x64xf32>, %b: tensor<10xf32>) {
  // expected-error@+1 {{input size 63 is not a multiple of the weights' input size 64}}
  %0 = nnapi.fully_connected %x, %w, %b : (tensor<1x63xf32>, tensor<10x64xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  return
}

// -----

func.func @fc_bias(%x: tensor<1x64xf32>, %w: tensor<10x64xf32>, %b: tensor<9xf32>) {
  // expected-error@+1 {{bias size 9 does not match the number of units 10}}
  %0 = nnapi.fully_connected %x, %w, %b : (tensor<1x64xf32>, tensor<10x64xf32>, tensor<9xf32>) -> tensor<1x10xf32>
  return
}

// -----

func.func @pool_filter(%x: tensor<1x8x8x4xf32>) {
  // expected-error@+1 {{'filter' elements must be >= 1, got 0}}
  %0 = nnapi.max_pool_2d %x padding = [0, 0, 0, 0] strides = [2, 2] filter = [0, 2] : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @pool_shape(%x: tensor<1x8x8x4xf32>) {
  // expected-error@+1 {{result shape [1, 8, 8, 4] does not match the expected [1, 4, 4, 4]}}
  %0 = nnapi.average_pool_2d %x padding = [0, 0, 0, 0] strides = [2, 2] filter = [2, 2] : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return
}

// -----

func.func @reshape_count(%x: tensor<1x8xf32>) {
  // expected-error@+1 {{shape [9] has more elements than the input's 8}}
  %0 = nnapi.reshape %x : (tensor<1x8xf32>) -> tensor<9xf32>
  return
}

// -----

func.func @softmax_beta(%x: tensor<1x8xf32>) {
  // expected-error@+1 {{beta must be positive}}
  %0 = nnapi.softmax %x beta = 0.0 : tensor<1x8xf32>
  return
}

// -----

func.func @softmax_axis(%x: tensor<1x8xf32>) {
  // expected-error@+1 {{axis 2 is out of range for rank 2}}
  %0 = nnapi.softmax %x beta = 1.0 axis = 2 : tensor<1x8xf32>
  return
}

// -----

func.func @concat_dims(%a: tensor<1x4xf32>, %b: tensor<2x4xf32>) {
  // expected-error@+1 {{input 1 differs from the first in dimension 0 (2 vs 1), not the concatenation axis}}
  %0 = nnapi.concatenation %a, %b axis = 1 : (tensor<1x4xf32>, tensor<2x4xf32>) -> tensor<1x8xf32>
  return
}

// -----

func.func @concat_result(%a: tensor<1x4xf32>, %b: tensor<1x4xf32>) {
  // expected-error@+1 {{result shape [1, 4] does not match the expected [1, 8]}}
  %0 = nnapi.concatenation %a, %b axis = 1 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return
}

// -----

// expected-error@+1 {{'nnapi.feature_level' must be an integer feature level in 1..8}}
func.func @bad_level() attributes {nnapi.feature_level = 9 : i32} {
  return
}

// -----

// expected-error@+1 {{unknown nnapi attribute 'nnapi.bogus'}}
func.func @bad_attr() attributes {nnapi.bogus} {
  return
}

// -----

// expected-error@+1 {{'nnapi.static_shapes' must be an array of static shapes (array<i64>)}}
func.func @bad_static_shapes() attributes {nnapi.static_shapes = [array<i64: 2, -1>]} {
  return
}

// -----

// A typical size for each dynamic dimension, within its declared range.
// expected-error@+1 {{'nnapi.dim_typical' of argument 0: size 300 is outside the range [2..128] of dynamic dimension 1}}
func.func @typical_outside_range(%x: tensor<?x?xf32> {nnapi.dim_ranges = array<i64: 1, 8, 2, 128>, nnapi.dim_typical = array<i64: 4, 300>}) {
  return
}

// -----

// expected-error@+1 {{'nnapi.dim_typical' of argument 0 needs a size for each of its dynamic dimensions}}
func.func @typical_count(%x: tensor<1x?xf32> {nnapi.dim_typical = array<i64: 4, 8>}) {
  return
}

// -----

// expected-error@+1 {{'nnapi.dim_typical' must be an array<i64> on a function argument}}
func.func @typical_type(%x: tensor<1x?xf32> {nnapi.dim_typical = 4 : i64}) {
  return
}

// -----

// Without a range a dynamic dimension takes any size; 0 gives none.
func.func @typical_unbounded(%x: tensor<?x?xf32> {nnapi.dim_typical = array<i64: 0, 100000>}) {
  return
}

// -----

func.func @maximum_rank0(%x: tensor<f32>) {
  // expected-error@+1 {{lhs must have rank 1 to 4, got 0}}
  %0 = nnapi.maximum %x, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @pow_broadcast(%x: tensor<2x3xf32>, %y: tensor<2xf32>) {
  // expected-error@+1 {{shapes [2,3] and [2] do not broadcast}}
  %0 = nnapi.pow %x, %y : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @minimum_types(%x: tensor<3xf32>, %y: tensor<3xf16>) {
  // expected-error@+1 {{operands and results must share one element type, got 'f32' and 'f16'}}
  %0 = nnapi.minimum %x, %y : (tensor<3xf32>, tensor<3xf16>) -> tensor<3xf32>
  return
}

// -----

func.func @exp_rank5(%x: tensor<1x1x1x1x2xf32>) {
  // expected-error@+1 {{input must have rank 1 to 4, got 5}}
  %0 = nnapi.exp %x : tensor<1x1x1x1x2xf32>
  return
}

// -----

func.func @sin_type(%x: tensor<3xi32>) {
  // expected-error@+1 {{must be ranked tensor of 32-bit float or 16-bit float values}}
  %0 = nnapi.sin %x : tensor<3xi32>
  return
}

// -----

func.func @transpose_not_permutation(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{perm is not a permutation of the input's dimensions}}
  %0 = nnapi.transpose %x perm = [1, 1] : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @transpose_perm_size(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{perm has shape [3], expected [2]}}
  %0 = nnapi.transpose %x perm = [1, 0, 2] : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @transpose_shape(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{result shape [2, 3] does not match the expected [3, 2]}}
  %0 = nnapi.transpose %x perm = [1, 0] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @pad_negative(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{paddings must be non-negative}}
  %0 = nnapi.pad %x padding = [0, 0, -1, 0] : (tensor<2x3xf32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @pad_size(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{paddings has shape [2,1], expected [2,2]}}
  %0 = nnapi.pad_v2 %x padding = [1, 1] value = 0.0 : (tensor<2x3xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @pad_shape(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{result shape [2, 3] does not match the expected [2, 5]}}
  %0 = nnapi.pad %x padding = [0, 0, 1, 1] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @slice_out_of_bounds(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{size 3 from 6 does not fit dimension 1 of size 8}}
  %0 = nnapi.slice %x begin = [0, 6] : (tensor<4x8xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @slice_rank(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{result rank 1 differs from the input rank 2}}
  %0 = nnapi.slice %x begin = [0, 0] : (tensor<4x8xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @tile_not_multiple(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{result dimension 1 (4) is not a positive multiple of the input's (3)}}
  %0 = nnapi.tile %x : (tensor<2x3xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @mean_axis_range(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{axis 2 is out of range for rank 2}}
  %0 = nnapi.mean %x axes = [2] keep_dims : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @reduce_axis_twice(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{axis 1 appears twice}}
  %0 = nnapi.reduce_sum %x axes = [1, 1] : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @reduce_no_axes(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'axes' must have 1 to 2 elements, got 0}}
  %0 = nnapi.reduce_max %x axes = [] : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @reduce_shape(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{result shape [2] does not match the expected [2, 1]}}
  %0 = nnapi.reduce_min %x axes = [1] keep_dims : (tensor<2x3xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @batch_matmul_batch(%a: tensor<2x3x4xf32>, %b: tensor<3x4x5xf32>) {
  // expected-error@+1 {{batch dimensions differ}}
  %0 = nnapi.batch_matmul %a, %b : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x5xf32>
  return
}

// -----

func.func @batch_matmul_contracting(%a: tensor<2x3x4xf32>, %b: tensor<2x5x4xf32>) {
  // expected-error@+1 {{contracting dimensions differ (4 vs 5)}}
  %0 = nnapi.batch_matmul %a, %b : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @batch_matmul_rank(%a: tensor<3x4xf32>, %b: tensor<1x4x5xf32>) {
  // expected-error@+1 {{inputs have ranks 2 and 3; they must be equal}}
  %0 = nnapi.batch_matmul %a, %b : (tensor<3x4xf32>, tensor<1x4x5xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @hard_swish_rank5(%x: tensor<1x1x1x1x2xf32>) {
  // expected-error@+1 {{input must have rank 1 to 4, got 5}}
  %0 = nnapi.hard_swish %x : tensor<1x1x1x1x2xf32>
  return
}

// -----

func.func @transpose_conv_crop(%x: tensor<1x2x2x3xf32>, %w: tensor<4x2x2x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{padding crops the whole output}}
  %0 = nnapi.transpose_conv_2d %x, %w, %b padding = [0, 0, 3, 2] strides = [1, 1] : (tensor<1x2x2x3xf32>, tensor<4x2x2x3xf32>, tensor<4xf32>) -> tensor<1x1x3x4xf32>
  return
}

// -----

func.func @transpose_conv_shape(%x: tensor<1x2x2x3xf32>, %w: tensor<4x2x2x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{result shape [1, 4, 4, 4] does not match the expected [1, 3, 3, 4]}}
  %0 = nnapi.transpose_conv_2d %x, %w, %b padding = [0, 0, 0, 0] strides = [1, 1] : (tensor<1x2x2x3xf32>, tensor<4x2x2x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @transpose_conv_depth(%x: tensor<1x2x2x3xf32>, %w: tensor<4x2x2x2xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{filter input depth 2 does not match input depth 3}}
  %0 = nnapi.transpose_conv_2d %x, %w, %b padding = [0, 0, 0, 0] strides = [1, 1] : (tensor<1x2x2x3xf32>, tensor<4x2x2x2xf32>, tensor<4xf32>) -> tensor<1x3x3x4xf32>
  return
}

// -----

func.func @transpose_conv_stride(%x: tensor<1x2x2x3xf32>, %w: tensor<4x2x2x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{stride_w must be positive}}
  %0 = nnapi.transpose_conv_2d %x, %w, %b padding = [0, 0, 0, 0] strides = [0, 1] : (tensor<1x2x2x3xf32>, tensor<4x2x2x3xf32>, tensor<4xf32>) -> tensor<1x3x3x4xf32>
  return
}

// -----

func.func @resize_flags(%x: tensor<1x2x2x3xf32>) {
  // expected-error@+1 {{align_corners and half_pixel_centers exclude each other}}
  %0 = nnapi.resize_bilinear %x align_corners half_pixel_centers : (tensor<1x2x2x3xf32>) -> tensor<1x4x4x3xf32>
  return
}

// -----

func.func @resize_channels(%x: tensor<1x2x2x3xf32>) {
  // expected-error@+1 {{result shape [1, 4, 4, 2] does not match the expected [1, 4, 4, 3]}}
  %0 = nnapi.resize_nearest_neighbor %x : (tensor<1x2x2x3xf32>) -> tensor<1x4x4x2xf32>
  return
}

// -----

func.func @resize_rank(%x: tensor<2x2x3xf32>) {
  // expected-error@+1 {{input must have rank 4, got 3}}
  %0 = nnapi.resize_bilinear %x : (tensor<2x2x3xf32>) -> tensor<4x4x3xf32>
  return
}

// -----

func.func @prelu_broadcast(%x: tensor<1x3x4xf32>, %s: tensor<2xf32>) {
  // expected-error@+1 {{shapes [1,3,4] and [2] do not broadcast}}
  %0 = nnapi.prelu %x, %s : (tensor<1x3x4xf32>, tensor<2xf32>) -> tensor<1x3x4xf32>
  return
}

// -----

func.func @log_softmax_axis(%x: tensor<1x3x4xf32>) {
  // expected-error@+1 {{axis 3 is out of range for rank 3}}
  %0 = nnapi.log_softmax %x beta = 1.0 axis = 3 : tensor<1x3x4xf32>
  return
}

// -----

func.func @log_softmax_beta(%x: tensor<1x3x4xf32>) {
  // expected-error@+1 {{beta must be positive}}
  %0 = nnapi.log_softmax %x beta = 0.0 axis = 1 : tensor<1x3x4xf32>
  return
}

// -----

func.func @elu_rank(%x: tensor<1x1x1x1x2xf32>) {
  // expected-error@+1 {{input must have rank 1 to 4, got 5}}
  %0 = nnapi.elu %x alpha = 1.0 : tensor<1x1x1x1x2xf32>
  return
}

// -----

func.func @instance_norm_epsilon(%x: tensor<1x8x4x4xf32>) {
  // expected-error@+1 {{epsilon must be positive}}
  %0 = nnapi.instance_normalization %x gamma = 1.0 beta = 0.0 epsilon = 0.0 : tensor<1x8x4x4xf32>
  return
}

// -----

func.func @instance_norm_rank(%x: tensor<8x4x4xf32>) {
  // expected-error@+1 {{input must have rank 4, got 3}}
  %0 = nnapi.instance_normalization %x gamma = 1.0 beta = 0.0 epsilon = 1.0 : tensor<8x4x4xf32>
  return
}

// -----

func.func @mirror_pad_reflect_too_far(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{mirror padding of dimension 1 exceeds 2}}
  %0 = nnapi.mirror_pad %x padding = [0, 0, 3, 0] : (tensor<2x3xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @reverse_axis(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{axis 2 out of range}}
  %0 = nnapi.reverse %x axis = 2 : tensor<2x3xf32>
  return
}

// -----

func.func @gather_index(%x: tensor<2x3xf32>) {
  %i = arith.constant dense<[0, 3]> : tensor<2xi32>
  // expected-error@+1 {{index 3 is outside dimension 1 of size 3}}
  %0 = nnapi.gather %x[%i] axis = 1 : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<2x2xf32>
  return
}

// -----

func.func @gather_shape(%x: tensor<2x3xf32>, %i: tensor<2xi32>) {
  // expected-error@+1 {{result shape [2, 3] does not match the expected [2, 2]}}
  %0 = nnapi.gather %x[%i] axis = 1 : (tensor<2x3xf32>, tensor<2xi32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @gather_rank(%x: tensor<2x3x4x1xf32>, %i: tensor<2x2xi32>) {
  // expected-error@+1 {{has NNAPI operands the NNAPI spec refuses: GATHER: output 0 (output) has rank 5, expected one of 0, 1, 2, 3, 4}}
  %0 = nnapi.gather %x[%i] axis = 0 : (tensor<2x3x4x1xf32>, tensor<2x2xi32>) -> tensor<2x2x3x4x1xf32>
  return
}

// -----

func.func @gather_scalar_indices(%x: tensor<2x3xf32>, %i: tensor<i32>) {
  // expected-error@+1 {{indices must have rank 1 to 4, got 0}}
  %0 = nnapi.gather %x[%i] axis = 0 : (tensor<2x3xf32>, tensor<i32>) -> tensor<3xf32>
  return
}

// -----

func.func @depth_to_space_channels(%x: tensor<1x4x4x6xf32>) {
  // expected-error@+1 {{depth 6 is not a multiple of block_size^2}}
  %0 = nnapi.depth_to_space %x block_size = 2 : (tensor<1x4x4x6xf32>) -> tensor<1x8x8x1xf32>
  return
}

// -----

func.func @space_to_depth_shape(%x: tensor<1x4x4x2xf32>) {
  // expected-error@+1 {{result shape [1, 2, 2, 4] does not match the expected [1, 2, 2, 8]}}
  %0 = nnapi.space_to_depth %x block_size = 2 : (tensor<1x4x4x2xf32>) -> tensor<1x2x2x4xf32>
  return
}

// -----

func.func @grouped_conv_groups(%x: tensor<1x8x8x4xf32>, %w: tensor<6x3x3x2xf32>, %b: tensor<6xf32>) {
  // expected-error@+1 {{num_groups 4 does not divide the input depth 4 and the output depth 6}}
  %0 = nnapi.grouped_conv_2d %x, %w, %b padding = [1, 1, 1, 1] strides = [1, 1] num_groups = 4 : (tensor<1x8x8x4xf32>, tensor<6x3x3x2xf32>, tensor<6xf32>) -> tensor<1x8x8x6xf32>
  return
}

// -----

func.func @grouped_conv_depth(%x: tensor<1x8x8x6xf32>, %w: tensor<6x3x3x2xf32>, %b: tensor<6xf32>) {
  // expected-error@+1 {{filter depth 2 times num_groups 2 does not match input depth 6}}
  %0 = nnapi.grouped_conv_2d %x, %w, %b padding = [1, 1, 1, 1] strides = [1, 1] num_groups = 2 : (tensor<1x8x8x6xf32>, tensor<6x3x3x2xf32>, tensor<6xf32>) -> tensor<1x8x8x6xf32>
  return
}

// -----

func.func @channel_shuffle_groups(%x: tensor<1x6x2x3xf32>) {
  // expected-error@+1 {{num_groups 4 does not divide dimension 1 (6)}}
  %0 = nnapi.channel_shuffle %x num_groups = 4 axis = 1 : tensor<1x6x2x3xf32>
  return
}

// -----

func.func @l2_normalization_axis(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{axis -1 is out of range for rank 2}}
  %0 = nnapi.l2_normalization %x axis = -1 : tensor<2x3xf32>
  return
}

// -----

func.func @l2_normalization_rank(%x: tensor<1x2x3x4x5xf32>) {
  // expected-error@+1 {{input must have rank 1 to 4, got 5}}
  %0 = nnapi.l2_normalization %x axis = 0 : tensor<1x2x3x4x5xf32>
  return
}

// -----

func.func @local_response_radius(%x: tensor<1x7x3x3xf32>) {
  // expected-error@+1 {{radius must be non-negative}}
  %0 = nnapi.local_response_normalization %x radius = -1 bias = 1.0 alpha = 1.0 beta = 0.5 axis = 3 : tensor<1x7x3x3xf32>
  return
}

// -----

func.func @local_response_axis(%x: tensor<1x7x3x3xf32>) {
  // expected-error@+1 {{axis 4 is out of range for rank 4}}
  %0 = nnapi.local_response_normalization %x radius = 1 bias = 1.0 alpha = 1.0 beta = 0.5 axis = 4 : tensor<1x7x3x3xf32>
  return
}

// -----

func.func @select_broadcast(%c: tensor<4xi1>, %a: tensor<2x4xf32>) {
  // expected-error@+1 {{the condition and the choices must have one shape (SELECT does not broadcast)}}
  %0 = nnapi.select %c, %a, %a : (tensor<4xi1>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @compare_result(%a: tensor<2x4xf32>) {
  // expected-error@+1 {{result #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = nnapi.greater %a, %a : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @compare_types(%a: tensor<2x4xf32>, %h: tensor<2x4xf16>) {
  // expected-error@+1 {{operands must share one element type}}
  %0 = nnapi.equal %a, %h : (tensor<2x4xf32>, tensor<2x4xf16>) -> tensor<2x4xi1>
  return
}

// -----

func.func @reduce_any_float(%x: tensor<2x4xf32>) {
  // expected-error@+1 {{operand #0 must be ranked tensor of 1-bit signless integer values}}
  %0 = nnapi.reduce_any %x axes = [1] : (tensor<2x4xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @argmax_shape(%x: tensor<2x10xf32>) {
  // expected-error@+1 {{result shape [10] does not match the expected [2]}}
  %0 = nnapi.argmax %x axis = 1 : (tensor<2x10xf32>) -> tensor<10xi32>
  return
}

// -----

func.func @split_uneven(%x: tensor<2x5xf32>) {
  // expected-error@+1 {{num_splits 2 does not divide dimension 1 of size 5}}
  %0:2 = nnapi.split %x axis = 1 : (tensor<2x5xf32>) -> (tensor<2x2xf32>, tensor<2x3xf32>)
  return
}

// -----

func.func @split_result_shape(%x: tensor<2x6xf32>) {
  // expected-error@+1 {{result 1 shape [2, 2] does not match the expected [2, 3]}}
  %0:2 = nnapi.split %x axis = 1 : (tensor<2x6xf32>) -> (tensor<2x3xf32>, tensor<2x2xf32>)
  return
}

// -----

func.func @split_axis(%x: tensor<2x6xf32>) {
  // expected-error@+1 {{axis}}
  %0:2 = nnapi.split %x axis = 2 : (tensor<2x6xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  return
}

// -----

func.func @cast_shape(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{result shape [3, 2] does not match the expected [2, 3]}}
  %0 = nnapi.cast %x : (tensor<2x3xf32>) -> tensor<3x2xf16>
  return
}

// -----

func.func @cast_type(%x: tensor<2x3xi8>) {
  // expected-error@+1 {{operand #0 must be}}
  %0 = nnapi.cast %x : (tensor<2x3xi8>) -> tensor<2x3xf32>
  return
}

// -----

func.func @strided_slice_range(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{dimension 1: the range [5, 9) is empty or leaves the input's 8}}
  %0 = nnapi.strided_slice %x begin = [0, 5] end = [4, 9] strides = [1, 1] : (tensor<4x8xf32>) -> tensor<4x4xf32>
  return
}

// -----

func.func @strided_slice_stride(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'strides' elements must be >= 1, got 0}}
  %0 = nnapi.strided_slice %x begin = [0, 0] end = [4, 8] strides = [1, 0] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @strided_slice_shape(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{result shape [2, 2] does not match the expected [2, 3]}}
  %0 = nnapi.strided_slice %x begin = [0, 0] end = [4, 8] strides = [2, 3] : (tensor<4x8xf32>) -> tensor<2x2xf32>
  return
}

// -----

// expected-error@+1 {{'nnapi.bound_inputs' must map input indices to dense values}}
module attributes {nnapi.bound_inputs = {"x" = dense<1> : tensor<1xi64>}} {
}

// -----

// expected-error@+1 {{'nnapi.bound_inputs' must map input indices to dense values}}
module attributes {nnapi.bound_inputs = {"0" = 3 : i64}} {
}

// -----

func.func @composite_no_name(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'nnapi.composite' op needs a non-empty name}}
  %0 = nnapi.composite ""(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    nnapi.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @composite_arguments(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'nnapi.composite' op body takes 2 arguments but the composite has 1 inputs}}
  %0 = nnapi.composite "c"(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    nnapi.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @composite_argument_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'nnapi.composite' op body argument 0 has type 'tensor<4xf16>' but input 0 has type 'tensor<4xf32>'}}
  %0 = nnapi.composite "c"(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf16>):
    %c = tosa.cast %a : (tensor<4xf16>) -> tensor<4xf32>
    nnapi.yield %c : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @composite_no_yield(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'nnapi.composite' op body must end with nnapi.yield}}
  %0 = nnapi.composite "c"(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %c = tosa.exp %a : (tensor<4xf32>) -> tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @composite_yield_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'nnapi.composite' op body yields 2 values but the composite has 1 results}}
  %0 = nnapi.composite "c"(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    nnapi.yield %a, %a : tensor<4xf32>, tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @composite_yield_type(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error@+1 {{'nnapi.composite' op body yields 'tensor<4xf32>' as result 0 of type 'tensor<4xf16>'}}
  %0 = nnapi.composite "c"(%x) : (tensor<4xf32>) -> tensor<4xf16> {
  ^bb0(%a: tensor<4xf32>):
    nnapi.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf16>
}

// -----

func.func @composite_from_above(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note@+1 {{required by region isolation constraints}}
  %0 = nnapi.composite "c"() : () -> tensor<4xf32> {
    // expected-error@+1 {{using value defined outside the region}}
    nnapi.yield %x : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @yield_outside(%x: tensor<4xf32>) {
  // expected-error@+1 {{'nnapi.yield' op expects parent op to be one of 'nnapi.composite, nnapi.if, nnapi.while'}}
  nnapi.yield %x : tensor<4xf32>
  return
}

// -----

func.func @bad_parallel(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'nnapi.parallel' must be a positive integer}}
  scf.for %i = %c0 to %n step %c1 {
  } {nnapi.parallel = 0 : i64}
  return
}

// -----

func.func private @body(index, index)
func.func @bad_grain(%n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'nnapi.parallel_grain' must be a positive integer}}
  func.call @body(%c0, %n) {nnapi.parallel_grain = "4"} : (index, index) -> ()
  return
}

// UNIDIRECTIONAL_SEQUENCE_LSTM: operands in their generic form, each
// group of operandSegmentSizes one NNAPI operand (0: omitted).
// -----

func.func @lstm_cifg_partial(%x: tensor<3x1x2xf32>, %w: tensor<4x2xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %s: tensor<1x4xf32>) {
  // expected-error@+1 {{the input gate's input weights, recurrent weights and bias must be all given or all omitted}}
  %0 = "nnapi.unidirectional_sequence_lstm"(%x, %w, %w, %w, %r, %r, %r, %r, %b, %b, %b, %b, %s, %s) <{operandSegmentSizes = array<i32: 1, 0, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1>}> : (tensor<3x1x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<3x1x4xf32>
  return
}

// -----

func.func @lstm_peephole_partial(%x: tensor<3x1x2xf32>, %w: tensor<4x2xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %s: tensor<1x4xf32>) {
  // expected-error@+1 {{peepholes must be given for every gate (but a coupled input gate) or for none}}
  %0 = "nnapi.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %b, %b, %b, %b, %b, %s, %s) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1>}> : (tensor<3x1x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<3x1x4xf32>
  return
}

// -----

func.func @lstm_weights_shape(%x: tensor<3x1x2xf32>, %w: tensor<4x2xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %s: tensor<1x4xf32>, %w3: tensor<4x3xf32>) {
  // expected-error@+1 {{forget gate's input weights is 'tensor<4x3xf32>', expected [4, 2]}}
  %0 = "nnapi.unidirectional_sequence_lstm"(%x, %w, %w3, %w, %w, %r, %r, %r, %r, %b, %b, %b, %b, %s, %s) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1>}> : (tensor<3x1x2xf32>, tensor<4x2xf32>, tensor<4x3xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<3x1x4xf32>
  return
}

// -----

func.func @lstm_bias_shape(%x: tensor<3x1x2xf32>, %w: tensor<4x2xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %s: tensor<1x4xf32>, %b5: tensor<5xf32>) {
  // expected-error@+1 {{cell gate's bias is 'tensor<5xf32>', expected [4]}}
  %0 = "nnapi.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %b, %b, %b5, %b, %s, %s) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1>}> : (tensor<3x1x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<5xf32>, tensor<4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<3x1x4xf32>
  return
}

// -----

func.func @lstm_projection_bias(%x: tensor<3x1x2xf32>, %w: tensor<4x2xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %s: tensor<1x4xf32>) {
  // expected-error@+1 {{a projection bias needs projection weights}}
  %0 = "nnapi.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %b, %b, %b, %b, %b, %s, %s) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1, 1>}> : (tensor<3x1x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<3x1x4xf32>
  return
}

// -----

func.func @lstm_output_size(%x: tensor<3x1x2xf32>, %w: tensor<4x2xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %s: tensor<1x4xf32>, %r2: tensor<4x2xf32>, %s2: tensor<1x2xf32>) {
  // expected-error@+1 {{without a projection the output size (2) must be the number of units (4)}}
  %0 = "nnapi.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r2, %r2, %r2, %r2, %b, %b, %b, %b, %s2, %s) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1>}> : (tensor<3x1x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<1x2xf32>, tensor<1x4xf32>) -> tensor<3x1x4xf32>
  return
}

// -----

func.func @lstm_clip(%x: tensor<3x1x2xf32>, %w: tensor<4x2xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %s: tensor<1x4xf32>) {
  // expected-error@+1 {{cell_clip and proj_clip must be 0 (off) or positive}}
  %0 = "nnapi.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %b, %b, %b, %b, %s, %s) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1>}> {cell_clip = -1.0 : f32} : (tensor<3x1x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<3x1x4xf32>
  return
}

// -----

func.func @lstm_two_results(%x: tensor<3x1x2xf32>, %w: tensor<4x2xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %s: tensor<1x4xf32>) {
  // expected-error@+1 {{has 1 or 3 results (the output, then the output and cell states), got 2}}
  %0:2 = "nnapi.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %b, %b, %b, %b, %s, %s) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1>}> : (tensor<3x1x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> (tensor<3x1x4xf32>, tensor<1x4xf32>)
  return
}

// -----

func.func @lstm_result_shape(%x: tensor<3x1x2xf32>, %w: tensor<4x2xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %s: tensor<1x4xf32>) {
  // expected-error@+1 {{result shape [1, 3, 4] does not match the expected [3, 1, 4]}}
  %0 = "nnapi.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %b, %b, %b, %b, %s, %s) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1>}> : (tensor<3x1x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x3x4xf32>
  return
}

// -----

func.func @lstm_rank(%x: tensor<3x2xf32>, %w: tensor<4x2xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %s: tensor<1x4xf32>) {
  // expected-error@+1 {{operand must have rank 3, got 2}}
  %0 = "nnapi.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %b, %b, %b, %b, %s, %s) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1>}> : (tensor<3x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<3x1x4xf32>
  return
}

// -----

func.func @if_wide_condition(%c: tensor<2xi1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{the condition must hold one boolean, not 'tensor<2xi1>'}}
  %y = nnapi.if %c : tensor<2xi1> (%x) : (tensor<4xf32>) -> tensor<4xf32>
  then {
  ^bb0(%a: tensor<4xf32>):
    %r = nnapi.relu %a : tensor<4xf32>
    nnapi.yield %r : tensor<4xf32>
  } else {
  ^bb0(%a: tensor<4xf32>):
    %r = nnapi.tanh %a : tensor<4xf32>
    nnapi.yield %r : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @if_branch_arguments(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{the else branch takes 0 block arguments; it must take the op's 1 inputs}}
  %y = nnapi.if %c : tensor<i1> (%x) : (tensor<4xf32>) -> tensor<4xf32>
  then {
  ^bb0(%a: tensor<4xf32>):
    %r = nnapi.relu %a : tensor<4xf32>
    nnapi.yield %r : tensor<4xf32>
  } else {
    %r = arith.constant dense<0.0> : tensor<4xf32>
    nnapi.yield %r : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @if_branch_yield(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{the then branch yields 'tensor<4xf16>'; it must yield 'tensor<4xf32>'}}
  %y = nnapi.if %c : tensor<i1> (%x) : (tensor<4xf32>) -> tensor<4xf32>
  then {
  ^bb0(%a: tensor<4xf32>):
    %r = nnapi.cast %a : (tensor<4xf32>) -> tensor<4xf16>
    nnapi.yield %r : tensor<4xf16>
  } else {
  ^bb0(%a: tensor<4xf32>):
    %r = nnapi.tanh %a : tensor<4xf32>
    nnapi.yield %r : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @if_argument_type(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{block argument 0 of the then branch is 'tensor<4xf16>', input 0 is 'tensor<4xf32>'}}
  %y = nnapi.if %c : tensor<i1> (%x) : (tensor<4xf32>) -> tensor<4xf32>
  then {
  ^bb0(%a: tensor<4xf16>):
    %r = nnapi.cast %a : (tensor<4xf16>) -> tensor<4xf32>
    nnapi.yield %r : tensor<4xf32>
  } else {
  ^bb0(%a: tensor<4xf32>):
    %r = nnapi.tanh %a : tensor<4xf32>
    nnapi.yield %r : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @if_captures(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note@+1 {{required by region isolation constraints}}
  %y = nnapi.if %c : tensor<i1> () : () -> tensor<4xf32>
  then {
    // expected-error@+1 {{using value defined outside the region}}
    %r = nnapi.relu %x : tensor<4xf32>
    nnapi.yield %r : tensor<4xf32>
  } else {
    %r = nnapi.tanh %x : tensor<4xf32>
    nnapi.yield %r : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @while_results(%n: tensor<1xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{its results 'tensor<2xf32>' must be the types of its first inputs 'tensor<1xf32>'}}
  %i = nnapi.while (%n) : (tensor<1xf32>) -> tensor<2xf32>
  condition {
  ^bb0(%a: tensor<1xf32>):
    %k = nnapi.greater %a, %a : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
    nnapi.yield %k : tensor<1xi1>
  } body {
  ^bb0(%a: tensor<1xf32>):
    %s = nnapi.relu %a : tensor<1xf32>
    nnapi.yield %s : tensor<1xf32>
  }
  return %i : tensor<2xf32>
}

// -----

func.func @while_condition(%n: tensor<1xf32>) -> tensor<1xf32> {
  // expected-error@+1 {{the condition must yield one boolean tensor, not 'tensor<1xf32>'}}
  %i = nnapi.while (%n) : (tensor<1xf32>) -> tensor<1xf32>
  condition {
  ^bb0(%a: tensor<1xf32>):
    %k = nnapi.relu %a : tensor<1xf32>
    nnapi.yield %k : tensor<1xf32>
  } body {
  ^bb0(%a: tensor<1xf32>):
    %s = nnapi.relu %a : tensor<1xf32>
    nnapi.yield %s : tensor<1xf32>
  }
  return %i : tensor<1xf32>
}

// -----

func.func @rnn_recurrent(%x: tensor<3x1x2xf32>, %w: tensor<4x2xf32>, %r: tensor<4x3xf32>, %b: tensor<4xf32>, %h: tensor<1x4xf32>) {
  // expected-error@+1 {{the recurrent weights is 'tensor<4x3xf32>', expected [4, 4]}}
  %0 = nnapi.unidirectional_sequence_rnn %x, %w, %r, %b, %h fused relu : (tensor<3x1x2xf32>, tensor<4x2xf32>, tensor<4x3xf32>, tensor<4xf32>, tensor<1x4xf32>) -> tensor<3x1x4xf32>
  return
}

// -----

func.func @rnn_batch_major(%x: tensor<3x1x2xf32>, %w: tensor<4x2xf32>, %r: tensor<4x4xf32>, %b: tensor<4xf32>, %h: tensor<3x4xf32>) {
  // expected-error@+1 {{the output is 'tensor<1x3x4xf32>', expected [3, 1, 4]}}
  %0 = nnapi.unidirectional_sequence_rnn %x, %w, %r, %b, %h {time_major = false} : (tensor<3x1x2xf32>, tensor<4x2xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<3x4xf32>) -> tensor<1x3x4xf32>
  return
}

// -----

// expected-error@+1 {{'nnapi.placement_threads' must be a thread count in 1..256 on a module}}
module attributes {nnapi.placement_threads = 0 : i32} {
}

// -----

module {
  // expected-error@+1 {{'nnapi.placement_threads' must be a thread count in 1..256 on a module}}
  func.func @f() attributes {nnapi.placement_threads = 2 : i32} {
    return
  }
}
