//===- Fusion.cpp - Fold activations into their producers -----------------===//

#include "nnapi-mlir/Dialect/NNAPI/IR/Fusion.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"

using namespace mlir;
using namespace mlir::nnapi;

namespace {
constexpr StringLiteral kFusedActivation = "fused_activation";

template <typename ActivationOp>
struct FuseActivation : OpRewritePattern<ActivationOp> {
  FuseActivation(MLIRContext *ctx, FuseCode code)
      : OpRewritePattern<ActivationOp>(ctx), code(code) {}

  LogicalResult matchAndRewrite(ActivationOp op,
                                PatternRewriter &rewriter) const override {
    Operation *producer = op.getInput().getDefiningOp();
    if (!producer ||
        !isa<AddOp, SubOp, MulOp, DivOp, Conv2DOp, DepthwiseConv2DOp,
             FullyConnectedOp, MaxPool2DOp, AveragePool2DOp>(producer))
      return rewriter.notifyMatchFailure(op, "producer has no fused activation");
    if (!producer->hasOneUse())
      return rewriter.notifyMatchFailure(op, "producer has other users");
    auto current = producer->getAttrOfType<FuseCodeAttr>(kFusedActivation);
    if (current && current.getValue() != FuseCode::none)
      return rewriter.notifyMatchFailure(op, "producer already fuses one");
    rewriter.modifyOpInPlace(producer, [&] {
      producer->setAttr(kFusedActivation,
                        FuseCodeAttr::get(rewriter.getContext(), code));
    });
    rewriter.replaceOp(op, producer->getResults());
    return success();
  }

  FuseCode code;
};
} // namespace

void mlir::nnapi::populateFuseActivationPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<FuseActivation<ReluOp>>(ctx, FuseCode::relu);
  patterns.add<FuseActivation<Relu1Op>>(ctx, FuseCode::relu1);
  patterns.add<FuseActivation<Relu6Op>>(ctx, FuseCode::relu6);
}
