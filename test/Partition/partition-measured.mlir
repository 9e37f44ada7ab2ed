// Latencies a device profile measured at an op's own shapes
// (nnapi-profile-device --model) replace its fitted tables for that op, and
// only for that op: the signature is the op, its attributes and its operand
// and result types, constant operands marked.
// RUN: nnapi-opt %s -split-input-file -nnapi-partition="emit-remarks=true device-profile=%S/Inputs/measured-exp.json" -verify-diagnostics | FileCheck %s
// RUN: nnapi-opt %s -nnapi-partition="device-profile=%S/Inputs/measured-exp.json report=%t" -o /dev/null
// RUN: FileCheck %s --check-prefix=REPORT < %t.json

// By the tables NNAPI would run both exps for next to nothing (0.1 us of
// partition overhead against 1.3 us and 0.6 us on the host); the 1x64 one
// was measured: 50 us on NNAPI, 0.5 us on the host. The 1x32 one was not.
// CHECK-LABEL: func @measured_exp
// CHECK: tosa.exp %arg0
// CHECK: call @measured_exp_nnapi_0(%arg1)
func.func @measured_exp(%x: tensor<1x64xf32>, %y: tensor<1x32xf32>) -> (tensor<1x64xf32>, tensor<1x32xf32>) {
  // expected-remark@+1 {{stays on the host: not profitable: NNAPI takes 50.0 us against 0.5 us on the host, plus 0.1 us in transfers and partition overhead}}
  %a = tosa.exp %x : (tensor<1x64xf32>) -> tensor<1x64xf32>
  // expected-remark@+1 {{NNAPI partition @measured_exp_nnapi_0 of 1 op(s), estimated to save 0.5 us}}
  %b = tosa.exp %y : (tensor<1x32xf32>) -> tensor<1x32xf32>
  return %a, %b : tensor<1x64xf32>, tensor<1x32xf32>
}

// REPORT:      "name": "measured_exp",
// REPORT:      "type": "tosa.exp",
// REPORT:      "host_us": 0.500,
// REPORT-NEXT: "nnapi_us": 50.000,
// REPORT:      "measured": [
// REPORT-NEXT:   "host",
// REPORT-NEXT:   "nnapi"
// REPORT-NEXT: ],
// REPORT:      "type": "tosa.exp",
// REPORT-NOT:  "measured"
// REPORT:      "name": "measured_mul",

// -----

// One side measured: the host multiplies by this constant in 0.01 us, the
// device's cost comes from its table; with the partition's overhead that
// keeps it on the host. The multiply of two variables has another signature
// and its table cost.
// CHECK-LABEL: func @measured_mul
// CHECK: tosa.mul %arg0, %{{.*}} {shift = 0 : i8}
// CHECK: call @measured_mul_nnapi_0(%arg0, %arg1)
func.func @measured_mul(%x: tensor<1x32xf32>, %y: tensor<1x32xf32>) -> (tensor<1x32xf32>, tensor<1x32xf32>) {
  %c = "tosa.const"() {value = dense<2.0> : tensor<1x32xf32>} : () -> tensor<1x32xf32>
  // expected-remark@+1 {{stays on the host: not profitable: saves 0.0 us of compute, costs 0.1 us in transfers and partition overhead}}
  %a = tosa.mul %x, %c {shift = 0 : i8} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  // expected-remark@+1 {{NNAPI partition @measured_mul_nnapi_0 of 1 op(s), estimated to save 0.9 us}}
  %b = tosa.mul %x, %y {shift = 0 : i8} : (tensor<1x32xf32>, tensor<1x32xf32>) -> tensor<1x32xf32>
  return %a, %b : tensor<1x32xf32>, tensor<1x32xf32>
}

// REPORT:      "type": "tosa.mul",
// REPORT:      "host_us": 0.010,
// REPORT:      "measured": [
// REPORT-NEXT:   "host"
// REPORT-NEXT: ],
// REPORT:      "type": "tosa.mul",
// REPORT-NOT:  "measured"
