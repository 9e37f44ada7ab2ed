//===- TFLiteImporter.h - TensorFlow Lite model to TOSA ---------*- C++ -*-===//
//
// Reads a TensorFlow Lite flatbuffer (.tflite): checks it with the
// flatbuffers Verifier before reading anything (a .tflite is untrusted
// input), then emits a module holding one `func.func @main` in TOSA whose
// arguments and results are the entry subgraph's inputs and outputs, named
// after the model's SignatureDef when it has one (else after the tensors).
// Constant buffers become constants (float16 weights behind DEQUANTIZE are
// folded to float32); quantized tensors are held as 8-bit storage and each
// operator on them is its float computation between `dequantize` and
// `quantize` composites, as the ONNX importer writes QDQ models, so that
// nnapi-raise-quantized makes int8 NNAPI operations of them.
//
// TFLite is NHWC with OHWI filters, as TOSA: no layout transposes are
// added. Subgraphs other than the entry are bodies of WHILE and IF.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_FRONTEND_TFLITE_TFLITEIMPORTER_H
#define NNAPI_MLIR_FRONTEND_TFLITE_TFLITEIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>
#include <string>
#include <vector>

namespace mlir::nnapi {

struct TFLiteImportOptions {
  /// Shapes for inputs whose shape_signature has unknown (-1) dimensions,
  /// by input name (the SignatureDef's, else the tensor's): the rank must
  /// match and every known dimension must equal the given one. A -1 keeps
  /// an unknown dimension dynamic (issue 54): every tensor's unknown
  /// dimensions are then dynamic, as the file's shape signatures say, and
  /// the operators that take dynamic dimensions are imported (others are
  /// refused, naming them).
  std::map<std::string, std::vector<int64_t>> inputShapes;
  /// The declared ranges of those dynamic dimensions ([low, high] pairs in
  /// order), by input name; none or empty: unbounded.
  std::map<std::string, std::vector<int64_t>> inputDimRanges;
  /// The SignatureDef to import (its signature_key); empty: the first, or
  /// subgraph 0 when the model has none.
  std::string signature;
};

/// True if `bytes` carries TFLite's file identifier ("TFL3" at offset 4).
bool looksLikeTFLite(llvm::StringRef bytes);

/// Imports the model at `path`. On failure returns null after emitting
/// diagnostics, each naming the operator (its index, type and version, and
/// its first output's tensor) or the tensor, buffer or subgraph at fault.
OwningOpRef<ModuleOp> importTFLiteFile(llvm::StringRef path,
                                       MLIRContext *context,
                                       const TFLiteImportOptions &options = {});
/// The same for a model already in memory; `name` is used in locations and
/// messages. `data` must stay alive during the call only.
OwningOpRef<ModuleOp> importTFLite(llvm::StringRef data, llvm::StringRef name,
                                   MLIRContext *context,
                                   const TFLiteImportOptions &options = {});

/// The TFLite operators (builtin names, and the custom operators by their
/// custom code) the importer handles.
const std::vector<std::string> &getSupportedTFLiteOps();

/// docs/ops.md's TFLite operator table (Markdown, one line per row): every
/// builtin operator of the schema, with what the importer makes of it.
std::string getTFLiteOpsTable();

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_FRONTEND_TFLITE_TFLITEIMPORTER_H
