// RUN: nnapi-opt %s -verify-diagnostics -nnapi-specialize-shapes='shape-buckets=1x5x4;1x8x4' | FileCheck %s

// A model valid at one size only: at the other shape, inference finds its
// reshape impossible; that shape runs the dynamic code (the warning says
// why) and the compilation goes on.
// CHECK-LABEL: func.func @main
// CHECK-NOT: @main__shape0
// CHECK: func.func @main__shape1(%{{.*}}: tensor<1x8x4xf32>) -> tensor<32xf32>
// expected-warning @+1 {{--shape-buckets: shape 1 runs the dynamic host code: its static copy is not valid at that shape ('tosa.reshape' op cannot reshape 20 elements into 32)}}
func.func @main(%x: tensor<1x?x4xf32>) -> tensor<32xf32> {
  %y = tosa.reshape %x {new_shape = array<i64: 32>} : (tensor<1x?x4xf32>) -> tensor<32xf32>
  return %y : tensor<32xf32>
}
