// RUN: nnapi-opt %s --nnapi-emit-entry-point | FileCheck %s

// The entry point compares each bound input's buffer with the value before
// running, and returns 1 + its index when they differ (i1: one byte each).

// CHECK-LABEL: llvm.func @nnapi_model_run
// CHECK: llvm.load
// CHECK: %[[IN1:.*]] = llvm.load
// CHECK: %[[IN2:.*]] = llvm.load
// CHECK: %[[EXP1:.*]] = llvm.mlir.addressof @nnapi_bound_input_1
// CHECK: %[[N1:.*]] = llvm.mlir.constant(16 : i64)
// CHECK: %[[D1:.*]] = llvm.call @memcmp(%[[IN1]], %[[EXP1]], %[[N1]])
// CHECK: %[[NE1:.*]] = llvm.icmp "ne" %[[D1]]
// CHECK: llvm.cond_br %[[NE1]], ^[[BAD1:[a-z0-9]+]], ^[[NEXT1:[a-z0-9]+]]
// CHECK: ^[[BAD1]]:
// CHECK-NEXT: %[[C2:.*]] = llvm.mlir.constant(2 : i32)
// CHECK-NEXT: llvm.return %[[C2]]
// CHECK: ^[[NEXT1]]:
// CHECK: llvm.call @memcmp(%[[IN2]], %{{.*}}, %{{.*}})
// CHECK: llvm.mlir.constant(3 : i32)
// CHECK: llvm.call @main(
// CHECK: llvm.func @memcmp(!llvm.ptr, !llvm.ptr, i64) -> i32
// CHECK: llvm.mlir.global internal constant @nnapi_bound_input_1("\03\00\00\00\00\00\00\00\04\00\00\00\00\00\00\00")
// CHECK: llvm.mlir.global internal constant @nnapi_bound_input_2("\01\00\01")
// CHECK-NOT: nnapi.bound_inputs
module attributes {
    nnapi.signature = "nnapi-mlir-model 1\0Apartitions 0\0Ainput 0 x f32 2\0Ainput 1 s i64 2 bound\0Ainput 2 m i1 3 bound\0Aoutput 0 y f32 2\0A",
    nnapi.bound_inputs = {"1" = dense<[3, 4]> : tensor<2xi64>, "2" = dense<[true, false, true]> : tensor<3xi1>}} {
  llvm.func @main(%x: !llvm.ptr, %s: !llvm.ptr, %m: !llvm.ptr, %y: !llvm.ptr) {
    llvm.return
  }
}
