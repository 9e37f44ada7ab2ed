// RUN: nnapi-opt %s -split-input-file --nnapi-outline-layers="layer-ops=6" | FileCheck %s

// Three layers of 6+ ops each, cut where nothing computed before is used
// after: the views of the arena and the global stay in the caller and are
// passed (so two layers differing in arena offsets or weights have the same
// code), constants are cloned in, the allocation and deallocation stay, and
// the layers follow their function in order, internal and never inlined.
// CHECK-LABEL: func.func @model
// CHECK-SAME: (%[[IN:.*]]: memref<16xf32>, %[[OUT:.*]]: memref<16xf32>)
// CHECK: %[[ARENA:.*]] = memref.alloc() : memref<128xi8>
// CHECK: %[[W:.*]] = memref.get_global @weights
// CHECK: %[[A:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<128xi8> to memref<16xf32>
// CHECK: call @model_layer0(%[[IN]], %[[W]], %[[A]])
// CHECK: %[[B:.*]] = memref.view %[[ARENA]][%{{.*}}][] : memref<128xi8> to memref<16xf32>
// CHECK: call @model_layer1(%[[A]], %[[W]], %[[B]])
// CHECK: call @model_layer2(%[[B]], %[[OUT]])
// CHECK: memref.dealloc %[[ARENA]]
// CHECK-NEXT: return
// CHECK: func.func private @model_layer0(%[[X:.*]]: memref<16xf32>, %[[Y:.*]]: memref<16xf32>, %[[Z:.*]]: memref<16xf32>)
// CHECK-SAME: llvm.linkage = #llvm.linkage<internal>, no_inline
// CHECK: arith.constant 16 : index
// CHECK: scf.for
// CHECK: memref.load %[[X]]
// CHECK: memref.load %[[Y]]
// CHECK: memref.store {{.*}}, %[[Z]]
// CHECK: func.func private @model_layer1(
// CHECK: func.func private @model_layer2(
memref.global "private" constant @weights : memref<16xf32> = dense<2.0>
func.func @model(%in: memref<16xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %arena = memref.alloc() : memref<128xi8>
  %w = memref.get_global @weights : memref<16xf32>
  %a = memref.view %arena[%c0][] : memref<128xi8> to memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %x = memref.load %in[%i] : memref<16xf32>
    %y = memref.load %w[%i] : memref<16xf32>
    %z = arith.mulf %x, %y : f32
    %u = arith.addf %z, %y : f32
    memref.store %u, %a[%i] : memref<16xf32>
  }
  %b = memref.view %arena[%c64][] : memref<128xi8> to memref<16xf32>
  scf.for %i = %c0 to %c16 step %c1 {
    %x = memref.load %a[%i] : memref<16xf32>
    %y = memref.load %w[%i] : memref<16xf32>
    %z = arith.mulf %x, %y : f32
    %u = arith.addf %z, %y : f32
    memref.store %u, %b[%i] : memref<16xf32>
  }
  scf.for %i = %c0 to %c16 step %c1 {
    %x = memref.load %b[%i] : memref<16xf32>
    %z = arith.mulf %x, %x : f32
    %u = arith.addf %z, %x : f32
    %v = arith.addf %u, %x : f32
    memref.store %v, %out[%i] : memref<16xf32>
  }
  memref.dealloc %arena : memref<128xi8>
  return
}

// -----

// A value computed early and used at the end (a loop's result) keeps the
// ops between in one layer: a cut there would have to return it.
// CHECK-LABEL: func.func @carried
// CHECK: call @carried_layer0(
// CHECK-NOT: call
// CHECK: return
// CHECK: func.func private @carried_layer0(
// CHECK: scf.for {{.*}} iter_args
// CHECK: scf.for
// CHECK: memref.store
// CHECK-NOT: func.func
func.func @carried(%in: memref<16xf32>, %out: memref<16xf32>, %sum: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %s = scf.for %i = %c0 to %c16 step %c1 iter_args(%acc = %zero) -> f32 {
    %x = memref.load %in[%i] : memref<16xf32>
    %y = arith.mulf %x, %x : f32
    %z = arith.addf %y, %x : f32
    %a = arith.addf %acc, %z : f32
    scf.yield %a : f32
  }
  scf.for %i = %c0 to %c16 step %c1 {
    %x = memref.load %in[%i] : memref<16xf32>
    %y = arith.mulf %x, %x : f32
    %z = arith.addf %y, %x : f32
    %u = arith.addf %z, %x : f32
    memref.store %u, %out[%i] : memref<16xf32>
  }
  memref.store %s, %sum[] : memref<f32>
  return
}

// -----

// Small functions (no more than twice layer-ops) stay whole. A buffer of
// dynamic size has no bare-pointer form: it goes as its base buffer and its
// size, from which the layer rebuilds it.
// CHECK-LABEL: func.func @small
// CHECK-NOT: call
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[IN:.*]]: memref<?xf32>, %[[OUT:.*]]: memref<?xf32>)
// CHECK: %[[N:.*]] = memref.dim %[[IN]]
// CHECK: %[[IB:.*]], %{{.*}}, %[[IS:.*]], %{{.*}} = memref.extract_strided_metadata %[[IN]]
// CHECK: %[[OB:.*]], %{{.*}}, %[[OS:.*]], %{{.*}} = memref.extract_strided_metadata %[[OUT]]
// CHECK: call @dynamic_layer0(%[[N]], %[[IB]], %[[IS]], %[[OB]], %[[OS]]) : (index, memref<f32>, index, memref<f32>, index) -> ()
// CHECK: call @dynamic_layer1(
// CHECK: func.func private @dynamic_layer0(%{{.*}}: index, %[[B:.*]]: memref<f32>, %[[S:.*]]: index,
// CHECK: %[[X:.*]] = memref.reinterpret_cast %[[B]] to offset: [0], sizes: [%[[S]]], strides: [1] : memref<f32> to memref<?xf32>
// CHECK: memref.load %[[X]]
func.func @small(%in: memref<16xf32>, %out: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %x = memref.load %in[%i] : memref<16xf32>
    memref.store %x, %out[%i] : memref<16xf32>
  }
  return
}
func.func @dynamic(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %in[%i] : memref<?xf32>
    %y = arith.mulf %x, %x : f32
    %z = arith.addf %y, %x : f32
    %u = arith.addf %z, %x : f32
    memref.store %u, %out[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %out[%i] : memref<?xf32>
    %y = arith.mulf %x, %x : f32
    %z = arith.addf %y, %x : f32
    %u = arith.addf %z, %x : f32
    memref.store %u, %out[%i] : memref<?xf32>
  }
  return
}

// -----

// The host copy of a partition runs in the fallback branch of the partition
// call: the branch's block is cut like a function's body, and what it uses
// from around the branch is passed.
// CHECK-LABEL: func.func @branch
// CHECK: scf.if
// CHECK-NEXT: call @branch_layer0(
// CHECK-NEXT: call @branch_layer1(
// CHECK-NEXT: }
// CHECK: func.func private @branch_layer0(
// CHECK: func.func private @branch_layer1(
func.func @branch(%in: memref<16xf32>, %out: memref<16xf32>, %fallback: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.if %fallback {
    scf.for %i = %c0 to %c16 step %c1 {
      %x = memref.load %in[%i] : memref<16xf32>
      %y = arith.mulf %x, %x : f32
      %z = arith.addf %y, %x : f32
      %u = arith.addf %z, %x : f32
      memref.store %u, %out[%i] : memref<16xf32>
    }
    scf.for %i = %c0 to %c16 step %c1 {
      %x = memref.load %out[%i] : memref<16xf32>
      %y = arith.mulf %x, %x : f32
      %z = arith.addf %y, %x : f32
      %u = arith.addf %z, %x : f32
      memref.store %u, %out[%i] : memref<16xf32>
    }
  }
  return
}
