// RUN: nnapi-opt %s -nnapi-strip-quant-types | FileCheck %s

// Quantized element types become their storage types: signless for signed
// storage, ui8 for unsigned; in signatures, block arguments and results.
// The ops' own quantization attributes stay.
// CHECK-LABEL: func.func @f(%arg0: tensor<1x4xui8>) -> tensor<1x4xi8>
// CHECK: tosa.rescale %arg0 {{.*}} : (tensor<1x4xui8>) -> tensor<1x4xi8>
// CHECK: "tosa.const"() <{value = dense<1> : tensor<4x4xi8>}> : () -> tensor<4x4xi8>
// CHECK: tosa.matmul {{.*}}quantization_info = #tosa.matmul_quant<a_zp = 0, b_zp = 0>{{.*}} -> tensor<1x1x4xi32>
// CHECK: tosa.rescale {{.*}} : (tensor<1x1x4xi32>) -> tensor<1x1x4xi8>
func.func @f(%x: tensor<1x4x!quant.uniform<u8:f32, 0.5:128>>) -> tensor<1x4x!quant.uniform<i8:f32, 0.5>> {
  %a = tosa.rescale %x {input_zp = 128 : i32, output_zp = 0 : i32, multiplier = array<i32: 1073741824>, shift = array<i8: 30>, scale32 = true, double_round = false, per_channel = false} : (tensor<1x4x!quant.uniform<u8:f32, 0.5:128>>) -> tensor<1x4x!quant.uniform<i8:f32, 0.5>>
  %a3 = tosa.reshape %a {new_shape = array<i64: 1, 1, 4>} : (tensor<1x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x4x!quant.uniform<i8:f32, 0.5>>
  %w = "tosa.const"() <{value = dense<1> : tensor<4x4xi8>}> : () -> tensor<4x4x!quant.uniform<i8:f32, 0.25>>
  %w3 = tosa.reshape %w {new_shape = array<i64: 1, 4, 4>} : (tensor<4x4x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x4x4x!quant.uniform<i8:f32, 0.25>>
  %c = tosa.matmul %a3, %w3 {quantization_info = #tosa.matmul_quant<a_zp = 0, b_zp = 0>} : (tensor<1x1x4x!quant.uniform<i8:f32, 0.5>>, tensor<1x4x4x!quant.uniform<i8:f32, 0.25>>) -> tensor<1x1x4xi32>
  %y = tosa.rescale %c {input_zp = 0 : i32, output_zp = 0 : i32, multiplier = array<i32: 1073741824>, shift = array<i8: 31>, scale32 = true, double_round = true, per_channel = false} : (tensor<1x1x4xi32>) -> tensor<1x1x4x!quant.uniform<i8:f32, 0.5>>
  %r = tosa.reshape %y {new_shape = array<i64: 1, 4>} : (tensor<1x1x4x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x4x!quant.uniform<i8:f32, 0.5>>
  return %r : tensor<1x4x!quant.uniform<i8:f32, 0.5>>
}
