// RUN: nnapi-opt %s -split-input-file -verify-diagnostics

// NNAPI's rules for 8-bit quantized convolutions and fully connected
// operations, in the verifiers (the scale and zero-point rules of
// Operations.h, the bias rule of biasScaleError).

func.func @bias_scale(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5:-3>>, %w: tensor<3x1x1x2x!quant.uniform<i8:f32, 0.25>>, %b: tensor<3x!quant.uniform<i32:f32, 0.2>>) {
  // expected-error@+1 {{the bias scale must be input scale x filter scale (0.125000), got 0.200000}}
  %0 = nnapi.conv_2d %x, %w, %b padding = [0, 0, 0, 0] strides = [1, 1] dilations = [1, 1] : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5:-3>>, tensor<3x1x1x2x!quant.uniform<i8:f32, 0.25>>, tensor<3x!quant.uniform<i32:f32, 0.2>>) -> tensor<1x4x4x3x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----

func.func @bias_zero_point(%x: tensor<1x4x!quant.uniform<i8:f32, 0.5>>, %w: tensor<3x4x!quant.uniform<i8:f32, 0.5>>, %b: tensor<3x!quant.uniform<i32:f32, 0.25:7>>) {
  // expected-error@+1 {{a quantized bias must have zero point 0}}
  %0 = nnapi.fully_connected %x, %w, %b : (tensor<1x4x!quant.uniform<i8:f32, 0.5>>, tensor<3x4x!quant.uniform<i8:f32, 0.5>>, tensor<3x!quant.uniform<i32:f32, 0.25:7>>) -> tensor<1x3x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----

func.func @unsigned_zero_point(%x: tensor<1x4x!quant.uniform<u8:f32, 0.5:300>>, %w: tensor<3x4x!quant.uniform<u8:f32, 0.5:128>>, %b: tensor<3x!quant.uniform<i32:f32, 0.25>>) {
  // expected-error@+1 {{TENSOR_QUANT8_ASYMM needs a zero point in [0, 255], got 300}}
  %0 = nnapi.fully_connected %x, %w, %b : (tensor<1x4x!quant.uniform<u8:f32, 0.5:300>>, tensor<3x4x!quant.uniform<u8:f32, 0.5:128>>, tensor<3x!quant.uniform<i32:f32, 0.25>>) -> tensor<1x3x!quant.uniform<u8:f32, 1.0:128>>
  return
}

// -----

func.func @per_channel_dimension(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>, %w: tensor<1x1x1x2x!quant.uniform<i8:f32:0, {0.25}>>, %b: tensor<2xi32>) {
  // expected-error@+1 {{per-channel filter scales must run along dimension 3, not 0}}
  %0 = nnapi.depthwise_conv_2d %x, %w, %b padding = [0, 0, 0, 0] strides = [1, 1] dilations = [1, 1] depth_multiplier = 1 : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>, tensor<1x1x1x2x!quant.uniform<i8:f32:0, {0.25}>>, tensor<2xi32>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----

func.func @per_channel_bias_scale(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>, %w: tensor<2x1x1x2x!quant.uniform<i8:f32:0, {0.25, 0.5}>>, %b: tensor<2x!quant.uniform<i32:f32, 0.125>>) {
  // expected-error@+1 {{with per-channel filter scales the bias scale must be 0, got 0.125000}}
  %0 = nnapi.conv_2d %x, %w, %b padding = [0, 0, 0, 0] strides = [1, 1] dilations = [1, 1] : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>, tensor<2x1x1x2x!quant.uniform<i8:f32:0, {0.25, 0.5}>>, tensor<2x!quant.uniform<i32:f32, 0.125>>) -> tensor<1x4x4x2x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----

func.func @per_channel_fully_connected(%x: tensor<1x4x!quant.uniform<i8:f32, 0.5>>, %w: tensor<3x4x!quant.uniform<i8:f32:0, {0.5, 0.5, 0.25}>>, %b: tensor<3xi32>) {
  // expected-error@+1 {{per-channel weights are not allowed}}
  %0 = nnapi.fully_connected %x, %w, %b : (tensor<1x4x!quant.uniform<i8:f32, 0.5>>, tensor<3x4x!quant.uniform<i8:f32:0, {0.5, 0.5, 0.25}>>, tensor<3xi32>) -> tensor<1x3x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----

func.func @mixed_types(%x: tensor<1x4x!quant.uniform<i8:f32, 0.5>>, %w: tensor<3x4x!quant.uniform<i8:f32, 0.5>>, %b: tensor<3x!quant.uniform<i32:f32, 0.25>>) {
  // expected-error@+1 {{quantized input and output must have one type}}
  %0 = nnapi.fully_connected %x, %w, %b : (tensor<1x4x!quant.uniform<i8:f32, 0.5>>, tensor<3x4x!quant.uniform<i8:f32, 0.5>>, tensor<3x!quant.uniform<i32:f32, 0.25>>) -> tensor<1x3x!quant.uniform<u8:f32, 1.0:128>>
  return
}

// -----

func.func @float_bias(%x: tensor<1x4x!quant.uniform<i8:f32, 0.5>>, %w: tensor<3x4x!quant.uniform<i8:f32, 0.5>>, %b: tensor<3xf32>) {
  // expected-error@+1 {{quantized data needs an i32 bias, got 'tensor<3xf32>'}}
  %0 = nnapi.fully_connected %x, %w, %b : (tensor<1x4x!quant.uniform<i8:f32, 0.5>>, tensor<3x4x!quant.uniform<i8:f32, 0.5>>, tensor<3xf32>) -> tensor<1x3x!quant.uniform<i8:f32, 1.0>>
  return
}

// -----

func.func @quantize_float(%x: tensor<4xf32>) {
  // expected-error@+1 {{result must be 8-bit quantized, got 'tensor<4xf32>'}}
  %0 = nnapi.quantize %x : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

// Pools, RESHAPE and TRANSPOSE keep their input's scale and zero point
// (requantizingLevel 0); CONCATENATION may requantize (level 3).

func.func @max_pool_requantizes(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>) {
  // expected-error@+1 {{MAX_POOL_2D keeps its input's scale and zero point (input 0.500000, 0; output 0.250000, 0)}}
  %0 = nnapi.max_pool_2d %x padding = [0, 0, 0, 0] strides = [2, 2] filter = [2, 2] : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x2x2x!quant.uniform<i8:f32, 0.25>>
  return
}

// -----

func.func @reshape_zero_point(%x: tensor<1x4x!quant.uniform<i8:f32, 0.5:3>>) {
  // expected-error@+1 {{RESHAPE keeps its input's scale and zero point (input 0.500000, 3; output 0.500000, 4)}}
  %0 = nnapi.reshape %x : (tensor<1x4x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<4x!quant.uniform<i8:f32, 0.5:4>>
  return
}

// -----

func.func @concatenation_mixed_types(%a: tensor<1x2x!quant.uniform<i8:f32, 0.5>>, %b: tensor<1x2x!quant.uniform<u8:f32, 0.5:128>>) {
  // expected-error@+1 {{quantized operands and result must share one 8-bit type, got 'tensor<1x2x!quant.uniform<i8:f32, 5.000000e-01>>' and 'tensor<1x2x!quant.uniform<u8:f32, 5.000000e-01:128>>'}}
  %0 = nnapi.concatenation %a, %b axis = 1 : (tensor<1x2x!quant.uniform<i8:f32, 0.5>>, tensor<1x2x!quant.uniform<u8:f32, 0.5:128>>) -> tensor<1x4x!quant.uniform<i8:f32, 0.5>>
  return
}

// -----

func.func @average_pool_float_output(%x: tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>) {
  // expected-error@+1 {{quantized operands and result must share one 8-bit type}}
  %0 = nnapi.average_pool_2d %x padding = [0, 0, 0, 0] strides = [2, 2] filter = [2, 2] : (tensor<1x4x4x2x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x2x2x2xf32>
  return
}

// -----

// LOGISTIC, SOFTMAX and TANH have fixed output parameters on 8-bit data.

func.func @logistic_output(%x: tensor<1x4x!quant.uniform<i8:f32, 0.5>>) {
  // expected-error@+1 {{LOGISTIC on TENSOR_QUANT8_ASYMM_SIGNED data needs output scale and zero point 0.003906, -128, got 0.500000, 0}}
  %0 = nnapi.logistic %x : tensor<1x4x!quant.uniform<i8:f32, 0.5>>
  return
}

// -----

func.func @tanh_unsigned(%x: tensor<1x4x!quant.uniform<u8:f32, 0.5:100>>) {
  // expected-error@+1 {{TANH on TENSOR_QUANT8_ASYMM data needs output scale and zero point 0.007812, 128, got 0.007812, 0}}
  %0 = nnapi.tanh %x : tensor<1x4x!quant.uniform<u8:f32, 0.5:100>> -> tensor<1x4x!quant.uniform<u8:f32, 0.0078125>>
  return
}

// -----

func.func @mul_mixed(%a: tensor<1x4x!quant.uniform<i8:f32, 0.5>>, %b: tensor<1x4xf32>) {
  // expected-error@+1 {{quantized operands and result must share one 8-bit type}}
  %0 = nnapi.mul %a, %b : (tensor<1x4x!quant.uniform<i8:f32, 0.5>>, tensor<1x4xf32>) -> tensor<1x4x!quant.uniform<i8:f32, 0.5>>
  return
}
