// Ops no strategy vectorizes stay scalar loops, and say so: an
// `nnapi.codegen` attribute in the IR and, with emit-remarks, a remark.
//
// RUN: nnapi-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,func.func(nnapi-codegen-prepare,nnapi-codegen{emit-remarks=true}))" -verify-diagnostics
// RUN: nnapi-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,func.func(nnapi-codegen-prepare,nnapi-codegen))" | FileCheck %s

// CHECK-LABEL: func.func @transpose
// CHECK: linalg.transpose {{.*}} {nnapi.codegen = "scalar loops: no vector strategy for this transpose {{.*}}"}
func.func @transpose(%x: tensor<1x5x6x6xf32>) -> tensor<1x6x6x5xf32> {
  %p = "tosa.const"() {value = dense<[0, 2, 3, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  // expected-remark@+1 {{'linalg.transpose' runs as scalar loops: no vector strategy for this transpose (it moves the last dimension elsewhere than next to last, or its sizes do not divide into blocks)}}
  %0 = tosa.transpose %x, %p : (tensor<1x5x6x6xf32>, tensor<4xi32>) -> tensor<1x6x6x5xf32>
  return %0 : tensor<1x6x6x5xf32>
}

// -----

// A gather's tiles read at data-dependent indices, which the vectorizer
// does not do.
// CHECK-LABEL: func.func @gather
// CHECK: linalg.generic {{.*}}nnapi.codegen = "scalar loops: the vectorizer does not handle this op"
func.func @gather(%v: tensor<1x10x4xf32>, %i: tensor<1x6xi32>) -> tensor<1x6x4xf32> {
  // expected-remark@+1 {{'linalg.generic' runs as scalar loops: the vectorizer does not handle this op}}
  %0 = tosa.gather %v, %i : (tensor<1x10x4xf32>, tensor<1x6xi32>) -> tensor<1x6x4xf32>
  return %0 : tensor<1x6x4xf32>
}

// -----

// Booleans: a vector of i1 is stored bit-packed, a tensor of i1 a byte per
// element.
// CHECK-LABEL: func.func @booleans
// CHECK: linalg.generic {{.*}}nnapi.codegen = "scalar loops: dynamic shapes (an op no strategy tiles, or the remainder of a dynamic dimension) or sub-byte (i1) elements"
func.func @booleans(%a: tensor<64xi1>, %b: tensor<64xi1>) -> tensor<64xi1> {
  // expected-remark@+1 {{'linalg.generic' runs as scalar loops: dynamic shapes (an op no strategy tiles, or the remainder of a dynamic dimension) or sub-byte (i1) elements}}
  %0 = tosa.logical_and %a, %b : (tensor<64xi1>, tensor<64xi1>) -> tensor<64xi1>
  return %0 : tensor<64xi1>
}

// -----

// A matmul whose rows and columns are both dynamic: full register tiles,
// then the remainders, all vectorized (no remark). Where the columns (the
// vector lanes) run out, the remainder is split into static tiles of one
// row by a vector, then half a vector... down to 4 lanes, then single
// columns; where the rows run out with full vectors, into tiles of 2 rows
// and of 1 (of 4, 2 and 1 with 8-row register tiles).
// CHECK-LABEL: func.func @dynamic_matmul
// CHECK-DAG: vector.contract {{.*}} : vector<4x4xf32>, vector<4x16xf32> into vector<4x16xf32>
// CHECK-DAG: vector.contract {{.*}} : vector<2x4xf32>, vector<4x16xf32> into vector<2x16xf32>
// CHECK-DAG: vector.contract {{.*}} : vector<1x4xf32>, vector<4x16xf32> into vector<1x16xf32>
// CHECK-DAG: vector.contract {{.*}} : vector<4x4xf32>, vector<4x4xf32> into vector<4x4xf32>
// CHECK-DAG: vector.contract {{.*}} : vector<1x4xf32>, vector<4x1xf32> into vector<1x1xf32>
// CHECK-NOT: nnapi.codegen = "scalar loops
func.func @dynamic_matmul(%q: tensor<1x?x64xf32>, %k: tensor<1x64x?xf32>) -> tensor<1x?x?xf32> {
  %0 = tosa.matmul %q, %k : (tensor<1x?x64xf32>, tensor<1x64x?xf32>) -> tensor<1x?x?xf32>
  return %0 : tensor<1x?x?xf32>
}
