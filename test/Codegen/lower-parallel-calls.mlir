// RUN: nnapi-opt %s -split-input-file --nnapi-lower-parallel-calls | FileCheck %s

// The call of an outlined loop becomes nnapi_rt_parallel_for: its other
// arguments go into a struct in the caller's frame, which the task loads
// before calling the function; both functions become internal.
// CHECK: llvm.func @nnapi_rt_parallel_for(!llvm.ptr, !llvm.ptr, i64, i64)
// CHECK-LABEL: llvm.func @f(
// CHECK-SAME: %[[P:.*]]: !llvm.ptr, %[[X:.*]]: f32)
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[CTX:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(ptr, f32)>
// CHECK: %[[N:.*]] = llvm.mlir.constant(12 : index) : i64
// CHECK: %[[A0:.*]] = llvm.getelementptr %[[CTX]][0, 0]
// CHECK: llvm.store %[[P]], %[[A0]]
// CHECK: %[[A1:.*]] = llvm.getelementptr %[[CTX]][0, 1]
// CHECK: llvm.store %[[X]], %[[A1]]
// CHECK: %[[FN:.*]] = llvm.mlir.addressof @f_parallel0_task
// CHECK: %[[G:.*]] = llvm.mlir.constant(3 : i64) : i64
// CHECK: llvm.call @nnapi_rt_parallel_for(%[[FN]], %[[CTX]], %[[N]], %[[G]])
// CHECK-NOT: llvm.call @f_parallel0(
// CHECK: llvm.return
// CHECK: llvm.func internal @f_parallel0(
// CHECK: llvm.func internal @f_parallel0_task(%[[C:.*]]: !llvm.ptr, %[[B:.*]]: i64, %[[E:.*]]: i64)
// CHECK: %[[G0:.*]] = llvm.getelementptr %[[C]][0, 0]
// CHECK: %[[V0:.*]] = llvm.load %[[G0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[G1:.*]] = llvm.getelementptr %[[C]][0, 1]
// CHECK: %[[V1:.*]] = llvm.load %[[G1]] : !llvm.ptr -> f32
// CHECK: llvm.call @f_parallel0(%[[B]], %[[E]], %[[V0]], %[[V1]])
llvm.func @f(%p: !llvm.ptr, %x: f32) {
  %zero = llvm.mlir.constant(0 : index) : i64
  %n = llvm.mlir.constant(12 : index) : i64
  llvm.call @f_parallel0(%zero, %n, %p, %x) {nnapi.parallel_grain = 3 : i64} : (i64, i64, !llvm.ptr, f32) -> ()
  llvm.return
}
llvm.func @f_parallel0(%b: i64, %e: i64, %p: !llvm.ptr, %x: f32) attributes {sym_visibility = "private"} {
  llvm.return
}

// -----

// Two calls of one function (two layers merged by
// nnapi-merge-identical-functions) share one task: the function's code is
// inlined into one task, not into one per call.
// CHECK-LABEL: llvm.func @twice(
// CHECK: %[[FN1:.*]] = llvm.mlir.addressof @g_parallel0_task
// CHECK: llvm.call @nnapi_rt_parallel_for(%[[FN1]],
// CHECK: %[[FN2:.*]] = llvm.mlir.addressof @g_parallel0_task
// CHECK: llvm.call @nnapi_rt_parallel_for(%[[FN2]],
// CHECK: llvm.func internal @g_parallel0_task(
// CHECK-NOT: llvm.func internal @g_parallel0_task_
llvm.func @twice(%p: !llvm.ptr, %q: !llvm.ptr) {
  %zero = llvm.mlir.constant(0 : index) : i64
  %n = llvm.mlir.constant(12 : index) : i64
  llvm.call @g_parallel0(%zero, %n, %p) {nnapi.parallel_grain = 3 : i64} : (i64, i64, !llvm.ptr) -> ()
  llvm.call @g_parallel0(%zero, %n, %q) {nnapi.parallel_grain = 3 : i64} : (i64, i64, !llvm.ptr) -> ()
  llvm.return
}
llvm.func @g_parallel0(%b: i64, %e: i64, %p: !llvm.ptr) attributes {sym_visibility = "private"} {
  llvm.return
}
