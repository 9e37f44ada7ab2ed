//===- OpRegistry.h - The ONNX operators the importer handles ---*- C++ -*-===//
//
// One entry per (domain, operator, opset range): the handler that imports a
// node and the documentation of what it becomes. `nnapi-compile
// --list-onnx-ops`, `--onnx-ops-table` (docs/ops.md's ONNX table) and the
// conformance runner all read this registry; no other list of supported
// operators exists.
//
// Handlers are registered by one function per family of operators
// (ops/*.cpp), called from OpRegistry.cpp: explicit calls, not static
// initializers, which a static library would drop.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_FRONTEND_ONNX_OPREGISTRY_H
#define NNAPI_MLIR_LIB_FRONTEND_ONNX_OPREGISTRY_H

#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <vector>

namespace mlir::nnapi::onnx_import {

class NodeContext;

/// Imports one node: defines its outputs, or emits a diagnostic naming the
/// node and returns failure.
using OpHandler = LogicalResult (*)(NodeContext &node);

/// No upper bound on the opset.
constexpr int64_t kAnyOpset = INT64_MAX;

struct OpEntry {
  llvm::StringRef domain; // "" is the default domain (ai.onnx)
  llvm::StringRef opType;
  /// The default-domain opsets this entry handles, inclusive. Models are
  /// upgraded to kMinONNXOpset first, so most entries start there.
  int64_t minOpset;
  int64_t maxOpset;
  OpHandler handler;
  /// docs/ops.md's columns: the TOSA it becomes, the NNAPI operation(s)
  /// that TOSA can become with their feature levels, and when it stays on
  /// the host (or what the importer refuses).
  llvm::StringRef importedAs;
  llvm::StringRef nnapi;
  llvm::StringRef hostWhen;
};

/// Whether the import of `opType` handles values with dynamic dimensions
/// (issue 54): its handler computes no shape from a dynamic dimension, and
/// the TOSA it emits means the same at every size.
bool handlesDynamicShapes(llvm::StringRef opType);

class OpRegistry {
public:
  /// The registry with every family registered (built once, thread-safe).
  static const OpRegistry &get();

  void add(llvm::ArrayRef<OpEntry> list) {
    entries.insert(entries.end(), list.begin(), list.end());
  }

  /// The entry handling `opType` of `domain` at `opset`, or null.
  const OpEntry *lookup(llvm::StringRef domain, llvm::StringRef opType,
                        int64_t opset) const;
  /// Every entry, sorted by domain, operator and opset.
  llvm::ArrayRef<OpEntry> all() const { return entries; }

private:
  std::vector<OpEntry> entries;
};

} // namespace mlir::nnapi::onnx_import

#endif // NNAPI_MLIR_LIB_FRONTEND_ONNX_OPREGISTRY_H
