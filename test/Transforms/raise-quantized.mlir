// RUN: nnapi-opt %s -split-input-file -nnapi-raise-quantized | FileCheck %s

// nnapi-raise-quantized on hand-written groups (the ONNX tests reach it
// through the importer): dequantize -> float op -> quantize becomes one
// `quantized` composite over the 8-bit values, with the parameters read off
// the dequantize and quantize composites; its body keeps the float chain.

// Two dequantized inputs of their own parameters, added, quantized.
// CHECK-LABEL: func.func @add
// CHECK-SAME: (%[[A:.*]]: tensor<1x4xi8>, %[[B:.*]]: tensor<1x4xi8>)
// CHECK: %[[Q:.*]] = nnapi.composite "quantized_binary"(%[[A]], %[[B]]) {composite_attributes = {input_scale = 5.000000e-01 : f64, input_zero_point = 0 : i64, output_scale = 1.000000e+00 : f64, output_zero_point = -5 : i64, second_scale = 2.500000e-01 : f64, second_zero_point = 3 : i64}}
// CHECK: nnapi.composite "dequantize"
// CHECK: nnapi.composite "dequantize"
// CHECK: tosa.add
// CHECK: nnapi.composite "quantize"
// CHECK: return %[[Q]]
func.func @add(%a: tensor<1x4xi8>, %b: tensor<1x4xi8>) -> tensor<1x4xi8> {
  %0 = nnapi.composite "dequantize"(%a) {composite_attributes = {scale = array<f32: 0.5>, zero_point = array<i64: 0>}} : (tensor<1x4xi8>) -> tensor<1x4xf32> {
  ^bb0(%x: tensor<1x4xi8>):
    %s = "tosa.const"() <{value = dense<0.5> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %c = tosa.cast %x : (tensor<1x4xi8>) -> tensor<1x4xf32>
    %m = tosa.mul %c, %s {shift = 0 : i8} : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
    nnapi.yield %m : tensor<1x4xf32>
  }
  %1 = nnapi.composite "dequantize"(%b) {composite_attributes = {scale = array<f32: 0.25>, zero_point = array<i64: 3>}} : (tensor<1x4xi8>) -> tensor<1x4xf32> {
  ^bb0(%x: tensor<1x4xi8>):
    %s = "tosa.const"() <{value = dense<0.25> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
    %c = tosa.cast %x : (tensor<1x4xi8>) -> tensor<1x4xf32>
    %m = tosa.mul %c, %s {shift = 0 : i8} : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
    nnapi.yield %m : tensor<1x4xf32>
  }
  %2 = tosa.add %0, %1 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %3 = nnapi.composite "quantize"(%2) {composite_attributes = {scale = array<f32: 1.0>, zero_point = array<i64: -5>}} : (tensor<1x4xf32>) -> tensor<1x4xi8> {
  ^bb0(%x: tensor<1x4xf32>):
    %c = tosa.cast %x : (tensor<1x4xf32>) -> tensor<1x4xi8>
    nnapi.yield %c : tensor<1x4xi8>
  }
  return %3 : tensor<1x4xi8>
}

// -----

// LOGISTIC's output parameters are fixed (scale 1/256, zero point -128 for
// int8): a quantize with them is raised, one with others stays float.
// CHECK-LABEL: func.func @sigmoid
// CHECK: %[[DQ:.*]] = nnapi.composite "dequantize"
// CHECK: %[[RAISED:.*]] = nnapi.composite "quantized_data"(%arg0) {composite_attributes = {input_scale = 5.000000e-01 : f64, input_zero_point = 0 : i64, output_scale = 3.906250e-03 : f64, output_zero_point = -128 : i64}}
// CHECK: tosa.sigmoid
// CHECK: %[[FLOAT:.*]] = tosa.sigmoid %[[DQ]]
// CHECK-NEXT: %[[KEPT:.*]] = nnapi.composite "quantize"(%[[FLOAT]]) {composite_attributes = {scale = array<f32: 0.00999999977>
// CHECK: return %[[RAISED]], %[[KEPT]]
func.func @sigmoid(%a: tensor<1x4xi8>) -> (tensor<1x4xi8>, tensor<1x4xi8>) {
  %0 = nnapi.composite "dequantize"(%a) {composite_attributes = {scale = array<f32: 0.5>, zero_point = array<i64: 0>}} : (tensor<1x4xi8>) -> tensor<1x4xf32> {
  ^bb0(%x: tensor<1x4xi8>):
    %c = tosa.cast %x : (tensor<1x4xi8>) -> tensor<1x4xf32>
    nnapi.yield %c : tensor<1x4xf32>
  }
  %1 = tosa.sigmoid %0 : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %2 = nnapi.composite "quantize"(%1) {composite_attributes = {scale = array<f32: 0.00390625>, zero_point = array<i64: -128>}} : (tensor<1x4xf32>) -> tensor<1x4xi8> {
  ^bb0(%x: tensor<1x4xf32>):
    %c = tosa.cast %x : (tensor<1x4xf32>) -> tensor<1x4xi8>
    nnapi.yield %c : tensor<1x4xi8>
  }
  %3 = tosa.sigmoid %0 : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %4 = nnapi.composite "quantize"(%3) {composite_attributes = {scale = array<f32: 0.01>, zero_point = array<i64: 0>}} : (tensor<1x4xf32>) -> tensor<1x4xi8> {
  ^bb0(%x: tensor<1x4xf32>):
    %c = tosa.cast %x : (tensor<1x4xf32>) -> tensor<1x4xi8>
    nnapi.yield %c : tensor<1x4xi8>
  }
  return %2, %4 : tensor<1x4xi8>, tensor<1x4xi8>
}
