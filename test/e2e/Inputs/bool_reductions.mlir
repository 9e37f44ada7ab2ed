// select(any(a > b, axis 1), 1, 0) and select(all(a > b, axis 0), a, b)
// (bool_ops_reference.py computes them).
func.func @main(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>) -> (tensor<3x1xf32>, tensor<1x4xf32>) {
  %g = tosa.greater %a, %b : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
  %any = tosa.reduce_any %g {axis = 1 : i32} : (tensor<3x4xi1>) -> tensor<3x1xi1>
  %all = tosa.reduce_all %g {axis = 0 : i32} : (tensor<3x4xi1>) -> tensor<1x4xi1>
  %one = "tosa.const"() {value = dense<1.0> : tensor<3x1xf32>} : () -> tensor<3x1xf32>
  %zero = "tosa.const"() {value = dense<0.0> : tensor<3x1xf32>} : () -> tensor<3x1xf32>
  %0 = tosa.select %any, %one, %zero : (tensor<3x1xi1>, tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  %p = "tosa.const"() {value = dense<2.0> : tensor<1x4xf32>} : () -> tensor<1x4xf32>
  %q = "tosa.const"() {value = dense<-2.0> : tensor<1x4xf32>} : () -> tensor<1x4xf32>
  %1 = tosa.select %all, %p, %q : (tensor<1x4xi1>, tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0, %1 : tensor<3x1xf32>, tensor<1x4xf32>
}
