// RUN: nnapi-opt %s -nnapi-bound-loops -split-input-file | FileCheck %s

// Each run-time loop asks the runtime for a deadline before it starts and
// whether it may go on before every iteration; its own condition still
// decides when both allow.
// CHECK-LABEL: func.func @counts
// CHECK: %[[DEADLINE:.*]] = call @nnapi_rt_loop_deadline() : () -> i64
// CHECK: scf.while (%[[I:.*]] = %{{.*}}) : (i32) -> i32 {
// CHECK: %[[LESS:.*]] = arith.cmpi slt, %[[I]], %{{.*}} : i32
// CHECK: %[[GO:.*]] = func.call @nnapi_rt_loop_continue(%[[DEADLINE]]) : (i64) -> i32
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK: %[[OK:.*]] = arith.cmpi ne, %[[GO]], %[[ZERO]] : i32
// CHECK: %[[BOTH:.*]] = arith.andi %[[LESS]], %[[OK]] : i1
// CHECK: scf.condition(%[[BOTH]]) %[[I]] : i32
// CHECK: } do {
// The runtime functions are declared once, however many loops use them.
// CHECK: func.func @twice
// CHECK-COUNT-2: call @nnapi_rt_loop_deadline()
// CHECK-DAG: func.func private @nnapi_rt_loop_deadline() -> i64
// CHECK-DAG: func.func private @nnapi_rt_loop_continue(i64) -> i32
// CHECK-NOT: func.func private @nnapi_rt_loop
func.func @counts(%n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %less = arith.cmpi slt, %i, %n : i32
    scf.condition(%less) %i : i32
  } do {
  ^bb0(%i: i32):
    %next = arith.addi %i, %c1 : i32
    scf.yield %next : i32
  }
  return %r : i32
}
func.func @twice(%n: i32) -> i32 {
  %a = call @counts(%n) : (i32) -> i32
  %c0 = arith.constant 0 : i32
  %r:2 = scf.while (%i = %c0, %j = %a) : (i32, i32) -> (i32, i32) {
    %less = arith.cmpi slt, %i, %n : i32
    scf.condition(%less) %i, %j : i32, i32
  } do {
  ^bb0(%i: i32, %j: i32):
    %inner = scf.while (%k = %j) : (i32) -> i32 {
      %small = arith.cmpi slt, %k, %n : i32
      scf.condition(%small) %k : i32
    } do {
    ^bb0(%k: i32):
      %k2 = arith.addi %k, %i : i32
      scf.yield %k2 : i32
    }
    scf.yield %inner, %inner : i32, i32
  }
  return %r#0 : i32
}

// -----

// A module without run-time loops is left alone: nothing declared.
// CHECK-LABEL: func.func @straight
// CHECK-NOT: nnapi_rt_loop
func.func @straight(%x: i32) -> i32 {
  return %x : i32
}
