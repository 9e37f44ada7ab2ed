// RUN: nnapi-translate --serialize-nnapi-blob %s -o %t.blob
// RUN: nnapi-translate --dump-nnapi-blob %t.blob | FileCheck %s
// Truncated and corrupted blobs are rejected with a message:
// RUN: head -c 100 %t.blob > %t.short
// RUN: not nnapi-translate --dump-nnapi-blob %t.short 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: %numpy_python -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[-1] ^= 0xFF; open(sys.argv[2], 'wb').write(b)" %t.blob %t.bad
// RUN: not nnapi-translate --dump-nnapi-blob %t.bad 2>&1 | FileCheck %s --check-prefix=BAD

// SHORT: error: blob size mismatch
// BAD: error: blob checksum mismatch: the blob is corrupted

// The feature level is the highest any op needs: SUB is level 2.
// CHECK: nnapi-blob version 5 feature_level 2
// CHECK: %0 TENSOR_FLOAT32 [1,4,4,2] input
// CHECK: %1 TENSOR_FLOAT32 [2,3,3,2] const(144 bytes @0)
// CHECK: %2 TENSOR_FLOAT32 [2] const(8 bytes @144)
// Explicit padding left, right, top, bottom; strides w, h; fused code:
// CHECK-NEXT: %3 INT32 = 1
// CHECK-NEXT: %4 INT32 = 1
// CHECK-NEXT: %5 INT32 = 0
// CHECK-NEXT: %6 INT32 = 0
// CHECK-NEXT: %7 INT32 = 1
// CHECK-NEXT: %8 INT32 = 1
// CHECK-NEXT: %9 INT32 = 3
// CHECK-NEXT: %10 TENSOR_FLOAT32 [1,2,4,2]
// The reshape's target shape is a constant TENSOR_INT32 operand.
// CHECK: %13 TENSOR_INT32 [2] const(8 bytes
// CHECK: %15 FLOAT32 = 1
// CHECK-NEXT: %16 TENSOR_FLOAT32 [1,16] output
// CHECK-NEXT: operations 4
// CHECK-NEXT: %10 = CONV_2D(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9)
// CHECK-NEXT: %12 = SUB(%10, %10, %11)
// CHECK-NEXT: %14 = RESHAPE(%12, %13)
// CHECK-NEXT: %16 = SOFTMAX(%14, %15)
// CHECK-NEXT: inputs %0
// CHECK-NEXT: outputs %16
func.func @p(%x: tensor<1x4x4x2xf32>) -> tensor<1x16xf32> attributes {nnapi.partition} {
  %w = arith.constant dense<0.5> : tensor<2x3x3x2xf32>
  %b = arith.constant dense<0.25> : tensor<2xf32>
  %0 = nnapi.conv_2d %x, %w, %b padding = [1, 1, 0, 0] strides = [1, 1] dilations = [1, 1] fused relu6 : (tensor<1x4x4x2xf32>, tensor<2x3x3x2xf32>, tensor<2xf32>) -> tensor<1x2x4x2xf32>
  %1 = nnapi.sub %0, %0 : (tensor<1x2x4x2xf32>, tensor<1x2x4x2xf32>) -> tensor<1x2x4x2xf32>
  %2 = nnapi.reshape %1 : (tensor<1x2x4x2xf32>) -> tensor<1x16xf32>
  %3 = nnapi.softmax %2 beta = 1.0 : tensor<1x16xf32>
  return %3 : tensor<1x16xf32>
}
