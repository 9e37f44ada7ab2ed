//===- OpRegistry.cpp - The ONNX operators the importer handles -----------===//
//
// Builds the registry from every family's registerXxxOps, and derives from
// it the supported operator list and docs/ops.md's ONNX table.
//
//===----------------------------------------------------------------------===//

#include "OpRegistry.h"
#include "Importer.h"
#include "NewOpsets.h"
#include "ONNXSchemas.h"

#include "nnapi-mlir/Frontend/ONNX/ONNXImporter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/ErrorHandling.h"

#include <tuple>

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::onnx_import;

const OpRegistry &OpRegistry::get() {
  static const OpRegistry registry = [] {
    OpRegistry r;
    registerConstantOps(r);
    registerElementwiseOps(r);
    registerActivationOps(r);
    registerDataMovementOps(r);
    registerReductionOps(r);
    registerNormalizationOps(r);
    registerConvPoolOps(r);
    registerLinearOps(r);
    registerResizeOps(r);
    registerMathOps(r);
    registerIndexingOps(r);
    registerRecurrentOps(r);
    registerControlFlowOps(r);
    registerQuantizationOps(r);
    llvm::sort(r.entries, [](const OpEntry &a, const OpEntry &b) {
      return std::make_tuple(a.domain, a.opType, a.minOpset) <
             std::make_tuple(b.domain, b.opType, b.minOpset);
    });
    // Checked in release builds too: which handler a node gets must not
    // depend on registration order.
    for (size_t i = 1; i < r.entries.size(); ++i) {
      const OpEntry &prev = r.entries[i - 1], &next = r.entries[i];
      if (prev.domain == next.domain && prev.opType == next.opType &&
          prev.maxOpset >= next.minOpset)
        llvm::report_fatal_error(llvm::Twine("ONNX operator '") + next.opType +
                                 "' is registered twice for opset " +
                                 llvm::Twine(next.minOpset));
    }
    return r;
  }();
  return registry;
}

const OpEntry *OpRegistry::lookup(llvm::StringRef domain,
                                  llvm::StringRef opType, int64_t opset) const {
  for (const OpEntry &e : entries)
    if (e.domain == domain && e.opType == opType && e.minOpset <= opset &&
        opset <= e.maxOpset)
      return &e;
  return nullptr;
}

const std::vector<std::string> &mlir::nnapi::getSupportedONNXOps() {
  static const std::vector<std::string> ops = [] {
    std::vector<std::string> list;
    for (const OpEntry &e : OpRegistry::get().all())
      if (e.domain.empty() && (list.empty() || list.back() != e.opType))
        list.push_back(e.opType.str());
    return list;
  }();
  return ops;
}

std::string mlir::nnapi::getONNXOpsTable() {
  std::string table = "| ONNX operator | imported as | NNAPI (feature level) "
                      "| stays on the host when |\n"
                      "|---|---|---|---|\n";
  const OpRegistry &registry = OpRegistry::get();
  for (const std::string &op :
       nnapi_mlir::onnx_frontend::allDefaultDomainOps()) {
    // The entry for the newest opset describes the operator.
    const OpEntry *entry = nullptr;
    for (const OpEntry &e : registry.all())
      if (e.domain.empty() && e.opType == op)
        entry = &e;
    table += "| " + op + " | ";
    if (entry)
      table += frontend::markdownCell(entry->importedAs) + " | " +
               frontend::markdownCell(entry->nnapi) + " | " +
               frontend::markdownCell(entry->hostWhen);
    else
      table += "not imported | - | -";
    table += " |\n";
  }
  return table;
}

std::string mlir::nnapi::getONNXNewOpsetsTable() {
  std::string table = "| ONNX operator | opset | how it is read |\n"
                      "|---|---|---|\n";
  for (const auto &rule : nnapi_mlir::onnx_frontend::newOpsetRules())
    table += std::string("| ") + rule.opType + " | " +
             std::to_string(rule.since) + " | " +
             frontend::markdownCell(rule.handling) + " |\n";
  return table;
}

bool mlir::nnapi::onnx_import::handlesDynamicShapes(llvm::StringRef opType) {
  // Each checked by test/onnx/dynamic-shapes.test at several sizes.
  // (Conv and MaxPool refuse the cases whose padding depends on the
  // size themselves: importWindowOp.)
  static const llvm::StringRef kOps[] = {
      "Abs",     "Add",       "BatchNormalization", "Clip",
      "Conv",    "Div",       "Exp",                "GlobalAveragePool",
      "GlobalMaxPool", "Identity", "Log",           "MatMul",
      "Max",     "MaxPool",   "Min",                "Mul",
      "Neg",     "Relu",      "Sigmoid",            "Softmax",
      "Sqrt",    "Sub",       "Tanh",               "Transpose"};
  return llvm::is_contained(kOps, opType);
}
