// The code generation strategy of each op kind, from TOSA: tile loops sized
// for the target's registers, the initializer and the element-wise chain
// fused into the tiles, reductions tiled to one filter row, windows
// decomposed to 1-D and vectorized into contractions or FMAs that accumulate
// in vectors carried through the reduction loops.
//
// RUN: nnapi-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,func.func(nnapi-codegen-prepare{vector-bits=512},nnapi-codegen{vector-bits=512 vector-registers=32}))" | FileCheck %s
// 128-bit vectors (SSE, NEON): narrower tiles.
// RUN: nnapi-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,func.func(nnapi-codegen-prepare{vector-bits=128},nnapi-codegen{vector-bits=128 vector-registers=16}))" | FileCheck %s --check-prefix=V128

// 3x3 convolution with bias and ReLU6: 8 output pixels x 32 channels (two
// 512-bit vectors) per tile, the bias (a splat: one constant vector) as the
// accumulator's start, KH and KW loops carrying the accumulator, the input
// channels contracted, the clamp applied to the vector before the one write.
// CHECK-LABEL: func.func @conv
// CHECK: %[[BIAS:.*]] = arith.constant dense<1.000000e-01> : vector<1x1x8x32xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1
// CHECK: scf.for %[[W:.*]] = %c0 to %c16 step %c8
// CHECK: scf.for %[[F:.*]] = %c0 to %c64 step %c32
// CHECK: vector.transfer_write %[[BIAS]]
// CHECK: scf.for {{.*}} = %c0 to %c3 step %c1 iter_args({{.*}}) -> (vector<1x8x32xf32>)
// CHECK: scf.for {{.*}} = %c0 to %c3 step %c1 iter_args({{.*}}) -> (vector<1x8x32xf32>)
// CHECK: vector.contract {{.*}} : vector<1x8x8xf32>, vector<8x32xf32> into vector<1x8x32xf32>
// CHECK: arith.minimumf {{.*}} : vector<1x1x8x32xf32>
// CHECK: arith.maximumf {{.*}} : vector<1x1x8x32xf32>
// CHECK: vector.transfer_write {{.*}} : vector<1x1x8x32xf32>, tensor<1x8x16x64xf32>
// CHECK-NOT: linalg.conv
// V128-LABEL: func.func @conv
// V128: scf.for {{.*}} = %c0 to %c16 step %c4
// V128: scf.for {{.*}} = %c0 to %c64 step %c8
// V128: vector.contract {{.*}} : vector<1x4x8xf32>, vector<8x8xf32> into vector<1x4x8xf32>
func.func @conv(%x: tensor<1x8x16x8xf32>) -> tensor<1x8x16x64xf32> {
  %w = "tosa.const"() {value = dense<0.5> : tensor<64x3x3x8xf32>} : () -> tensor<64x3x3x8xf32>
  %b = "tosa.const"() {value = dense<0.1> : tensor<64xf32>} : () -> tensor<64xf32>
  %0 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x16x8xf32>, tensor<64x3x3x8xf32>, tensor<64xf32>) -> tensor<1x8x16x64xf32>
  %1 = tosa.clamp %0 {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<1x8x16x64xf32>) -> tensor<1x8x16x64xf32>
  return %1 : tensor<1x8x16x64xf32>
}

// -----

// Depthwise 3x3: one filter row per step of the KH loop, its three taps as
// FMAs on 4 pixels x 32 channels; the bias add fused after.
// CHECK-LABEL: func.func @depthwise
// CHECK: scf.for {{.*}} = %c0 to %c16 step %c4
// CHECK: scf.for {{.*}} = %c0 to %c3 step %c1 iter_args({{.*}}) -> (vector<1x4x32xf32>)
// CHECK-COUNT-3: vector.fma {{.*}} : vector<1x4x32xf32>
// CHECK: arith.addf {{.*}} : vector<1x1x4x32xf32>
// CHECK-NOT: linalg.depthwise
func.func @depthwise(%x: tensor<1x16x16x32xf32>) -> tensor<1x16x16x32xf32> {
  %w = "tosa.const"() {value = dense<0.5> : tensor<3x3x32x1xf32>} : () -> tensor<3x3x32x1xf32>
  %b = "tosa.const"() {value = dense<0.1> : tensor<32xf32>} : () -> tensor<32xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x32xf32>, tensor<3x3x32x1xf32>, tensor<32xf32>) -> tensor<1x16x16x32xf32>
  return %0 : tensor<1x16x16x32xf32>
}

// -----

// Max pool 2x2 stride 2: the window's rows in a loop, its columns as
// element-wise maxima of whole channel vectors.
// CHECK-LABEL: func.func @maxpool
// CHECK: scf.for {{.*}} = %c0 to %c8 step %c4
// CHECK: scf.for {{.*}} = %c0 to %c2 step %c1 iter_args({{.*}}) -> (vector<1x4x32xf32>)
// CHECK: arith.maximumf {{.*}} : vector<1x1x32xf32>
// CHECK-NOT: linalg.pooling
func.func @maxpool(%x: tensor<1x16x16x32xf32>) -> tensor<1x8x8x32xf32> {
  %0 = tosa.max_pool2d %x {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x16x16x32xf32>) -> tensor<1x8x8x32xf32>
  return %0 : tensor<1x8x8x32xf32>
}

// -----

// Matmul of two activations (tosa.matmul, batch 1): 8 x 32 tiles, K in
// steps of 4 contracted into the carried accumulator.
// CHECK-LABEL: func.func @matmul
// CHECK: scf.for {{.*}} = %c0 to %c16 step %c8
// CHECK: scf.for {{.*}} = %c0 to %c64 step %c32
// CHECK: scf.for {{.*}} = %c0 to %c64 step %c4 iter_args({{.*}}) -> (vector<8x32xf32>)
// CHECK: vector.contract {{.*}} : vector<8x4xf32>, vector<4x32xf32> into vector<8x32xf32>
// CHECK-NOT: linalg.batch_matmul
func.func @matmul(%a: tensor<1x16x64xf32>, %b: tensor<1x64x64xf32>) -> tensor<1x16x64xf32> {
  %0 = tosa.matmul %a, %b : (tensor<1x16x64xf32>, tensor<1x64x64xf32>) -> tensor<1x16x64xf32>
  return %0 : tensor<1x16x64xf32>
}

// -----

// Fully connected with constant weights [64, 2]: each tile streams one
// packed panel [K, 32] of the transposed weights.
// CHECK-LABEL: func.func @fully_connected
// CHECK: %[[P:.*]] = arith.constant dense<{{.*}}> : tensor<2x2x32xf32>
// CHECK: scf.for %[[NB:.*]] = %c0 to %c2 step %c1
// CHECK: tensor.extract_slice %[[P]][%[[NB]], 0, 0] [1, 2, 32]
// CHECK: vector.contract {{.*}} : vector<4x2xf32>, vector<2x32xf32> into vector<4x32xf32>
func.func @fully_connected(%x: tensor<4x2xf32>) -> tensor<4x64xf32> {
  %w = "tosa.const"() {value = dense<"0x000000000000803F0000004000004040000080400000A0400000C040000000000000803F0000004000004040000080400000A0400000C040000000000000803F0000004000004040000080400000A0400000C040000000000000803F0000004000004040000080400000A0400000C040000000000000803F0000004000004040000080400000A0400000C040000000000000803F0000004000004040000080400000A0400000C040000000000000803F0000004000004040000080400000A0400000C040000000000000803F0000004000004040000080400000A0400000C040000000000000803F0000004000004040000080400000A0400000C040000000000000803F0000004000004040000080400000A0400000C040000000000000803F0000004000004040000080400000A0400000C040000000000000803F0000004000004040000080400000A0400000C040000000000000803F0000004000004040000080400000A0400000C040000000000000803F0000004000004040000080400000A0400000C040000000000000803F0000004000004040000080400000A0400000C040000000000000803F0000004000004040000080400000A0400000C040000000000000803F0000004000004040000080400000A0400000C040000000000000803F0000004000004040000080400000A0400000C040000000000000803F"> : tensor<64x2xf32>} : () -> tensor<64x2xf32>
  %b = "tosa.const"() {value = dense<0.1> : tensor<64xf32>} : () -> tensor<64xf32>
  %0 = tosa.fully_connected %x, %w, %b : (tensor<4x2xf32>, tensor<64x2xf32>, tensor<64xf32>) -> tensor<4x64xf32>
  return %0 : tensor<4x64xf32>
}

// -----

// Element-wise chain (add, sigmoid): tiles of four vectors along the last
// dimension, the remainder 100 - 64 = 36 as 32 + 4.
// CHECK-LABEL: func.func @elementwise
// CHECK: arith.addf {{.*}} : vector<1x64xf32>
// CHECK: math.exp {{.*}} : vector<1x64xf32>
// CHECK: math.exp {{.*}} : vector<1x32xf32>
// CHECK: math.exp {{.*}} : vector<1x4xf32>
func.func @elementwise(%a: tensor<4x100xf32>, %b: tensor<4x100xf32>) -> tensor<4x100xf32> {
  %0 = tosa.add %a, %b : (tensor<4x100xf32>, tensor<4x100xf32>) -> tensor<4x100xf32>
  %1 = tosa.sigmoid %0 : (tensor<4x100xf32>) -> tensor<4x100xf32>
  return %1 : tensor<4x100xf32>
}

// -----

// Reduction along the innermost dimension: one row per step, the row in
// chunks of four vectors reduced into the carried sum.
// CHECK-LABEL: func.func @reduce
// CHECK: scf.for {{.*}} = %c0 to %c4 step %c1
// CHECK: vector.multi_reduction <add>, {{.*}} [1] : vector<1x64xf32> to vector<1xf32>
// CHECK: vector.multi_reduction <add>, {{.*}} [1] : vector<1x36xf32> to vector<1xf32>
// CHECK-NOT: linalg.reduce
func.func @reduce(%a: tensor<4x100xf32>) -> tensor<4x1xf32> {
  %0 = tosa.reduce_sum %a {axis = 1 : i32} : (tensor<4x100xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

// A planar RGB image interleaved (NCHW -> NHWC with 3 channels, which move
// last): a vector's worth of pixels by the three channels, read as three
// rows and transposed in registers.
// CHECK-LABEL: func.func @planar_to_interleaved
// CHECK: vector.transfer_read %arg0{{.*}} : tensor<1x3x4x32xf32>, vector<1x3x1x16xf32>
// CHECK: vector.transpose {{.*}}, [0, 2, 3, 1] : vector<1x3x1x16xf32> to vector<1x1x16x3xf32>
// CHECK: vector.transfer_write {{.*}} : vector<1x1x16x3xf32>, tensor<1x4x32x3xf32>
// CHECK-NOT: linalg.transpose
func.func @planar_to_interleaved(%x: tensor<1x3x4x32xf32>) -> tensor<1x4x32x3xf32> {
  %p = "tosa.const"() {value = dense<[0, 2, 3, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = tosa.transpose %x, %p : (tensor<1x3x4x32xf32>, tensor<4xi32>) -> tensor<1x4x32x3xf32>
  return %0 : tensor<1x4x32x3xf32>
}
