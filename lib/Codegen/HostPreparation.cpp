//===- HostPreparation.cpp - Small fixes before lowering to the host ------===//
//
// nnapi-copy-aliased-results, nnapi-return-fresh-buffers,
// nnapi-inline-dealloc-helper and nnapi-expand-math: each covers one gap
// between TOSA-to-linalg output and the upstream host lowering passes.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPICOPYALIASEDRESULTS
#define GEN_PASS_DEF_NNAPIEXPANDMATH
#define GEN_PASS_DEF_NNAPIINLINEDEALLOCHELPER
#define GEN_PASS_DEF_NNAPIRETURNFRESHBUFFERS
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

/// Replaces `%a = alloc : A` (whose reshape `%r : R` is returned) by
/// `%n = alloc : R; %a' = inverse-reshape(%n)`, and returns `%n`.
template <typename ReshapeOp, typename InverseOp>
bool returnFreshBuffer(OpOperand &result) {
  auto reshape = result.get().getDefiningOp<ReshapeOp>();
  if (!reshape)
    return false;
  auto alloc = reshape.getSrc().template getDefiningOp<memref::AllocOp>();
  MemRefType type = reshape.getResultType();
  if (!alloc || !type.hasStaticShape() || !type.getLayout().isIdentity() ||
      !alloc.getType().getLayout().isIdentity() ||
      alloc->getBlock() != reshape->getBlock())
    return false;
  OpBuilder builder(alloc);
  auto fresh = builder.create<memref::AllocOp>(alloc.getLoc(), type,
                                               alloc.getAlignmentAttr());
  Value view = builder.create<InverseOp>(alloc.getLoc(), alloc.getType(),
                                         fresh.getResult(),
                                         reshape.getReassociationIndices());
  alloc.replaceAllUsesWith(view);
  alloc.erase();
  result.set(fresh.getResult());
  return true;
}

struct ReturnFreshBuffersPass
    : public nnapi::impl::NNAPIReturnFreshBuffersBase<ReturnFreshBuffersPass> {
  void runOnOperation() override {
    getOperation().walk([](func::ReturnOp ret) {
      for (OpOperand &result : ret->getOpOperands())
        if (!returnFreshBuffer<memref::ExpandShapeOp, memref::CollapseShapeOp>(
                result))
          returnFreshBuffer<memref::CollapseShapeOp, memref::ExpandShapeOp>(
              result);
    });
  }
};

struct InlineDeallocHelperPass
    : public nnapi::impl::NNAPIInlineDeallocHelperBase<
          InlineDeallocHelperPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto helper = module.lookupSymbol<func::FuncOp>("dealloc_helper");
    if (!helper)
      return;
    if (!helper.isPrivate() || !helper.getBody().hasOneBlock() ||
        helper.getNumResults()) {
      helper.emitError("expected bufferization's private, single-block "
                       "dealloc helper without results");
      return signalPassFailure();
    }
    Block &body = helper.getBody().front();
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      if (call.getCallee() == helper.getSymName())
        calls.push_back(call);
    });
    for (func::CallOp call : calls) {
      IRMapping map;
      map.map(body.getArguments(), call.getOperands());
      OpBuilder b(call);
      for (Operation &op : body.without_terminator())
        b.clone(op, map);
      call.erase();
    }
    helper.erase();
  }
};

struct ExpandMathPass
    : public nnapi::impl::NNAPIExpandMathBase<ExpandMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateExpandRsqrtPattern(patterns);
    if (failed(applyPatternsAndFoldGreedily(getOperation(),
                                            std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
