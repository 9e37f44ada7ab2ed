// RUN: nnapi-opt %s -nnapi-lower-partition-calls -split-input-file -verify-diagnostics | FileCheck %s

// A bufferized partition (one input, one out-parameter) with its blob (one
// ADD, serialized by nnapi-serialize-partitions): the body moves to
// @p_host, and @p passes the blob and the buffers to
// nnapi_rt_execute_checked, running @p_host when it returns neither 0 nor
// NNAPI_RT_TIMEOUT (8: a loop timeout, which the host copy's loops share);
// after NNAPI_RT_VERIFY (9) it hands the host copy's outputs to
// nnapi_rt_verify. Callers still call @p.
// CHECK-DAG: func.func private @nnapi_rt_execute_checked(!llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr) -> i32
// CHECK-DAG: func.func private @nnapi_rt_verify(!llvm.ptr, i64, i64, !llvm.ptr)
// CHECK-DAG: memref.global "private" constant @p_name : memref<2xi8> = dense<[112, 0]>
// CHECK: func.func private @p_host(%[[X:.*]]: memref<1x4xf32>, %[[O:.*]]: memref<1x4xf32>) {
// CHECK-NEXT: memref.copy %[[X]], %[[O]]
// CHECK: func.func private @p(%[[A0:.*]]: memref<1x4xf32>, %[[A1:.*]]: memref<1x4xf32>) {
// CHECK-NOT: nnapi.partition
// CHECK: %[[BLOB:.*]] = memref.get_global @p_blob : memref<260xi8>
// CHECK-DAG: %[[SIZE:.*]] = arith.constant 260 : i64
// CHECK: %[[RC:.*]] = call @nnapi_rt_execute_checked(%[[BLOB:.*]], %[[SIZE]], %[[NAME:.*]], %{{.*}}, %{{.*}}, %[[NOUT:.*]], %[[OUTS:.*]])
// CHECK-NEXT: %[[OK:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[TIMEOUT:.*]] = arith.constant 8 : i32
// CHECK-NEXT: %[[ERR:.*]] = arith.cmpi ne, %[[RC]], %[[OK]] : i32
// CHECK-NEXT: %[[NOT_TIMEOUT:.*]] = arith.cmpi ne, %[[RC]], %[[TIMEOUT]] : i32
// CHECK-NEXT: %[[FAILED:.*]] = arith.andi %[[ERR]], %[[NOT_TIMEOUT]] : i1
// CHECK-NEXT: scf.if %[[FAILED]] {
// CHECK-NEXT: func.call @p_host(%[[A0]], %[[A1]])
// CHECK: func.func @main
// CHECK-NEXT: call @p(
memref.global "private" constant @p_blob : memref<260xi8> = dense<"0x4E4E4150494D4C420100000001000000030000000100000001000000010000000800000000000000000100000000000004000000000000000401000000000000B4AD5628000000000300000002000000000000000000000000000000010000000000000000000000000000000000000001000000000000000200000000000000000000000300000000000000000000000400000000000000030000000200000002000000000000000000000002000000000000000000000000000000000000000000000003000000010000000400000000000000020000000100000004000000010000000400000000000000000000000100000002000000000000000000000000000000">
func.func private @p(%x: memref<1x4xf32>, %out: memref<1x4xf32>) attributes {nnapi.blob = @p_blob, nnapi.partition} {
  memref.copy %x, %out : memref<1x4xf32> to memref<1x4xf32>
  return
}
func.func @main(%x: memref<1x4xf32>, %out: memref<1x4xf32>) {
  call @p(%x, %out) : (memref<1x4xf32>, memref<1x4xf32>) -> ()
  return
}

// -----

// expected-error@+1 {{nnapi.blob does not name an initialized memref.global}}
func.func private @p(%x: memref<1x4xf32>, %out: memref<1x4xf32>) attributes {nnapi.blob = @missing, nnapi.partition} {
  return
}

// -----

memref.global "private" constant @p_blob : memref<4xi8> = dense<[78, 78, 65, 80]>
// expected-error@+1 {{invalid partition blob: }}
func.func private @p(%x: memref<1x4xf32>, %out: memref<1x4xf32>) attributes {nnapi.blob = @p_blob, nnapi.partition} {
  return
}

// -----

memref.global "private" constant @p_blob : memref<260xi8> = dense<"0x4E4E4150494D4C420100000001000000030000000100000001000000010000000800000000000000000100000000000004000000000000000401000000000000B4AD5628000000000300000002000000000000000000000000000000010000000000000000000000000000000000000001000000000000000200000000000000000000000300000000000000000000000400000000000000030000000200000002000000000000000000000002000000000000000000000000000000000000000000000003000000010000000400000000000000020000000100000004000000010000000400000000000000000000000100000002000000000000000000000000000000">
// expected-error@+1 {{partition must be bufferized with results as out-parameters (or, with dynamic dimensions, returned): expected 1 inputs and 1 outputs}}
func.func private @p(%x: memref<1x4xf32>) -> memref<1x4xf32> attributes {nnapi.blob = @p_blob, nnapi.partition} {
  return %x : memref<1x4xf32>
}

// -----

memref.global "private" constant @p_blob : memref<260xi8> = dense<"0x4E4E4150494D4C420100000001000000030000000100000001000000010000000800000000000000000100000000000004000000000000000401000000000000B4AD5628000000000300000002000000000000000000000000000000010000000000000000000000000000000000000001000000000000000200000000000000000000000300000000000000000000000400000000000000030000000200000002000000000000000000000002000000000000000000000000000000000000000000000003000000010000000400000000000000020000000100000004000000010000000400000000000000000000000100000002000000000000000000000000000000">
// expected-error@+1 {{buffer 1 of type 'memref<1x3xf32>' does not match the blob's TENSOR_FLOAT32 [1,4]}}
func.func private @p(%x: memref<1x4xf32>, %out: memref<1x3xf32>) attributes {nnapi.blob = @p_blob, nnapi.partition} {
  return
}

// -----

memref.global "private" constant @p_blob : memref<260xi8> = dense<"0x4E4E4150494D4C420100000001000000030000000100000001000000010000000800000000000000000100000000000004000000000000000401000000000000B4AD5628000000000300000002000000000000000000000000000000010000000000000000000000000000000000000001000000000000000200000000000000000000000300000000000000000000000400000000000000030000000200000002000000000000000000000002000000000000000000000000000000000000000000000003000000010000000400000000000000020000000100000004000000010000000400000000000000000000000100000002000000000000000000000000000000">
// expected-error@+1 {{symbol p_host already exists}}
func.func private @p(%x: memref<1x4xf32>, %out: memref<1x4xf32>) attributes {nnapi.blob = @p_blob, nnapi.partition} {
  return
}
func.func private @p_host()

// -----

// A partition with a dynamic dimension (one RELU on [?, 4]: the blob's
// operands are [0, 4]) returns its buffer. The runtime specializes the blob
// to the call's dims (nnapi_rt_prepare_dims writes the output's), the
// dispatcher allocates the output at that size and runs it
// (nnapi_rt_execute_dims); anything else frees it and runs the host copy,
// which allocates its own. Dynamic buffers cannot cross the host code's
// bare-pointer calls: the host copy is inlined into the dispatcher, the
// dispatcher into its caller, and both functions are gone.
// CHECK-DAG: func.func private @nnapi_rt_prepare_dims(!llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr) -> i32
// CHECK-DAG: func.func private @nnapi_rt_execute_dims(!llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr, i64, !llvm.ptr) -> i32
// CHECK-NOT: func.func private @p
// CHECK: func.func @main(%[[X:.*]]: memref<?x4xf32>) -> memref<?x4xf32>
// CHECK: %[[ROWS:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x4xf32>
// CHECK: %[[PREP:.*]] = call @nnapi_rt_prepare_dims(
// CHECK: %[[OUT:.*]] = memref.alloc(%{{.*}}) {alignment = 64 : i64} : memref<?x4xf32>
// CHECK: scf.if
// CHECK: call @nnapi_rt_execute_dims(
// CHECK: %[[R:.*]] = scf.if %{{.*}} -> (memref<?x4xf32>) {
// CHECK-NEXT: scf.yield %[[OUT]]
// CHECK-NEXT: } else {
// CHECK-NEXT: memref.dealloc %[[OUT]]
// CHECK: %[[HOST:.*]] = memref.alloc(%{{.*}}) : memref<?x4xf32>
// CHECK-NEXT: memref.copy %[[X]], %[[HOST]]
// CHECK: call @nnapi_rt_verify(
// CHECK: scf.yield %[[HOST]]
// CHECK: return %[[R]]
memref.global "private" constant @p_blob : memref<256xi8> = dense<"0x4E4E4150494D4C420500000001000000020000000100000001000000010000000600000000000000000100000000000000000000000000000001000000000000D1455F470000000003000000020000000000000000000000000000000100000000000000000000000000000000000000030000000200000002000000000000000000000002000000000000000000000000000000000000001300000001000000010000000400000000000000010000000000000004000000000000000400000000000000010000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000">
func.func private @p(%x: memref<?x4xf32>) -> memref<?x4xf32> attributes {nnapi.blob = @p_blob, nnapi.partition} {
  %c0 = arith.constant 0 : index
  %d = memref.dim %x, %c0 : memref<?x4xf32>
  %o = memref.alloc(%d) : memref<?x4xf32>
  memref.copy %x, %o : memref<?x4xf32> to memref<?x4xf32>
  return %o : memref<?x4xf32>
}
func.func @main(%x: memref<?x4xf32>) -> memref<?x4xf32> {
  %r = call @p(%x) : (memref<?x4xf32>) -> memref<?x4xf32>
  return %r : memref<?x4xf32>
}
