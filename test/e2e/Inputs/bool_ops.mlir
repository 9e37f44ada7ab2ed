// select(((a > 0) and (b != 1) or (a >= b)) and [1, 0, 1, 1], a, b): comparisons,
// logical operations, a bool constant and SELECT (bool_ops_reference.py).
func.func @main(%a: tensor<2x4xf32>, %b: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %z = "tosa.const"() {value = dense<0.0> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %one = "tosa.const"() {value = dense<1.0> : tensor<1x4xf32>} : () -> tensor<1x4xf32>
  %m = "tosa.const"() {value = dense<[[true, false, true, true]]> : tensor<1x4xi1>} : () -> tensor<1x4xi1>
  %g = tosa.greater %a, %z : (tensor<2x4xf32>, tensor<1x1xf32>) -> tensor<2x4xi1>
  %e = tosa.equal %b, %one : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xi1>
  %ne = tosa.logical_not %e : (tensor<2x4xi1>) -> tensor<2x4xi1>
  %ge = tosa.greater_equal %a, %b : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
  %c1 = tosa.logical_and %g, %ne : (tensor<2x4xi1>, tensor<2x4xi1>) -> tensor<2x4xi1>
  %c2 = tosa.logical_or %c1, %ge : (tensor<2x4xi1>, tensor<2x4xi1>) -> tensor<2x4xi1>
  %c3 = tosa.logical_and %c2, %m : (tensor<2x4xi1>, tensor<1x4xi1>) -> tensor<2x4xi1>
  %r = tosa.select %c3, %a, %b : (tensor<2x4xi1>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
