//===- PropagateTransposes.cpp - Cancel layout transposes -----------------===//

#include "nnapi-mlir/Transforms/Passes.h"

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Transforms/Composites.h"
#include "nnapi-mlir/Transforms/Constants.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/IRMapping.h"
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
  SmallVector<int64_t> perm;
  if (failed(op.getConstantPerms(perm)))
    return std::nullopt;
  return perm;
}

/// Whether transposing a tensor of `shape` by `perm` keeps its dimensions
/// larger than one in order: then the transpose moves no data and is a
/// reshape.
bool movesOnlyUnitDims(ArrayRef<int64_t> shape, ArrayRef<int64_t> perm) {
  int64_t last = -1;
  for (int64_t p : perm) {
    if (shape[p] == 1)
      continue;
    if (ShapedType::isDynamic(shape[p]) || p < last)
      return false;
    last = p;
  }
  return true;
}

Value createConstPerms(PatternRewriter &rewriter, Location loc,
                       ArrayRef<int64_t> perm) {
  SmallVector<int32_t> values(perm.begin(), perm.end());
  auto type = RankedTensorType::get({int64_t(perm.size())},
                                    rewriter.getI32Type());
  return rewriter.create<tosa::ConstOp>(
      loc, type, DenseIntElementsAttr::get(type, ArrayRef(values)));
}

/// How an operand of an op that a transpose by P sinks below reaches the
/// op's new layout (the operand transposed by P's inverse) without adding a
/// transpose to the graph.
enum class Relayout {
  None,       ///< Only by a transpose of its own.
  Transposed, ///< It is a transpose by P: its input.
  Constant,   ///< It is a constant: the constant permuted.
  Reshape,    ///< The inverse moves only unit dimensions: a reshape.
  Reuse,      ///< A transpose of it by the inverse exists: that one.
  Broadcast,  ///< An element-wise op of splats and all-unit tensors (a
              ///< scalar broadcast to the full shape): that op rebuilt.
};

/// An element-wise op with one result (TOSA: unary, broadcasting binary or
/// ternary, cast; arith: on tensors of the result's type): it computes the
/// same in any layout.
bool isElementwise(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0)
    return false;
  if (op->getDialect() ==
      op->getContext()->getLoadedDialect<tosa::TosaDialect>())
    return op->hasTrait<OpTrait::ResultsBroadcastableShape>() ||
           isa<tosa::CastOp>(op);
  // An arith op on tensors of one shape (the true division of a quantize
  // with a scale computed at run time).
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  return op->hasTrait<OpTrait::Elementwise>() && type &&
         llvm::all_of(op->getOperandTypes(),
                      [&](Type t) { return t == type; });
}

/// Whether `v` is a scalar broadcast to a full shape that only `user`
/// reads: an element-wise op whose operands are splat constants or tensors
/// whose every dimension is 1 (the same in any layout).
bool isBroadcastScalar(Value v, Operation *user) {
  Operation *def = v.getDefiningOp();
  if (!def || !isElementwise(def) || !v.hasOneUse() ||
      *v.getUsers().begin() != user)
    return false;
  return llvm::all_of(def->getOperands(), [](Value operand) {
    auto t = dyn_cast<RankedTensorType>(operand.getType());
    if (!t || !t.hasStaticShape())
      return false;
    if (llvm::all_of(t.getShape(), [](int64_t d) { return d == 1; }))
      return true;
    DenseElementsAttr attr;
    return matchPattern(operand, m_Constant(&attr)) && attr.isSplat();
  });
}

/// The transpose by `inverse` among the users of `v`, in `user`'s block.
tosa::TransposeOp existingTranspose(Value v, ArrayRef<int64_t> inverse,
                                    Operation *user) {
  for (Operation *other : v.getUsers()) {
    auto t = dyn_cast<tosa::TransposeOp>(other);
    // Not one `user` reads: with a permutation that is its own inverse that
    // would be the transpose being sunk.
    if (!t || t->getBlock() != user->getBlock() ||
        llvm::is_contained(t->getUsers(), user))
      continue;
    if (std::optional<SmallVector<int64_t>> p = permutation(t);
        p && ArrayRef<int64_t>(*p) == inverse)
      return t;
  }
  return {};
}

Relayout classify(Value v, ArrayRef<int64_t> perm, ArrayRef<int64_t> inverse,
                  Operation *user) {
  // Dynamic dimensions (issue 54) move with their layout like any other;
  // only a reshape needs every size.
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || type.getRank() != int64_t(perm.size()))
    return Relayout::None;
  if (auto t = v.getDefiningOp<tosa::TransposeOp>())
    if (std::optional<SmallVector<int64_t>> p = permutation(t);
        p && ArrayRef<int64_t>(*p) == perm)
      return Relayout::Transposed;
  DenseElementsAttr attr;
  if (matchPattern(v, m_Constant(&attr)))
    return Relayout::Constant;
  if (type.hasStaticShape() && movesOnlyUnitDims(type.getShape(), inverse))
    return Relayout::Reshape;
  if (existingTranspose(v, inverse, user))
    return Relayout::Reuse;
  if (isBroadcastScalar(v, user))
    return Relayout::Broadcast;
  return Relayout::None;
}

/// `v` (classified as `how`) in the layout of `user`'s new operands.
Value relayout(PatternRewriter &rewriter, Value v, Relayout how,
               ArrayRef<int64_t> inverse, Operation *user) {
  Location loc = user->getLoc();
  auto type = cast<RankedTensorType>(v.getType());
  auto newType = RankedTensorType::get(
      applyPermutation(type.getShape(), inverse), type.getElementType());
  switch (how) {
  case Relayout::Transposed:
    return v.getDefiningOp<tosa::TransposeOp>().getInput1();
  case Relayout::Constant: {
    DenseElementsAttr attr;
    if (!matchPattern(v, m_Constant(&attr)))
      return {};
    DenseElementsAttr permuted = nnapi::permuteElements(attr, inverse);
    return rewriter.create<tosa::ConstOp>(loc, permuted.getType(), permuted);
  }
  case Relayout::Reshape:
    return rewriter.create<tosa::ReshapeOp>(
        loc, newType, v, rewriter.getDenseI64ArrayAttr(newType.getShape()));
  case Relayout::Reuse: {
    tosa::TransposeOp t = existingTranspose(v, inverse, user);
    if (t->isBeforeInBlock(user))
      return t;
    // It comes after `user`: one created before `user` replaces it.
    Value moved = rewriter.create<tosa::TransposeOp>(
        loc, t.getType(), v, createConstPerms(rewriter, loc, inverse));
    rewriter.replaceOp(t, moved);
    return moved;
  }
  case Relayout::Broadcast: {
    Operation *def = v.getDefiningOp();
    SmallVector<Value> operands;
    for (Value operand : def->getOperands()) {
      DenseElementsAttr attr;
      auto t = cast<RankedTensorType>(operand.getType());
      if (t.getRank() == int64_t(inverse.size()) &&
          matchPattern(operand, m_Constant(&attr)) && attr.isSplat()) {
        auto permuted = attr.reshape(RankedTensorType::get(
            applyPermutation(t.getShape(), inverse), t.getElementType()));
        operand = rewriter.create<tosa::ConstOp>(loc, permuted.getType(),
                                                 permuted);
      }
      operands.push_back(operand);
    }
    OperationState state(def->getLoc(), def->getName());
    state.addOperands(operands);
    state.addAttributes(def->getAttrs());
    state.addTypes(newType);
    return rewriter.create(state)->getResult(0);
  }
  case Relayout::None:
    break;
  }
  return {};
}

/// The permutation P by which some of `operands` of `user` are transposed,
/// if the transpose can sink below `user` without adding transposes: every
/// operand is a transpose by P, a constant, a tensor whose layout change
/// moves only unit dimensions, or a tensor that has a transpose by P's
/// inverse already (a residual add of a graph input whose transposed copy
/// feeds the block's convolution, a squeeze-excite gate reshaped to NCHW).
/// Unless every operand is a transpose by P or a constant, those
/// transposes must have `user` as their only user, so that they disappear.
/// Constants do not ask that: a hard swish x * clamp(x * a + b) sinks its
/// transpose of x through the constant side first, and only then through
/// the multiply that ends the diamond and lets the transpose go.
std::optional<SmallVector<int64_t>>
sinkablePermutation(Operation *user, ValueRange operands,
                    SmallVectorImpl<Relayout> &hows) {
  std::optional<SmallVector<int64_t>> perm;
  for (Value operand : operands)
    if (auto t = operand.getDefiningOp<tosa::TransposeOp>())
      if ((perm = permutation(t)))
        break;
  if (!perm)
    return std::nullopt;
  SmallVector<int64_t> inverse = invertPermutationVector(*perm);
  bool mixed = false;
  hows.clear();
  for (Value operand : operands) {
    Relayout how = classify(operand, *perm, inverse, user);
    if (how == Relayout::None)
      return std::nullopt;
    mixed |= how == Relayout::Reshape || how == Relayout::Reuse;
    hows.push_back(how);
  }
  if (mixed)
    for (auto [operand, how] : llvm::zip(operands, hows))
      if (how == Relayout::Transposed &&
          llvm::any_of(operand.getUsers(),
                       [&](Operation *u) { return u != user; }))
        return std::nullopt;
  return perm;
}

/// `op` again, on `operands`, with result type `type`.
Operation *cloneWith(PatternRewriter &rewriter, Operation *op,
                     ValueRange operands, Type type) {
  OperationState state(op->getLoc(), op->getName());
  state.addOperands(operands);
  state.addAttributes(op->getAttrs());
  state.addTypes(type);
  return rewriter.create(state);
}

/// op(transpose(x, P), ...) -> transpose(op(x, ...), P) for element-wise ops.
struct SinkTranspose : RewritePattern {
  SinkTranspose(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isElementwise(op))
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    SmallVector<Relayout> hows;
    std::optional<SmallVector<int64_t>> perm =
        sinkablePermutation(op, op->getOperands(), hows);
    if (!resultType || !perm ||
        int64_t(perm->size()) != resultType.getRank())
      return failure();
    SmallVector<int64_t> inverse = invertPermutationVector(*perm);
    SmallVector<Value> operands;
    for (auto [operand, how] : llvm::zip(op->getOperands(), hows))
      operands.push_back(relayout(rewriter, operand, how, inverse, op));
    Operation *moved = cloneWith(
        rewriter, op, operands,
        RankedTensorType::get(applyPermutation(resultType.getShape(), inverse),
                              resultType.getElementType()));
    rewriter.replaceOpWithNewOp<tosa::TransposeOp>(
        op, resultType, moved->getResult(0),
        createConstPerms(rewriter, op->getLoc(), *perm));
    return success();
  }
};

/// concat(transpose(a, P), transpose(b, P)) on axis k ->
/// transpose(concat(a, b) on axis P[k], P): the skips of a U-Net. Operands
/// that are not transposes join as sinkablePermutation allows.
struct SinkTransposeThroughConcat : OpRewritePattern<tosa::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ConcatOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Relayout> hows;
    std::optional<SmallVector<int64_t>> perm =
        sinkablePermutation(op, op.getInput1(), hows);
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!perm || !type || int64_t(perm->size()) != type.getRank())
      return failure();
    SmallVector<int64_t> inverse = invertPermutationVector(*perm);
    SmallVector<Value> inputs;
    for (auto [operand, how] : llvm::zip(op.getInput1(), hows))
      inputs.push_back(relayout(rewriter, operand, how, inverse, op));
    int64_t axis = (*perm)[op.getAxis()];
    Value concat = rewriter.create<tosa::ConcatOp>(
        op.getLoc(),
        RankedTensorType::get(applyPermutation(type.getShape(), inverse),
                              type.getElementType()),
        inputs, rewriter.getI32IntegerAttr(int32_t(axis)));
    rewriter.replaceOpWithNewOp<tosa::TransposeOp>(
        op, type, concat, createConstPerms(rewriter, op.getLoc(), *perm));
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

/// quantize(transpose(x, P)) -> transpose(quantize(x), P), and the same for
/// dequantize: their bodies compute element by element (with constants
/// that broadcast), so the body is the old one with every tensor of the
/// composite's rank, constants included, permuted; a per-axis composite's
/// axis follows its dimension. QDQ models put a pair of them between every
/// two convolutions.
struct SinkTransposeThroughQuantComposite
    : OpRewritePattern<nnapi::CompositeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(nnapi::CompositeOp op,
                                PatternRewriter &rewriter) const override {
    namespace names = nnapi::composite;
    if ((op.getName() != names::kQuantize &&
         op.getName() != names::kDequantize) ||
        op->getNumOperands() != 1 || op->getNumResults() != 1)
      return failure();
    auto t = op->getOperand(0).getDefiningOp<tosa::TransposeOp>();
    std::optional<SmallVector<int64_t>> perm =
        t && t->hasOneUse() ? permutation(t) : std::nullopt;
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!perm || !type || int64_t(perm->size()) != type.getRank())
      return failure();
    SmallVector<int64_t> inverse = invertPermutationVector(*perm);
    FailureOr<nnapi::CompositeOp> moved = nnapi::composite::permuted(
        rewriter, op, t.getInput1(), inverse);
    if (failed(moved))
      return failure();
    rewriter.replaceOpWithNewOp<tosa::TransposeOp>(
        op, type, (*moved)->getResult(0),
        createConstPerms(rewriter, op.getLoc(), *perm));
    return success();
  }
};

/// A transpose that moves only unit dimensions moves no data: a reshape.
/// (A squeeze-excite gate computed as [1, 1, 1, C] and viewed as NCHW.)
struct TransposeOfUnitDimsToReshape : OpRewritePattern<tosa::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SmallVector<int64_t>> perm = permutation(op);
    auto inputType = dyn_cast<RankedTensorType>(op.getInput1().getType());
    auto type = dyn_cast<RankedTensorType>(op.getType());
    if (!perm || !inputType || !type || !inputType.hasStaticShape() ||
        !movesOnlyUnitDims(inputType.getShape(), *perm))
      return failure();
    rewriter.replaceOpWithNewOp<tosa::ReshapeOp>(
        op, type, op.getInput1(),
        rewriter.getDenseI64ArrayAttr(
            applyPermutation(inputType.getShape(), *perm)));
    return success();
  }
};

/// The dimensions larger than one of `shape`, in order.
SmallVector<int64_t> nonUnitDims(ArrayRef<int64_t> shape) {
  return llvm::to_vector(
      llvm::make_filter_range(shape, [](int64_t d) { return d != 1; }));
}

/// op(reshape(x), c) -> reshape(op(x, reshape(c))) for an element-wise op
/// when the reshape only inserts or drops unit dimensions and the other
/// operands hold one element each: a squeeze-excite gate viewed as NCHW and
/// back again loses both reshapes.
struct SinkUnitReshape : RewritePattern {
  SinkUnitReshape(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isElementwise(op))
      return failure();
    auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!resultType || !resultType.hasStaticShape())
      return failure();
    RankedTensorType inner;
    for (Value operand : op->getOperands()) {
      auto r = operand.getDefiningOp<tosa::ReshapeOp>();
      auto type = r ? dyn_cast<RankedTensorType>(r.getInput1().getType())
                    : RankedTensorType();
      if (!type || !type.hasStaticShape() || !r->hasOneUse() ||
          type.getNumElements() < 2 ||
          nonUnitDims(type.getShape()) != nonUnitDims(resultType.getShape()))
        continue;
      if (inner && inner.getShape() != type.getShape())
        return failure();
      inner = type;
    }
    if (!inner)
      return failure();
    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      auto type = dyn_cast<RankedTensorType>(operand.getType());
      if (!type)
        return failure();
      auto r = operand.getDefiningOp<tosa::ReshapeOp>();
      if (r && cast<RankedTensorType>(r.getInput1().getType()).getShape() ==
                   inner.getShape()) {
        operands.push_back(r.getInput1());
        continue;
      }
      // A broadcast operand of a select would meet MLIR 19's select
      // folder, which returns it mistyped once the predicate folds
      // (nnapi-materialize-select-operands).
      if (!type.hasStaticShape() || type.getNumElements() != 1 ||
          isa<tosa::SelectOp>(op))
        return failure();
      operands.push_back({});
    }
    SmallVector<int64_t> ones(inner.getRank(), 1);
    for (auto [value, operand] : llvm::zip(operands, op->getOperands()))
      if (!value)
        value = rewriter.create<tosa::ReshapeOp>(
            op->getLoc(),
            RankedTensorType::get(
                ones, cast<RankedTensorType>(operand.getType())
                          .getElementType()),
            operand, rewriter.getDenseI64ArrayAttr(ones));
    Operation *moved = cloneWith(
        rewriter, op, operands,
        RankedTensorType::get(inner.getShape(), resultType.getElementType()));
    rewriter.replaceOpWithNewOp<tosa::ReshapeOp>(
        op, resultType, moved->getResult(0),
        rewriter.getDenseI64ArrayAttr(resultType.getShape()));
    return success();
  }
};

/// reshape(transpose(x, P)) -> transpose(reshape(x), Q) when the reshape
/// merges dimensions that are adjacent and in order in x too, or splits
/// dimensions: a feature map flattened to [N, C, H*W] (a patch embedding
/// before its attention) is x reshaped to [N, H*W, C] and transposed, and
/// the transpose the model applies next cancels it. Unit dimensions keep
/// their places. No transpose is added: the one by P must have no other
/// user, or Q must move no data, or the reshape's users must undo Q.
struct SinkTransposeThroughReshape : OpRewritePattern<tosa::ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto t = op.getInput1().getDefiningOp<tosa::TransposeOp>();
    std::optional<SmallVector<int64_t>> perm =
        t ? permutation(t) : std::nullopt;
    auto xType = t ? dyn_cast<RankedTensorType>(t.getInput1().getType())
                   : RankedTensorType();
    auto yType = dyn_cast<RankedTensorType>(op.getInput1().getType());
    auto zType = dyn_cast<RankedTensorType>(op.getType());
    if (!perm || !xType || !yType || !zType || !xType.hasStaticShape() ||
        !zType.hasStaticShape() || xType.getNumElements() == 0)
      return failure();
    SmallVector<int64_t> ys = applyPermutation(xType.getShape(), *perm);
    ArrayRef<int64_t> zs = zType.getShape();
    // The position of each non-unit dimension of x among x's non-unit ones.
    SmallVector<int64_t> xRank(xType.getRank(), -1);
    for (int64_t d = 0, n = 0; d < xType.getRank(); ++d)
      if (xType.getDimSize(d) != 1)
        xRank[d] = n++;
    SmallVector<int64_t> yDims, zDims;
    for (auto [i, s] : llvm::enumerate(ys))
      if (s != 1)
        yDims.push_back(int64_t(i));
    for (auto [i, s] : llvm::enumerate(zs))
      if (s != 1)
        zDims.push_back(int64_t(i));
    // Groups of y's and z's non-unit dimensions with equal products, each a
    // merge into one z dimension or a split of one y dimension.
    struct Group {
      int64_t xFirst;                  ///< x's rank of its first y dimension.
      SmallVector<int64_t> z;          ///< Its z dimensions.
    };
    SmallVector<Group> groups;
    size_t yi = 0, zi = 0;
    while (yi < yDims.size() && zi < zDims.size()) {
      size_t y0 = yi, z0 = zi;
      int64_t yp = ys[yDims[yi++]], zp = zs[zDims[zi++]];
      while (yp != zp) {
        if (yp < zp && yi < yDims.size())
          yp *= ys[yDims[yi++]];
        else if (zp < yp && zi < zDims.size())
          zp *= zs[zDims[zi++]];
        else
          return failure();
      }
      if (yi - y0 > 1 && zi - z0 > 1)
        return failure();
      // A merge needs its dimensions adjacent and in order in x.
      for (size_t k = y0 + 1; k < yi; ++k)
        if (xRank[(*perm)[yDims[k]]] != xRank[(*perm)[yDims[k - 1]]] + 1)
          return failure();
      Group g{xRank[(*perm)[yDims[y0]]], {}};
      g.z.append(zDims.begin() + z0, zDims.begin() + zi);
      groups.push_back(std::move(g));
    }
    if (yi != yDims.size() || zi != zDims.size())
      return failure();
    // x' holds z's non-unit dimensions in x's order at z's non-unit places.
    llvm::stable_sort(groups, [](const Group &a, const Group &b) {
      return a.xFirst < b.xFirst;
    });
    SmallVector<int64_t> xShape(zs.begin(), zs.end());
    SmallVector<int64_t> q(zs.size());
    for (auto [i, d] : llvm::enumerate(zs))
      q[i] = int64_t(i);
    size_t next = 0;
    for (const Group &g : groups)
      for (int64_t zd : g.z) {
        xShape[zDims[next]] = zs[zd];
        q[zd] = zDims[next++];
      }
    bool moves = !movesOnlyUnitDims(xShape, q);
    // The transpose by Q adds one unless the transpose by P goes, or every
    // user of the reshape undoes Q (a patch embedding's [0, 2, 1]).
    SmallVector<int64_t> undo = invertPermutationVector(q);
    auto undoesQ = [&](Operation *user) {
      auto u = dyn_cast<tosa::TransposeOp>(user);
      std::optional<SmallVector<int64_t>> p =
          u ? permutation(u) : std::nullopt;
      return p && *p == undo;
    };
    if (moves && !t->hasOneUse() && !llvm::all_of(op->getUsers(), undoesQ))
      return failure();
    auto xPrimeType = RankedTensorType::get(xShape, zType.getElementType());
    Value reshaped = rewriter.create<tosa::ReshapeOp>(
        op.getLoc(), xPrimeType, t.getInput1(),
        rewriter.getDenseI64ArrayAttr(xShape));
    if (!moves) {
      rewriter.replaceOpWithNewOp<tosa::ReshapeOp>(
          op, zType, reshaped, rewriter.getDenseI64ArrayAttr(zs));
      return success();
    }
    rewriter.replaceOpWithNewOp<tosa::TransposeOp>(
        op, zType, reshaped, createConstPerms(rewriter, op.getLoc(), q));
    return success();
  }
};

struct PropagateTransposesPass
    : public nnapi::impl::NNAPIPropagateTransposesBase<PropagateTransposesPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<SinkTranspose, SinkTransposeThroughConcat,
                 SinkTransposeThroughQuantComposite,
                 SinkTransposeThroughReshape, TransposeOfUnitDimsToReshape,
                 SinkUnitReshape,
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

FailureOr<nnapi::CompositeOp>
mlir::nnapi::composite::permuted(OpBuilder &b, CompositeOp op, Value input,
                                 ArrayRef<int64_t> perm) {
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  int64_t rank = int64_t(perm.size());
  if (op->getNumOperands() != 1 || op->getNumResults() != 1 || !type ||
      type.getRank() != rank)
    return failure();
  auto permutedType = [&](Type ty) -> Type {
    auto r = dyn_cast<RankedTensorType>(ty);
    if (!r || r.getRank() != rank)
      return ty;
    return RankedTensorType::get(applyPermutation(r.getShape(), perm),
                                 r.getElementType());
  };
  // Every op of the body must be one that computes element-wise.
  WalkResult check = op.getBody().walk([&](Operation *inner) {
    if (isa<tosa::ConstOp, nnapi::YieldOp>(inner) || isElementwise(inner) ||
        inner->hasTrait<OpTrait::Elementwise>())
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  if (check.wasInterrupted())
    return failure();
  DictionaryAttr attrs = op.getCompositeAttributes();
  NamedAttrList newAttrs(attrs);
  if (auto axis = attrs.getAs<IntegerAttr>(kAxis)) {
    const int64_t *at = llvm::find(perm, axis.getInt());
    if (at == perm.end())
      return failure();
    newAttrs.set(kAxis, b.getI64IntegerAttr(at - perm.begin()));
  }
  auto moved = b.create<CompositeOp>(
      op.getLoc(), TypeRange{permutedType(type)}, op.getName(),
      ValueRange{input}, newAttrs.getDictionary(b.getContext()));
  IRMapping map;
  op.getBody().cloneInto(&moved.getBody(), map);
  Block &body = moved.getBody().front();
  for (BlockArgument arg : body.getArguments())
    arg.setType(permutedType(arg.getType()));
  body.walk([&](Operation *inner) {
    if (auto c = dyn_cast<tosa::ConstOp>(inner)) {
      auto value = dyn_cast<DenseElementsAttr>(c.getValue());
      if (value && value.getType().getRank() == rank)
        c.setValueAttr(permuteElements(value, perm));
    }
    for (Value result : inner->getResults())
      result.setType(permutedType(result.getType()));
  });
  return moved;
}
