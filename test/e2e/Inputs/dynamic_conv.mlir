// A convolution block over a feature map of any width from 2 to 64
// (dynamic_shapes.py's reference): 3x3 convolution, padding 1, bias, ReLU6,
// then a 2x1 max pool down the height.
func.func @main(%x: tensor<1x8x?x4xf32> {nnapi.dim_ranges = array<i64: 2, 64>}) -> tensor<1x4x?x8xf32> {
  %w = "tosa.const"() {value = dense<[[[[0.5, -0.25, 0.125, 1.0]]]]> : tensor<1x1x1x4xf32>} : () -> tensor<1x1x1x4xf32>
  %wt = "tosa.const"() {value = dense<0.0625> : tensor<8x3x3x4xf32>} : () -> tensor<8x3x3x4xf32>
  %scale = tosa.mul %wt, %w {shift = 0 : i8} : (tensor<8x3x3x4xf32>, tensor<1x1x1x4xf32>) -> tensor<8x3x3x4xf32>
  %b = "tosa.const"() {value = dense<[0.1, -0.2, 0.3, 0.0, 0.5, -0.6, 0.7, 0.05]> : tensor<8xf32>} : () -> tensor<8xf32>
  %c = tosa.conv2d %x, %scale, %b {pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x8x?x4xf32>, tensor<8x3x3x4xf32>, tensor<8xf32>) -> tensor<1x8x?x8xf32>
  %r = tosa.clamp %c {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<1x8x?x8xf32>) -> tensor<1x8x?x8xf32>
  %p = tosa.max_pool2d %r {kernel = array<i64: 2, 1>, stride = array<i64: 2, 1>, pad = array<i64: 0, 0, 0, 0>} : (tensor<1x8x?x8xf32>) -> tensor<1x4x?x8xf32>
  return %p : tensor<1x4x?x8xf32>
}
