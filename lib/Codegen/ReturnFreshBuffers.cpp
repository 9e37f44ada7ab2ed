//===- ReturnFreshBuffers.cpp - nnapi-return-fresh-buffers ----------------===//
//
// nnapi-return-fresh-buffers: a function that returns a reshape of a buffer
// it allocates returns a buffer allocated in the result's shape instead (the
// original becomes a view of it), so the result can be written in place.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIRETURNFRESHBUFFERS
#include "nnapi-mlir/Codegen/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;

namespace {

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

} // namespace
