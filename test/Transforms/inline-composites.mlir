// RUN: nnapi-opt %s -split-input-file -nnapi-inline-composites | FileCheck %s

// Each composite becomes its body, arguments replaced by its inputs;
// composites inside composites too.
// CHECK-LABEL: func @nested
// CHECK-NEXT: %[[C:.*]] = "tosa.const"() <{value = dense<2.000000e+00>
// CHECK-NEXT: %[[A:.*]] = tosa.add %arg0, %arg1
// CHECK-NEXT: %[[M:.*]] = tosa.mul %[[A]], %[[C]]
// CHECK-NEXT: return %[[M]], %[[A]]
// CHECK-NOT: nnapi.
func.func @nested(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0:2 = nnapi.composite "outer"(%x, %y) {composite_attributes = {k = 2 : i64}} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %c = "tosa.const"() {value = dense<2.0> : tensor<4xf32>} : () -> tensor<4xf32>
    %s = nnapi.composite "inner"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%p: tensor<4xf32>, %q: tensor<4xf32>):
      %t = tosa.add %p, %q : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      nnapi.yield %t : tensor<4xf32>
    }
    %m = tosa.mul %s, %c {shift = 0 : i8} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    nnapi.yield %m, %s : tensor<4xf32>, tensor<4xf32>
  }
  return %0#0, %0#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// A body that yields its argument.
// CHECK-LABEL: func @identity
// CHECK-NEXT: return %arg0
func.func @identity(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = nnapi.composite "identity"(%x) : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: tensor<4xf32>):
    nnapi.yield %a : tensor<4xf32>
  }
  return %0 : tensor<4xf32>
}
