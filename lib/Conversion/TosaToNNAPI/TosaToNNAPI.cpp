//===- TosaToNNAPI.cpp - TOSA to nnapi: legality and patterns -------------===//

#include "nnapi-mlir/Conversion/TosaToNNAPI/TosaToNNAPI.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/Fusion.h"
#include "nnapi-mlir/Runtime/NeuralNetworks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <cfloat>
#include <cstdio>

using namespace mlir;
using namespace mlir::nnapi;

//===----------------------------------------------------------------------===//
// Composite patterns
//===----------------------------------------------------------------------===//

namespace {
/// The ops of a decomposed softmax: mul(exp(x - max(x)), 1 / sum(exp(...))).
struct SoftmaxMatch {
  tosa::ReduceMaxOp max;
  tosa::SubOp sub;
  tosa::ExpOp exp;
  tosa::ReduceSumOp sum;
  tosa::ReciprocalOp reciprocal;
  tosa::MulOp mul;
  Value input;
  int64_t axis;
};

std::optional<SoftmaxMatch> matchSoftmax(tosa::MulOp mul) {
  if (!mul || mul.getShift() != 0)
    return std::nullopt;
  SoftmaxMatch m;
  m.mul = mul;
  for (int i = 0; i < 2; ++i) {
    m.exp = mul->getOperand(i).getDefiningOp<tosa::ExpOp>();
    m.reciprocal = mul->getOperand(1 - i).getDefiningOp<tosa::ReciprocalOp>();
    if (m.exp && m.reciprocal)
      break;
  }
  if (!m.exp || !m.reciprocal)
    return std::nullopt;
  m.sum = m.reciprocal.getInput1().getDefiningOp<tosa::ReduceSumOp>();
  m.sub = m.exp.getInput1().getDefiningOp<tosa::SubOp>();
  if (!m.sum || !m.sub || m.sum.getInput() != m.exp.getResult())
    return std::nullopt;
  m.max = m.sub.getInput2().getDefiningOp<tosa::ReduceMaxOp>();
  if (!m.max || m.max.getInput() != m.sub.getInput1() ||
      m.max.getAxis() != m.sum.getAxis())
    return std::nullopt;
  // Every intermediate value stays inside the pattern.
  if (!m.max->hasOneUse() || !m.sub->hasOneUse() || !m.sum->hasOneUse() ||
      !m.reciprocal->hasOneUse() ||
      std::distance(m.exp->use_begin(), m.exp->use_end()) != 2)
    return std::nullopt;
  m.input = m.sub.getInput1();
  m.axis = m.max.getAxis();
  return m;
}

/// Finds the mul that would root a softmax containing `op`.
tosa::MulOp findSoftmaxRoot(Operation *op) {
  Operation *cur = op;
  for (int depth = 0; depth < 5 && cur; ++depth) {
    if (auto mul = dyn_cast<tosa::MulOp>(cur))
      return mul;
    if (!isa<tosa::ReduceMaxOp, tosa::SubOp, tosa::ExpOp, tosa::ReduceSumOp,
             tosa::ReciprocalOp>(cur) ||
        cur->getNumResults() != 1)
      return nullptr;
    // Walk towards the mul: exp has two users, the mul is one of them.
    Operation *next = nullptr;
    for (Operation *user : cur->getUsers())
      if (!next || isa<tosa::MulOp>(user))
        next = user;
    cur = next;
  }
  return nullptr;
}
} // namespace

SmallVector<Operation *> mlir::nnapi::getCompositeMembers(Operation *op) {
  tosa::MulOp root = findSoftmaxRoot(op);
  std::optional<SoftmaxMatch> m = matchSoftmax(root);
  if (!m)
    return {};
  SmallVector<Operation *> members = {m->max, m->sub, m->exp,
                                      m->sum, m->reciprocal, m->mul};
  if (!llvm::is_contained(members, op))
    return {};
  return members;
}

//===----------------------------------------------------------------------===//
// What every pattern checks first
//===----------------------------------------------------------------------===//

namespace {
/// NNAPI's float operations need static-shaped float32/float16 tensors; the
/// nnapi dialect's types say the same, so a pattern never builds an op its
/// type constraints reject. Ranks, shapes and attributes are the verifiers'
/// business; feature levels the ops' (NNAPIOperationInterface).
LogicalResult checkTensors(Operation *op, PatternRewriter &rewriter) {
  auto check = [&](Type type, StringRef what, unsigned i) -> LogicalResult {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape())
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
        diag << what << " " << i << " must have a static shape";
      });
    Type e = tensor.getElementType();
    if (!e.isF32() && !e.isF16())
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
        diag << what << " " << i << " has element type " << e
             << "; only f32 and f16 are supported";
      });
    return success();
  };
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check(type, "operand", i)))
      return failure();
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(type, "result", i)))
      return failure();
  return success();
}

LogicalResult checkConstant(Operation *op, Value v, StringRef what,
                            PatternRewriter &rewriter) {
  if (matchPattern(v, m_Constant()))
    return success();
  return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
    diag << what << " must be a constant";
  });
}

std::string formatBound(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%g", v);
  return buffer;
}

/// The NNAPI activation a tosa.clamp is, if any.
std::optional<FuseCode> clampActivation(tosa::ClampOp clamp) {
  double lo = clamp.getMinFp().convertToDouble();
  double hi = clamp.getMaxFp().convertToDouble();
  if (lo == 0.0 && hi >= FLT_MAX)
    return FuseCode::relu;
  if (lo == 0.0 && hi == 6.0)
    return FuseCode::relu6;
  if (lo == -1.0 && hi == 1.0)
    return FuseCode::relu1;
  return std::nullopt;
}
} // namespace

namespace {
int64_t numElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasStaticShape() ? shaped.getNumElements() : 0;
}
} // namespace

mlir::nnapi::OpWork mlir::nnapi::estimateWork(Operation *op) {
  OpWork work;
  for (Value v : op->getOperands())
    work.elements += double(numElements(v.getType()));
  for (Value v : op->getResults())
    work.elements += double(numElements(v.getType()));
  if (op->getNumResults() != 1)
    return work;
  double out = double(numElements(op->getResult(0).getType()));
  auto dim = [](Value v, unsigned i) -> double {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t && t.getRank() > i && !t.isDynamicDim(i) ? double(t.getDimSize(i))
                                                       : 0.0;
  };
  TypeSwitch<Operation *>(op)
      .Case([&](tosa::Conv2DOp c) {
        // Weight [OC, KH, KW, IC]: one MAC per weight element per output pixel.
        work.macs = out * dim(c.getWeight(), 1) * dim(c.getWeight(), 2) *
                    dim(c.getWeight(), 3);
      })
      .Case([&](tosa::DepthwiseConv2DOp c) {
        // Weight [KH, KW, C, M].
        work.macs = out * dim(c.getWeight(), 0) * dim(c.getWeight(), 1);
      })
      .Case([&](tosa::FullyConnectedOp f) {
        work.macs = out * dim(f.getWeight(), 1);
      })
      .Case([&](tosa::MatMulOp m) { work.macs = out * dim(m.getA(), 2); })
      .Case<tosa::MaxPool2dOp, tosa::AvgPool2dOp>([&](auto p) {
        ArrayRef<int64_t> kernel = p.getKernel();
        work.macs = out * double(kernel[0] * kernel[1]);
      });
  return work;
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {
/// NNAPI orders window parameters [left, right, top, bottom] and [w, h];
/// TOSA uses [top, bottom, left, right] and [y, x].
SmallVector<int64_t> nnapiPadding(ArrayRef<int64_t> tosaPad) {
  return {tosaPad[2], tosaPad[3], tosaPad[0], tosaPad[1]};
}
SmallVector<int64_t> swapYX(ArrayRef<int64_t> yx) { return {yx[1], yx[0]}; }

/// Convolutions and fully connected: float, not quantized, constant weights
/// and bias (NNAPI drivers and XNNPACK prepare constant weights once).
template <typename TosaOp>
LogicalResult checkWeighted(TosaOp op, PatternRewriter &rewriter) {
  if (op.getQuantizationInfo())
    return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
      diag << "quantized " << op->getName().stripDialect()
           << " is not supported yet";
    });
  if (failed(checkTensors(op, rewriter)) ||
      failed(checkConstant(op, op.getWeight(), "weight", rewriter)) ||
      failed(checkConstant(op, op.getBias(), "bias", rewriter)))
    return failure();
  return success();
}

/// A pattern from `TosaOp` to the nnapi ops `Generated`. The generated op
/// names are declared to MLIR, which is where docs/ops.md's TOSA column comes
/// from (tools/nnapi-ops-doc).
template <typename TosaOp, typename... Generated>
struct ToNNAPI : OpRewritePattern<TosaOp> {
  explicit ToNNAPI(MLIRContext *ctx, PatternBenefit benefit = 1)
      : OpRewritePattern<TosaOp>(ctx, benefit,
                                 {Generated::getOperationName()...}) {}
};

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

template <typename TosaOp, typename NNAPIOp>
struct BinaryPattern : ToNNAPI<TosaOp, NNAPIOp> {
  using ToNNAPI<TosaOp, NNAPIOp>::ToNNAPI;
  LogicalResult matchAndRewrite(TosaOp op,
                                PatternRewriter &rewriter) const override {
    if (auto mul = dyn_cast<tosa::MulOp>(op.getOperation()))
      if (mul.getShift() != 0)
        return rewriter.notifyMatchFailure(
            op, "tosa.mul with a shift is integer-only");
    if (failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<NNAPIOp>(op, op.getType(), op->getOperand(0),
                                         op->getOperand(1));
    return success();
  }
};

template <typename TosaOp, typename NNAPIOp>
struct UnaryPattern : ToNNAPI<TosaOp, NNAPIOp> {
  using ToNNAPI<TosaOp, NNAPIOp>::ToNNAPI;
  LogicalResult matchAndRewrite(TosaOp op,
                                PatternRewriter &rewriter) const override {
    if constexpr (std::is_same_v<TosaOp, tosa::NegateOp>)
      if (op.getQuantizationInfo())
        return rewriter.notifyMatchFailure(op, "quantized negate");
    if (failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<NNAPIOp>(op, op.getType(), op->getOperand(0));
    return success();
  }
};

/// pow(x, 0.5) is SQRT, exactly.
struct SqrtPattern : ToNNAPI<tosa::PowOp, SqrtOp> {
  // Before the plain POW pattern.
  explicit SqrtPattern(MLIRContext *ctx) : ToNNAPI(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(tosa::PowOp op,
                                PatternRewriter &rewriter) const override {
    DenseFPElementsAttr exponent;
    if (!matchPattern(op.getInput2(), m_Constant(&exponent)) ||
        !exponent.isSplat() ||
        exponent.getSplatValue<APFloat>().convertToDouble() != 0.5)
      return rewriter.notifyMatchFailure(op, "exponent is not 0.5");
    if (failed(checkTensors(op, rewriter)))
      return failure();
    auto type = cast<RankedTensorType>(op.getType());
    if (op.getInput1().getType() != type)
      return rewriter.notifyMatchFailure(op, "the exponent broadcasts x");
    rewriter.replaceOpWithNewOp<SqrtOp>(op, type, op.getInput1());
    return success();
  }
};

struct ReciprocalPattern : ToNNAPI<tosa::ReciprocalOp, DivOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ReciprocalOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter)))
      return failure();
    auto type = cast<RankedTensorType>(op.getType());
    // A one-element dividend that broadcasts to the divisor's shape.
    auto oneType = RankedTensorType::get(
        SmallVector<int64_t>(type.getRank() ? 1 : 0, 1), type.getElementType());
    Value one = rewriter.create<arith::ConstantOp>(
        op.getLoc(), DenseElementsAttr::get(
                         oneType, rewriter.getFloatAttr(type.getElementType(),
                                                        1.0)));
    rewriter.replaceOpWithNewOp<DivOp>(op, type, one, op.getInput1());
    return success();
  }
};

struct ClampPattern : ToNNAPI<tosa::ClampOp, ReluOp, Relu1Op, Relu6Op> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ClampOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<FuseCode> code = clampActivation(op);
    if (!code)
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
        diag << "clamp bounds [" << formatBound(op.getMinFp().convertToDouble())
             << ", " << formatBound(op.getMaxFp().convertToDouble())
             << "] match no NNAPI activation";
      });
    if (failed(checkTensors(op, rewriter)))
      return failure();
    switch (*code) {
    case FuseCode::relu:
      rewriter.replaceOpWithNewOp<ReluOp>(op, op.getType(), op.getInput());
      break;
    case FuseCode::relu1:
      rewriter.replaceOpWithNewOp<Relu1Op>(op, op.getType(), op.getInput());
      break;
    case FuseCode::relu6:
      rewriter.replaceOpWithNewOp<Relu6Op>(op, op.getType(), op.getInput());
      break;
    case FuseCode::none:
      return failure();
    }
    return success();
  }
};

struct Conv2DPattern : ToNNAPI<tosa::Conv2DOp, Conv2DOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkWeighted(op, rewriter)))
      return failure();
    // TOSA's [out, kh, kw, in] weights are already NNAPI's filter layout.
    rewriter.replaceOpWithNewOp<Conv2DOp>(
        op, op.getType(), op.getInput(), op.getWeight(), op.getBias(),
        rewriter.getDenseI64ArrayAttr(nnapiPadding(op.getPad())),
        rewriter.getDenseI64ArrayAttr(swapYX(op.getStride())),
        rewriter.getDenseI64ArrayAttr(swapYX(op.getDilation())),
        FuseCode::none);
    return success();
  }
};

struct DepthwiseConv2DPattern : ToNNAPI<tosa::DepthwiseConv2DOp, DepthwiseConv2DOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::DepthwiseConv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkWeighted(op, rewriter)))
      return failure();
    // TOSA weights are [kh, kw, in, multiplier]; NNAPI wants
    // [1, kh, kw, in * multiplier] with channel c * multiplier + m, which is
    // the same memory order, so a constant only needs a new type.
    DenseElementsAttr weights;
    if (!matchPattern(op.getWeight(), m_Constant(&weights)))
      return rewriter.notifyMatchFailure(op, "weights are not constant");
    auto wType = cast<RankedTensorType>(weights.getType());
    ArrayRef<int64_t> w = wType.getShape();
    auto filterType = RankedTensorType::get({1, w[0], w[1], w[2] * w[3]},
                                            wType.getElementType());
    Value filter = rewriter.create<arith::ConstantOp>(
        op.getLoc(), weights.reshape(filterType));
    rewriter.replaceOpWithNewOp<DepthwiseConv2DOp>(
        op, op.getType(), op.getInput(), filter, op.getBias(),
        rewriter.getDenseI64ArrayAttr(nnapiPadding(op.getPad())),
        rewriter.getDenseI64ArrayAttr(swapYX(op.getStride())),
        rewriter.getDenseI64ArrayAttr(swapYX(op.getDilation())),
        rewriter.getI32IntegerAttr(static_cast<int32_t>(w[3])),
        FuseCodeAttr::get(rewriter.getContext(), FuseCode::none));
    return success();
  }
};

struct FullyConnectedPattern : ToNNAPI<tosa::FullyConnectedOp, FullyConnectedOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::FullyConnectedOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkWeighted(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<FullyConnectedOp>(
        op, op.getType(), op.getInput(), op.getWeight(), op.getBias(),
        FuseCode::none);
    return success();
  }
};

template <typename TosaOp, typename NNAPIOp>
struct PoolPattern : ToNNAPI<TosaOp, NNAPIOp> {
  using ToNNAPI<TosaOp, NNAPIOp>::ToNNAPI;
  LogicalResult matchAndRewrite(TosaOp op,
                                PatternRewriter &rewriter) const override {
    if constexpr (std::is_same_v<TosaOp, tosa::AvgPool2dOp>)
      if (op.getQuantizationInfo())
        return rewriter.notifyMatchFailure(
            op, "quantized average pooling is not supported yet");
    if (failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<NNAPIOp>(
        op, op.getType(), op.getInput(),
        rewriter.getDenseI64ArrayAttr(nnapiPadding(op.getPad())),
        rewriter.getDenseI64ArrayAttr(swapYX(op.getStride())),
        rewriter.getDenseI64ArrayAttr(swapYX(op.getKernel())), FuseCode::none);
    return success();
  }
};

struct ConcatPattern : ToNNAPI<tosa::ConcatOp, ConcatenationOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ConcatOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<ConcatenationOp>(
        op, op.getType(), op.getInput1(),
        rewriter.getI32IntegerAttr(static_cast<int32_t>(op.getAxis())));
    return success();
  }
};

struct ConstPattern : OpRewritePattern<tosa::ConstOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ConstOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, op.getValue());
    return success();
  }
};
} // namespace

void mlir::nnapi::populateTosaToNNAPICompositePatterns(
    RewritePatternSet &patterns) {
  patterns.addWithLabel<SoftmaxPattern>(
      {"softmax (reduce_max, sub, exp, reduce_sum, reciprocal, mul)"},
      patterns.getContext());
}

void mlir::nnapi::populateTosaToNNAPIPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<BinaryPattern<tosa::AddOp, AddOp>,
               BinaryPattern<tosa::SubOp, SubOp>,
               BinaryPattern<tosa::MulOp, MulOp>,
               UnaryPattern<tosa::SigmoidOp, LogisticOp>,
               UnaryPattern<tosa::TanhOp, TanhOp>,
               UnaryPattern<tosa::ExpOp, ExpOp>,
               UnaryPattern<tosa::LogOp, LogOp>,
               UnaryPattern<tosa::RsqrtOp, RsqrtOp>,
               UnaryPattern<tosa::AbsOp, AbsOp>,
               UnaryPattern<tosa::NegateOp, NegOp>,
               UnaryPattern<tosa::FloorOp, FloorOp>,
               UnaryPattern<tosa::SinOp, SinOp>,
               BinaryPattern<tosa::MaximumOp, MaximumOp>,
               BinaryPattern<tosa::MinimumOp, MinimumOp>,
               BinaryPattern<tosa::PowOp, PowOp>, SqrtPattern,
               UnaryPattern<tosa::ReshapeOp, ReshapeOp>, ReciprocalPattern,
               ClampPattern, Conv2DPattern, DepthwiseConv2DPattern,
               FullyConnectedPattern,
               PoolPattern<tosa::MaxPool2dOp, MaxPool2DOp>,
               PoolPattern<tosa::AvgPool2dOp, AveragePool2DOp>, ConcatPattern,
               ConstPattern>(ctx);
}

//===----------------------------------------------------------------------===//
// The converter: the pass converts with it, the partitioner asks it
//===----------------------------------------------------------------------===//

namespace {
/// Remembers the last reason a pattern gave for not rewriting an op, by the
/// op's location.
struct FailureReasons : RewriterBase::Listener {
  void notifyMatchFailure(
      Location loc, function_ref<void(Diagnostic &)> reasonCallback) override {
    Diagnostic diag(loc, DiagnosticSeverity::Remark);
    reasonCallback(diag);
    reasons[loc] = diag.str();
  }
  DenseMap<Location, std::string> reasons;
};
} // namespace

TosaToNNAPIConverter::TosaToNNAPIConverter(MLIRContext *ctx) {
  RewritePatternSet compositeSet(ctx), perOpSet(ctx), fusionSet(ctx);
  populateTosaToNNAPICompositePatterns(compositeSet);
  populateTosaToNNAPIPatterns(perOpSet);
  populateFuseActivationPatterns(fusionSet);
  composites = FrozenRewritePatternSet(std::move(compositeSet));
  perOp = FrozenRewritePatternSet(std::move(perOpSet));
  fusion = FrozenRewritePatternSet(std::move(fusionSet));
}

LogicalResult TosaToNNAPIConverter::convert(
    func::FuncOp partition, unsigned featureLevel,
    function_ref<void(Operation *, const Twine &)> reject) const {
  // Composites first, while the ops they match are all still TOSA; then one
  // pattern per op; then activations fold into their producers.
  GreedyRewriteConfig config;
  config.maxIterations = 4;
  (void)applyPatternsAndFoldGreedily(partition, composites, config);
  FailureReasons reasons;
  config.listener = &reasons;
  (void)applyPatternsAndFoldGreedily(partition, perOp, config);
  config.listener = nullptr;
  (void)applyPatternsAndFoldGreedily(partition, fusion, config);

  bool ok = true;
  partition.walk([&](Operation *op) {
    if (isa<func::FuncOp, func::ReturnOp, arith::ConstantOp>(op))
      return;
    auto nnapiOp = dyn_cast<NNAPIOperationInterface>(op);
    if (!nnapiOp) {
      auto it = reasons.reasons.find(op->getLoc());
      if (it != reasons.reasons.end())
        reject(op, it->second);
      else
        reject(op, "'" + op->getName().getStringRef() +
                       "' has no NNAPI lowering");
      ok = false;
      return;
    }
    // The op's verifier is the judge of ranks, shapes and attributes; it
    // reports through the diagnostic engine.
    if (failed(verify(op, /*verifyRecursively=*/false))) {
      ok = false;
      return;
    }
    FeatureLevelNeed need = nnapiOp.getFeatureLevelNeed();
    if (need.level > featureLevel) {
      reject(op, "needs NNAPI feature level " + Twine(need.level) + " (" +
                     need.why + "), the target is " + Twine(featureLevel));
      ok = false;
    }
  });
  return success(ok);
}

LogicalResult TosaToNNAPIConverter::convert(func::FuncOp partition,
                                            unsigned featureLevel) const {
  return convert(partition, featureLevel,
                 [](Operation *op, const Twine &why) {
                   std::string text = why.str();
                   std::string name = ("'" + op->getName().getStringRef() +
                                       "'").str();
                   if (StringRef(text).starts_with(name))
                     op->emitError() << text;
                   else
                     op->emitError() << name << " cannot run on NNAPI: "
                                     << text;
                 });
}

ConversionCheck
TosaToNNAPIConverter::check(ArrayRef<Operation *> ops) const {
  ConversionCheck result;
  Operation *root = ops.back();
  MLIRContext *ctx = root->getContext();
  Location loc = root->getLoc();
  llvm::SmallPtrSet<Operation *, 8> inUnit(ops.begin(), ops.end());
  // Values from outside the unit: constants are cloned (patterns look at
  // them), everything else becomes an argument.
  llvm::SetVector<Value> args;
  llvm::SetVector<Operation *> constants;
  for (Operation *op : ops)
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      if (def && inUnit.contains(def))
        continue;
      if (def && matchPattern(def, m_Constant()))
        constants.insert(def);
      else
        args.insert(v);
    }
  // Results used outside the unit, or the root's: what a partition returns.
  SmallVector<Value> results;
  for (Operation *op : ops)
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(),
                       [&](Operation *u) { return !inUnit.contains(u); }))
        results.push_back(r);
  if (results.empty())
    llvm::append_range(results, root->getResults());

  OpBuilder b(ctx);
  OwningOpRef<func::FuncOp> scratch = func::FuncOp::create(
      loc, "nnapi_conversion_check",
      b.getFunctionType(ValueRange(args.getArrayRef()).getTypes(),
                        ValueRange(results).getTypes()));
  Block *body = scratch->addEntryBlock();
  IRMapping map;
  map.map(args.getArrayRef(), body->getArguments());
  b.setInsertionPointToEnd(body);
  for (Operation *c : constants)
    b.clone(*c, map);
  for (Operation *op : ops)
    b.clone(*op, map);
  SmallVector<Value> returned;
  for (Value v : results)
    returned.push_back(map.lookup(v));
  b.create<func::ReturnOp>(loc, returned);

  // Verifier diagnostics become the reason instead of errors.
  std::string firstError;
  ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &diag) {
    if (firstError.empty() && diag.getSeverity() == DiagnosticSeverity::Error)
      firstError = diag.str();
    return success();
  });
  result.convertible = succeeded(
      convert(*scratch, kMaxFeatureLevel, [&](Operation *, const Twine &why) {
        if (firstError.empty())
          firstError = why.str();
      }));
  if (!result.convertible) {
    result.reason = firstError;
    return result;
  }
  scratch->walk([&](NNAPIOperationInterface op) {
    FeatureLevelNeed need = op.getFeatureLevelNeed();
    if (need.level > result.need.level)
      result.need = need;
    result.operations.push_back(op.getOperationCode());
  });
  return result;
}

LogicalResult mlir::nnapi::convertPartitionToNNAPI(func::FuncOp partition,
                                                   unsigned featureLevel) {
  return TosaToNNAPIConverter(partition.getContext())
      .convert(partition, featureLevel);
}
