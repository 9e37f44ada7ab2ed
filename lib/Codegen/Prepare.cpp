//===- Prepare.cpp - Linalg forms the code generation strategies handle ---===//
//
// nnapi-codegen-prepare: re-lays out convolution filters so output channels
// are contiguous (at compile time for constants), folds transposes of
// constants, turns multiplier-1 depthwise convolutions into the HWC form
// that decomposes to 1-D, and rewrites constant-0 reads of unit dimensions
// as loop indices so that producers and consumers fuse.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Codegen/Passes.h"

#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPICODEGENPREPARE
#include "nnapi-mlir/Codegen/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;

namespace {

/// `attr` transposed: result dimension i is input dimension perm[i].
/// Works on the raw bytes, so on any element type of whole bytes.
std::optional<DenseElementsAttr> permuteConstant(DenseElementsAttr attr,
                                                 ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(attr.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  if (attr.isSplat())
    return attr.resizeSplat(resultType);
  unsigned bits = type.getElementTypeBitWidth();
  if (bits % 8)
    return std::nullopt;
  size_t bytes = bits / 8;
  ArrayRef<char> raw = attr.getRawData();
  int64_t rank = type.getRank();
  // Strides of the input, in elements.
  SmallVector<int64_t> inStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    inStrides[d] = inStrides[d + 1] * type.getDimSize(d + 1);
  std::vector<char> out(raw.size());
  SmallVector<int64_t> index(rank, 0);
  for (int64_t linear = 0, n = type.getNumElements(); linear < n; ++linear) {
    int64_t source = 0;
    for (int64_t d = 0; d < rank; ++d)
      source += index[d] * inStrides[perm[d]];
    std::memcpy(&out[linear * bytes], &raw[source * bytes], bytes);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return DenseElementsAttr::getFromRawBuffer(resultType, out);
}

/// `value` transposed by `perm`: a new constant if it is one, else a
/// linalg.transpose.
Value transposeValue(PatternRewriter &rewriter, Location loc, Value value,
                     ArrayRef<int64_t> perm) {
  DenseElementsAttr attr;
  if (matchPattern(value, m_Constant(&attr)))
    if (std::optional<DenseElementsAttr> t = permuteConstant(attr, perm))
      return rewriter.create<arith::ConstantOp>(loc, t->getType(), *t);
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  Value init =
      rewriter.create<tensor::EmptyOp>(loc, shape, type.getElementType());
  return rewriter.create<linalg::TransposeOp>(loc, value, init, perm)
      ->getResult(0);
}

/// linalg.conv_2d_nhwc_fhwc -> linalg.conv_2d_nhwc_hwcf with the filter
/// transposed [F, KH, KW, C] -> [KH, KW, C, F].
struct ConvFilterToHwcf : OpRewritePattern<linalg::Conv2DNhwcFhwcOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::Conv2DNhwcFhwcOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return failure();
    Value filter = transposeValue(rewriter, op.getLoc(), op.getInputs()[1],
                                  {1, 2, 3, 0});
    rewriter.replaceOpWithNewOp<linalg::Conv2DNhwcHwcfOp>(
        op, op.getResultTypes(), ValueRange{op.getInputs()[0], filter},
        op.getOutputs(), op.getStrides(), op.getDilations());
    return success();
  }
};

/// linalg.transpose of a constant -> the transposed constant.
struct FoldConstantTranspose : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr attr;
    if (!op.hasPureTensorSemantics() ||
        !matchPattern(op.getInput(), m_Constant(&attr)))
      return failure();
    std::optional<DenseElementsAttr> t =
        permuteConstant(attr, op.getPermutation());
    if (!t)
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, t->getType(), *t);
    return success();
  }
};

/// linalg.depthwise_conv_2d_nhwc_hwcm with M = 1 -> ..._hwc on collapsed
/// filter and output.
struct DepthwiseToHwc : OpRewritePattern<linalg::DepthwiseConv2DNhwcHwcmOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::DepthwiseConv2DNhwcHwcmOp op,
                                PatternRewriter &rewriter) const override {
    auto filterType = dyn_cast<RankedTensorType>(op.getInputs()[1].getType());
    auto initType = dyn_cast<RankedTensorType>(op.getOutputs()[0].getType());
    if (!op.hasPureTensorSemantics() || !filterType || !initType ||
        !filterType.hasStaticShape() || filterType.getDimSize(3) != 1)
      return failure();
    Location loc = op.getLoc();
    SmallVector<ReassociationIndices> filterMap = {{0}, {1}, {2, 3}};
    SmallVector<ReassociationIndices> outMap = {{0}, {1}, {2}, {3, 4}};
    Value filter = rewriter.create<tensor::CollapseShapeOp>(
        loc, op.getInputs()[1], filterMap);
    Value init = rewriter.create<tensor::CollapseShapeOp>(
        loc, op.getOutputs()[0], outMap);
    auto conv = rewriter.create<linalg::DepthwiseConv2DNhwcHwcOp>(
        loc, TypeRange{init.getType()}, ValueRange{op.getInputs()[0], filter},
        ValueRange{init}, op.getStrides(), op.getDilations());
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, initType, conv->getResult(0), outMap);
    return success();
  }
};

/// In an element-wise linalg.generic, an operand read at constant 0 along a
/// dimension whose loop has one iteration is read at that loop's index:
/// (d0, d1, d2, d3) -> (0, d1, d2, d3) becomes the identity, which tiling
/// and fusion treat as a plain element-wise use.
struct UnitDimReadAsIndex : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() ||
        op.getNumParallelLoops() != op.getNumLoops())
      return failure();
    SmallVector<int64_t> ranges = op.getStaticLoopRanges();
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    bool changed = false;
    for (AffineMap &map : maps) {
      if (map.getNumResults() != op.getNumLoops())
        continue;
      SmallVector<AffineExpr> results(map.getResults());
      for (unsigned i = 0; i < results.size(); ++i) {
        auto c = dyn_cast<AffineConstantExpr>(results[i]);
        if (!c || c.getValue() != 0 || ranges[i] != 1 ||
            map.isFunctionOfDim(i))
          continue;
        results[i] = rewriter.getAffineDimExpr(i);
        changed = true;
      }
      map = AffineMap::get(map.getNumDims(), 0, results, op.getContext());
    }
    if (!changed)
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
    });
    return success();
  }
};

struct CodegenPreparePass
    : public nnapi::impl::NNAPICodegenPrepareBase<CodegenPreparePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ConvFilterToHwcf, FoldConstantTranspose, DepthwiseToHwc,
                 UnitDimReadAsIndex>(&getContext());
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns,
                                                         &getContext());
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, &getContext());
    linalg::FillOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsAndFoldGreedily(getOperation(),
                                            std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
