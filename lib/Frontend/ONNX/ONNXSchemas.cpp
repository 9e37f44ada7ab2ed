//===- ONNXSchemas.cpp - The operators libonnx defines ----------*- C++ -*-===//
//
// Compiled with exceptions and RTTI (see CMakeLists.txt).
//
//===----------------------------------------------------------------------===//

#include "ONNXSchemas.h"

#include "onnx/defs/schema.h"

#include <algorithm>

std::vector<std::string> nnapi_mlir::onnx_frontend::allDefaultDomainOps() {
  std::vector<std::string> ops;
  for (const onnx::OpSchema &schema : onnx::OpSchemaRegistry::get_all_schemas())
    if (schema.domain() == onnx::ONNX_DOMAIN)
      ops.push_back(schema.Name());
  std::sort(ops.begin(), ops.end());
  ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  return ops;
}
