// RUN: nnapi-opt %s -split-input-file -nnapi-export-signature -verify-diagnostics

// The entry function must exist, and its tensors be static and of an
// element type the signature can name.

// expected-error@+1 {{entry function '@main' not found}}
module {
  func.func private @main(%x: tensor<2xf32>) -> tensor<2xf32>
}

// -----

// expected-error@+1 {{the entry function must take and return static-shaped tensors, got 'tensor<?xf32>'}}
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}

// -----

// expected-error@+1 {{unsupported entry element type 'f8E5M2'}}
func.func @main(%x: tensor<2xf8E5M2>) -> tensor<2xf8E5M2> {
  return %x : tensor<2xf8E5M2>
}
