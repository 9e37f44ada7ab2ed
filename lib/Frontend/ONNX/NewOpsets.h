//===- NewOpsets.h - Read ONNX opsets 18 to 21 as opset 17 ------*- C++ -*-===//
//
// Rewrites a model of a default-domain opset newer than libonnx knows (up to
// kNewestNewOpset) into its opset-17 form, so that libonnx's checker and
// shape inference and the importer's handlers read it. NewOpsets.cpp says
// why and how; its rules are listed by newOpsetRules() for docs/ops.md.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_FRONTEND_ONNX_NEWOPSETS_H
#define NNAPI_MLIR_LIB_FRONTEND_ONNX_NEWOPSETS_H

#include "onnx/onnx_pb.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nnapi_mlir::onnx_frontend {

/// The opset models are rewritten to: the newest libonnx 1.12 knows.
constexpr int64_t kNewestOldOpset = 17;
/// The newest default-domain opset (and its IR version) the rules cover.
constexpr int64_t kNewestNewOpset = 21;
constexpr int64_t kNewestIRVersion = 10;

/// Rewrites `model` (default-domain opset `opset`, 18 to kNewestNewOpset)
/// into an opset-17, IR-version-8 model computing the same. False with
/// `error` (naming the node, the opset and why) for what it cannot express.
bool adaptNewOpsets(onnx::ModelProto &model, int64_t opset,
                    const std::string &path, std::string &error);

/// `model` with `graph`'s values typed by libonnx's lenient shape inference
/// (what it cannot infer stays unknown), on a copy in which weights of more
/// than a few elements are inputs of their type (their values are not
/// needed). The graph's nodes are `first` then `then` when either is given.
onnx::ModelProto inferLeniently(
    const onnx::ModelProto &model, const onnx::GraphProto &graph,
    const google::protobuf::RepeatedPtrField<onnx::NodeProto> *first = nullptr,
    const google::protobuf::RepeatedPtrField<onnx::NodeProto> *then = nullptr);

/// One rule of the rewrite, for docs/ops.md.
struct NewOpsetRule {
  const char *opType;
  int64_t since;
  const char *handling;
};
std::vector<NewOpsetRule> newOpsetRules();

} // namespace nnapi_mlir::onnx_frontend

#endif // NNAPI_MLIR_LIB_FRONTEND_ONNX_NEWOPSETS_H
