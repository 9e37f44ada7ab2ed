// RUN: nnapi-opt %s -split-input-file -nnapi-materialize-select-operands | FileCheck %s
// RUN: nnapi-opt %s -split-input-file -nnapi-materialize-select-operands -canonicalize | FileCheck %s --check-prefix=FOLDED

// Broadcast constant operands of tosa.select get the result's shape, so that
// MLIR 19's folder, which returns an operand once the predicate is a splat,
// returns one of the right type (without the pass the function below no
// longer verifies after canonicalization).
// CHECK-LABEL: func.func @splats
// CHECK-DAG: %[[ONE:.*]] = "tosa.const"() <{value = dense<1.000000e+00> : tensor<3x1xf32>}>
// CHECK-DAG: %[[ZERO:.*]] = "tosa.const"() <{value = dense<0.000000e+00> : tensor<3x1xf32>}>
// CHECK: tosa.select %{{.*}}, %[[ONE]], %[[ZERO]] : (tensor<3x1xi1>, tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
// FOLDED-LABEL: func.func @splats
// FOLDED: %[[ONE:.*]] = "tosa.const"() <{value = dense<1.000000e+00> : tensor<3x1xf32>}>
// FOLDED-NEXT: return %[[ONE]] : tensor<3x1xf32>
func.func @splats() -> tensor<3x1xf32> {
  %p = "tosa.const"() <{value = dense<true> : tensor<3x1xi1>}> : () -> tensor<3x1xi1>
  %one = "tosa.const"() <{value = dense<1.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %zero = "tosa.const"() <{value = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %r = tosa.select %p, %one, %zero : (tensor<3x1xi1>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<3x1xf32>
  return %r : tensor<3x1xf32>
}

// -----

// A dense constant is repeated along its unit dimensions; an operand that is
// not a constant, or already of the result's shape, stays.
// CHECK-LABEL: func.func @dense
// CHECK-DAG: %[[ROW:.*]] = "tosa.const"() <{value = dense<{{\[}}[1.000000e+00, 2.000000e+00], [1.000000e+00, 2.000000e+00], [1.000000e+00, 2.000000e+00]]> : tensor<3x2xf32>}>
// CHECK: tosa.select %arg0, %[[ROW]], %arg1 : (tensor<3x2xi1>, tensor<3x2xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>
func.func @dense(%p: tensor<3x2xi1>, %x: tensor<1x2xf32>) -> tensor<3x2xf32> {
  %row = "tosa.const"() <{value = dense<[[1.0, 2.0]]> : tensor<1x2xf32>}> : () -> tensor<1x2xf32>
  %r = tosa.select %p, %row, %x : (tensor<3x2xi1>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}
