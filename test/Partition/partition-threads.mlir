// Placement at the thread count the model will run at (placement-threads):
// the profile's thread_scaling scales each side's one-thread costs (here the
// host code by 1/t, the accelerator not at all). Two 3x3 convolutions cost
// 125.1 us each on the host at one thread and 20.8 us on the accelerator:
// NNAPI at 1 thread, the host at 8. The module records the count.
// RUN: nnapi-opt %s -nnapi-partition="device-profile=%S/Inputs/scaling-npu.json placement-threads=1" | FileCheck %s --check-prefix=ONE
// RUN: nnapi-opt %s -nnapi-partition="device-profile=%S/Inputs/scaling-npu.json placement-threads=8 emit-remarks=true" -verify-diagnostics | FileCheck %s --check-prefix=EIGHT
// A profile without thread_scaling prices every count like one thread.
// RUN: nnapi-opt %s -nnapi-partition="placement-threads=8" | FileCheck %s --check-prefix=ONE
// RUN: not nnapi-opt %s -nnapi-partition="placement-threads=300" 2>&1 | FileCheck %s --check-prefix=RANGE

// ONE: module attributes {nnapi.placement_threads = {{1|8}} : i32}
// ONE: call @conv_chain_nnapi_0
// EIGHT: module attributes {nnapi.placement_threads = 8 : i32}
// EIGHT-NOT: call
// RANGE: error: nnapi-partition: placement-threads must be 0 (this machine's CPUs) to 256, got 300

func.func @conv_chain(%x: tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32> {
  %w = "tosa.const"() {value = dense<0.01> : tensor<16x3x3x16xf32>} : () -> tensor<16x3x3x16xf32>
  %b = "tosa.const"() {value = dense<0.1> : tensor<16xf32>} : () -> tensor<16xf32>
  // expected-remark@+1 {{stays on the host: not profitable: NNAPI takes 20.8 us against 15.6 us on the host}}
  %0 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x32x32x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>) -> tensor<1x32x32x16xf32>
  %1 = tosa.clamp %0 {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32>
  // expected-remark@+1 {{stays on the host: not profitable: NNAPI takes 20.8 us against 15.6 us on the host}}
  %2 = tosa.conv2d %1, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x32x32x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>) -> tensor<1x32x32x16xf32>
  %3 = tosa.clamp %2 {min_fp = 0.0 : f32, max_fp = 6.0 : f32, min_int = 0 : i64, max_int = 6 : i64} : (tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32>
  return %3 : tensor<1x32x32x16xf32>
}
