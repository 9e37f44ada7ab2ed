// A partition for a target below feature level 4 (nnapi.feature_level 3)
// writes its int8 data as TENSOR_QUANT8_ASYMM with zero point + 128:
// inputs, results and per-tensor int8 constants (their bytes' top bits
// flipped: 1, -2, 3, 4, 5, 6 become 81 7e 83 84 85 86); per-channel filters and int32 biases
// stay. The header says int8_as_uint8 (flag bit 1, format version 5) and the
// level is what the uint8 operations need. For a target of level 4 or more
// the same partition keeps TENSOR_QUANT8_ASYMM_SIGNED (level 4).
// RUN: nnapi-translate --serialize-nnapi-blob %s -o %t.blob
// RUN: nnapi-translate --dump-nnapi-blob %t.blob | FileCheck %s
// RUN: sed 's/nnapi.feature_level = 3/nnapi.feature_level = 7/' %s | nnapi-translate --serialize-nnapi-blob -o %t7.blob
// RUN: nnapi-translate --dump-nnapi-blob %t7.blob | FileCheck %s --check-prefix=SIGNED
// RUN: od -An -tx1 %t.blob | FileCheck %s --check-prefix=BYTES

// CHECK: nnapi-blob version 5 feature_level 1 int8_as_uint8
// CHECK: %0 TENSOR_QUANT8_ASYMM [1,3] scale 0.5 zero_point 125 input
// CHECK-NEXT: %1 TENSOR_QUANT8_ASYMM [2,3] scale 0.25 zero_point 128 const
// CHECK-NEXT: %2 TENSOR_INT32 [2] scale 0.125 zero_point 0 const
// CHECK: %4 TENSOR_QUANT8_ASYMM [1,2] scale 1 zero_point 132 output
// SIGNED: nnapi-blob version 5 feature_level 4{{$}}
// SIGNED: %0 TENSOR_QUANT8_ASYMM_SIGNED [1,3] scale 0.5 zero_point -3 input
// BYTES: 81 7e 83 84 85 86
func.func @f(%x: tensor<1x3xi8>) -> tensor<1x2xi8> attributes {nnapi.partition, nnapi.feature_level = 3 : i32} {
  %xq = "quant.scast"(%x) : (tensor<1x3xi8>) -> tensor<1x3x!quant.uniform<i8:f32, 0.5:-3>>
  %w = arith.constant dense<[[1, -2, 3], [4, 5, 6]]> : tensor<2x3xi8>
  %wq = "quant.scast"(%w) : (tensor<2x3xi8>) -> tensor<2x3x!quant.uniform<i8:f32, 0.25>>
  %b = arith.constant dense<[7, 8]> : tensor<2xi32>
  %bq = "quant.scast"(%b) : (tensor<2xi32>) -> tensor<2x!quant.uniform<i32:f32, 0.125>>
  %y = nnapi.fully_connected %xq, %wq, %bq : (tensor<1x3x!quant.uniform<i8:f32, 0.5:-3>>, tensor<2x3x!quant.uniform<i8:f32, 0.25>>, tensor<2x!quant.uniform<i32:f32, 0.125>>) -> tensor<1x2x!quant.uniform<i8:f32, 1.0:4>>
  %yi = "quant.scast"(%y) : (tensor<1x2x!quant.uniform<i8:f32, 1.0:4>>) -> tensor<1x2xi8>
  return %yi : tensor<1x2xi8>
}
