//===- ONNXLoader.cpp - Parse, upgrade and shape-infer an ONNX model ------===//

#include "ONNXLoader.h"

#include "onnx/checker.h"
#include "onnx/defs/schema.h"
#include "onnx/shape_inference/implementation.h"
#include "onnx/version_converter/convert.h"

#include <unordered_set>


namespace nnapi_mlir::onnx_frontend {

static int64_t defaultOpset(const onnx::ModelProto &model) {
  for (const auto &o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      return o.version();
  return -1;
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
        error = "'" + path + "': graph output '" + v.name() +
                "' is never produced";
        return false;
      }
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
