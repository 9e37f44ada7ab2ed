//===- FuzzTFLiteImport.cpp - Fuzz the TFLite importer ---------------------===//
//
// A model is imported or refused with at least one error diagnostic; an
// imported module verifies. Under libFuzzer, most mutations change one value
// of a model the verifier accepts (TFLiteMutator.h) rather than bytes.
//
//===----------------------------------------------------------------------===//

#include "ImportCheck.h"
#include "TFLiteMutator.h"
#include "nnapi-mlir/Frontend/TFLite/TFLiteImporter.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  nnapi_mlir::fuzz::checkImport([&](mlir::MLIRContext *context) {
    return mlir::nnapi::importTFLite(bytes, "fuzz.tflite", context);
  });
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
