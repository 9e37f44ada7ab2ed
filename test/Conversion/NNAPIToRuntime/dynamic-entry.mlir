// RUN: nnapi-opt %s -nnapi-dynamic-entry -allow-unregistered-dialect | FileCheck %s

// Dynamically shaped entry buffers become pointers (rank-0 buffers) and
// one index per dynamic dimension, appended in order; the body sees them
// again through row-major reinterpret casts. Static buffers stay.

// CHECK-LABEL: func.func @main(
// CHECK-SAME: %[[X:.*]]: memref<f32>, %[[S:.*]]: memref<4xf32>, %[[Y:.*]]: memref<f32>, %[[XA:.*]]: index, %[[XB:.*]]: index, %[[YA:.*]]: index)
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
// CHECK-DAG: %[[XS1:.*]] = arith.muli %[[XB]], %[[C3]] : index
// CHECK-DAG: %[[XS0:.*]] = arith.muli %[[C2]], %[[XS1]] : index
// CHECK: %[[XV:.*]] = memref.reinterpret_cast %[[X]] to offset: [0], sizes: [%[[XA]], 2, %[[XB]], 3], strides: [%[[XS0]], %[[XS1]], 3, 1] : memref<f32> to memref<?x2x?x3xf32>
// CHECK: %[[YV:.*]] = memref.reinterpret_cast %[[Y]] to offset: [0], sizes: [%[[YA]]], strides: [1] : memref<f32> to memref<?xf32>
// CHECK: "test.use"(%[[XV]], %[[S]], %[[YV]])
func.func @main(%x: memref<?x2x?x3xf32>, %s: memref<4xf32>, %y: memref<?xf32>) {
  "test.use"(%x, %s, %y) : (memref<?x2x?x3xf32>, memref<4xf32>, memref<?xf32>) -> ()
  return
}
