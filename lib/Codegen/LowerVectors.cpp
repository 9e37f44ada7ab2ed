//===- LowerVectors.cpp - Vector ops on buffers to what LLVM selects well -===//
//
// nnapi-lower-vectors, after bufferization: vector.contract becomes outer
// products and those FMAs; n-D transfers become 1-D loads and stores (with
// full/partial splitting for transfers that may run out of bounds);
// multi-reductions, shape casts, transposes and broadcasts are lowered to
// 1-D operations. Each group of rewrites runs to a fixed point before the
// next, in the order the lowering needs.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Codegen/Passes.h"

#include "DotProducts.h"
#include "nnapi-mlir/Transforms/Constants.h"

#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorTransforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>
#include <limits>

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPILOWERVECTORS
#include "nnapi-mlir/Codegen/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;

namespace {

/// MLIR's polynomial log takes the exponent from the input's bits, so every
/// subnormal input (below 2^-126) comes out as log(2^-126). Such inputs are
/// scaled by 2^23 into the normal range first and 23 ln 2 is subtracted
/// from the result. (Zero, negative, infinite and NaN inputs keep their
/// results: -inf, NaN, inf, NaN.)
void scaleSubnormalLogInputs(Operation *root) {
  SmallVector<math::LogOp> logs;
  root->walk([&](math::LogOp op) {
    auto type = dyn_cast<VectorType>(op.getType());
    if (type && type.getElementType().isF32())
      logs.push_back(op);
  });
  for (math::LogOp op : logs) {
    OpBuilder b(op);
    Location loc = op.getLoc();
    auto type = cast<VectorType>(op.getType());
    auto splat = [&](float value) -> Value {
      return b.create<arith::ConstantOp>(
          loc, DenseElementsAttr::get(type, b.getF32FloatAttr(value)));
    };
    Value x = op.getOperand();
    Value subnormal = b.create<arith::CmpFOp>(
        loc, arith::CmpFPredicate::OLT, x,
        splat(std::numeric_limits<float>::min()));
    Value scaled = b.create<arith::SelectOp>(
        loc, subnormal, b.create<arith::MulFOp>(loc, x, splat(0x1p23f)), x);
    Value log = b.create<math::LogOp>(loc, scaled, op.getFastmathAttr());
    Value correction = b.create<arith::SelectOp>(
        loc, subnormal, splat(23.0f * float(M_LN2)), splat(0.0f));
    Value result = b.create<arith::SubFOp>(loc, log, correction);
    op.getResult().replaceAllUsesWith(result);
    op.erase();
  }
}

/// TOSA's saturating float -> i32 conversion of a rounded value,
/// select(r >= 2^31, INT_MAX, fptosi(max(r, -2^31))), is fptosi(r) when r
/// rounds a value clamped well inside the i32 range (a quantize clamps to
/// +-2^30 first): three vector instructions less per quantized vector.
struct InRangeFloatToInt : OpRewritePattern<arith::SelectOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::SelectOp op,
                                PatternRewriter &rewriter) const override {
    auto cmp = op.getCondition().getDefiningOp<arith::CmpFOp>();
    auto convert = op.getFalseValue().getDefiningOp<arith::FPToSIOp>();
    auto lower = convert ? convert.getIn().getDefiningOp<arith::MaximumFOp>()
                         : arith::MaximumFOp();
    if (!cmp || cmp.getPredicate() != arith::CmpFPredicate::UGE || !lower ||
        lower.getLhs() != cmp.getLhs())
      return failure();
    Value rounded = cmp.getLhs();
    auto round = rounded.getDefiningOp<math::RoundEvenOp>();
    if (!round)
      return failure();
    // The rounded value: clamped to [lo, hi] by a min and a max.
    Value clamped = round.getOperand();
    std::optional<double> lo, hi;
    for (int i = 0; i < 2; ++i) {
      if (auto max = clamped.getDefiningOp<arith::MaximumFOp>()) {
        lo = nnapi::splatValue(max.getRhs());
        clamped = max.getLhs();
      } else if (auto min = clamped.getDefiningOp<arith::MinimumFOp>()) {
        hi = nnapi::splatValue(min.getRhs());
        clamped = min.getLhs();
      }
    }
    if (!lo || !hi || *lo < -0x1p30 || *hi > 0x1p30)
      return failure();
    rewriter.replaceOpWithNewOp<arith::FPToSIOp>(op, op.getType(), rounded);
    return success();
  }
};

struct LowerVectorsPass
    : public nnapi::impl::NNAPILowerVectorsBase<LowerVectorsPass> {
  using NNAPILowerVectorsBase::NNAPILowerVectorsBase;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    auto options =
        vector::VectorTransformsOptions()
            .setVectorTransformsOptions(vector::VectorContractLowering::OuterProduct)
            .setVectorMultiReductionLowering(
                vector::VectorMultiReductionLowering::InnerParallel)
            .setVectorTransposeLowering(vector::VectorTransposeLowering::Shuffle1D)
            .setVectorTransferSplit(vector::VectorTransferSplit::VectorTransfer);
    auto run = [&](auto populate) {
      RewritePatternSet patterns(ctx);
      populate(patterns);
      return applyPatternsAndFoldGreedily(getOperation(), std::move(patterns));
    };
    // 8-bit dot products to the target's instructions, before the
    // multi-reductions they are written as are lowered; float -> i32
    // conversions of values known in range without their saturation.
    std::optional<nnapi::codegen::DotKind> dot =
        nnapi::codegen::parseDotKind(int8Dot, getOperation());
    if (!dot || failed(run([&](RewritePatternSet &p) {
          nnapi::codegen::populateDotProductLoweringPatterns(p, *dot);
          p.add<InRangeFloatToInt>(ctx);
        })))
      return signalPassFailure();
    // Vectorized transcendental functions (exp in sigmoid and softmax,
    // tanh, erf, log...) as polynomial approximations on the whole vector;
    // math-to-libm would call the scalar libm function once per lane. The
    // approximations stay within a few ulp (docs/design.md); scalar math
    // keeps libm.
    {
      scaleSubnormalLogInputs(getOperation());
      SmallVector<Operation *> vectorMath;
      getOperation().walk([&](Operation *op) {
        if (isa<math::MathDialect>(op->getDialect()) &&
            op->getNumResults() == 1 &&
            isa<VectorType>(op->getResult(0).getType()))
          vectorMath.push_back(op);
      });
      RewritePatternSet patterns(ctx);
      populateMathPolynomialApproximationPatterns(patterns);
      GreedyRewriteConfig config;
      config.strictMode = GreedyRewriteStrictness::ExistingAndNewOps;
      if (failed(applyOpPatternsAndFold(vectorMath, std::move(patterns), config)))
        return signalPassFailure();
    }
    // Reductions along the innermost (contiguous) dimension become
    // horizontal vector reductions; the others (reductions across rows of
    // whole vectors) element-wise operations on rows, below.
    {
      SmallVector<Operation *> innermost;
      getOperation().walk([&](vector::MultiDimReductionOp op) {
        int64_t rank = op.getSourceVectorType().getRank();
        if (rank && op.isReducedDim(rank - 1))
          innermost.push_back(op);
      });
      RewritePatternSet patterns(ctx);
      vector::populateVectorMultiReductionLoweringPatterns(
          patterns, vector::VectorMultiReductionLowering::InnerReduction);
      GreedyRewriteConfig config;
      config.strictMode = GreedyRewriteStrictness::ExistingAndNewOps;
      if (failed(applyOpPatternsAndFold(innermost, std::move(patterns), config)))
        return signalPassFailure();
    }
    // Contractions to outer products; transfers with permutation maps to
    // minor-identity transfers plus transposes/broadcasts.
    if (failed(run([&](RewritePatternSet &p) {
          vector::populateVectorContractLoweringPatterns(p, options);
          vector::populateVectorTransferPermutationMapLoweringPatterns(p);
          vector::populateVectorMultiReductionLoweringPatterns(
              p, options.vectorMultiReductionLowering);
        })) ||
        // Transfers that may be out of bounds: a fast in-bounds path and a
        // slow one. Then n-D transfers to loops of 1-D transfers, and those
        // to loads and stores.
        failed(run([&](RewritePatternSet &p) {
          vector::populateVectorTransferFullPartialPatterns(p, options);
        })) ||
        failed(run([&](RewritePatternSet &p) {
          populateVectorToSCFConversionPatterns(
              p, VectorTransferToSCFOptions().enableFullUnroll().setTargetRank(1));
        })) ||
        failed(run([&](RewritePatternSet &p) {
          vector::populateVectorTransferLoweringPatterns(p, /*maxTransferRank=*/1);
          vector::populateVectorShapeCastLoweringPatterns(p);
          vector::populateVectorTransposeLoweringPatterns(p, options);
          vector::populateVectorBroadcastLoweringPatterns(p);
          vector::populateVectorOuterProductLoweringPatterns(p);
        })))
      signalPassFailure();
  }
};

} // namespace
