// Ops below the host code's minimum of parallel work (131,072 iteration
// points: 4x4 outputs of 16 channels by 3x3x16 taps is 36,864) run on one
// thread whatever the count, so 8 threads price them as one does (2.5 us on
// the host, 2.8 on the accelerator; partition-threads.mlir's 32x32 ones
// are priced at an eighth on the host).
// The same price at 1 and at 8 threads (the start's code priced the host
// side at an eighth at 8: 0.3 us).
// RUN: nnapi-opt %s -nnapi-partition="device-profile=%S/Inputs/scaling-npu.json placement-threads=1 emit-remarks=true" 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: nnapi-opt %s -nnapi-partition="device-profile=%S/Inputs/scaling-npu.json placement-threads=8 emit-remarks=true" 2>&1 | FileCheck %s --check-prefix=SMALL
// SMALL: remark: stays on the host: not profitable: NNAPI takes 2.8 us against 2.5 us on the host
func.func @small_chain(%x: tensor<1x4x4x16xf32>) -> tensor<1x4x4x16xf32> {
  %w = "tosa.const"() {value = dense<0.01> : tensor<16x3x3x16xf32>} : () -> tensor<16x3x3x16xf32>
  %b = "tosa.const"() {value = dense<0.1> : tensor<16xf32>} : () -> tensor<16xf32>
  %0 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>) -> tensor<1x4x4x16xf32>
  return %0 : tensor<1x4x4x16xf32>
}
