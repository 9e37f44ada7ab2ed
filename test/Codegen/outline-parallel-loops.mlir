// RUN: nnapi-opt %s -split-input-file --nnapi-outline-parallel-loops="min-work=1000 chunk-work=300" | FileCheck %s

// A band of two perfectly nested marked loops (3 x 4 iterations of 100
// points): one call over the 12 linear iterations, 3 per chunk; the
// constant is cloned into the function, the buffers passed.
// CHECK-LABEL: func.func @band
// CHECK-SAME: (%[[IN:.*]]: memref<6x8xf32>, %[[OUT:.*]]: memref<6x8xf32>)
// CHECK: %[[C12:.*]] = arith.constant 12 : index
// CHECK-NEXT: call @band_parallel0(%{{.*}}, %[[C12]], %[[IN]], %[[OUT]]) {nnapi.parallel_grain = 3 : i64}
// CHECK-NOT: scf.for
// CHECK: return
// CHECK: func.func private @band_parallel0(%[[B:.*]]: index, %[[E:.*]]: index, %[[A0:.*]]: memref<6x8xf32>, %[[A1:.*]]: memref<6x8xf32>)
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.0{{.*}} : f32
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK: scf.for %[[I:.*]] = %[[B]] to %[[E]]
// CHECK: %[[J:.*]] = arith.remui %[[I]], %[[C4]]
// CHECK: %[[K:.*]] = arith.divui %[[I]], %[[C4]]
// CHECK: memref.load %[[A0]]
// CHECK: arith.mulf {{.*}}, %[[TWO]]
// CHECK: memref.store {{.*}}, %[[A1]]
// CHECK-NOT: nnapi.parallel =
func.func @band(%in: memref<6x8xf32>, %out: memref<6x8xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c6 step %c2 {
    scf.for %j = %c0 to %c8 step %c2 {
      %v = memref.load %in[%i, %j] : memref<6x8xf32>
      %w = arith.mulf %v, %two : f32
      memref.store %w, %out[%i, %j] : memref<6x8xf32>
    } {nnapi.parallel = 100 : i64}
  } {nnapi.parallel = 400 : i64}
  return
}

// -----

// Too little work in all (4 x 100 points < 1000), and a loop with a
// result: both stay serial loops, without their marks.
// CHECK-LABEL: func.func @serial
// CHECK-NOT: call
// CHECK: scf.for
// CHECK: scf.for
// CHECK-NOT: nnapi.parallel
func.func @serial(%in: memref<4xf32>, %out: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %in[%i] : memref<4xf32>
    memref.store %v, %out[%i] : memref<4xf32>
  } {nnapi.parallel = 100 : i64}
  %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %in[%i] : memref<4xf32>
    %a = arith.addf %acc, %v : f32
    scf.yield %a : f32
  } {nnapi.parallel = 5000 : i64}
  return %s : f32
}

// -----

// The inner marked loop is not alone in the body (a remainder loop after
// it): the band is the outer loop only. A buffer of dynamic layout keeps
// a band serial (a bare pointer would lose its strides).
// CHECK-LABEL: func.func @outer_only
// CHECK: call @outer_only_parallel0(%{{.*}}, %{{.*}}, %{{.*}}) {nnapi.parallel_grain = 1 : i64}
// CHECK: scf.for
// CHECK-NOT: call
// CHECK: return
// CHECK: func.func private @outer_only_parallel0
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
func.func @outer_only(%out: memref<8x10xf32>, %dyn: memref<8x10xf32, strided<[?, 1]>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      memref.store %one, %out[%i, %j] : memref<8x10xf32>
    } {nnapi.parallel = 1000 : i64}
    scf.for %j = %c8 to %c10 step %c1 {
      memref.store %one, %out[%i, %j] : memref<8x10xf32>
    } {nnapi.parallel = 1000 : i64}
  } {nnapi.parallel = 10000 : i64}
  scf.for %i = %c0 to %c8 step %c1 {
    memref.store %one, %dyn[%i, %c0] : memref<8x10xf32, strided<[?, 1]>>
  } {nnapi.parallel = 10000 : i64}
  return
}

// -----

// Weights (globals) are passed, not fetched inside: the same loop over
// other weights is then the same function, which
// nnapi-merge-identical-functions keeps once.
// CHECK-LABEL: func.func @weights
// CHECK: %[[W:.*]] = memref.get_global @w
// CHECK: call @weights_parallel0(%{{.*}}, %{{.*}}, %[[W]], %{{.*}})
// CHECK: func.func private @weights_parallel0(%{{.*}}: index, %{{.*}}: index, %[[A:.*]]: memref<8xf32>, %{{.*}}: memref<8xf32>)
// CHECK-NOT: memref.get_global
// CHECK: memref.load %[[A]]
memref.global "private" constant @w : memref<8xf32> = dense<2.0>
func.func @weights(%out: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %w = memref.get_global @w : memref<8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %w[%i] : memref<8xf32>
    memref.store %v, %out[%i] : memref<8xf32>
  } {nnapi.parallel = 500 : i64}
  return
}
