// tanh of a loop (acc = acc * 0.5 + x, n times) in the then branch, sigmoid
// of x in the else branch: Inputs/control_flow_reference.py computes it.
func.func @main(%c: tensor<i1>, %n: tensor<1xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = tosa.cond_if %c -> (tensor<4xf32>) {
    %z = "tosa.const"() {value = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
    %i, %acc = tosa.while_loop (%i0 = %z, %a0 = %x) : (tensor<1xf32>, tensor<4xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
      %k = tosa.greater %n, %i0 : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xi1>
      %k0 = tosa.reshape %k {new_shape = array<i64>} : (tensor<1xi1>) -> tensor<i1>
      tosa.yield %k0 : tensor<i1>
    } do {
    ^bb0(%i1: tensor<1xf32>, %a1: tensor<4xf32>):
      %one = "tosa.const"() {value = dense<1.0> : tensor<1xf32>} : () -> tensor<1xf32>
      %i2 = tosa.add %i1, %one : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
      %h = "tosa.const"() {value = dense<0.5> : tensor<4xf32>} : () -> tensor<4xf32>
      %a2 = tosa.mul %a1, %h {shift = 0 : i8} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      %a3 = tosa.add %a2, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      tosa.yield %i2, %a3 : tensor<1xf32>, tensor<4xf32>
    }
    %t = tosa.tanh %acc : (tensor<4xf32>) -> tensor<4xf32>
    tosa.yield %t : tensor<4xf32>
  } else {
    %s = tosa.sigmoid %x : (tensor<4xf32>) -> tensor<4xf32>
    tosa.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
