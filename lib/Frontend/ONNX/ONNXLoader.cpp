//===- ONNXLoader.cpp - Parse, upgrade and shape-infer an ONNX model ------===//

#include "ONNXLoader.h"

#include "onnx/checker.h"
#include "onnx/defs/schema.h"
#include "onnx/shape_inference/implementation.h"
#include "onnx/version_converter/convert.h"

#include <unordered_map>
#include <unordered_set>

namespace nnapi_mlir::onnx_frontend {

static int64_t defaultOpset(const onnx::ModelProto &model) {
  for (const auto &o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      return o.version();
  return -1;
}

/// ONNX's shape inference gives Expand, Reshape and ConstantOfShape a result
/// of as many dimensions as their shape operand has elements, and allocates
/// each: a shape operand declared with 10^8 elements exhausts memory before
/// any check of ours runs. Ranks above kMaxRank are refused first.
static bool checkShapeOperands(const onnx::ModelProto &model,
                               const std::string &path, std::string &error) {
  constexpr int64_t kMaxRank = 64;
  const onnx::GraphProto &graph = model.graph();
  std::unordered_map<std::string, int64_t> lengths; // of 1-D declared values
  for (const auto &t : graph.initializer())
    if (t.dims_size() == 1)
      lengths[t.name()] = t.dims(0);
  auto declared = [&](const onnx::ValueInfoProto &v) {
    if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape())
      return;
    const auto &shape = v.type().tensor_type().shape();
    if (shape.dim_size() == 1 && shape.dim(0).has_dim_value())
      lengths[v.name()] = shape.dim(0).dim_value();
  };
  for (const auto &v : graph.input())
    declared(v);
  for (const auto &v : graph.value_info())
    declared(v);
  static const std::pair<const char *, int> kShapeOperands[] = {
      {"Expand", 1}, {"Reshape", 1}, {"ConstantOfShape", 0}};
  for (const auto &node : graph.node())
    for (auto [type, index] : kShapeOperands) {
      if (node.op_type() != type || node.input_size() <= index)
        continue;
      auto it = lengths.find(node.input(index));
      if (it == lengths.end() || it->second <= kMaxRank)
        continue;
      error = "'" + path + "': node '" + nodeName(node) + "' (" + type +
              "): its shape operand '" + it->first + "' has " +
              std::to_string(it->second) + " elements; ranks above " +
              std::to_string(kMaxRank) + " are not supported";
      return false;
    }
  return true;
}

bool loadONNXModel(const std::string &data, const std::string &path,
                   int64_t minOpset, onnx::ModelProto &model,
                   std::string &error) {
  if (data.empty() || !model.ParseFromString(data)) {
    error = "'" + path + "' is not an ONNX model (protobuf parsing failed)";
    return false;
  }
  if (!model.has_graph() || model.ir_version() <= 0) {
    error = "'" + path + "' is not an ONNX model (no graph or IR version)";
    return false;
  }
  try {
    int64_t opset = defaultOpset(model);
    if (opset < 0) {
      error = "'" + path + "' imports no default-domain (ai.onnx) opset";
      return false;
    }
    // The checker validates every node against its schema (input counts,
    // attribute types), so the importer can rely on the structure.
    onnx::checker::check_model(model);
    // The checker lets a graph output that nothing produces through, and
    // ONNX's version converter dereferences its missing producer.
    std::unordered_set<std::string> defined;
    const onnx::GraphProto &graph = model.graph();
    for (const auto &v : graph.input())
      defined.insert(v.name());
    for (const auto &t : graph.initializer())
      defined.insert(t.name());
    for (const auto &node : graph.node())
      defined.insert(node.output().begin(), node.output().end());
    for (const auto &v : graph.output())
      if (!defined.count(v.name())) {
        error =
            "'" + path + "': graph output '" + v.name() + "' is never produced";
        return false;
      }
    if (!checkShapeOperands(model, path, error))
      return false;
    if (opset < minOpset)
      model = onnx::version_conversion::ConvertVersion(model, int(minOpset));
    onnx::ShapeInferenceOptions options{/*check_type=*/true,
                                        /*error_mode=*/1,
                                        /*enable_data_propagation=*/true};
    onnx::shape_inference::InferShapes(
        model, onnx::OpSchemaRegistry::Instance(), options);
  } catch (const std::exception &e) {
    error = "'" + path + "': " + e.what();
    return false;
  }
  return true;
}

} // namespace nnapi_mlir::onnx_frontend
