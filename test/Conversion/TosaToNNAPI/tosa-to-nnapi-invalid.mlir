// RUN: nnapi-opt %s -split-input-file -convert-tosa-to-nnapi -verify-diagnostics

func.func @leftover(%x: tensor<4xf32>) -> tensor<4xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'tosa.ceil' has no NNAPI lowering}}
  %0 = tosa.ceil %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @too_new(%x: tensor<4xf16>) -> tensor<4xf16> attributes {nnapi.partition, nnapi.feature_level = 2 : i32} {
  // expected-error@+1 {{'nnapi.add' cannot run on NNAPI: needs NNAPI feature level 3 (float16 operands), the target is 2}}
  %0 = tosa.add %x, %x : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// Dilations arrived with feature level 3 (the host device standing in for a
// level-2 device gives the same reason: HostNNAPIAtLevel2 in unittests).
func.func @dilated(%x: tensor<1x8x8x3xf32>) -> tensor<1x4x4x4xf32> attributes {nnapi.partition, nnapi.feature_level = 2 : i32} {
  %w = "tosa.const"() {value = dense<0.5> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %b = "tosa.const"() {value = dense<0.1> : tensor<4xf32>} : () -> tensor<4xf32>
  // expected-error@+1 {{'nnapi.conv_2d' cannot run on NNAPI: needs NNAPI feature level 3 (dilations other than 1), the target is 2}}
  %0 = tosa.conv2d %x, %w, %b {dilation = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// Rank-0 operands arrived with feature level 3.
func.func @rank0(%x: tensor<f32>) -> tensor<f32> attributes {nnapi.partition, nnapi.feature_level = 2 : i32} {
  // expected-error@+1 {{'nnapi.add' cannot run on NNAPI: needs NNAPI feature level 3 (input0 of rank 0), the target is 2}}
  %0 = tosa.add %x, %x : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// A pattern's reason for not converting an op is the error.
func.func @perms(%x: tensor<2x4xf32>, %p: tensor<2xi32>) -> tensor<4x2xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'tosa.transpose' cannot run on NNAPI: perms must be a constant}}
  %0 = tosa.transpose %x, %p : (tensor<2x4xf32>, tensor<2xi32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

// The nnapi op's verifier judges ranks: NNAPI tensors have rank 4 at most.
func.func @rank5(%x: tensor<1x1x1x1x4xf32>) -> tensor<1x1x1x1x4xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.add' op lhs must have rank 0 to 4, got 5}}
  %0 = tosa.add %x, %x : (tensor<1x1x1x1x4xf32>, tensor<1x1x1x1x4xf32>) -> tensor<1x1x1x1x4xf32>
  return %0 : tensor<1x1x1x1x4xf32>
}

// -----

// ONNX output_padding extends the output with bias-only rows.
func.func @transpose_conv_output_padding(%x: tensor<1x4x4x3xf32>) -> tensor<1x10x10x2xf32> attributes {nnapi.partition} {
  %w = "tosa.const"() {value = dense<0.5> : tensor<2x2x2x3xf32>} : () -> tensor<2x2x2x3xf32>
  %b = "tosa.const"() {value = dense<0.1> : tensor<2xf32>} : () -> tensor<2xf32>
  // expected-error@+1 {{'tosa.transpose_conv2d' cannot run on NNAPI: out_pad [0, 1, 0, 1] extends the output (ONNX output_padding); NNAPI's padding only crops}}
  %0 = tosa.transpose_conv2d %x, %w, %b {out_pad = array<i64: 0, 1, 0, 1>, out_shape = array<i64: 1, 10, 10, 2>, stride = array<i64: 2, 2>} : (tensor<1x4x4x3xf32>, tensor<2x2x2x3xf32>, tensor<2xf32>) -> tensor<1x10x10x2xf32>
  return %0 : tensor<1x10x10x2xf32>
}

// -----

// A sampling offset no NNAPI flag gives (a quarter pixel).
func.func @resize_offset(%x: tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'tosa.resize' cannot run on NNAPI: scale [4, 2, 4, 2] and offset [1, 1] sample like no NNAPI resize (asymmetric, half-pixel centers or aligned corners)}}
  %0 = tosa.resize %x {scale = array<i64: 4, 2, 4, 2>, offset = array<i64: 1, 1>, border = array<i64: 3, 3>, mode = "BILINEAR"} : (tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @gather_computed_rows(%v: tensor<2x4x3xf32>, %i: tensor<2x2xi32>) -> tensor<2x2x3xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'tosa.gather' cannot run on NNAPI: indices computed at run time must have one row (NNAPI's GATHER takes the same indices for every batch)}}
  %0 = tosa.gather %v, %i : (tensor<2x4x3xf32>, tensor<2x2xi32>) -> tensor<2x2x3xf32>
  return %0 : tensor<2x2x3xf32>
}

// -----

func.func @gather_per_batch(%v: tensor<2x4x3xf32>) -> tensor<2x2x3xf32> attributes {nnapi.partition} {
  %i = "tosa.const"() {value = dense<[[3, 1], [0, 1]]> : tensor<2x2xi32>} : () -> tensor<2x2xi32>
  // expected-error@+1 {{'tosa.gather' cannot run on NNAPI: indices differ between batches}}
  %0 = tosa.gather %v, %i : (tensor<2x4x3xf32>, tensor<2x2xi32>) -> tensor<2x2x3xf32>
  return %0 : tensor<2x2x3xf32>
}

// -----

// DepthToSpace's CRD mode has no NNAPI operation; its rank-6 transpose is
// beyond NNAPI's rank 4.
func.func @depth_to_space_crd(%x: tensor<1x8x3x2xf32>) -> tensor<1x2x6x4xf32> attributes {nnapi.partition} {
  %p = "tosa.const"() {value = dense<[0, 1, 4, 2, 5, 3]> : tensor<6xi32>} : () -> tensor<6xi32>
  // expected-error@+1 {{'nnapi.reshape' op result must have rank 1 to 4, got 6}}
  %0 = tosa.reshape %x {new_shape = array<i64: 1, 2, 2, 2, 3, 2>} : (tensor<1x8x3x2xf32>) -> tensor<1x2x2x2x3x2xf32>
  // expected-error@+1 {{'nnapi.transpose' op input must have rank 1 to 4, got 6}}
  %1 = tosa.transpose %0, %p : (tensor<1x2x2x2x3x2xf32>, tensor<6xi32>) -> tensor<1x2x3x2x2x2xf32>
  // expected-error@+1 {{'nnapi.reshape' op input must have rank 1 to 4, got 6}}
  %2 = tosa.reshape %1 {new_shape = array<i64: 1, 2, 6, 4>} : (tensor<1x2x3x2x2x2xf32>) -> tensor<1x2x6x4xf32>
  return %2 : tensor<1x2x6x4xf32>
}

// -----

// A zero scale (which TOSA's verifier lets through) is refused, not divided
// by.
func.func @resize_zero_scale(%x: tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'tosa.resize' cannot run on NNAPI: scale [0, 2, 4, 2] must be positive}}
  %0 = tosa.resize %x {scale = array<i64: 0, 2, 4, 2>, offset = array<i64: 0, 0>, border = array<i64: 0, 0>, mode = "NEAREST_NEIGHBOR"} : (tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
  return %0 : tensor<1x8x8x3xf32>
}

// -----

func.func @select_broadcast(%c: tensor<1x4xi1>, %a: tensor<2x4xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.select' op the condition and the choices must have one shape (SELECT does not broadcast)}}
  %0 = tosa.select %c, %a, %b : (tensor<1x4xi1>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Integer comparisons have no float NNAPI form here.
func.func @int_compare(%a: tensor<4xi32>) -> tensor<4xi1> attributes {nnapi.partition} {
  // expected-error@+1 {{'tosa.greater' cannot run on NNAPI: operand 0 has element type 'i32'; only f32, f16 and i1 are supported}}
  %0 = tosa.greater %a, %a : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @cast_float_to_int(%x: tensor<4xf32>) -> tensor<4xi32> attributes {nnapi.partition} {
  // expected-error@+1 {{'tosa.cast' cannot run on NNAPI: NNAPI leaves the rounding of a float to an integer unspecified; TOSA rounds to nearest}}
  %0 = tosa.cast %x : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @cast_int8(%x: tensor<4xi8>) -> tensor<4xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'tosa.cast' cannot run on NNAPI: operand 0 has element type 'i8'; only f32, f16, i1 and i32 are supported}}
  %0 = tosa.cast %x : (tensor<4xi8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A composite of a name the conversion does not know stays whole: one
// error for it, none for the ops of its body.
func.func @unknown_composite(%x: tensor<4xf32>) -> tensor<4xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: composite 'my_gelu' has no NNAPI lowering}}
  %0 = nnapi.composite "my_gelu"(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    %c = tosa.ceil %a : (tensor<4xf32>) -> tensor<4xf32>
    nnapi.yield %c : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

// Composites written by hand (or by another producer) that do not have the
// form nnapi-mlir/Transforms/Composites.h gives their name.
func.func @composite_inputs(%x: tensor<4xf32>) -> tensor<4xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: composite 'prelu' takes x, slope; got 1 input(s)}}
  %0 = nnapi.composite "prelu"(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    nnapi.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}

// -----

func.func @composite_int_parameter(%x: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: composite 'softmax' has no integer parameter 'axis'}}
  %0 = nnapi.composite "softmax"(%x) {composite_attributes = {axis = 1.0 : f32}} : (tensor<2x4xf32>) -> tensor<2x4xf32> {
  ^bb0(%a: tensor<2x4xf32>):
    nnapi.yield %a : tensor<2x4xf32>
  }
  return %0 : tensor<2x4xf32>
}

// -----

func.func @composite_float_parameter(%x: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: composite 'elu' has no float parameter 'alpha'}}
  %0 = nnapi.composite "elu"(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32> {
  ^bb0(%a: tensor<2x4xf32>):
    nnapi.yield %a : tensor<2x4xf32>
  }
  return %0 : tensor<2x4xf32>
}

// -----

func.func @composite_array_parameter(%x: tensor<2x4xf32>) -> tensor<2x1xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: composite 'mean' has no i64 array parameter 'axes'}}
  %0 = nnapi.composite "mean"(%x) {composite_attributes = {axes = 1 : i64}} : (tensor<2x4xf32>) -> tensor<2x1xf32> {
  ^bb0(%a: tensor<2x4xf32>):
    %s = tosa.reduce_sum %a {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x1xf32>
    nnapi.yield %s : tensor<2x1xf32>
  }
  return %0 : tensor<2x1xf32>
}

// -----

func.func @composite_channel_axis(%x: tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: channel_axis 2 is neither 1 (NCHW) nor 3 (NHWC)}}
  %0 = nnapi.composite "instance_normalization"(%x) {composite_attributes = {channel_axis = 2 : i64, epsilon = 1.0e-5 : f64}} : (tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32> {
  ^bb0(%a: tensor<1x2x3x4xf32>):
    nnapi.yield %a : tensor<1x2x3x4xf32>
  }
  return %0 : tensor<1x2x3x4xf32>
}

// -----

func.func @composite_mirror_mode(%x: tensor<2x4xf32>) -> tensor<2x6xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: mirror_pad's mode must be "reflect" or "symmetric"}}
  %0 = nnapi.composite "mirror_pad"(%x) {composite_attributes = {axis = 1 : i64, before = 1 : i64, after = 1 : i64, mode = "edge"}} : (tensor<2x4xf32>) -> tensor<2x6xf32> {
  ^bb0(%a: tensor<2x4xf32>):
    %c = tosa.concat %a, %a {axis = 1 : i32} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
    %s = tosa.slice %c {start = array<i64: 0, 0>, size = array<i64: 2, 6>} : (tensor<2x8xf32>) -> tensor<2x6xf32>
    nnapi.yield %s : tensor<2x6xf32>
  }
  return %0 : tensor<2x6xf32>
}

// -----

func.func @composite_mirror_axis(%x: tensor<2x4xf32>) -> tensor<2x6xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: mirror_pad's axis is out of range}}
  %0 = nnapi.composite "mirror_pad"(%x) {composite_attributes = {axis = 2 : i64, before = 1 : i64, after = 1 : i64, mode = "reflect"}} : (tensor<2x4xf32>) -> tensor<2x6xf32> {
  ^bb0(%a: tensor<2x4xf32>):
    %c = tosa.concat %a, %a {axis = 1 : i32} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
    %s = tosa.slice %c {start = array<i64: 0, 0>, size = array<i64: 2, 6>} : (tensor<2x8xf32>) -> tensor<2x6xf32>
    nnapi.yield %s : tensor<2x6xf32>
  }
  return %0 : tensor<2x6xf32>
}

// -----

func.func @composite_strided_slice(%x: tensor<2x4xf32>) -> tensor<2x2xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: strided_slice's axis is out of range or its step below 1}}
  %0 = nnapi.composite "strided_slice"(%x) {composite_attributes = {axis = 1 : i64, step = 0 : i64}} : (tensor<2x4xf32>) -> tensor<2x2xf32> {
  ^bb0(%a: tensor<2x4xf32>):
    %s = tosa.slice %a {start = array<i64: 0, 0>, size = array<i64: 2, 2>} : (tensor<2x4xf32>) -> tensor<2x2xf32>
    nnapi.yield %s : tensor<2x2xf32>
  }
  return %0 : tensor<2x2xf32>
}

// -----

func.func @composite_groups(%x: tensor<1x2x2x2xf32>, %w: tensor<1x1x1x1xf32>, %b: tensor<1xf32>) -> tensor<1x2x2x2xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: composite 'grouped_conv' takes x, filters x groups, biases x groups; got 3 input(s)}}
  %0 = nnapi.composite "grouped_conv"(%x, %w, %b) {composite_attributes = {groups = 2 : i64, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}} : (tensor<1x2x2x2xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>) -> tensor<1x2x2x2xf32> {
  ^bb0(%a: tensor<1x2x2x2xf32>, %p: tensor<1x1x1x1xf32>, %q: tensor<1xf32>):
    nnapi.yield %a : tensor<1x2x2x2xf32>
  }
  return %0 : tensor<1x2x2x2xf32>
}

// -----

func.func @composite_window(%x: tensor<1x2x2x1xf32>, %w: tensor<1x1x1x1xf32>, %b: tensor<1xf32>) -> tensor<1x2x2x1xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: grouped_conv's pad needs 4 values and its stride 2}}
  %0 = nnapi.composite "grouped_conv"(%x, %w, %b) {composite_attributes = {groups = 1 : i64, pad = array<i64: 0, 0>, stride = array<i64: 1, 1>}} : (tensor<1x2x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32> {
  ^bb0(%a: tensor<1x2x2x1xf32>, %p: tensor<1x1x1x1xf32>, %q: tensor<1xf32>):
    nnapi.yield %a : tensor<1x2x2x1xf32>
  }
  return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @composite_filter(%x: tensor<1x2x2x1xf32>, %w: tensor<1x1x1x1xf32>, %b: tensor<1xf32>) -> tensor<1x2x2x1xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: each filter must be a constant}}
  %0 = nnapi.composite "grouped_conv"(%x, %w, %b) {composite_attributes = {groups = 1 : i64, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}} : (tensor<1x2x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32> {
  ^bb0(%a: tensor<1x2x2x1xf32>, %p: tensor<1x1x1x1xf32>, %q: tensor<1xf32>):
    nnapi.yield %a : tensor<1x2x2x1xf32>
  }
  return %0 : tensor<1x2x2x1xf32>
}

// -----

func.func @composite_results(%x: tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: composite 'softmax' has 1 result, got 2}}
  %0:2 = nnapi.composite "softmax"(%x) {composite_attributes = {axis = 1 : i64}} : (tensor<2x4xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>) {
  ^bb0(%a: tensor<2x4xf32>):
    nnapi.yield %a, %a : tensor<2x4xf32>, tensor<2x4xf32>
  }
  return %0#0, %0#1 : tensor<2x4xf32>, tensor<2x4xf32>
}

// -----

func.func @composite_unsigned_parameter(%x: tensor<2x4xf32>) -> tensor<2x4xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: composite 'softmax' has no integer parameter 'axis'}}
  %0 = nnapi.composite "softmax"(%x) {composite_attributes = {axis = 1 : ui32}} : (tensor<2x4xf32>) -> tensor<2x4xf32> {
  ^bb0(%a: tensor<2x4xf32>):
    nnapi.yield %a : tensor<2x4xf32>
  }
  return %0 : tensor<2x4xf32>
}

// -----

func.func @composite_filter_types(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> attributes {nnapi.partition} {
  %w0 = "tosa.const"() {value = dense<0.5> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %w1 = "tosa.const"() {value = dense<0.5> : tensor<1x1x1x2xf32>} : () -> tensor<1x1x1x2xf32>
  %b = "tosa.const"() {value = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: grouped_conv's filters, and its biases, must be dense constants of one type each}}
  %0 = nnapi.composite "grouped_conv"(%x, %w0, %w1, %b, %b) {composite_attributes = {groups = 2 : i64, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}} : (tensor<1x2x2x2xf32>, tensor<1x1x1x1xf32>, tensor<1x1x1x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x2x2x2xf32> {
  ^bb0(%a: tensor<1x2x2x2xf32>, %p: tensor<1x1x1x1xf32>, %q: tensor<1x1x1x2xf32>, %r: tensor<1xf32>, %s: tensor<1xf32>):
    nnapi.yield %a : tensor<1x2x2x2xf32>
  }
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// NNAPI has no float64 operands.
func.func @float64(%x: tensor<4xf64>) -> tensor<4xf64> attributes {nnapi.partition} {
  // expected-error@+1 {{'tosa.add' cannot run on NNAPI: float64 (NNAPI has no float64 tensors; the host computes it in float64)}}
  %0 = tosa.add %x, %x : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// An LSTM direction NNAPI's sequence LSTM cannot compute stays a composite,
// with the reason; nnapi-partition then places its body op by op.
func.func @lstm_clip(%x: tensor<2x1x1xf32>, %h: tensor<1x1xf32>) -> tensor<2x1x1xf32> attributes {nnapi.partition} {
  %w = "tosa.const"() {value = dense<0.5> : tensor<4x1xf32>} : () -> tensor<4x1xf32>
  %b = "tosa.const"() {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: clip: ONNX's bounds each gate's input, NNAPI's cell_clip the cell state}}
  %y:3 = nnapi.composite "lstm" (%x, %w, %w, %b, %h, %h) {composite_attributes = {reverse = 0 : i64, activations = "Sigmoid,Tanh,Tanh", activation_parameters = 0 : i64, input_forget = 0 : i64, peepholes = 0 : i64, sequence_lens = 0 : i64, clip = 2.0 : f64}} : (tensor<2x1x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> (tensor<2x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) {
  ^bb0(%a0: tensor<2x1x1xf32>, %a1: tensor<4x1xf32>, %a2: tensor<4x1xf32>, %a3: tensor<4xf32>, %a4: tensor<1x1xf32>, %a5: tensor<1x1xf32>):
    nnapi.yield %a0, %a4, %a5 : tensor<2x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>
  }
  return %y#0 : tensor<2x1x1xf32>
}

// -----

func.func @lstm_input_forget(%x: tensor<2x1x1xf32>, %h: tensor<1x1xf32>) -> tensor<2x1x1xf32> attributes {nnapi.partition} {
  %w = "tosa.const"() {value = dense<0.5> : tensor<4x1xf32>} : () -> tensor<4x1xf32>
  %b = "tosa.const"() {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  // expected-error@+1 {{input_forget: ONNX couples f = 1 - i, NNAPI's CIFG i = 1 - f}}
  %y:3 = nnapi.composite "lstm" (%x, %w, %w, %b, %h, %h) {composite_attributes = {reverse = 0 : i64, activations = "Sigmoid,Tanh,Tanh", activation_parameters = 0 : i64, input_forget = 1 : i64, peepholes = 0 : i64, sequence_lens = 0 : i64}} : (tensor<2x1x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> (tensor<2x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) {
  ^bb0(%a0: tensor<2x1x1xf32>, %a1: tensor<4x1xf32>, %a2: tensor<4x1xf32>, %a3: tensor<4xf32>, %a4: tensor<1x1xf32>, %a5: tensor<1x1xf32>):
    nnapi.yield %a0, %a4, %a5 : tensor<2x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>
  }
  return %y#0 : tensor<2x1x1xf32>
}

// -----

func.func @lstm_lens(%x: tensor<2x1x1xf32>, %h: tensor<1x1xf32>) -> tensor<2x1x1xf32> attributes {nnapi.partition} {
  %w = "tosa.const"() {value = dense<0.5> : tensor<4x1xf32>} : () -> tensor<4x1xf32>
  %b = "tosa.const"() {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  // expected-error@+1 {{sequence_lens shorter than the sequence: NNAPI's sequence LSTM runs every step of every batch entry}}
  %y:3 = nnapi.composite "lstm" (%x, %w, %w, %b, %h, %h) {composite_attributes = {reverse = 0 : i64, activations = "Sigmoid,Tanh,Tanh", activation_parameters = 0 : i64, input_forget = 0 : i64, peepholes = 0 : i64, sequence_lens = 1 : i64}} : (tensor<2x1x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> (tensor<2x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) {
  ^bb0(%a0: tensor<2x1x1xf32>, %a1: tensor<4x1xf32>, %a2: tensor<4x1xf32>, %a3: tensor<4xf32>, %a4: tensor<1x1xf32>, %a5: tensor<1x1xf32>):
    nnapi.yield %a0, %a4, %a5 : tensor<2x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>
  }
  return %y#0 : tensor<2x1x1xf32>
}

// -----

func.func @lstm_activations(%x: tensor<2x1x1xf32>, %h: tensor<1x1xf32>) -> tensor<2x1x1xf32> attributes {nnapi.partition} {
  %w = "tosa.const"() {value = dense<0.5> : tensor<4x1xf32>} : () -> tensor<4x1xf32>
  %b = "tosa.const"() {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  // expected-error@+1 {{activations Sigmoid,Tanh,Relu: NNAPI's LSTM has logistic gates and one activation (Tanh, Relu or Sigmoid) for the cell input and output}}
  %y:3 = nnapi.composite "lstm" (%x, %w, %w, %b, %h, %h) {composite_attributes = {reverse = 0 : i64, activations = "Sigmoid,Tanh,Relu", activation_parameters = 0 : i64, input_forget = 0 : i64, peepholes = 0 : i64, sequence_lens = 0 : i64}} : (tensor<2x1x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> (tensor<2x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) {
  ^bb0(%a0: tensor<2x1x1xf32>, %a1: tensor<4x1xf32>, %a2: tensor<4x1xf32>, %a3: tensor<4xf32>, %a4: tensor<1x1xf32>, %a5: tensor<1x1xf32>):
    nnapi.yield %a0, %a4, %a5 : tensor<2x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>
  }
  return %y#0 : tensor<2x1x1xf32>
}

// -----

func.func @lstm_runtime_weights(%x: tensor<2x1x1xf32>, %h: tensor<1x1xf32>, %w: tensor<4x1xf32>) -> tensor<2x1x1xf32> attributes {nnapi.partition} {
  %b = "tosa.const"() {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  // expected-error@+1 {{W computed at run time (NNAPI's LSTM takes constant weights here)}}
  %y:3 = nnapi.composite "lstm" (%x, %w, %w, %b, %h, %h) {composite_attributes = {reverse = 0 : i64, activations = "Sigmoid,Tanh,Tanh", activation_parameters = 0 : i64, input_forget = 0 : i64, peepholes = 0 : i64, sequence_lens = 0 : i64}} : (tensor<2x1x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> (tensor<2x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) {
  ^bb0(%a0: tensor<2x1x1xf32>, %a1: tensor<4x1xf32>, %a2: tensor<4x1xf32>, %a3: tensor<4xf32>, %a4: tensor<1x1xf32>, %a5: tensor<1x1xf32>):
    nnapi.yield %a0, %a4, %a5 : tensor<2x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>
  }
  return %y#0 : tensor<2x1x1xf32>
}

// -----

// The state outputs came with feature level 4.
func.func @lstm_level3(%x: tensor<2x1x1xf32>, %h: tensor<1x1xf32>) -> tensor<2x1x1xf32> attributes {nnapi.partition, nnapi.feature_level = 3 : i32} {
  %w = "tosa.const"() {value = dense<0.5> : tensor<4x1xf32>} : () -> tensor<4x1xf32>
  %b = "tosa.const"() {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  // expected-error@+1 {{'nnapi.unidirectional_sequence_lstm' cannot run on NNAPI: needs NNAPI feature level 4 (state outputs), the target is 3}}
  %y:3 = nnapi.composite "lstm" (%x, %w, %w, %b, %h, %h) {composite_attributes = {reverse = 0 : i64, activations = "Sigmoid,Tanh,Tanh", activation_parameters = 0 : i64, input_forget = 0 : i64, peepholes = 0 : i64, sequence_lens = 0 : i64}} : (tensor<2x1x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> (tensor<2x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) {
  ^bb0(%a0: tensor<2x1x1xf32>, %a1: tensor<4x1xf32>, %a2: tensor<4x1xf32>, %a3: tensor<4xf32>, %a4: tensor<1x1xf32>, %a5: tensor<1x1xf32>):
    nnapi.yield %a0, %a4, %a5 : tensor<2x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>
  }
  return %y#0 : tensor<2x1x1xf32>
}

// -----

// NNAPI models return only what their operations compute.
func.func @branch_passes_input(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'tosa.cond_if' cannot run on NNAPI: the else branch passes on an input unchanged (result 0); an NNAPI model returns only values its operations compute}}
  %r = tosa.cond_if %c -> (tensor<4xf32>) {
    %s = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
    tosa.yield %s : tensor<4xf32>
  } else {
    tosa.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// IF arrived with feature level 4.
func.func @if_level_3(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {nnapi.partition, nnapi.feature_level = 3 : i32} {
  // expected-error@+1 {{'nnapi.if' cannot run on NNAPI: needs NNAPI feature level 4 (IF), the target is 3}}
  %r = tosa.cond_if %c -> (tensor<4xf32>) {
    %s = tosa.tanh %x : (tensor<4xf32>) -> tensor<4xf32>
    tosa.yield %s : tensor<4xf32>
  } else {
    %s = tosa.sigmoid %x : (tensor<4xf32>) -> tensor<4xf32>
    tosa.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// An op of a branch NNAPI cannot run keeps the conditional from NNAPI.
func.func @branch_op(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {nnapi.partition} {
  %r = tosa.cond_if %c -> (tensor<4xf32>) {
    // expected-error@+1 {{'tosa.ceil' has no NNAPI lowering}}
    %s = tosa.ceil %x : (tensor<4xf32>) -> tensor<4xf32>
    tosa.yield %s : tensor<4xf32>
  } else {
    %s = tosa.sigmoid %x : (tensor<4xf32>) -> tensor<4xf32>
    tosa.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A loop counting in int64 (NNAPI has no int64 tensors).
func.func @loop_int64(%n: tensor<1xi64>, %v: tensor<3xf32>) -> tensor<3xf32> attributes {nnapi.partition} {
  %z = arith.constant dense<0> : tensor<1xi64>
  // expected-error@+1 {{'tosa.while_loop' cannot run on NNAPI: input 0 has element type 'i64'; only f32, f16, i1 and i32 are supported}}
  %i, %r = tosa.while_loop (%i0 = %z, %v0 = %v) : (tensor<1xi64>, tensor<3xf32>) -> (tensor<1xi64>, tensor<3xf32>) {
    %k = tosa.greater %n, %i0 : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi1>
    %k0 = tosa.reshape %k {new_shape = array<i64>} : (tensor<1xi1>) -> tensor<i1>
    tosa.yield %k0 : tensor<i1>
  } do {
  ^bb0(%i1: tensor<1xi64>, %v1: tensor<3xf32>):
    %one = arith.constant dense<1> : tensor<1xi64>
    %i2 = tosa.add %i1, %one : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
    %v2 = tosa.tanh %v1 : (tensor<3xf32>) -> tensor<3xf32>
    tosa.yield %i2, %v2 : tensor<1xi64>, tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// -----

// ONNX's default RNN (Tanh): NNAPI's RNN applies a fused ReLU-family
// activation only.
func.func @rnn_tanh(%x: tensor<2x1x1xf32>, %h: tensor<1x1xf32>) -> tensor<2x1x1xf32> attributes {nnapi.partition} {
  %w = "tosa.const"() {value = dense<0.5> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %b = "tosa.const"() {value = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: activation Tanh: NNAPI's RNN applies a fused activation (ReLU and its clamped forms), not Tanh}}
  %y:2 = nnapi.composite "rnn" (%x, %w, %w, %b, %h) {composite_attributes = {reverse = 0 : i64, activations = "Tanh", activation_parameters = 0 : i64, sequence_lens = 0 : i64}} : (tensor<2x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1xf32>, tensor<1x1xf32>) -> (tensor<2x1x1xf32>, tensor<1x1xf32>) {
  ^bb0(%a0: tensor<2x1x1xf32>, %a1: tensor<1x1xf32>, %a2: tensor<1x1xf32>, %a3: tensor<1xf32>, %a4: tensor<1x1xf32>):
    nnapi.yield %a0, %a4 : tensor<2x1x1xf32>, tensor<1x1xf32>
  }
  return %y#0 : tensor<2x1x1xf32>
}

// -----

func.func @rnn_clip(%x: tensor<2x1x1xf32>, %h: tensor<1x1xf32>) -> tensor<2x1x1xf32> attributes {nnapi.partition} {
  %w = "tosa.const"() {value = dense<0.5> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %b = "tosa.const"() {value = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: clip: NNAPI's RNN does not bound its input}}
  %y:2 = nnapi.composite "rnn" (%x, %w, %w, %b, %h) {composite_attributes = {reverse = 0 : i64, activations = "Relu", activation_parameters = 0 : i64, sequence_lens = 0 : i64, clip = 2.0 : f64}} : (tensor<2x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1xf32>, tensor<1x1xf32>) -> (tensor<2x1x1xf32>, tensor<1x1xf32>) {
  ^bb0(%a0: tensor<2x1x1xf32>, %a1: tensor<1x1xf32>, %a2: tensor<1x1xf32>, %a3: tensor<1xf32>, %a4: tensor<1x1xf32>):
    nnapi.yield %a0, %a4 : tensor<2x1x1xf32>, tensor<1x1xf32>
  }
  return %y#0 : tensor<2x1x1xf32>
}

// -----

// A per-axis dequantize stays float: NNAPI's DEQUANTIZE of per-channel
// data takes only TENSOR_QUANT8_SYMM_PER_CHANNEL constants.
func.func @per_axis(%x: tensor<2x3xi8>) -> tensor<2x3xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: NNAPI's DEQUANTIZE takes one scale and zero point per tensor}}
  %d = nnapi.composite "dequantize"(%x) {composite_attributes = {axis = 1 : i64, scale = array<f32: 1.0, 2.0, 3.0>, zero_point = array<i64: 0, 0, 0>}} : (tensor<2x3xi8>) -> tensor<2x3xf32> {
  ^bb0(%a: tensor<2x3xi8>):
    %c = tosa.cast %a : (tensor<2x3xi8>) -> tensor<2x3xf32>
    nnapi.yield %c : tensor<2x3xf32>
  }
  return %d : tensor<2x3xf32>
}

// -----

// An NNAPI operand has one scale and zero point: the second view of the
// same int8 data with other parameters (here the first, as the rewrite
// visits them) stays on the host.
func.func @two_views(%x: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xf32>) attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: its input is quantized with other parameters elsewhere in the partition (an NNAPI operand has one scale and zero point)}}
  %a = nnapi.composite "dequantize"(%x) {composite_attributes = {scale = array<f32: 0.5>, zero_point = array<i64: 0>}} : (tensor<4xi8>) -> tensor<4xf32> {
  ^bb0(%arg: tensor<4xi8>):
    %c = tosa.cast %arg : (tensor<4xi8>) -> tensor<4xf32>
    nnapi.yield %c : tensor<4xf32>
  }
  %b = nnapi.composite "dequantize"(%x) {composite_attributes = {scale = array<f32: 0.25>, zero_point = array<i64: 0>}} : (tensor<4xi8>) -> tensor<4xf32> {
  ^bb0(%arg: tensor<4xi8>):
    %c = tosa.cast %arg : (tensor<4xi8>) -> tensor<4xf32>
    nnapi.yield %c : tensor<4xf32>
  }
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}

// -----

// A quantized concatenation names each input's scale and zero point.
func.func @concat_parameters(%x: tensor<1x2xi8>, %y: tensor<1x2xi8>) -> tensor<1x4xi8> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: composite 'quantized_data' lacks a scale and zero point per input or its output's}}
  %c = nnapi.composite "quantized_data"(%x, %y) {composite_attributes = {input_scales = array<f64: 0.5>, input_zero_points = array<i64: 0>, output_scale = 0.5 : f64, output_zero_point = 0 : i64}} : (tensor<1x2xi8>, tensor<1x2xi8>) -> tensor<1x4xi8> {
  ^bb0(%a: tensor<1x2xi8>, %b: tensor<1x2xi8>):
    %fa = tosa.cast %a : (tensor<1x2xi8>) -> tensor<1x2xf32>
    %fb = tosa.cast %b : (tensor<1x2xi8>) -> tensor<1x2xf32>
    %p = tosa.concat %fa, %fb {axis = 1 : i32} : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x4xf32>
    %q = tosa.cast %p : (tensor<1x4xf32>) -> tensor<1x4xi8>
    nnapi.yield %q : tensor<1x4xi8>
  }
  return %c : tensor<1x4xi8>
}

// -----

// A quantized composite of two inputs is an addition or a multiplication.
func.func @two_input_sub(%x: tensor<1x2xi8>, %y: tensor<1x2xi8>) -> tensor<1x2xi8> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: composite 'quantized_binary' is an addition or a multiplication with both operands' scales and zero points}}
  %c = nnapi.composite "quantized_binary"(%x, %y) {composite_attributes = {input_scale = 0.5 : f64, input_zero_point = 0 : i64, second_scale = 0.5 : f64, second_zero_point = 0 : i64, output_scale = 0.5 : f64, output_zero_point = 0 : i64}} : (tensor<1x2xi8>, tensor<1x2xi8>) -> tensor<1x2xi8> {
  ^bb0(%a: tensor<1x2xi8>, %b: tensor<1x2xi8>):
    %fa = tosa.cast %a : (tensor<1x2xi8>) -> tensor<1x2xf32>
    %fb = tosa.cast %b : (tensor<1x2xi8>) -> tensor<1x2xf32>
    %p = tosa.sub %fa, %fb : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
    %q = tosa.cast %p : (tensor<1x2xf32>) -> tensor<1x2xi8>
    nnapi.yield %q : tensor<1x2xi8>
  }
  return %c : tensor<1x2xi8>
}

// -----

// The softmax inside a quantized composite names its axis.
func.func @softmax_without_axis(%x: tensor<1x4xi8>) -> tensor<1x4xi8> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: its softmax has no axis}}
  %c = nnapi.composite "quantized_data"(%x) {composite_attributes = {input_scale = 0.5 : f64, input_zero_point = 0 : i64, output_scale = 0.00390625 : f64, output_zero_point = -128 : i64}} : (tensor<1x4xi8>) -> tensor<1x4xi8> {
  ^bb0(%a: tensor<1x4xi8>):
    %f = tosa.cast %a : (tensor<1x4xi8>) -> tensor<1x4xf32>
    %s = nnapi.composite "softmax"(%f) {composite_attributes = {}} : (tensor<1x4xf32>) -> tensor<1x4xf32> {
    ^bb1(%i: tensor<1x4xf32>):
      nnapi.yield %i : tensor<1x4xf32>
    }
    %q = tosa.cast %s : (tensor<1x4xf32>) -> tensor<1x4xi8>
    nnapi.yield %q : tensor<1x4xi8>
  }
  return %c : tensor<1x4xi8>
}

// -----

// A clamp of quantized TOSA's stored values whose bounds are no fused
// activation's range on the output parameters ([0, 50] at zero point -10).
func.func @stored_clamp_not_activation(%x: tensor<1x4x4x2xi8>) -> tensor<1x4x4x3xi8> attributes {nnapi.partition} {
  %w = "tosa.const"() <{value = dense<1> : tensor<3x1x1x2xi8>}> : () -> tensor<3x1x1x2xi8>
  %b = "tosa.const"() <{value = dense<0> : tensor<3xi32>}> : () -> tensor<3xi32>
  // expected-error @+1 {{cannot run on NNAPI: its clamp is not an NNAPI fused activation}}
  %y = nnapi.composite "quantized_weighted"(%x, %w, %b) {composite_attributes = {input_scale = 0.5 : f64, input_zero_point = -3 : i64, weight_scale = array<f64: 0.25>, weight_zero_point = 0 : i64, output_scale = 0.1 : f64, output_zero_point = -10 : i64}} : (tensor<1x4x4x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>) -> tensor<1x4x4x3xi8> {
  ^bb0(%a: tensor<1x4x4x2xi8>, %aw: tensor<3x1x1x2xi8>, %ab: tensor<3xi32>):
    %c = tosa.conv2d %a, %aw, %ab {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, quantization_info = #tosa.conv_quant<input_zp = -3, weight_zp = 0>} : (tensor<1x4x4x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>) -> tensor<1x4x4x3xi32>
    %r = tosa.rescale %c {input_zp = 0 : i32, output_zp = -10 : i32, multiplier = array<i32: 1342177280>, shift = array<i8: 30>, scale32 = true, double_round = true, per_channel = false} : (tensor<1x4x4x3xi32>) -> tensor<1x4x4x3xi8>
    %k = tosa.clamp %r {min_int = 0 : i64, max_int = 50 : i64, min_fp = 0.0 : f32, max_fp = 0.0 : f32} : (tensor<1x4x4x3xi8>) -> tensor<1x4x4x3xi8>
    nnapi.yield %k : tensor<1x4x4x3xi8>
  }
  return %y : tensor<1x4x4x3xi8>
}

// -----

// A composite's inputs are bound by name to its declaration (Composites.h):
// peepholes = 1 declares p after c, so six inputs are one short.
func.func @lstm_missing_peepholes(%x: tensor<2x1x1xf32>, %h: tensor<1x1xf32>) -> tensor<2x1x1xf32> attributes {nnapi.partition} {
  %w = "tosa.const"() {value = dense<0.5> : tensor<4x1xf32>} : () -> tensor<4x1xf32>
  %b = "tosa.const"() {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: composite 'lstm' takes x, w, r, bias, h, c, [p], [lens]; got 6 input(s)}}
  %y:3 = nnapi.composite "lstm" (%x, %w, %w, %b, %h, %h) {composite_attributes = {reverse = 0 : i64, activations = "Sigmoid,Tanh,Tanh", activation_parameters = 0 : i64, input_forget = 0 : i64, peepholes = 1 : i64, sequence_lens = 0 : i64}} : (tensor<2x1x1xf32>, tensor<4x1xf32>, tensor<4x1xf32>, tensor<4xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> (tensor<2x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) {
  ^bb0(%a0: tensor<2x1x1xf32>, %a1: tensor<4x1xf32>, %a2: tensor<4x1xf32>, %a3: tensor<4xf32>, %a4: tensor<1x1xf32>, %a5: tensor<1x1xf32>):
    nnapi.yield %a0, %a4, %a5 : tensor<2x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>
  }
  return %y#0 : tensor<2x1x1xf32>
}

// -----

// An RNN of four inputs lacks its initial state.
func.func @rnn_too_few(%x: tensor<2x1x1xf32>) -> tensor<2x1x1xf32> attributes {nnapi.partition} {
  %w = "tosa.const"() {value = dense<0.5> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %b = "tosa.const"() {value = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: composite 'rnn' takes x, w, r, bias, h, [lens]; got 4 input(s)}}
  %y:2 = nnapi.composite "rnn" (%x, %w, %w, %b) {composite_attributes = {reverse = 0 : i64, activations = "Relu", activation_parameters = 0 : i64, sequence_lens = 0 : i64}} : (tensor<2x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1xf32>) -> (tensor<2x1x1xf32>, tensor<1x1xf32>) {
  ^bb0(%a0: tensor<2x1x1xf32>, %a1: tensor<1x1xf32>, %a2: tensor<1x1xf32>, %a3: tensor<1xf32>):
    %s = tosa.slice %a0 {start = array<i64: 0, 0, 0>, size = array<i64: 1, 1, 1>} : (tensor<2x1x1xf32>) -> tensor<1x1x1xf32>
    %h = tosa.reshape %s {new_shape = array<i64: 1, 1>} : (tensor<1x1x1xf32>) -> tensor<1x1xf32>
    nnapi.yield %a0, %h : tensor<2x1x1xf32>, tensor<1x1xf32>
  }
  return %y#0 : tensor<2x1x1xf32>
}

// -----

// A quantized composite's kind is its name: a weighted one takes x,
// weights and bias.
func.func @quantized_weighted_without_bias(%x: tensor<1x4x4x2xi8>) -> tensor<1x4x4x3xi8> attributes {nnapi.partition} {
  %w = "tosa.const"() <{value = dense<1> : tensor<3x1x1x2xi8>}> : () -> tensor<3x1x1x2xi8>
  // expected-error @+1 {{cannot run on NNAPI: composite 'quantized_weighted' takes x, weights, bias; got 2 input(s)}}
  %y = nnapi.composite "quantized_weighted"(%x, %w) {composite_attributes = {input_scale = 0.5 : f64, input_zero_point = -3 : i64, weight_scale = array<f64: 0.25>, weight_zero_point = 0 : i64, output_scale = 0.1 : f64, output_zero_point = -10 : i64}} : (tensor<1x4x4x2xi8>, tensor<3x1x1x2xi8>) -> tensor<1x4x4x3xi8> {
  ^bb0(%a: tensor<1x4x4x2xi8>, %aw: tensor<3x1x1x2xi8>):
    %b = "tosa.const"() <{value = dense<0> : tensor<3xi32>}> : () -> tensor<3xi32>
    %c = tosa.conv2d %a, %aw, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, quantization_info = #tosa.conv_quant<input_zp = -3, weight_zp = 0>} : (tensor<1x4x4x2xi8>, tensor<3x1x1x2xi8>, tensor<3xi32>) -> tensor<1x4x4x3xi32>
    %r = tosa.rescale %c {input_zp = 0 : i32, output_zp = -10 : i32, multiplier = array<i32: 1342177280>, shift = array<i8: 30>, scale32 = true, double_round = true, per_channel = false} : (tensor<1x4x4x3xi32>) -> tensor<1x4x4x3xi8>
    nnapi.yield %r : tensor<1x4x4x3xi8>
  }
  return %y : tensor<1x4x4x3xi8>
}

// -----

// A quantized_data composite must hold an operation of the data alone.
func.func @quantized_data_without_data_op(%x: tensor<1x4xi8>) -> tensor<1x4xi8> attributes {nnapi.partition} {
  // expected-error@+1 {{'nnapi.composite' cannot run on NNAPI: composite 'quantized_data' holds no pool, reshape, transpose, nearest-neighbor resize, concatenation, logistic, tanh, softmax or hard swish}}
  %c = nnapi.composite "quantized_data"(%x) {composite_attributes = {input_scale = 0.5 : f64, input_zero_point = 0 : i64, output_scale = 0.5 : f64, output_zero_point = 0 : i64}} : (tensor<1x4xi8>) -> tensor<1x4xi8> {
  ^bb0(%a: tensor<1x4xi8>):
    %n = tosa.negate %a : (tensor<1x4xi8>) -> tensor<1x4xi8>
    nnapi.yield %n : tensor<1x4xi8>
  }
  return %c : tensor<1x4xi8>
}
