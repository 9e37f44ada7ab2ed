//===- ONNXImporter.h - ONNX model to TOSA ----------------------*- C++ -*-===//
//
// Reads an ONNX model with Debian's libonnx: parses the ModelProto, upgrades
// opsets older than kMinONNXOpset with ONNX's version converter, runs ONNX
// shape inference, and emits a module holding one `func.func @main` in TOSA
// whose arguments and results are the graph's inputs and outputs (names kept
// in `nnapi.name` attributes). Initializers become constants; subgraphs
// computable at compile time (Shape -> Gather -> Concat -> Reshape and
// similar) are folded, so every tensor has a static shape.
//
// ONNX is NCHW; TOSA convolutions and pools are NHWC. The importer wraps
// each such op in the transposes its semantics need; the
// nnapi-propagate-transposes pass then cancels them along chains.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_FRONTEND_ONNX_ONNXIMPORTER_H
#define NNAPI_MLIR_FRONTEND_ONNX_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>
#include <vector>

namespace mlir::nnapi {

/// Models with an older default-domain opset are upgraded to this one.
constexpr int64_t kMinONNXOpset = 13;

/// Imports the model at `path`. On failure returns null after emitting
/// diagnostics: one per unsupported node naming the node, its op type and
/// opset and what is unsupported, or one for an unreadable file.
OwningOpRef<ModuleOp> importONNXFile(llvm::StringRef path, MLIRContext *context);
/// The same for a serialized model already in memory; `name` is used in
/// locations and messages.
OwningOpRef<ModuleOp> importONNX(llvm::StringRef data, llvm::StringRef name,
                                 MLIRContext *context);

/// The ONNX operator types (default domain) the importer handles.
const std::vector<std::string> &getSupportedONNXOps();

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_FRONTEND_ONNX_ONNXIMPORTER_H
