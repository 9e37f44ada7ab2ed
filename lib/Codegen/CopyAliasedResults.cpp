//===- CopyAliasedResults.cpp - nnapi-copy-aliased-results ----------------===//
//
// nnapi-copy-aliased-results: a call operand that may bufferize to a strided
// view, and a returned value that aliases an argument, a constant or another
// result, becomes a copy into a fresh tensor, so that bufferization gives
// every call and result a buffer of its own with an identity layout.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPICOPYALIASEDRESULTS
#include "nnapi-mlir/Codegen/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;

namespace {

/// Replaces `operand` by a copy of its value into a fresh tensor.
void copyOperand(OpBuilder &builder, OpOperand &operand, Location loc) {
  auto type = cast<RankedTensorType>(operand.get().getType());
  SmallVector<Value> dynamicSizes;
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (type.isDynamicDim(d))
      dynamicSizes.push_back(
          builder.create<tensor::DimOp>(loc, operand.get(), d));
  Value empty = builder.create<tensor::EmptyOp>(loc, type, dynamicSizes);
  operand.set(
      builder.create<linalg::CopyOp>(loc, operand.get(), empty).getResult(0));
}

/// Whether `v` may bufferize to a strided view: a slice, or a reshape of
/// one.
bool mayBeStridedView(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<tensor::ExtractSliceOp>(def))
      return true;
    if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def))
      return false;
    v = def->getOperand(0);
  }
  return false;
}

struct CopyAliasedResultsPass
    : public nnapi::impl::NNAPICopyAliasedResultsBase<CopyAliasedResultsPass> {
  void runOnOperation() override {
    // Call operands that bufferize to strided views (a slice, or a reshape
    // of one: a stepped ONNX Slice's column): function arguments have
    // identity layouts, and a cast between the two is invalid.
    getOperation().walk([&](func::CallOp call) {
      OpBuilder builder(call);
      for (OpOperand &operand : call->getOpOperands())
        if (isa<RankedTensorType>(operand.get().getType()) &&
            mayBeStridedView(operand.get()))
          copyOperand(builder, operand, call.getLoc());
    });
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      func.walk([&](func::ReturnOp ret) {
        llvm::SmallPtrSet<Value, 8> seen;
        OpBuilder builder(ret);
        for (OpOperand &operand : ret->getOpOperands()) {
          Value v = operand.get();
          if (!isa<RankedTensorType>(v.getType()))
            continue;
          bool aliased = isa<BlockArgument>(v) ||
                         matchPattern(v, m_Constant()) ||
                         !seen.insert(v).second;
          if (!aliased)
            continue;
          copyOperand(builder, operand, ret.getLoc());
        }
      });
    }
  }
};

} // namespace
