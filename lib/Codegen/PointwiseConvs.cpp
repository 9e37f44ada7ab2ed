//===- PointwiseConvs.cpp - nnapi-pointwise-conv-as-matmul ----------------===//
//
// 1x1 convolutions over dynamically sized feature maps as fully connected
// layers (Passes.td has the IR it writes).
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Codegen/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIPOINTWISECONVASMATMUL
#include "nnapi-mlir/Codegen/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;

namespace {

struct PointwiseConvAsFullyConnected : OpRewritePattern<tosa::Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::Conv2DOp conv,
                                PatternRewriter &rewriter) const override {
    auto input = dyn_cast<RankedTensorType>(conv.getInput().getType());
    auto weight = dyn_cast<RankedTensorType>(conv.getWeight().getType());
    auto result = dyn_cast<RankedTensorType>(conv.getType());
    // Static feature maps are tosa-optional-decompositions'.
    if (!input || !weight || !result || input.hasStaticShape() ||
        input.getRank() != 4 || !weight.hasStaticShape() ||
        weight.getDimSize(1) != 1 || weight.getDimSize(2) != 1 ||
        input.isDynamicDim(3) || conv.getQuantizationInfo() ||
        !isa<FloatType>(input.getElementType()) ||
        llvm::any_of(conv.getStride(), [](int64_t s) { return s != 1; }) ||
        llvm::any_of(conv.getPad(), [](int64_t p) { return p != 0; }))
      return failure();
    Location loc = conv.getLoc();
    int64_t c = input.getDimSize(3), f = weight.getDimSize(0);
    Type element = input.getElementType();
    auto flatType = RankedTensorType::get({ShapedType::kDynamic, c}, element);
    Value flat = rewriter.create<tosa::ReshapeOp>(
        loc, flatType, conv.getInput(),
        rewriter.getDenseI64ArrayAttr({-1, c}));
    auto filterType = RankedTensorType::get({f, c}, weight.getElementType());
    Value filter =
        rewriter.create<tosa::ReshapeOp>(loc, filterType, conv.getWeight(),
                                         rewriter.getDenseI64ArrayAttr({f, c}));
    auto fcType = RankedTensorType::get({ShapedType::kDynamic, f},
                                        result.getElementType());
    Value fc = rewriter.create<tosa::FullyConnectedOp>(loc, fcType, flat,
                                                       filter, conv.getBias());
    // Activations after it (a ReLU6's clamp) run on the matrix too, so
    // that they join the matmul's tiles.
    SmallVector<Operation *> chain = {conv};
    Operation *last = conv;
    while (last->getResult(0).hasOneUse()) {
      Operation *user = *last->getResult(0).getUsers().begin();
      if (!isa<tosa::ClampOp, tosa::SigmoidOp, tosa::TanhOp, tosa::ErfOp>(
              user) ||
          user->getResult(0).getType() != result)
        break;
      rewriter.setInsertionPoint(user);
      OperationState state(user->getLoc(), user->getName());
      state.addOperands(fc);
      state.addAttributes(user->getAttrs());
      state.addTypes(fcType);
      fc = rewriter.create(state)->getResult(0);
      last = user;
      chain.push_back(user);
    }
    // [N, H, W] are the input's (1x1, unit strides, no padding).
    SmallVector<OpFoldResult> sizes =
        tensor::getMixedSizes(rewriter, loc, conv.getInput());
    for (int64_t d = 0; d < 4; ++d)
      if (!result.isDynamicDim(d))
        sizes[d] = rewriter.getIndexAttr(result.getDimSize(d));
    // (Not tensor.expand_shape: MLIR 19's bufferization of one with two
    // dynamic sizes in a group crashes; tensor.reshape takes them as a
    // shape tensor.)
    SmallVector<Value> extents;
    for (OpFoldResult size : sizes)
      extents.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, size));
    Value shape = rewriter.create<tensor::FromElementsOp>(loc, extents);
    Value reshaped = rewriter.create<tensor::ReshapeOp>(loc, result, fc, shape);
    rewriter.replaceOp(chain.pop_back_val(), reshaped);
    while (!chain.empty()) // each used only by the next, gone
      rewriter.eraseOp(chain.pop_back_val());
    return success();
  }
};

struct PointwiseConvAsMatmulPass
    : public nnapi::impl::NNAPIPointwiseConvAsMatmulBase<
          PointwiseConvAsMatmulPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<PointwiseConvAsFullyConnected>(&getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(),
                                            std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
