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

#include "DotProducts.h"
#include "Patterns.h"
#include "nnapi-mlir/Transforms/Constants.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPICODEGENPREPARE
#include "nnapi-mlir/Codegen/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;

namespace {

/// `value` transposed by `perm`: a new constant if it is one, else a
/// linalg.transpose.
Value transposeValue(PatternRewriter &rewriter, Location loc, Value value,
                     ArrayRef<int64_t> perm) {
  DenseElementsAttr attr;
  if (matchPattern(value, m_Constant(&attr))) {
    DenseElementsAttr t = nnapi::permuteElements(attr, perm);
    return rewriter.create<arith::ConstantOp>(loc, t.getType(), t);
  }
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  Value init =
      rewriter.create<tensor::EmptyOp>(loc, shape, type.getElementType());
  return rewriter.create<linalg::TransposeOp>(loc, value, init, perm)
      ->getResult(0);
}

/// `v` (8- or 16-bit integers) minus the constant zero point `zp`, as i32:
/// a constant for a constant, the padding of a tensor.pad by the zero point
/// moved outside (padding with 0), else an element-wise linalg.generic.
FailureOr<Value> widenMinusZeroPoint(PatternRewriter &rewriter, Location loc,
                                     Value v, Value zp) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  IntegerAttr zpAttr;
  if (!type || !matchPattern(zp, m_Constant(&zpAttr)) ||
      !type.getElementType().isSignlessInteger() ||
      type.getElementType().getIntOrFloatBitWidth() > 16)
    return failure();
  int64_t z = zpAttr.getInt();
  Type i32 = rewriter.getI32Type();
  auto wide = RankedTensorType::get(type.getShape(), i32);
  DenseElementsAttr values;
  if (matchPattern(v, m_Constant(&values))) {
    SmallVector<int32_t> out;
    for (const APInt &x : values.getValues<APInt>())
      out.push_back(int32_t(x.getSExtValue() - z));
    return rewriter
        .create<arith::ConstantOp>(
            loc, DenseElementsAttr::get(wide, ArrayRef<int32_t>(out)))
        .getResult();
  }
  if (auto pad = v.getDefiningOp<tensor::PadOp>()) {
    IntegerAttr padAttr;
    Value padValue = pad.getConstantPaddingValue();
    if (padValue && matchPattern(padValue, m_Constant(&padAttr)) &&
        padAttr.getInt() == z) {
      FailureOr<Value> inner =
          widenMinusZeroPoint(rewriter, loc, pad.getSource(), zp);
      if (failed(inner))
        return failure();
      Value zero = rewriter.create<arith::ConstantOp>(
          loc, rewriter.getI32IntegerAttr(0));
      return rewriter
          .create<tensor::PadOp>(loc, wide, *inner, pad.getMixedLowPad(),
                                 pad.getMixedHighPad(), zero)
          .getResult();
    }
  }
  // (Dynamic sizes from `v`: an int8 attention over a dynamic length.)
  Value init = rewriter.create<tensor::EmptyOp>(
      loc, tensor::getMixedSizes(rewriter, loc, v), i32);
  AffineMap id = rewriter.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> iterators(type.getRank(),
                                             utils::IteratorType::parallel);
  return rewriter
      .create<linalg::GenericOp>(
          loc, TypeRange{wide}, ValueRange{v}, ValueRange{init},
          ArrayRef<AffineMap>{id, id}, iterators,
          [&](OpBuilder &b, Location l, ValueRange args) {
            Value x = b.create<arith::ExtSIOp>(l, i32, args[0]);
            Value zc = b.create<arith::ConstantOp>(l, b.getI32IntegerAttr(z));
            b.create<linalg::YieldOp>(l,
                                      ValueRange{b.create<arith::SubIOp>(l, x, zc)});
          })
      ->getResult(0);
}

/// A linalg convolution or matmul with zero points (`..._q`, from TOSA's
/// integer ops with quantization_info) -> its plain form on i32 operands
/// minus their zero points, which the integer strategies vectorize (the
/// `_q` forms would stay scalar loops). Exact: 8-bit differences and their
/// products fit i32 as the accumulator does.
template <typename QuantizedOp, typename PlainOp>
struct WidenZeroPointOperands : OpRewritePattern<QuantizedOp> {
  using OpRewritePattern<QuantizedOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizedOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() ||
        !getElementTypeOrSelf(op->getResult(0).getType()).isInteger(32))
      return failure();
    Location loc = op.getLoc();
    ValueRange in = op.getInputs();
    FailureOr<Value> lhs = widenMinusZeroPoint(rewriter, loc, in[0], in[2]);
    if (failed(lhs))
      return failure();
    FailureOr<Value> rhs = widenMinusZeroPoint(rewriter, loc, in[1], in[3]);
    if (failed(rhs))
      return failure();
    if constexpr (std::is_same_v<PlainOp, linalg::MatmulOp> ||
                  std::is_same_v<PlainOp, linalg::BatchMatmulOp>)
      rewriter.replaceOpWithNewOp<PlainOp>(op, op->getResultTypes(),
                                           ValueRange{*lhs, *rhs},
                                           op.getOutputs());
    else
      rewriter.replaceOpWithNewOp<PlainOp>(
          op, op->getResultTypes(), ValueRange{*lhs, *rhs}, op.getOutputs(),
          op.getStrides(), op.getDilations());
    return success();
  }
};

/// A linalg matmul or batch matmul of narrow integers into i32 without zero
/// points (a TOSA matmul without quantization_info) -> the same on i32
/// operands, which the integer strategies vectorize (the narrow form would
/// stay scalar loops). Not where nnapi-codegen computes the 8-bit form on
/// dot products (static shapes, a target that has them).
template <typename PlainOp>
struct WidenIntegerMatmul : OpRewritePattern<PlainOp> {
  WidenIntegerMatmul(MLIRContext *ctx, nnapi::codegen::DotKind dot)
      : OpRewritePattern<PlainOp>(ctx), dot(dot) {}
  nnapi::codegen::DotKind dot;
  LogicalResult matchAndRewrite(PlainOp op,
                                PatternRewriter &rewriter) const override {
    // The dot-product tiles take static 8-bit products.
    if (dot != nnapi::codegen::DotKind::None && nnapi::codegen::isInt8Matmul(op))
      return failure();
    auto isNarrow = [](Value v) {
      Type t = getElementTypeOrSelf(v);
      return t.isSignlessInteger() && t.getIntOrFloatBitWidth() < 32;
    };
    if (!op.hasPureTensorSemantics() ||
        !getElementTypeOrSelf(op->getResult(0).getType()).isInteger(32) ||
        !llvm::all_of(op.getInputs(), isNarrow))
      return failure();
    Location loc = op.getLoc();
    Value zero =
        rewriter.create<arith::ConstantOp>(loc, rewriter.getI32IntegerAttr(0));
    SmallVector<Value> wide;
    for (Value v : op.getInputs()) {
      FailureOr<Value> w = widenMinusZeroPoint(rewriter, loc, v, zero);
      if (failed(w))
        return failure();
      wide.push_back(*w);
    }
    rewriter.replaceOpWithNewOp<PlainOp>(op, op->getResultTypes(), wide,
                                         op.getOutputs());
    return success();
  }
};

/// linalg.conv_2d_nhwc_fhwc -> linalg.conv_2d_nhwc_hwcf with the filter
/// transposed [F, KH, KW, C] -> [KH, KW, C, F].
struct ConvFilterToHwcf : OpRewritePattern<linalg::Conv2DNhwcFhwcOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::Conv2DNhwcFhwcOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return failure();
    Value filter =
        transposeValue(rewriter, op.getLoc(), op.getInputs()[1], {1, 2, 3, 0});
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
    DenseElementsAttr t = nnapi::permuteElements(attr, op.getPermutation());
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, t.getType(), t);
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

/// A linalg.generic on tensors with only parallel loops.
bool isElementwiseOnTensors(linalg::GenericOp op) {
  return op.hasPureTensorSemantics() &&
         op.getNumParallelLoops() == op.getNumLoops();
}

/// An element-wise linalg.generic's input that is a splat constant (a
/// quantize's scale as a tensor of the data's shape) becomes that scalar in
/// the payload: no buffer as large as the data to read beside it.
struct InlineSplatInputs : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    // Element-wise ones only: a contraction keeps its operands (a packed
    // matmul's panels stay its second input even when all equal).
    if (!isElementwiseOnTensors(op))
      return failure();
    SmallVector<Value> inputs;
    SmallVector<AffineMap> maps;
    SmallVector<std::pair<unsigned, TypedAttr>> splats; // block argument
    for (OpOperand *in : op.getDpsInputOperands()) {
      DenseElementsAttr attr;
      if (isa<RankedTensorType>(in->get().getType()) &&
          matchPattern(in->get(), m_Constant(&attr)) && attr.isSplat() &&
          isa<IntegerType, FloatType>(attr.getElementType())) {
        splats.push_back({op.getMatchingBlockArgument(in).getArgNumber(),
                          attr.getSplatValue<TypedAttr>()});
        continue;
      }
      inputs.push_back(in->get());
      maps.push_back(op.getMatchingIndexingMap(in));
    }
    if (splats.empty())
      return failure();
    for (OpOperand &init : op.getDpsInitsMutable())
      maps.push_back(op.getMatchingIndexingMap(&init));
    // The same payload, the splat arguments replaced by constants.
    auto generic = rewriter.create<linalg::GenericOp>(
        op.getLoc(), op->getResultTypes(), inputs, op.getDpsInits(), maps,
        op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), generic.getRegion(),
                                generic.getRegion().end());
    Block &body = generic.getRegion().front();
    rewriter.setInsertionPointToStart(&body);
    llvm::BitVector dropped(body.getNumArguments());
    for (auto [number, value] : splats) {
      rewriter.replaceAllUsesWith(
          body.getArgument(number),
          rewriter.create<arith::ConstantOp>(op.getLoc(), value));
      dropped.set(number);
    }
    rewriter.modifyOpInPlace(generic, [&] { body.eraseArguments(dropped); });
    rewriter.replaceOp(op, generic->getResults());
    return success();
  }
};

/// An all-parallel linalg.generic whose body does not read an output that
/// is also one of its inputs (ConvertElementwiseToLinalg writes `a / b`
/// into `a`) writes into tensor.empty instead, so that the chain of
/// element-wise ops after a convolution has one user per link and fuses
/// into its tiles. (Other outputs, such as the interior of a padded buffer
/// PadAsBorderFill made, are left alone.)
struct InitFromEmpty : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isElementwiseOnTensors(op))
      return failure();
    bool changed = false;
    for (OpOperand &init : op.getDpsInitsMutable()) {
      auto type = dyn_cast<RankedTensorType>(init.get().getType());
      if (!type || !type.hasStaticShape() ||
          op.payloadUsesValueFromOperand(&init) ||
          !llvm::is_contained(op.getDpsInputs(), init.get()))
        continue;
      rewriter.setInsertionPoint(op);
      Value empty = rewriter.create<tensor::EmptyOp>(
          op.getLoc(), type.getShape(), type.getElementType());
      rewriter.modifyOpInPlace(op, [&] { init.set(empty); });
      changed = true;
    }
    return success(changed);
  }
};

/// Whether the index `a` and the index `b` are the same size at run time.
bool sameSize(const ValueBoundsConstraintSet::Variable &a,
              const ValueBoundsConstraintSet::Variable &b) {
  FailureOr<bool> equal = ValueBoundsConstraintSet::areEqual(a, b);
  return succeeded(equal) && *equal;
}

/// The size of `shaped` along `dim`, reading through a tensor.expand_shape's
/// stated sizes (MLIR 19 has no value bounds for expand_shape; TOSA's
/// reductions keep their reduced dimension through one).
ValueBoundsConstraintSet::Variable sizeOf(Value shaped, int64_t dim) {
  if (auto expand = shaped.getDefiningOp<tensor::ExpandShapeOp>()) {
    Builder b(shaped.getContext());
    return ValueBoundsConstraintSet::Variable(getMixedValues(
        expand.getStaticOutputShape(), expand.getOutputShape(), b)[dim]);
  }
  return ValueBoundsConstraintSet::Variable(shaped, dim);
}

/// max(a, b) of two sizes that are provably equal is `a`: TOSA's broadcast
/// of two dynamic dimensions takes their maximum as the result's size, and
/// once it is the operand's own size the broadcasts below are seen to be
/// copies.
struct MaxOfEqualSizes : OpRewritePattern<arith::MaxUIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::MaxUIOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isIndex() || !sameSize(op.getLhs(), op.getRhs()))
      return failure();
    rewriter.replaceOp(op, op.getLhs());
    return success();
  }
};

/// `scf.if (dim(x, i) == 1) { broadcast x along i } else { x }`, which
/// tosa-to-linalg emits for every dynamic dimension of an element-wise
/// operand, is `x` where the broadcast's size along i is provably x's own:
/// a size-1 dimension broadcast to size 1 copies it. Left in place, the if
/// splits the element-wise chain around it into loop nests of their own
/// (a softmax over a dynamic number of keys ran as six).
struct DropIdentityBroadcast : OpRewritePattern<scf::IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::IfOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumResults() != 1 || op.getElseRegion().empty())
      return failure();
    Value x = op.elseYield().getOperand(0);
    auto copy = op.thenYield().getOperand(0).getDefiningOp<linalg::GenericOp>();
    if (!copy || copy->getParentOp() != op || x.getType() != op.getType(0) ||
        copy.getNumDpsInputs() != 1 || copy.getDpsInputs()[0] != x ||
        copy.getNumReductionLoops() != 0 ||
        !copy.getIndexingMapsArray()[1].isIdentity())
      return failure();
    auto yield = cast<linalg::YieldOp>(copy.getBody()->getTerminator());
    if (yield.getOperand(0) != copy.getBody()->getArgument(0))
      return failure();
    // The one dimension the copy broadcasts must be the one the condition
    // finds to be 1; every other one is read in place.
    AffineMap read = copy.getIndexingMapsArray()[0];
    auto type = cast<RankedTensorType>(x.getType());
    if (read.getNumResults() != type.getRank())
      return failure();
    auto cond = op.getCondition().getDefiningOp<arith::CmpIOp>();
    APInt one;
    if (!cond || cond.getPredicate() != arith::CmpIPredicate::eq ||
        !matchPattern(cond.getRhs(), m_ConstantInt(&one)) || !one.isOne())
      return failure();
    for (auto [i, expr] : llvm::enumerate(read.getResults())) {
      ValueBoundsConstraintSet::Variable inSize = sizeOf(x, int64_t(i));
      if (!sameSize(ValueBoundsConstraintSet::Variable(copy.getResult(0),
                                                       int64_t(i)),
                    inSize))
        return failure();
      if (expr == rewriter.getAffineDimExpr(i))
        continue;
      auto zero = dyn_cast<AffineConstantExpr>(expr);
      if (!zero || zero.getValue() != 0 ||
          (type.getDimSize(i) != 1 &&
           !sameSize(ValueBoundsConstraintSet::Variable(cond.getLhs()),
                     inSize)))
        return failure();
    }
    rewriter.replaceOp(op, x);
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
    if (!isElementwiseOnTensors(op))
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
        if (!c || c.getValue() != 0 || ranges[i] != 1 || map.isFunctionOfDim(i))
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

/// tensor.pad with static amounts and a constant value becomes a buffer whose
/// border is filled and whose interior receives the source: the producer of
/// the source writes into the interior directly when it can (an op whose
/// destination is a fresh tensor), else the source is inserted there. Either
/// way no full-size fill happens and, with a producer, no copy: the padded
/// input of a convolution or pool costs only its border. The source may
/// have dynamic dimensions (issue 54): sizes are then read from it (or from
/// the producer's fresh destination, which exists before the producer).
/// What PadAsBorderFill takes: a ranked source, static amounts, a constant
/// padding value.
bool padsByBorderFill(tensor::PadOp pad) {
  return isa<RankedTensorType>(pad.getSourceType()) &&
         pad.getConstantPaddingValue() && !pad.getNofold() &&
         !ShapedType::isDynamicShape(pad.getStaticLow()) &&
         !ShapedType::isDynamicShape(pad.getStaticHigh());
}

struct PadAsBorderFill : OpRewritePattern<tensor::PadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::PadOp pad,
                                PatternRewriter &rewriter) const override {
    if (!padsByBorderFill(pad))
      return failure();
    RankedTensorType type = pad.getResultType();
    auto sourceType = cast<RankedTensorType>(pad.getSourceType());
    Value value = pad.getConstantPaddingValue();
    ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
    int64_t rank = type.getRank();

    // The producer writes the interior when its destination is a fresh
    // tensor used by nothing else.
    Value source = pad.getSource();
    auto producer = source.getDefiningOp<DestinationStyleOpInterface>();
    OpOperand *init = nullptr;
    if (producer && source.hasOneUse() && producer->getNumResults() == 1) {
      OpOperand *candidate = producer.getTiedOpOperand(cast<OpResult>(source));
      if (candidate && candidate->get().getDefiningOp<tensor::EmptyOp>() &&
          candidate->get().hasOneUse())
        init = candidate;
    }
    Location loc = pad.getLoc();
    rewriter.setInsertionPoint(init ? producer.getOperation()
                                    : pad.getOperation());
    // The interior's and the whole buffer's sizes, and a + b of sizes.
    SmallVector<OpFoldResult> inner = tensor::getMixedSizes(
        rewriter, loc, init ? init->get() : source);
    auto add = [&](OpFoldResult a, int64_t b) -> OpFoldResult {
      if (std::optional<int64_t> c = getConstantIntValue(a))
        return rewriter.getIndexAttr(*c + b);
      if (!b)
        return a;
      return rewriter
          .create<arith::AddIOp>(
              loc, cast<Value>(a),
              rewriter.create<arith::ConstantIndexOp>(loc, b))
          .getResult();
    };
    SmallVector<OpFoldResult> outer;
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < rank; ++d) {
      outer.push_back(add(inner[d], low[d] + high[d]));
      if (type.isDynamicDim(d))
        dynamicSizes.push_back(cast<Value>(outer.back()));
    }
    // A buffer of its own (alloc_tensor, not tensor.empty, which CSE would
    // merge with another pad's of the same type: bufferization then copies
    // the whole shared buffer for every pad but one).
    Value buffer =
        rewriter.create<bufferization::AllocTensorOp>(loc, type, dynamicSizes);
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    // One slab per padded side: along dimension d the pad, along earlier
    // dimensions the interior, along later ones everything.
    auto fillSlab = [&](int64_t d, OpFoldResult offset, int64_t size) {
      SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
      SmallVector<OpFoldResult> sizes(outer);
      for (int64_t j = 0; j < d; ++j) {
        offsets[j] = rewriter.getIndexAttr(low[j]);
        sizes[j] = inner[j];
      }
      offsets[d] = offset;
      sizes[d] = rewriter.getIndexAttr(size);
      Value slab =
          rewriter.create<tensor::EmptyOp>(loc, sizes, type.getElementType());
      Value filled =
          rewriter.create<linalg::FillOp>(loc, value, slab)->getResult(0);
      buffer = rewriter.create<tensor::InsertSliceOp>(loc, filled, buffer,
                                                      offsets, sizes, strides);
    };
    for (int64_t d = 0; d < rank; ++d) {
      if (low[d])
        fillSlab(d, rewriter.getIndexAttr(0), low[d]);
      if (high[d])
        fillSlab(d, add(inner[d], low[d]), high[d]);
    }
    SmallVector<OpFoldResult> lowOffsets;
    for (int64_t l : low)
      lowOffsets.push_back(rewriter.getIndexAttr(l));
    if (init) {
      Value interior = rewriter.create<tensor::ExtractSliceOp>(
          loc, sourceType, buffer, lowOffsets, inner, strides);
      rewriter.modifyOpInPlace(producer, [&] { init->set(interior); });
      rewriter.setInsertionPoint(pad);
    }
    rewriter.replaceOpWithNewOp<tensor::InsertSliceOp>(
        pad, source, buffer, lowOffsets,
        tensor::getMixedSizes(rewriter, loc, source), strides);
    return success();
  }
};

/// linalg.batch_matmul [1, M, K] x [1, K, N] -> linalg.matmul.
struct UnitBatchMatmul : OpRewritePattern<linalg::BatchMatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::BatchMatmulOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return failure();
    for (Value v : op->getOperands()) {
      auto t = dyn_cast<RankedTensorType>(v.getType());
      if (!t || t.getRank() != 3 || t.getDimSize(0) != 1)
        return failure();
    }
    Location loc = op.getLoc();
    SmallVector<ReassociationIndices> drop = {{0, 1}, {2}};
    auto collapse = [&](Value v) -> Value {
      return rewriter.create<tensor::CollapseShapeOp>(loc, v, drop);
    };
    Value init = collapse(op.getOutputs()[0]);
    auto matmul = rewriter.create<linalg::MatmulOp>(
        loc, TypeRange{init.getType()},
        ValueRange{collapse(op.getInputs()[0]), collapse(op.getInputs()[1])},
        ValueRange{init});
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, op->getResult(0).getType(), matmul->getResult(0), drop);
    return success();
  }
};

/// linalg.matmul(A [M, K], B [K, N] constant) ->
///   collapse(generic(A, Bp [N/P, K, P]) outs(expand(C) [M, N/P, P]))
/// with Bp[nb, k, p] = B[k, nb * P + p], computed at compile time.
struct PackConstantMatmulRhs : OpRewritePattern<linalg::MatmulOp> {
  PackConstantMatmulRhs(MLIRContext *ctx, int64_t panel)
      : OpRewritePattern(ctx), panel(panel) {}
  LogicalResult matchAndRewrite(linalg::MatmulOp op,
                                PatternRewriter &rewriter) const override {
    DenseElementsAttr b;
    if (!op.hasPureTensorSemantics() ||
        !matchPattern(op.getInputs()[1], m_Constant(&b)) || b.isSplat())
      return failure();
    auto bType = cast<RankedTensorType>(b.getType());
    auto cType = dyn_cast<RankedTensorType>(op.getOutputs()[0].getType());
    // The rows may be dynamic (a 1x1 convolution over a dynamically sized
    // feature map, nnapi-pointwise-conv-as-matmul).
    // The packed body multiplies and adds in one type (not an 8-bit
    // product into i32, which the dot-product tiles take).
    if (!bType.hasStaticShape() || !cType || cType.isDynamicDim(1) ||
        bType.getElementType() != cType.getElementType())
      return failure();
    int64_t k = bType.getDimSize(0), n = bType.getDimSize(1);
    int64_t m = cType.getDimSize(0);
    if (n % panel || n == panel)
      return failure();
    // [K, N] -> [K, N/P, P] (a reshape) -> [N/P, K, P] (a transpose).
    auto split =
        RankedTensorType::get({k, n / panel, panel}, bType.getElementType());
    DenseElementsAttr packed =
        nnapi::permuteElements(b.reshape(split), {1, 0, 2});
    Location loc = op.getLoc();
    Value bp =
        rewriter.create<arith::ConstantOp>(loc, packed.getType(), packed);
    SmallVector<ReassociationIndices> cols = {{0}, {1, 2}};
    auto c3Type =
        RankedTensorType::get({m, n / panel, panel}, cType.getElementType());
    SmallVector<OpFoldResult> c3Sizes = {
        tensor::getMixedSize(rewriter, loc, op.getOutputs()[0], 0),
        rewriter.getIndexAttr(n / panel), rewriter.getIndexAttr(panel)};
    Value c3 = rewriter.create<tensor::ExpandShapeOp>(
        loc, c3Type, op.getOutputs()[0], cols, c3Sizes);
    SmallVector<AffineMap> maps =
        nnapi::packedMatmulMaps(rewriter.getContext());
    SmallVector<utils::IteratorType> iterators = {
        utils::IteratorType::parallel, utils::IteratorType::parallel,
        utils::IteratorType::parallel, utils::IteratorType::reduction};
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, TypeRange{c3Type}, ValueRange{op.getInputs()[0], bp},
        ValueRange{c3}, maps, iterators,
        [](OpBuilder &b, Location l, ValueRange args) {
          // (i32 for integer matmuls in their widened form.)
          bool isFloat = isa<FloatType>(args[2].getType());
          Value mul = isFloat ? b.create<arith::MulFOp>(l, args[0], args[1])
                                    .getResult()
                              : b.create<arith::MulIOp>(l, args[0], args[1])
                                    .getResult();
          Value add = isFloat
                          ? b.create<arith::AddFOp>(l, args[2], mul).getResult()
                          : b.create<arith::AddIOp>(l, args[2], mul).getResult();
          b.create<linalg::YieldOp>(l, add);
        });
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, cType, generic->getResult(0), cols);
    return success();
  }
  int64_t panel;
};

/// `v` is a packed matmul's result, seen through reshapes.
bool isReshapedPackedMatmul(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def))
      return nnapi::isPackedMatmul(def);
    v = def->getOperand(0);
  }
  return false;
}

/// An all-parallel linalg.generic (an element-wise op or a broadcast).
bool isParallelGeneric(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  return generic && generic.getNumParallelLoops() == generic.getNumLoops();
}

/// Which reshapes fold into a linalg.generic: around packed matmuls only,
/// so that the matmul's initializer (a bias broadcast, reshaped to the
/// panels) and the element-wise ops after it (on the unpacked or NHWC
/// shape) take the panel shape and fuse into its tiles.
bool foldsAroundPackedMatmul(OpOperand *operand) {
  Operation *owner = operand->getOwner();
  // generic(reshape(matmul)): the consumer takes the matmul's shape.
  if (isParallelGeneric(owner))
    return isReshapedPackedMatmul(operand->get());
  // expand_shape(generic) as a matmul's initializer: the initializer is
  // computed in the panel shape.
  auto expand = dyn_cast<tensor::ExpandShapeOp>(owner);
  Operation *producer = operand->get().getDefiningOp();
  return expand && producer && isParallelGeneric(producer) &&
         llvm::any_of(expand->getUsers(), nnapi::isPackedMatmul);
}

/// The reshapes folded by collapsing a consumer's loops: those of
/// foldsAroundPackedMatmul, and a plain matmul's result reshaped to add
/// unit dimensions (TOSA's batch of one), so that element-wise consumers
/// (an attention's scaling of its scores) take the matmul's shape and fuse
/// into its tiles.
bool foldsIntoMatmulShape(OpOperand *operand) {
  if (foldsAroundPackedMatmul(operand))
    return true;
  auto expand = operand->get().getDefiningOp<tensor::ExpandShapeOp>();
  return expand && isParallelGeneric(operand->getOwner()) &&
         expand.getSrc().getDefiningOp<linalg::MatmulOp>();
}

/// tensor.pad of a dynamically shaped tensor by amounts known only at run
/// time (issue 54; PadAsBorderFill takes static amounts) becomes a fill of
/// a fresh tensor and an insert of the source: one-shot bufferization of a
/// dynamic tensor.pad in MLIR 19 sizes its buffer from the pad's own result
/// and so uses a value before its definition.
struct DynamicPadAsFill : linalg::GeneralizePadOpPattern {
  DynamicPadAsFill(MLIRContext *ctx) : GeneralizePadOpPattern(ctx) {}
  LogicalResult matchAndRewrite(tensor::PadOp pad,
                                PatternRewriter &rewriter) const override {
    if (pad.getResultType().hasStaticShape() || padsByBorderFill(pad))
      return failure();
    return GeneralizePadOpPattern::matchAndRewrite(pad, rewriter);
  }
};

struct CodegenPreparePass
    : public nnapi::impl::NNAPICodegenPrepareBase<CodegenPreparePass> {
  using NNAPICodegenPrepareBase::NNAPICodegenPrepareBase;
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    auto addReshapeCanonicalization = [ctx](RewritePatternSet &patterns) {
      tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, ctx);
      tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, ctx);
      linalg::FillOp::getCanonicalizationPatterns(patterns, ctx);
    };
    // Matmuls first: packing a constant right-hand side puts reshapes
    // around the matmul, which then fold into its neighbours before the
    // other rewrites (a padded consumer's border) depend on their shapes.
    // (Unit dimensions read at the loop index make the maps permutations,
    // which the reshape folds need.)
    RewritePatternSet matmuls(ctx);
    // (Splat operands inlined first: a scale by a constant then has maps
    // the reshape folds accept.)
    matmuls.add<FoldConstantTranspose, UnitDimReadAsIndex, MaxOfEqualSizes,
                DropIdentityBroadcast, InlineSplatInputs>(ctx);
    nnapi::populateUnitBatchMatmulPatterns(matmuls);
    // Panels of two vectors (at least 8 columns), as the matmul strategy
    // tiles columns.
    matmuls.add<PackConstantMatmulRhs>(
        ctx, std::max<int64_t>(8, 2 * int64_t(vectorBits) / 32));
    addReshapeCanonicalization(matmuls);
    // Element-wise consumers of an unpacked (NHWC) matmul result first take
    // the unpacked shape (collapsing their loops), then the panel shape
    // (expanding them); the initializer takes the panel shape.
    RewritePatternSet collapsing(ctx), expanding(ctx);
    linalg::populateFoldReshapeOpsByCollapsingPatterns(collapsing,
                                                       foldsIntoMatmulShape);
    linalg::populateFoldReshapeOpsByExpansionPatterns(expanding,
                                                      foldsAroundPackedMatmul);
    addReshapeCanonicalization(expanding);
    // Integer convolutions and matmuls with zero points first, so that the
    // patterns below see their plain forms.
    // Those on 8-bit data for the dot-product instructions first, once the
    // constant filters TOSA transposed are folded.
    std::optional<nnapi::codegen::DotKind> dot =
        nnapi::codegen::parseDotKind(int8Dot, getOperation());
    if (!dot)
      return signalPassFailure();
    if (*dot != nnapi::codegen::DotKind::None) {
      RewritePatternSet int8(ctx);
      int8.add<FoldConstantTranspose>(ctx);
      nnapi::codegen::populateInt8ConvPatterns(int8, *dot);
      RewritePatternSet int8Matmuls(ctx);
      nnapi::codegen::populateInt8MatmulPatterns(int8Matmuls, *dot);
      nnapi::codegen::populateMaddOperandPatterns(int8Matmuls, *dot);
      if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(int8))) ||
          failed(applyPatternsAndFoldGreedily(getOperation(),
                                              std::move(int8Matmuls))))
        return signalPassFailure();
    }
    RewritePatternSet integers(ctx);
    integers.add<
        WidenZeroPointOperands<linalg::Conv2DNhwcFhwcQOp,
                               linalg::Conv2DNhwcFhwcOp>,
        WidenZeroPointOperands<linalg::DepthwiseConv2DNhwcHwcmQOp,
                               linalg::DepthwiseConv2DNhwcHwcmOp>,
        WidenZeroPointOperands<linalg::QuantizedMatmulOp, linalg::MatmulOp>,
        WidenZeroPointOperands<linalg::QuantizedBatchMatmulOp,
                               linalg::BatchMatmulOp>>(ctx);
    integers.add<WidenIntegerMatmul<linalg::MatmulOp>,
                 WidenIntegerMatmul<linalg::BatchMatmulOp>>(ctx, *dot);
    if (failed(applyPatternsAndFoldGreedily(getOperation(),
                                            std::move(integers))))
      return signalPassFailure();
    RewritePatternSet patterns(ctx);
    patterns.add<ConvFilterToHwcf, FoldConstantTranspose, DepthwiseToHwc,
                 InitFromEmpty, InlineSplatInputs,
                 UnitDimReadAsIndex, PadAsBorderFill, DynamicPadAsFill>(ctx);
    nnapi::populateUnitBatchMatmulPatterns(patterns);
    addReshapeCanonicalization(patterns);
    for (RewritePatternSet *set :
         {&matmuls, &collapsing, &expanding, &patterns})
      if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(*set))))
        return signalPassFailure();
  }
};

} // namespace

SmallVector<AffineMap> mlir::nnapi::packedMatmulMaps(MLIRContext *ctx) {
  AffineExpr m, nb, p, k;
  bindDims(ctx, m, nb, p, k);
  return {AffineMap::get(4, 0, {m, k}, ctx),
          AffineMap::get(4, 0, {nb, k, p}, ctx),
          AffineMap::get(4, 0, {m, nb, p}, ctx)};
}

bool mlir::nnapi::isContractionWithMaps(Operation *op,
                                        ArrayRef<AffineMap> maps) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  return generic && generic.getNumReductionLoops() == 1 &&
         linalg::isaContractionOpInterface(generic) &&
         llvm::equal(generic.getIndexingMapsArray(), maps);
}

bool mlir::nnapi::isPackedMatmul(Operation *op) {
  return op &&
         isContractionWithMaps(op, packedMatmulMaps(op->getContext()));
}

void mlir::nnapi::populateUnitBatchMatmulPatterns(RewritePatternSet &patterns) {
  patterns.add<UnitBatchMatmul>(patterns.getContext());
}
