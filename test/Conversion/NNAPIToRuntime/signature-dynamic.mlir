// RUN: nnapi-opt %s -nnapi-export-signature | FileCheck %s

// Dynamic dimensions make the signature version 5: "[low..high]" for a
// declared range (nnapi.dim_ranges, consumed), "?" for the rest and for
// every dynamic output dimension.

// CHECK: nnapi.signature = "nnapi-mlir-model 5\0Apartitions 0\0Ainput 0 x f32 1x[16..2048]x3x[1..4]\0Ainput 1 mask i32 ?x7\0Aoutput 0 y f32 1x?x3x?\0Achecksum
// CHECK-NOT: nnapi.dim_ranges
func.func @main(%x: tensor<1x?x3x?xf32> {nnapi.name = "x", nnapi.dim_ranges = array<i64: 16, 2048, 1, 4>},
                %m: tensor<?x7xi32> {nnapi.name = "mask"}) -> (tensor<1x?x3x?xf32> {nnapi.name = "y"}) {
  return %x : tensor<1x?x3x?xf32>
}
