//===- Patterns.cpp - One pattern per TOSA op with an NNAPI counterpart ---===//

#include "PatternCommon.h"

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::detail;

//===----------------------------------------------------------------------===//
// What every pattern checks first
//===----------------------------------------------------------------------===//

namespace mlir::nnapi::detail {
LogicalResult checkTensor(Operation *op, Type type, StringRef what,
                          unsigned i, PatternRewriter &rewriter,
                          Elements allowed, Dynamic dynamic) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || (dynamic == Dynamic::Refused && !tensor.hasStaticShape()))
    return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
      diag << what << " " << i << " must have a static shape";
    });
  Type e = tensor.getElementType();
  bool boolOk = allowed != Elements::Float && e.isInteger(1);
  bool int32Ok = allowed == Elements::FloatBoolOrInt32 && e.isInteger(32);
  if (!e.isF32() && !e.isF16() && !boolOk && !int32Ok)
    return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
      diag << what << " " << i << " has element type " << e << "; only "
           << (allowed == Elements::Float         ? "f32 and f16"
               : allowed == Elements::FloatOrBool ? "f32, f16 and i1"
                                                  : "f32, f16, i1 and i32")
           << " are supported";
    });
  return success();
}

LogicalResult checkTensors(Operation *op, PatternRewriter &rewriter,
                           Elements allowed, Dynamic dynamic) {
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(checkTensor(op, type, "operand", i, rewriter, allowed, dynamic)))
      return failure();
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(checkTensor(op, type, "result", i, rewriter, allowed, dynamic)))
      return failure();
  return success();
}

/// For ops whose other operands (permutations, paddings) become NNAPI's
/// constant operands: only operand 0 and the result are data.
LogicalResult checkDataTensors(Operation *op, PatternRewriter &rewriter,
                               Dynamic dynamic) {
  if (failed(checkTensor(op, op->getOperand(0).getType(), "operand", 0,
                         rewriter, Elements::Float, dynamic)))
    return failure();
  return checkTensor(op, op->getResult(0).getType(), "result", 0, rewriter,
                     Elements::Float, dynamic);
}

FailureOr<composite::Inputs> bindInputs(CompositeOp op,
                                        PatternRewriter &rewriter) {
  std::string why;
  FailureOr<composite::Inputs> in = composite::Inputs::bind(op, why);
  if (failed(in))
    return rewriter.notifyMatchFailure(op,
                                       [&](Diagnostic &diag) { diag << why; });
  return in;
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

/// A splat constant of `type`'s element type, shaped [1, ..., 1] with `type`'s
/// rank, so that it broadcasts against it.
Value broadcastScalar(PatternRewriter &rewriter, Location loc,
                      RankedTensorType type, double value) {
  auto scalarType = RankedTensorType::get(
      SmallVector<int64_t>(type.getRank(), 1), type.getElementType());
  return rewriter.create<arith::ConstantOp>(
      loc, DenseElementsAttr::get(
               scalarType,
               rewriter.getFloatAttr(type.getElementType(), value)));
}

/// NNAPI orders window parameters [left, right, top, bottom] and [w, h];
/// TOSA uses [top, bottom, left, right] and [y, x].
SmallVector<int64_t> nnapiPadding(ArrayRef<int64_t> tosaPad) {
  return {tosaPad[2], tosaPad[3], tosaPad[0], tosaPad[1]};
}
SmallVector<int64_t> swapYX(ArrayRef<int64_t> yx) { return {yx[1], yx[0]}; }

namespace {
constexpr ResizeFlags kResizeFlags[] = {
    {false, false}, {false, true}, {true, false}};

float nnapiResizeScale(int64_t in, int64_t out, ResizeFlags f) {
  if (f.alignCorners && out > 1)
    return float(in - 1) / float(out - 1);
  return float(in) / float(out);
}

/// Whether flags `f` sample one dimension of a tosa.resize the same way:
/// TOSA samples output index o at (o * d + offset) / n (scale n/d), NNAPI
/// at the float formulas of nnapi.resize_*. Checked index by index, so
/// whatever NNAPI's float arithmetic does is what TOSA asked for.
bool resizeDimMatches(bool bilinear, int64_t in, int64_t out, int64_t n,
                      int64_t d, int64_t offset, ResizeFlags f) {
  float scale = nnapiResizeScale(in, out, f);
  for (int64_t o = 0; o < out; ++o) {
    int64_t y = o * d + offset;
    if (bilinear) {
      // Both clamp the sample to the input; compare the sample points.
      double tosa = std::clamp(double(y) / double(n), 0.0, double(in - 1));
      float x = f.halfPixelCenters ? (float(o) + 0.5f) * scale - 0.5f
                                   : float(o) * scale;
      double nnapi = std::clamp(double(x), 0.0, double(in - 1));
      if (std::abs(tosa - nnapi) > 1e-5 * double(in))
        return false;
      continue;
    }
    // TOSA rounds y / n half up (n is even, see the pattern).
    int64_t q = y >= 0 ? y / n : -((-y + n - 1) / n);
    int64_t tosa = std::clamp<int64_t>(q + (2 * (y - q * n) >= n), 0, in - 1);
    float x = (float(o) + (f.halfPixelCenters ? 0.5f : 0.0f)) * scale;
    int64_t i = int64_t(f.alignCorners ? std::round(x) : std::floor(x));
    if (std::clamp<int64_t>(i, 0, in - 1) != tosa)
      return false;
  }
  return true;
}
} // namespace

FailureOr<ResizeFlags> nnapiResizeFlags(tosa::ResizeOp op,
                                        PatternRewriter &rewriter) {
  bool bilinear = op.getMode() == "BILINEAR";
  auto in = cast<RankedTensorType>(op.getInput().getType()).getShape();
  auto out = cast<RankedTensorType>(op.getType()).getShape();
  ArrayRef<int64_t> scale = op.getScale(), offset = op.getOffset();
  // TOSA's verifier checks the arrays' lengths, not their values.
  if (llvm::any_of(scale, [](int64_t v) { return v <= 0; }))
    return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
      diag << "scale [";
      llvm::interleaveComma(scale, diag);
      diag << "] must be positive";
    });
  if (!bilinear && (scale[0] % 2 || scale[2] % 2))
    return rewriter.notifyMatchFailure(
        op, "nearest-neighbor resize with an odd scale numerator");
  for (ResizeFlags f : kResizeFlags)
    if (resizeDimMatches(bilinear, in[1], out[1], scale[0], scale[1], offset[0],
                         f) &&
        resizeDimMatches(bilinear, in[2], out[2], scale[2], scale[3], offset[1],
                         f))
      return f;
  return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
    diag << "scale [";
    llvm::interleaveComma(scale, diag);
    diag << "] and offset [";
    llvm::interleaveComma(offset, diag);
    diag << "] sample like no NNAPI resize (asymmetric, half-pixel centers "
            "or aligned corners)";
  });
}
} // namespace mlir::nnapi::detail

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {
/// tosa.argmax is ARGMAX (ARGMIN comes from the argmin composite).
struct ArgMaxPattern : ToNNAPI<tosa::ArgMaxOp, ArgMaxOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ArgMaxOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkTensor(op, op.getInput().getType(), "operand", 0,
                           rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<ArgMaxOp>(op, op.getType(), op.getInput(),
                                          op.getAxisAttr());
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
    if (failed(checkTensors(op, rewriter, Elements::Float, Dynamic::Allowed)))
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
    if (failed(checkTensors(op, rewriter, Elements::Float, Dynamic::Allowed)))
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
    if (splatValue(op.getInput2()) != 0.5)
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
    rewriter.replaceOpWithNewOp<DivOp>(
        op, type, broadcastScalar(rewriter, op.getLoc(), type, 1.0),
        op.getInput1());
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
    if (failed(checkTensors(op, rewriter, Elements::Float, Dynamic::Allowed)))
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
    if (failed(checkWeighted(op, rewriter, Dynamic::Allowed)))
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
    if (failed(checkWeighted(op, rewriter, Dynamic::Allowed)))
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

/// TOSA's out_pad [top, bottom, left, right] extends (positive) or crops
/// (negative) the full transposed-convolution output; NNAPI's padding only
/// crops, so out_pad must not be positive.
struct TransposeConv2DPattern
    : ToNNAPI<tosa::TransposeConv2DOp, TransposeConv2DOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::TransposeConv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getQuantizationInfo())
      return refuseIntegerProduct(op, rewriter);
    if (failed(checkTensors(op, rewriter)) ||
        failed(checkConstant(op, op.getFilter(), "filter", rewriter)) ||
        failed(checkConstant(op, op.getBias(), "bias", rewriter)))
      return failure();
    ArrayRef<int64_t> outPad = op.getOutPad();
    if (llvm::any_of(outPad, [](int64_t p) { return p > 0; }))
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
        diag << "out_pad [";
        llvm::interleaveComma(outPad, diag);
        diag << "] extends the output (ONNX output_padding); NNAPI's padding "
                "only crops";
      });
    SmallVector<int64_t> crop = llvm::map_to_vector(
        nnapiPadding(outPad), [](int64_t p) { return -p; });
    rewriter.replaceOpWithNewOp<TransposeConv2DOp>(
        op, op.getType(), op.getInput(), op.getFilter(), op.getBias(),
        rewriter.getDenseI64ArrayAttr(crop),
        rewriter.getDenseI64ArrayAttr(swapYX(op.getStride())), FuseCode::none);
    return success();
  }
};

struct ResizePattern
    : ToNNAPI<tosa::ResizeOp, ResizeBilinearOp, ResizeNearestNeighborOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ResizeOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter)))
      return failure();
    FailureOr<ResizeFlags> f = nnapiResizeFlags(op, rewriter);
    if (failed(f))
      return failure();
    if (op.getMode() == "BILINEAR")
      rewriter.replaceOpWithNewOp<ResizeBilinearOp>(
          op, op.getType(), op.getInput(), f->alignCorners,
          f->halfPixelCenters);
    else
      rewriter.replaceOpWithNewOp<ResizeNearestNeighborOp>(
          op, op.getType(), op.getInput(), f->alignCorners,
          f->halfPixelCenters);
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
    if (failed(checkTensors(op, rewriter, Elements::Float, Dynamic::Allowed)))
      return failure();
    rewriter.replaceOp(op, createPool<NNAPIOp>(rewriter, op, op.getInput(),
                                               op.getType(), FuseCode::none));
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

/// Clamp bounds that match no activation: MAXIMUM with the lower bound and
/// MINIMUM with the upper one (a bound at the float range is left out).
struct ClampBoundsPattern : ToNNAPI<tosa::ClampOp, MaximumOp, MinimumOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ClampOp op,
                                PatternRewriter &rewriter) const override {
    if (clampActivation(op))
      return rewriter.notifyMatchFailure(op, "an NNAPI activation");
    if (failed(checkTensors(op, rewriter)))
      return failure();
    auto type = cast<RankedTensorType>(op.getType());
    double lo = op.getMinFp().convertToDouble();
    double hi = op.getMaxFp().convertToDouble();
    Value v = op.getInput();
    if (lo > -FLT_MAX)
      v = rewriter.create<MaximumOp>(
          op.getLoc(), type, v, broadcastScalar(rewriter, op.getLoc(), type, lo));
    if (hi < FLT_MAX)
      v = rewriter.create<MinimumOp>(
          op.getLoc(), type, v, broadcastScalar(rewriter, op.getLoc(), type, hi));
    if (v == op.getInput())
      return rewriter.notifyMatchFailure(op, "clamp to the float range");
    rewriter.replaceOp(op, v);
    return success();
  }
};

/// erf from NNAPI operations (NNAPI has no ERF): x * P(x^2) / Q(x^2) with x
/// clamped to [-4, 4], a rational fit of relative error 4e-7 in float32
/// (scripts/fit_erf.py fits it and measures it). It keeps erf's odd symmetry
/// and its zeros (-0, subnormals) and propagates NaN through the clamp.
struct ErfPattern
    : ToNNAPI<tosa::ErfOp, MaximumOp, MinimumOp, MulOp, AddOp, DivOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ErfOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter)))
      return failure();
    auto type = cast<RankedTensorType>(op.getType());
    Location loc = op.getLoc();
    auto c = [&](double v) { return broadcastScalar(rewriter, loc, type, v); };
    auto mul = [&](Value a, Value b) -> Value {
      return rewriter.create<MulOp>(loc, type, a, b, FuseCode::none);
    };
    auto horner = [&](Value y, ArrayRef<double> coefficients) {
      Value acc = c(coefficients.back());
      for (double k : llvm::reverse(coefficients.drop_back()))
        acc = rewriter.create<AddOp>(loc, type, mul(acc, y), c(k),
                                     FuseCode::none);
      return acc;
    };
    static const double p[] = {
        1.1283790940884733,    0.20708019499618013,   0.05151882937709793,
        0.003988730619247162,  0.00014724888194446234, -1.9423217528374837e-06,
        1.911451685820964e-08};
    static const double q[] = {1.0, 0.5168512957612786, 0.11795205816484358,
                               0.01495422927355949, 0.0010206892398301193};
    Value x = rewriter.create<MinimumOp>(
        loc, type, rewriter.create<MaximumOp>(loc, type, op.getInput(), c(-4.0)),
        c(4.0));
    Value y = mul(x, x);
    Value ratio = rewriter.create<DivOp>(loc, type, horner(y, p), horner(y, q),
                                         FuseCode::none);
    rewriter.replaceOp(op, mul(x, ratio));
    return success();
  }
};

struct TransposePattern : ToNNAPI<tosa::TransposeOp, TransposeOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkDataTensors(op, rewriter, Dynamic::Allowed)))
      return failure();
    SmallVector<int64_t> perms;
    if (failed(op.getConstantPerms(perms)))
      return rewriter.notifyMatchFailure(op, "perms must be a constant");
    rewriter.replaceOpWithNewOp<TransposeOp>(
        op, op.getType(), op.getInput1(),
        rewriter.getDenseI64ArrayAttr(perms));
    return success();
  }
};

struct PadPattern : ToNNAPI<tosa::PadOp, PadOp, PadV2Op> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::PadOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getQuantizationInfo())
      return rewriter.notifyMatchFailure(op, "quantized pad");
    if (failed(checkDataTensors(op, rewriter)))
      return failure();
    DenseIntElementsAttr padding;
    if (!matchPattern(op.getPadding(), m_Constant(&padding)))
      return rewriter.notifyMatchFailure(op, "padding must be a constant");
    SmallVector<int64_t> pads;
    for (const APInt &p : padding.getValues<APInt>())
      pads.push_back(p.getSExtValue());
    double value = 0.0;
    if (Value padConst = op.getPadConst()) {
      std::optional<double> v = splatValue(padConst);
      if (!v)
        return rewriter.notifyMatchFailure(op, "pad value must be a constant");
      value = *v;
    }
    if (value == 0.0 && !std::signbit(value))
      rewriter.replaceOpWithNewOp<PadOp>(op, op.getType(), op.getInput1(),
                                         rewriter.getDenseI64ArrayAttr(pads));
    else
      rewriter.replaceOpWithNewOp<PadV2Op>(
          op, op.getType(), op.getInput1(), rewriter.getDenseI64ArrayAttr(pads),
          rewriter.getF32FloatAttr(float(value)));
    return success();
  }
};

struct SlicePattern : ToNNAPI<tosa::SliceOp, SliceOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::SliceOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<SliceOp>(op, op.getType(), op.getInput(),
                                         op.getStartAttr());
    return success();
  }
};

template <typename TosaOp, typename NNAPIOp>
struct ReducePattern : ToNNAPI<TosaOp, NNAPIOp> {
  using ToNNAPI<TosaOp, NNAPIOp>::ToNNAPI;
  LogicalResult matchAndRewrite(TosaOp op,
                                PatternRewriter &rewriter) const override {
    // REDUCE_ANY/ALL take bool tensors (their nnapi types check which).
    constexpr bool logical = std::is_same_v<TosaOp, tosa::ReduceAnyOp> ||
                             std::is_same_v<TosaOp, tosa::ReduceAllOp>;
    if (failed(checkTensors(op, rewriter,
                            logical ? Elements::FloatOrBool : Elements::Float,
                            Dynamic::Allowed)))
      return failure();
    // TOSA keeps the reduced dimension with size 1.
    rewriter.replaceOpWithNewOp<NNAPIOp>(
        op, op.getType(), op.getInput(),
        rewriter.getDenseI64ArrayAttr({int64_t(op.getAxis())}),
        /*keep_dims=*/true);
    return success();
  }
};

/// A product with a constant right-hand side and one batch is a fully
/// connected layer (feature level 1, and the kernel drivers optimize most):
/// weights [N, K] = B^T, zero bias, the [1, M, K] input flattened to [M, K]
/// by the operation itself and the [M, N] result reshaped to [1, M, N].
struct MatMulToFullyConnectedPattern
    : ToNNAPI<tosa::MatMulOp, FullyConnectedOp, ReshapeOp> {
  explicit MatMulToFullyConnectedPattern(MLIRContext *ctx)
      : ToNNAPI(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(tosa::MatMulOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getQuantizationInfo())
      return refuseIntegerProduct(op, rewriter);
    DenseElementsAttr b;
    if (!matchPattern(op.getB(), m_Constant(&b)))
      return rewriter.notifyMatchFailure(op, "B is not a constant");
    // The rows may be dynamic: FULLY_CONNECTED flattens them, RESHAPE's -1
    // restores them.
    if (failed(checkTensors(op, rewriter, Elements::Float, Dynamic::Allowed)))
      return failure();
    auto bType = cast<RankedTensorType>(b.getType());
    auto outType = cast<RankedTensorType>(op.getType());
    if (bType.getDimSize(0) != 1)
      return rewriter.notifyMatchFailure(op, "more than one batch");
    int64_t k = bType.getDimSize(1), n = bType.getDimSize(2);
    int64_t m = outType.getDimSize(1);
    Type e = bType.getElementType();
    DenseElementsAttr weights =
        permuteElements(b.reshape(RankedTensorType::get({k, n}, e)), {1, 0});
    Location loc = op.getLoc();
    Value w = rewriter.create<arith::ConstantOp>(loc, weights);
    Value bias = rewriter.create<arith::ConstantOp>(
        loc, DenseElementsAttr::get(RankedTensorType::get({n}, e),
                                    rewriter.getFloatAttr(e, 0.0)));
    Value fc = rewriter.create<FullyConnectedOp>(
        loc, RankedTensorType::get({m, n}, e), op.getA(), w, bias,
        FuseCode::none);
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, outType, fc);
    return success();
  }
};

struct MatMulPattern : ToNNAPI<tosa::MatMulOp, BatchMatmulOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::MatMulOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getQuantizationInfo())
      return refuseIntegerProduct(op, rewriter);
    if (failed(checkTensors(op, rewriter, Elements::Float, Dynamic::Allowed)))
      return failure();
    rewriter.replaceOpWithNewOp<BatchMatmulOp>(op, op.getType(), op.getA(),
                                               op.getB(), false, false);
    return success();
  }
};

struct ReversePattern : ToNNAPI<tosa::ReverseOp, ReverseOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ReverseOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<ReverseOp>(op, op.getType(), op.getInput(),
                                           op.getAxisAttr());
    return success();
  }
};

/// tosa.gather picks rows of values [N, K, C] by indices [N, W]. With
/// constant indices that are the same for every n it is NNAPI's GATHER on
/// axis 1 (the ONNX importer's Gather with constant indices writes that);
/// indices computed at run time (token ids) are read by GATHER from the
/// tensor when there is one row: [1, K, C] by [1, W] gives [1, 1, W, C],
/// reshaped to [1, W, C].
struct GatherPattern : ToNNAPI<tosa::GatherOp, GatherOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::GatherOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkDataTensors(op, rewriter)))
      return failure();
    auto type = cast<RankedTensorType>(op.getIndices().getType());
    int64_t rows = type.getDimSize(0), width = type.getDimSize(1);
    DenseIntElementsAttr indices;
    if (!matchPattern(op.getIndices(), m_Constant(&indices))) {
      if (rows != 1)
        return rewriter.notifyMatchFailure(
            op, "indices computed at run time must have one row (NNAPI's "
                "GATHER takes the same indices for every batch)");
      SmallVector<int64_t> shape(op.getType().getShape());
      shape.insert(shape.begin() + 1, 1);
      Value gathered = rewriter.create<GatherOp>(
          op.getLoc(), op.getType().clone(shape), op.getValues(),
          op.getIndices(), rewriter.getI32IntegerAttr(1));
      rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), gathered);
      return success();
    }
    SmallVector<int32_t> values = llvm::map_to_vector(
        indices.getValues<APInt>(),
        [](const APInt &v) { return int32_t(v.getSExtValue()); });
    for (int64_t r = 1; r < rows; ++r)
      if (!std::equal(values.begin(), values.begin() + width,
                      values.begin() + r * width))
        return rewriter.notifyMatchFailure(
            op, "indices differ between batches");
    values.resize(width);
    Value row = rewriter.create<arith::ConstantOp>(
        op.getLoc(), DenseElementsAttr::get(
                         RankedTensorType::get({width}, rewriter.getI32Type()),
                         ArrayRef<int32_t>(values)));
    rewriter.replaceOpWithNewOp<GatherOp>(op, op.getType(), op.getValues(),
                                          row, rewriter.getI32IntegerAttr(1));
    return success();
  }
};

/// Comparisons, logical ops and select: the nnapi op's operand types (float
/// or bool) are its verifier's business once the tensors are f32, f16 or i1.
template <typename TosaOp, typename NNAPIOp>
struct BoolPattern : ToNNAPI<TosaOp, NNAPIOp> {
  using ToNNAPI<TosaOp, NNAPIOp>::ToNNAPI;
  LogicalResult matchAndRewrite(TosaOp op,
                                PatternRewriter &rewriter) const override {
    // SELECT's no-broadcast rule is its verifier's, like every shape rule.
    if (failed(checkTensors(op, rewriter, Elements::FloatOrBool)))
      return failure();
    rewriter.replaceOpWithNewOp<NNAPIOp>(op, op.getType(), op->getOperands());
    return success();
  }
};

/// tosa.cast between f32, f16, i32 and i1 is CAST, but for float to i32:
/// TOSA rounds to nearest, NNAPI does not say how it rounds.
struct CastPattern : ToNNAPI<tosa::CastOp, CastOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::CastOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter, Elements::FloatBoolOrInt32)))
      return failure();
    if (isa<FloatType>(op.getInput().getType().getElementType()) &&
        op.getType().getElementType().isInteger(32))
      return rewriter.notifyMatchFailure(
          op, "NNAPI leaves the rounding of a float to an integer "
              "unspecified; TOSA rounds to nearest");
    rewriter.replaceOpWithNewOp<CastOp>(op, op.getType(), op.getInput());
    return success();
  }
};

struct TilePattern : ToNNAPI<tosa::TileOp, TileOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::TileOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<TileOp>(op, op.getType(), op.getInput1());
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
               TransposeConv2DPattern, ResizePattern, FullyConnectedPattern,
               PoolPattern<tosa::MaxPool2dOp, MaxPool2DOp>,
               PoolPattern<tosa::AvgPool2dOp, AveragePool2DOp>, ConcatPattern,
               ClampBoundsPattern, TransposePattern, PadPattern,
               SlicePattern, TilePattern, ReversePattern, GatherPattern,
               BoolPattern<tosa::EqualOp, EqualOp>,
               BoolPattern<tosa::GreaterOp, GreaterOp>,
               BoolPattern<tosa::GreaterEqualOp, GreaterEqualOp>,
               BoolPattern<tosa::LogicalAndOp, LogicalAndOp>,
               BoolPattern<tosa::LogicalOrOp, LogicalOrOp>,
               BoolPattern<tosa::LogicalNotOp, LogicalNotOp>,
               BoolPattern<tosa::SelectOp, SelectOp>, CastPattern,
               ArgMaxPattern,
               ReducePattern<tosa::ReduceSumOp, ReduceSumOp>,
               ReducePattern<tosa::ReduceMaxOp, ReduceMaxOp>,
               ReducePattern<tosa::ReduceMinOp, ReduceMinOp>,
               ReducePattern<tosa::ReduceProdOp, ReduceProdOp>,
               ReducePattern<tosa::ReduceAnyOp, ReduceAnyOp>,
               ReducePattern<tosa::ReduceAllOp, ReduceAllOp>,
               MatMulPattern, ConstPattern>(ctx);
  patterns.addWithLabel<ErfPattern>({"tosa.erf (x P(x^2) / Q(x^2))"}, ctx);
  patterns.addWithLabel<MatMulToFullyConnectedPattern>(
      {"tosa.matmul (constant B, one batch)"}, ctx);
}
