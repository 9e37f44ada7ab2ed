//===- FuzzONNXImport.cpp - Fuzz the ONNX importer ------------------------===//
//
// A model is imported or refused with at least one error diagnostic; an
// imported module verifies. Under libFuzzer, most mutations are structural
// (ONNXMutator.h) rather than byte flips.
//
//===----------------------------------------------------------------------===//

#include "ImportCheck.h"
#include "ONNXMutator.h"
#include "nnapi-mlir/Frontend/ONNX/ONNXImporter.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  nnapi_mlir::fuzz::checkImport([&](mlir::MLIRContext *context) {
    return mlir::nnapi::importONNX(bytes, "fuzz.onnx", context);
  });
  return 0;
}

#ifdef NNAPI_MLIR_LIBFUZZER
extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  // One in eight mutations flips bytes, to test the protobuf layer too.
  if (seed % 8 != 0)
    if (size_t n = nnapi_mlir::fuzz::mutateONNXModel(data, size, maxSize, seed,
                                                     LLVMFuzzerMutate))
      return n;
  return LLVMFuzzerMutate(data, size, maxSize);
}
#endif
