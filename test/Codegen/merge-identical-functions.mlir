// RUN: nnapi-opt %s --nnapi-merge-identical-functions | FileCheck %s

// @a and @b are the same code (names and locations apart): @b's calls go to
// @a. @c differs in a constant and stays. Once @b is @a, @outer_b calls
// what @outer_a calls and merges too. Public functions are never merged:
// their names are what a library exports.
// CHECK-LABEL: func.func @model
// CHECK-NEXT: call @outer_a(%{{.*}}) : (memref<4xf32>) -> ()
// CHECK-NEXT: call @outer_a(%{{.*}}) : (memref<4xf32>) -> ()
// CHECK-NEXT: call @c(%{{.*}}) : (memref<4xf32>) -> ()
// CHECK-NEXT: call @public_twin(%{{.*}}) : (memref<4xf32>) -> ()
// CHECK-NEXT: return
// CHECK: func.func private @a(
// CHECK-NOT: func.func private @b(
// CHECK: func.func private @c(
// CHECK: func.func private @outer_a(
// CHECK-NEXT: call @a(
// CHECK-NOT: func.func private @outer_b(
// CHECK: func.func @public_twin(
// CHECK: func.func @public_twin2(
func.func @model(%x: memref<4xf32>) {
  call @outer_a(%x) : (memref<4xf32>) -> ()
  call @outer_b(%x) : (memref<4xf32>) -> ()
  call @c(%x) : (memref<4xf32>) -> ()
  call @public_twin(%x) : (memref<4xf32>) -> ()
  return
}
func.func private @a(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %two = arith.constant 2.0 : f32
  %v = memref.load %x[%c0] : memref<4xf32>
  %w = arith.mulf %v, %two : f32
  memref.store %w, %x[%c0] : memref<4xf32>
  return
}
func.func private @b(%y: memref<4xf32>) {
  %c0 = arith.constant 0 : index loc("elsewhere":1:1)
  %two = arith.constant 2.0 : f32
  %v = memref.load %y[%c0] : memref<4xf32>
  %w = arith.mulf %v, %two : f32
  memref.store %w, %y[%c0] : memref<4xf32>
  return
}
func.func private @c(%x: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %three = arith.constant 3.0 : f32
  %v = memref.load %x[%c0] : memref<4xf32>
  %w = arith.mulf %v, %three : f32
  memref.store %w, %x[%c0] : memref<4xf32>
  return
}
func.func private @outer_a(%x: memref<4xf32>) {
  call @a(%x) : (memref<4xf32>) -> ()
  return
}
func.func private @outer_b(%x: memref<4xf32>) {
  call @b(%x) : (memref<4xf32>) -> ()
  return
}
func.func @public_twin(%x: memref<4xf32>) {
  return
}
func.func @public_twin2(%x: memref<4xf32>) {
  return
}
