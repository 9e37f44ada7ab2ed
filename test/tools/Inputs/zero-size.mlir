func.func @main(%x: tensor<20x10x5xf32>) -> tensor<20x0x5xf32> {
  %0 = tosa.slice %x {size = array<i64: 20, 0, 5>, start = array<i64: 0, 0, 0>} : (tensor<20x10x5xf32>) -> tensor<20x0x5xf32>
  return %0 : tensor<20x0x5xf32>
}
