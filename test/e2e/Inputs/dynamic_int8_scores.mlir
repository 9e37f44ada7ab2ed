// An 8-bit attention's scores over a sequence of any length: Q K^T with Q =
// K = the input [1, S, 20] (int8, zero point 3), the transpose and the
// product of two computed tensors with dynamic sizes, i32 out.
func.func @main(%x: tensor<1x?x20xi8>) -> tensor<1x?x?xi32> {
  %perm = "tosa.const"() {value = dense<[0, 2, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %t = tosa.transpose %x, %perm : (tensor<1x?x20xi8>, tensor<3xi32>) -> tensor<1x20x?xi8>
  %s = tosa.matmul %x, %t {quantization_info = #tosa.matmul_quant<a_zp = 3, b_zp = 3>} : (tensor<1x?x20xi8>, tensor<1x20x?xi8>) -> tensor<1x?x?xi32>
  return %s : tensor<1x?x?xi32>
}
