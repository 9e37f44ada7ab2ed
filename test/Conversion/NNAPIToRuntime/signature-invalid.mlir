// RUN: nnapi-opt %s -split-input-file -nnapi-export-signature -verify-diagnostics

// The entry function must exist, and its tensors be ranked and of an
// element type the signature can name.

// expected-error@+1 {{entry function '@main' not found}}
module {
  func.func private @main(%x: tensor<2xf32>) -> tensor<2xf32>
}

// -----

// expected-error@+1 {{the entry function must take and return ranked tensors, got 'tensor<*xf32>'}}
func.func @main(%x: tensor<*xf32>) -> tensor<*xf32> {
  return %x : tensor<*xf32>
}

// -----

// A range per dynamic dimension, each 1 <= low <= high <= 2^31-1.

// expected-error@+1 {{'nnapi.dim_ranges' needs a (low, high) pair for each of the 2 dynamic dimensions of 'tensor<?x?xf32>'}}
func.func @main(%x: tensor<?x?xf32> {nnapi.dim_ranges = array<i64: 1, 8>}) -> tensor<?x?xf32> {
  return %x : tensor<?x?xf32>
}

// -----

// expected-error@+1 {{dimension 1 of 'tensor<2x?xf32>' has range [9..8]; a range must satisfy 1 <= low <= high <= 2147483647}}
func.func @main(%x: tensor<2x?xf32> {nnapi.dim_ranges = array<i64: 9, 8>}) -> tensor<2x?xf32> {
  return %x : tensor<2x?xf32>
}

// -----

// expected-error@+1 {{dimension 0 of 'tensor<?xf32>' has range [0..4]; a range must satisfy 1 <= low <= high <= 2147483647}}
func.func @main(%x: tensor<?xf32> {nnapi.dim_ranges = array<i64: 0, 4>}) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}

// -----

// expected-error@+1 {{'nnapi.dim_ranges' needs a (low, high) pair for each of the 0 dynamic dimensions of 'tensor<2xf32>'}}
func.func @main(%x: tensor<2xf32> {nnapi.dim_ranges = array<i64: 1, 2>}) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}

// -----

// expected-error@+1 {{unsupported entry element type 'f8E5M2'}}
func.func @main(%x: tensor<2xf8E5M2>) -> tensor<2xf8E5M2> {
  return %x : tensor<2xf8E5M2>
}
