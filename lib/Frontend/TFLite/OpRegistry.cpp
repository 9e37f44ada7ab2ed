//===- OpRegistry.cpp - The TFLite importer's operator registry -----------===//
//
// Every handler family's entries (ops/*.cpp), looked up by operator code,
// and what is generated from them: the list of supported operators and
// docs/ops.md's TFLite table.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "llvm/ADT/STLExtras.h"

#include <tuple>

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::tflite_import;

const OpRegistry &OpRegistry::get() {
  static const OpRegistry registry = [] {
    OpRegistry r;
    registerConvOps(r);
    registerElementwiseOps(r);
    registerShapeOps(r);
    registerReduceOps(r);
    registerQuantOps(r);
    registerRecurrentOps(r);
    registerControlFlowOps(r);
    llvm::sort(r.entries, [](const OpEntry &a, const OpEntry &b) {
      return std::make_tuple(a.code, a.custom, a.minVersion) <
             std::make_tuple(b.code, b.custom, b.minVersion);
    });
    for (size_t i = 1; i < r.entries.size(); ++i)
      if (r.entries[i - 1].code == r.entries[i].code &&
          r.entries[i - 1].custom == r.entries[i].custom)
        llvm::report_fatal_error(
            llvm::Twine("TFLite operator ") +
            tflite::EnumNameBuiltinOperator(
                tflite::BuiltinOperator(r.entries[i].code)) +
            " " + r.entries[i].custom + " is registered twice");
    return r;
  }();
  return registry;
}

const OpEntry *OpRegistry::lookup(int32_t code, StringRef custom) const {
  for (const OpEntry &e : entries)
    if (e.code == code && (code != kCustom || e.custom == custom))
      return &e;
  return nullptr;
}

std::string tflite_import::operatorName(int32_t code, StringRef custom) {
  if (code == kCustom)
    return custom.str();
  const char *name =
      tflite::EnumNameBuiltinOperator(tflite::BuiltinOperator(code));
  return name && *name ? name : "builtin " + std::to_string(code);
}

const std::vector<std::string> &mlir::nnapi::getSupportedTFLiteOps() {
  static const std::vector<std::string> ops = [] {
    std::vector<std::string> list;
    for (const OpEntry &e : OpRegistry::get().all())
      list.push_back(operatorName(e.code, e.custom));
    llvm::sort(list);
    return list;
  }();
  return ops;
}

std::string mlir::nnapi::getTFLiteOpsTable() {
  std::string table = "| TFLite operator | versions | imported as | NNAPI "
                      "(feature level) | stays on the host when | dynamic |\n"
                      "|---|---|---|---|---|---|\n";
  const OpRegistry &registry = OpRegistry::get();
  auto row = [&](const std::string &name, const OpEntry *e) {
    table += "| " + name + " | ";
    if (e)
      table += std::to_string(e->minVersion) + "-" +
               std::to_string(e->maxVersion) + " | " +
               markdownCell(e->importedAs) + " | " + markdownCell(e->nnapi) +
               " | " + markdownCell(e->hostWhen) + " | " +
               (e->dynamic ? "yes" : "-");
    else
      table += "- | not imported | - | - | -";
    table += " |\n";
  };
  std::vector<std::pair<std::string, const OpEntry *>> rows;
  for (tflite::BuiltinOperator code : tflite::EnumValuesBuiltinOperator())
    if (code != tflite::BuiltinOperator_CUSTOM)
      rows.push_back({operatorName(code, ""), registry.lookup(code, "")});
  for (const OpEntry &e : registry.all())
    if (e.code == kCustom)
      rows.push_back({"CUSTOM " + e.custom.str(), &e});
  llvm::sort(rows, [](const auto &a, const auto &b) { return a.first < b.first; });
  for (const auto &[name, e] : rows)
    row(name, e);
  return table;
}
