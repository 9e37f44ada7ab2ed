// RUN: nnapi-opt %s -nnapi-codegen-prepare="int8-dot=sse4" -verify-diagnostics
// RUN: nnapi-opt %s -nnapi-codegen="int8-dot=vnni" -verify-diagnostics -split-input-file

// expected-error @below {{unknown int8-dot}}
func.func @f() {
  return
}
