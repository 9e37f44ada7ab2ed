// RUN: nnapi-opt %s | nnapi-opt | FileCheck %s

// nnapi.if and nnapi.while print and parse back; their regions take the
// inputs as block arguments.

// CHECK-LABEL: func @branches
// CHECK: nnapi.if %{{.*}} : tensor<i1>(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32> then {
// CHECK-NEXT: ^bb0(%[[A:.*]]: tensor<4xf32>):
// CHECK-NEXT: nnapi.relu %[[A]]
// CHECK: } else {
// CHECK: nnapi.tanh
func.func @branches(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %y = nnapi.if %c : tensor<i1> (%x) : (tensor<4xf32>) -> tensor<4xf32>
  then {
  ^bb0(%a: tensor<4xf32>):
    %r = nnapi.relu %a : tensor<4xf32>
    nnapi.yield %r : tensor<4xf32>
  } else {
  ^bb0(%a: tensor<4xf32>):
    %r = nnapi.tanh %a : tensor<4xf32>
    nnapi.yield %r : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// CHECK-LABEL: func @counting
// CHECK: nnapi.while(%{{.*}}, %{{.*}}) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32> condition {
// CHECK: nnapi.greater
// CHECK: nnapi.yield %{{.*}} : tensor<1xi1>
// CHECK: } body {
// CHECK: nnapi.add
func.func @counting(%n: tensor<1xf32>) -> tensor<1xf32> {
  %z = arith.constant dense<0.0> : tensor<1xf32>
  %i = nnapi.while (%z, %n) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  condition {
  ^bb0(%a: tensor<1xf32>, %b: tensor<1xf32>):
    %k = nnapi.greater %b, %a : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
    nnapi.yield %k : tensor<1xi1>
  } body {
  ^bb0(%a: tensor<1xf32>, %b: tensor<1xf32>):
    %one = arith.constant dense<1.0> : tensor<1xf32>
    %s = nnapi.add %a, %one : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    nnapi.yield %s : tensor<1xf32>
  }
  return %i : tensor<1xf32>
}
