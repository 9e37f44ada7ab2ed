//===- TosaToNNAPI.cpp - TOSA to nnapi: legality and patterns -------------===//

#include "nnapi-mlir/Conversion/TosaToNNAPI/TosaToNNAPI.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/Fusion.h"
#include "nnapi-mlir/Runtime/NeuralNetworks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
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
// Legality
//===----------------------------------------------------------------------===//

namespace {
/// Collects why an op is not legal; the first failing check wins.
class LegalityCheck {
public:
  LegalityCheck(unsigned featureLevel) : target(featureLevel) {}

  bool fail(const Twine &why) {
    if (reason.empty())
      reason = why.str();
    return false;
  }

  /// Ranked, static, float32/float16 and of rank minRank..maxRank.
  bool tensor(Value v, const Twine &what, int64_t minRank, int64_t maxRank) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.hasStaticShape())
      return fail(what + " must have a static shape");
    Type e = type.getElementType();
    if (!e.isF32() && !e.isF16()) {
      std::string s;
      llvm::raw_string_ostream os(s);
      os << e;
      return fail(what + " has element type " + s +
                  "; only f32 and f16 are supported");
    }
    if (e.isF16())
      needLevel(3, "float16 operands");
    if (type.getRank() < minRank || type.getRank() > maxRank)
      return fail(what + " has rank " + Twine(type.getRank()) +
                  ", NNAPI needs " + Twine(minRank) + ".." + Twine(maxRank));
    return true;
  }

  bool allTensors(Operation *op, int64_t minRank, int64_t maxRank) {
    for (auto [i, v] : llvm::enumerate(op->getOperands()))
      if (!tensor(v, "operand " + Twine(i), minRank, maxRank))
        return false;
    for (auto [i, v] : llvm::enumerate(op->getResults()))
      if (!tensor(v, "result " + Twine(i), minRank, maxRank))
        return false;
    return true;
  }

  bool constant(Value v, const Twine &what) {
    if (!matchPattern(v, m_Constant()))
      return fail(what + " must be a constant");
    return true;
  }

  void needLevel(unsigned level, StringRef why) {
    if (level > required) {
      required = level;
      requiredWhy = why.str();
    }
  }

  bool finish() {
    if (!reason.empty())
      return false;
    if (required > target)
      return fail(requiredWhy + " need feature level " + Twine(required) +
                  ", the target is " + Twine(target));
    return true;
  }

  unsigned target;
  unsigned required = 1;
  std::string requiredWhy;
  std::string reason;
};

std::string formatBound(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%g", v);
  return buffer;
}

bool isUnit(ArrayRef<int64_t> values) {
  return llvm::all_of(values, [](int64_t v) { return v == 1; });
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

bool checkOp(Operation *op, LegalityCheck &c) {
  return TypeSwitch<Operation *, bool>(op)
      .Case<tosa::AddOp, tosa::MulOp, tosa::SubOp>([&](Operation *op) {
        if (!getCompositeMembers(op).empty())
          return c.allTensors(op, 1, 4); // part of a softmax, not SUB/MUL
        if (auto mul = dyn_cast<tosa::MulOp>(op))
          if (mul.getShift() != 0)
            return c.fail("tosa.mul with a shift is integer-only");
        if (isa<tosa::SubOp>(op))
          c.needLevel(2, "SUB");
        return c.allTensors(op, 0, 4);
      })
      .Case([&](tosa::ReciprocalOp op) {
        if (!getCompositeMembers(op).empty())
          return c.allTensors(op, 1, 4); // part of a softmax
        c.needLevel(2, "DIV (for reciprocal)");
        return c.allTensors(op, 0, 4);
      })
      .Case<tosa::ReduceMaxOp, tosa::ReduceSumOp, tosa::ExpOp>(
          [&](Operation *op) {
            SmallVector<Operation *> members = getCompositeMembers(op);
            if (members.empty())
              return c.fail("'" + op->getName().getStringRef() +
                            "' is supported only as part of a softmax");
            auto mul = cast<tosa::MulOp>(members.back());
            int64_t rank =
                cast<RankedTensorType>(mul.getType()).getRank();
            int64_t axis = cast<tosa::ReduceMaxOp>(members.front()).getAxis();
            if ((rank != 2 && rank != 4) || axis != rank - 1)
              c.needLevel(3, "softmax on another axis or rank");
            return c.allTensors(op, 1, 4);
          })
      .Case<tosa::Conv2DOp, tosa::DepthwiseConv2DOp>([&](auto op) {
        if (op.getQuantizationInfo())
          return c.fail("quantized convolution is not supported yet");
        if (!isUnit(op.getDilation()))
          c.needLevel(3, "dilated convolutions");
        return c.tensor(op.getInput(), "input", 4, 4) &&
               c.tensor(op.getWeight(), "weight", 4, 4) &&
               c.tensor(op.getBias(), "bias", 1, 1) &&
               c.tensor(op.getOutput(), "result", 4, 4) &&
               c.constant(op.getWeight(), "weight") &&
               c.constant(op.getBias(), "bias");
      })
      .Case([&](tosa::FullyConnectedOp op) {
        if (op.getQuantizationInfo())
          return c.fail("quantized fully_connected is not supported yet");
        return c.tensor(op.getInput(), "input", 2, 2) &&
               c.tensor(op.getWeight(), "weight", 2, 2) &&
               c.tensor(op.getBias(), "bias", 1, 1) &&
               c.tensor(op.getOutput(), "result", 2, 2) &&
               c.constant(op.getWeight(), "weight") &&
               c.constant(op.getBias(), "bias");
      })
      .Case<tosa::MaxPool2dOp, tosa::AvgPool2dOp>([&](Operation *op) {
        if (auto avg = dyn_cast<tosa::AvgPool2dOp>(op))
          if (avg.getQuantizationInfo())
            return c.fail("quantized average pooling is not supported yet");
        return c.allTensors(op, 4, 4);
      })
      .Case([&](tosa::ClampOp op) {
        if (!clampActivation(op))
          return c.fail("clamp bounds [" +
                        formatBound(op.getMinFp().convertToDouble()) + ", " +
                        formatBound(op.getMaxFp().convertToDouble()) +
                        "] match no NNAPI activation");
        return c.allTensors(op, 1, 4);
      })
      .Case<tosa::SigmoidOp, tosa::TanhOp, tosa::ReshapeOp, tosa::ConcatOp>(
          [&](Operation *op) { return c.allTensors(op, 1, 4); })
      .Default([&](Operation *op) {
        return c.fail("'" + op->getName().getStringRef() +
                      "' has no NNAPI lowering");
      });
}
} // namespace

bool mlir::nnapi::isLegalForNNAPI(Operation *op, unsigned featureLevel,
                                  std::string *reason) {
  LegalityCheck check(featureLevel);
  bool legal = checkOp(op, check) && check.finish();
  if (!legal && reason)
    *reason = check.reason;
  return legal;
}

int32_t mlir::nnapi::getNNAPIOperationCode(Operation *op) {
  if (!getCompositeMembers(op).empty())
    return ANEURALNETWORKS_SOFTMAX;
  return TypeSwitch<Operation *, int32_t>(op)
      .Case([](tosa::AddOp) { return ANEURALNETWORKS_ADD; })
      .Case([](tosa::SubOp) { return ANEURALNETWORKS_SUB; })
      .Case([](tosa::MulOp) { return ANEURALNETWORKS_MUL; })
      .Case([](tosa::ReciprocalOp) { return ANEURALNETWORKS_DIV; })
      .Case([](tosa::Conv2DOp) { return ANEURALNETWORKS_CONV_2D; })
      .Case([](tosa::DepthwiseConv2DOp) {
        return ANEURALNETWORKS_DEPTHWISE_CONV_2D;
      })
      .Case([](tosa::FullyConnectedOp) {
        return ANEURALNETWORKS_FULLY_CONNECTED;
      })
      .Case([](tosa::MaxPool2dOp) { return ANEURALNETWORKS_MAX_POOL_2D; })
      .Case([](tosa::AvgPool2dOp) { return ANEURALNETWORKS_AVERAGE_POOL_2D; })
      .Case([](tosa::SigmoidOp) { return ANEURALNETWORKS_LOGISTIC; })
      .Case([](tosa::TanhOp) { return ANEURALNETWORKS_TANH; })
      .Case([](tosa::ReshapeOp) { return ANEURALNETWORKS_RESHAPE; })
      .Case([](tosa::ConcatOp) { return ANEURALNETWORKS_CONCATENATION; })
      .Case([](tosa::ClampOp clamp) -> int32_t {
        switch (clampActivation(clamp).value_or(FuseCode::none)) {
        case FuseCode::relu:
          return ANEURALNETWORKS_RELU;
        case FuseCode::relu1:
          return ANEURALNETWORKS_RELU1;
        case FuseCode::relu6:
          return ANEURALNETWORKS_RELU6;
        default:
          return -1;
        }
      })
      .Default([](Operation *) { return -1; });
}

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

struct SoftmaxPattern : OpRewritePattern<tosa::MulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::MulOp mul,
                                PatternRewriter &rewriter) const override {
    std::optional<SoftmaxMatch> m = matchSoftmax(mul);
    if (!m)
      return rewriter.notifyMatchFailure(mul, "not a decomposed softmax");
    rewriter.replaceOpWithNewOp<SoftmaxOp>(
        mul, mul.getType(), m->input, rewriter.getF32FloatAttr(1.0f),
        rewriter.getI32IntegerAttr(static_cast<int32_t>(m->axis)));
    return success();
  }
};

template <typename TosaOp, typename NNAPIOp>
struct BinaryPattern : OpRewritePattern<TosaOp> {
  using OpRewritePattern<TosaOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(TosaOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NNAPIOp>(op, op.getType(), op->getOperand(0),
                                         op->getOperand(1));
    return success();
  }
};

template <typename TosaOp, typename NNAPIOp>
struct UnaryPattern : OpRewritePattern<TosaOp> {
  using OpRewritePattern<TosaOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(TosaOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NNAPIOp>(op, op.getType(), op->getOperand(0));
    return success();
  }
};

struct ReciprocalPattern : OpRewritePattern<tosa::ReciprocalOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ReciprocalOp op,
                                PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(op.getType());
    auto oneType = RankedTensorType::get({1}, type.getElementType());
    Value one = rewriter.create<arith::ConstantOp>(
        op.getLoc(), DenseElementsAttr::get(
                         oneType, rewriter.getFloatAttr(type.getElementType(),
                                                        1.0)));
    rewriter.replaceOpWithNewOp<DivOp>(op, type, one, op.getInput1());
    return success();
  }
};

struct ClampPattern : OpRewritePattern<tosa::ClampOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ClampOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<FuseCode> code = clampActivation(op);
    if (!code)
      return rewriter.notifyMatchFailure(op, "bounds match no activation");
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

struct Conv2DPattern : OpRewritePattern<tosa::Conv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::Conv2DOp op,
                                PatternRewriter &rewriter) const override {
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

struct DepthwiseConv2DPattern : OpRewritePattern<tosa::DepthwiseConv2DOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::DepthwiseConv2DOp op,
                                PatternRewriter &rewriter) const override {
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

struct FullyConnectedPattern : OpRewritePattern<tosa::FullyConnectedOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::FullyConnectedOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<FullyConnectedOp>(
        op, op.getType(), op.getInput(), op.getWeight(), op.getBias(),
        FuseCode::none);
    return success();
  }
};

template <typename TosaOp, typename NNAPIOp>
struct PoolPattern : OpRewritePattern<TosaOp> {
  using OpRewritePattern<TosaOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(TosaOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<NNAPIOp>(
        op, op.getType(), op.getInput(),
        rewriter.getDenseI64ArrayAttr(nnapiPadding(op.getPad())),
        rewriter.getDenseI64ArrayAttr(swapYX(op.getStride())),
        rewriter.getDenseI64ArrayAttr(swapYX(op.getKernel())), FuseCode::none);
    return success();
  }
};

struct ConcatPattern : OpRewritePattern<tosa::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ConcatOp op,
                                PatternRewriter &rewriter) const override {
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
  patterns.add<SoftmaxPattern>(patterns.getContext());
}

void mlir::nnapi::populateTosaToNNAPIPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<BinaryPattern<tosa::AddOp, AddOp>,
               BinaryPattern<tosa::SubOp, SubOp>,
               BinaryPattern<tosa::MulOp, MulOp>,
               UnaryPattern<tosa::SigmoidOp, LogisticOp>,
               UnaryPattern<tosa::TanhOp, TanhOp>,
               UnaryPattern<tosa::ReshapeOp, ReshapeOp>, ReciprocalPattern,
               ClampPattern, Conv2DPattern, DepthwiseConv2DPattern,
               FullyConnectedPattern,
               PoolPattern<tosa::MaxPool2dOp, MaxPool2DOp>,
               PoolPattern<tosa::AvgPool2dOp, AveragePool2DOp>, ConcatPattern,
               ConstPattern>(ctx);
}

LogicalResult mlir::nnapi::convertPartitionToNNAPI(func::FuncOp partition,
                                                   unsigned featureLevel) {
  MLIRContext *ctx = partition.getContext();
  // Composites first, while the ops they match are all still TOSA; then one
  // pattern per op; then activations fold into their producers.
  GreedyRewriteConfig config;
  config.maxIterations = 4;
  RewritePatternSet composites(ctx), perOp(ctx), fusion(ctx);
  populateTosaToNNAPICompositePatterns(composites);
  populateTosaToNNAPIPatterns(perOp);
  populateFuseActivationPatterns(fusion);
  for (RewritePatternSet *set : {&composites, &perOp, &fusion})
    (void)applyPatternsAndFoldGreedily(partition, std::move(*set), config);

  bool ok = true;
  partition.walk([&](Operation *op) {
    if (isa<func::FuncOp, func::ReturnOp, arith::ConstantOp>(op))
      return;
    auto nnapiOp = dyn_cast<NNAPIOperationInterface>(op);
    if (!nnapiOp) {
      op->emitError() << "'" << op->getName()
                      << "' in NNAPI partition has no NNAPI lowering";
      ok = false;
      return;
    }
    unsigned level = nnapiOp.getMinFeatureLevel();
    if (level > featureLevel) {
      op->emitError() << "'" << op->getName() << "' needs NNAPI feature level "
                      << level << ", the target is " << featureLevel;
      ok = false;
    }
  });
  return success(ok);
}
