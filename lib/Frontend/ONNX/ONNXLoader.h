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

#include <string>

namespace nnapi_mlir::onnx_frontend {

/// How messages name a node: its name, or its first output's if unnamed.
inline std::string nodeName(const onnx::NodeProto &node) {
  if (!node.name().empty())
    return node.name();
  return node.output_size() ? node.output(0) : "?";
}

/// Parses the serialized model `data` (from `name`, for messages), upgrades
/// a default-domain opset below `minOpset` and runs strict shape inference.
/// Returns false with `error`.
bool loadONNXModel(const std::string &data, const std::string &name,
                   int64_t minOpset, onnx::ModelProto &model,
                   std::string &error);

} // namespace nnapi_mlir::onnx_frontend

#endif
