// A dynamic input whose sum over rows feeds static ops, which NNAPI takes
// as a partition (dynamic-shapes.test): y0 = -x, y1 = tanh(2 * sum_rows(x)).
func.func @main(%x: tensor<?x16xf32>) -> (tensor<?x16xf32>, tensor<1x16xf32>) {
  %r = tosa.reduce_sum %x {axis = 0 : i32} : (tensor<?x16xf32>) -> tensor<1x16xf32>
  %a = tosa.add %r, %r : (tensor<1x16xf32>, tensor<1x16xf32>) -> tensor<1x16xf32>
  %t = tosa.tanh %a : (tensor<1x16xf32>) -> tensor<1x16xf32>
  %n = tosa.negate %x : (tensor<?x16xf32>) -> tensor<?x16xf32>
  return %n, %t : tensor<?x16xf32>, tensor<1x16xf32>
}
