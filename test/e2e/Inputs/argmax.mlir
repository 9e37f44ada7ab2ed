// argmax over axis 1 and argmin (argmax of a negation) over axis 0.
func.func @main(%x: tensor<3x5xf32>) -> (tensor<3xi32>, tensor<5xi32>) {
  %0 = tosa.argmax %x {axis = 1 : i32} : (tensor<3x5xf32>) -> tensor<3xi32>
  %n = tosa.negate %x : (tensor<3x5xf32>) -> tensor<3x5xf32>
  %1 = tosa.argmax %n {axis = 0 : i32} : (tensor<3x5xf32>) -> tensor<5xi32>
  return %0, %1 : tensor<3xi32>, tensor<5xi32>
}
