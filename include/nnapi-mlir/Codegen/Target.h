//===- Target.h - The machine the host code is compiled for -----*- C++ -*-===//
//
// nnapi-compile's --mtriple/--mcpu/--mattr: an LLVM target machine for the
// host code, and the vector shape (register width and count) that the code
// generation strategies size their tiles by.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_CODEGEN_TARGET_H
#define NNAPI_MLIR_CODEGEN_TARGET_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>
#include <string>

namespace mlir::nnapi {

struct HostTarget {
  std::string triple, cpu, features;
  /// Widest float vector the code generation uses, and how many of them the
  /// target has.
  unsigned vectorBits = 128, vectorRegisters = 16;
  /// The 8-bit dot-product instructions the integer convolutions use
  /// (the `int8-dot` option of nnapi-codegen): "avx512-vnni" (vpdpbusd on
  /// 512-bit vectors), "avx-vnni" (on 256-bit ones), "dotprod" (AArch64
  /// sdot), "i8mm" (AArch64 smmla, and sdot), "avx512-madd" / "avx2-madd"
  /// (vpmaddwd on 512- / 256-bit vectors, for x86 CPUs without VNNI), or
  /// empty.
  std::string int8Dot;
  std::unique_ptr<llvm::TargetMachine> machine;
};

/// The target for `triple` (empty: the host's), `cpu` ("native": the host
/// CPU with the features it reports, only for code that runs on this
/// machine; empty: the same, or for another architecture, OS or environment
/// its generic CPU, genericCPU()) and
/// `features` ("+avx2,-avx512f", added after the CPU's). Position-independent
/// code, aggressive optimization, FMA contraction allowed and no other
/// fast-math. Errors name the unknown triple or CPU.
/// The baseline CPU of `triple`'s architecture: "generic" (AArch64, ARM,
/// RISC-V), "x86-64" or "i686".
llvm::StringRef genericCPU(const llvm::Triple &triple);

llvm::Expected<HostTarget> createHostTarget(llvm::StringRef triple,
                                            llvm::StringRef cpu,
                                            llvm::StringRef features);

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_CODEGEN_TARGET_H
