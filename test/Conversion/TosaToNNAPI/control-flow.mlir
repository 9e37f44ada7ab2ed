// RUN: nnapi-opt %s -split-input-file -convert-tosa-to-nnapi | FileCheck %s

// tosa.cond_if becomes nnapi.if: what the branches read from above becomes
// the op's inputs (block arguments of both models), constants are cloned
// into the branch that reads them, and the branches' ops are converted like
// any other. The rank-0 condition stays as it is (the blob writes it [1]).

// CHECK-LABEL: func @if_captures
// CHECK-SAME: (%[[C:.*]]: tensor<i1>, %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>)
// CHECK: %[[R:.*]] = nnapi.if %[[C]] : tensor<i1>(%[[X]], %[[Y]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> then {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>):
// CHECK-NEXT: %[[S:.*]] = nnapi.add %[[A]], %[[B]] fused relu
// CHECK-NEXT: nnapi.yield %[[S]]
// CHECK-NEXT: } else {
// CHECK-NEXT: ^bb0(%[[A2:.*]]: tensor<4xf32>, %{{.*}}: tensor<4xf32>):
// CHECK-NEXT: %[[TWO:.*]] = arith.constant dense<2.000000e+00> : tensor<4xf32>
// CHECK-NEXT: %[[M:.*]] = nnapi.mul %[[A2]], %[[TWO]]
// CHECK-NEXT: nnapi.yield %[[M]]
// CHECK: return %[[R]]
func.func @if_captures(%c: tensor<i1>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> attributes {nnapi.partition} {
  %w = arith.constant dense<2.0> : tensor<4xf32>
  %r = tosa.cond_if %c -> (tensor<4xf32>) {
    %s = tosa.add %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %t = tosa.clamp %s {min_fp = 0.0 : f32, max_fp = 3.40282347E+38 : f32, min_int = 0 : i64, max_int = 9223372036854775807 : i64} : (tensor<4xf32>) -> tensor<4xf32>
    tosa.yield %t : tensor<4xf32>
  } else {
    %s = tosa.mul %x, %w {shift = 0 : i8} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    tosa.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// tosa.while_loop becomes nnapi.while. The values the body changes come
// first (loop-carried: the op's results); the limit it passes on unchanged
// and the captured x follow (input-only), and the loop's last result is the
// limit as it came in. The condition's reshape to rank 0 is looked through.

// CHECK-LABEL: func @loop
// CHECK-SAME: (%[[N:.*]]: tensor<1xf32>, %[[X:.*]]: tensor<4xf32>)
// CHECK: %[[L:.*]]:2 = nnapi.while(%{{.*}}, %{{.*}}, %[[N]], %[[X]]) : (tensor<1xf32>, tensor<4xf32>, tensor<1xf32>, tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) condition {
// CHECK-NEXT: ^bb0(%[[I:.*]]: tensor<1xf32>, %{{.*}}: tensor<4xf32>, %[[M:.*]]: tensor<1xf32>, %{{.*}}: tensor<4xf32>):
// CHECK-NEXT: %[[K:.*]] = nnapi.greater %[[M]], %[[I]]
// CHECK-NEXT: nnapi.yield %[[K]] : tensor<1xi1>
// CHECK-NEXT: } body {
// CHECK-NEXT: ^bb0(%[[I2:.*]]: tensor<1xf32>, %[[A:.*]]: tensor<4xf32>, %{{.*}}: tensor<1xf32>, %[[X2:.*]]: tensor<4xf32>):
// CHECK: nnapi.add %[[I2]]
// CHECK: %[[A2:.*]] = nnapi.add %[[A]], %[[X2]]
// CHECK: nnapi.yield %{{.*}}, %[[A2]] : tensor<1xf32>, tensor<4xf32>
// CHECK: return %[[L]]#0, %[[L]]#1, %[[N]]
func.func @loop(%n: tensor<1xf32>, %x: tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>, tensor<1xf32>) attributes {nnapi.partition} {
  %z = arith.constant dense<0.0> : tensor<1xf32>
  %a = arith.constant dense<0.0> : tensor<4xf32>
  %i, %acc, %m = tosa.while_loop (%i0 = %z, %a0 = %a, %m0 = %n) : (tensor<1xf32>, tensor<4xf32>, tensor<1xf32>) -> (tensor<1xf32>, tensor<4xf32>, tensor<1xf32>) {
    %k = tosa.greater %m0, %i0 : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
    %k0 = tosa.reshape %k {new_shape = array<i64>} : (tensor<1xi1>) -> tensor<i1>
    tosa.yield %k0 : tensor<i1>
  } do {
  ^bb0(%i1: tensor<1xf32>, %a1: tensor<4xf32>, %m1: tensor<1xf32>):
    %one = arith.constant dense<1.0> : tensor<1xf32>
    %i2 = tosa.add %i1, %one : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    %a2 = tosa.add %a1, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    tosa.yield %i2, %a2, %m1 : tensor<1xf32>, tensor<4xf32>, tensor<1xf32>
  }
  return %i, %acc, %m : tensor<1xf32>, tensor<4xf32>, tensor<1xf32>
}

// -----

// A condition that is a loop-carried flag: a model cannot return its input,
// so the condition model computes LOGICAL_AND(flag, flag).

// CHECK-LABEL: func @flag
// CHECK: nnapi.while
// CHECK-NEXT: ^bb0(%[[F:.*]]: tensor<1xi1>, %{{.*}}: tensor<3xf32>):
// CHECK-NEXT: %[[SAME:.*]] = nnapi.logical_and %[[F]], %[[F]]
// CHECK-NEXT: nnapi.yield %[[SAME]] : tensor<1xi1>
// CHECK: } body {
func.func @flag(%go: tensor<1xi1>, %v: tensor<3xf32>) -> tensor<3xf32> attributes {nnapi.partition} {
  %f, %r = tosa.while_loop (%f0 = %go, %v0 = %v) : (tensor<1xi1>, tensor<3xf32>) -> (tensor<1xi1>, tensor<3xf32>) {
    %k = tosa.reshape %f0 {new_shape = array<i64>} : (tensor<1xi1>) -> tensor<i1>
    tosa.yield %k : tensor<i1>
  } do {
  ^bb0(%f1: tensor<1xi1>, %v1: tensor<3xf32>):
    %two = arith.constant dense<2.0> : tensor<3xf32>
    %ten = arith.constant dense<10.0> : tensor<1xf32>
    %v2 = tosa.mul %v1, %two {shift = 0 : i8} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %s = tosa.reduce_sum %v2 {axis = 0 : i32} : (tensor<3xf32>) -> tensor<1xf32>
    %f2 = tosa.greater %ten, %s : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
    tosa.yield %f2, %v2 : tensor<1xi1>, tensor<3xf32>
  }
  return %r : tensor<3xf32>
}
