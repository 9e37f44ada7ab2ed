func.func @main(%a: tensor<1x16x32xf32>, %b: tensor<1x32x64xf32>) -> tensor<1x16x64xf32> {
  %0 = tosa.matmul %a, %b : (tensor<1x16x32xf32>, tensor<1x32x64xf32>) -> tensor<1x16x64xf32>
  return %0 : tensor<1x16x64xf32>
}
