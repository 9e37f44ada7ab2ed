// RUN: nnapi-opt %s -nnapi-expand-math | FileCheck %s

// math.rsqrt becomes 1 / sqrt(x) with a one of the operand's type, scalar
// or vector; other math ops stay.
// CHECK-LABEL: func.func @rsqrt
// CHECK-DAG: %[[ONE64:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-DAG: %[[ONEV:.*]] = arith.constant dense<1.000000e+00> : vector<4xf32>
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[S:.*]] = math.sqrt %arg0 : f32
// CHECK-NEXT: %[[R:.*]] = arith.divf %[[ONE]], %[[S]] : f32
// CHECK-NEXT: %[[SV:.*]] = math.sqrt %arg1 : vector<4xf32>
// CHECK-NEXT: %[[RV:.*]] = arith.divf %[[ONEV]], %[[SV]] : vector<4xf32>
// CHECK-NEXT: %[[S64:.*]] = math.sqrt %arg2 : f64
// CHECK-NEXT: %[[R64:.*]] = arith.divf %[[ONE64]], %[[S64]] : f64
// CHECK-NEXT: %[[KEPT:.*]] = math.sqrt %arg0 : f32
// CHECK-NEXT: return %[[R]], %[[RV]], %[[R64]], %[[KEPT]]
// CHECK-NOT: math.rsqrt
func.func @rsqrt(%x: f32, %v: vector<4xf32>, %y: f64) -> (f32, vector<4xf32>, f64, f32) {
  %0 = math.rsqrt %x : f32
  %1 = math.rsqrt %v : vector<4xf32>
  %2 = math.rsqrt %y : f64
  %3 = math.sqrt %x : f32
  return %0, %1, %2, %3 : f32, vector<4xf32>, f64, f32
}
