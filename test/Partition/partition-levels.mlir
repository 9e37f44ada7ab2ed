// RUN: nnapi-opt %s -nnapi-partition="feature-level=1 emit-remarks=true device-profile=%S/../Inputs/eager.json" -verify-diagnostics | FileCheck %s --check-prefix=FL1
// RUN: nnapi-opt %s -nnapi-partition="feature-level=3 device-profile=%S/../Inputs/eager.json" | FileCheck %s --check-prefix=FL3

// SUB needs feature level 2 and float16 needs 3: at level 1 both stay on the
// host, each with a remark that says why.
// FL1-LABEL: func @levels
// FL1: tosa.sub
// FL1: tosa.add
// FL1: call @levels_nnapi_0
// FL3-LABEL: func @levels
// FL3: call @levels_nnapi_0
// FL3-NEXT: return
func.func @levels(%x: tensor<4xf32>, %h: tensor<4xf16>) -> (tensor<4xf32>, tensor<4xf16>) {
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 2 (SUB), the target is 1}}
  %a = tosa.sub %x, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (float16 operands), the target is 1}}
  %b = tosa.add %h, %h : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  // expected-remark@+1 {{NNAPI partition @levels_nnapi_0 of 1 op(s), estimated to save 1.0 us}}
  %c = tosa.tanh %a : (tensor<4xf32>) -> tensor<4xf32>
  return %c, %b : tensor<4xf32>, tensor<4xf16>
}

// -----

func.func @reasons(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  // expected-remark@+1 {{stays on the host: unsupported: 'tosa.ceil' has no NNAPI lowering}}
  %a = tosa.ceil %x : (tensor<4xf32>) -> tensor<4xf32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (MAXIMUM), the target is 1}}
  %b = tosa.clamp %a {min_fp = 0.0 : f32, max_fp = 3.0 : f32, min_int = 0 : i64, max_int = 3 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  // expected-remark@+1 {{stays on the host: unsupported: operand 0 has element type 'i32'; only f32 and f16 are supported}}
  %c = tosa.add %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  // expected-remark@+1 {{stays on the host: unsupported: needs NNAPI feature level 3 (EXP), the target is 1}}
  %d = tosa.exp %b : (tensor<4xf32>) -> tensor<4xf32>
  return %d, %c : tensor<4xf32>, tensor<4xi32>
}

// Any float64 operand or result keeps an op on the host, a cast included.
// FL1-LABEL: func @float64
func.func @float64(%x: tensor<4xf64>) -> tensor<4xf32> {
  // expected-remark@+1 {{stays on the host: unsupported: float64 (NNAPI has no float64 tensors; the host computes it in float64)}}
  %a = tosa.exp %x : (tensor<4xf64>) -> tensor<4xf64>
  // expected-remark@+1 {{stays on the host: unsupported: float64 (NNAPI has no float64 tensors; the host computes it in float64)}}
  %b = tosa.cast %a : (tensor<4xf64>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}

