// RUN: nnapi-opt %s -split-input-file -convert-tosa-to-nnapi | FileCheck %s

// The lstm composite (Composites.h) of one ONNX LSTM direction becomes one
// UNIDIRECTIONAL_SEQUENCE_LSTM: the gate rows cut out of ONNX's [i, o, f, c]
// stacks into NNAPI's operands i, f, c, o; peepholes [i, o, f] likewise. The
// conversion reads only a composite's inputs and parameters, so these bodies
// just yield values of the right types (the importer's are the unrolled
// steps: test/Frontend/ONNX/recurrent.test runs them).

// CHECK-LABEL: func @forward_peepholes
// CHECK-DAG: %[[WI:.*]] = arith.constant dense<1.000000e+00> : tensor<1x2xf32>
// CHECK-DAG: %[[WO:.*]] = arith.constant dense<2.000000e+00> : tensor<1x2xf32>
// CHECK-DAG: %[[WF:.*]] = arith.constant dense<3.000000e+00> : tensor<1x2xf32>
// CHECK-DAG: %[[WC:.*]] = arith.constant dense<4.000000e+00> : tensor<1x2xf32>
// CHECK-DAG: %[[RI:.*]] = arith.constant dense<5.000000e+00> : tensor<1x1xf32>
// CHECK-DAG: %[[RO:.*]] = arith.constant dense<6.000000e+00> : tensor<1x1xf32>
// CHECK-DAG: %[[RF:.*]] = arith.constant dense<7.000000e+00> : tensor<1x1xf32>
// CHECK-DAG: %[[RC:.*]] = arith.constant dense<8.000000e+00> : tensor<1x1xf32>
// CHECK-DAG: %[[BI:.*]] = arith.constant dense<9.000000e+00> : tensor<1xf32>
// CHECK-DAG: %[[BO:.*]] = arith.constant dense<1.000000e+01> : tensor<1xf32>
// CHECK-DAG: %[[BF:.*]] = arith.constant dense<1.100000e+01> : tensor<1xf32>
// CHECK-DAG: %[[BC:.*]] = arith.constant dense<1.200000e+01> : tensor<1xf32>
// CHECK-DAG: %[[PI:.*]] = arith.constant dense<1.300000e+01> : tensor<1xf32>
// CHECK-DAG: %[[PO:.*]] = arith.constant dense<1.400000e+01> : tensor<1xf32>
// CHECK-DAG: %[[PF:.*]] = arith.constant dense<1.500000e+01> : tensor<1xf32>
// CHECK: %[[Y:.*]], %[[S:.*]]:2 = nnapi.unidirectional_sequence_lstm %arg0 input_to_input_weights %[[WI]] input_to_forget_weights %[[WF]] input_to_cell_weights %[[WC]] input_to_output_weights %[[WO]] recurrent_to_input_weights %[[RI]] recurrent_to_forget_weights %[[RF]] recurrent_to_cell_weights %[[RC]] recurrent_to_output_weights %[[RO]] cell_to_input_weights %[[PI]] cell_to_forget_weights %[[PF]] cell_to_output_weights %[[PO]] input_gate_bias %[[BI]] forget_gate_bias %[[BF]] cell_bias %[[BC]] output_gate_bias %[[BO]] output_state_in %arg1 cell_state_in %arg2 :
// CHECK-NOT: activation
// CHECK: return %[[Y]], %[[S]]#0, %[[S]]#1
func.func @forward_peepholes(%x: tensor<3x1x2xf32>, %h: tensor<1x1xf32>, %c: tensor<1x1xf32>) -> (tensor<3x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) attributes {nnapi.partition} {
  %w = "tosa.const"() {value = dense<[[1.0, 1.0], [2.0, 2.0], [3.0, 3.0], [4.0, 4.0]]> : tensor<4x2xf32>} : () -> tensor<4x2xf32>
  %r = "tosa.const"() {value = dense<[[5.0], [6.0], [7.0], [8.0]]> : tensor<4x1xf32>} : () -> tensor<4x1xf32>
  %b = "tosa.const"() {value = dense<[9.0, 10.0, 11.0, 12.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %p = "tosa.const"() {value = dense<[13.0, 14.0, 15.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %y:3 = nnapi.composite "lstm" (%x, %w, %r, %b, %h, %c, %p) {composite_attributes = {reverse = 0 : i64, activations = "Sigmoid,Tanh,Tanh", activation_parameters = 0 : i64, input_forget = 0 : i64, peepholes = 1 : i64, sequence_lens = 0 : i64}} : (tensor<3x1x2xf32>, tensor<4x2xf32>, tensor<4x1xf32>, tensor<4xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<3xf32>) -> (tensor<3x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) {
  ^bb0(%a0: tensor<3x1x2xf32>, %a1: tensor<4x2xf32>, %a2: tensor<4x1xf32>, %a3: tensor<4xf32>, %a4: tensor<1x1xf32>, %a5: tensor<1x1xf32>, %a6: tensor<3xf32>):
    %z = "tosa.const"() {value = dense<0.0> : tensor<3x1x1xf32>} : () -> tensor<3x1x1xf32>
    nnapi.yield %z, %a4, %a5 : tensor<3x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>
  }
  return %y#0, %y#1, %y#2 : tensor<3x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>
}

// -----

// A reverse direction runs the steps backwards: GATHERs reverse the time
// axis before and after. Relu for the cell input and output is NNAPI's relu.
// CHECK-LABEL: func @reverse_relu
// CHECK: %[[ORDER:.*]] = arith.constant dense<[2, 1, 0]> : tensor<3xi32>
// CHECK: %[[X:.*]] = nnapi.gather %arg0[%[[ORDER]]] axis = 0
// CHECK: %[[Y:.*]], %{{.*}}:2 = nnapi.unidirectional_sequence_lstm %[[X]]
// CHECK-NOT: cell_to_
// CHECK-SAME: {activation = 1 : i32}
// CHECK: nnapi.gather %[[Y]][%[[ORDER]]] axis = 0
func.func @reverse_relu(%x: tensor<3x1x2xf32>, %h: tensor<1x1xf32>, %c: tensor<1x1xf32>) -> (tensor<3x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) attributes {nnapi.partition} {
  %w = "tosa.const"() {value = dense<0.5> : tensor<4x2xf32>} : () -> tensor<4x2xf32>
  %r = "tosa.const"() {value = dense<0.25> : tensor<4x1xf32>} : () -> tensor<4x1xf32>
  %b = "tosa.const"() {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %y:3 = nnapi.composite "lstm" (%x, %w, %r, %b, %h, %c) {composite_attributes = {reverse = 1 : i64, activations = "Sigmoid,Relu,Relu", activation_parameters = 0 : i64, input_forget = 0 : i64, peepholes = 0 : i64, sequence_lens = 0 : i64}} : (tensor<3x1x2xf32>, tensor<4x2xf32>, tensor<4x1xf32>, tensor<4xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> (tensor<3x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) {
  ^bb0(%a0: tensor<3x1x2xf32>, %a1: tensor<4x2xf32>, %a2: tensor<4x1xf32>, %a3: tensor<4xf32>, %a4: tensor<1x1xf32>, %a5: tensor<1x1xf32>):
    %z = "tosa.const"() {value = dense<0.0> : tensor<3x1x1xf32>} : () -> tensor<3x1x1xf32>
    nnapi.yield %z, %a4, %a5 : tensor<3x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>
  }
  return %y#0, %y#1, %y#2 : tensor<3x1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>
}
