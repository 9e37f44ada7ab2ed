// NNAPI's optional operands: UNIDIRECTIONAL_SEQUENCE_LSTM keeps all 28
// input positions, and the ones the op leaves out (here the peepholes, the
// projection and the layer normalization weights) are operands without a
// value (since format version 2). Its state outputs need feature level 4.
// RUN: nnapi-translate --serialize-nnapi-blob %s -o %t.blob
// RUN: nnapi-translate --dump-nnapi-blob %t.blob | FileCheck %s

// CHECK: nnapi-blob version 5 feature_level 4
// CHECK: %5 TENSOR_FLOAT32 [] no value
// CHECK-NEXT: %6 TENSOR_FLOAT32 [] no value
// CHECK-NEXT: %7 TENSOR_FLOAT32 [] no value
// CHECK: %11 INT32 = 4
// CHECK-NEXT: %12 FLOAT32 = 0
// CHECK-NEXT: %13 FLOAT32 = 0
// CHECK-NEXT: %14 BOOL = true
// CHECK-NEXT: %15 TENSOR_FLOAT32 [] no value
// CHECK: %18 TENSOR_FLOAT32 [] no value
// CHECK-NEXT: %19 TENSOR_FLOAT32 [2,1,2] output
// CHECK: %19, %20, %21 = UNIDIRECTIONAL_SEQUENCE_LSTM(%0, %3, %3, %3, %3, %4, %4, %4, %4, %5, %6, %7, %8, %8, %8, %8, %9, %10, %1, %2, %11, %12, %13, %14, %15, %16, %17, %18)
func.func @f(%x: tensor<2x1x1xf32>, %h0: tensor<1x2xf32>, %c0: tensor<1x2xf32>) -> (tensor<2x1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) attributes {nnapi.partition} {
  %w = arith.constant dense<0.5> : tensor<2x1xf32>
  %r = arith.constant dense<0.25> : tensor<2x2xf32>
  %b = arith.constant dense<0.125> : tensor<2xf32>
  %y, %s:2 = nnapi.unidirectional_sequence_lstm %x
      input_to_input_weights %w input_to_forget_weights %w
      input_to_cell_weights %w input_to_output_weights %w
      recurrent_to_input_weights %r recurrent_to_forget_weights %r
      recurrent_to_cell_weights %r recurrent_to_output_weights %r
      input_gate_bias %b forget_gate_bias %b cell_bias %b
      output_gate_bias %b output_state_in %h0 cell_state_in %c0
      : (tensor<2x1x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) -> (tensor<2x1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>)
  return %y, %s#0, %s#1 : tensor<2x1x2xf32>, tensor<1x2xf32>, tensor<1x2xf32>
}
