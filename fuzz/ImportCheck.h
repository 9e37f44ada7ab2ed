//===- ImportCheck.h - The importers' fuzzing rule ---------------*- C++ -*-===//
//
// What every importer fuzz target asserts of any input: a model is refused
// with at least one error diagnostic or imported into a module that
// verifies. Anything else aborts, which libFuzzer reports as a crash.
//
//===----------------------------------------------------------------------===//

#ifndef NNAPI_MLIR_FUZZ_IMPORTCHECK_H
#define NNAPI_MLIR_FUZZ_IMPORTCHECK_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdio>
#include <cstdlib>

namespace nnapi_mlir::fuzz {

/// Runs `import` in a fresh context and checks the rule above.
inline void checkImport(
    llvm::function_ref<mlir::OwningOpRef<mlir::ModuleOp>(mlir::MLIRContext *)>
        import) {
  mlir::MLIRContext context;
  context.disableMultithreading();
  bool reported = false;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    reported |= d.getSeverity() == mlir::DiagnosticSeverity::Error;
    return mlir::success();
  });
  mlir::OwningOpRef<mlir::ModuleOp> module = import(&context);
  if (!module && !reported) {
    std::fprintf(stderr, "model refused without an error\n");
    std::abort();
  }
  if (module && mlir::failed(mlir::verify(*module))) {
    std::fprintf(stderr, "imported module does not verify\n");
    std::abort();
  }
}

} // namespace nnapi_mlir::fuzz

#endif // NNAPI_MLIR_FUZZ_IMPORTCHECK_H
