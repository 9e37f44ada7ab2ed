//===- Link.h - Shared libraries for any target, with LLVM's linker -------===//
//
// A compiled model becomes a shared library whose undefined symbols are the
// runtime's (nnapi_rt_*) and the C library's. It is linked with Debian's
// ld.lld for every triple, the host's included, against stub libraries made
// here for the target (by LLVM's interface-stub writer, no linker run): each
// stub is an empty shared object carrying only the soname that the library
// must name as NEEDED (libnnapi_runtime.so, libc,
// libm). No toolchain or sysroot of the target is needed, and nothing of the
// build machine ends up in the library: no RUNPATH unless asked for.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_COMPILER_LINK_H
#define NNAPI_MLIR_LIB_COMPILER_LINK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <string>

namespace mlir::nnapi {

/// The sonames a model library for `triple` names as NEEDED, the runtime
/// first: libnnapi_runtime.so, then the C library's (glibc: libm.so.6 and
/// libc.so.6; Android's bionic: libm.so and libc.so).
llvm::SmallVector<std::string> neededLibraries(const llvm::Triple &triple);

/// Links `objects` (ELF objects for `machine`'s target, in this order) into
/// the shared library `library`. `runpath`, when not empty, becomes its
/// RUNPATH (e.g. "$ORIGIN"). The linker is $NNAPI_MLIR_LLD, else ld.lld-19
/// or ld.lld on PATH. Errors name what is missing or what the linker said.
llvm::Error linkModelLibrary(llvm::TargetMachine &machine,
                             llvm::ArrayRef<std::string> objects,
                             llvm::StringRef library, llvm::StringRef runpath);

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_LIB_COMPILER_LINK_H
