// RUN: not nnapi-opt %s -convert-tosa-to-nnapi 2>&1 | FileCheck %s

// The ops one ONNX node becomes share its location. Each keeps the reason
// its own pattern gave: the transpose's is about its permutation, not the
// convolution's weight (reasons were kept by location, and the last one
// given for the location was reported for both).
// CHECK: error: loc("node"): 'tosa.conv2d' cannot run on NNAPI: weight must be a constant
// CHECK: error: loc("node"): 'tosa.transpose' cannot run on NNAPI: perms must be a constant
// CHECK-NOT: error
#node = loc("node")
func.func @shared(%x: tensor<1x4x4x2xf32>, %w: tensor<2x1x1x2xf32>, %p: tensor<4xi32>) -> (tensor<1x4x4x2xf32>, tensor<2x1x4x4xf32>) attributes {nnapi.partition} {
  %b = "tosa.const"() {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<2x1x1x2xf32>, tensor<2xf32>) -> tensor<1x4x4x2xf32> loc(#node)
  %1 = tosa.transpose %x, %p : (tensor<1x4x4x2xf32>, tensor<4xi32>) -> tensor<2x1x4x4xf32> loc(#node)
  return %0, %1 : tensor<1x4x4x2xf32>, tensor<2x1x4x4xf32>
}
