// An activation that both NNAPI (fused-activation operand) and the host code
// (fused into the producer's tiles) fold into its producer is placed with
// its producer, as one unit. Profile: the host runs convolutions 5x faster
// than NNAPI (0.01 against 0.05 ns/MAC), NNAPI runs element-wise ops almost
// for free (0.001 against 1 ns/element), transfers are free, 0.2 us per
// partition.
// RUN: nnapi-opt %s -split-input-file -nnapi-partition="emit-remarks=true device-profile=%S/Inputs/fast-host-conv.json" -verify-diagnostics | FileCheck %s
// RUN: nnapi-opt %s -nnapi-partition="device-profile=%S/Inputs/fast-host-conv.json report=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// 147456 MACs: 1.5 us on the host, 7.4 us on NNAPI. Alone, the ReLU6
// (2048 elements) would be worth a partition of its own (2.0 us on the host,
// 0.2 us on NNAPI), but fused it costs nothing where the convolution runs:
// both stay on the host, with one remark at the convolution.
// CHECK-LABEL: func @conv_relu_on_host
// CHECK-NOT: call
// CHECK: tosa.conv2d
// CHECK-NEXT: tosa.clamp
// REPORT: "type": "tosa.conv2d + tosa.clamp"
// REPORT-NEXT: "nnapi": "CONV_2D"
// REPORT-NEXT: "nnapi_inputs": [
// REPORT: "placement": "host"
func.func @conv_relu_on_host(%x: tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32> {
  %w = "tosa.const"() {value = dense<0.01> : tensor<8x3x3x8xf32>} : () -> tensor<8x3x3x8xf32>
  %b = "tosa.const"() {value = dense<0.1> : tensor<8xf32>} : () -> tensor<8xf32>
  // expected-remark@+1 {{stays on the host: not profitable: NNAPI takes 7.4 us against 1.5 us on the host}}
  %0 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x8xf32>, tensor<8x3x3x8xf32>, tensor<8xf32>) -> tensor<1x16x16x8xf32>
  %1 = tosa.clamp %0 {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  return %1 : tensor<1x16x16x8xf32>
}

// -----

// The convolution's result has a second user, so the ReLU6 is not fused and
// is placed alone: NNAPI runs it (2.0 us on the host against 0.2 us).
// CHECK-LABEL: func @shared_conv_result
// CHECK: %[[C:.*]] = tosa.conv2d
// CHECK: call @shared_conv_result_nnapi_0(%[[C]])
func.func @shared_conv_result(%x: tensor<1x16x16x8xf32>) -> (tensor<1x16x16x8xf32>, tensor<1x16x16x8xf32>) {
  %w = "tosa.const"() {value = dense<0.01> : tensor<8x3x3x8xf32>} : () -> tensor<8x3x3x8xf32>
  %b = "tosa.const"() {value = dense<0.1> : tensor<8xf32>} : () -> tensor<8xf32>
  // expected-remark@+1 {{stays on the host: not profitable: NNAPI takes 7.4 us against 1.5 us on the host}}
  %0 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x16x16x8xf32>, tensor<8x3x3x8xf32>, tensor<8xf32>) -> tensor<1x16x16x8xf32>
  // expected-remark@+1 {{NNAPI partition @shared_conv_result_nnapi_0 of 1 op(s)}}
  %1 = tosa.clamp %0 {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<1x16x16x8xf32>) -> tensor<1x16x16x8xf32>
  return %0, %1 : tensor<1x16x16x8xf32>, tensor<1x16x16x8xf32>
}

// -----

// When stop-ops keeps the activation on the host, it is not joined to its
// producer: under the eager test profile (NNAPI 100x faster) the
// convolution alone goes to NNAPI.
// RUN: nnapi-opt %s -split-input-file -nnapi-partition="device-profile=%S/../Inputs/eager.json stop-ops=RELU6" | FileCheck %s --check-prefix=STOP
// STOP-LABEL: func @conv_relu_on_host
// STOP: %[[C:.*]] = call @conv_relu_on_host_nnapi_0(%arg0)
// STOP-NEXT: tosa.clamp %[[C]]
// STOP: func.func private @conv_relu_on_host_nnapi_0
// STOP-NEXT: tosa.const
// STOP-NEXT: tosa.const
// STOP-NEXT: tosa.conv2d
// STOP-NEXT: return
