//===- ONNXLoader.h - Parse, upgrade and shape-infer an ONNX model -*- C++
//-*-===//
//
// The only code that calls into libonnx's C++ API, which reports errors with
// exceptions: it is compiled with exceptions and RTTI, apart from the MLIR
// code, and turns every exception into an error string.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_FRONTEND_ONNX_ONNXLOADER_H
#define NNAPI_MLIR_LIB_FRONTEND_ONNX_ONNXLOADER_H

#include "onnx/onnx_pb.h"

#include <map>
#include <string>
#include <vector>

namespace nnapi_mlir::onnx_frontend {

/// The bytes one element of ONNX data type `type` takes in raw_data; 0 for
/// strings and the types this compiler does not read.
inline size_t elementBytes(int32_t type) {
  switch (type) {
  case onnx::TensorProto::DOUBLE:
  case onnx::TensorProto::INT64:
  case onnx::TensorProto::UINT64:
  case onnx::TensorProto::COMPLEX64:
    return 8;
  case onnx::TensorProto::FLOAT:
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::UINT32:
    return 4;
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16:
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::UINT16:
    return 2;
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
  case onnx::TensorProto::BOOL:
    return 1;
  case onnx::TensorProto::COMPLEX128:
    return 16;
  default:
    return 0;
  }
}

/// How messages name a node: its name, or its first output's if unnamed.
inline std::string nodeName(const onnx::NodeProto &node) {
  if (!node.name().empty())
    return node.name();
  return node.output_size() ? node.output(0) : "?";
}

struct LoadOptions {
  /// A default-domain opset below this is upgraded to it.
  int64_t minOpset = 0;
  /// Shapes that replace graph inputs' declared ones, by name (see
  /// mlir::nnapi::ONNXImportOptions::inputShapes); may be null.
  const std::map<std::string, std::vector<int64_t>> *inputShapes = nullptr;
  /// Serialized TensorProtos that replace graph inputs, by name (see
  /// mlir::nnapi::ONNXImportOptions::inputValues); may be null.
  const std::map<std::string, std::string> *inputValues = nullptr;
  /// Receives the graph inputs' names in the model's order, taken before
  /// the inputs in `inputValues` become initializers (and leave the input
  /// list); the importer keeps them as arguments in their places. May be
  /// null.
  std::vector<std::string> *inputOrder = nullptr;
  /// Every float32 tensor becomes float64 (toFloat64) before anything else.
  bool float64 = false;
};

/// Puts the nodes of `g`, and of the graphs they hold, in topological order
/// (GraphPreparation.cpp); a graph with a cycle is left as it is and
/// `cycle` says so.
void sortTopologically(onnx::GraphProto &g, std::string &cycle);

/// Gives the graph outputs declared without a type or a shape what shape
/// inference finds for them; false with `error` for one it cannot find.
bool typeGraphOutputs(onnx::ModelProto &model, const std::string &path,
                      std::string &error);

/// Makes `graph` (and the graphs its nodes hold) compute in float64: float32
/// inputs, outputs, value types, initializers, constants and casts become
/// float64, except the constants feeding inputs that only take float32
/// (Resize's and Upsample's scales). False with `error` for what cannot be
/// (external data).
bool toFloat64(onnx::GraphProto &graph, const std::string &path,
               std::string &error);

/// Parses the serialized model `data` (from `name`, for messages), sets the
/// input shapes given, runs shape inference, upgrades an old default-domain
/// opset and runs strict shape inference with data propagation. Returns
/// false with `error`.
bool loadONNXModel(const std::string &data, const std::string &name,
                   const LoadOptions &options, onnx::ModelProto &model,
                   std::string &error);

/// What is known of one input of a node when its outputs are inferred: a
/// compile-time value (`value` set), or a type.
struct KnownInput {
  std::string name;
  const onnx::TensorProto *value = nullptr;
  onnx::TypeProto type;
};

/// Runs ONNX's shape inference (with data propagation) on `node` alone, at
/// the default-domain `opset`, with its inputs as known: for a node whose
/// outputs the whole-graph inference left without a static shape because an
/// input's value was only known after the importer folded it (e.g. a
/// Reshape fed by Shape -> Gather -> Concat, which libonnx 1.12 does not
/// propagate through Gather). `outputs` receives one type per node output
/// (without a shape where even this cannot tell). False with `error`.
bool inferNodeTypes(const onnx::NodeProto &node, int64_t opset,
                    const std::vector<KnownInput> &inputs,
                    std::vector<onnx::TypeProto> &outputs, std::string &error);

/// The model's default-domain (ai.onnx) opset, or -1 if it imports none.
int64_t defaultOpset(const onnx::ModelProto &model);

} // namespace nnapi_mlir::onnx_frontend

#endif
