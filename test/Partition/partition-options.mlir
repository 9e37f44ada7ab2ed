// Each nnapi-partition option on one model: conv_a and conv_b (3x3 on
// 32x32x16, clearly profitable) around a host-only ceil, then a fully
// connected layer.
// RUN: nnapi-opt %s -nnapi-partition | FileCheck %s --check-prefix=DEFAULT
// The built-in default is profiles/generic-fl7.json:
// RUN: nnapi-opt %s -nnapi-partition="device-profile=%S/../../profiles/generic-fl7.json" | FileCheck %s --check-prefix=DEFAULT
// RUN: nnapi-opt %s -nnapi-partition="max-partitions=1 emit-remarks=true" -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=MAX
// RUN: nnapi-opt %s -nnapi-partition="min-partition-cost=100000 emit-remarks=true" -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=MIN
// RUN: nnapi-opt %s -nnapi-partition="stop-ops=tosa.fully_connected,CONV_2D emit-remarks=true" -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=STOP
// RUN: nnapi-opt %s -nnapi-partition="placement=%S/Inputs/placement.json emit-remarks=true" -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=OVERRIDE
// RUN: nnapi-opt %s -nnapi-partition="device-profile=%S/../../profiles/npu.json emit-remarks=true" -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NPU
// RUN: nnapi-opt %s -nnapi-partition="device-profile=%S/../../profiles/npu.json allow-fp16=true emit-remarks=true" -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NPU16
// RUN: nnapi-opt %s -nnapi-partition="device-profile=%S/../../profiles/cpu-nnapi.json emit-remarks=true" -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: nnapi-opt %s -nnapi-partition="device-profile=%S/../../profiles/generic-fl1.json" | FileCheck %s --check-prefix=FL1
// RUN: nnapi-opt %s -nnapi-partition="search-budget=1 report=%t" | FileCheck %s --check-prefix=DEFAULT
// RUN: FileCheck %s --check-prefix=BUDGET < %t.json
// The same option through the pipeline and nnapi-compile, whose options are
// generated from the pass's declaration.
// RUN: nnapi-opt %s --nnapi-partition-pipeline="search-budget=1 report=%t.pipeline" > /dev/null
// RUN: FileCheck %s --check-prefix=BUDGET < %t.pipeline.json
// RUN: nnapi-compile %s --emit=mlir -o /dev/null --search-budget=1 --report=%t.compile
// RUN: FileCheck %s --check-prefix=BUDGET < %t.compile.json

// DEFAULT-LABEL: func @main
// DEFAULT: call @main_nnapi_0(%arg0)
// DEFAULT: tosa.ceil
// DEFAULT: call @main_nnapi_1
// DEFAULT-NOT: call
// DEFAULT: func.func private @main_nnapi_1
// DEFAULT-SAME: nnapi.feature_level = 7
// DEFAULT-NOT: nnapi.relax_f32_to_f16
// DEFAULT: tosa.conv2d
// DEFAULT: tosa.fully_connected
// DEFAULT: func.func private @main_nnapi_0
// DEFAULT-NEXT: tosa.const
// DEFAULT-NEXT: tosa.const
// DEFAULT-NEXT: tosa.conv2d

// max-partitions=1 keeps the second partition (conv_b + fc saves more).
// MAX: remark: {{.*}}stays on the host: max-partitions=1 kept more profitable partitions (this one saved
// MAX: remark: {{.*}}NNAPI partition @main_nnapi_0 of 3 op(s)
// MAX: call @main_nnapi_0
// MAX-NOT: call @main_nnapi_1

// MIN: remark: {{.*}}stays on the host: its partition saves {{.*}} us, less than min-partition-cost (100000.0 us)
// MIN-NOT: nnapi.partition

// STOP: remark: loc("conv_a"): stays on the host: listed in stop-ops ('CONV_2D')
// STOP: remark: stays on the host: listed in stop-ops ('tosa.fully_connected')
// STOP-NOT: nnapi.partition

// conv_b is named in the override's host list; the lone add is forced onto
// NNAPI though it does not pay.
// OVERRIDE: remark: loc("conv_b"): stays on the host: placed on the host by the placement override ('conv_b')
// OVERRIDE: remark: NNAPI partition @main_nnapi_{{[0-9]}} of 1 op(s), estimated to save -{{.*}} us
// OVERRIDE: func.func private @main_nnapi_{{[0-9]}}
// OVERRIDE-NEXT: tosa.add

// The NPU runs convolutions on float16 only, and no fully connected layer.
// NPU: remark: loc("conv_a"): stays on the host: device profile 'npu' does not run CONV_2D on float32 (it would on float16: allow-fp16 lets float32 run relaxed)
// NPU-NOT: nnapi.partition
// NPU16: remark: stays on the host: device profile 'npu' does not run FULLY_CONNECTED on float32
// NPU16: func.func private @main_nnapi_1
// NPU16-SAME: nnapi.feature_level = 5
// NPU16-SAME: nnapi.relax_f32_to_f16
// NPU16-NOT: tosa.fully_connected
// NPU16: func.func private @main_nnapi_0

// NNAPI's CPU device is slower than the host code: nothing pays.
// CPU: remark: loc("conv_a"): stays on the host: not profitable: NNAPI takes
// CPU-NOT: nnapi.partition

// FL1: nnapi.feature_level = 1

// A search cut short still places like the heuristic, but says it is not
// proven optimal.
// BUDGET: "proven_optimal": false,
func.func @main(%x: tensor<1x32x32x16xf32>, %y: tensor<1x10xf32>) -> (tensor<1x10xf32>, tensor<1x10xf32>) {
  %w = "tosa.const"() {value = dense<0.01> : tensor<16x3x3x16xf32>} : () -> tensor<16x3x3x16xf32>
  %b = "tosa.const"() {value = dense<0.1> : tensor<16xf32>} : () -> tensor<16xf32>
  %fw = "tosa.const"() {value = dense<0.001> : tensor<10x16384xf32>} : () -> tensor<10x16384xf32>
  %fb = "tosa.const"() {value = dense<0.0> : tensor<10xf32>} : () -> tensor<10xf32>
  %0 = tosa.conv2d %x, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x32x32x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>) -> tensor<1x32x32x16xf32> loc("conv_a")
  %1 = tosa.ceil %0 : (tensor<1x32x32x16xf32>) -> tensor<1x32x32x16xf32>
  %2 = tosa.conv2d %1, %w, %b {dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x32x32x16xf32>, tensor<16x3x3x16xf32>, tensor<16xf32>) -> tensor<1x32x32x16xf32> loc("conv_b")
  %3 = tosa.reshape %2 {new_shape = array<i64: 1, 16384>} : (tensor<1x32x32x16xf32>) -> tensor<1x16384xf32>
  %4 = tosa.fully_connected %3, %fw, %fb : (tensor<1x16384xf32>, tensor<10x16384xf32>, tensor<10xf32>) -> tensor<1x10xf32>
  %5 = tosa.add %y, %y : (tensor<1x10xf32>, tensor<1x10xf32>) -> tensor<1x10xf32>
  return %4, %5 : tensor<1x10xf32>, tensor<1x10xf32>
}
