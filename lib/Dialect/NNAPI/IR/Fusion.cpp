//===- Fusion.cpp - Fold activations into their producers -----------------===//

#include "nnapi-mlir/Dialect/NNAPI/IR/Fusion.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"

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
    auto nnapiOp = dyn_cast_or_null<NNAPIOperationInterface>(producer);
    if (!nnapiOp || !hasFusedActivationOperand(nnapiOp.getOperationCode()))
      return rewriter.notifyMatchFailure(op, "producer has no fused activation");
    if (!producer->hasOneUse())
      return rewriter.notifyMatchFailure(op, "producer has other users");
    auto current =
        producer->template getAttrOfType<FuseCodeAttr>(kFusedActivation);
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

bool mlir::nnapi::isFusableActivation(int32_t opcode) {
  return opcode == ANEURALNETWORKS_RELU || opcode == ANEURALNETWORKS_RELU1 ||
         opcode == ANEURALNETWORKS_RELU6;
}

void mlir::nnapi::populateFuseActivationPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<FuseActivation<ReluOp>>(ctx, FuseCode::relu);
  patterns.add<FuseActivation<Relu1Op>>(ctx, FuseCode::relu1);
  patterns.add<FuseActivation<Relu6Op>>(ctx, FuseCode::relu6);
}
