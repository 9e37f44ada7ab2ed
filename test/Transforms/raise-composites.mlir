// RUN: nnapi-opt %s -split-input-file -nnapi-raise-composites | FileCheck %s
// Raising and inlining again gives the chains back, op for op.
// RUN: nnapi-opt %s -split-input-file -nnapi-raise-composites -nnapi-inline-composites | FileCheck %s --check-prefix=INLINE

// The importer's softmax becomes one composite: its input is the chain's
// input, its parameter the axis, its body the chain.
// CHECK-LABEL: func @softmax
// CHECK-NEXT: %[[S:.*]] = nnapi.composite "softmax"(%arg0) {composite_attributes = {axis = 1 : i64}} : (tensor<2x5xf32>) -> tensor<2x5xf32> {
// CHECK-NEXT: ^bb0(%[[X:.*]]: tensor<2x5xf32>):
// CHECK-NEXT:   %[[M:.*]] = tosa.reduce_max %[[X]]
// CHECK-NEXT:   %[[D:.*]] = tosa.sub %[[X]], %[[M]]
// CHECK-NEXT:   %[[E:.*]] = tosa.exp %[[D]]
// CHECK-NEXT:   %[[SUM:.*]] = tosa.reduce_sum %[[E]]
// CHECK-NEXT:   %[[R:.*]] = tosa.reciprocal %[[SUM]]
// CHECK-NEXT:   %[[P:.*]] = tosa.mul %[[E]], %[[R]]
// CHECK-NEXT:   nnapi.yield %[[P]] : tensor<2x5xf32>
// CHECK-NEXT: }
// CHECK-NEXT: return %[[S]]
// INLINE-LABEL: func @softmax
// INLINE-NEXT: tosa.reduce_max %arg0
// INLINE-NEXT: tosa.sub
// INLINE-NEXT: tosa.exp
// INLINE-NEXT: tosa.reduce_sum
// INLINE-NEXT: tosa.reciprocal
// INLINE-NEXT: %[[P:.*]] = tosa.mul
// INLINE-NEXT: return %[[P]]
func.func @softmax(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<2x5xf32>) -> tensor<2x1xf32>
  %d = tosa.sub %x, %m : (tensor<2x5xf32>, tensor<2x1xf32>) -> tensor<2x5xf32>
  %e = tosa.exp %d : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<2x5xf32>) -> tensor<2x1xf32>
  %r = tosa.reciprocal %s : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %y = tosa.mul %e, %r {shift = 0 : i8} : (tensor<2x5xf32>, tensor<2x1xf32>) -> tensor<2x5xf32>
  return %y : tensor<2x5xf32>
}

// -----

// A value inside the chain used elsewhere: the chain is not one operation.
// CHECK-LABEL: func @softmax_leaks
// CHECK-NOT: nnapi.composite
func.func @softmax_leaks(%x: tensor<2x5xf32>) -> (tensor<2x5xf32>, tensor<2x5xf32>) {
  %m = tosa.reduce_max %x {axis = 1 : i32} : (tensor<2x5xf32>) -> tensor<2x1xf32>
  %d = tosa.sub %x, %m : (tensor<2x5xf32>, tensor<2x1xf32>) -> tensor<2x5xf32>
  %e = tosa.exp %d : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %s = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<2x5xf32>) -> tensor<2x1xf32>
  %r = tosa.reciprocal %s : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %y = tosa.mul %e, %r {shift = 0 : i8} : (tensor<2x5xf32>, tensor<2x1xf32>) -> tensor<2x5xf32>
  return %y, %e : tensor<2x5xf32>, tensor<2x5xf32>
}

// -----

// Composites nest: the instance normalization holds two means and is raised
// whole, its constants (1/N, epsilon) cloned into its body.
// CHECK-LABEL: func @instance_norm
// CHECK-NEXT: nnapi.composite "instance_normalization"(%arg0) {composite_attributes = {channel_axis = 1 : i64, epsilon = 9.99{{[0-9]*}}E-6 : f64}}
// CHECK-NEXT: ^bb0(%{{.*}}: tensor<1x2x3x4xf32>):
// CHECK-DAG: "tosa.const"() <{value = dense<0.0833{{[0-9]*}}> : tensor<1x1x1x1xf32>}>
// CHECK-DAG: "tosa.const"() <{value = dense<9.99{{[0-9]*}}E-6> : tensor<1x1x1x1xf32>}>
// CHECK-NOT: nnapi.composite
// CHECK: tosa.rsqrt
// CHECK: nnapi.yield
// INLINE-LABEL: func @instance_norm
// INLINE-NOT: nnapi.composite
// INLINE: tosa.rsqrt
func.func @instance_norm(%x: tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32> {
  %n = "tosa.const"() {value = dense<0.0833333358> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %eps = "tosa.const"() {value = dense<9.99999974e-06> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %s0 = tosa.reduce_sum %x {axis = 2 : i32} : (tensor<1x2x3x4xf32>) -> tensor<1x2x1x4xf32>
  %s1 = tosa.reduce_sum %s0 {axis = 3 : i32} : (tensor<1x2x1x4xf32>) -> tensor<1x2x1x1xf32>
  %mu = tosa.mul %s1, %n {shift = 0 : i8} : (tensor<1x2x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x2x1x1xf32>
  %c = tosa.sub %x, %mu : (tensor<1x2x3x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x3x4xf32>
  %sq = tosa.mul %c, %c {shift = 0 : i8} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %v0 = tosa.reduce_sum %sq {axis = 2 : i32} : (tensor<1x2x3x4xf32>) -> tensor<1x2x1x4xf32>
  %v1 = tosa.reduce_sum %v0 {axis = 3 : i32} : (tensor<1x2x1x4xf32>) -> tensor<1x2x1x1xf32>
  %var = tosa.mul %v1, %n {shift = 0 : i8} : (tensor<1x2x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x2x1x1xf32>
  %ve = tosa.add %var, %eps : (tensor<1x2x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<1x2x1x1xf32>
  %rs = tosa.rsqrt %ve : (tensor<1x2x1x1xf32>) -> tensor<1x2x1x1xf32>
  %y = tosa.mul %c, %rs {shift = 0 : i8} : (tensor<1x2x3x4xf32>, tensor<1x2x1x1xf32>) -> tensor<1x2x3x4xf32>
  return %y : tensor<1x2x3x4xf32>
}

// -----

// A split has one result per piece, in order along the axis, and goes
// before the first use of any piece.
// CHECK-LABEL: func @split
// CHECK-NEXT: %[[P:.*]]:3 = nnapi.composite "split"(%arg0) {composite_attributes = {axis = 1 : i64}} : (tensor<2x6xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
// CHECK: nnapi.yield %{{.*}}, %{{.*}}, %{{.*}} :
// CHECK: tosa.exp %[[P]]#2
// CHECK: tosa.add %[[P]]#0, %[[P]]#1
func.func @split(%x: tensor<2x6xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
  %c = tosa.slice %x {start = array<i64: 0, 4>, size = array<i64: 2, 2>} : (tensor<2x6xf32>) -> tensor<2x2xf32>
  %e = tosa.exp %c : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %a = tosa.slice %x {start = array<i64: 0, 0>, size = array<i64: 2, 2>} : (tensor<2x6xf32>) -> tensor<2x2xf32>
  %b = tosa.slice %x {start = array<i64: 0, 2>, size = array<i64: 2, 2>} : (tensor<2x6xf32>) -> tensor<2x2xf32>
  %s = tosa.add %a, %b : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %e, %s : tensor<2x2xf32>, tensor<2x2xf32>
}

// -----

// A grouped convolution's filters and biases are inputs (the conversion
// concatenates them), also when two groups share one constant.
// CHECK-LABEL: func @grouped_conv
// CHECK: %[[W:.*]] = "tosa.const"() <{value = dense<5.000000e-01> : tensor<1x1x1x1xf32>}>
// CHECK: %[[B:.*]] = "tosa.const"() <{value = dense<0.000000e+00> : tensor<1xf32>}>
// CHECK: nnapi.composite "grouped_conv"(%arg0, %[[W]], %[[W]], %[[B]], %[[B]]) {composite_attributes = {groups = 2 : i64, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>}}
// CHECK-NEXT: ^bb0(%[[X:.*]]: tensor<1x2x2x2xf32>, %[[W0:.*]]: tensor<1x1x1x1xf32>, %{{.*}}: tensor<1x1x1x1xf32>, %[[B0:.*]]: tensor<1xf32>, %{{.*}}: tensor<1xf32>):
// CHECK: tosa.conv2d %{{.*}}, %[[W0]], %[[B0]]
// CHECK: tosa.conv2d %{{.*}}, %[[W0]], %[[B0]]
// CHECK: tosa.concat
func.func @grouped_conv(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w = "tosa.const"() {value = dense<0.5> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %b = "tosa.const"() {value = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %x0 = tosa.slice %x {start = array<i64: 0, 0, 0, 0>, size = array<i64: 1, 2, 2, 1>} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x1xf32>
  %y0 = tosa.conv2d %x0, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32>
  %x1 = tosa.slice %x {start = array<i64: 0, 0, 0, 1>, size = array<i64: 1, 2, 2, 1>} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x1xf32>
  %y1 = tosa.conv2d %x1, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32>
  %y = tosa.concat %y0, %y1 {axis = 3 : i32} : (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}

// -----

// The argmax of a negation (the importer's ArgMin) and the negation of an
// equal (NotEqual).
// CHECK-LABEL: func @argmin_not_equal
// CHECK: nnapi.composite "argmin"(%arg0) {composite_attributes = {axis = 0 : i64}}
// CHECK: nnapi.composite "not_equal"(%arg0, %arg1)
func.func @argmin_not_equal(%x: tensor<3x5xf32>, %y: tensor<3x5xf32>) -> (tensor<5xi32>, tensor<3x5xi1>) {
  %n = tosa.negate %x : (tensor<3x5xf32>) -> tensor<3x5xf32>
  %i = tosa.argmax %n {axis = 0 : i32} : (tensor<3x5xf32>) -> tensor<5xi32>
  %e = tosa.equal %x, %y : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
  %ne = tosa.logical_not %e : (tensor<3x5xi1>) -> tensor<3x5xi1>
  return %i, %ne : tensor<5xi32>, tensor<3x5xi1>
}

// -----

// Composites already there are left as they are, bodies included.
// CHECK-LABEL: func @already_raised
// CHECK: nnapi.composite "custom"
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tosa.negate
// CHECK-NEXT: tosa.argmax
// INLINE-LABEL: func @already_raised
// INLINE-NEXT: tosa.negate %arg0
// INLINE-NEXT: %[[I:.*]] = tosa.argmax
// INLINE-NEXT: return %[[I]]
func.func @already_raised(%x: tensor<3x5xf32>) -> tensor<5xi32> {
  %0 = nnapi.composite "custom"(%x) : (tensor<3x5xf32>) -> tensor<5xi32> {
  ^bb0(%a: tensor<3x5xf32>):
    %n = tosa.negate %a : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %i = tosa.argmax %n {axis = 0 : i32} : (tensor<3x5xf32>) -> tensor<5xi32>
    nnapi.yield %i : tensor<5xi32>
  }
  return %0 : tensor<5xi32>
}

// -----

// ELU with alpha = 1 (ONNX's default) has no multiply left by the time it is
// raised: the constant folding before placement removed the multiply by one.
// CHECK-LABEL: func @elu_alpha_one
// CHECK-NEXT: %[[E:.*]] = nnapi.composite "elu"(%arg0) {composite_attributes = {alpha = 1.000000e+00 : f64}}
// CHECK: tosa.exp
// CHECK-NEXT: %[[S:.*]] = tosa.sub
// CHECK-NEXT: %[[A:.*]] = tosa.add %{{.*}}, %[[S]]
// CHECK-NEXT: nnapi.yield %[[A]]
// CHECK: return %[[E]]
// INLINE-LABEL: func @elu_alpha_one
// INLINE-NOT: nnapi.composite
// INLINE: tosa.exp
func.func @elu_alpha_one(%x: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %one = "tosa.const"() {value = dense<1.0> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %pos = tosa.clamp %x {min_fp = 0.0 : f32, max_fp = 3.40282347e+38 : f32, min_int = 0 : i64, max_int = 2147483647 : i64} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %neg = tosa.clamp %x {min_fp = -3.40282347e+38 : f32, max_fp = 0.0 : f32, min_int = -2147483648 : i64, max_int = 0 : i64} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %e = tosa.exp %neg : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %s = tosa.sub %e, %one : (tensor<2x4xf32>, tensor<1x1xf32>) -> tensor<2x4xf32>
  %y = tosa.add %pos, %s : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
