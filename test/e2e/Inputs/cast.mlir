// CAST from int32, to and from bool, and to float16
// (bool_ops_reference.py): float(ids) + float(x != 0), and float16(x).
func.func @main(%ids: tensor<2x6xi32>, %x: tensor<2x6xf32>) -> (tensor<2x6xf32>, tensor<2x6xf16>) {
  %f = tosa.cast %ids : (tensor<2x6xi32>) -> tensor<2x6xf32>
  %b = tosa.cast %x : (tensor<2x6xf32>) -> tensor<2x6xi1>
  %bf = tosa.cast %b : (tensor<2x6xi1>) -> tensor<2x6xf32>
  %r = tosa.add %f, %bf : (tensor<2x6xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
  %h = tosa.cast %x : (tensor<2x6xf32>) -> tensor<2x6xf16>
  return %r, %h : tensor<2x6xf32>, tensor<2x6xf16>
}
