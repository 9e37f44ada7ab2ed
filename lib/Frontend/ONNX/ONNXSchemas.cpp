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

bool nnapi_mlir::onnx_frontend::inputMayBeEmpty(const std::string &opType,
                                                int64_t opset, int index) {
  const onnx::OpSchema *schema =
      onnx::OpSchemaRegistry::Schema(opType, int(opset), onnx::ONNX_DOMAIN);
  if (!schema || schema->inputs().empty() || index < 0)
    return false;
  const auto &inputs = schema->inputs();
  const auto &formal = inputs[std::min<size_t>(index, inputs.size() - 1)];
  if (size_t(index) >= inputs.size() &&
      formal.GetOption() != onnx::OpSchema::Variadic)
    return false;
  return formal.GetOption() == onnx::OpSchema::Optional;
}
