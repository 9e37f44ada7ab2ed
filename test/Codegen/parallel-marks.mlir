// nnapi-codegen marks the loops over a group's output tiles as parallel,
// with the work of one iteration in iteration points; transposes get
// parallel loops around vector rows or 8x8 blocks, or around scalar tiles.
//
// RUN: nnapi-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,func.func(nnapi-codegen-prepare{vector-bits=256},nnapi-codegen{vector-bits=256 vector-registers=16}))" | FileCheck %s

// 16x16x32 -> 16x16x64, 3x3: the group (the convolution, 16*16*64*9*32 =
// 4718592 points, its bias broadcast and the clamp, 16384 each) is
// 4751360 points; 16 rows, then 4 column tiles of 4, then 4 channel tiles
// of 16.
// CHECK-LABEL: func.func @conv
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: vector.contract
// CHECK: } {nnapi.parallel = 18560 : i64}
// CHECK: } {nnapi.parallel = 74240 : i64}
// CHECK: } {nnapi.parallel = 296960 : i64}
func.func @conv(%x: tensor<1x18x18x32xf32>) -> tensor<1x16x16x64xf32> {
  %w = "tosa.const"() {value = dense<0.5> : tensor<64x3x3x32xf32>} : () -> tensor<64x3x3x32xf32>
  %b = "tosa.const"() {value = dense<0.1> : tensor<64xf32>} : () -> tensor<64xf32>
  %0 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x18x18x32xf32>, tensor<64x3x3x32xf32>, tensor<64xf32>) -> tensor<1x16x16x64xf32>
  %1 = tosa.clamp %0 {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<1x16x16x64xf32>) -> tensor<1x16x16x64xf32>
  return %1 : tensor<1x16x16x64xf32>
}

// -----

// A matrix transpose goes by 8x8 blocks (8 lanes of 256 bits): a vector
// transpose in registers each.
// CHECK-LABEL: func.func @transpose
// CHECK: scf.for {{.*}} = %c0 to %c64 step %c8
// CHECK: scf.for {{.*}} = %c0 to %c96 step %c8
// CHECK: vector.transfer_read {{.*}} : tensor<96x64xf32>, vector<8x8xf32>
// CHECK: vector.transpose {{.*}} [1, 0] : vector<8x8xf32> to vector<8x8xf32>
// CHECK: vector.transfer_write
// CHECK: } {nnapi.parallel = 64 : i64}
// CHECK: } {nnapi.parallel = 768 : i64}
func.func @transpose(%x: tensor<96x64xf32>) -> tensor<64x96xf32> {
  %p = "tosa.const"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %0 = tosa.transpose %x, %p : (tensor<96x64xf32>, tensor<2xi32>) -> tensor<64x96xf32>
  return %0 : tensor<64x96xf32>
}

// -----

// A transpose that keeps the last dimension (a head split) moves whole
// rows, one vector each.
// CHECK-LABEL: func.func @heads
// CHECK: scf.for {{.*}} = %c0 to %c2 step %c1
// CHECK: scf.for {{.*}} = %c0 to %c12 step %c1
// CHECK: scf.for {{.*}} = %c0 to %c16 step %c1
// CHECK: vector.transfer_read {{.*}} : tensor<2x16x12x64xf32>, vector<1x1x1x64xf32>
// CHECK: vector.transfer_write
// CHECK: } {nnapi.parallel = 64 : i64}
// CHECK: } {nnapi.parallel = 1024 : i64}
// CHECK: } {nnapi.parallel = 12288 : i64}
func.func @heads(%x: tensor<2x16x12x64xf32>) -> tensor<2x12x16x64xf32> {
  %p = "tosa.const"() {value = dense<[0, 2, 1, 3]> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = tosa.transpose %x, %p : (tensor<2x16x12x64xf32>, tensor<4xi32>) -> tensor<2x12x16x64xf32>
  return %0 : tensor<2x12x16x64xf32>
}

// -----

// One that moves the last dimension elsewhere (NHWC to NCHW) stays scalar:
// parallel loops over the outer dimensions around scalar planes.
// CHECK-LABEL: func.func @to_nchw
// CHECK: scf.for {{.*}} = %c0 to %c2 step %c1
// CHECK: linalg.transpose {{.*}} {nnapi.codegen = "scalar loops: {{.*}}"}
// CHECK: } {nnapi.parallel = 1536 : i64}
func.func @to_nchw(%x: tensor<2x16x32x3xf32>) -> tensor<2x3x16x32xf32> {
  %p = "tosa.const"() {value = dense<[0, 3, 1, 2]> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = tosa.transpose %x, %p : (tensor<2x16x32x3xf32>, tensor<4xi32>) -> tensor<2x3x16x32xf32>
  return %0 : tensor<2x3x16x32xf32>
}
