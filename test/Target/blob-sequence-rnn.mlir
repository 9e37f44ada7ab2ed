// UNIDIRECTIONAL_SEQUENCE_RNN: 7 inputs, the fused activation and
// time_major (an INT32, not a BOOL) as scalars; feature level 3.
// RUN: nnapi-translate --serialize-nnapi-blob %s -o %t.blob
// RUN: nnapi-translate --dump-nnapi-blob %t.blob | FileCheck %s

// CHECK: nnapi-blob version 5 feature_level 3
// CHECK: %5 INT32 = 1
// CHECK-NEXT: %6 INT32 = 0
// CHECK-NEXT: %7 TENSOR_FLOAT32 [1,5,16] output
// CHECK: %7 = UNIDIRECTIONAL_SEQUENCE_RNN(%0, %1, %2, %3, %4, %5, %6)
func.func @f(%x: tensor<1x5x8xf32>, %w: tensor<16x8xf32>, %r: tensor<16x16xf32>, %b: tensor<16xf32>, %h: tensor<1x16xf32>) -> tensor<1x5x16xf32> attributes {nnapi.partition} {
  %y = nnapi.unidirectional_sequence_rnn %x, %w, %r, %b, %h fused relu {time_major = false} : (tensor<1x5x8xf32>, tensor<16x8xf32>, tensor<16x16xf32>, tensor<16xf32>, tensor<1x16xf32>) -> tensor<1x5x16xf32>
  return %y : tensor<1x5x16xf32>
}
