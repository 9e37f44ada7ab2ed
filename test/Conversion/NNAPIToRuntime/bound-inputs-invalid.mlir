// RUN: nnapi-opt %s --split-input-file --nnapi-export-signature --verify-diagnostics

// expected-error @+1 {{'nnapi.bound' on argument 0 must be a dense value of the argument's type}}
func.func @main(%shape: tensor<2xi64> {nnapi.bound = dense<[3, 4]> : tensor<2xi32>}) {
  return
}

// -----

// expected-error @+1 {{'nnapi.bound' on argument 0 must be a dense value of the argument's type}}
func.func @main(%shape: tensor<2xi64> {nnapi.bound = "3x4"}) {
  return
}
