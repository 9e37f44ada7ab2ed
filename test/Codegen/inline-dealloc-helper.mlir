// RUN: nnapi-opt %s -split-input-file -nnapi-inline-dealloc-helper -verify-diagnostics | FileCheck %s

// Each call of bufferization's dealloc helper gets the helper's body, with
// the call's operands for its arguments, and the helper goes.
// CHECK-NOT: func.func private @dealloc_helper
// CHECK-LABEL: func.func @loop
// CHECK-SAME: (%[[A:.*]]: memref<?xf32>, %[[B:.*]]: memref<?xf32>, %[[C:.*]]: i1, %[[D:.*]]: i1)
// CHECK-NOT: call
// CHECK: scf.if %[[C]] {
// CHECK-NEXT: memref.dealloc %[[A]] : memref<?xf32>
// CHECK: scf.if %[[D]] {
// CHECK-NEXT: memref.dealloc %[[B]] : memref<?xf32>
// CHECK: return
func.func private @dealloc_helper(%m: memref<?xf32>, %c: i1) {
  scf.if %c {
    memref.dealloc %m : memref<?xf32>
  }
  return
}
func.func @loop(%a: memref<?xf32>, %b: memref<?xf32>, %c: i1, %d: i1) {
  call @dealloc_helper(%a, %c) : (memref<?xf32>, i1) -> ()
  call @dealloc_helper(%b, %d) : (memref<?xf32>, i1) -> ()
  return
}

// -----

// Without a helper, nothing changes.
// CHECK-LABEL: func.func @none
// CHECK-NEXT: memref.dealloc
func.func @none(%a: memref<4xf32>) {
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

// A helper of another shape than bufferization's is refused.
// expected-error@+1 {{expected bufferization's private, single-block dealloc helper without results}}
func.func @dealloc_helper(%m: memref<?xf32>) {
  return
}
