// Four ops, three signatures: the two adds have the same shapes.
func.func @main(%x: tensor<1x8x8x4xf32>, %y: tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32> {
  %w = "tosa.const"() {value = dense<[[[[0.5, -0.25, 0.125, 1.0]]], [[[0.25, 0.5, -1.0, 0.75]]], [[[1.0, 0.0, 0.5, -0.5]]], [[[-0.125, 0.25, 0.5, 1.0]]]]> : tensor<4x1x1x4xf32>} : () -> tensor<4x1x1x4xf32>
  %b = "tosa.const"() {value = dense<[0.1, -0.2, 0.3, 0.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = tosa.add %x, %y : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %1 = tosa.conv2d %0, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<4x1x1x4xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
  %2 = tosa.exp %1 : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %3 = tosa.add %2, %x : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %3 : tensor<1x8x8x4xf32>
}
