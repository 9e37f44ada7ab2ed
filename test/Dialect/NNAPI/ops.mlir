// RUN: nnapi-opt %s | nnapi-opt | FileCheck %s

// CHECK-LABEL: func @roundtrip
func.func @roundtrip(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>,
                     %dw: tensor<1x3x3x8xf32>, %db: tensor<8xf32>,
                     %h: tensor<1x4xf16>) -> (tensor<1x10xf32>, tensor<1x4xf16>) {
  // CHECK: nnapi.conv_2d %{{.*}} padding = [1, 1, 1, 1] strides = [1, 1] dilations = [1, 1] fused relu
  %0 = nnapi.conv_2d %x, %w, %b padding = [1, 1, 1, 1] strides = [1, 1] dilations = [1, 1] fused relu : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
  // CHECK: nnapi.depthwise_conv_2d {{.*}} depth_multiplier = 2 fused relu6
  %1 = nnapi.depthwise_conv_2d %0, %dw, %db padding = [1, 1, 1, 1] strides = [1, 1] dilations = [1, 1] depth_multiplier = 2 fused relu6 : (tensor<1x8x8x4xf32>, tensor<1x3x3x8xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
  // CHECK: nnapi.average_pool_2d {{.*}} filter = [2, 2] :
  %2 = nnapi.average_pool_2d %1 padding = [0, 0, 0, 0] strides = [2, 2] filter = [2, 2] : (tensor<1x8x8x8xf32>) -> tensor<1x4x4x8xf32>
  // CHECK: nnapi.max_pool_2d
  %3 = nnapi.max_pool_2d %2 padding = [0, 1, 0, 1] strides = [2, 2] filter = [2, 2] : (tensor<1x4x4x8xf32>) -> tensor<1x2x2x8xf32>
  // CHECK: nnapi.concatenation {{.*}} axis = 3
  %4 = nnapi.concatenation %3, %3 axis = 3 : (tensor<1x2x2x8xf32>, tensor<1x2x2x8xf32>) -> tensor<1x2x2x16xf32>
  %5 = nnapi.logistic %4 : tensor<1x2x2x16xf32>
  %6 = nnapi.tanh %5 : tensor<1x2x2x16xf32>
  %7 = nnapi.relu1 %6 : tensor<1x2x2x16xf32>
  // CHECK: nnapi.reshape %{{.*}} : (tensor<1x2x2x16xf32>) -> tensor<1x64xf32>
  %8 = nnapi.reshape %7 : (tensor<1x2x2x16xf32>) -> tensor<1x64xf32>
  %fw = arith.constant dense<1.0> : tensor<10x64xf32>
  %fb = arith.constant dense<0.0> : tensor<10xf32>
  // CHECK: nnapi.fully_connected
  %9 = nnapi.fully_connected %8, %fw, %fb : (tensor<1x64xf32>, tensor<10x64xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  %one = arith.constant dense<1.0> : tensor<10xf32>
  // CHECK: nnapi.sub %{{.*}}, %{{.*}} : (tensor<1x10xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  %10 = nnapi.sub %9, %one : (tensor<1x10xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  %11 = nnapi.div %10, %one fused relu1 : (tensor<1x10xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  // CHECK: nnapi.softmax %{{.*}} beta = 1.000000e+00 : tensor<1x10xf32>
  %12 = nnapi.softmax %11 beta = 1.0 : tensor<1x10xf32>
  // CHECK: nnapi.add {{.*}} : (tensor<1x4xf16>, tensor<1x4xf16>) -> tensor<1x4xf16>
  %13 = nnapi.add %h, %h : (tensor<1x4xf16>, tensor<1x4xf16>) -> tensor<1x4xf16>
  return %12, %13 : tensor<1x10xf32>, tensor<1x4xf16>
}

// Element-wise operations of feature level 3.
// CHECK-LABEL: func @elementwise_fl3
func.func @elementwise_fl3(%x: tensor<2x3xf32>, %y: tensor<3xf32>, %h: tensor<4xf16>) -> (tensor<2x3xf32>, tensor<4xf16>) {
  // CHECK: nnapi.exp %{{.*}} : tensor<2x3xf32>
  %0 = nnapi.exp %x : tensor<2x3xf32>
  // CHECK: nnapi.log
  %1 = nnapi.log %0 : tensor<2x3xf32>
  // CHECK: nnapi.sqrt
  %2 = nnapi.sqrt %1 : tensor<2x3xf32>
  // CHECK: nnapi.rsqrt
  %3 = nnapi.rsqrt %2 : tensor<2x3xf32>
  // CHECK: nnapi.abs
  %4 = nnapi.abs %3 : tensor<2x3xf32>
  // CHECK: nnapi.neg
  %5 = nnapi.neg %4 : tensor<2x3xf32>
  // CHECK: nnapi.floor
  %6 = nnapi.floor %5 : tensor<2x3xf32>
  // CHECK: nnapi.sin
  %7 = nnapi.sin %6 : tensor<2x3xf32>
  // CHECK: nnapi.maximum %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %8 = nnapi.maximum %7, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: nnapi.minimum
  %9 = nnapi.minimum %8, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: nnapi.pow
  %10 = nnapi.pow %9, %9 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: nnapi.exp %{{.*}} : tensor<4xf16>
  %11 = nnapi.exp %h : tensor<4xf16>
  return %10, %11 : tensor<2x3xf32>, tensor<4xf16>
}
