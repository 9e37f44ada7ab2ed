// RUN: nnapi-opt %s -split-input-file -convert-tosa-to-nnapi -verify-diagnostics

func.func @leftover(%x: tensor<4xf32>) -> tensor<4xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'tosa.erf' in NNAPI partition has no NNAPI lowering}}
  %0 = tosa.erf %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @too_new(%x: tensor<4xf16>) -> tensor<4xf16> attributes {nnapi.partition, nnapi.feature_level = 2 : i32} {
  // expected-error@+1 {{'nnapi.add' needs NNAPI feature level 3, the target is 2}}
  %0 = tosa.add %x, %x : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
