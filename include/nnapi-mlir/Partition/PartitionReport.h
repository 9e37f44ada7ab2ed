//===- PartitionReport.h - What nnapi-partition decided and why -*- C++ -*-===//
//
// The placement report: per function, every op with its placement, the
// partition it joined, its estimated cost on each side and, for host ops,
// the reason. Written as JSON (for tools), a self-contained HTML page that
// draws the graph (for people) and Graphviz DOT.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_DIALECT_NNAPI_TRANSFORMS_PARTITIONREPORT_H
#define NNAPI_MLIR_DIALECT_NNAPI_TRANSFORMS_PARTITIONREPORT_H

#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::nnapi {

struct ReportOp {
  unsigned id = 0;
  std::string name;   ///< From the op's NameLoc, else "<type>#<id>".
  std::string type;   ///< "tosa.conv2d", or "softmax" for the composite.
  std::string nnapi;  ///< NNAPI operation it would become, or "".
  /// That operation's tensor operand and result types
  /// ("TENSOR_QUANT8_ASYMM_SIGNED"), empty without one.
  std::vector<std::string> nnapiInputs, nnapiOutputs;
  int partition = -1; ///< Index into ReportFunction::partitions, -1 host.
  double hostUs = 0;
  std::optional<double> deviceUs; ///< Unset when NNAPI cannot run it.
  double macs = 0, elements = 0;  ///< Work the cost model charges for.
  /// The costs come from the profile's measurements at this op's shapes
  /// (nnapi-profile-device --model), not from its cost tables.
  bool measuredHost = false, measuredDevice = false;
  std::string reason;             ///< Why it stays on the host.
  std::vector<unsigned> inputs;   ///< Ids of the ops producing its operands.
};

struct ReportPartition {
  std::string name; ///< The outlined function.
  std::vector<unsigned> ops;
  double benefitUs = 0; ///< Latency saved versus running it on the host.
};

struct ReportFunction {
  std::string name;
  std::vector<ReportOp> ops;
  std::vector<ReportPartition> partitions;
  double allHostUs = 0; ///< Estimated latency with everything on the host.
  double chosenUs = 0;  ///< Estimated latency of the chosen placement.
  bool optimal = true;
  unsigned clusters = 0, exactClusters = 0;
};

struct Report {
  std::string profileName;
  std::string profilePath; ///< "" for the built-in profile.
  unsigned featureLevel = 0;
  std::string options; ///< The pass options, as given.
  std::vector<ReportFunction> functions;
  /// nnapi-run --validate's results (--validation-out), one per partition
  /// and device, keyed by partition name; empty when none were given.
  llvm::json::Array validation;
};

/// Reads nnapi-run --validation-out's file into `report.validation`; false
/// with `error` when it is missing or not such a file.
bool loadValidation(llvm::StringRef path, Report &report, std::string &error);

std::string reportToJSON(const Report &report);
std::string reportToDOT(const Report &report);
std::string reportToHTML(const Report &report);

/// Writes `base`.json, `base`.html and `base`.dot; on failure sets `error`.
LogicalResult writeReport(const Report &report, llvm::StringRef base,
                          std::string &error);

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_DIALECT_NNAPI_TRANSFORMS_PARTITIONREPORT_H
