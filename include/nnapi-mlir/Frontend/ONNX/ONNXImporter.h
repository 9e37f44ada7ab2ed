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

#include <map>
#include <string>
#include <vector>

namespace mlir::nnapi {

/// Models with an older default-domain opset are upgraded to this one.
constexpr int64_t kMinONNXOpset = 13;

/// How to import a model.
struct ONNXImportOptions {
  /// Shapes for graph inputs, by input name. Each replaces the input's
  /// declared shape before shape inference: the rank must match, a
  /// symbolic or unknown dimension takes the given value and a static one
  /// must equal it. This is how a model with dynamic dimensions (a symbolic
  /// batch, height or width) is specialised; every other input must be
  /// static already.
  std::map<std::string, std::vector<int64_t>> inputShapes;
  /// Dimensions kept dynamic (issue 54): -1 in an inputShapes entry, at a
  /// symbolic or unknown dimension of the model, which the library then
  /// takes at any size in the range given here: a (low, high) pair per -1,
  /// in order (nnapi.dim_ranges). Only operators whose import handles
  /// dynamic dimensions may see them (OpRegistry.cpp).
  std::map<std::string, std::vector<int64_t>> inputDimRanges;
  /// Values for graph inputs, by input name, as serialized ONNX
  /// TensorProtos: the graph computes with each as a constant (its element
  /// type and shape must match the declaration), so inputs that decide
  /// shapes (a Reshape's shape, Resize's scales, TopK's K, axes) can be fed
  /// at compile time. The input stays in the model's signature, in its
  /// place, and every run checks that it holds the value (the entry
  /// argument carries it as `nnapi.bound`).
  std::map<std::string, std::string> inputValues;
  /// Candidate values, in the same form, bound only to inputs that turn out
  /// to decide a shape: an import that fails because a node needs an
  /// input's value at compile time is retried with the inputs behind it
  /// bound as by `inputValues` (and a remark names each). Other inputs stay
  /// runtime data. `nnapi-run --test-data` passes every test input here.
  std::map<std::string, std::string> specializeValues;
  /// ONNX values (node outputs, by name) added to the model's outputs,
  /// after the graph's own, in the order given; {"all"}: every node output
  /// that is a tensor, in graph order. For comparing a model layer by layer
  /// with another runtime (docs/onnx-debugging.md).
  std::vector<std::string> exposeValues;
  /// Import a float64 copy of the model: every float32 tensor (inputs,
  /// outputs, weights, constants, casts) becomes float64, which the host
  /// code computes exactly. The reference nnapi-run --compare-float64
  /// compares both runtimes with.
  bool float64 = false;
};

/// Imports the model at `path`. On failure returns null after emitting
/// diagnostics: one per unsupported node naming the node, its op type and
/// opset and what is unsupported, or one for an unreadable file.
OwningOpRef<ModuleOp> importONNXFile(llvm::StringRef path, MLIRContext *context,
                                     const ONNXImportOptions &options = {});
/// The same for a serialized model already in memory; `name` is used in
/// locations and messages.
OwningOpRef<ModuleOp> importONNX(llvm::StringRef data, llvm::StringRef name,
                                 MLIRContext *context,
                                 const ONNXImportOptions &options = {});

/// Reads `spec`, "NAME=FILE.pb" (an ONNX TensorProto file, as in ONNX test
/// directories), into `options`; false with `error` if it is malformed, the
/// file unreadable or NAME given before.
bool parseONNXInputValue(llvm::StringRef spec, ONNXImportOptions &options,
                         std::string &error);
/// The same for --specialize-value (ONNXImportOptions::specializeValues).
bool parseONNXSpecializeValue(llvm::StringRef spec, ONNXImportOptions &options,
                              std::string &error);

/// The ONNX operator types (default domain) the importer handles.
const std::vector<std::string> &getSupportedONNXOps();

/// docs/ops.md's ONNX operator table (Markdown, one line per row): every
/// default-domain operator libonnx defines, with what the importer makes of
/// it.
std::string getONNXOpsTable();

/// docs/ops.md's table of the operators whose inputs, attributes or meaning
/// changed in opsets 18 to 21, and how the importer reads them (as opset
/// 17: lib/Frontend/ONNX/NewOpsets.cpp).
std::string getONNXNewOpsetsTable();

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_FRONTEND_ONNX_ONNXIMPORTER_H
