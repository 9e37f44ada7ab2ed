// RUN: nnapi-opt %s -split-input-file -nnapi-lower-vectors | FileCheck %s

// A contraction becomes outer products: per k, a broadcast element of the
// left operand times a row of the right one, fused into the accumulator.
// CHECK-LABEL: func.func @contract
// CHECK-NOT: vector.contract
// CHECK-COUNT-8: vector.fma {{.*}} : vector<16xf32>
// CHECK-NOT: vector.fma
func.func @contract(%a: vector<2x4xf32>, %b: vector<4x16xf32>, %c: vector<2x16xf32>) -> vector<2x16xf32> {
  %0 = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x4xf32>, vector<4x16xf32> into vector<2x16xf32>
  return %0 : vector<2x16xf32>
}

// -----

// Reducing the innermost dimension: one horizontal reduction.
// CHECK-LABEL: func.func @reduce_innermost
// CHECK: vector.reduction <add>, %{{.*}}, %{{.*}} : vector<64xf32> into f32
func.func @reduce_innermost(%v: vector<1x64xf32>, %acc: vector<1xf32>) -> vector<1xf32> {
  %0 = vector.multi_reduction <add>, %v, %acc [1] : vector<1x64xf32> to vector<1xf32>
  return %0 : vector<1xf32>
}

// -----

// Reducing across rows: element-wise adds of whole rows, no horizontal step.
// CHECK-LABEL: func.func @reduce_rows
// CHECK-COUNT-8: arith.addf {{.*}} : vector<32xf32>
// CHECK-NOT: vector.reduction
func.func @reduce_rows(%v: vector<8x32xf32>, %acc: vector<32xf32>) -> vector<32xf32> {
  %0 = vector.multi_reduction <add>, %v, %acc [0] : vector<8x32xf32> to vector<32xf32>
  return %0 : vector<32xf32>
}

// -----

// exp of a vector is a polynomial on the whole vector; exp of a scalar
// stays a call to libm's expf later.
// CHECK-LABEL: func.func @exp
// CHECK-NOT: math.exp {{.*}} : vector<16xf32>
// CHECK: math.fma {{.*}} : vector<16xf32>
// CHECK: math.exp %arg1 : f32
func.func @exp(%v: vector<16xf32>, %s: f32) -> (vector<16xf32>, f32) {
  %0 = math.exp %v : vector<16xf32>
  %1 = math.exp %s : f32
  return %0, %1 : vector<16xf32>, f32
}

// -----

// log of a vector: subnormal inputs are scaled by 2^23 (0x4B000000) into the
// normal range before the polynomial, and 23 ln 2 (15.9423847) is subtracted
// after it.
// CHECK-LABEL: func.func @log
// CHECK-DAG: %[[MIN:.*]] = arith.constant dense<1.17549435E-38> : vector<8xf32>
// CHECK-DAG: %[[SCALE:.*]] = arith.constant dense<0x4B000000> : vector<8xf32>
// CHECK-DAG: %[[SHIFT:.*]] = arith.constant dense<15.94238{{[0-9]*}}> : vector<8xf32>
// CHECK: %[[SUB:.*]] = arith.cmpf olt, %arg0, %[[MIN]]
// CHECK: %[[MUL:.*]] = arith.mulf %arg0, %[[SCALE]]
// CHECK: %[[X:.*]] = arith.select %[[SUB]], %[[MUL]], %arg0
// CHECK-NOT: math.log
// CHECK: %[[C:.*]] = arith.select %[[SUB]], %[[SHIFT]]
// CHECK: arith.subf %{{.*}}, %[[C]] : vector<8xf32>
func.func @log(%v: vector<8xf32>) -> vector<8xf32> {
  %0 = math.log %v : vector<8xf32>
  return %0 : vector<8xf32>
}

// -----

// A 2-D transfer is one 1-D load per row.
// CHECK-LABEL: func.func @transfer
// CHECK-COUNT-2: vector.load %arg0[{{.*}}] : memref<4x64xf32>, vector<16xf32>
// CHECK-NOT: vector.transfer_read
func.func @transfer(%m: memref<4x64xf32>, %i: index) -> vector<2x16xf32> {
  %c0 = arith.constant 0.0 : f32
  %0 = vector.transfer_read %m[%i, %i], %c0 {in_bounds = [true, true]} : memref<4x64xf32>, vector<2x16xf32>
  return %0 : vector<2x16xf32>
}

// -----

// TOSA's saturating float -> i32 conversion of a rounded value already
// clamped to +-2^30 (a quantize) is a plain fptosi.
// CHECK-LABEL: func.func @in_range_float_to_int
// CHECK: %[[R:.*]] = math.roundeven
// CHECK-NEXT: %[[I:.*]] = arith.fptosi %[[R]] : vector<16xf32> to vector<16xi32>
// CHECK-NEXT: return %[[I]]
func.func @in_range_float_to_int(%x: vector<16xf32>) -> vector<16xi32> {
  %hi = arith.constant dense<1.07374182E+9> : vector<16xf32>
  %lo = arith.constant dense<-1.07374182E+9> : vector<16xf32>
  %big = arith.constant dense<2.14748365E+9> : vector<16xf32>
  %nbig = arith.constant dense<-2.14748365E+9> : vector<16xf32>
  %imax = arith.constant dense<2147483647> : vector<16xi32>
  %0 = arith.minimumf %x, %hi : vector<16xf32>
  %1 = arith.maximumf %0, %lo : vector<16xf32>
  %r = math.roundeven %1 : vector<16xf32>
  %m = arith.maximumf %r, %nbig : vector<16xf32>
  %i = arith.fptosi %m : vector<16xf32> to vector<16xi32>
  %c = arith.cmpf uge, %r, %big : vector<16xf32>
  %s = arith.select %c, %imax, %i : vector<16xi1>, vector<16xi32>
  return %s : vector<16xi32>
}

// -----

// Unclamped (or clamped beyond +-2^30), the saturation stays.
// CHECK-LABEL: func.func @maybe_out_of_range
// CHECK: arith.cmpf uge
// CHECK: arith.select
func.func @maybe_out_of_range(%x: vector<16xf32>) -> vector<16xi32> {
  %hi = arith.constant dense<3.0e+9> : vector<16xf32>
  %lo = arith.constant dense<-1.07374182E+9> : vector<16xf32>
  %big = arith.constant dense<2.14748365E+9> : vector<16xf32>
  %nbig = arith.constant dense<-2.14748365E+9> : vector<16xf32>
  %imax = arith.constant dense<2147483647> : vector<16xi32>
  %0 = arith.minimumf %x, %hi : vector<16xf32>
  %1 = arith.maximumf %0, %lo : vector<16xf32>
  %r = math.roundeven %1 : vector<16xf32>
  %m = arith.maximumf %r, %nbig : vector<16xf32>
  %i = arith.fptosi %m : vector<16xf32> to vector<16xi32>
  %c = arith.cmpf uge, %r, %big : vector<16xf32>
  %s = arith.select %c, %imax, %i : vector<16xi1>, vector<16xi32>
  return %s : vector<16xi32>
}
