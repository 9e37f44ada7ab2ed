//===- Backend.h - LLVM's half of a compilation ---------------------------===//
//
// The host code's LLVM module in, optimized IR or object files out. Two
// decisions live here (docs/design.md, "Compile time"):
// - -O3 sees the code without the weights (they are data, compiled in a
//   part of their own without the optimizer), and loops that only move data
//   stay rolled: fully unrolled, a padded border became one block of a
//   thousand stores on which the instruction schedulers are quadratic.
// - The module is split into parts by function size, and the parts are
//   optimized and compiled on as many threads as there are CPUs. The parts
//   depend on the module only, never on the thread count, so the library is
//   the same bytes whatever the threads.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_COMPILER_BACKEND_H
#define NNAPI_MLIR_LIB_COMPILER_BACKEND_H

#include "nnapi-mlir/Codegen/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace llvm {
class Module;
class TargetMachine;
class raw_pwrite_stream;
class ThreadPoolInterface;
} // namespace llvm

namespace mlir {
class TimingScope;
} // namespace mlir

namespace mlir::nnapi {

/// Runs LLVM's module pipeline at -O`level` (0..3; 0 runs nothing) on
/// `module`'s code: its constant arrays are out of the optimizer's sight
/// meanwhile (Backend.cpp, detachData).
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine,
                    unsigned level);

/// How many parts compileToObjects splits `module`'s code into: one per
/// kPartInstructions instructions of its function bodies, at most kMaxParts.
unsigned countParts(const llvm::Module &module);

/// Optimizes `module` at -O`level` and compiles it for `target` into one
/// object file, written to `object`. Times "LLVM -O<level>" and "LLVM code
/// generation" under `timing` when given.
llvm::Error compileToObject(llvm::Module &module, const HostTarget &target,
                            unsigned level, llvm::raw_pwrite_stream &object,
                            TimingScope *timing);

/// The same into `objects.size()` object files for one shared library: the
/// code split into all but the last (every function in one part, symbols
/// that one part uses from another made hidden globals) and its constant
/// data in the last, compiled on at most `threads` threads (0: on `shared`
/// if given, else on the CPUs this process may use). Each object is written
/// to its stream as it is made; the objects depend on the module and their
/// count only.
llvm::Error compileToObjects(std::unique_ptr<llvm::Module> module,
                             const HostTarget &target, unsigned level,
                             llvm::ArrayRef<llvm::raw_pwrite_stream *> objects,
                             unsigned threads, llvm::ThreadPoolInterface *shared,
                             TimingScope *timing);

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_LIB_COMPILER_BACKEND_H
