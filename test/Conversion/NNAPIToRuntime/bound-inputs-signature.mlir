// RUN: nnapi-opt %s --nnapi-export-signature | FileCheck %s

// An input bound at compile time (--input-value / --specialize-value) is
// marked "bound" in the signature; its value moves to the module for the
// entry point's check, in the caller's element type (u8 stays 8 bits).

// CHECK-LABEL: module attributes
// CHECK-SAME: nnapi.bound_inputs = {"1" = dense<[3, 4]> : tensor<2xi64>, "2" = dense<[1, -1]> : tensor<2xi8>}
// CHECK-SAME: nnapi-mlir-model 4\0Apartitions 0\0Ainput 0 x f32 2x6\0Ainput 1 shape i64 2 bound\0Ainput 2 u u8 2 bound\0Aoutput 0 y f32 3x4\0Achecksum {{[0-9a-f]+}}\0A"
// CHECK: func.func @main(%{{.*}}: tensor<2x6xf32>, %{{.*}}: tensor<2xi64>, %{{.*}}: tensor<2xi8>) -> tensor<3x4xf32>
func.func @main(%x: tensor<2x6xf32> {nnapi.name = "x"},
                %shape: tensor<2xi64> {nnapi.name = "shape", nnapi.bound = dense<[3, 4]> : tensor<2xi64>},
                %u: tensor<2xi8> {nnapi.name = "u", nnapi.unsigned, nnapi.bound = dense<[1, -1]> : tensor<2xi8>})
    -> (tensor<3x4xf32> {nnapi.name = "y"}) {
  %y = tosa.reshape %x {new_shape = array<i64: 3, 4>} : (tensor<2x6xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}
