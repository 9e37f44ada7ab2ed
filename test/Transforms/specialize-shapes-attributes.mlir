// RUN: nnapi-opt %s -nnapi-specialize-shapes='shape-buckets=5x16' | FileCheck %s

// A reshape's "dynamic" marker in new_shape (the importer's, for a size that
// follows the input) is inferred in the static copy, and new_shape then
// states the sizes, as an import at that size writes them; the entry keeps
// its own.
// CHECK-LABEL: func.func @main(
// CHECK: new_shape = array<i64: 1, -9223372036854775808, 16>
// CHECK-LABEL: func.func @main__shape0
// CHECK-SAME: -> tensor<5x8xf32>
// CHECK: tosa.reshape %{{.*}} {new_shape = array<i64: 1, 5, 16>} : (tensor<5x16xf32>) -> tensor<1x5x16xf32>
// CHECK: tosa.reshape %{{.*}} {new_shape = array<i64: 5, 8>} : (tensor<1x5x8xf32>) -> tensor<5x8xf32>
func.func @main(%x: tensor<?x16xf32>) -> tensor<?x8xf32> {
  %r = tosa.reshape %x {new_shape = array<i64: 1, -9223372036854775808, 16>} : (tensor<?x16xf32>) -> tensor<1x?x16xf32>
  %s = tosa.slice %r {start = array<i64: 0, 0, 0>, size = array<i64: 1, 5, 8>} : (tensor<1x?x16xf32>) -> tensor<1x?x8xf32>
  %y = tosa.reshape %s {new_shape = array<i64: -9223372036854775808, 8>} : (tensor<1x?x8xf32>) -> tensor<?x8xf32>
  return %y : tensor<?x8xf32>
}
