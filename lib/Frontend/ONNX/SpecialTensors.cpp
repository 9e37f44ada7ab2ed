//===- SpecialTensors.cpp - Tensors TOSA cannot compute on ----------------===//
//
// Two kinds of tensor the operator handlers never see. bfloat16 is carried
// and converted, not computed on: LLVM has no bfloat16 arithmetic on most
// targets, NNAPI no bfloat16 at all, so only the nodes that move or convert
// it may touch it (the conversions are Emitter::castTo's). Outputs without
// elements have nothing to compute, and TOSA has no zero-size dimensions:
// they are empty constants.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

using namespace mlir;
using namespace mlir::nnapi::onnx_import;

LogicalResult Importer::checkBFloat16Use(const onnx::NodeProto &node) {
  StringRef op = node.op_type();
  if (op == "Cast" || op == "CastLike" || op == "Identity" || op == "Constant")
    return success();
  auto isBF16 = [&](const std::string &name) {
    if (name.empty())
      return false;
    if (auto v = values.find(name); v != values.end())
      return typeOf(v->second).getElementType().isBF16();
    if (DenseElementsAttr c = constantOf(name))
      return c.getElementType().isBF16();
    auto it = inferred.find(name);
    return it != inferred.end() && it->second->has_tensor_type() &&
           it->second->tensor_type().elem_type() ==
               onnx::TensorProto::BFLOAT16;
  };
  if (llvm::any_of(node.input(), isBF16) || llvm::any_of(node.output(), isBF16))
    return nodeError(node) << "bfloat16 tensors are carried and converted "
                              "(Constant, Cast, CastLike, Identity), not "
                              "computed on";
  return success();
}

std::optional<LogicalResult>
Importer::defineEmptyOutputs(NodeContext &context) {
  const onnx::NodeProto &node = context.node;
  // Shape inference must give every output a zero-size dimension (a Slice
  // whose starts lie beyond the end, a Reshape to a zero dimension). Not
  // for control flow, whose bodies still run, nor for Range and TopK, whose
  // inference counts a zero delta or K as no elements where ONNX calls
  // them invalid and the handlers refuse them.
  StringRef op = node.op_type();
  if (node.output_size() == 0 || op == "Loop" || op == "If" || op == "Scan" ||
      op == "Range" || op == "TopK")
    return std::nullopt;
  for (const std::string &name : node.output()) {
    auto it = inferred.find(name);
    if (name.empty() || it == inferred.end() || !isStatic(*it->second) ||
        llvm::none_of(it->second->tensor_type().shape().dim(),
                      [](const auto &d) { return d.dim_value() == 0; }))
      return std::nullopt;
  }
  // Compile-time constants, which a later node may read as one (Resize's
  // empty scales from a Constant node).
  for (int i = 0; i < node.output_size(); ++i) {
    FailureOr<RankedTensorType> t = context.out(i);
    if (failed(t))
      return failure();
    (void)context.defineConstant(
        i, DenseElementsAttr::get(*t, ArrayRef<Attribute>{}));
  }
  return success();
}
