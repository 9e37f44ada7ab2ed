// RUN: nnapi-opt %s -split-input-file --nnapi-emit-entry-point --verify-diagnostics

// Without a signature there is nothing to check the entry against.
// expected-error@+1 {{missing nnapi.signature: run nnapi-export-signature before lowering to LLVM}}
module {
  llvm.func @main(%x: !llvm.ptr, %y: !llvm.ptr) {
    llvm.return
  }
}

// -----

// An entry left in the func dialect: its buffers had no bare-pointer form.
module attributes {nnapi.signature = "nnapi-mlir-model 1\0Apartitions 0\0Ainput 0 x f32 0\0Aoutput 0 y f32 0\0A"} {
  // expected-error@+1 {{entry function '@main' was not lowered to the LLVM dialect: its arguments and results must be static, non-empty buffers (a zero-size tensor has no bare-pointer form)}}
  func.func @main(%x: memref<0xf32>) -> memref<0xf32> {
    return %x : memref<0xf32>
  }
}

// -----

// expected-error@+1 {{entry function '@main' not found in the LLVM dialect}}
module attributes {nnapi.signature = "nnapi-mlir-model 1\0Apartitions 0\0Ainput 0 x f32 2\0Aoutput 0 y f32 2\0A"} {
  llvm.func @other(%x: !llvm.ptr, %y: !llvm.ptr) {
    llvm.return
  }
}

// -----

// One pointer per input and output, then each dynamic dimension (none
// here), returning nothing.
module attributes {nnapi.signature = "nnapi-mlir-model 1\0Apartitions 0\0Ainput 0 x f32 2\0Aoutput 0 y f32 2\0A"} {
  // expected-error@+1 {{entry function must take one bare pointer per input and output, then each dynamic dimension, and return nothing (bufferize with results as out-parameters, nnapi-dynamic-entry, lower with the bare-pointer calling convention)}}
  llvm.func @main(%x: !llvm.ptr) {
    llvm.return
  }
}
