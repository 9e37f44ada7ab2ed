//===- ONNXSchemas.h - The operators libonnx defines ------------*- C++ -*-===//
//
// Which ONNX operators exist is libonnx's fact. Like ONNXLoader.h, this is
// implemented in a file compiled with exceptions and RTTI, the only kind
// that may call libonnx's C++ API.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_FRONTEND_ONNX_ONNXSCHEMAS_H
#define NNAPI_MLIR_LIB_FRONTEND_ONNX_ONNXSCHEMAS_H

#include <cstdint>
#include <string>
#include <vector>

namespace nnapi_mlir::onnx_frontend {

/// Every operator of the default domain (ai.onnx) that libonnx has a schema
/// for, sorted.
std::vector<std::string> allDefaultDomainOps();

/// Whether input `index` of default-domain operator `opType` at `opset` may
/// be left out (an empty name): an optional formal input. Inputs of a
/// variadic formal input may not; unknown operators allow nothing.
bool inputMayBeEmpty(const std::string &opType, int64_t opset, int index);

} // namespace nnapi_mlir::onnx_frontend

#endif // NNAPI_MLIR_LIB_FRONTEND_ONNX_ONNXSCHEMAS_H
