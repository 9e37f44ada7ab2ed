// RUN: nnapi-translate --serialize-nnapi-blob %s -split-input-file -verify-diagnostics -o /dev/null

// Every refusal of the blob writer. Partition arguments need a ranked
// NNAPI operand type (a dynamic dimension is written as 0, unspecified).

// expected-error@+1 {{NNAPI blob needs ranked tensors, got 'tensor<*xf32>'}}
func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  return %x : tensor<*xf32>
}

// -----

// expected-error@+1 {{no NNAPI operand type for 'tensor<4xi8>'}}
func.func @int8(%x: tensor<4xi8>) -> tensor<4xi8> {
  return %x : tensor<4xi8>
}

// -----

// Constants must be dense: a resource blob is not read.
func.func @resource(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{NNAPI constants must be dense tensors}}
  %c = arith.constant dense_resource<weights> : tensor<4xf32>
  %0 = nnapi.add %x, %c : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F000000400000404000008040"
    }
  }
#-}

// -----

// Only nnapi ops (and arith.constant) are serialized.
func.func private @helper(tensor<4xf32>) -> tensor<4xf32>
func.func @call(%x: tensor<4xf32>) -> tensor<4xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{'func.call' cannot be serialized into an NNAPI model}}
  %0 = func.call @helper(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// expected-error@+1 {{NNAPI partition must have exactly one block}}
func.func @blocks(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = nnapi.abs %x : tensor<4xf32>
  return %0 : tensor<4xf32>
^unreachable:
  return %x : tensor<4xf32>
}

// -----

func.func @passthrough(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{an NNAPI partition may only return values computed by its operations}}
  return %x : tensor<4xf32>
}

// -----

func.func @twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = nnapi.abs %x : tensor<4xf32>
  // expected-error@+1 {{an NNAPI partition returns a value twice}}
  return %0, %0 : tensor<4xf32>, tensor<4xf32>
}

// -----

// expected-error@+1 {{no function to serialize}}
module {
  func.func private @external(tensor<4xf32>) -> tensor<4xf32>
}

// -----

// expected-error@+1 {{several functions and none is marked nnapi.partition}}
module {
  func.func @a(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = nnapi.abs %x : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func @b(%x: tensor<4xf32>) -> tensor<4xf32> {
    %0 = nnapi.abs %x : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}

// -----

// A referenced model, like a partition, returns only what its operations
// compute.
func.func @branch_returns_input(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %y = nnapi.if %c : tensor<i1> (%x) : (tensor<4xf32>) -> tensor<4xf32>
  then {
  ^bb0(%a: tensor<4xf32>):
    %r = nnapi.relu %a : tensor<4xf32>
    nnapi.yield %r : tensor<4xf32>
  } else {
  ^bb0(%a: tensor<4xf32>):
    // expected-error@+1 {{a referenced NNAPI model may only return values computed by its operations}}
    nnapi.yield %a : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

// One NNAPI operand has one type: a result viewed with other quantization
// parameters than it was computed with, or an input viewed two ways.
func.func @view_other(%x: tensor<4xf32>) -> tensor<4xf32> attributes {nnapi.partition} {
  %q = nnapi.quantize %x : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  %s = "quant.scast"(%q) : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4xi8>
  // expected-error@+1 {{views an NNAPI operand of another type or quantization}}
  %v = "quant.scast"(%s) : (tensor<4xi8>) -> tensor<4x!quant.uniform<i8:f32, 0.25>>
  %d = nnapi.dequantize %v : (tensor<4x!quant.uniform<i8:f32, 0.25>>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

func.func @input_two_ways(%x: tensor<4xi8>) -> (tensor<4xf32>, tensor<4xf32>) attributes {nnapi.partition} {
  // expected-error@+1 {{an NNAPI partition input viewed as two quantized types}}
  %a = "quant.scast"(%x) : (tensor<4xi8>) -> tensor<4x!quant.uniform<i8:f32, 0.5>>
  %b = "quant.scast"(%x) : (tensor<4xi8>) -> tensor<4x!quant.uniform<i8:f32, 0.25>>
  %da = nnapi.dequantize %a : (tensor<4x!quant.uniform<i8:f32, 0.5>>) -> tensor<4xf32>
  %db = nnapi.dequantize %b : (tensor<4x!quant.uniform<i8:f32, 0.25>>) -> tensor<4xf32>
  return %da, %db : tensor<4xf32>, tensor<4xf32>
}

// -----

// IF and WHILE are written in the order of their layouts (Layouts.cpp),
// which NNAPI's rules check: an IF that returns nothing is refused.
func.func @if_without_results(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> attributes {nnapi.partition} {
  // expected-error@+1 {{the NNAPI spec refuses this operation: IF: expects 1 or more outputs, got 0}}
  nnapi.if %c : tensor<i1> (%x) : (tensor<4xf32>) -> ()
  then {
  ^bb0(%a: tensor<4xf32>):
    nnapi.yield
  } else {
  ^bb0(%a: tensor<4xf32>):
    nnapi.yield
  }
  %r = nnapi.relu %x : tensor<4xf32>
  return %r : tensor<4xf32>
}
