// IF and WHILE reference models: each region is a whole blob inside the
// data section (format version 3), listed after the model that references
// it. The rank-0 condition is written [1].
// RUN: nnapi-translate --serialize-nnapi-blob %s -o %t.blob
// RUN: nnapi-translate --dump-nnapi-blob %t.blob | FileCheck %s

// CHECK: nnapi-blob version 5 feature_level 4
// CHECK-NEXT: operands 10
// CHECK-NEXT: %0 TENSOR_BOOL8 [1] input
// CHECK: %3 MODEL model #0
// CHECK-NEXT: %4 MODEL model #1
// CHECK: %6 MODEL model #2
// CHECK-NEXT: %7 MODEL model #3
// CHECK: %5 = IF(%0, %3, %4, %1)
// CHECK-NEXT: %9 = WHILE(%6, %7, %8, %2)
// CHECK: model #0:
// CHECK-NEXT: nnapi-blob version 5 feature_level 1
// CHECK: %1 = RELU(%0)
// CHECK: model #1:
// CHECK: %1 = TANH(%0)
// CHECK: model #2:
// CHECK: %2 = GREATER(%1, %0)
// CHECK: outputs %2
// CHECK: model #3:
// CHECK: %4 = ADD(%0, %2, %3)
func.func @f(%c: tensor<i1>, %x: tensor<4xf32>, %n: tensor<1xf32>) -> (tensor<4xf32>, tensor<1xf32>) attributes {nnapi.partition} {
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
  return %y, %i : tensor<4xf32>, tensor<1xf32>
}
