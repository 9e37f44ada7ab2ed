// RUN: nnapi-opt %s -split-input-file -verify-diagnostics -nnapi-specialize-shapes='shape-buckets=1x8x64;1x3x64' | FileCheck %s

// Each typical shape gets a public static copy of the entry, after it, in
// the order given: its TOSA ops inferred static, its results taking the
// inferred types (no cast before the return, and recorded for the entry
// point's check of the output buffers), and none of the signature's
// attributes. The entry itself stays dynamic and keeps them.
// CHECK-LABEL: func.func @main
// CHECK-SAME: (%{{.*}}: tensor<1x?x64xf32> {nnapi.dim_ranges = array<i64: 1, 16>, nnapi.name = "x"}) -> (tensor<1x?x?xf32> {nnapi.name = "y"})
// CHECK: tosa.matmul {{.*}} -> tensor<1x?x?xf32>
// CHECK-LABEL: func.func @main__shape0
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x64xf32>) -> tensor<1x8x8xf32>
// CHECK-SAME: attributes {nnapi.static_shapes = [array<i64: 1, 8, 64>, array<i64: 1, 8, 8>]}
// CHECK: %[[T:.*]] = tosa.transpose %[[X]], %{{.*}} -> tensor<1x64x8xf32>
// CHECK: %[[M:.*]] = tosa.matmul %[[X]], %[[T]] : (tensor<1x8x64xf32>, tensor<1x64x8xf32>) -> tensor<1x8x8xf32>
// CHECK: %[[E:.*]] = tosa.exp %[[M]] : (tensor<1x8x8xf32>) -> tensor<1x8x8xf32>
// CHECK-NEXT: return %[[E]] : tensor<1x8x8xf32>
// CHECK-LABEL: func.func @main__shape1
// CHECK-SAME: (%{{.*}}: tensor<1x3x64xf32>) -> tensor<1x3x3xf32>
func.func @main(%x: tensor<1x?x64xf32> {nnapi.name = "x", nnapi.dim_ranges = array<i64: 1, 16>}) -> (tensor<1x?x?xf32> {nnapi.name = "y"}) {
  %perm = "tosa.const"() <{value = dense<[0, 2, 1]> : tensor<3xi32>}> : () -> tensor<3xi32>
  %t = tosa.transpose %x, %perm : (tensor<1x?x64xf32>, tensor<3xi32>) -> tensor<1x64x?xf32>
  %m = tosa.matmul %x, %t : (tensor<1x?x64xf32>, tensor<1x64x?xf32>) -> tensor<1x?x?xf32>
  %e = tosa.exp %m : (tensor<1x?x?xf32>) -> tensor<1x?x?xf32>
  return %e : tensor<1x?x?xf32>
}

// -----

// A result whose shape inference cannot make static (computed by a call)
// leaves its shape to the dynamic code: the copy is dropped, with a
// warning per shape.
// CHECK-LABEL: func.func @main
// CHECK-NOT: @main__shape
func.func private @helper(tensor<1x?x64xf32>) -> tensor<1x?x64xf32>
// expected-warning @+2 {{--shape-buckets: shape 1 runs the dynamic host code: its static copy is not valid at that shape (its outputs' shapes stay dynamic (or empty))}}
// expected-warning @+1 {{--shape-buckets: shape 2 runs the dynamic host code}}
func.func @main(%x: tensor<1x?x64xf32>) -> tensor<1x?x64xf32> {
  %y = func.call @helper(%x) : (tensor<1x?x64xf32>) -> tensor<1x?x64xf32>
  return %y : tensor<1x?x64xf32>
}

// -----

// The copies' names must be free.
// expected-error @+1 {{nnapi-specialize-shapes: '@main__shape0' exists already}}
module {
  func.func @main(%x: tensor<1x?x64xf32>) -> tensor<1x?x64xf32> {
    return %x : tensor<1x?x64xf32>
  }
  func.func @main__shape0(%x: tensor<1x8x64xf32>) -> tensor<1x8x64xf32> {
    return %x : tensor<1x8x64xf32>
  }
}

// -----

// The shapes are read as nnapi-export-signature reads them (one parser):
// a size outside the declared range is refused.
// expected-error @+1 {{--shape-buckets: shape 1 ('1x8x64'): input 0 dimension 1 is 8, outside its range [1..4]}}
func.func @main(%x: tensor<1x?x64xf32> {nnapi.dim_ranges = array<i64: 1, 4>}) -> tensor<1x?x64xf32> {
  return %x : tensor<1x?x64xf32>
}
