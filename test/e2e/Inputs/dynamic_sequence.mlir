// A projection and softmax over a sequence of any length (no declared
// range: 1 to 2^31-1): [1, S, 16] x [16, 8] + bias, softmax over the 8
// features, and the mean over the sequence as a second, static output.
func.func @main(%x: tensor<1x?x16xf32>) -> (tensor<1x?x8xf32>, tensor<1x1x8xf32>) {
  %w = "tosa.const"() {value = dense<0.03125> : tensor<1x16x8xf32>} : () -> tensor<1x16x8xf32>
  %ramp = "tosa.const"() {value = dense<[[[1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, 0.0]]]> : tensor<1x1x8xf32>} : () -> tensor<1x1x8xf32>
  %w2 = tosa.mul %w, %ramp {shift = 0 : i8} : (tensor<1x16x8xf32>, tensor<1x1x8xf32>) -> tensor<1x16x8xf32>
  %m = tosa.matmul %x, %w2 : (tensor<1x?x16xf32>, tensor<1x16x8xf32>) -> tensor<1x?x8xf32>
  %b = "tosa.const"() {value = dense<[[[0.1, 0.2, 0.3, 0.4, -0.1, -0.2, -0.3, -0.4]]]> : tensor<1x1x8xf32>} : () -> tensor<1x1x8xf32>
  %y = tosa.add %m, %b : (tensor<1x?x8xf32>, tensor<1x1x8xf32>) -> tensor<1x?x8xf32>
  %mx = tosa.reduce_max %y {axis = 2 : i32} : (tensor<1x?x8xf32>) -> tensor<1x?x1xf32>
  %d = tosa.sub %y, %mx : (tensor<1x?x8xf32>, tensor<1x?x1xf32>) -> tensor<1x?x8xf32>
  %e = tosa.exp %d : (tensor<1x?x8xf32>) -> tensor<1x?x8xf32>
  %s = tosa.reduce_sum %e {axis = 2 : i32} : (tensor<1x?x8xf32>) -> tensor<1x?x1xf32>
  %rs = tosa.reciprocal %s : (tensor<1x?x1xf32>) -> tensor<1x?x1xf32>
  %sm = tosa.mul %e, %rs {shift = 0 : i8} : (tensor<1x?x8xf32>, tensor<1x?x1xf32>) -> tensor<1x?x8xf32>
  %sum = tosa.reduce_sum %y {axis = 1 : i32} : (tensor<1x?x8xf32>) -> tensor<1x1x8xf32>
  return %sm, %sum : tensor<1x?x8xf32>, tensor<1x1x8xf32>
}
