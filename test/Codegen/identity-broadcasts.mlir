// tosa-to-linalg guards every dynamic dimension of an element-wise operand
// with `scf.if (dim == 1) { broadcast } else { operand }`. Where the
// broadcast provably keeps the operand's own size (the operand and the
// result share the dimension), nnapi-codegen-prepare drops the guard, so
// the ops around it fuse; a broadcast between independent sizes stays.
//
// RUN: nnapi-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,func.func(nnapi-codegen-prepare{vector-bits=256}))" | FileCheck %s

// A row's max subtracted from the row: both sizes come from %x.
// CHECK-LABEL: func.func @row_minus_max
// CHECK-NOT: scf.if
// CHECK-NOT: arith.maxui
// CHECK: linalg.reduce
// CHECK: linalg.generic
// CHECK-SAME: ins(%arg0, %expanded : tensor<1x?x?xf32>, tensor<1x?x1xf32>)
// CHECK: return
func.func @row_minus_max(%x: tensor<1x?x?xf32>) -> tensor<1x?x?xf32> {
  %m = tosa.reduce_max %x {axis = 2 : i32} : (tensor<1x?x?xf32>) -> tensor<1x?x1xf32>
  %d = tosa.sub %x, %m : (tensor<1x?x?xf32>, tensor<1x?x1xf32>) -> tensor<1x?x?xf32>
  return %d : tensor<1x?x?xf32>
}

// -----

// A chain: the sum of the exp scales the exp; every size is %x's.
// CHECK-LABEL: func.func @normalize
// CHECK-NOT: scf.if
// CHECK: %[[E:.*]] = linalg.generic
// CHECK: math.exp
// CHECK: %[[R:.*]] = linalg.generic
// CHECK: arith.divf
// CHECK: linalg.generic {{.*}} ins(%[[E]], %[[R]] : tensor<?x?xf32>, tensor<?x1xf32>)
// CHECK: return
func.func @normalize(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %e = tosa.exp %x : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  %r = tosa.reciprocal %s : (tensor<?x1xf32>) -> tensor<?x1xf32>
  %y = tosa.mul %e, %r {shift = 0 : i8} : (tensor<?x?xf32>, tensor<?x1xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

// -----

// Two inputs of independent sizes: either may be 1 and broadcast to the
// other's at run time, so both guards stay (one per operand).
// CHECK-LABEL: func.func @independent_sizes
// CHECK: arith.maxui
// CHECK: scf.if
// CHECK: linalg.generic
// CHECK: scf.if
// CHECK: linalg.generic
// CHECK: arith.addf
func.func @independent_sizes(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %y = tosa.add %a, %b : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}
