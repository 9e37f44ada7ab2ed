// RUN: nnapi-opt %s --nnapi-emit-entry-point --verify-diagnostics

// expected-error @+1 {{'nnapi.bound_inputs' must map input indices below 1 to dense values}}
module attributes {
    nnapi.signature = "nnapi-mlir-model 1\0Apartitions 0\0Ainput 0 x f32 2\0Aoutput 0 y f32 2\0A",
    nnapi.bound_inputs = {"1" = dense<[3, 4]> : tensor<2xi64>}} {
  llvm.func @main(%x: !llvm.ptr, %y: !llvm.ptr) {
    llvm.return
  }
}
