// RUN: nnapi-opt %s -split-input-file -nnapi-codegen-prepare="int8-dot=avx512-vnni" | FileCheck %s --check-prefix=PREPARE
// RUN: nnapi-opt %s -split-input-file -nnapi-codegen-prepare -nnapi-codegen="vector-bits=512 vector-registers=32" | FileCheck %s --check-prefix=PLAIN
// RUN: nnapi-opt %s -split-input-file -nnapi-codegen-prepare="int8-dot=avx512-vnni" -nnapi-codegen="int8-dot=avx512-vnni vector-bits=512 vector-registers=32" | FileCheck %s --check-prefix=VNNI
// RUN: nnapi-opt %s -split-input-file -nnapi-codegen-prepare="int8-dot=avx512-vnni" -nnapi-codegen="int8-dot=avx512-vnni vector-bits=512 vector-registers=32" -nnapi-lower-vectors="int8-dot=avx512-vnni" | FileCheck %s --check-prefix=VNNI-LLVM
// RUN: nnapi-opt %s -split-input-file -nnapi-codegen-prepare="int8-dot=avx-vnni" -nnapi-codegen="int8-dot=avx-vnni vector-bits=256 vector-registers=16" -nnapi-lower-vectors="int8-dot=avx-vnni" | FileCheck %s --check-prefix=AVX-LLVM
// RUN: nnapi-opt %s -split-input-file -nnapi-codegen-prepare="int8-dot=avx2-madd" | FileCheck %s --check-prefix=MADD-PREPARE
// RUN: nnapi-opt %s -split-input-file -nnapi-codegen-prepare="int8-dot=avx2-madd" -nnapi-codegen="int8-dot=avx2-madd vector-bits=256 vector-registers=16" | FileCheck %s --check-prefix=MADD
// RUN: nnapi-opt %s -split-input-file -nnapi-codegen-prepare="int8-dot=avx2-madd" -nnapi-codegen="int8-dot=avx2-madd vector-bits=256 vector-registers=16" -nnapi-lower-vectors="int8-dot=avx2-madd" | FileCheck %s --check-prefix=MADD-LLVM
// RUN: nnapi-opt %s -split-input-file -nnapi-codegen-prepare="int8-dot=avx512-madd" -nnapi-codegen="int8-dot=avx512-madd vector-bits=512 vector-registers=32" -nnapi-lower-vectors="int8-dot=avx512-madd" | FileCheck %s --check-prefix=MADD512-LLVM
// RUN: nnapi-opt %s -split-input-file -nnapi-codegen-prepare="int8-dot=dotprod" -nnapi-codegen="int8-dot=dotprod vector-bits=128 vector-registers=32" | FileCheck %s --check-prefix=SDOT
// RUN: nnapi-opt %s -split-input-file -nnapi-codegen-prepare="int8-dot=dotprod" -nnapi-codegen="int8-dot=dotprod vector-bits=128 vector-registers=32" -nnapi-lower-vectors="int8-dot=dotprod" | FileCheck %s --check-prefix=SDOT-LLVM
// RUN: nnapi-opt %s -split-input-file -nnapi-codegen-prepare="int8-dot=i8mm" -nnapi-codegen="int8-dot=i8mm vector-bits=128 vector-registers=32" | FileCheck %s --check-prefix=SMMLA
// RUN: nnapi-opt %s -split-input-file -nnapi-codegen-prepare="int8-dot=i8mm" -nnapi-codegen="int8-dot=i8mm vector-bits=128 vector-registers=32" -nnapi-lower-vectors="int8-dot=i8mm" | FileCheck %s --check-prefix=SMMLA-LLVM

// A 1x1 convolution of 5 input channels to 3 with zero points 2 (input)
// and 1 (filter). With int8-dot the operands stay 8-bit: the filter minus
// its zero point, w' = [[0..4], [-2..-6], [6, -1, -1, -1, 0]] as HWCF, and
// the bias [100, 200, 300] minus 2 * sum(w') = 2 * [10, -20, 3].
// PREPARE-LABEL: func.func @conv
// PREPARE-DAG: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}0, -2, 6], [1, -3, -1], [2, -4, -1], [3, -5, -1], [4, -6, 0]]]]> : tensor<1x1x5x3xi8>
// PREPARE-DAG: %[[B:.*]] = arith.constant dense<[80, 240, 294]> : tensor<3xi32>
// PREPARE: %[[INIT:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<3xi32>)
// PREPARE: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%arg0, %[[W]] : tensor<1x4x6x5xi8>, tensor<1x1x5x3xi8>) outs(%[[INIT]] : tensor<1x4x6x3xi32>)

// Without it, the plain form on i32 operands minus their zero points.
// PLAIN-LABEL: func.func @conv
// PLAIN-NOT: vector.multi_reduction
// PLAIN: vector.contract {{.*}} : vector<1x6x5xi32>, vector<5x2xi32> into vector<1x6x2xi32>

// vpdpbusd: the packed filter [KH, KW, C/4, F' * 4] (F' = 3 rounded up to
// 16, plus 16), its first lane's four bytes channels 0-3 of output channel
// 0; 128 * sum(w') subtracted from the accumulators, whose input bytes are
// flipped (xor 0x80808080) as they are broadcast. Five channels: one step
// of four and a tail of one.
// VNNI-LABEL: func.func @conv
// VNNI-DAG: arith.constant dense<"0x00010203FEFDFCFB06FFFFFF{{0*}}04000000FA000000{{0*}}"> : tensor<1x1x2x128xi8>
// VNNI-DAG: arith.constant dense<[1280, -2560, 384, 0, {{.*}}]> : tensor<32xi32>
// VNNI-DAG: %[[FLIP:.*]] = arith.constant dense<-2139062144> : vector<16xi32>
// VNNI: arith.subi {{.*}} : vector<16xi32>
// VNNI: vector.transfer_read %arg0{{.*}} : tensor<1x4x6x5xi8>, vector<4xi8>
// VNNI: vector.bitcast {{.*}} : vector<4xi8> to vector<1xi32>
// VNNI: arith.xori {{.*}}, %[[FLIP]] : vector<16xi32>
// VNNI: arith.extui {{.*}} : vector<64xi8> to vector<64xi32>
// VNNI: arith.extsi {{.*}} : vector<64xi8> to vector<64xi32>
// VNNI: vector.shape_cast {{.*}} : vector<64xi32> to vector<16x4xi32>
// VNNI: vector.multi_reduction <add>, {{.*}} [1] : vector<16x4xi32> to vector<16xi32>
// VNNI: vector.transfer_read %arg0{{.*}} : tensor<1x4x6x5xi8>, vector<1xi8>
// VNNI-NOT: linalg.conv

// nnapi-lower-vectors makes them the instruction.
// VNNI-LLVM-LABEL: func.func @conv
// VNNI-LLVM: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"({{.*}}) : (vector<16xi32>, vector<16xi32>, vector<16xi32>) -> vector<16xi32>
// VNNI-LLVM-NOT: vector.multi_reduction
// AVX-LLVM-LABEL: func.func @conv
// AVX-LLVM: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.256"({{.*}}) : (vector<8xi32>, vector<8xi32>, vector<8xi32>) -> vector<8xi32>
// AVX-LLVM-NOT: vector.multi_reduction

// vpmaddwd (x86 without VNNI) multiplies pairs of signed 16-bit values:
// the input sign-extended to 16 bits once, before the convolution (a
// vectorized element-wise op); the filter packed as [KH, KW, C/2, F' * 2]
// 16-bit values (F' = 3 rounded up to 8, plus 8), its first lane channels
// 0-1 of output channel 0; per step each row's two 16-bit inputs broadcast
// as a word; no flip, no correction. Five channels: two steps of two and a
// tail of one.
// MADD-PREPARE-LABEL: func.func @conv
// MADD-PREPARE: %[[X16:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1x4x6x5xi8>) outs(%{{.*}} : tensor<1x4x6x5xi16>)
// MADD-PREPARE: arith.extsi %{{.*}} : i8 to i16
// MADD-PREPARE: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[X16]], %{{.*}} : tensor<1x4x6x5xi16>, tensor<1x1x5x3xi8>)
// MADD-LABEL: func.func @conv
// MADD-NOT: arith.xori
// MADD-DAG: arith.constant dense<{{\[\[\[\[}}0, 1, -2, -3, 6, -1{{(, 0)+}}], [2, 3, -4, -5, -1, -1{{(, 0)+}}], [4, 0, -6, 0, 0{{(, 0)+}}]]]]> : tensor<1x1x3x32xi16>
// MADD: arith.extsi {{.*}} : vector<1x1x1x4xi8> to vector<1x1x1x4xi16>
// MADD: vector.transfer_read {{.*}} : tensor<1x4x6x5xi16>, vector<2xi16>
// MADD: vector.bitcast {{.*}} : vector<2xi16> to vector<1xi32>
// MADD: vector.transfer_read {{.*}} : tensor<1x1x3x32xi16>, vector<16xi16>
// MADD: vector.multi_reduction <add>, {{.*}} [1] : vector<8x2xi32> to vector<8xi32>
// MADD: vector.transfer_read {{.*}} : tensor<1x4x6x5xi16>, vector<1xi16>
// MADD-NOT: linalg.conv
// MADD-LLVM-LABEL: func.func @conv
// MADD-LLVM: %[[S:.*]] = llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"({{.*}}) : (vector<16xi16>, vector<16xi16>) -> vector<8xi32>
// MADD-LLVM: arith.addi {{.*}}%[[S]]{{.*}} : vector<8xi32>
// MADD-LLVM-NOT: vector.multi_reduction
// MADD512-LLVM-LABEL: func.func @conv
// MADD512-LLVM: llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"({{.*}}) : (vector<32xi16>, vector<32xi16>) -> vector<16xi32>
// MADD512-LLVM-NOT: vector.multi_reduction

// sdot multiplies signed bytes: no flip, no correction, four lanes.
// SDOT-LABEL: func.func @conv
// SDOT-NOT: arith.xori
// SDOT-NOT: arith.extui
// SDOT: vector.multi_reduction <add>, {{.*}} [1] : vector<4x4xi32> to vector<4xi32>
// SDOT-LLVM-LABEL: func.func @conv
// SDOT-LLVM: llvm.call_intrinsic "llvm.aarch64.neon.sdot.v4i32.v16i8"({{.*}}) : (vector<4xi32>, vector<16xi8>, vector<16xi8>) -> vector<4xi32>

// smmla (i8mm): 2x2 blocks of (output pixels, output channels), eight
// input channels a step. The filter packed as [KH, KW, C/8, (F + 2) * 8]:
// output channel 0's five weights (0..4, then three zeros), channel 1's,
// channel 2's, then two zero channels. A row pair's bytes side by side,
// lined up against a channel pair's by two shuffles; the blocks arranged
// from the tile's rows and back.
// SMMLA-LABEL: func.func @conv
// SMMLA-DAG: arith.constant dense<{{\[\[\[\[}}0, 1, 2, 3, 4, 0, 0, 0, -2, -3, -4, -5, -6, 0, 0, 0, 6, -1, -1, -1, 0, 0, 0, 0{{(, 0)+}}]]]]> : tensor<1x1x1x40xi8>
// SMMLA: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15] : vector<16xi8>, vector<16xi8>
// SMMLA: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] : vector<16xi8>, vector<16xi8>
// SMMLA: vector.multi_reduction <add>, {{.*}} [1] : vector<4x8xi32> to vector<4xi32>
// SMMLA-NOT: vector<4x4xi32>
// SMMLA-NOT: linalg.conv
// SMMLA-LLVM-LABEL: func.func @conv
// SMMLA-LLVM: llvm.call_intrinsic "llvm.aarch64.neon.smmla.v4i32.v16i8"({{.*}}) : (vector<4xi32>, vector<16xi8>, vector<16xi8>) -> vector<4xi32>
// SMMLA-LLVM-NOT: vector.multi_reduction
// SMMLA-LLVM-NOT: sdot
func.func @conv(%x: tensor<1x4x6x5xi8>) -> tensor<1x4x6x3xi32> {
  %w = arith.constant dense<[[[[1, 2, 3, 4, 5]]], [[[-1, -2, -3, -4, -5]]], [[[7, 0, 0, 0, 1]]]]> : tensor<3x1x1x5xi8>
  %bias = arith.constant dense<[100, 200, 300]> : tensor<3xi32>
  %e = tensor.empty() : tensor<1x4x6x3xi32>
  %init = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bias : tensor<3xi32>) outs(%e : tensor<1x4x6x3xi32>) {
  ^bb0(%in: i32, %out: i32):
    linalg.yield %in : i32
  } -> tensor<1x4x6x3xi32>
  %zx = arith.constant 2 : i32
  %zw = arith.constant 1 : i32
  %0 = linalg.conv_2d_nhwc_fhwc_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w, %zx, %zw : tensor<1x4x6x5xi8>, tensor<3x1x1x5xi8>, i32, i32) outs(%init : tensor<1x4x6x3xi32>) -> tensor<1x4x6x3xi32>
  return %0 : tensor<1x4x6x3xi32>
}

// -----

// A matmul of a feature map collapsed to rows, expanded back (a 1x1
// convolution TOSA made a matmul): the 1x1 convolution of the feature map,
// its fill of 0 a broadcast of -(-128) * sum(w').
// PREPARE-LABEL: func.func @matmul_of_feature_map
// PREPARE-DAG: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1, -1], [2, -2], [3, -3], [4, -4]]]]> : tensor<1x1x4x2xi8>
// PREPARE-DAG: %[[B:.*]] = arith.constant dense<[1280, -1280]> : tensor<2xi32>
// PREPARE: %[[INIT:.*]] = linalg.generic {{.*}} ins(%[[B]] : tensor<2xi32>)
// PREPARE: %[[Y:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%arg0, %[[W]] : tensor<1x2x3x4xi8>, tensor<1x1x4x2xi8>) outs(%[[INIT]] : tensor<1x2x3x2xi32>)
// PREPARE: return %[[Y]]
// VNNI-LABEL: func.func @matmul_of_feature_map
// VNNI: vector.multi_reduction <add>
func.func @matmul_of_feature_map(%x: tensor<1x2x3x4xi8>) -> tensor<1x2x3x2xi32> {
  %b = arith.constant dense<[[1, -1], [2, -2], [3, -3], [4, -4]]> : tensor<4x2xi8>
  %a = tensor.collapse_shape %x [[0, 1, 2], [3]] : tensor<1x2x3x4xi8> into tensor<6x4xi8>
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<6x2xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<6x2xi32>) -> tensor<6x2xi32>
  %za = arith.constant -128 : i32
  %zb = arith.constant 0 : i32
  %m = linalg.quantized_matmul ins(%a, %b, %za, %zb : tensor<6x4xi8>, tensor<4x2xi8>, i32, i32) outs(%init : tensor<6x2xi32>) -> tensor<6x2xi32>
  %y = tensor.expand_shape %m [[0, 1, 2], [3]] output_shape [1, 2, 3, 2] : tensor<6x2xi32> into tensor<1x2x3x2xi32>
  return %y : tensor<1x2x3x2xi32>
}

// -----

// Any other matmul by a constant: a 1x1 convolution of A as [1, 1, M, K];
// an accumulator given as an argument gets -3 * sum(w') added.
// PREPARE-LABEL: func.func @matmul
// PREPARE-DAG: %[[D:.*]] = arith.constant dense<[-30, 30]> : tensor<2xi32>
// PREPARE-DAG: %[[A:.*]] = tensor.expand_shape %arg0 {{\[\[}}0, 1, 2], [3]] output_shape [1, 1, 5, 4]
// PREPARE-DAG: %[[C:.*]] = tensor.expand_shape %arg1 {{\[\[}}0, 1, 2], [3]] output_shape [1, 1, 5, 2]
// PREPARE: %[[INIT:.*]] = linalg.generic {{.*}} ins(%[[C]], %[[D]] : tensor<1x1x5x2xi32>, tensor<2xi32>)
// PREPARE: arith.addi
// PREPARE: %[[Y:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[A]], %{{.*}} : tensor<1x1x5x4xi8>, tensor<1x1x4x2xi8>) outs(%[[INIT]] : tensor<1x1x5x2xi32>)
// PREPARE: tensor.collapse_shape %[[Y]] {{\[\[}}0, 1, 2], [3]] : tensor<1x1x5x2xi32> into tensor<5x2xi32>
func.func @matmul(%a: tensor<5x4xi8>, %init: tensor<5x2xi32>) -> tensor<5x2xi32> {
  %b = arith.constant dense<[[1, -1], [2, -2], [3, -3], [4, -4]]> : tensor<4x2xi8>
  %za = arith.constant 3 : i32
  %zb = arith.constant 0 : i32
  %m = linalg.quantized_matmul ins(%a, %b, %za, %zb : tensor<5x4xi8>, tensor<4x2xi8>, i32, i32) outs(%init : tensor<5x2xi32>) -> tensor<5x2xi32>
  return %m : tensor<5x2xi32>
}

// -----

// A filter whose differences from its zero point do not fit 8 bits
// (127 - (-128)) keeps its values; its zero point times each window's
// input sum (here one pixel of one channel) is subtracted after, and with
// an input zero point of 3, 3 x (-128) x 1 - 3 x 127 = -765 joins the
// initial value.
// PREPARE-LABEL: func.func @wide_differences
// PREPARE-DAG: %[[W:.*]] = arith.constant dense<127> : tensor<1x1x1x1xi8>
// PREPARE-DAG: %[[ZW:.*]] = arith.constant -128 : i32
// PREPARE: %[[INIT:.*]] = linalg.generic
// PREPARE: arith.addi
// PREPARE: %[[CONV:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%arg0, %[[W]] : tensor<1x2x2x1xi8>, tensor<1x1x1x1xi8>) outs(%[[INIT]] :
// PREPARE: %[[SUMS:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0 : tensor<1x2x2x1xi8>)
// PREPARE: arith.extsi
// PREPARE: linalg.generic {{.*}} ins(%[[CONV]], %[[SUMS]] :
// PREPARE: %[[T:.*]] = arith.muli %{{.*}}, %[[ZW]] : i32
// PREPARE: arith.subi %{{.*}}, %[[T]] : i32
func.func @wide_differences(%x: tensor<1x2x2x1xi8>, %init: tensor<1x2x2x1xi32>) -> tensor<1x2x2x1xi32> {
  %w = arith.constant dense<127> : tensor<1x1x1x1xi8>
  %zx = arith.constant 3 : i32
  %zw = arith.constant -128 : i32
  %0 = linalg.conv_2d_nhwc_fhwc_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w, %zx, %zw : tensor<1x2x2x1xi8>, tensor<1x1x1x1xi8>, i32, i32) outs(%init : tensor<1x2x2x1xi32>) -> tensor<1x2x2x1xi32>
  return %0 : tensor<1x2x2x1xi32>
}

// -----

// A batch matmul of two computed 8-bit tensors: nothing to pack at compile
// time. Prepare keeps the 8-bit product and applies the zero points after
// it: - 3 x B's column sums - (-2) x A's row sums + K za zb (5 x 3 x -2 =
// -30). Without int8-dot, the i32 form.
// PREPARE-LABEL: func.func @batch_matmul_of_tensors
// PREPARE: %[[P:.*]] = linalg.batch_matmul ins(%arg0, %arg1 : tensor<2x3x5xi8>, tensor<2x5x20xi8>)
// PREPARE: %[[COLS:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction", "parallel"]} ins(%arg1 : tensor<2x5x20xi8>) outs(%{{.*}} : tensor<2x20xi32>)
// PREPARE: %[[ROWS:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<2x3x5xi8>) outs(%{{.*}} : tensor<2x3xi32>)
// PREPARE: linalg.generic {{.*}} ins(%[[P]], %[[COLS]], %[[ROWS]] : tensor<2x3x20xi32>, tensor<2x20xi32>, tensor<2x3xi32>)
// PREPARE: arith.addi %{{.*}}, %c-30_i32
// PLAIN-LABEL: func.func @batch_matmul_of_tensors
// PLAIN-NOT: vector.multi_reduction <add>, {{.*}} : vector<16x4xi32>
// PLAIN: vector.contract {{.*}} : vector<3x{{[0-9]+}}xi32>
//
// vpdpbusd: per step of four k, each row's four bytes of A broadcast and
// flipped; per vector of columns, four rows of B interleaved (byte 4c + i
// is row i's column c) and dotted; 128 x each column's sum (the flip's
// bytes dotted with B's) subtracted at the end. K = 5: one step of four,
// a tail of one (B's rows 1-3 zeros). N = 20: a vector of 16 and one of 4
// columns read in bounds into a vector of zeros.
// VNNI-LABEL: func.func @batch_matmul_of_tensors
// VNNI-DAG: %[[FLIP:.*]] = arith.constant dense<-2139062144> : vector<16xi32>
// VNNI: vector.transfer_read %{{.*}} : tensor<3x5xi8>, vector<4xi8>
// VNNI: arith.xori {{.*}}, %[[FLIP]] : vector<16xi32>
// VNNI: vector.transfer_read %{{.*}} : tensor<5x16xi8>, vector<16xi8>
// VNNI: vector.shuffle {{.*}} : vector<16xi8>, vector<16xi8>
// VNNI: %[[W:.*]] = vector.shuffle %{{.*}}, %{{.*}} [0, 16, 32, 48, 1, 17, 33, 49, {{.*}}] : vector<32xi8>, vector<32xi8>
// VNNI: vector.multi_reduction <add>, {{.*}} [1] : vector<16x4xi32> to vector<16xi32>
// VNNI: vector.transfer_read %{{.*}} : tensor<5x4xi8>, vector<4xi8>
// VNNI: vector.insert_strided_slice {{.*}} : vector<4xi8> into vector<16xi8>
// VNNI: arith.subi {{.*}} : vector<16xi32>
// VNNI-NOT: linalg.batch_matmul
// VNNI-NOT: linalg.matmul
// VNNI-LLVM-LABEL: func.func @batch_matmul_of_tensors
// VNNI-LLVM: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// vpmaddwd: both operands sign-extended to 16 bits once, before the
// product; per step of two k, each row's two values of A broadcast as a
// word, and two rows of B interleaved (each lane's two values two k of one
// column; the shuffle canonicalizes to an interleave).
// MADD-PREPARE-LABEL: func.func @batch_matmul_of_tensors
// MADD-PREPARE: %[[A16:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<2x3x5xi8>) outs(%{{.*}} : tensor<2x3x5xi16>)
// MADD-PREPARE: %[[B16:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<2x5x20xi8>) outs(%{{.*}} : tensor<2x5x20xi16>)
// MADD-PREPARE: linalg.batch_matmul ins(%[[A16]], %[[B16]] : tensor<2x3x5xi16>, tensor<2x5x20xi16>)
// MADD-LABEL: func.func @batch_matmul_of_tensors
// MADD-NOT: arith.xori
// MADD: vector.transfer_read {{.*}} : tensor<3x5xi16>, vector<2xi16>
// MADD: vector.interleave %{{.*}}, %{{.*}} : vector<8xi16> -> vector<16xi16>
// MADD: vector.multi_reduction <add>, {{.*}} [1] : vector<8x2xi32> to vector<8xi32>
// MADD-NOT: linalg.matmul
// MADD-LLVM-LABEL: func.func @batch_matmul_of_tensors
// MADD-LLVM: llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"({{.*}}) : (vector<16xi16>, vector<16xi16>) -> vector<8xi32>
// MADD-LLVM-NOT: vector.multi_reduction
// SDOT-LABEL: func.func @batch_matmul_of_tensors
// SDOT-NOT: arith.xori
// SDOT: vector.shuffle %{{.*}}, %{{.*}} [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15] : vector<8xi8>, vector<8xi8>
// SDOT: vector.multi_reduction <add>, {{.*}} [1] : vector<4x4xi32> to vector<4xi32>
// SDOT-NOT: arith.subi {{.*}} : vector<4xi32>
// SDOT-LLVM-LABEL: func.func @batch_matmul_of_tensors
// SDOT-LLVM: llvm.call_intrinsic "llvm.aarch64.neon.sdot.v4i32.v16i8"
// smmla: per step of eight k, B's eight rows side by side (those past
// K = 5 zeros) and each channel pair's two columns gathered by one shuffle:
// rows 0-7 of column 0, then of column 1, of a tile of 8 columns.
// SMMLA-LABEL: func.func @batch_matmul_of_tensors
// SMMLA: vector.shuffle %{{.*}}, %{{.*}} [0, 8, 16, 24, 32, 40, 48, 56, 1, 9, 17, 25, 33, 41, 49, 57] : vector<65xi8>, vector<65xi8>
// SMMLA: vector.multi_reduction <add>, {{.*}} [1] : vector<4x8xi32> to vector<4xi32>
// SMMLA-NOT: linalg.matmul
// SMMLA-LLVM-LABEL: func.func @batch_matmul_of_tensors
// SMMLA-LLVM: llvm.call_intrinsic "llvm.aarch64.neon.smmla.v4i32.v16i8"
func.func @batch_matmul_of_tensors(%a: tensor<2x3x5xi8>, %b: tensor<2x5x20xi8>) -> tensor<2x3x20xi32> {
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<2x3x20xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<2x3x20xi32>) -> tensor<2x3x20xi32>
  %za = arith.constant 3 : i32
  %zb = arith.constant -2 : i32
  %m = linalg.quantized_batch_matmul ins(%a, %b, %za, %zb : tensor<2x3x5xi8>, tensor<2x5x20xi8>, i32, i32) outs(%init : tensor<2x3x20xi32>) -> tensor<2x3x20xi32>
  return %m : tensor<2x3x20xi32>
}

// -----

// For vpmaddwd the input is widened before its padding, so that the
// extension joins the element-wise chain that made the input: the padding
// (lowered to border fills of the sign-extended zero point, -3) and the
// extension write one 16-bit buffer, which the convolution reads.
// MADD-PREPARE-LABEL: func.func @padded_conv
// MADD-PREPARE-DAG: %[[Z:.*]] = arith.constant -3 : i16
// MADD-PREPARE: linalg.fill ins(%[[Z]] : i16) outs(%{{.*}} : tensor<1x1x5x4xi16>)
// MADD-PREPARE: %[[IN:.*]] = tensor.extract_slice %{{.*}}[0, 1, 1, 0] [1, 3, 3, 4] [1, 1, 1, 1] : tensor<1x5x5x4xi16> to tensor<1x3x3x4xi16>
// MADD-PREPARE: %[[X16:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<1x3x3x4xi8>) outs(%[[IN]] : tensor<1x3x3x4xi16>)
// MADD-PREPARE: arith.extsi %{{.*}} : i8 to i16
// MADD-PREPARE: %[[PADDED:.*]] = tensor.insert_slice %[[X16]] into %{{.*}}[0, 1, 1, 0] [1, 3, 3, 4] [1, 1, 1, 1] : tensor<1x3x3x4xi16> into tensor<1x5x5x4xi16>
// MADD-PREPARE: linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[PADDED]], %{{.*}} : tensor<1x5x5x4xi16>, tensor<3x3x4x2xi8>)
func.func @padded_conv(%x: tensor<1x3x3x4xi8>) -> tensor<1x3x3x2xi32> {
  %w = arith.constant dense<1> : tensor<2x3x3x4xi8>
  %pv = arith.constant -3 : i8
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %pv : i8
  } : tensor<1x3x3x4xi8> to tensor<1x5x5x4xi8>
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x3x3x2xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<1x3x3x2xi32>) -> tensor<1x3x3x2xi32>
  %zx = arith.constant -3 : i32
  %zw = arith.constant 0 : i32
  %0 = linalg.conv_2d_nhwc_fhwc_q {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w, %zx, %zw : tensor<1x5x5x4xi8>, tensor<2x3x3x4xi8>, i32, i32) outs(%init : tensor<1x3x3x2xi32>) -> tensor<1x3x3x2xi32>
  return %0 : tensor<1x3x3x2xi32>
}
