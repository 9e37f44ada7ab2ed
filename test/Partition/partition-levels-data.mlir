// Data movement, reductions, matrix products, HARD_SWISH and the erf
// expansion: at the level before their own they stay on the host with a
// reason that names the level; at their level they are placed.
// RUN: nnapi-opt %s -split-input-file -nnapi-raise-composites -nnapi-partition="feature-level=1 emit-remarks=true device-profile=%S/../Inputs/eager.json" -verify-diagnostics -o /dev/null
// RUN: nnapi-opt %s -split-input-file -nnapi-raise-composites -nnapi-partition="feature-level=2 device-profile=%S/../Inputs/eager.json" | FileCheck %s --check-prefix=FL2
// RUN: nnapi-opt %s -split-input-file -nnapi-raise-composites -nnapi-partition="feature-level=3 device-profile=%S/../Inputs/eager.json" | FileCheck %s --check-prefix=FL3
// RUN: nnapi-opt %s -split-input-file -nnapi-raise-composites -nnapi-partition="feature-level=4 device-profile=%S/../Inputs/eager.json" | FileCheck %s --check-prefix=FL4
// RUN: nnapi-opt %s -split-input-file -nnapi-raise-composites -nnapi-partition="feature-level=6 device-profile=%S/../Inputs/eager.json" | FileCheck %s --check-prefix=FL6
// RUN: nnapi-opt %s -split-input-file -nnapi-raise-composites -nnapi-partition="feature-level=7 device-profile=%S/../Inputs/eager.json" | FileCheck %s --check-prefix=FL7

// FL2-LABEL: func @fl2_ops
// FL2-NOT: tosa.{{[a-z_]+}} %
// FL2: call @fl2_ops_nnapi_0
// FL2-NEXT: return
func.func @fl2_ops(%x: tensor<1x4x6x6xf32>) -> tensor<1x1x1x4xf32> {
  %perm = "tosa.const"() {value = dense<[0, 2, 3, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 2 (TRANSPOSE), the target is 1}}
  %0 = tosa.transpose %x, %perm : (tensor<1x4x6x6xf32>, tensor<4xi32>) -> tensor<1x6x6x4xf32>
  %pads = "tosa.const"() {value = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>} : () -> tensor<4x2xi64>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 2 (PAD), the target is 1}}
  %1 = tosa.pad %0, %pads : (tensor<1x6x6x4xf32>, tensor<4x2xi64>) -> tensor<1x8x8x4xf32>
  %2 = tosa.reduce_sum %1 {axis = 1 : i32} : (tensor<1x8x8x4xf32>) -> tensor<1x1x8x4xf32>
  %3 = tosa.reduce_sum %2 {axis = 2 : i32} : (tensor<1x1x8x4xf32>) -> tensor<1x1x1x4xf32>
  %k = "tosa.const"() {value = dense<0.015625> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 2 (MEAN), the target is 1}}
  %4 = tosa.mul %3, %k {shift = 0 : i8} : (tensor<1x1x1x4xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x4xf32>
  return %4 : tensor<1x1x1x4xf32>
}

// -----

// FL2-LABEL: func @fl3_ops
// FL2-NOT: call
// FL3-LABEL: func @fl3_ops
// FL3-NOT: tosa.{{[a-z_]+}} %
// FL3: call @fl3_ops_nnapi_0
// FL3-NEXT: return
func.func @fl3_ops(%x: tensor<2x3x4xf32>) -> (tensor<1x1x1xf32>, tensor<1x3x4xf32>) {
  %pads = "tosa.const"() {value = dense<[[0, 0], [0, 1], [0, 0]]> : tensor<3x2xi64>} : () -> tensor<3x2xi64>
  %v = "tosa.const"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (PAD_V2), the target is 1}}
  %0 = tosa.pad %x, %pads, %v : (tensor<2x3x4xf32>, tensor<3x2xi64>, tensor<f32>) -> tensor<2x4x4xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (SLICE), the target is 1}}
  %1 = tosa.slice %0 {start = array<i64: 0, 1, 0>, size = array<i64: 1, 3, 4>} : (tensor<2x4x4xf32>) -> tensor<1x3x4xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (TILE), the target is 1}}
  %2 = tosa.tile %1 {multiples = array<i64: 2, 1, 1>} : (tensor<1x3x4xf32>) -> tensor<2x3x4xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (REDUCE_MAX), the target is 1}}
  %3 = tosa.reduce_max %2 {axis = 2 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (REDUCE_MIN), the target is 1}}
  %4 = tosa.reduce_min %3 {axis = 1 : i32} : (tensor<2x3x1xf32>) -> tensor<2x1x1xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (REDUCE_PROD), the target is 1}}
  %5 = tosa.reduce_prod %4 {axis = 0 : i32} : (tensor<2x1x1xf32>) -> tensor<1x1x1xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (REDUCE_SUM), the target is 1}}
  %6 = tosa.reduce_sum %2 {axis = 0 : i32} : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
  // erf is built from MAXIMUM and MINIMUM, among others.
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (MAXIMUM), the target is 1}}
  %7 = tosa.erf %6 : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  return %5, %7 : tensor<1x1x1xf32>, tensor<1x3x4xf32>
}

// -----

// FL2-LABEL: func @fl4_hard_swish
// FL3-LABEL: func @fl4_hard_swish
// FL3-NOT: call
// FL4-LABEL: func @fl4_hard_swish
// FL4-NOT: tosa.{{[a-z_]+}} %
// FL4: call @fl4_hard_swish_nnapi_0
// FL4-NEXT: return
func.func @fl4_hard_swish(%x: tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32> {
  %sixth = "tosa.const"() {value = dense<0.166666672> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %half = "tosa.const"() {value = dense<0.5> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %0 = tosa.mul %x, %sixth {shift = 0 : i8} : (tensor<1x4x4x8xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x4x8xf32>
  %1 = tosa.add %0, %half : (tensor<1x4x4x8xf32>, tensor<1x1x1x1xf32>) -> tensor<1x4x4x8xf32>
  %2 = tosa.clamp %1 {min_fp = 0.0 : f32, max_fp = 1.0 : f32, min_int = 0 : i64, max_int = 1 : i64} : (tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 4 (HARD_SWISH), the target is 1}}
  %3 = tosa.mul %x, %2 {shift = 0 : i8} : (tensor<1x4x4x8xf32>, tensor<1x4x4x8xf32>) -> tensor<1x4x4x8xf32>
  return %3 : tensor<1x4x4x8xf32>
}

// -----

// A product with constant weights is FULLY_CONNECTED (level 1); a product of
// two computed tensors is BATCH_MATMUL (level 6).
// FL3-LABEL: func @fl6_batch_matmul
// FL4-LABEL: func @fl6_batch_matmul
// FL4: tosa.matmul %arg1, %arg2
// FL6-LABEL: func @fl6_batch_matmul
// FL6: call @fl6_batch_matmul_nnapi_0(%arg0)
// FL6-NEXT: call @fl6_batch_matmul_nnapi_1(%arg1, %arg2)
// FL6-NEXT: return
func.func @fl6_batch_matmul(%a: tensor<1x4x3xf32>, %x: tensor<3x4x5xf32>, %y: tensor<3x5x6xf32>) -> (tensor<1x4x2xf32>, tensor<3x4x6xf32>) {
  %w = "tosa.const"() {value = dense<1.0> : tensor<1x3x2xf32>} : () -> tensor<1x3x2xf32>
  // expected-remark@+1 {{NNAPI partition @fl6_batch_matmul_nnapi_0 of 1 op(s)}}
  %0 = tosa.matmul %a, %w : (tensor<1x4x3xf32>, tensor<1x3x2xf32>) -> tensor<1x4x2xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 6 (BATCH_MATMUL), the target is 1}}
  %1 = tosa.matmul %x, %y : (tensor<3x4x5xf32>, tensor<3x5x6xf32>) -> tensor<3x4x6xf32>
  return %0, %1 : tensor<1x4x2xf32>, tensor<3x4x6xf32>
}

// -----

// Upsampling: RESIZE_BILINEAR is level 1; TRANSPOSE_CONV_2D and
// RESIZE_NEAREST_NEIGHBOR level 3; half-pixel centers (and aligned corners)
// level 4.
// FL2-LABEL: func @upsampling
// FL2: call @upsampling_nnapi_0(%arg0)
// FL2-NOT: call
// FL3-LABEL: func @upsampling
// FL3: tosa.resize %arg0 {{.*}}BILINEAR
// FL3-NOT: tosa.{{[a-z_]+}} %
// FL3: return
// FL4-LABEL: func @upsampling
// FL4-NOT: tosa.{{[a-z_]+}} %
// FL4: return
func.func @upsampling(%x: tensor<1x4x4x3xf32>) -> (tensor<1x8x8x3xf32>, tensor<1x8x8x2xf32>, tensor<1x8x8x3xf32>, tensor<1x8x8x3xf32>) {
  // expected-remark@+1 {{NNAPI partition @upsampling_nnapi_0 of 1 op(s)}}
  %0 = tosa.resize %x {scale = array<i64: 4, 2, 4, 2>, offset = array<i64: 0, 0>, border = array<i64: 2, 2>, mode = "BILINEAR"} : (tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
  %w = "tosa.const"() {value = dense<0.5> : tensor<2x2x2x3xf32>} : () -> tensor<2x2x2x3xf32>
  %b = "tosa.const"() {value = dense<0.1> : tensor<2xf32>} : () -> tensor<2xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (TRANSPOSE_CONV_2D), the target is 1}}
  %1 = tosa.transpose_conv2d %x, %w, %b {out_pad = array<i64: 0, 0, 0, 0>, out_shape = array<i64: 1, 8, 8, 2>, stride = array<i64: 2, 2>} : (tensor<1x4x4x3xf32>, tensor<2x2x2x3xf32>, tensor<2xf32>) -> tensor<1x8x8x2xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (RESIZE_NEAREST_NEIGHBOR), the target is 1}}
  %2 = tosa.resize %x {scale = array<i64: 4, 2, 4, 2>, offset = array<i64: -2, -2>, border = array<i64: 0, 0>, mode = "NEAREST_NEIGHBOR"} : (tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 4 (align_corners or half_pixel_centers), the target is 1}}
  %3 = tosa.resize %x {scale = array<i64: 4, 2, 4, 2>, offset = array<i64: -1, -1>, border = array<i64: 1, 1>, mode = "BILINEAR"} : (tensor<1x4x4x3xf32>) -> tensor<1x8x8x3xf32>
  return %0, %1, %2, %3 : tensor<1x8x8x3xf32>, tensor<1x8x8x2xf32>, tensor<1x8x8x3xf32>, tensor<1x8x8x3xf32>
}

// -----

// PRELU and LOG_SOFTMAX (level 3), ELU (level 4) from their decompositions.
// FL2-LABEL: func @activations
// FL2-NOT: call
// FL3-LABEL: func @activations
// FL3: tosa.add %{{.*}}, %{{.*}}
// FL3: call @activations_nnapi_
// FL3-NOT: tosa.
// FL3: return
// FL4-LABEL: func @activations
// FL4-NOT: tosa.{{[a-z_]+}} %
// FL4: return
func.func @activations(%x: tensor<1x3x4xf32>) -> (tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>) {
  %slope = "tosa.const"() {value = dense<0.1> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %p0 = tosa.clamp %x {min_fp = 0.0 : f32, max_fp = 3.40282347e+38 : f32, min_int = 0 : i64, max_int = 2147483647 : i64} : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %n0 = tosa.clamp %x {min_fp = -3.40282347e+38 : f32, max_fp = 0.0 : f32, min_int = -2147483648 : i64, max_int = 0 : i64} : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %m0 = tosa.mul %n0, %slope {shift = 0 : i8} : (tensor<1x3x4xf32>, tensor<1x1x1xf32>) -> tensor<1x3x4xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (PRELU), the target is 1}}
  %prelu = tosa.add %p0, %m0 : (tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %one = "tosa.const"() {value = dense<1.0> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %p1 = tosa.clamp %x {min_fp = 0.0 : f32, max_fp = 3.40282347e+38 : f32, min_int = 0 : i64, max_int = 2147483647 : i64} : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %n1 = tosa.clamp %x {min_fp = -3.40282347e+38 : f32, max_fp = 0.0 : f32, min_int = -2147483648 : i64, max_int = 0 : i64} : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %e1 = tosa.exp %n1 : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %s1 = tosa.sub %e1, %one : (tensor<1x3x4xf32>, tensor<1x1x1xf32>) -> tensor<1x3x4xf32>
  %m1 = tosa.mul %s1, %one {shift = 0 : i8} : (tensor<1x3x4xf32>, tensor<1x1x1xf32>) -> tensor<1x3x4xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 4 (ELU), the target is 1}}
  %elu = tosa.add %p1, %m1 : (tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %mx = tosa.reduce_max %x {axis = 2 : i32} : (tensor<1x3x4xf32>) -> tensor<1x3x1xf32>
  %sh = tosa.sub %x, %mx : (tensor<1x3x4xf32>, tensor<1x3x1xf32>) -> tensor<1x3x4xf32>
  %ex = tosa.exp %sh : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %sum = tosa.reduce_sum %ex {axis = 2 : i32} : (tensor<1x3x4xf32>) -> tensor<1x3x1xf32>
  %lg = tosa.log %sum : (tensor<1x3x1xf32>) -> tensor<1x3x1xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (LOG_SOFTMAX), the target is 1}}
  %lsm = tosa.sub %sh, %lg : (tensor<1x3x4xf32>, tensor<1x3x1xf32>) -> tensor<1x3x4xf32>
  return %prelu, %elu, %lsm : tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>
}

// -----

// INSTANCE_NORMALIZATION (level 3) takes its two means with it: below level
// 3 none of its ops is placed, not even the means (MEAN is level 2).
// FL2-LABEL: func @instance_norm
// FL2-NOT: call
// FL3-LABEL: func @instance_norm
// FL3: call @instance_norm_nnapi_0(%arg0)
// FL3-NEXT: return
func.func @instance_norm(%x: tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32> {
  %k = "tosa.const"() {value = dense<0.166666672> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %eps = "tosa.const"() {value = dense<1.0e-03> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %a1 = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<1x2x3x4xf32>) -> tensor<1x1x3x4xf32>
  %a2 = tosa.reduce_sum %a1 {axis = 2 : i32} : (tensor<1x1x3x4xf32>) -> tensor<1x1x1x4xf32>
  %mu = tosa.mul %a2, %k {shift = 0 : i8} : (tensor<1x1x1x4xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x4xf32>
  %c = tosa.sub %x, %mu : (tensor<1x2x3x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x2x3x4xf32>
  %sq = tosa.mul %c, %c {shift = 0 : i8} : (tensor<1x2x3x4xf32>, tensor<1x2x3x4xf32>) -> tensor<1x2x3x4xf32>
  %b1 = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<1x2x3x4xf32>) -> tensor<1x1x3x4xf32>
  %b2 = tosa.reduce_sum %b1 {axis = 2 : i32} : (tensor<1x1x3x4xf32>) -> tensor<1x1x1x4xf32>
  %var = tosa.mul %b2, %k {shift = 0 : i8} : (tensor<1x1x1x4xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x4xf32>
  %ve = tosa.add %var, %eps : (tensor<1x1x1x4xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x1x4xf32>
  %inv = tosa.rsqrt %ve : (tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (INSTANCE_NORMALIZATION), the target is 1}}
  %r = tosa.mul %c, %inv {shift = 0 : i8} : (tensor<1x2x3x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x2x3x4xf32>
  return %r : tensor<1x2x3x4xf32>
}

// -----

// GATHER is level 3; REVERSE and MIRROR_PAD (from Pad "reflect") level 7.
// FL2-LABEL: func @gather_reverse_mirror
// FL2-NOT: call
// FL3-LABEL: func @gather_reverse_mirror
// FL3: call @gather_reverse_mirror_nnapi_0(%arg1)
// FL3-NOT: call
// FL6-LABEL: func @gather_reverse_mirror
// FL6: tosa.reverse
// FL7-LABEL: func @gather_reverse_mirror
// FL7-NOT: tosa.{{[a-z_]+}} %
// FL7: return
func.func @gather_reverse_mirror(%x: tensor<2x4xf32>, %v: tensor<1x4x3xf32>) -> (tensor<2x7xf32>, tensor<2x4xf32>, tensor<1x2x3xf32>) {
  %b = tosa.slice %x {start = array<i64: 0, 1>, size = array<i64: 2, 2>} : (tensor<2x4xf32>) -> tensor<2x2xf32>
  %br = tosa.reverse %b {axis = 1 : i32} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %a = tosa.slice %x {start = array<i64: 0, 2>, size = array<i64: 2, 1>} : (tensor<2x4xf32>) -> tensor<2x1xf32>
  %ar = tosa.reverse %a {axis = 1 : i32} : (tensor<2x1xf32>) -> tensor<2x1xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 7 (MIRROR_PAD), the target is 1}}
  %0 = tosa.concat %br, %x, %ar {axis = 1 : i32} : (tensor<2x2xf32>, tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x7xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 7 (REVERSE), the target is 1}}
  %1 = tosa.reverse %x {axis = 0 : i32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %i = "tosa.const"() {value = dense<[[3, 1]]> : tensor<1x2xi32>} : () -> tensor<1x2xi32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (GATHER), the target is 1}}
  %2 = tosa.gather %v, %i : (tensor<1x4x3xf32>, tensor<1x2xi32>) -> tensor<1x2x3xf32>
  return %0, %1, %2 : tensor<2x7xf32>, tensor<2x4xf32>, tensor<1x2x3xf32>
}

// -----

// DEPTH_TO_SPACE is level 1, but the importer's NCHW form needs the layout
// operand of level 3.
// FL2-LABEL: func @depth_to_space
// FL2-NOT: call
// FL3-LABEL: func @depth_to_space
// FL3: call @depth_to_space_nnapi_0(%arg0)
// FL3-NEXT: return
func.func @depth_to_space(%x: tensor<1x8x3x2xf32>) -> tensor<1x2x6x4xf32> {
  %p = "tosa.const"() {value = dense<[0, 3, 4, 1, 5, 2]> : tensor<6xi32>} : () -> tensor<6xi32>
  %0 = tosa.reshape %x {new_shape = array<i64: 1, 2, 2, 2, 3, 2>} : (tensor<1x8x3x2xf32>) -> tensor<1x2x2x2x3x2xf32>
  %1 = tosa.transpose %0, %p : (tensor<1x2x2x2x3x2xf32>, tensor<6xi32>) -> tensor<1x2x3x2x2x2xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (NCHW layout), the target is 1}}
  %2 = tosa.reshape %1 {new_shape = array<i64: 1, 2, 6, 4>} : (tensor<1x2x3x2x2x2xf32>) -> tensor<1x2x6x4xf32>
  return %2 : tensor<1x2x6x4xf32>
}

// -----

// GROUPED_CONV_2D is level 3: below it the group convolutions stay on the
// host together (CONV_2D alone would be level 1).
// FL2-LABEL: func @grouped_conv
// FL2-NOT: call
// FL3-LABEL: func @grouped_conv
// FL3: call @grouped_conv_nnapi_0(%arg0)
// FL3-NEXT: return
func.func @grouped_conv(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %w0 = "tosa.const"() {value = dense<1.0> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %b0 = "tosa.const"() {value = dense<3.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %x0 = tosa.slice %x {start = array<i64: 0, 0, 0, 0>, size = array<i64: 1, 2, 2, 1>} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x1xf32>
  %c0 = tosa.conv2d %x0, %w0, %b0 {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32>
  %x1 = tosa.slice %x {start = array<i64: 0, 0, 0, 1>, size = array<i64: 1, 2, 2, 1>} : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x1xf32>
  %c1 = tosa.conv2d %x1, %w0, %b0 {dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x2x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>) -> tensor<1x2x2x1xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (GROUPED_CONV_2D), the target is 1}}
  %0 = tosa.concat %c0, %c1 {axis = 3 : i32} : (tensor<1x2x2x1xf32>, tensor<1x2x2x1xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

// CHANNEL_SHUFFLE is level 3.
// FL2-LABEL: func @channel_shuffle
// FL2-NOT: call
// FL3-LABEL: func @channel_shuffle
// FL3: call @channel_shuffle_nnapi_0(%arg0)
// FL3-NEXT: return
func.func @channel_shuffle(%x: tensor<1x6x2x3xf32>) -> tensor<1x6x2x3xf32> {
  %p = "tosa.const"() {value = dense<[0, 2, 1, 3, 4]> : tensor<5xi32>} : () -> tensor<5xi32>
  %0 = tosa.reshape %x {new_shape = array<i64: 1, 3, 2, 2, 3>} : (tensor<1x6x2x3xf32>) -> tensor<1x3x2x2x3xf32>
  %1 = tosa.transpose %0, %p : (tensor<1x3x2x2x3xf32>, tensor<5xi32>) -> tensor<1x2x3x2x3xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (CHANNEL_SHUFFLE), the target is 1}}
  %2 = tosa.reshape %1 {new_shape = array<i64: 1, 6, 2, 3>} : (tensor<1x2x3x2x3xf32>) -> tensor<1x6x2x3xf32>
  return %2 : tensor<1x6x2x3xf32>
}

// -----

// LOCAL_RESPONSE_NORMALIZATION is level 1 on the last axis of a 4-D input;
// the importer's NCHW channel axis needs the axis operand of level 3.
// FL2-LABEL: func @local_response
// FL2-NOT: call
// FL3-LABEL: func @local_response
// FL3: call @local_response_nnapi_0(%arg0)
// FL3-NEXT: return
func.func @local_response(%x: tensor<1x5x2x3xf32>) -> tensor<1x5x2x3xf32> {
  %pads = "tosa.const"() {value = dense<[[0, 0], [1, 1], [0, 0], [0, 0]]> : tensor<4x2xi64>} : () -> tensor<4x2xi64>
  %k = "tosa.const"() {value = dense<0.01> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %b = "tosa.const"() {value = dense<1.5> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %e = "tosa.const"() {value = dense<-0.75> : tensor<1x1x1x1xf32>} : () -> tensor<1x1x1x1xf32>
  %sq = tosa.mul %x, %x {shift = 0 : i8} : (tensor<1x5x2x3xf32>, tensor<1x5x2x3xf32>) -> tensor<1x5x2x3xf32>
  %p = tosa.pad %sq, %pads : (tensor<1x5x2x3xf32>, tensor<4x2xi64>) -> tensor<1x7x2x3xf32>
  %s0 = tosa.slice %p {start = array<i64: 0, 0, 0, 0>, size = array<i64: 1, 5, 2, 3>} : (tensor<1x7x2x3xf32>) -> tensor<1x5x2x3xf32>
  %s1 = tosa.slice %p {start = array<i64: 0, 1, 0, 0>, size = array<i64: 1, 5, 2, 3>} : (tensor<1x7x2x3xf32>) -> tensor<1x5x2x3xf32>
  %s2 = tosa.slice %p {start = array<i64: 0, 2, 0, 0>, size = array<i64: 1, 5, 2, 3>} : (tensor<1x7x2x3xf32>) -> tensor<1x5x2x3xf32>
  %u1 = tosa.add %s0, %s1 : (tensor<1x5x2x3xf32>, tensor<1x5x2x3xf32>) -> tensor<1x5x2x3xf32>
  %u2 = tosa.add %u1, %s2 : (tensor<1x5x2x3xf32>, tensor<1x5x2x3xf32>) -> tensor<1x5x2x3xf32>
  %sc = tosa.mul %u2, %k {shift = 0 : i8} : (tensor<1x5x2x3xf32>, tensor<1x1x1x1xf32>) -> tensor<1x5x2x3xf32>
  %d = tosa.add %sc, %b : (tensor<1x5x2x3xf32>, tensor<1x1x1x1xf32>) -> tensor<1x5x2x3xf32>
  %pw = tosa.pow %d, %e : (tensor<1x5x2x3xf32>, tensor<1x1x1x1xf32>) -> tensor<1x5x2x3xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (an axis other than the last), the target is 1}}
  %r = tosa.mul %x, %pw {shift = 0 : i8} : (tensor<1x5x2x3xf32>, tensor<1x5x2x3xf32>) -> tensor<1x5x2x3xf32>
  return %r : tensor<1x5x2x3xf32>
}

// -----

// Comparisons, logical operations and SELECT are level 3.
// FL2-LABEL: func @bool_ops
// FL2-NOT: call
// FL3-LABEL: func @bool_ops
// FL3: call @bool_ops_nnapi_0(%arg0, %arg1)
// FL3-NEXT: return
func.func @bool_ops(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (GREATER), the target is 1}}
  %g = tosa.greater %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %e = tosa.equal %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (NOT_EQUAL), the target is 1}}
  %ne = tosa.logical_not %e : (tensor<4xi1>) -> tensor<4xi1>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (LOGICAL_AND), the target is 1}}
  %0 = tosa.logical_and %g, %ne : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (SELECT), the target is 1}}
  %1 = tosa.select %0, %a, %b : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// REDUCE_ANY and REDUCE_ALL are level 3.
// FL2-LABEL: func @bool_reductions
// FL2-NOT: call
// FL3-LABEL: func @bool_reductions
// FL3: call @bool_reductions_nnapi_0(%arg0)
// FL3-NEXT: return
func.func @bool_reductions(%a: tensor<2x4xf32>) -> (tensor<2x1xi1>, tensor<1x4xi1>) {
  %z = "tosa.const"() {value = dense<0.0> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (GREATER), the target is 1}}
  %g = tosa.greater %a, %z : (tensor<2x4xf32>, tensor<1x1xf32>) -> tensor<2x4xi1>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (REDUCE_ANY), the target is 1}}
  %0 = tosa.reduce_any %g {axis = 1 : i32} : (tensor<2x4xi1>) -> tensor<2x1xi1>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (REDUCE_ALL), the target is 1}}
  %1 = tosa.reduce_all %g {axis = 0 : i32} : (tensor<2x4xi1>) -> tensor<1x4xi1>
  return %0, %1 : tensor<2x1xi1>, tensor<1x4xi1>
}

// -----

// ARGMAX and ARGMIN are level 3.
// FL2-LABEL: func @arg_ops
// FL2-NOT: call
// FL3-LABEL: func @arg_ops
// FL3-NOT: tosa.{{[a-z_]+}} %
// FL3: return
func.func @arg_ops(%x: tensor<3x5xf32>) -> (tensor<3xi32>, tensor<5xi32>) {
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (ARGMAX), the target is 1}}
  %0 = tosa.argmax %x {axis = 1 : i32} : (tensor<3x5xf32>) -> tensor<3xi32>
  %n = tosa.negate %x : (tensor<3x5xf32>) -> tensor<3x5xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (ARGMIN), the target is 1}}
  %1 = tosa.argmax %n {axis = 0 : i32} : (tensor<3x5xf32>) -> tensor<5xi32>
  return %0, %1 : tensor<3xi32>, tensor<5xi32>
}

// -----

// SPLIT is level 3.
// FL2-LABEL: func @split
// FL2-NOT: call
// FL3-LABEL: func @split
// FL3: %[[R:.*]]:2 = call @split_nnapi_0(%arg0)
// FL3-NEXT: return %[[R]]#0, %[[R]]#1
func.func @split(%x: tensor<1x6x2x3xf32>) -> (tensor<1x3x2x3xf32>, tensor<1x3x2x3xf32>) {
  %a = tosa.slice %x {start = array<i64: 0, 0, 0, 0>, size = array<i64: 1, 3, 2, 3>} : (tensor<1x6x2x3xf32>) -> tensor<1x3x2x3xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (SPLIT), the target is 1}}
  %b = tosa.slice %x {start = array<i64: 0, 3, 0, 0>, size = array<i64: 1, 3, 2, 3>} : (tensor<1x6x2x3xf32>) -> tensor<1x3x2x3xf32>
  return %a, %b : tensor<1x3x2x3xf32>, tensor<1x3x2x3xf32>
}

// -----

// CAST is level 3; a TENSOR_BOOL8 operand needs level 4. A float to int32
// cast stays on the host: NNAPI does not say how CAST rounds it.
// FL3-LABEL: func @cast
// FL3: tosa.cast %arg0
// FL3: call @cast_nnapi_0(%arg1)
// FL3: tosa.cast %arg2
// FL4-LABEL: func @cast
// FL4-NOT: tosa.cast %arg0
// FL4: tosa.cast %arg2
func.func @cast(%m: tensor<4xi1>, %i: tensor<4xi32>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf16>, tensor<4xi32>) {
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 4 (TENSOR_BOOL8 operands), the target is 1}}
  %0 = tosa.cast %m : (tensor<4xi1>) -> tensor<4xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (CAST), the target is 1}}
  %1 = tosa.cast %i : (tensor<4xi32>) -> tensor<4xf16>
  // expected-remark@+1 {{stays on the host: unsupported: NNAPI leaves the rounding of a float to an integer unspecified; TOSA rounds to nearest}}
  %2 = tosa.cast %x : (tensor<4xf32>) -> tensor<4xi32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf16>, tensor<4xi32>
}

// -----

// STRIDED_SLICE is level 2 (the column slice is SLICE of level 3 alone).
// FL2-LABEL: func @strided_slice
// FL2: call @strided_slice_nnapi_0(%arg0)
// FL2-NEXT: return
func.func @strided_slice(%x: tensor<6x2xf32>) -> tensor<3x2xf32> {
  %r = tosa.reshape %x {new_shape = array<i64: 3, 2, 2>} : (tensor<6x2xf32>) -> tensor<3x2x2xf32>
  %c = tosa.slice %r {start = array<i64: 0, 0, 0>, size = array<i64: 3, 1, 2>} : (tensor<3x2x2xf32>) -> tensor<3x1x2xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 2 (STRIDED_SLICE), the target is 1}}
  %0 = tosa.reshape %c {new_shape = array<i64: 3, 2>} : (tensor<3x1x2xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// LpNormalization's p = 2 form is L2_NORMALIZATION, which defines zeros for
// a vector of zeros from level 4 (the form computes them): level 4.
// FL3-LABEL: func @l2_normalization
// FL3-NOT: call
// FL4-LABEL: func @l2_normalization
// FL4: call @l2_normalization_nnapi_0(%arg0)
// FL4-NEXT: return
func.func @l2_normalization(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %z = "tosa.const"() {value = dense<0.0> : tensor<1x1x1xf32>} : () -> tensor<1x1x1xf32>
  %sq = tosa.mul %x, %x {shift = 0 : i8} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %s = tosa.reduce_sum %sq {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %e = tosa.equal %s, %z : (tensor<2x1x4xf32>, tensor<1x1x1xf32>) -> tensor<2x1x4xi1>
  %r = tosa.rsqrt %s : (tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
  %c = tosa.select %e, %z, %r : (tensor<2x1x4xi1>, tensor<1x1x1xf32>, tensor<2x1x4xf32>) -> tensor<2x1x4xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 4 (zeros for a vector of zeros (undefined before)), the target is 1}}
  %y = tosa.mul %x, %c {shift = 0 : i8} : (tensor<2x3x4xf32>, tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
  return %y : tensor<2x3x4xf32>
}
