// Cost-driven placement under the built-in generic profile (the numbers of
// profiles/generic-fl7.json): host 0.1 us + 0.05 ns/MAC + 0.2 ns/element,
// NNAPI 2 us + 0.005 ns/MAC + 0.2 ns/element, transfers 5 us + 0.25 ns/byte,
// 40 us per partition.
// RUN: nnapi-opt %s -split-input-file -nnapi-partition="emit-remarks=true" -verify-diagnostics | FileCheck %s

// A lone add on 8 floats between two host ops: 24 elements cost 0.1048 us on
// the host and 2.0048 us on NNAPI, and offloading would add 40 us of
// overhead plus an upload and a download of 32 bytes (5.008 us each).
// CHECK-LABEL: func @lone_cheap_op
// CHECK-NOT: call
// CHECK: tosa.add
func.func @lone_cheap_op(%x: tensor<1x8xf32>) -> tensor<1x8xf32> {
  // expected-remark@+1 {{stays on the host: unsupported: 'tosa.ceil' has no NNAPI lowering}}
  %a = tosa.ceil %x : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // expected-remark@+1 {{stays on the host: not profitable: NNAPI takes 2.0 us against 0.1 us on the host, plus 50.0 us in transfers and partition overhead}}
  %b = tosa.add %a, %a : (tensor<1x8xf32>, tensor<1x8xf32>) -> tensor<1x8xf32>
  // expected-remark@+1 {{stays on the host: unsupported: 'tosa.ceil' has no NNAPI lowering}}
  %c = tosa.ceil %b : (tensor<1x8xf32>) -> tensor<1x8xf32>
  return %c : tensor<1x8xf32>
}

// -----

// Two 3x3 convolutions with ReLUs on 32x32x16: 2359296 MACs each, 125.1 us
// per convolution on the host against 20.8 us on NNAPI. One partition.
// CHECK-LABEL: func @conv_chain
// CHECK: %[[R:.*]] = call @conv_chain_nnapi_0(%arg0)
// CHECK-NEXT: return %[[R]]
// CHECK-NOT: call
// CHECK: func.func private @conv_chain_nnapi_0
// CHECK-COUNT-2: tosa.conv2d
func.func @conv_chain(%x: tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32> {
  %w = "tosa.const"() {value = dense<0.01> : tensor<16x3x3x16xf32>} : () -> tensor<16x3x3x16xf32>
  %b = "tosa.const"() {value = dense<0.1> : tensor<16xf32>} : () -> tensor<16xf32>
  // expected-remark@+1 {{NNAPI partition @conv_chain_nnapi_0 of 4 op(s), estimated to save}}
  %0 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x32x32x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>) -> tensor<1x32x32x16xf32>
  %1 = tosa.clamp %0 {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32>
  %2 = tosa.conv2d %1, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x32x32x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>) -> tensor<1x32x32x16xf32>
  %3 = tosa.clamp %2 {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32>
  return %3 : tensor<1x32x32x16xf32>
}

// -----

// A cheap op at the end of a profitable chain that shrinks its tensor joins
// the partition although the host would run it a little faster (5.0 against
// 6.2 us): downloading the 16 KiB result instead of the 64 KiB one saves
// 12.3 us of transfer.
// CHECK-LABEL: func @cheap_tail
// CHECK: call @cheap_tail_nnapi_0
// CHECK-NOT: tosa.
// CHECK: return
func.func @cheap_tail(%x: tensor<1x32x32x16xf32>) -> tensor<1x16x16x16xf32> {
  %w = "tosa.const"() {value = dense<0.01> : tensor<16x3x3x16xf32>} : () -> tensor<16x3x3x16xf32>
  %b = "tosa.const"() {value = dense<0.1> : tensor<16xf32>} : () -> tensor<16xf32>
  // expected-remark@+1 {{NNAPI partition @cheap_tail_nnapi_0 of 2 op(s)}}
  %0 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x32x32x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>) -> tensor<1x32x32x16xf32>
  %1 = tosa.max_pool2d %0 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x32x32x16xf32>) -> tensor<1x16x16x16xf32>
  return %1 : tensor<1x16x16x16xf32>
}
