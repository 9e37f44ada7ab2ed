// Sizes that divide no tile: loops whose tile does not divide the size are
// peeled, so the remainder tiles are vectorized with static shapes too, and
// a lane remainder that is not a power of two is split into ones that are.
//
// RUN: nnapi-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,func.func(nnapi-codegen-prepare{vector-bits=512},nnapi-codegen{vector-bits=512 vector-registers=32}))" | FileCheck %s

// 3x3 stride-2 convolution, 24 -> 40 channels, 37x37 -> 19x19: output
// columns 16 + 3, channels 32 + 8, so four static tile shapes; 24 input
// channels in steps of 4.
// CHECK-LABEL: func.func @conv_awkward
// CHECK: scf.for {{.*}} = %c0 to %c16 step %c8
// CHECK: scf.for {{.*}} = %c0 to %c24 step %c4 iter_args({{.*}}) -> (vector<1x8x32xf32>)
// CHECK: vector.contract {{.*}} into vector<1x1x32xf32>
// CHECK: scf.for {{.*}} = %c0 to %c24 step %c4 iter_args({{.*}}) -> (vector<1x8x8xf32>)
// CHECK: vector.contract {{.*}} into vector<1x1x8xf32>
// CHECK: scf.for {{.*}} = %c0 to %c24 step %c4 iter_args({{.*}}) -> (vector<1x3x32xf32>)
// CHECK: scf.for {{.*}} = %c0 to %c24 step %c4 iter_args({{.*}}) -> (vector<1x3x8xf32>)
// CHECK-NOT: linalg.conv
// CHECK-NOT: nnapi.codegen
func.func @conv_awkward(%x: tensor<1x37x37x24xf32>) -> tensor<1x19x19x40xf32> {
  %w = "tosa.const"() {value = dense<0.5> : tensor<40x3x3x24xf32>} : () -> tensor<40x3x3x24xf32>
  %b = "tosa.const"() {value = dense<0.1> : tensor<40xf32>} : () -> tensor<40xf32>
  %0 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x37x37x24xf32>, tensor<40x3x3x24xf32>, tensor<40xf32>) -> tensor<1x19x19x40xf32>
  return %0 : tensor<1x19x19x40xf32>
}

// -----

// 44 channels of a depthwise convolution: 32 + 12, and 12 = 8 + 4.
// CHECK-LABEL: func.func @depthwise_awkward
// CHECK-DAG: vector.fma {{.*}} : vector<1x{{[0-9]+}}x32xf32>
// CHECK-DAG: vector.fma {{.*}} : vector<1x{{[0-9]+}}x8xf32>
// CHECK-DAG: vector.fma {{.*}} : vector<1x{{[0-9]+}}x4xf32>
// CHECK-NOT: vector<{{[0-9x]*}}x12xf32>
func.func @depthwise_awkward(%x: tensor<1x37x37x44xf32>) -> tensor<1x19x19x44xf32> {
  %w = "tosa.const"() {value = dense<0.5> : tensor<3x3x44x1xf32>} : () -> tensor<3x3x44x1xf32>
  %b = "tosa.const"() {value = dense<0.1> : tensor<44xf32>} : () -> tensor<44xf32>
  %0 = tosa.depthwise_conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x37x37x44xf32>, tensor<3x3x44x1xf32>, tensor<44xf32>) -> tensor<1x19x19x44xf32>
  return %0 : tensor<1x19x19x44xf32>
}

// -----

// 52 output columns of a matmul: 32 + 20, and 20 = 16 + 4; 13 rows: 8 + 5.
// CHECK-LABEL: func.func @matmul_awkward
// CHECK-DAG: vector.contract {{.*}} into vector<8x32xf32>
// CHECK-DAG: vector.contract {{.*}} into vector<8x16xf32>
// CHECK-DAG: vector.contract {{.*}} into vector<8x4xf32>
// CHECK-DAG: vector.contract {{.*}} into vector<5x32xf32>
// CHECK-DAG: vector.contract {{.*}} into vector<5x16xf32>
// CHECK-DAG: vector.contract {{.*}} into vector<5x4xf32>
// CHECK-NOT: vector<{{[0-9x]*}}x20xf32>
func.func @matmul_awkward(%a: tensor<1x13x20xf32>, %b: tensor<1x20x52xf32>) -> tensor<1x13x52xf32> {
  %0 = tosa.matmul %a, %b : (tensor<1x13x20xf32>, tensor<1x20x52xf32>) -> tensor<1x13x52xf32>
  return %0 : tensor<1x13x52xf32>
}
