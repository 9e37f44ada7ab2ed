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
