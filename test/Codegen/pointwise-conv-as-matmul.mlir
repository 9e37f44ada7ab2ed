// RUN: nnapi-opt %s -split-input-file -nnapi-pointwise-conv-as-matmul | FileCheck %s

// A 1x1 convolution over a feature map of dynamic height and width, and
// the ReLU6 after it: a fully connected layer over the pixels, the clamp on
// its matrix, and the matrix reshaped back with the input's sizes.
// CHECK-LABEL: func.func @pointwise
// CHECK-SAME: (%[[X:.*]]: tensor<1x?x?x8xf32>
// CHECK: %[[FLAT:.*]] = tosa.reshape %[[X]] {new_shape = array<i64: -1, 8>} : (tensor<1x?x?x8xf32>) -> tensor<?x8xf32>
// CHECK: %[[W:.*]] = tosa.reshape %{{.*}} {new_shape = array<i64: 16, 8>} : (tensor<16x1x1x8xf32>) -> tensor<16x8xf32>
// CHECK: %[[FC:.*]] = tosa.fully_connected %[[FLAT]], %[[W]], %{{.*}} : (tensor<?x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<?x16xf32>
// CHECK: %[[CLAMP:.*]] = tosa.clamp %[[FC]] {{.*}} : (tensor<?x16xf32>) -> tensor<?x16xf32>
// CHECK-DAG: %[[H:.*]] = tensor.dim %[[X]], %c1
// CHECK-DAG: %[[WD:.*]] = tensor.dim %[[X]], %c2
// CHECK: %[[SHAPE:.*]] = tensor.from_elements %c1{{.*}}, %[[H]], %[[WD]], %c16{{.*}} : tensor<4xindex>
// CHECK: %[[Y:.*]] = tensor.reshape %[[CLAMP]](%[[SHAPE]]) : (tensor<?x16xf32>, tensor<4xindex>) -> tensor<1x?x?x16xf32>
// CHECK: return %[[Y]]
func.func @pointwise(%x: tensor<1x?x?x8xf32>, %w: tensor<16x1x1x8xf32>, %b: tensor<16xf32>) -> tensor<1x?x?x16xf32> {
  %0 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x?x?x8xf32>, tensor<16x1x1x8xf32>, tensor<16xf32>) -> tensor<1x?x?x16xf32>
  %1 = tosa.clamp %0 {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<1x?x?x16xf32>) -> tensor<1x?x?x16xf32>
  return %1 : tensor<1x?x?x16xf32>
}

// -----

// Left alone: a static feature map (tosa-optional-decompositions' case), a
// stride of 2, and a 3x3 kernel.
// CHECK-LABEL: func.func @not_pointwise
// CHECK-COUNT-3: tosa.conv2d
// CHECK-NOT: tosa.fully_connected
func.func @not_pointwise(%s: tensor<1x4x4x8xf32>, %x: tensor<1x?x?x8xf32>, %w: tensor<16x1x1x8xf32>, %w3: tensor<16x3x3x8xf32>, %b: tensor<16xf32>) -> (tensor<1x4x4x16xf32>, tensor<1x?x?x16xf32>, tensor<1x?x?x16xf32>) {
  %0 = tosa.conv2d %s, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x8xf32>, tensor<16x1x1x8xf32>, tensor<16xf32>) -> tensor<1x4x4x16xf32>
  %1 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x?x?x8xf32>, tensor<16x1x1x8xf32>, tensor<16xf32>) -> tensor<1x?x?x16xf32>
  %2 = tosa.conv2d %x, %w3, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x?x?x8xf32>, tensor<16x3x3x8xf32>, tensor<16xf32>) -> tensor<1x?x?x16xf32>
  return %0, %1, %2 : tensor<1x4x4x16xf32>, tensor<1x?x?x16xf32>, tensor<1x?x?x16xf32>
}
