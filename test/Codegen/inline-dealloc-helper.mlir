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

// -----

// The deallocation's scratch arrays (a few pointers and ownership flags,
// allocated and freed in the function's body) become stack slots; a buffer
// freed only on one path, one not freed here (returned), and a large one
// stay allocations.
// CHECK-LABEL: func.func @scratch
// CHECK-DAG: %[[P:.*]] = memref.alloca() : memref<8xindex>
// CHECK-DAG: %[[F:.*]] = memref.alloca() : memref<8xi1>
// CHECK-DAG: %[[COND:.*]] = memref.alloc() : memref<4xf32>
// CHECK-DAG: %[[OUT:.*]] = memref.alloc() : memref<2xf32>
// CHECK-DAG: %[[BIG:.*]] = memref.alloc() : memref<1024xf32>
// CHECK: memref.store %{{.*}}, %[[P]]
// CHECK: memref.store %{{.*}}, %[[F]]
// CHECK: scf.if
// CHECK-NEXT: memref.dealloc %[[COND]]
// CHECK: memref.dealloc %[[BIG]]
// CHECK-NOT: memref.dealloc
// CHECK: return %[[OUT]]
func.func @scratch(%i: index, %b: i1) -> memref<2xf32> {
  %c0 = arith.constant 0 : index
  %p = memref.alloc() : memref<8xindex>
  %f = memref.alloc() : memref<8xi1>
  %cond = memref.alloc() : memref<4xf32>
  %out = memref.alloc() : memref<2xf32>
  %big = memref.alloc() : memref<1024xf32>
  memref.store %i, %p[%c0] : memref<8xindex>
  memref.store %b, %f[%c0] : memref<8xi1>
  scf.if %b {
    memref.dealloc %cond : memref<4xf32>
  }
  memref.dealloc %p : memref<8xindex>
  memref.dealloc %f : memref<8xi1>
  memref.dealloc %big : memref<1024xf32>
  return %out : memref<2xf32>
}
