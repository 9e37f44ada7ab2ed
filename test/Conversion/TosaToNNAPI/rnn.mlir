// RUN: nnapi-opt %s -split-input-file -convert-tosa-to-nnapi | FileCheck %s

// The rnn composite (Composites.h) of one ONNX RNN direction with Relu
// becomes one UNIDIRECTIONAL_SEQUENCE_RNN with a fused relu; its final
// state is the operation's last step. A reverse direction runs between two
// GATHERs that reverse the steps, and its final state is the last step the
// operation computed (before the second GATHER). The body is the unrolled
// steps the host runs; here only its yield matters.

// CHECK-LABEL: func @forward
// CHECK: %[[Y:.*]] = nnapi.unidirectional_sequence_rnn %arg0, %arg1, %arg2, %arg3, %arg4 fused relu : (tensor<3x2x4xf32>, tensor<5x4xf32>, tensor<5x5xf32>, tensor<5xf32>, tensor<2x5xf32>) -> tensor<3x2x5xf32>
// CHECK: %[[LAST:.*]] = nnapi.slice %[[Y]] begin = [2, 0, 0] : (tensor<3x2x5xf32>) -> tensor<1x2x5xf32>
// CHECK: %[[H:.*]] = nnapi.reshape %[[LAST]] : (tensor<1x2x5xf32>) -> tensor<2x5xf32>
// CHECK: return %[[Y]], %[[H]]
func.func @forward(%x: tensor<3x2x4xf32>, %w: tensor<5x4xf32>, %r: tensor<5x5xf32>, %b: tensor<5xf32>, %h: tensor<2x5xf32>) -> (tensor<3x2x5xf32>, tensor<2x5xf32>) attributes {nnapi.partition} {
  %y, %hn = nnapi.composite "rnn" (%x, %w, %r, %b, %h) {composite_attributes = {activation_parameters = 0 : i64, activations = "Relu", reverse = 0 : i64, sequence_lens = 0 : i64}} : (tensor<3x2x4xf32>, tensor<5x4xf32>, tensor<5x5xf32>, tensor<5xf32>, tensor<2x5xf32>) -> (tensor<3x2x5xf32>, tensor<2x5xf32>) {
  ^bb0(%a: tensor<3x2x4xf32>, %aw: tensor<5x4xf32>, %ar: tensor<5x5xf32>, %ab: tensor<5xf32>, %ah: tensor<2x5xf32>):
    %z = "tosa.const"() {value = dense<0.0> : tensor<3x2x5xf32>} : () -> tensor<3x2x5xf32>
    nnapi.yield %z, %ah : tensor<3x2x5xf32>, tensor<2x5xf32>
  }
  return %y, %hn : tensor<3x2x5xf32>, tensor<2x5xf32>
}

// -----

// CHECK-LABEL: func @reverse
// CHECK: %[[STEPS:.*]] = arith.constant dense<[2, 1, 0]> : tensor<3xi32>
// CHECK: %[[X:.*]] = nnapi.gather %arg0[%[[STEPS]]] axis = 0
// CHECK: %[[Y:.*]] = nnapi.unidirectional_sequence_rnn %[[X]], %arg1, %arg2, %arg3, %arg4 fused relu
// CHECK: %[[LAST:.*]] = nnapi.slice %[[Y]] begin = [2, 0, 0]
// CHECK: %[[H:.*]] = nnapi.reshape %[[LAST]]
// CHECK: %[[OUT:.*]] = nnapi.gather %[[Y]][%[[STEPS]]] axis = 0
// CHECK: return %[[OUT]], %[[H]]
func.func @reverse(%x: tensor<3x2x4xf32>, %w: tensor<5x4xf32>, %r: tensor<5x5xf32>, %b: tensor<5xf32>, %h: tensor<2x5xf32>) -> (tensor<3x2x5xf32>, tensor<2x5xf32>) attributes {nnapi.partition} {
  %y, %hn = nnapi.composite "rnn" (%x, %w, %r, %b, %h) {composite_attributes = {activation_parameters = 0 : i64, activations = "Relu", reverse = 1 : i64, sequence_lens = 0 : i64}} : (tensor<3x2x4xf32>, tensor<5x4xf32>, tensor<5x5xf32>, tensor<5xf32>, tensor<2x5xf32>) -> (tensor<3x2x5xf32>, tensor<2x5xf32>) {
  ^bb0(%a: tensor<3x2x4xf32>, %aw: tensor<5x4xf32>, %ar: tensor<5x5xf32>, %ab: tensor<5xf32>, %ah: tensor<2x5xf32>):
    %z = "tosa.const"() {value = dense<0.0> : tensor<3x2x5xf32>} : () -> tensor<3x2x5xf32>
    nnapi.yield %z, %ah : tensor<3x2x5xf32>, tensor<2x5xf32>
  }
  return %y, %hn : tensor<3x2x5xf32>, tensor<2x5xf32>
}
