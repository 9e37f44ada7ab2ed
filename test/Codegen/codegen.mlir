// RUN: nnapi-opt %s --pass-pipeline="builtin.module(func.func(nnapi-codegen{vector-bits=256 vector-registers=16}))" | FileCheck %s

// nnapi-codegen alone, on linalg ops as nnapi-codegen-prepare leaves them
// (the other Codegen tests run it after the TOSA lowering and the
// preparation). For 256-bit vectors and 16 registers:

// An element-wise op: loops over rows and 32-element tiles of the innermost
// dimension (4 registers of 8 floats), each tile read, added and written as
// one vector; no scalar loop remains.
// CHECK-LABEL: func.func @add
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %[[C64]] step %[[C32]] iter_args(%[[ACC:.*]] =
// CHECK-NEXT: %[[A:.*]] = vector.transfer_read %arg0[%[[I]], %[[J]]]{{.*}} vector<1x32xf32>
// CHECK-NEXT: %[[B:.*]] = vector.transfer_read %arg1[%[[I]], %[[J]]]{{.*}} vector<1x32xf32>
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[B]] : vector<1x32xf32>
// CHECK-NEXT: vector.transfer_write %[[S]], %[[ACC]][%[[I]], %[[J]]]
// CHECK-NOT: linalg.generic
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @add(%a: tensor<4x64xf32>, %b: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %e = tensor.empty() : tensor<4x64xf32>
  %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x64xf32>, tensor<4x64xf32>) outs(%e : tensor<4x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x64xf32>
  return %r : tensor<4x64xf32>
}

// A matmul with a zero fill: 4x16 output tiles whose accumulator starts at
// the fill's zeros and stays in registers across the reduction loop (steps
// of 4), one vector.contract per step, written once per tile.
// CHECK-LABEL: func.func @mm
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4x16xf32>
// CHECK: scf.for %[[I:.*]] = {{.*}} iter_args
// CHECK-NEXT: scf.for %[[J:.*]] = {{.*}} iter_args(%[[OUT:.*]] =
// CHECK-NEXT: %[[TILE:.*]] = scf.for %[[K:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[ZERO]]) -> (vector<4x16xf32>) {
// CHECK-NEXT: %[[A:.*]] = vector.transfer_read %arg0[%[[I]], %[[K]]]{{.*}} vector<4x4xf32>
// CHECK-NEXT: %[[B:.*]] = vector.transfer_read %arg1[%[[K]], %[[J]]]{{.*}} vector<4x16xf32>
// CHECK-NEXT: %[[C:.*]] = vector.contract {{.*}} %[[A]], %[[B]], %[[ACC]]
// CHECK-NEXT: scf.yield %[[C]]
// CHECK: vector.transfer_write %[[TILE]], %[[OUT]][%[[I]], %[[J]]]
// CHECK-NOT: linalg.matmul
// CHECK-NOT: linalg.fill
func.func @mm(%a: tensor<8x16xf32>, %b: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %c = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x32xf32>
  %f = linalg.fill ins(%c : f32) outs(%e : tensor<8x32xf32>) -> tensor<8x32xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x32xf32>) outs(%f : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %r : tensor<8x32xf32>
}
