// RUN: nnapi-opt %s -nnapi-copy-aliased-results -split-input-file | FileCheck %s

// Returned arguments and constants, each use of a value returned twice, and
// call operands that are slices get a copy into a fresh tensor; a computed
// value returned once does not.
// CHECK-LABEL: func.func @aliased
// CHECK: %[[CST:.*]] = arith.constant dense<1.000000e+00>
// CHECK: %[[SLICE:.*]] = tensor.extract_slice %arg0
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<2xf32>
// CHECK-NEXT: %[[SC:.*]] = linalg.copy ins(%[[SLICE]] : tensor<2xf32>) outs(%[[E0]] : tensor<2xf32>)
// CHECK-NEXT: %[[R:.*]] = call @callee(%[[SC]])
// CHECK: %[[ARG:.*]] = linalg.copy ins(%arg0 : tensor<4xf32>)
// CHECK: %[[C1:.*]] = linalg.copy ins(%[[CST]] : tensor<4xf32>)
// CHECK: %[[C2:.*]] = linalg.copy ins(%[[CST]] : tensor<4xf32>)
// CHECK-NEXT: return %[[ARG]], %[[C1]], %[[C2]], %[[R]] :
func.func private @callee(tensor<2xf32>) -> tensor<2xf32>
func.func @aliased(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xf32>) {
  %c = arith.constant dense<1.0> : tensor<4xf32>
  %s = tensor.extract_slice %x[0] [2] [1] : tensor<4xf32> to tensor<2xf32>
  %r = func.call @callee(%s) : (tensor<2xf32>) -> tensor<2xf32>
  return %x, %c, %c, %r : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<2xf32>
}

// -----

// A computed value returned twice: the first use keeps it, the second gets
// a copy.
// CHECK-LABEL: func.func @twice
// CHECK: %[[Y:.*]] = linalg.copy ins(%arg0
// CHECK: %[[Y2:.*]] = linalg.copy ins(%[[Y]] : tensor<4xf32>)
// CHECK-NEXT: return %[[Y]], %[[Y2]]
func.func @twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.copy ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %y, %y : tensor<4xf32>, tensor<4xf32>
}
