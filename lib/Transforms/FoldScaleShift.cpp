//===- FoldScaleShift.cpp - Fold per-channel affine ops into producers ----===//
//
// An imported BatchNormalization (or any constant per-channel scale and
// shift) after a convolution or a fully-connected op costs two full passes
// over its output. Both fold into the producer's constant weights and bias:
//   mul(conv(x, W, b), s) -> conv(x, W * s, b * s)
//   add(conv(x, W, b), t) -> conv(x, W, b + t)
// with s and t constants that vary only along the output channels (the
// last dimension). Rounding differs from the unfolded form by at most an
// ulp or so per product, the same trade every inference engine makes.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Transforms/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <functional>

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIFOLDSCALESHIFT
#include "nnapi-mlir/Transforms/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;

namespace {

/// Float32 values of a constant operand, or nothing.
std::optional<SmallVector<float>> constantFloats(Value v) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.getElementType().isF32())
    return std::nullopt;
  return llvm::to_vector(attr.getValues<float>());
}

/// The per-channel values of `v` for `channels` output channels: a constant
/// whose dimensions are all 1 except possibly the last, which is 1 or
/// `channels`, and whose rank does not exceed `rank`.
std::optional<SmallVector<float>> perChannel(Value v, int64_t channels,
                                             int64_t rank) {
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type || type.getRank() > rank)
    return std::nullopt;
  ArrayRef<int64_t> shape = type.getShape();
  for (size_t i = 0; i + 1 < shape.size(); ++i)
    if (shape[i] != 1)
      return std::nullopt;
  int64_t last = shape.empty() ? 1 : shape.back();
  if (last != 1 && last != channels)
    return std::nullopt;
  std::optional<SmallVector<float>> values = constantFloats(v);
  if (!values)
    return std::nullopt;
  if (last == 1)
    values->assign(channels, (*values)[0]);
  return values;
}

/// Output channel of each weight element, by op kind.
struct Producer {
  Operation *op;
  Value weights, bias;
  int64_t channels;
  /// Output channel of weight element `i`.
  std::function<int64_t(int64_t)> channelOf;
};

std::optional<Producer> matchProducer(Value v) {
  Operation *op = v.getDefiningOp();
  if (!op || !v.hasOneUse())
    return std::nullopt;
  auto resultType = dyn_cast<RankedTensorType>(v.getType());
  // (A rank-0 result, e.g. a full reduction, has no channels.)
  if (!resultType || !resultType.getElementType().isF32() ||
      resultType.getRank() == 0)
    return std::nullopt;
  Producer p{op, {}, {}, resultType.getShape().back(), {}};
  if (auto conv = dyn_cast<tosa::Conv2DOp>(op)) {
    // Weights [OC, KH, KW, IC].
    p.weights = conv.getWeight(), p.bias = conv.getBias();
    int64_t inner =
        cast<RankedTensorType>(p.weights.getType()).getNumElements() /
        p.channels;
    p.channelOf = [inner](int64_t i) { return i / inner; };
  } else if (auto dw = dyn_cast<tosa::DepthwiseConv2DOp>(op)) {
    // Weights [KH, KW, C, M]: output channel c * M + m, the flattened last
    // two dimensions.
    p.weights = dw.getWeight(), p.bias = dw.getBias();
    int64_t channels = p.channels;
    p.channelOf = [channels](int64_t i) { return i % channels; };
  } else if (auto fc = dyn_cast<tosa::FullyConnectedOp>(op)) {
    // Weights [OC, IC].
    p.weights = fc.getWeight(), p.bias = fc.getBias();
    int64_t inner = cast<RankedTensorType>(p.weights.getType()).getDimSize(1);
    p.channelOf = [inner](int64_t i) { return i / inner; };
  } else {
    return std::nullopt;
  }
  if (op->getAttr("quantization_info"))
    return std::nullopt;
  auto biasType = dyn_cast<RankedTensorType>(p.bias.getType());
  if (!biasType || biasType.getRank() != 1 ||
      biasType.getDimSize(0) != p.channels)
    return std::nullopt;
  return p;
}

Value makeConstant(PatternRewriter &rewriter, Location loc, Value like,
                   ArrayRef<float> values) {
  auto type = cast<RankedTensorType>(like.getType());
  auto attr = DenseElementsAttr::get(type, values);
  return rewriter.create<tosa::ConstOp>(loc, type, attr);
}

/// Replaces `p.op` by a clone with new weights and bias.
Value rebuild(PatternRewriter &rewriter, const Producer &p, Value weights,
              Value bias) {
  Operation *clone = rewriter.clone(*p.op);
  clone->setOperand(1, weights);
  clone->setOperand(2, bias);
  return clone->getResult(0);
}

/// A binary op with a foldable producer on one side and a per-channel
/// constant on the other (either order), and that constant's values.
std::optional<std::pair<Producer, SmallVector<float>>>
matchAffine(Operation *op) {
  for (int side = 0; side < 2; ++side) {
    Value prod = op->getOperand(side), other = op->getOperand(1 - side);
    std::optional<Producer> p = matchProducer(prod);
    if (!p || prod.getType() != op->getResult(0).getType())
      continue;
    auto rank = cast<RankedTensorType>(prod.getType()).getRank();
    if (std::optional<SmallVector<float>> values =
            perChannel(other, p->channels, rank))
      return std::make_pair(*p, std::move(*values));
  }
  return std::nullopt;
}

/// mul(producer, s) / mul(s, producer) -> producer with scaled weights and
/// bias.
struct FoldScale : OpRewritePattern<tosa::MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::MulOp mul,
                                PatternRewriter &rewriter) const override {
    if (mul.getShift() != 0)
      return failure();
    auto match = matchAffine(mul);
    if (!match)
      return failure();
    auto &[p, s] = *match;
    std::optional<SmallVector<float>> w = constantFloats(p.weights);
    std::optional<SmallVector<float>> b = constantFloats(p.bias);
    if (!w || !b)
      return failure();
    for (int64_t i = 0; i < int64_t(w->size()); ++i)
      (*w)[i] *= s[p.channelOf(i)];
    for (int64_t c = 0; c < p.channels; ++c)
      (*b)[c] *= s[c];
    rewriter.setInsertionPoint(p.op);
    Value nw = makeConstant(rewriter, mul.getLoc(), p.weights, *w);
    Value nb = makeConstant(rewriter, mul.getLoc(), p.bias, *b);
    rewriter.replaceOp(mul, rebuild(rewriter, p, nw, nb));
    return success();
  }
};

/// add(producer, t) / add(t, producer) -> producer with bias + t.
struct FoldShift : OpRewritePattern<tosa::AddOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::AddOp add,
                                PatternRewriter &rewriter) const override {
    auto match = matchAffine(add);
    if (!match)
      return failure();
    auto &[p, t] = *match;
    std::optional<SmallVector<float>> b = constantFloats(p.bias);
    if (!b)
      return failure();
    for (int64_t c = 0; c < p.channels; ++c)
      (*b)[c] += t[c];
    rewriter.setInsertionPoint(p.op);
    Value nb = makeConstant(rewriter, add.getLoc(), p.bias, *b);
    rewriter.replaceOp(add, rebuild(rewriter, p, p.weights, nb));
    return success();
  }
};

struct FoldScaleShiftPass
    : public nnapi::impl::NNAPIFoldScaleShiftBase<FoldScaleShiftPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FoldScale, FoldShift>(&getContext());
    if (failed(
            applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
