// RUN: nnapi-opt %s -split-input-file -nnapi-plan-buffers | FileCheck %s

// Three buffers: a (256 bytes) until b is filled from it, b (128 bytes)
// until c is filled from it, c (64 bytes) to the end. a and b are alive
// together, b and c too, but a and c never: c takes a's place. Arena 384
// bytes instead of 448.
// CHECK-LABEL: func.func @plan
// CHECK-SAME: nnapi.arena_bytes = 384 : i64, nnapi.unplanned_bytes = 448 : i64
// CHECK: %[[ARENA:.*]] = memref.alloc() {alignment = 64 : i64} : memref<384xi8>
// CHECK: %[[A:.*]] = memref.view %[[ARENA]][%c0{{.*}}][] : memref<384xi8> to memref<64xf32>
// CHECK: %[[B:.*]] = memref.view %[[ARENA]][%c256][] : memref<384xi8> to memref<32xf32>
// CHECK: %[[C:.*]] = memref.view %[[ARENA]][%c0{{.*}}][] : memref<384xi8> to memref<16xf32>
// CHECK-NOT: memref.alloc
func.func @plan(%arg0: memref<64xf32>, %out: memref<64xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
  linalg.copy ins(%arg0 : memref<64xf32>) outs(%a : memref<64xf32>)
  %b = memref.alloc() {alignment = 64 : i64} : memref<32xf32>
  %sa = memref.subview %a[0] [32] [1] : memref<64xf32> to memref<32xf32, strided<[1]>>
  linalg.copy ins(%sa : memref<32xf32, strided<[1]>>) outs(%b : memref<32xf32>)
  %c = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  %sb = memref.subview %b[0] [16] [1] : memref<32xf32> to memref<16xf32, strided<[1]>>
  linalg.copy ins(%sb : memref<16xf32, strided<[1]>>) outs(%c : memref<16xf32>)
  %so = memref.subview %out[0] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1]>>
  linalg.copy ins(%c : memref<16xf32>) outs(%so : memref<16xf32, strided<[1]>>)
  return
}

// -----

// A returned buffer escapes: it keeps its own allocation.
// CHECK-LABEL: func.func @escapes
// CHECK-NOT: nnapi.arena_bytes
// CHECK: memref.alloc() : memref<8xf32>
// CHECK-NOT: memref.view
func.func @escapes(%arg0: memref<8xf32>) -> memref<8xf32> {
  %a = memref.alloc() : memref<8xf32>
  linalg.copy ins(%arg0 : memref<8xf32>) outs(%a : memref<8xf32>)
  return %a : memref<8xf32>
}

// -----

// Dynamically shaped buffers share a second arena, sized at run time where
// the first of them was allocated: a and b are alive together (two slots);
// c starts after a's last use and has a's shape, so it takes a's slot. The
// slots' sizes are the buffers' bytes rounded up to 64; b's slot starts
// after a's.
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: nnapi.arena_bytes
// CHECK: %[[N:.*]] = memref.dim %arg0, %c0
// CHECK: %[[A_BYTES:.*]] = arith.muli %c4{{.*}}, %[[N]]
// CHECK: %[[A_UP:.*]] = arith.addi %[[A_BYTES]], %c63
// CHECK: %[[A_SLOT:.*]] = arith.andi %[[A_UP]], %c-64
// CHECK: %[[C_BYTES:.*]] = arith.muli %c4{{.*}}, %[[N]]
// CHECK: %[[C_UP:.*]] = arith.addi %[[C_BYTES]], %c63
// CHECK: %[[C_SLOT:.*]] = arith.andi %[[C_UP]], %c-64
// CHECK: %[[SLOT0:.*]] = arith.maxui %[[A_SLOT]], %[[C_SLOT]]
// CHECK: %[[B_AT:.*]] = arith.addi %c0{{.*}}, %[[SLOT0]]
// CHECK: %[[B_BYTES:.*]] = arith.muli %c8{{.*}}, %[[N]]
// CHECK: %[[B_UP:.*]] = arith.addi %[[B_BYTES]], %c63
// CHECK: %[[B_SLOT:.*]] = arith.andi %[[B_UP]], %c-64
// CHECK: %[[TOTAL:.*]] = arith.addi %[[B_AT]], %[[B_SLOT]]
// CHECK: %[[ARENA:.*]] = memref.alloc(%[[TOTAL]]) {alignment = 64 : i64} : memref<?xi8>
// CHECK: memref.view %[[ARENA]][%c0{{.*}}][%[[N]]] : memref<?xi8> to memref<?xf32>
// CHECK: memref.view %[[ARENA]][%[[B_AT]]][%[[N]]] : memref<?xi8> to memref<?x2xf32>
// CHECK: memref.view %[[ARENA]][%c0{{.*}}][%[[N]]] : memref<?xi8> to memref<?xf32>
// CHECK-NOT: memref.alloc
func.func @dynamic(%arg0: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %arg0, %c0 : memref<?xf32>
  %a = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf32>
  linalg.copy ins(%arg0 : memref<?xf32>) outs(%a : memref<?xf32>)
  %b = memref.alloc(%n) {alignment = 64 : i64} : memref<?x2xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<?xf32>) outs(%b : memref<?x2xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  %c = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0, 0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%b : memref<?x2xf32>) outs(%c : memref<?xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.copy ins(%c : memref<?xf32>) outs(%out : memref<?xf32>)
  return
}

// -----

// A buffer whose size is computed after the first dynamic buffer was
// allocated keeps its own allocation (the arena is sized where the first
// one was); the first, alone, keeps its own too.
// CHECK-LABEL: func.func @late_size
// CHECK: memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32>
// CHECK: memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?xf32>
// CHECK-NOT: memref.view
func.func @late_size(%arg0: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %arg0, %c0 : memref<?xf32>
  %a = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf32>
  linalg.copy ins(%arg0 : memref<?xf32>) outs(%a : memref<?xf32>)
  %m = memref.dim %a, %c0 : memref<?xf32>
  %b = memref.alloc(%m) {alignment = 64 : i64} : memref<?xf32>
  linalg.copy ins(%a : memref<?xf32>) outs(%b : memref<?xf32>)
  linalg.copy ins(%b : memref<?xf32>) outs(%out : memref<?xf32>)
  return
}
