//===- CompositeOp.cpp - nnapi.composite and nnapi.yield ------------------===//
//
// The named composite of TOSA ops (NNAPICompositeOps.td): its verifier and
// its typed parameters.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::nnapi;

LogicalResult CompositeOp::verify() {
  if (getName().empty())
    return emitOpError("needs a non-empty name");
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError() << "body takes " << body.getNumArguments()
                         << " arguments but the composite has "
                         << getInputs().size() << " inputs";
  for (auto [i, input, arg] :
       llvm::enumerate(getInputs().getTypes(), body.getArgumentTypes()))
    if (input != arg)
      return emitOpError() << "body argument " << i << " has type " << arg
                           << " but input " << i << " has type " << input;
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (!yield)
    return emitOpError("body must end with nnapi.yield");
  if (yield.getValues().size() != getNumResults())
    return emitOpError() << "body yields " << yield.getValues().size()
                         << " values but the composite has "
                         << getNumResults() << " results";
  for (auto [i, value, result] :
       llvm::enumerate(yield.getValues().getTypes(), getResultTypes()))
    if (value != result)
      return emitOpError() << "body yields " << value << " as result " << i
                           << " of type " << result;
  return success();
}

std::optional<int64_t> CompositeOp::getIntParameter(StringRef key) {
  // (Signless only: a signed or unsigned one is not what Composites.h says.)
  if (auto attr = dyn_cast_or_null<IntegerAttr>(
          getCompositeAttributes().get(key));
      attr && attr.getType().isSignlessInteger())
    return attr.getInt();
  return std::nullopt;
}

std::optional<double> CompositeOp::getFloatParameter(StringRef key) {
  if (auto attr =
          dyn_cast_or_null<FloatAttr>(getCompositeAttributes().get(key)))
    return attr.getValueAsDouble();
  return std::nullopt;
}

std::optional<StringRef> CompositeOp::getStringParameter(StringRef key) {
  if (auto attr =
          dyn_cast_or_null<StringAttr>(getCompositeAttributes().get(key)))
    return attr.getValue();
  return std::nullopt;
}

std::optional<SmallVector<int64_t>>
CompositeOp::getIntArrayParameter(StringRef key) {
  if (auto attr = dyn_cast_or_null<DenseI64ArrayAttr>(
          getCompositeAttributes().get(key)))
    return SmallVector<int64_t>(attr.asArrayRef());
  return std::nullopt;
}

void CompositeOp::inlineBody() {
  Block &body = getBody().front();
  IRMapping map;
  map.map(body.getArguments(), getInputs());
  OpBuilder b(*this);
  for (Operation &inner : body.without_terminator())
    b.clone(inner, map);
  for (auto [result, value] : llvm::zip(getResults(), getYield()->getOperands()))
    result.replaceAllUsesWith(map.lookupOrDefault(value));
  erase();
}

#define GET_OP_CLASSES
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPICompositeOps.cpp.inc"
