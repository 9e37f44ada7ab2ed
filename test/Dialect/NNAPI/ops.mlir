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
