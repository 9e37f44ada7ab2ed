//===- PropagateTransposes.cpp - Cancel layout transposes -----------------===//

#include "nnapi-mlir/Transforms/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIPROPAGATETRANSPOSES
#include "nnapi-mlir/Transforms/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;

namespace {

/// The permutation of a transpose with constant perms.
std::optional<SmallVector<int64_t>> permutation(tosa::TransposeOp op) {
  DenseIntElementsAttr perms;
  if (!matchPattern(op.getPerms(), m_Constant(&perms)))
    return std::nullopt;
  return llvm::to_vector(llvm::map_range(
      perms.getValues<APInt>(), [](APInt v) { return v.getSExtValue(); }));
}

/// A constant that can be re-laid out by reshaping alone: a splat, or at most
/// one dimension larger than one.
DenseElementsAttr relayoutConstant(Value v, ArrayRef<int64_t> inverse) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return {};
  auto type = cast<RankedTensorType>(attr.getType());
  if (type.getRank() != int64_t(inverse.size()))
    return {};
  if (!attr.isSplat() &&
      llvm::count_if(type.getShape(), [](int64_t d) { return d != 1; }) > 1)
    return {};
  SmallVector<int64_t> shape;
  for (int64_t p : inverse)
    shape.push_back(type.getDimSize(p));
  return attr.reshape(RankedTensorType::get(shape, type.getElementType()));
}

/// op(transpose(x, P), ...) -> transpose(op(x, ...), P) for element-wise ops.
struct SinkTranspose : RewritePattern {
  SinkTranspose(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (op->getDialect() != op->getContext()->getLoadedDialect<tosa::TosaDialect>() ||
        op->getNumResults() != 1 || op->getNumRegions() != 0 ||
        !(op->hasTrait<OpTrait::ResultsBroadcastableShape>() ||
          isa<tosa::CastOp>(op)))
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType)
      return failure();
    // Every operand: the same transpose, or a constant we can re-lay out.
    std::optional<SmallVector<int64_t>> perm;
    for (Value operand : op->getOperands()) {
      auto t = operand.getDefiningOp<tosa::TransposeOp>();
      if (!t)
        continue;
      std::optional<SmallVector<int64_t>> p = permutation(t);
      if (!p || (perm && *perm != *p))
        return failure();
      perm = p;
    }
    if (!perm || int64_t(perm->size()) != resultType.getRank())
      return failure();
    SmallVector<int64_t> inverse(perm->size());
    for (auto [i, p] : llvm::enumerate(*perm))
      inverse[p] = int64_t(i);
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      if (auto t = operand.getDefiningOp<tosa::TransposeOp>()) {
        operands.push_back(t.getInput1());
        continue;
      }
      DenseElementsAttr c = relayoutConstant(operand, inverse);
      if (!c)
        return failure();
      operands.push_back(
          rewriter.create<tosa::ConstOp>(op->getLoc(), c.getType(), c));
    }
    SmallVector<int64_t> shape;
    for (int64_t p : inverse)
      shape.push_back(resultType.getDimSize(p));
    OperationState state(op->getLoc(), op->getName());
    state.addOperands(operands);
    state.addAttributes(op->getAttrs());
    state.addTypes(RankedTensorType::get(shape, resultType.getElementType()));
    Operation *moved = rewriter.create(state);
    auto original = op->getOperand(0).getDefiningOp<tosa::TransposeOp>();
    Value perms = original ? original.getPerms() : Value();
    if (!perms)
      for (Value operand : op->getOperands())
        if (auto t = operand.getDefiningOp<tosa::TransposeOp>())
          perms = t.getPerms();
    rewriter.replaceOpWithNewOp<tosa::TransposeOp>(op, resultType,
                                                   moved->getResult(0), perms);
    return success();
  }
};

/// The permutation every operand of `op` is a transpose by, if they all are
/// transposes by one constant permutation.
std::optional<SmallVector<int64_t>> commonPermutation(ValueRange operands) {
  std::optional<SmallVector<int64_t>> perm;
  for (Value operand : operands) {
    auto t = operand.getDefiningOp<tosa::TransposeOp>();
    std::optional<SmallVector<int64_t>> p =
        t ? permutation(t) : std::nullopt;
    if (!p || (perm && *perm != *p))
      return std::nullopt;
    perm = p;
  }
  return perm;
}

/// concat(transpose(a, P), transpose(b, P)) on axis k ->
/// transpose(concat(a, b) on axis P[k], P): the skips of a U-Net.
struct SinkTransposeThroughConcat : OpRewritePattern<tosa::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ConcatOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> perm =
        commonPermutation(op.getInput1());
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!perm || !type || int64_t(perm->size()) != type.getRank())
      return failure();
    SmallVector<Value> inputs;
    for (Value v : op.getInput1())
      inputs.push_back(v.getDefiningOp<tosa::TransposeOp>().getInput1());
    int64_t axis = (*perm)[op.getAxis()];
    SmallVector<int64_t> shape(type.getRank());
    for (auto [d, p] : llvm::enumerate(*perm))
      shape[p] = type.getDimSize(d);
    Value concat = rewriter.create<tosa::ConcatOp>(
        op.getLoc(), RankedTensorType::get(shape, type.getElementType()),
        inputs, rewriter.getI32IntegerAttr(int32_t(axis)));
    Value perms =
        op.getInput1().front().getDefiningOp<tosa::TransposeOp>().getPerms();
    rewriter.replaceOpWithNewOp<tosa::TransposeOp>(op, type, concat, perms);
    return success();
  }
};

/// reduce(transpose(x, P)) on axis k -> transpose(reduce(x) on axis P[k], P):
/// a global average pool imported as sums over NCHW's spatial axes.
template <typename ReduceOp>
struct SinkTransposeThroughReduce : OpRewritePattern<ReduceOp> {
  using OpRewritePattern<ReduceOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(ReduceOp op,
                                PatternRewriter &rewriter) const override {
    auto t = op.getInput().template getDefiningOp<tosa::TransposeOp>();
    std::optional<SmallVector<int64_t>> perm =
        t ? permutation(t) : std::nullopt;
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!perm || !type || int64_t(perm->size()) != type.getRank())
      return failure();
    int64_t axis = (*perm)[op.getAxis()];
    SmallVector<int64_t> shape(type.getRank());
    for (auto [d, p] : llvm::enumerate(*perm))
      shape[p] = type.getDimSize(d);
    Value reduced = rewriter.create<ReduceOp>(
        op.getLoc(), RankedTensorType::get(shape, type.getElementType()),
        t.getInput1(), rewriter.getI32IntegerAttr(int32_t(axis)));
    rewriter.replaceOpWithNewOp<tosa::TransposeOp>(op, type, reduced,
                                                   t.getPerms());
    return success();
  }
};

struct PropagateTransposesPass
    : public nnapi::impl::NNAPIPropagateTransposesBase<PropagateTransposesPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<SinkTranspose, SinkTransposeThroughConcat,
                 SinkTransposeThroughReduce<tosa::ReduceSumOp>,
                 SinkTransposeThroughReduce<tosa::ReduceMaxOp>,
                 SinkTransposeThroughReduce<tosa::ReduceMinOp>,
                 SinkTransposeThroughReduce<tosa::ReduceProdOp>,
                 SinkTransposeThroughReduce<tosa::ReduceAnyOp>,
                 SinkTransposeThroughReduce<tosa::ReduceAllOp>>(ctx);
    tosa::TransposeOp::getCanonicalizationPatterns(patterns, ctx);
    if (failed(applyPatternsAndFoldGreedily(getOperation(),
                                            std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
