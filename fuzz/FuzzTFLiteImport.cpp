//===- FuzzTFLiteImport.cpp - Fuzz the TFLite importer ---------------------===//
//
// A model is imported or refused with at least one error diagnostic; an
// imported module verifies. Under libFuzzer, most mutations change one value
// of a model the verifier accepts (TFLiteMutator.h) rather than bytes.
//
//===----------------------------------------------------------------------===//

#include "TFLiteMutator.h"
#include "nnapi-mlir/Frontend/TFLite/TFLiteImporter.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext context;
  context.disableMultithreading();
  bool reported = false;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    reported |= d.getSeverity() == mlir::DiagnosticSeverity::Error;
    return mlir::success();
  });
  auto module = mlir::nnapi::importTFLite(
      llvm::StringRef(reinterpret_cast<const char *>(data), size),
      "fuzz.tflite", &context);
  if (!module && !reported) {
    std::fprintf(stderr, "model refused without an error\n");
    std::abort();
  }
  if (module && mlir::failed(mlir::verify(*module))) {
    std::fprintf(stderr, "imported module does not verify\n");
    std::abort();
  }
  return 0;
}

#ifdef NNAPI_MLIR_LIBFUZZER
extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  // One in eight mutations flips bytes, to test the verifier's side too.
  if (seed % 8 != 0)
    if (size_t n = nnapi_mlir::fuzz::mutateTFLiteModel(data, size, seed))
      return n;
  return LLVMFuzzerMutate(data, size, maxSize);
}
#endif
