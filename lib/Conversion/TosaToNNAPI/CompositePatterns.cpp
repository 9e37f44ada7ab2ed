//===- CompositePatterns.cpp - TOSA op chains to one nnapi op -------------===//
//
// One pattern per composite of Composites.cpp. They run before the per-op
// patterns so that the ops they match are still TOSA.
//
//===----------------------------------------------------------------------===//

#include "PatternCommon.h"

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::detail;

namespace {
struct SoftmaxPattern : ToNNAPI<tosa::MulOp, SoftmaxOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::MulOp mul,
                                PatternRewriter &rewriter) const override {
    std::optional<SoftmaxMatch> m = matchSoftmax(mul);
    if (!m)
      return rewriter.notifyMatchFailure(mul, "not a decomposed softmax");
    if (failed(checkTensors(mul, rewriter)) ||
        failed(checkTensors(m->max, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<SoftmaxOp>(
        mul, mul.getType(), m->input, rewriter.getF32FloatAttr(1.0f),
        rewriter.getI32IntegerAttr(static_cast<int32_t>(m->axis)));
    return success();
  }
};

struct MeanPattern : ToNNAPI<tosa::MulOp, MeanOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::MulOp mul,
                                PatternRewriter &rewriter) const override {
    std::optional<MeanMatch> m = matchMean(mul);
    if (!m)
      return rewriter.notifyMatchFailure(mul, "not a decomposed mean");
    // A mean inside a larger composite is left to that composite's pattern.
    if (getCompositeMembers(mul).kind != "mean")
      return rewriter.notifyMatchFailure(mul, "part of a larger composite");
    for (Operation *op : m->members)
      if (failed(checkTensors(op, rewriter)))
        return failure();
    rewriter.replaceOpWithNewOp<MeanOp>(mul, mul.getType(), m->input,
                                        rewriter.getDenseI64ArrayAttr(m->axes),
                                        /*keep_dims=*/true);
    return success();
  }
};

struct HardSwishPattern : ToNNAPI<tosa::MulOp, HardSwishOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::MulOp mul,
                                PatternRewriter &rewriter) const override {
    std::optional<HardSwishMatch> m = matchHardSwish(mul);
    if (!m)
      return rewriter.notifyMatchFailure(mul, "not a decomposed hard swish");
    if (failed(checkTensors(mul, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<HardSwishOp>(mul, mul.getType(), m->input);
    return success();
  }
};

struct PreluPattern : ToNNAPI<tosa::AddOp, PreluOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::AddOp add,
                                PatternRewriter &rewriter) const override {
    std::optional<PreluMatch> m = matchPrelu(add);
    if (!m)
      return rewriter.notifyMatchFailure(add, "not a decomposed prelu");
    for (Operation *op : m->members)
      if (failed(checkTensors(op, rewriter)))
        return failure();
    rewriter.replaceOpWithNewOp<PreluOp>(add, add.getType(), m->input,
                                         m->slope);
    return success();
  }
};

struct EluPattern : ToNNAPI<tosa::AddOp, EluOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::AddOp add,
                                PatternRewriter &rewriter) const override {
    std::optional<EluMatch> m = matchElu(add);
    if (!m)
      return rewriter.notifyMatchFailure(add, "not a decomposed elu");
    if (failed(checkTensors(add, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<EluOp>(add, add.getType(), m->input,
                                       rewriter.getF32FloatAttr(m->alpha));
    return success();
  }
};

struct LogSoftmaxPattern : ToNNAPI<tosa::SubOp, LogSoftmaxOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::SubOp sub,
                                PatternRewriter &rewriter) const override {
    std::optional<LogSoftmaxMatch> m = matchLogSoftmax(sub);
    if (!m)
      return rewriter.notifyMatchFailure(sub, "not a decomposed log-softmax");
    for (Operation *op : m->members)
      if (failed(checkTensors(op, rewriter)))
        return failure();
    rewriter.replaceOpWithNewOp<LogSoftmaxOp>(
        sub, sub.getType(), m->input, rewriter.getF32FloatAttr(1.0f),
        rewriter.getI32IntegerAttr(static_cast<int32_t>(m->axis)));
    return success();
  }
};

struct InstanceNormPattern : ToNNAPI<tosa::MulOp, InstanceNormalizationOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::MulOp mul,
                                PatternRewriter &rewriter) const override {
    std::optional<InstanceNormMatch> m = matchInstanceNorm(mul);
    if (!m)
      return rewriter.notifyMatchFailure(mul,
                                         "not a decomposed instance norm");
    for (Operation *op : m->members)
      if (failed(checkTensors(op, rewriter)))
        return failure();
    rewriter.replaceOpWithNewOp<InstanceNormalizationOp>(
        mul, mul.getType(), m->input, rewriter.getF32FloatAttr(1.0f),
        rewriter.getF32FloatAttr(0.0f),
        rewriter.getF32FloatAttr(float(m->epsilon)),
        m->nchw ? rewriter.getUnitAttr() : UnitAttr());
    return success();
  }
};

struct MirrorPadPattern : ToNNAPI<tosa::ConcatOp, MirrorPadOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ConcatOp concat,
                                PatternRewriter &rewriter) const override {
    std::optional<MirrorPadMatch> m = matchMirrorPad(concat);
    if (!m)
      return rewriter.notifyMatchFailure(concat, "not a decomposed mirror pad");
    if (failed(checkTensors(concat, rewriter)))
      return failure();
    int64_t rank = cast<RankedTensorType>(m->input.getType()).getRank();
    SmallVector<int64_t> padding(2 * rank, 0);
    padding[2 * m->axis] = m->before;
    padding[2 * m->axis + 1] = m->after;
    rewriter.replaceOpWithNewOp<MirrorPadOp>(
        concat, concat.getType(), m->input,
        rewriter.getDenseI64ArrayAttr(padding),
        m->symmetric ? rewriter.getUnitAttr() : UnitAttr());
    return success();
  }
};

struct DepthSpacePattern
    : ToNNAPI<tosa::ReshapeOp, DepthToSpaceOp, SpaceToDepthOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<DepthSpaceMatch> m = matchDepthSpace(op);
    if (!m)
      return rewriter.notifyMatchFailure(op, "not a depth/space rearrangement");
    if (failed(checkTensors(op, rewriter)))
      return failure();
    IntegerAttr block =
        rewriter.getI32IntegerAttr(static_cast<int32_t>(m->block));
    if (m->toSpace)
      rewriter.replaceOpWithNewOp<DepthToSpaceOp>(op, op.getType(), m->input,
                                                  block, rewriter.getUnitAttr());
    else
      rewriter.replaceOpWithNewOp<SpaceToDepthOp>(op, op.getType(), m->input,
                                                  block, rewriter.getUnitAttr());
    return success();
  }
};

/// Concatenates constants along dimension 0.
DenseElementsAttr concatConstants(ArrayRef<Value> values) {
  SmallVector<char> raw;
  int64_t rows = 0;
  RankedTensorType type;
  for (Value v : values) {
    DenseElementsAttr attr;
    matchPattern(v, m_Constant(&attr));
    type = cast<RankedTensorType>(attr.getType());
    rows += type.getDimSize(0);
    Type e = type.getElementType();
    size_t bytes = e.getIntOrFloatBitWidth() / 8 * type.getNumElements();
    if (attr.isSplat())
      for (int64_t i = 0; i < type.getNumElements(); ++i)
        raw.append(attr.getRawData().begin(),
                   attr.getRawData().begin() + bytes / type.getNumElements());
    else
      raw.append(attr.getRawData().begin(), attr.getRawData().end());
  }
  SmallVector<int64_t> shape(type.getShape());
  shape[0] = rows;
  return DenseElementsAttr::getFromRawBuffer(
      RankedTensorType::get(shape, type.getElementType()), raw);
}

struct GroupedConvPattern : ToNNAPI<tosa::ConcatOp, GroupedConv2DOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ConcatOp concat,
                                PatternRewriter &rewriter) const override {
    std::optional<GroupedConvMatch> m = matchGroupedConv(concat);
    if (!m)
      return rewriter.notifyMatchFailure(concat,
                                         "not a per-group convolution concat");
    for (Operation *op : m->members)
      if (failed(checkTensors(op, rewriter)))
        return failure();
    SmallVector<Value> weights, biases;
    for (tosa::Conv2DOp conv : m->convs) {
      weights.push_back(conv.getWeight());
      biases.push_back(conv.getBias());
    }
    Location loc = concat.getLoc();
    Value filter = rewriter.create<arith::ConstantOp>(
        loc, concatConstants(weights));
    Value bias = rewriter.create<arith::ConstantOp>(loc, concatConstants(biases));
    tosa::Conv2DOp first = m->convs.front();
    rewriter.replaceOpWithNewOp<GroupedConv2DOp>(
        concat, concat.getType(), m->input, filter, bias,
        rewriter.getDenseI64ArrayAttr(nnapiPadding(first.getPad())),
        rewriter.getDenseI64ArrayAttr(swapYX(first.getStride())),
        rewriter.getI32IntegerAttr(int32_t(m->convs.size())),
        FuseCodeAttr::get(rewriter.getContext(), FuseCode::none));
    return success();
  }
};

struct ChannelShufflePattern : ToNNAPI<tosa::ReshapeOp, ChannelShuffleOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<ChannelShuffleMatch> m = matchChannelShuffle(op);
    if (!m)
      return rewriter.notifyMatchFailure(op, "not a channel shuffle");
    if (failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<ChannelShuffleOp>(
        op, op.getType(), m->input,
        rewriter.getI32IntegerAttr(static_cast<int32_t>(m->groups)),
        rewriter.getI32IntegerAttr(static_cast<int32_t>(m->axis)));
    return success();
  }
};

struct StridedSlicePattern
    : ToNNAPI<tosa::ReshapeOp, StridedSliceOp, ReshapeOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<StridedSliceMatch> m = matchStridedSlice(op);
    if (!m)
      return rewriter.notifyMatchFailure(op, "not every step-th element");
    for (Operation *member : m->members)
      if (failed(checkDataTensors(member, rewriter)))
        return failure();
    auto x = cast<RankedTensorType>(m->input.getType());
    SmallVector<int64_t> begin(x.getRank(), 0), end(x.getShape()),
        strides(x.getRank(), 1), shape(x.getShape());
    strides[m->axis] = m->step;
    shape[m->axis] = (shape[m->axis] + m->step - 1) / m->step;
    Value sliced = rewriter.create<StridedSliceOp>(
        op.getLoc(), RankedTensorType::get(shape, x.getElementType()),
        m->input, rewriter.getDenseI64ArrayAttr(begin),
        rewriter.getDenseI64ArrayAttr(end),
        rewriter.getDenseI64ArrayAttr(strides));
    // A reshape folded into the last one stays a RESHAPE.
    if (sliced.getType() == op.getType())
      rewriter.replaceOp(op, sliced);
    else
      rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), sliced);
    return success();
  }
};

struct SplitPattern : ToNNAPI<tosa::SliceOp, SplitOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::SliceOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SplitMatch> m = matchSplit(op);
    if (!m)
      return rewriter.notifyMatchFailure(op, "not a split into equal pieces");
    // Slices inside a larger composite (a grouped convolution's) are left
    // to that composite's pattern.
    if (getCompositeMembers(op).kind != "split")
      return rewriter.notifyMatchFailure(op, "part of a larger composite");
    SmallVector<Type> types;
    Operation *first = m->members.front();
    for (Operation *slice : m->members) {
      if (failed(checkTensors(slice, rewriter)))
        return failure();
      types.push_back(slice->getResult(0).getType());
      if (slice->isBeforeInBlock(first))
        first = slice;
    }
    rewriter.setInsertionPoint(first);
    auto split = rewriter.create<SplitOp>(
        op.getLoc(), types, m->input,
        rewriter.getI32IntegerAttr(static_cast<int32_t>(m->axis)));
    for (auto [slice, piece] : llvm::zip(m->members, split.getOutputs()))
      rewriter.replaceOp(slice, piece);
    return success();
  }
};

struct LocalResponsePattern
    : ToNNAPI<tosa::MulOp, LocalResponseNormalizationOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::MulOp mul,
                                PatternRewriter &rewriter) const override {
    std::optional<LocalResponseMatch> m = matchLocalResponse(mul);
    if (!m)
      return rewriter.notifyMatchFailure(mul, "not a decomposed LRN");
    if (failed(checkTensors(mul, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<LocalResponseNormalizationOp>(
        mul, mul.getType(), m->input,
        rewriter.getI32IntegerAttr(static_cast<int32_t>(m->radius)),
        rewriter.getF32FloatAttr(float(m->bias)),
        rewriter.getF32FloatAttr(float(m->alpha)),
        rewriter.getF32FloatAttr(float(m->beta)),
        rewriter.getI32IntegerAttr(static_cast<int32_t>(m->axis)));
    return success();
  }
};

struct L2NormalizationPattern : ToNNAPI<tosa::MulOp, L2NormalizationOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::MulOp mul,
                                PatternRewriter &rewriter) const override {
    std::optional<L2NormMatch> m = matchL2Normalization(mul);
    if (!m)
      return rewriter.notifyMatchFailure(mul, "not a decomposed L2 norm");
    if (failed(checkTensors(mul, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<L2NormalizationOp>(
        mul, mul.getType(), m->input,
        rewriter.getI32IntegerAttr(static_cast<int32_t>(m->axis)));
    return success();
  }
};

/// logical_not(equal(a, b)) is NOT_EQUAL (TOSA has no not-equal).
struct NotEqualPattern : ToNNAPI<tosa::LogicalNotOp, NotEqualOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::LogicalNotOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<NotEqualMatch> m = matchNotEqual(op);
    if (!m)
      return rewriter.notifyMatchFailure(op, "not the negation of an equal");
    tosa::EqualOp equal = m->equal;
    if (failed(checkTensors(equal, rewriter, Elements::FloatOrBool)))
      return failure();
    rewriter.replaceOpWithNewOp<NotEqualOp>(op, op.getType(), equal.getInput1(),
                                            equal.getInput2());
    return success();
  }
};
} // namespace

void mlir::nnapi::populateTosaToNNAPICompositePatterns(
    RewritePatternSet &patterns) {
  patterns.addWithLabel<SoftmaxPattern>(
      {"softmax (reduce_max, sub, exp, reduce_sum, reciprocal, mul)"},
      patterns.getContext());
  patterns.addWithLabel<MeanPattern>({"mean (reduce_sum..., mul by 1/N)"},
                                     patterns.getContext());
  patterns.addWithLabel<HardSwishPattern>(
      {"hard_swish (mul by 1/6, add 1/2, clamp to [0, 1], mul)"},
      patterns.getContext());
  patterns.addWithLabel<InstanceNormPattern>(
      {"instance_normalization ((x - mean) * rsqrt(mean((x - mean)^2) + eps) "
       "over height and width)"},
      patterns.getContext());
  patterns.addWithLabel<MirrorPadPattern>(
      {"mirror_pad (concat of reversed slices around x)"},
      patterns.getContext());
  patterns.addWithLabel<DepthSpacePattern>(
      {"depth_space (NCHW reshape, rank-6 transpose, reshape)"},
      patterns.getContext());
  patterns.addWithLabel<GroupedConvPattern>(
      {"grouped_conv (conv2d per channel slice, concat)"},
      patterns.getContext());
  patterns.addWithLabel<ChannelShufflePattern>(
      {"channel_shuffle (reshape to groups, swap, reshape back)"},
      patterns.getContext());
  patterns.addWithLabel<LocalResponsePattern>(
      {"local_response_normalization (x * pow(bias + k * sum of shifted "
       "squares, -beta))"},
      patterns.getContext());
  patterns.addWithLabel<L2NormalizationPattern>(
      {"l2_normalization (x * select(sum of squares == 0, 0, rsqrt(sum of "
       "squares)))"},
      patterns.getContext());
  patterns.addWithLabel<StridedSlicePattern>(
      {"strided_slice (pad to count x step, reshape to rows, first "
       "column, reshape back)"},
      patterns.getContext());
  patterns.addWithLabel<SplitPattern>(
      {"split (slices cutting one axis into equal pieces)"},
      patterns.getContext());
  patterns.addWithLabel<NotEqualPattern>({"not_equal (logical_not of equal)"},
                                         patterns.getContext());
  addArgMinPattern(patterns);
  patterns.addWithLabel<PreluPattern>(
      {"prelu (add(clamp(x, 0, max), mul(clamp(x, -max, 0), slope)))"},
      patterns.getContext());
  patterns.addWithLabel<EluPattern>(
      {"elu (add(clamp(x, 0, max), mul(exp(clamp(x, -max, 0)) - 1, alpha)))"},
      patterns.getContext());
  patterns.addWithLabel<LogSoftmaxPattern>(
      {"log_softmax (reduce_max, sub, exp, reduce_sum, log, sub)"},
      patterns.getContext());
}
