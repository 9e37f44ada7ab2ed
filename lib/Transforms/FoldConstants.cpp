//===- FoldConstants.cpp - Fold data movement of constants ----------------===//

#include "nnapi-mlir/Transforms/Constants.h"
#include "nnapi-mlir/Transforms/Passes.h"

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Transforms/Composites.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIFOLDCONSTANTS
#include "nnapi-mlir/Transforms/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;

namespace {

struct FoldSlice : OpRewritePattern<tosa::SliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::SliceOp op,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr value;
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!matchPattern(op.getInput(), m_Constant(&value)) || !type ||
        !type.hasStaticShape())
      return failure();
    auto inType = cast<RankedTensorType>(value.getType());
    ArrayRef<int64_t> start = op.getStart(), size = type.getShape();
    // Only a slice the verifier-free op really has in range.
    for (int64_t d = 0; d < inType.getRank(); ++d)
      if (start[d] < 0 || start[d] + size[d] > inType.getDimSize(d))
        return failure();
    rewriter.replaceOpWithNewOp<tosa::ConstOp>(
        op, type, nnapi::sliceElements(value, start, size));
    return success();
  }
};

struct FoldTranspose : OpRewritePattern<tosa::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr value;
    SmallVector<int64_t> perm;
    if (!matchPattern(op.getInput1(), m_Constant(&value)) ||
        failed(op.getConstantPerms(perm)))
      return failure();
    DenseElementsAttr folded = nnapi::permuteElements(value, perm);
    if (folded.getType() != op.getType())
      return failure();
    rewriter.replaceOpWithNewOp<tosa::ConstOp>(op, folded.getType(), folded);
    return success();
  }
};

/// A gather of constant rows by constant indices (position embeddings: the
/// rows of a table by 0..n-1) is the constant it picks.
struct FoldGather : OpRewritePattern<tosa::GatherOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::GatherOp op,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr values;
    DenseIntElementsAttr indices;
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!matchPattern(op.getValues(), m_Constant(&values)) ||
        !matchPattern(op.getIndices(), m_Constant(&indices)) || !type ||
        !type.hasStaticShape() || !values.getType().hasStaticShape())
      return failure();
    int64_t rows = values.getType().getDimSize(1);
    SmallVector<int64_t> picked;
    for (const APInt &i : indices.getValues<APInt>()) {
      // An index out of range is left to the op (and its diagnostics).
      if (i.getSExtValue() < 0 || i.getSExtValue() >= rows)
        return failure();
      picked.push_back(i.getSExtValue());
    }
    DenseElementsAttr folded =
        nnapi::gatherRows(values, picked, type.getDimSize(1));
    if (folded.getType() != type)
      return failure();
    rewriter.replaceOpWithNewOp<tosa::ConstOp>(op, type, folded);
    return success();
  }
};

/// A `dequantize` composite of constant integers (quantized weights and
/// biases) is the float32 constant its body computes, element by element
/// in the same float32 operations: (float(q) - float(zero point)) * scale.
struct FoldDequantize : OpRewritePattern<nnapi::CompositeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nnapi::CompositeOp op,
                                PatternRewriter &rewriter) const override {
    namespace names = nnapi::composite;
    DenseIntElementsAttr values;
    if (op.getName() != names::kDequantize || op->getNumOperands() != 1 ||
        op->getNumResults() != 1 ||
        !matchPattern(op->getOperand(0), m_Constant(&values)))
      return failure();
    DictionaryAttr attrs = op.getCompositeAttributes();
    auto scales = attrs ? attrs.getAs<DenseF32ArrayAttr>(names::kScale)
                        : DenseF32ArrayAttr();
    auto zeroPoints = attrs ? attrs.getAs<DenseI64ArrayAttr>(names::kZeroPoint)
                            : DenseI64ArrayAttr();
    auto axisAttr = attrs ? attrs.getAs<IntegerAttr>(names::kAxis)
                          : IntegerAttr();
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!scales || !zeroPoints || !type || !type.getElementType().isF32() ||
        scales.size() != zeroPoints.size() || scales.empty() ||
        type.getShape() != values.getType().getShape())
      return failure();
    int64_t inner = 1, count = int64_t(scales.size());
    if (axisAttr) {
      int64_t axis = axisAttr.getInt();
      if (axis < 0 || axis >= type.getRank() ||
          type.getDimSize(axis) != count)
        return failure();
      for (int64_t d = axis + 1; d < type.getRank(); ++d)
        inner *= type.getDimSize(d);
    } else if (count != 1) {
      return failure();
    }
    SmallVector<float> out;
    out.reserve(values.getNumElements());
    int64_t i = 0;
    for (const APInt &q : values.getValues<APInt>()) {
      int64_t c = count == 1 ? 0 : (i / inner) % count;
      float centered = float(q.getSExtValue()) - float(zeroPoints[c]);
      out.push_back(centered * scales[c]);
      ++i;
    }
    rewriter.replaceOpWithNewOp<tosa::ConstOp>(
        op, type, DenseElementsAttr::get(type, ArrayRef<float>(out)));
    return success();
  }
};

struct FoldConstantsPass
    : nnapi::impl::NNAPIFoldConstantsBase<FoldConstantsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldSlice, FoldTranspose, FoldGather, FoldDequantize>(
        &getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
