// RUN: nnapi-opt %s -split-input-file -nnapi-output-dims -verify-diagnostics | FileCheck %s

// Each dynamic output dimension as a function of the input dimensions (one
// index argument per dynamic input dimension, in order): through a
// destination (the generic's tensor.empty) and a pad (+3). Static outputs
// and static dimensions take no result.

// CHECK: #[[PLUS3:.*]] = affine_map<()[s0] -> (s0 + 3)>
// CHECK-LABEL: func.func @main(
// CHECK-LABEL: func.func @nnapi_output_dims(
// CHECK-SAME: %[[X1:.*]]: index, %[[Y0:.*]]: index) -> (index, index)
// CHECK-NEXT: %[[P:.*]] = affine.apply #[[PLUS3]]()[%[[Y0]]]
// CHECK-NEXT: return %[[X1]], %[[P]] : index, index
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @main(%x: tensor<2x?xf32>, %y: tensor<?x3xf32>) -> (tensor<2x?xf32>, tensor<2x3xf32>, tensor<?x5xf32>) {
  %c1 = arith.constant 1 : index
  %d = tensor.dim %x, %c1 : tensor<2x?xf32>
  %e = tensor.empty(%d) : tensor<2x?xf32>
  %r = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2x?xf32>) outs(%e : tensor<2x?xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<2x?xf32>
  %s = tensor.empty() : tensor<2x3xf32>
  %cst = arith.constant 0.0 : f32
  %p = tensor.pad %y low[1, 1] high[2, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %cst : f32
  } : tensor<?x3xf32> to tensor<?x5xf32>
  return %r, %s, %p : tensor<2x?xf32>, tensor<2x3xf32>, tensor<?x5xf32>
}

// -----

// TOSA's run-time broadcasting leaves an scf.if whose branches agree.

// CHECK-LABEL: func.func @nnapi_output_dims(
// CHECK-SAME: %[[N:.*]]: index) -> index
// CHECK-NEXT: return %[[N]] : index
#map = affine_map<(d0) -> (d0)>
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d = tensor.dim %x, %c0 : tensor<?xf32>
  %one = arith.cmpi eq, %d, %c1 : index
  %r = scf.if %one -> (tensor<?xf32>) {
    %e = tensor.empty(%d) : tensor<?xf32>
    scf.yield %e : tensor<?xf32>
  } else {
    scf.yield %x : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// An output whose size is a value the model reads.

// expected-error@+1 {{dimension 0 of output 0 is not a function of the input dimensions (it depends on values the model computes): a model with dynamic dimensions needs output shapes computable from the input shapes}}
func.func @main(%n: tensor<i64>) -> tensor<?xf32> {
  %v = tensor.extract %n[] : tensor<i64>
  %i = arith.index_cast %v : i64 to index
  %e = tensor.empty(%i) : tensor<?xf32>
  return %e : tensor<?xf32>
}

// -----

// Static results: nothing to derive.

// CHECK-LABEL: func.func @main(
// CHECK-NOT: nnapi_output_dims
func.func @main(%x: tensor<?xf32>) -> tensor<2xf32> {
  %e = tensor.empty() : tensor<2xf32>
  return %e : tensor<2xf32>
}
