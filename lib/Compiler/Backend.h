//===- Backend.h - LLVM's half of a compilation ---------------------------===//
//
// The host code's LLVM module in, optimized IR or object files out. Two
// decisions live here (docs/design.md, "Compile time"):
// - -O3 with LLVM's full loop unrolling bounded to a few iterations. The
//   host code arrives tiled and vectorized; unbounded full unrolling turned
//   small constant loops (padding fills, a BERT layer's per-head loops) into
//   straight-line blocks thousands of instructions long on which the loop
//   vectorizer and the instruction schedulers are quadratic (DistilBERT: 140 s
//   in -O3).
// - The module is split into parts by function size, and each part is
//   optimized and compiled on its own thread. The parts depend on the module
//   only, never on the thread count, so the library is the same bytes
//   whatever the threads.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_COMPILER_BACKEND_H
#define NNAPI_MLIR_LIB_COMPILER_BACKEND_H

#include "nnapi-mlir/Codegen/Target.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <vector>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace mlir {
class TimingScope;
} // namespace mlir

namespace mlir::nnapi {

/// Runs LLVM's -O3 module pipeline on `module`, with full unrolling bounded.
llvm::Error optimizeModule(llvm::Module &module, llvm::TargetMachine &machine);

/// How many parts compileToObjects splits `module` into: one per
/// kPartInstructions instructions of its function bodies, at most kMaxParts.
unsigned countParts(const llvm::Module &module);

/// Optimizes `module` and compiles it for `target` into `parts` object files
/// (parts > 1 splits it first: every function and constant in one part,
/// symbols that one part uses from another made hidden globals), on at most
/// `threads` threads (0: one per part). Objects come back in part order.
/// Times "LLVM -O3" and "LLVM code generation" under `timing` when given.
llvm::Expected<std::vector<llvm::SmallString<0>>>
compileToObjects(std::unique_ptr<llvm::Module> module, const HostTarget &target,
                 unsigned parts, unsigned threads, TimingScope *timing);

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_LIB_COMPILER_BACKEND_H
