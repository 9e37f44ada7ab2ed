// RUN: nnapi-opt %s -nnapi-serialize-partitions -split-input-file -verify-diagnostics | FileCheck %s

// Each partition without a blob gets one: a private constant global of the
// blob's bytes (magic "NNAPIMLB", 64-byte aligned) named <partition>_blob,
// recorded in nnapi.blob. The partition keeps its TOSA body (its host
// copy); other functions and partitions that have a blob are untouched.
// CHECK-LABEL: func.func @main
// CHECK-NEXT: call @main_nnapi_0
// CHECK: func.func private @main_nnapi_0({{.*}}) -> tensor<1x4xf32> attributes {nnapi.blob = @main_nnapi_0_blob, nnapi.partition}
// CHECK-NEXT: tosa.add
// CHECK: func.func private @done_nnapi_0({{.*}}) -> tensor<1x4xf32> attributes {nnapi.blob = @elsewhere, nnapi.partition}
// CHECK: memref.global "private" constant @main_nnapi_0_blob : memref<260xi8> = dense<"0x4E4E4150494D4C42{{[0-9A-F]+}}"> {alignment = 64 : i64}
// CHECK-NOT: memref.global
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = call @main_nnapi_0(%x) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}
func.func private @main_nnapi_0(%x: tensor<1x4xf32>) -> tensor<1x4xf32> attributes {nnapi.partition} {
  %0 = tosa.add %x, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}
func.func private @done_nnapi_0(%x: tensor<1x4xf32>) -> tensor<1x4xf32> attributes {nnapi.partition, nnapi.blob = @elsewhere} {
  return %x : tensor<1x4xf32>
}

// -----

// A partition NNAPI cannot run at its feature level fails the pass with the
// conversion's reason.
func.func private @old_nnapi_0(%x: tensor<4xf16>) -> tensor<4xf16> attributes {nnapi.partition, nnapi.feature_level = 2 : i32} {
  // expected-error@+1 {{'nnapi.add' cannot run on NNAPI: needs NNAPI feature level 3 (float16 operands), the target is 2}}
  %0 = tosa.add %x, %x : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
