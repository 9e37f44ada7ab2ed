// RUN: nnapi-opt %s -nnapi-return-fresh-buffers | FileCheck %s

// A returned expand_shape of a fresh allocation: the allocation takes the
// returned shape, its other uses see the old shape through the inverse
// reshape, and the function returns the allocation itself.
// CHECK-LABEL: func.func @expanded
// CHECK-NEXT: %[[A:.*]] = memref.alloc() : memref<2x3xf32>
// CHECK-NEXT: %[[V:.*]] = memref.collapse_shape %[[A]] {{\[\[}}0, 1]] : memref<2x3xf32> into memref<6xf32>
// CHECK: linalg.fill {{.*}} outs(%[[V]] : memref<6xf32>)
// CHECK: return %[[A]] : memref<2x3xf32>
func.func @expanded() -> memref<2x3xf32> {
  %a = memref.alloc() : memref<6xf32>
  %c = arith.constant 1.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<6xf32>)
  %e = memref.expand_shape %a [[0, 1]] output_shape [2, 3] : memref<6xf32> into memref<2x3xf32>
  return %e : memref<2x3xf32>
}

// The same for collapse_shape.
// CHECK-LABEL: func.func @collapsed
// CHECK-NEXT: %[[A:.*]] = memref.alloc() : memref<6xf32>
// CHECK-NEXT: %[[V:.*]] = memref.expand_shape %[[A]] {{\[\[}}0, 1]] output_shape [2, 3] : memref<6xf32> into memref<2x3xf32>
// CHECK: linalg.fill {{.*}} outs(%[[V]] : memref<2x3xf32>)
// CHECK: return %[[A]] : memref<6xf32>
func.func @collapsed() -> memref<6xf32> {
  %a = memref.alloc() : memref<2x3xf32>
  %c = arith.constant 1.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<2x3xf32>)
  %e = memref.collapse_shape %a [[0, 1]] : memref<2x3xf32> into memref<6xf32>
  return %e : memref<6xf32>
}

// A reshape of an argument is not a fresh buffer: it stays.
// CHECK-LABEL: func.func @argument
// CHECK-NEXT: %[[E:.*]] = memref.expand_shape %arg0
// CHECK-NEXT: return %[[E]]
func.func @argument(%arg: memref<6xf32>) -> memref<2x3xf32> {
  %e = memref.expand_shape %arg [[0, 1]] output_shape [2, 3] : memref<6xf32> into memref<2x3xf32>
  return %e : memref<2x3xf32>
}
