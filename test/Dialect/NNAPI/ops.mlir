// RUN: nnapi-opt %s | nnapi-opt | FileCheck %s

// CHECK-LABEL: func @roundtrip
func.func @roundtrip(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>,
                     %dw: tensor<1x3x3x8xf32>, %db: tensor<8xf32>,
                     %h: tensor<1x4xf16>) -> (tensor<1x10xf32>, tensor<1x4xf16>) {
  // CHECK: nnapi.conv_2d %{{.*}} padding = [1, 1, 1, 1] strides = [1, 1] dilations = [1, 1] fused relu
  %0 = nnapi.conv_2d %x, %w, %b padding = [1, 1, 1, 1] strides = [1, 1] dilations = [1, 1] fused relu : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x8x8x4xf32>
  // CHECK: nnapi.depthwise_conv_2d {{.*}} depth_multiplier = 2 fused relu6
  %1 = nnapi.depthwise_conv_2d %0, %dw, %db padding = [1, 1, 1, 1] strides = [1, 1] dilations = [1, 1] depth_multiplier = 2 fused relu6 : (tensor<1x8x8x4xf32>, tensor<1x3x3x8xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
  // CHECK: nnapi.average_pool_2d {{.*}} filter = [2, 2] :
  %2 = nnapi.average_pool_2d %1 padding = [0, 0, 0, 0] strides = [2, 2] filter = [2, 2] : (tensor<1x8x8x8xf32>) -> tensor<1x4x4x8xf32>
  // CHECK: nnapi.max_pool_2d
  %3 = nnapi.max_pool_2d %2 padding = [0, 1, 0, 1] strides = [2, 2] filter = [2, 2] : (tensor<1x4x4x8xf32>) -> tensor<1x2x2x8xf32>
  // CHECK: nnapi.concatenation {{.*}} axis = 3
  %4 = nnapi.concatenation %3, %3 axis = 3 : (tensor<1x2x2x8xf32>, tensor<1x2x2x8xf32>) -> tensor<1x2x2x16xf32>
  %5 = nnapi.logistic %4 : tensor<1x2x2x16xf32>
  %6 = nnapi.tanh %5 : tensor<1x2x2x16xf32>
  %7 = nnapi.relu1 %6 : tensor<1x2x2x16xf32>
  // CHECK: nnapi.reshape %{{.*}} : (tensor<1x2x2x16xf32>) -> tensor<1x64xf32>
  %8 = nnapi.reshape %7 : (tensor<1x2x2x16xf32>) -> tensor<1x64xf32>
  %fw = arith.constant dense<1.0> : tensor<10x64xf32>
  %fb = arith.constant dense<0.0> : tensor<10xf32>
  // CHECK: nnapi.fully_connected
  %9 = nnapi.fully_connected %8, %fw, %fb : (tensor<1x64xf32>, tensor<10x64xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  %one = arith.constant dense<1.0> : tensor<10xf32>
  // CHECK: nnapi.sub %{{.*}}, %{{.*}} : (tensor<1x10xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  %10 = nnapi.sub %9, %one : (tensor<1x10xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  %11 = nnapi.div %10, %one fused relu1 : (tensor<1x10xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  // CHECK: nnapi.softmax %{{.*}} beta = 1.000000e+00 : tensor<1x10xf32>
  %12 = nnapi.softmax %11 beta = 1.0 : tensor<1x10xf32>
  // CHECK: nnapi.add {{.*}} : (tensor<1x4xf16>, tensor<1x4xf16>) -> tensor<1x4xf16>
  %13 = nnapi.add %h, %h : (tensor<1x4xf16>, tensor<1x4xf16>) -> tensor<1x4xf16>
  return %12, %13 : tensor<1x10xf32>, tensor<1x4xf16>
}

// Element-wise operations of feature level 3.
// CHECK-LABEL: func @elementwise_fl3
func.func @elementwise_fl3(%x: tensor<2x3xf32>, %y: tensor<3xf32>, %h: tensor<4xf16>) -> (tensor<2x3xf32>, tensor<4xf16>) {
  // CHECK: nnapi.exp %{{.*}} : tensor<2x3xf32>
  %0 = nnapi.exp %x : tensor<2x3xf32>
  // CHECK: nnapi.log
  %1 = nnapi.log %0 : tensor<2x3xf32>
  // CHECK: nnapi.sqrt
  %2 = nnapi.sqrt %1 : tensor<2x3xf32>
  // CHECK: nnapi.rsqrt
  %3 = nnapi.rsqrt %2 : tensor<2x3xf32>
  // CHECK: nnapi.abs
  %4 = nnapi.abs %3 : tensor<2x3xf32>
  // CHECK: nnapi.neg
  %5 = nnapi.neg %4 : tensor<2x3xf32>
  // CHECK: nnapi.floor
  %6 = nnapi.floor %5 : tensor<2x3xf32>
  // CHECK: nnapi.sin
  %7 = nnapi.sin %6 : tensor<2x3xf32>
  // CHECK: nnapi.maximum %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %8 = nnapi.maximum %7, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: nnapi.minimum
  %9 = nnapi.minimum %8, %y : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: nnapi.pow
  %10 = nnapi.pow %9, %9 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: nnapi.exp %{{.*}} : tensor<4xf16>
  %11 = nnapi.exp %h : tensor<4xf16>
  return %10, %11 : tensor<2x3xf32>, tensor<4xf16>
}

// Data movement, reductions, matrix products and HARD_SWISH.
// CHECK-LABEL: func @data_and_reductions
func.func @data_and_reductions(%x: tensor<1x8x8x4xf32>, %a: tensor<4x16x8xf32>, %b: tensor<4x32x8xf32>, %h: tensor<2x3xf16>) -> (tensor<1x4x8x8xf32>, tensor<1x10x10x4xf32>, tensor<1x8x10x4xf32>, tensor<1x3x8x2xf32>, tensor<2x8x8x8xf32>, tensor<1x1x1x4xf32>, tensor<4xf32>, tensor<1x8x4xf32>, tensor<1x8x8xf32>, tensor<1x8x8x1xf32>, tensor<4x16x32xf32>, tensor<1x8x8x4xf32>, tensor<3x2xf16>) {
  // CHECK: nnapi.transpose %{{.*}} perm = [0, 3, 1, 2] : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
  %0 = nnapi.transpose %x perm = [0, 3, 1, 2] : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
  // CHECK: nnapi.pad %{{.*}} padding = [0, 0, 1, 1, 1, 1, 0, 0] : (tensor<1x8x8x4xf32>) -> tensor<1x10x10x4xf32>
  %1 = nnapi.pad %x padding = [0, 0, 1, 1, 1, 1, 0, 0] : (tensor<1x8x8x4xf32>) -> tensor<1x10x10x4xf32>
  // CHECK: nnapi.pad_v2 %{{.*}} padding = [0, 0, 0, 0, 2, 0, 0, 0] value = -1.000000e+00
  %2 = nnapi.pad_v2 %x padding = [0, 0, 0, 0, 2, 0, 0, 0] value = -1.0 : (tensor<1x8x8x4xf32>) -> tensor<1x8x10x4xf32>
  // CHECK: nnapi.slice %{{.*}} begin = [0, 2, 0, 1] : (tensor<1x8x8x4xf32>) -> tensor<1x3x8x2xf32>
  %3 = nnapi.slice %x begin = [0, 2, 0, 1] : (tensor<1x8x8x4xf32>) -> tensor<1x3x8x2xf32>
  // CHECK: nnapi.tile %{{.*}} : (tensor<1x8x8x4xf32>) -> tensor<2x8x8x8xf32>
  %4 = nnapi.tile %x : (tensor<1x8x8x4xf32>) -> tensor<2x8x8x8xf32>
  // CHECK: nnapi.mean %{{.*}} axes = [1, 2] keep_dims : (tensor<1x8x8x4xf32>) -> tensor<1x1x1x4xf32>
  %5 = nnapi.mean %x axes = [1, 2] keep_dims : (tensor<1x8x8x4xf32>) -> tensor<1x1x1x4xf32>
  // CHECK: nnapi.reduce_sum %{{.*}} axes = [0, 1, 2] : (tensor<1x8x8x4xf32>) -> tensor<4xf32>
  %6 = nnapi.reduce_sum %x axes = [0, 1, 2] : (tensor<1x8x8x4xf32>) -> tensor<4xf32>
  // CHECK: nnapi.reduce_max
  %7 = nnapi.reduce_max %x axes = [2] : (tensor<1x8x8x4xf32>) -> tensor<1x8x4xf32>
  // CHECK: nnapi.reduce_min
  %8 = nnapi.reduce_min %x axes = [3] : (tensor<1x8x8x4xf32>) -> tensor<1x8x8xf32>
  // CHECK: nnapi.reduce_prod
  %9 = nnapi.reduce_prod %x axes = [3] keep_dims : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x1xf32>
  // CHECK: nnapi.batch_matmul %{{.*}}, %{{.*}} adj_y : (tensor<4x16x8xf32>, tensor<4x32x8xf32>) -> tensor<4x16x32xf32>
  %10 = nnapi.batch_matmul %a, %b adj_y : (tensor<4x16x8xf32>, tensor<4x32x8xf32>) -> tensor<4x16x32xf32>
  // CHECK: nnapi.hard_swish %{{.*}} : tensor<1x8x8x4xf32>
  %11 = nnapi.hard_swish %x : tensor<1x8x8x4xf32>
  // CHECK: nnapi.transpose %{{.*}} perm = [1, 0] : (tensor<2x3xf16>) -> tensor<3x2xf16>
  %12 = nnapi.transpose %h perm = [1, 0] : (tensor<2x3xf16>) -> tensor<3x2xf16>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12 : tensor<1x4x8x8xf32>, tensor<1x10x10x4xf32>, tensor<1x8x10x4xf32>, tensor<1x3x8x2xf32>, tensor<2x8x8x8xf32>, tensor<1x1x1x4xf32>, tensor<4xf32>, tensor<1x8x4xf32>, tensor<1x8x8xf32>, tensor<1x8x8x1xf32>, tensor<4x16x32xf32>, tensor<1x8x8x4xf32>, tensor<3x2xf16>
}

// CHECK-LABEL: func @upsampling
func.func @upsampling(%x: tensor<1x4x4x8xf32>, %h: tensor<1x4x4x8xf16>) -> (tensor<1x9x9x4xf32>, tensor<1x8x8x8xf32>, tensor<1x7x5x8xf32>, tensor<1x8x8x8xf16>) {
  %w = arith.constant dense<0.5> : tensor<4x3x3x8xf32>
  %b = arith.constant dense<0.0> : tensor<4xf32>
  // CHECK: nnapi.transpose_conv_2d %{{.*}}, %{{.*}}, %{{.*}} padding = [0, 0, 0, 0] strides = [2, 2] fused relu : (tensor<1x4x4x8xf32>, tensor<4x3x3x8xf32>, tensor<4xf32>) -> tensor<1x9x9x4xf32>
  %0 = nnapi.transpose_conv_2d %x, %w, %b padding = [0, 0, 0, 0] strides = [2, 2] fused relu : (tensor<1x4x4x8xf32>, tensor<4x3x3x8xf32>, tensor<4xf32>) -> tensor<1x9x9x4xf32>
  // CHECK: nnapi.resize_bilinear %{{.*}} half_pixel_centers : (tensor<1x4x4x8xf32>) -> tensor<1x8x8x8xf32>
  %1 = nnapi.resize_bilinear %x half_pixel_centers : (tensor<1x4x4x8xf32>) -> tensor<1x8x8x8xf32>
  // CHECK: nnapi.resize_bilinear %{{.*}} align_corners : (tensor<1x4x4x8xf32>) -> tensor<1x7x5x8xf32>
  %2 = nnapi.resize_bilinear %x align_corners : (tensor<1x4x4x8xf32>) -> tensor<1x7x5x8xf32>
  // CHECK: nnapi.resize_nearest_neighbor %{{.*}} : (tensor<1x4x4x8xf16>) -> tensor<1x8x8x8xf16>
  %3 = nnapi.resize_nearest_neighbor %h : (tensor<1x4x4x8xf16>) -> tensor<1x8x8x8xf16>
  return %0, %1, %2, %3 : tensor<1x9x9x4xf32>, tensor<1x8x8x8xf32>, tensor<1x7x5x8xf32>, tensor<1x8x8x8xf16>
}

// CHECK-LABEL: func @activations
func.func @activations(%x: tensor<1x3x4xf32>, %s: tensor<3x1xf32>) -> (tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>) {
  // CHECK: nnapi.prelu %{{.*}}, %{{.*}} : (tensor<1x3x4xf32>, tensor<3x1xf32>) -> tensor<1x3x4xf32>
  %0 = nnapi.prelu %x, %s : (tensor<1x3x4xf32>, tensor<3x1xf32>) -> tensor<1x3x4xf32>
  // CHECK: nnapi.elu %{{.*}} alpha = 5.000000e-01 : tensor<1x3x4xf32>
  %1 = nnapi.elu %x alpha = 0.5 : tensor<1x3x4xf32>
  // CHECK: nnapi.log_softmax %{{.*}} beta = 1.000000e+00 axis = 1 : tensor<1x3x4xf32>
  %2 = nnapi.log_softmax %x beta = 1.0 axis = 1 : tensor<1x3x4xf32>
  return %0, %1, %2 : tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<1x3x4xf32>
}

// CHECK-LABEL: func @instance_norm
func.func @instance_norm(%x: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  // CHECK: nnapi.instance_normalization %{{.*}} gamma = 1.000000e+00 beta = 0.000000e+00 epsilon = 9.99999974E-6 nchw : tensor<1x8x4x4xf32>
  %0 = nnapi.instance_normalization %x gamma = 1.0 beta = 0.0 epsilon = 1.0e-05 nchw : tensor<1x8x4x4xf32>
  return %0 : tensor<1x8x4x4xf32>
}

// CHECK-LABEL: func @more_data_movement
func.func @more_data_movement(%x: tensor<2x5x3xf32>, %ids: tensor<2x4xi32>) -> (tensor<2x8x3xf32>, tensor<2x5x3xf32>, tensor<2x3x3xf32>, tensor<2x2x4x3xf32>) {
  // CHECK: nnapi.mirror_pad %{{.*}} padding = [0, 0, 1, 2, 0, 0] symmetric : (tensor<2x5x3xf32>) -> tensor<2x8x3xf32>
  %0 = nnapi.mirror_pad %x padding = [0, 0, 1, 2, 0, 0] symmetric : (tensor<2x5x3xf32>) -> tensor<2x8x3xf32>
  // CHECK: nnapi.reverse %{{.*}} axis = 2 : tensor<2x5x3xf32>
  %1 = nnapi.reverse %x axis = 2 : tensor<2x5x3xf32>
  %i = arith.constant dense<[4, 0, 4]> : tensor<3xi32>
  // CHECK: nnapi.gather %{{.*}}[%{{.*}}] axis = 1 : (tensor<2x5x3xf32>, tensor<3xi32>) -> tensor<2x3x3xf32>
  %2 = nnapi.gather %x[%i] axis = 1 : (tensor<2x5x3xf32>, tensor<3xi32>) -> tensor<2x3x3xf32>
  // Indices computed at run time, of rank 2: [2, 4] replaces dimension 1.
  // CHECK: nnapi.gather %{{.*}}[%{{.*}}] axis = 1 : (tensor<2x5x3xf32>, tensor<2x4xi32>) -> tensor<2x2x4x3xf32>
  %3 = nnapi.gather %x[%ids] axis = 1 : (tensor<2x5x3xf32>, tensor<2x4xi32>) -> tensor<2x2x4x3xf32>
  return %0, %1, %2, %3 : tensor<2x8x3xf32>, tensor<2x5x3xf32>, tensor<2x3x3xf32>, tensor<2x2x4x3xf32>
}

// CHECK-LABEL: func @depth_space
func.func @depth_space(%x: tensor<1x8x4x4xf32>, %y: tensor<1x4x4x8xf32>) -> (tensor<1x2x8x8xf32>, tensor<1x2x2x32xf32>) {
  // CHECK: nnapi.depth_to_space %{{.*}} block_size = 2 nchw : (tensor<1x8x4x4xf32>) -> tensor<1x2x8x8xf32>
  %0 = nnapi.depth_to_space %x block_size = 2 nchw : (tensor<1x8x4x4xf32>) -> tensor<1x2x8x8xf32>
  // CHECK: nnapi.space_to_depth %{{.*}} block_size = 2 : (tensor<1x4x4x8xf32>) -> tensor<1x2x2x32xf32>
  %1 = nnapi.space_to_depth %y block_size = 2 : (tensor<1x4x4x8xf32>) -> tensor<1x2x2x32xf32>
  return %0, %1 : tensor<1x2x8x8xf32>, tensor<1x2x2x32xf32>
}

// CHECK-LABEL: func @grouped_conv
func.func @grouped_conv(%x: tensor<1x8x8x4xf32>) -> tensor<1x8x8x6xf32> {
  %w = arith.constant dense<0.5> : tensor<6x3x3x2xf32>
  %b = arith.constant dense<0.0> : tensor<6xf32>
  // CHECK: nnapi.grouped_conv_2d %{{.*}}, %{{.*}}, %{{.*}} padding = [1, 1, 1, 1] strides = [1, 1] num_groups = 2 fused relu6
  %0 = nnapi.grouped_conv_2d %x, %w, %b padding = [1, 1, 1, 1] strides = [1, 1] num_groups = 2 fused relu6 : (tensor<1x8x8x4xf32>, tensor<6x3x3x2xf32>, tensor<6xf32>) -> tensor<1x8x8x6xf32>
  return %0 : tensor<1x8x8x6xf32>
}

// CHECK-LABEL: func @channel_shuffle
func.func @channel_shuffle(%x: tensor<1x6x2x3xf32>) -> tensor<1x6x2x3xf32> {
  // CHECK: nnapi.channel_shuffle %{{.*}} num_groups = 3 axis = 1 : tensor<1x6x2x3xf32>
  %0 = nnapi.channel_shuffle %x num_groups = 3 axis = 1 : tensor<1x6x2x3xf32>
  return %0 : tensor<1x6x2x3xf32>
}

// CHECK-LABEL: func @l2_normalization
func.func @l2_normalization(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  // CHECK: nnapi.l2_normalization %{{.*}} axis = 1 : tensor<2x3x4xf32>
  %0 = nnapi.l2_normalization %x axis = 1 : tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// CHECK-LABEL: func @local_response
func.func @local_response(%x: tensor<1x7x3x3xf32>) -> tensor<1x7x3x3xf32> {
  // CHECK: nnapi.local_response_normalization %{{.*}} radius = 2 bias = 1.000000e+00 alpha = 9.99999974E-5 beta = 7.500000e-01 axis = 1 : tensor<1x7x3x3xf32>
  %0 = nnapi.local_response_normalization %x radius = 2 bias = 1.0 alpha = 1.0e-04 beta = 0.75 axis = 1 : tensor<1x7x3x3xf32>
  return %0 : tensor<1x7x3x3xf32>
}

// CHECK-LABEL: func @bool_ops
func.func @bool_ops(%a: tensor<2x4xf32>, %b: tensor<4xf32>, %h: tensor<4xf16>) -> (tensor<2x4xf32>, tensor<4xi1>) {
  // CHECK: nnapi.equal %{{.*}}, %{{.*}} : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xi1>
  %0 = nnapi.equal %a, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xi1>
  // CHECK: nnapi.not_equal
  %1 = nnapi.not_equal %a, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xi1>
  // CHECK: nnapi.greater
  %2 = nnapi.greater %a, %b : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xi1>
  // CHECK: nnapi.greater_equal %{{.*}}, %{{.*}} : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xi1>
  %3 = nnapi.greater_equal %h, %h : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xi1>
  // CHECK: nnapi.logical_and
  %4 = nnapi.logical_and %0, %1 : (tensor<2x4xi1>, tensor<2x4xi1>) -> tensor<2x4xi1>
  // CHECK: nnapi.logical_or
  %5 = nnapi.logical_or %4, %2 : (tensor<2x4xi1>, tensor<2x4xi1>) -> tensor<2x4xi1>
  // CHECK: nnapi.logical_not %{{.*}} : tensor<2x4xi1>
  %6 = nnapi.logical_not %5 : tensor<2x4xi1>
  // CHECK: nnapi.select %{{.*}}, %{{.*}}, %{{.*}} : (tensor<2x4xi1>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %7 = nnapi.select %6, %a, %a : (tensor<2x4xi1>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  return %7, %3 : tensor<2x4xf32>, tensor<4xi1>
}

// CHECK-LABEL: func @arg_ops
func.func @arg_ops(%x: tensor<2x10xf32>) -> (tensor<2xi32>, tensor<10xi32>) {
  // CHECK: nnapi.argmax %{{.*}} axis = 1 : (tensor<2x10xf32>) -> tensor<2xi32>
  %0 = nnapi.argmax %x axis = 1 : (tensor<2x10xf32>) -> tensor<2xi32>
  // CHECK: nnapi.argmin %{{.*}} axis = 0 : (tensor<2x10xf32>) -> tensor<10xi32>
  %1 = nnapi.argmin %x axis = 0 : (tensor<2x10xf32>) -> tensor<10xi32>
  return %0, %1 : tensor<2xi32>, tensor<10xi32>
}

// CHECK-LABEL: func @split
func.func @split(%x: tensor<2x6xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>) {
  // CHECK: nnapi.split %{{.*}} axis = 1 : (tensor<2x6xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
  %0:3 = nnapi.split %x axis = 1 : (tensor<2x6xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
  return %0#0, %0#1, %0#2 : tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>
}

// CHECK-LABEL: func @cast
func.func @cast(%m: tensor<2x3xi1>, %i: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xf16>) {
  // CHECK: nnapi.cast %{{.*}} : (tensor<2x3xi1>) -> tensor<2x3xf32>
  %0 = nnapi.cast %m : (tensor<2x3xi1>) -> tensor<2x3xf32>
  // CHECK: nnapi.cast %{{.*}} : (tensor<2x3xi32>) -> tensor<2x3xf16>
  %1 = nnapi.cast %i : (tensor<2x3xi32>) -> tensor<2x3xf16>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf16>
}

// CHECK-LABEL: func @strided_slice
func.func @strided_slice(%x: tensor<4x8xf32>) -> tensor<2x3xf32> {
  // CHECK: nnapi.strided_slice %{{.*}} begin = [0, 1] end = [4, 8] strides = [2, 3] : (tensor<4x8xf32>) -> tensor<2x3xf32>
  %0 = nnapi.strided_slice %x begin = [0, 1] end = [4, 8] strides = [2, 3] : (tensor<4x8xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// A coupled input gate (no input gate operands), peepholes of the forget and
// output gates, a projection to 3 outputs, batch-major, the output alone.
// CHECK-LABEL: func @sequence_lstm
func.func @sequence_lstm(%x: tensor<2x5x4xf16>, %w: tensor<6x4xf16>, %r: tensor<6x3xf16>,
                         %v: tensor<6xf16>, %p: tensor<3x6xf16>, %pb: tensor<3xf16>,
                         %h: tensor<2x3xf16>, %c: tensor<2x6xf16>) -> tensor<2x5x3xf16> {
  // CHECK: nnapi.unidirectional_sequence_lstm %{{.*}} input_to_forget_weights %{{.*}} recurrent_to_output_weights %{{.*}} cell_to_forget_weights %{{.*}} cell_to_output_weights %{{.*}} forget_gate_bias %{{.*}} projection_weights %{{.*}} projection_bias %{{.*}} output_state_in %{{.*}} cell_state_in %{{.*}} {activation = 1 : i32, cell_clip = 2.500000e+00 : f32, proj_clip = 1.000000e+00 : f32, time_major = false} : (tensor<2x5x4xf16>, {{.*}}) -> tensor<2x5x3xf16>
  %y = nnapi.unidirectional_sequence_lstm %x
      input_to_forget_weights %w input_to_cell_weights %w input_to_output_weights %w
      recurrent_to_forget_weights %r recurrent_to_cell_weights %r recurrent_to_output_weights %r
      cell_to_forget_weights %v cell_to_output_weights %v
      forget_gate_bias %v cell_bias %v output_gate_bias %v
      projection_weights %p projection_bias %pb
      output_state_in %h cell_state_in %c
      {activation = 1 : i32, cell_clip = 2.5 : f32, proj_clip = 1.0 : f32, time_major = false}
      : (tensor<2x5x4xf16>, tensor<6x4xf16>, tensor<6x4xf16>, tensor<6x4xf16>, tensor<6x3xf16>, tensor<6x3xf16>, tensor<6x3xf16>, tensor<6xf16>, tensor<6xf16>, tensor<6xf16>, tensor<6xf16>, tensor<6xf16>, tensor<3x6xf16>, tensor<3xf16>, tensor<2x3xf16>, tensor<2x6xf16>) -> tensor<2x5x3xf16>
  return %y : tensor<2x5x3xf16>
}

// A batch-major sequence RNN with a fused relu.
// CHECK-LABEL: func @sequence_rnn
func.func @sequence_rnn(%x: tensor<2x5x4xf32>, %w: tensor<3x4xf32>, %r: tensor<3x3xf32>,
                        %b: tensor<3xf32>, %h: tensor<2x3xf32>) -> tensor<2x5x3xf32> {
  // CHECK: nnapi.unidirectional_sequence_rnn %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} fused relu {time_major = false} : (tensor<2x5x4xf32>, tensor<3x4xf32>, tensor<3x3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x5x3xf32>
  %y = nnapi.unidirectional_sequence_rnn %x, %w, %r, %b, %h fused relu {time_major = false}
      : (tensor<2x5x4xf32>, tensor<3x4xf32>, tensor<3x3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x5x3xf32>
  return %y : tensor<2x5x3xf32>
}

// 8-bit quantized activations: a result quantized unlike the input prints
// as `T -> U`; LOGISTIC and SOFTMAX with NNAPI's fixed output parameters.
// CHECK-LABEL: func @quantized_activations
func.func @quantized_activations(%x: tensor<1x4x!quant.uniform<i8:f32, 5.000000e-01:-3>>) -> tensor<1x4x!quant.uniform<i8:f32, 3.906250e-03:-128>> {
  // CHECK: nnapi.hard_swish %{{.*}} : tensor<1x4x!quant.uniform<i8:f32, 5.000000e-01:-3>> -> tensor<1x4x!quant.uniform<i8:f32, 2.500000e-01:7>>
  %h = nnapi.hard_swish %x : tensor<1x4x!quant.uniform<i8:f32, 0.5:-3>> -> tensor<1x4x!quant.uniform<i8:f32, 0.25:7>>
  // CHECK: nnapi.logistic %{{.*}} : tensor<1x4x!quant.uniform<i8:f32, 2.500000e-01:7>> -> tensor<1x4x!quant.uniform<i8:f32, 3.906250e-03:-128>>
  %g = nnapi.logistic %h : tensor<1x4x!quant.uniform<i8:f32, 0.25:7>> -> tensor<1x4x!quant.uniform<i8:f32, 0.00390625:-128>>
  // CHECK: nnapi.softmax %{{.*}} beta = 1.000000e+00 : tensor<1x4x!quant.uniform<i8:f32, 3.906250e-03:-128>>{{$}}
  %s = nnapi.softmax %g beta = 1.0 : tensor<1x4x!quant.uniform<i8:f32, 0.00390625:-128>>
  return %s : tensor<1x4x!quant.uniform<i8:f32, 0.00390625:-128>>
}
