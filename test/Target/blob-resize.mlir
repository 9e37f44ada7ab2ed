// RUN: nnapi-translate --serialize-nnapi-blob %s -o %t.blob
// RUN: nnapi-translate --dump-nnapi-blob %t.blob | FileCheck %s

// RESIZE_NEAREST_NEIGHBOR's layout flag is not optional (the operation came
// with level 3, and its flag with it): written even without the corner
// flags, which come with level 4. RESIZE_BILINEAR's layout flag is optional
// and left out at its default (level 1).
func.func @resize(%x: tensor<1x2x2x3xf32>) -> (tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>) {
  %0 = nnapi.resize_nearest_neighbor %x : (tensor<1x2x2x3xf32>) -> tensor<1x4x4x3xf32>
  %1 = nnapi.resize_bilinear %x : (tensor<1x2x2x3xf32>) -> tensor<1x4x4x3xf32>
  return %0, %1 : tensor<1x4x4x3xf32>, tensor<1x4x4x3xf32>
}

// CHECK: nnapi-blob version 5 feature_level 3
// CHECK: %3 BOOL = false
// CHECK: %4 = RESIZE_NEAREST_NEIGHBOR(%0, %1, %2, %3)
// CHECK-NEXT: %7 = RESIZE_BILINEAR(%0, %5, %6)
