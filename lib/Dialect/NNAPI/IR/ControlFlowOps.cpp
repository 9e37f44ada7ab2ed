//===- ControlFlowOps.cpp - nnapi.if and nnapi.while ----------------------===//
//
// Verifiers: each region is a model whose block arguments are the op's
// inputs and whose yield gives what NNAPI expects of that model (IF's
// branches the results, WHILE's condition one boolean and its body the
// next loop-carried values). The feature level: 4, or what an operation
// inside needs.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"

using namespace mlir;
using namespace mlir::nnapi;

namespace {

/// Checks that `region`'s block takes `inputs`' types and yields `results`
/// (when given); `what` names the region in messages.
LogicalResult verifyModelRegion(Operation *op, Region &region, StringRef what,
                                TypeRange inputs,
                                std::optional<TypeRange> results) {
  Block &block = region.front();
  if (block.getNumArguments() != inputs.size())
    return op->emitOpError() << "the " << what << " takes "
                             << block.getNumArguments()
                             << " block arguments; it must take the op's "
                             << inputs.size() << " inputs";
  for (auto [i, arg, input] :
       llvm::enumerate(block.getArgumentTypes(), inputs))
    if (arg != input)
      return op->emitOpError() << "block argument " << i << " of the " << what
                               << " is " << arg << ", input " << i << " is "
                               << input;
  auto yield = dyn_cast<YieldOp>(block.getTerminator());
  if (!yield)
    return op->emitOpError() << "the " << what << " must end with nnapi.yield";
  if (results && yield.getValues().getTypes() != *results)
    return op->emitOpError()
           << "the " << what << " yields " << yield.getValues().getTypes()
           << "; it must yield " << *results;
  return success();
}

bool isOneBool(Type type) {
  auto t = dyn_cast<RankedTensorType>(type);
  return t && t.hasStaticShape() && t.getNumElements() == 1 &&
         t.getElementType().isInteger(1);
}

FeatureLevelNeed controlFlowLevel(Operation *op) {
  FeatureLevelNeed need;
  std::string name = op->getName().getStringRef().drop_front(6).upper();
  need.require(4, name);
  for (Region &region : op->getRegions())
    region.walk([&](Operation *inner) {
      FeatureLevelNeed innerNeed;
      if (auto nnapi = dyn_cast<NNAPIOperationInterface>(inner))
        innerNeed = nnapi.getFeatureLevelNeed();
      need.require(innerNeed.level, innerNeed.why + " inside " + name);
    });
  return need;
}

} // namespace

LogicalResult IfOp::verify() {
  if (getCondition().getType().getNumElements() != 1)
    return emitOpError() << "the condition must hold one boolean, not "
                         << getCondition().getType();
  for (auto [region, what] : {std::pair{&getThenBranch(), "then branch"},
                              std::pair{&getElseBranch(), "else branch"}})
    if (failed(verifyModelRegion(*this, *region, what, getInputs().getTypes(),
                                 getOutputs().getTypes())))
      return failure();
  return success();
}

FeatureLevelNeed IfOp::getFeatureLevelNeed() {
  return controlFlowLevel(*this);
}

LogicalResult WhileOp::verify() {
  TypeRange inputs = getInputs().getTypes(), results = getOutputs().getTypes();
  if (results.size() > inputs.size() ||
      inputs.take_front(results.size()) != results)
    return emitOpError() << "its results " << results
                         << " must be the types of its first inputs "
                         << inputs;
  if (failed(verifyModelRegion(*this, getCondition(), "condition", inputs,
                               std::nullopt)) ||
      failed(verifyModelRegion(*this, getBody(), "body", inputs, results)))
    return failure();
  Operation *yield = getCondition().front().getTerminator();
  if (yield->getNumOperands() != 1 || !isOneBool(yield->getOperand(0).getType()))
    return emitOpError() << "the condition must yield one boolean tensor, "
                            "not "
                         << yield->getOperandTypes();
  return success();
}

FeatureLevelNeed WhileOp::getFeatureLevelNeed() {
  return controlFlowLevel(*this);
}
