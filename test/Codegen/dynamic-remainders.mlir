// The remainders of dynamic dimensions (a peeled loop's last, partial tile)
// are vectorized where LLVM's vectorizer would leave a scalar loop: float
// reductions (it keeps their order), transcendental functions (it has no
// vector exp) and element-wise arithmetic (its vector loop takes 32
// elements at a time) down to one masked vector, transposes (it would
// gather) split into static tiles of halving widths. Only a transpose's
// last 1-3 rows and copies stay scalar loops.
//
// RUN: nnapi-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,func.func(nnapi-codegen-prepare{vector-bits=512},nnapi-codegen{vector-bits=512 vector-registers=32 emit-remarks=true}))" -verify-diagnostics
// RUN: nnapi-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(tosa-to-linalg-named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor),canonicalize,func.func(nnapi-codegen-prepare{vector-bits=512},nnapi-codegen{vector-bits=512 vector-registers=32}))" | FileCheck %s

// A softmax over a dynamic number of keys: the max and the sum accumulate
// one vector across the row (whole vectors, then what is left, up to 15
// keys, as one masked vector merged by a select) and reduce it across its
// lanes once, after the loop. The exp and the scaling in chunks of four
// vectors, then of one, then one masked vector (a masked write: no single
// elements, no scalar loop).
// CHECK-LABEL: func.func @softmax_rows
// CHECK: scf.for {{.*}} -> (vector<1x16xf32>)
// CHECK: arith.maximumf {{.*}} : vector<1x16xf32>
// CHECK: scf.for {{.*}} -> (vector<1x16xf32>)
// CHECK: %[[MASK:.*]] = vector.create_mask %{{.*}}, %{{.*}} : vector<1x16xi1>
// CHECK: %[[KEYS:.*]] = vector.transfer_read {{.*}}, %[[MASK]] {{.*}} : tensor<1x?xf32>, vector<1x16xf32>
// CHECK: %[[MAX:.*]] = arith.maximumf %[[KEYS]], %[[ACC:.*]] : vector<1x16xf32>
// CHECK: arith.select %[[MASK]], %[[MAX]], %[[ACC]] : vector<1x16xi1>, vector<1x16xf32>
// CHECK: vector.multi_reduction <maximumf>, {{.*}} : vector<1x16xf32> to vector<1xf32>
// CHECK: math.exp {{.*}} : vector<1x64xf32>
// CHECK: math.exp {{.*}} : vector<1x16xf32>
// CHECK: %[[LAST:.*]] = vector.create_mask %{{.*}}, %{{.*}} : vector<1x16xi1>
// CHECK: math.exp {{.*}} : vector<1x16xf32>
// CHECK: vector.transfer_write {{.*}}, %[[LAST]] {{.*}} : vector<1x16xf32>, tensor<1x?xf32>
// CHECK-NOT: math.exp {{.*}} : vector<1x8xf32>
// CHECK-NOT: math.exp {{.*}} : f32
// CHECK: scf.for {{.*}} -> (vector<1x16xf32>)
// CHECK: arith.addf {{.*}} : vector<1x16xf32>
// CHECK: scf.for {{.*}} -> (vector<1x16xf32>)
// CHECK: vector.create_mask %{{.*}}, %{{.*}} : vector<1x16xi1>
// CHECK: arith.select {{.*}} : vector<1x16xi1>, vector<1x16xf32>
// CHECK: vector.multi_reduction <add>, {{.*}} : vector<1x16xf32> to vector<1xf32>
// CHECK: arith.mulf {{.*}} : vector<1x64xf32>
// CHECK: arith.mulf {{.*}} : vector<1x16xf32>
// CHECK: %[[SCALED:.*]] = vector.create_mask %{{.*}}, %{{.*}} : vector<1x16xi1>
// CHECK: arith.mulf {{.*}} : vector<1x16xf32>
// CHECK: vector.transfer_write {{.*}}, %[[SCALED]] {{.*}} : vector<1x16xf32>, tensor<1x?xf32>
// CHECK-NOT: vector.mask
// CHECK-NOT: arith.mulf {{.*}} : f32
func.func @softmax_rows(%x: tensor<4x?xf32>) -> tensor<4x?xf32> {
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<4x?xf32>) -> tensor<4x1xf32>
  %d = tosa.sub %x, %m : (tensor<4x?xf32>, tensor<4x1xf32>) -> tensor<4x?xf32>
  %e = tosa.exp %d : (tensor<4x?xf32>) -> tensor<4x?xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<4x?xf32>) -> tensor<4x1xf32>
  %r = tosa.reciprocal %s : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %y = tosa.mul %e, %r {shift = 0 : i8} : (tensor<4x?xf32>, tensor<4x1xf32>) -> tensor<4x?xf32>
  return %y : tensor<4x?xf32>
}

// -----

// A key's [S, D] -> [D, S] with S dynamic: blocks of 16 x 16 transposed in
// registers, then of 8 x 8 and 4 x 4.
// CHECK-LABEL: func.func @key_transpose
// CHECK: vector.transpose {{.*}} : vector<1x16x16xf32> to vector<1x16x16xf32>
// CHECK: vector.transpose {{.*}} : vector<1x8x8xf32> to vector<1x8x8xf32>
// CHECK: vector.transpose {{.*}} : vector<1x4x4xf32> to vector<1x4x4xf32>
func.func @key_transpose(%k: tensor<1x?x64xf32>) -> tensor<1x64x?xf32> {
  %p = "tosa.const"() {value = dense<[0, 2, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  // expected-remark@+1 {{'linalg.transpose' runs as scalar loops: dynamic shapes}}
  %0 = tosa.transpose %k, %p : (tensor<1x?x64xf32>, tensor<3xi32>) -> tensor<1x64x?xf32>
  return %0 : tensor<1x64x?xf32>
}

// -----

// A matmul of a dynamic number of rows by a constant [4, 64] (packed in
// panels): its fill of zero is fused (the tiles start from zero vectors),
// and no loop is left filling the accumulator's buffer for the sizes the
// packed result's reshape takes from it (it was: a memset of rows x 64
// floats per call, 7% of a dynamic encoder layer's instructions).
// CHECK-LABEL: func.func @dynamic_rows_packed
// CHECK: %[[DIM:.*]] = tensor.dim %arg0, %c1
// CHECK-NOT: vector.transfer_write %cst
// CHECK: tensor.expand_shape {{.*}} output_shape [%[[DIM]], 2, 32]
func.func @dynamic_rows_packed(%x: tensor<1x?x4xf32>) -> tensor<1x?x64xf32> {
  %w = "tosa.const"() {value = dense<[[[0.5, -0.5, 1.0, -1.0, -1.0, -1.0, 0.5, -1.0, -0.5, -1.0, -1.0, 1.0, 1.0, -1.0, -0.5, -1.0, 1.0, -1.0, -1.0, -0.5, -1.0, 1.0, -1.0, -0.5, -1.0, -0.5, 0.5, 1.0, -0.5, -1.0, 0.5, -0.5, -1.0, -0.5, 0.5, -1.0, -1.0, -1.0, -0.5, 1.0, 1.0, 0.5, 1.0, 1.0, 0.5, 0.5, -0.5, -0.5, -0.5, -1.0, 0.5, 1.0, 0.5, 1.0, 0.5, -1.0, -1.0, 1.0, -0.5, 0.5, -0.5, 1.0, 1.0, -1.0], [-1.0, 0.5, 0.5, 0.5, 1.0, 1.0, -1.0, -1.0, 0.5, 1.0, -1.0, -1.0, 0.5, 1.0, 0.5, 1.0, 0.5, -1.0, 1.0, 0.5, -0.5, -1.0, 1.0, -1.0, -0.5, 0.5, -0.5, -0.5, 1.0, 1.0, 1.0, -1.0, -0.5, 1.0, 1.0, 0.5, -0.5, 1.0, 0.5, 1.0, 0.5, 1.0, -0.5, -0.5, -1.0, -0.5, -0.5, -0.5, -0.5, -1.0, 1.0, -0.5, 0.5, 0.5, -1.0, -0.5, 1.0, 0.5, 0.5, -0.5, -1.0, 1.0, 1.0, 1.0], [1.0, 1.0, -1.0, 1.0, 1.0, -1.0, -0.5, -1.0, -0.5, 1.0, -0.5, -1.0, 0.5, -1.0, -1.0, -1.0, -0.5, -1.0, 0.5, -1.0, -1.0, -0.5, 1.0, -0.5, 0.5, 0.5, 0.5, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0, 1.0, 0.5, -1.0, -0.5, -1.0, 0.5, 0.5, 1.0, -0.5, -1.0, -0.5, 0.5, -0.5, -1.0, 0.5, -1.0, 0.5, 0.5, -0.5, 0.5, -0.5, 0.5, -0.5, -0.5, -0.5, 1.0, -0.5, -0.5, 1.0, 0.5, -1.0], [-1.0, 0.5, 1.0, 0.5, -0.5, 0.5, 1.0, 0.5, 0.5, -1.0, -0.5, -1.0, -0.5, 1.0, -0.5, 0.5, -0.5, 1.0, -1.0, 1.0, 0.5, -1.0, -1.0, 1.0, -0.5, 1.0, -0.5, 1.0, 0.5, -1.0, 1.0, 1.0, 1.0, -1.0, -0.5, -0.5, -0.5, -1.0, -0.5, 1.0, -0.5, 1.0, 0.5, -0.5, -0.5, -1.0, -1.0, -1.0, -0.5, 1.0, -0.5, -0.5, -1.0, 0.5, -0.5, 0.5, -0.5, 0.5, 0.5, 1.0, -0.5, -1.0, 0.5, 1.0]]]> : tensor<1x4x64xf32>} : () -> tensor<1x4x64xf32>
  %y = tosa.matmul %x, %w : (tensor<1x?x4xf32>, tensor<1x4x64xf32>) -> tensor<1x?x64xf32>
  return %y : tensor<1x?x64xf32>
}
