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
  // expected-error@+1 {{'nnapi.select' op the condition must have the choices' shape (SELECT does not broadcast)}}
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
