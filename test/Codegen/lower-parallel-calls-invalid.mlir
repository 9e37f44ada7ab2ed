// RUN: nnapi-opt %s -split-input-file --nnapi-lower-parallel-calls -verify-diagnostics

llvm.func @g(%b: i64, %e: i64) {
  llvm.return
}
llvm.func @f(%n: i64) {
  %one = llvm.mlir.constant(1 : i64) : i64
  // expected-error@+1 {{'llvm.call' op with 'nnapi.parallel_grain' must call a function (begin = 0, end: i64, ...) with no results}}
  llvm.call @g(%one, %n) {nnapi.parallel_grain = 3 : i64} : (i64, i64) -> ()
  llvm.return
}
