//===- SpecChecks.cpp - What the NNAPI spec says of an nnapi op ---------===//
//
// An nnapi op's operands in its NNAPI operation's order (Operands.cpp), held
// against the spec library: the feature level they need (Layouts.h), whether
// the spec takes them, and the output shapes its rules compute (Shapes.h),
// the same rules the host device and the runtime apply.
//
//===----------------------------------------------------------------------===//

#include "Verifiers.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/Operands.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"
#include "nnapi-mlir/NNAPI/Operations.h"
#include "nnapi-mlir/NNAPI/Shapes.h"

#include "mlir/Dialect/Quant/QuantTypes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::detail;

//===----------------------------------------------------------------------===//
// Feature levels
//===----------------------------------------------------------------------===//

FeatureLevelNeed mlir::nnapi::detail::getSpecFeatureLevel(Operation *op,
                                                          int32_t code) {
  FeatureLevelNeed need;
  SmallVector<NNAPIOperand> ordered;
  nnapi_mlir::spec::Match match;
  std::string error;
  if (failed(orderNNAPIOperands(op, ordered, match, error))) {
    // The verifier refuses such an op; no level runs it.
    need.require(kNoFeatureLevel, error);
    return need;
  }
  // int8 data is written as uint8 (zero point + 128) below level 4, so it
  // needs only what that uint8 data needs.
  if (match.level >= 4 &&
      llvm::any_of(op->getOperandTypes(), [](Type t) {
        return getTensorOperandCode(t) ==
               ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
      })) {
    SmallVector<NNAPIOperand> unsignedOrder;
    nnapi_mlir::spec::Match unsignedMatch;
    std::string unsignedError;
    if (succeeded(orderNNAPIOperands(op, unsignedOrder, unsignedMatch,
                                     unsignedError, /*int8AsUint8=*/true)) &&
        unsignedMatch.level < match.level) {
      match.level = unsignedMatch.level;
      match.why = unsignedMatch.why + " (int8 data written as "
                                      "TENSOR_QUANT8_ASYMM below level 4)";
    }
  }
  need.require(match.level, match.why);
  // 8-bit data inputs quantized unlike the output (CONCATENATION).
  if (op->getNumResults() == 0)
    return need;
  auto out = dyn_cast<quant::UniformQuantizedType>(
      getElementTypeOrSelf(op->getResult(0).getType()));
  if (!out || !out.getStorageType().isInteger(8))
    return need;
  for (Value in : op->getOperands()) {
    auto q = dyn_cast<quant::UniformQuantizedType>(
        getElementTypeOrSelf(in.getType()));
    if (q && q.getStorageType().isInteger(8) &&
        (float(q.getScale()) != float(out.getScale()) ||
         q.getZeroPoint() != out.getZeroPoint()))
      need.require(std::max(1u, nnapi_mlir::requantizingLevel(
                                    nnapi_mlir::operationName(code))),
                   "8-bit inputs quantized unlike the output");
  }
  return need;
}

/// The results' shapes are those NNAPI's output-shape rule of
/// `code` computes from the ordered operands (spec::inferShapes, the rule
/// the host device and the runtime apply too). An op whose tensor operands
/// have dynamic dimensions is checked by the runtime when it specializes the
/// partition to a call's shapes.
static LogicalResult verifySpecShapes(Operation *op, int32_t code,
                                      ArrayRef<NNAPIOperand> ordered,
                                      const nnapi_mlir::spec::Match &match) {
  namespace spec = nnapi_mlir::spec;
  if (!spec::hasShapeRule(code))
    return success();
  size_t count = ordered.size();
  std::vector<spec::Dims> dims(count);
  std::vector<std::vector<uint8_t>> bytes(count);
  std::vector<spec::ShapeOperand> inputs(count);
  auto store = [&](size_t i, const void *data, size_t size) {
    auto *p = static_cast<const uint8_t *>(data);
    bytes[i].assign(p, p + size);
    inputs[i].value = bytes[i].data();
  };
  auto storeInt32s = [&](size_t i, ArrayRef<int64_t> values) {
    SmallVector<int32_t> v(values.begin(), values.end());
    store(i, v.data(), v.size() * sizeof(int32_t));
  };
  for (auto [i, o] : llvm::enumerate(ordered)) {
    spec::ShapeOperand &in = inputs[i];
    in.dims = &dims[i];
    switch (o.kind) {
    case NNAPIOperand::Kind::Tensor: {
      auto type = cast<RankedTensorType>(o.value.getType());
      if (!type.hasStaticShape())
        return success();
      in.type = getTensorOperandCode(type).value_or(-1);
      dims[i].assign(type.getShape().begin(), type.getShape().end());
      DenseIntElementsAttr constant;
      if (type.getElementType().isSignlessInteger(32) &&
          matchPattern(o.value, m_Constant(&constant)))
        storeInt32s(i, llvm::to_vector(llvm::map_range(
                           constant.getValues<APInt>(), [](const APInt &v) {
                             return v.getSExtValue();
                           })));
      break;
    }
    case NNAPIOperand::Kind::Int32: {
      in.type = ANEURALNETWORKS_INT32;
      int32_t v = static_cast<int32_t>(o.integer);
      store(i, &v, sizeof(v));
      break;
    }
    case NNAPIOperand::Kind::Bool: {
      in.type = ANEURALNETWORKS_BOOL;
      uint8_t v = o.integer != 0;
      store(i, &v, sizeof(v));
      break;
    }
    case NNAPIOperand::Kind::Float:
      in.type = ANEURALNETWORKS_FLOAT32;
      store(i, &o.real, sizeof(o.real));
      break;
    case NNAPIOperand::Kind::Int32Tensor:
      in.type = ANEURALNETWORKS_TENSOR_INT32;
      dims[i] = {uint32_t(o.values.size())};
      if (o.rows)
        dims[i] = {o.rows, uint32_t(o.values.size()) / o.rows};
      storeInt32s(i, o.values);
      break;
    case NNAPIOperand::Kind::Omitted:
      break;
    }
  }
  std::vector<spec::ShapeResult> results;
  std::string error;
  if (!spec::inferShapes(code, match, inputs, results, error))
    return op->emitOpError() << error;
  // The shapes; the results' element types are the ODS constraints' and the
  // op verifiers' (the rule's types matter to the host device).
  for (auto [i, r] : llvm::enumerate(results)) {
    if (i >= op->getNumResults())
      break;
    SmallVector<int64_t> expected(r.dims.begin(), r.dims.end());
    if (failed(verifyResultShape(op, expected, i)))
      return failure();
  }
  return success();
}

LogicalResult mlir::nnapi::detail::verifySpecOperands(Operation *op) {
  // Dynamic dimensions only where the spec's shape rules compute the
  // outputs (the runtime specializes such a partition per call).
  int32_t code = cast<NNAPIOperationInterface>(op).getOperationCode();
  if (!nnapi_mlir::spec::hasShapeRule(code))
    for (auto [what, types] :
         {std::pair<StringRef, TypeRange>{"operand", op->getOperandTypes()},
          {"result", op->getResultTypes()}})
      for (auto [i, t] : llvm::enumerate(types))
        if (isDynamicShape(t))
          return op->emitOpError()
                 << what << " #" << i << " must be statically shaped: NNAPI's "
                 << nnapi_mlir::operationName(code)
                 << " has no shape rule for dynamic dimensions";
  SmallVector<NNAPIOperand> ordered;
  nnapi_mlir::spec::Match match;
  std::string error;
  if (failed(orderNNAPIOperands(op, ordered, match, error)))
    return op->emitOpError("has NNAPI operands the NNAPI spec refuses: ")
           << error;
  return verifySpecShapes(op, code, ordered, match);
}

