//===- QuantizedPatterns.cpp - 8-bit composites to nnapi ------------------===//
//
// The quantize, dequantize and quantized composites (Composites.h) as
// NNAPI's QUANTIZE, DEQUANTIZE, and CONV_2D / DEPTHWISE_CONV_2D /
// FULLY_CONNECTED on TENSOR_QUANT8_ASYMM_SIGNED data. TOSA carries 8-bit
// data as i8; the nnapi ops take `!quant.uniform` types, so each converted
// op views its i8 inputs as quantized and its result back as i8 with
// `quant.scast` (the blob writer treats a view as the operand it views;
// back-to-back views cancel).
//
//===----------------------------------------------------------------------===//

#include "PatternCommon.h"

#include "nnapi-mlir/NNAPI/Layouts.h"
#include "nnapi-mlir/Transforms/Composites.h"

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::detail;
namespace names = mlir::nnapi::composite;
namespace input = mlir::nnapi::composite::input;

namespace {

Type i8Quant(MLIRContext *ctx, double scale, int64_t zeroPoint) {
  return quant::UniformQuantizedType::get(
      quant::QuantizationFlags::Signed, IntegerType::get(ctx, 8),
      Float32Type::get(ctx), scale, zeroPoint, -128, 127);
}

/// Whether `v` (i8) can be viewed as `element`: an NNAPI operand has one
/// type, so a value another converted op already views, or computes, with
/// other quantization parameters cannot (the op then stays on the host).
bool viewable(Value v, Type element) {
  auto type = cast<RankedTensorType>(v.getType());
  Type viewed = RankedTensorType::get(type.getShape(), element);
  if (auto back = v.getDefiningOp<quant::StorageCastOp>())
    return back.getArg().getType() == viewed;
  return llvm::all_of(v.getUsers(), [&](Operation *user) {
    return !isa<quant::StorageCastOp>(user) ||
           user->getResult(0).getType() == viewed;
  });
}

/// `v` (i8, or a view of a quantized value) viewed as `element` (viewable).
Value view(PatternRewriter &rewriter, Location loc, Value v, Type element) {
  auto type = cast<RankedTensorType>(v.getType());
  Type viewed = RankedTensorType::get(type.getShape(), element);
  if (auto back = v.getDefiningOp<quant::StorageCastOp>())
    if (back.getArg().getType() == viewed)
      return back.getArg();
  return rewriter.create<quant::StorageCastOp>(loc, viewed, v);
}

LogicalResult otherParameters(Operation *op, PatternRewriter &rewriter) {
  return rewriter.notifyMatchFailure(
      op, "its input is quantized with other parameters elsewhere in the "
          "partition (an NNAPI operand has one scale and zero point)");
}

/// The storage view of quantized `v` (i8 again).
Value storage(PatternRewriter &rewriter, Location loc, Value v) {
  auto type = cast<RankedTensorType>(v.getType());
  auto q = cast<quant::QuantizedType>(type.getElementType());
  return rewriter.create<quant::StorageCastOp>(
      loc, RankedTensorType::get(type.getShape(), q.getStorageType()), v);
}

std::optional<std::pair<double, int64_t>> perTensorParams(CompositeOp op) {
  DictionaryAttr attrs = op.getCompositeAttributes();
  auto scales = attrs.getAs<DenseF32ArrayAttr>(names::kScale);
  auto zps = attrs.getAs<DenseI64ArrayAttr>(names::kZeroPoint);
  if (!scales || !zps || scales.size() != 1 || zps.size() != 1 ||
      attrs.get(names::kAxis))
    return std::nullopt;
  return std::make_pair(double(scales[0]), zps[0]);
}

/// quantize / dequantize composites (per tensor) -> QUANTIZE / DEQUANTIZE.
struct QuantizeCompositePattern
    : ToNNAPI<CompositeOp, QuantizeOp, DequantizeOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(CompositeOp op,
                                PatternRewriter &rewriter) const override {
    bool quantize = op.getName() == names::kQuantize;
    if (!quantize && op.getName() != names::kDequantize)
      return failure();
    std::optional<std::pair<double, int64_t>> p = perTensorParams(op);
    if (!p)
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
        diag << "NNAPI's " << (quantize ? "QUANTIZE" : "DEQUANTIZE")
             << " takes one scale and zero point per tensor";
      });
    FailureOr<names::Inputs> inputs = bindInputs(op, rewriter);
    if (failed(inputs))
      return failure();
    Value x = (*inputs)[input::kX];
    auto in = cast<RankedTensorType>(x.getType());
    auto out = cast<RankedTensorType>(op->getResult(0).getType());
    Type element = i8Quant(op.getContext(), p->first, p->second);
    Location loc = op.getLoc();
    if (quantize) {
      if (!in.getElementType().isF32() && !in.getElementType().isF16())
        return rewriter.notifyMatchFailure(op, "input is not float");
      Value q = rewriter.create<QuantizeOp>(
          loc, RankedTensorType::get(out.getShape(), element),
          x);
      rewriter.replaceOp(op, storage(rewriter, loc, q));
      return success();
    }
    if (!in.getElementType().isInteger(8))
      return rewriter.notifyMatchFailure(op, "input is not 8-bit");
    if (!viewable(x, element))
      return otherParameters(op, rewriter);
    rewriter.replaceOpWithNewOp<DequantizeOp>(
        op, out, view(rewriter, loc, x, element));
    return success();
  }
};

/// quantized composites -> the 8-bit NNAPI operation of their float op.
struct QuantizedCompositePattern
    : ToNNAPI<CompositeOp, Conv2DOp, DepthwiseConv2DOp, FullyConnectedOp,
              AddOp, MulOp, MaxPool2DOp, AveragePool2DOp, ReshapeOp,
              ConcatenationOp, LogisticOp, TanhOp, SoftmaxOp, HardSwishOp> {
  using ToNNAPI::ToNNAPI;

  /// The one-input operations (and concatenation) a body may hold.
  static bool isDataOperation(Operation *op) {
    if (auto composite = dyn_cast_or_null<CompositeOp>(op))
      return composite.getName() == names::kSoftmax ||
             composite.getName() == names::kHardSwish;
    if (auto resize = dyn_cast_or_null<tosa::ResizeOp>(op))
      return resize.getMode() == "NEAREST_NEIGHBOR";
    return isa_and_nonnull<tosa::MaxPool2dOp, tosa::AvgPool2dOp,
                           tosa::ReshapeOp, tosa::TransposeOp, tosa::ConcatOp,
                           tosa::SigmoidOp, tosa::TanhOp>(op);
  }

  /// Pools, reshape, transpose, nearest-neighbor resize, concatenation,
  /// logistic, tanh, softmax, hard swish:
  /// NNAPI's operation on the inputs viewed with their parameters (the
  /// verifier holds the output to NNAPI's rules, quantizedOutputError).
  LogicalResult convertData(CompositeOp op, OperandRange inputs,
                            Operation *principal,
                            PatternRewriter &rewriter) const {
    DictionaryAttr attrs = op.getCompositeAttributes();
    auto so = attrs.getAs<FloatAttr>(names::kOutputScale);
    auto zo = attrs.getAs<IntegerAttr>(names::kOutputZeroPoint);
    SmallVector<double> scales;
    SmallVector<int64_t> zeroPoints;
    if (auto s = attrs.getAs<FloatAttr>(names::kInputScale)) {
      if (auto z = attrs.getAs<IntegerAttr>(names::kInputZeroPoint)) {
        scales.push_back(s.getValueAsDouble());
        zeroPoints.push_back(z.getInt());
      }
    } else if (auto ss = attrs.getAs<DenseF64ArrayAttr>(names::kInputScales)) {
      if (auto zs = attrs.getAs<DenseI64ArrayAttr>(names::kInputZeroPoints)) {
        scales.assign(ss.asArrayRef().begin(), ss.asArrayRef().end());
        zeroPoints.assign(zs.asArrayRef().begin(), zs.asArrayRef().end());
      }
    }
    if (!so || !zo || scales.size() != inputs.size() ||
        zeroPoints.size() != scales.size())
      return rewriter.notifyMatchFailure(
          op, "composite 'quantized_data' lacks a scale and zero point per "
              "input or its output's");
    FailureOr<FuseCode> fuse = bodyActivation(op, rewriter);
    if (failed(fuse))
      return failure();
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    SmallVector<Value> xs;
    for (auto [k, v] : llvm::enumerate(inputs)) {
      Type element = i8Quant(ctx, scales[k], zeroPoints[k]);
      if (!viewable(v, element))
        return otherParameters(op, rewriter);
      xs.push_back(view(rewriter, loc, v, element));
    }
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Type outType = RankedTensorType::get(
        resultType.getShape(),
        i8Quant(ctx, so.getValueAsDouble(), zo.getInt()));
    Value y;
    if (auto pool = dyn_cast<tosa::MaxPool2dOp>(principal))
      y = createPool<MaxPool2DOp>(rewriter, pool, xs[0], outType, *fuse);
    else if (auto pool = dyn_cast<tosa::AvgPool2dOp>(principal))
      y = createPool<AveragePool2DOp>(rewriter, pool, xs[0], outType, *fuse);
    else if (isa<tosa::ReshapeOp>(principal))
      y = rewriter.create<ReshapeOp>(loc, outType, xs[0]);
    else if (auto resize = dyn_cast<tosa::ResizeOp>(principal)) {
      FailureOr<ResizeFlags> f = nnapiResizeFlags(resize, rewriter);
      if (failed(f))
        return failure();
      y = rewriter.create<ResizeNearestNeighborOp>(
          loc, outType, xs[0], f->alignCorners, f->halfPixelCenters);
    } else if (auto transpose = dyn_cast<tosa::TransposeOp>(principal)) {
      SmallVector<int64_t> perms;
      if (failed(transpose.getConstantPerms(perms)))
        return rewriter.notifyMatchFailure(op, "perms must be a constant");
      y = rewriter.create<TransposeOp>(loc, outType, xs[0],
                                       rewriter.getDenseI64ArrayAttr(perms));
    } else if (isa<tosa::SigmoidOp>(principal))
      y = rewriter.create<LogisticOp>(loc, outType, xs[0]);
    else if (isa<tosa::TanhOp>(principal))
      y = rewriter.create<TanhOp>(loc, outType, xs[0]);
    else if (auto inner = dyn_cast<CompositeOp>(principal);
             inner && inner.getName() == names::kHardSwish)
      y = rewriter.create<HardSwishOp>(loc, outType, xs[0]);
    else if (inner && inner.getName() == names::kSoftmax) {
      std::optional<int64_t> axis = inner.getIntParameter(names::kAxis);
      if (!axis)
        return rewriter.notifyMatchFailure(op, "its softmax has no axis");
      y = rewriter.create<SoftmaxOp>(loc, outType, xs[0],
                                     rewriter.getF32FloatAttr(1.0f),
                                     rewriter.getI32IntegerAttr(int32_t(*axis)));
    } else
      y = rewriter.create<ConcatenationOp>(
          loc, outType, xs,
          rewriter.getI32IntegerAttr(
              int32_t(cast<tosa::ConcatOp>(principal).getAxis())));
    rewriter.replaceOp(op, storage(rewriter, loc, y));
    return success();
  }

  /// The float operation of the body: what its quantize reads, through
  /// the optional clamp; or the transpose of the stored values that a
  /// layout transpose of int8 data yields.
  static Operation *principalOf(CompositeOp op) {
    if (op.getBody().empty())
      return nullptr;
    Operation *yield = op.getBody().front().getTerminator();
    Operation *q = yield && yield->getNumOperands() == 1
                       ? yield->getOperand(0).getDefiningOp()
                       : nullptr;
    if (isa_and_nonnull<tosa::TransposeOp>(q))
      return q;
    if (!q || q->getNumOperands() != 1)
      return nullptr;
    Operation *p = q->getOperand(0).getDefiningOp();
    if (isa_and_nonnull<tosa::ClampOp>(p))
      p = p->getOperand(0).getDefiningOp();
    return p;
  }

  /// The NNAPI activation whose range on the output parameters (scale,
  /// zero) is a clamp of the stored values' bounds, if any.
  static std::optional<FuseCode>
  storedActivation(tosa::ClampOp clamp, FloatAttr scale, IntegerAttr zero) {
    for (FuseCode code :
         {FuseCode::none, FuseCode::relu, FuseCode::relu1, FuseCode::relu6}) {
      int32_t lo, hi;
      nnapi_mlir::quantizedActivationRange(
          int32_t(code), float(scale.getValueAsDouble()),
          int32_t(zero.getInt()), /*isSigned=*/true, lo, hi);
      if (int64_t(clamp.getMinInt()) == lo &&
          int64_t(clamp.getMaxInt()) == hi)
        return code;
    }
    return std::nullopt;
  }

  /// The body's clamp as a fused activation (none without one): a float
  /// clamp before the quantize, or a clamp of the stored values (quantized
  /// TOSA's, after its rescale) whose bounds are an activation's range;
  /// a match failure for any other clamp.
  static FailureOr<FuseCode> bodyActivation(CompositeOp op,
                                            PatternRewriter &rewriter) {
    DictionaryAttr attrs = op.getCompositeAttributes();
    auto scale = attrs.getAs<FloatAttr>(names::kOutputScale);
    auto zero = attrs.getAs<IntegerAttr>(names::kOutputZeroPoint);
    std::optional<FuseCode> fuse = FuseCode::none;
    for (Operation &inner : op.getBody().front()) {
      auto clamp = dyn_cast<tosa::ClampOp>(inner);
      if (!clamp)
        continue;
      if (!getElementTypeOrSelf(clamp.getType()).isInteger(8))
        fuse = clampActivation(clamp);
      else
        fuse =
            scale && zero ? storedActivation(clamp, scale, zero) : std::nullopt;
    }
    if (!fuse)
      return rewriter.notifyMatchFailure(
          op, "its clamp is not an NNAPI fused activation");
    return *fuse;
  }

  /// x + y or x * y: NNAPI's ADD or MUL with each operand's own scale.
  LogicalResult convertBinary(CompositeOp op, const names::Inputs &in,
                              PatternRewriter &rewriter) const {
    DictionaryAttr attrs = op.getCompositeAttributes();
    auto s1 = attrs.getAs<FloatAttr>(names::kInputScale);
    auto z1 = attrs.getAs<IntegerAttr>(names::kInputZeroPoint);
    auto s2 = attrs.getAs<FloatAttr>(names::kSecondScale);
    auto z2 = attrs.getAs<IntegerAttr>(names::kSecondZeroPoint);
    auto so = attrs.getAs<FloatAttr>(names::kOutputScale);
    auto zo = attrs.getAs<IntegerAttr>(names::kOutputZeroPoint);
    Operation *principal = principalOf(op);
    if (!s1 || !z1 || !s2 || !z2 || !so || !zo ||
        !isa_and_nonnull<tosa::AddOp, tosa::MulOp>(principal))
      return rewriter.notifyMatchFailure(
          op, "composite 'quantized_binary' is an addition or a "
              "multiplication with both operands' scales and zero points");
    FailureOr<FuseCode> fuse = bodyActivation(op, rewriter);
    if (failed(fuse))
      return failure();
    MLIRContext *ctx = op.getContext();
    Type t1 = i8Quant(ctx, s1.getValueAsDouble(), z1.getInt());
    Type t2 = i8Quant(ctx, s2.getValueAsDouble(), z2.getInt());
    if (!viewable(in[input::kX], t1) || !viewable(in[input::kY], t2))
      return otherParameters(op, rewriter);
    Location loc = op.getLoc();
    Value a = view(rewriter, loc, in[input::kX], t1);
    Value b = view(rewriter, loc, in[input::kY], t2);
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    auto type = RankedTensorType::get(
        resultType.getShape(),
        i8Quant(ctx, so.getValueAsDouble(), zo.getInt()));
    Value y = isa<tosa::AddOp>(principal)
                  ? rewriter.create<AddOp>(loc, type, a, b,
                                           FuseCodeAttr::get(ctx, *fuse))
                        .getResult()
                  : rewriter.create<MulOp>(loc, type, a, b,
                                           FuseCodeAttr::get(ctx, *fuse))
                        .getResult();
    rewriter.replaceOp(op, storage(rewriter, loc, y));
    return success();
  }

  LogicalResult matchAndRewrite(CompositeOp op,
                                PatternRewriter &rewriter) const override {
    // The kind is the name nnapi-raise-quantized gave; the body gives the
    // float operation's attributes.
    if (op.getName() != names::kQuantizedData &&
        op.getName() != names::kQuantizedBinary &&
        op.getName() != names::kQuantizedWeighted)
      return failure();
    FailureOr<names::Inputs> in = bindInputs(op, rewriter);
    if (failed(in))
      return failure();
    if (op.getName() == names::kQuantizedData) {
      Operation *principal = principalOf(op);
      if (!isDataOperation(principal))
        return rewriter.notifyMatchFailure(
            op, "composite 'quantized_data' holds no pool, reshape, "
                "transpose, nearest-neighbor resize, concatenation, "
                "logistic, tanh, softmax or hard swish");
      return convertData(op, in->all(input::kXs), principal, rewriter);
    }
    if (op.getName() == names::kQuantizedBinary)
      return convertBinary(op, *in, rewriter);
    DictionaryAttr attrs = op.getCompositeAttributes();
    auto inScale = attrs.getAs<FloatAttr>(names::kInputScale);
    auto inZero = attrs.getAs<IntegerAttr>(names::kInputZeroPoint);
    auto wScales = attrs.getAs<DenseF64ArrayAttr>(names::kWeightScale);
    auto wZero = attrs.getAs<IntegerAttr>(names::kWeightZeroPoint);
    auto outScale = attrs.getAs<FloatAttr>(names::kOutputScale);
    auto outZero = attrs.getAs<IntegerAttr>(names::kOutputZeroPoint);
    auto axis = attrs.getAs<IntegerAttr>(names::kAxis);
    if (!inScale || !inZero || !wScales || wScales.empty() || !wZero ||
        !outScale || !outZero)
      return rewriter.notifyMatchFailure(
          op, "composite 'quantized_weighted' lacks its scales and zero "
              "points");
    // The float operation and its activation, from the body.
    Operation *principal = nullptr;
    for (Operation &inner : op.getBody().front())
      if (isa<tosa::Conv2DOp, tosa::DepthwiseConv2DOp,
              tosa::FullyConnectedOp, tosa::MatMulOp>(inner))
        principal = &inner;
    if (!principal)
      return rewriter.notifyMatchFailure(
          op, "composite 'quantized_weighted' holds no convolution or fully "
              "connected operation");
    FailureOr<FuseCode> fuse = bodyActivation(op, rewriter);
    if (failed(fuse))
      return failure();
    Type inElement =
        i8Quant(op.getContext(), inScale.getValueAsDouble(), inZero.getInt());
    if (!viewable((*in)[input::kX], inElement))
      return otherParameters(op, rewriter);
    DenseElementsAttr weights, bias;
    if (!matchPattern((*in)[input::kWeights], m_Constant(&weights)) ||
        !matchPattern((*in)[input::kBias], m_Constant(&bias)))
      return rewriter.notifyMatchFailure(op, "weights or bias not constant");
    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    Type i8 = IntegerType::get(ctx, 8), i32 = IntegerType::get(ctx, 32);
    Type f32 = Float32Type::get(ctx);
    bool perChannel = bool(axis);
    auto wType = cast<RankedTensorType>(weights.getType());
    bool depthwise = isa<tosa::DepthwiseConv2DOp>(principal);
    if (depthwise) {
      // TOSA [kh, kw, in, multiplier] is NNAPI's [1, kh, kw, in * m].
      ArrayRef<int64_t> w = wType.getShape();
      wType = RankedTensorType::get({1, w[0], w[1], w[2] * w[3]}, i8);
      weights = weights.reshape(wType);
    }
    // Per-channel weights of a fully connected product: NNAPI's
    // FULLY_CONNECTED has none, so a 1x1 CONV_2D over the rows, whose
    // filter [units, 1, 1, in] takes them.
    bool asConv = perChannel &&
                  isa<tosa::FullyConnectedOp, tosa::MatMulOp>(principal);
    if (asConv) {
      ArrayRef<int64_t> w = wType.getShape();
      wType = RankedTensorType::get({w[0], 1, 1, w[1]}, i8);
      weights = weights.reshape(wType);
    }
    Type wElement;
    double biasScale = 0;
    if (perChannel) {
      SmallVector<double> scales(wScales.asArrayRef());
      SmallVector<int64_t> zeros(scales.size(), 0);
      wElement = quant::UniformQuantizedPerAxisType::get(
          quant::QuantizationFlags::Signed, i8, f32, scales, zeros,
          nnapi_mlir::spec::weightsRole(depthwise
                                            ? DepthwiseConv2DOp::kOperationCode
                                            : Conv2DOp::kOperationCode)
              ->channelDim,
          -128, 127);
    } else {
      wElement = i8Quant(ctx, wScales[0], wZero.getInt());
      biasScale = double(float(inScale.getValueAsDouble()) * float(wScales[0]));
    }
    Value filter = view(rewriter, loc,
                        rewriter.create<arith::ConstantOp>(loc, weights),
                        wElement);
    Value biasConst = rewriter.create<arith::ConstantOp>(loc, bias);
    Value biasValue =
        perChannel ? biasConst
                   : view(rewriter, loc, biasConst,
                          quant::UniformQuantizedType::get(
                              quant::QuantizationFlags::Signed, i32, f32,
                              biasScale, 0, INT32_MIN, INT32_MAX));
    Value x = view(rewriter, loc, (*in)[input::kX], inElement);
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    auto outType = RankedTensorType::get(
        resultType.getShape(),
        i8Quant(ctx, outScale.getValueAsDouble(), outZero.getInt()));
    Value y;
    FuseCodeAttr fuseAttr = FuseCodeAttr::get(ctx, *fuse);
    if (asConv) {
      int64_t units = wType.getDimSize(0), in = wType.getDimSize(3);
      int64_t rows = cast<RankedTensorType>(x.getType()).getNumElements() / in;
      Type xElement = cast<RankedTensorType>(x.getType()).getElementType();
      Value image = rewriter.create<ReshapeOp>(
          loc, RankedTensorType::get({1, 1, rows, in}, xElement), x);
      Value conv = rewriter.create<Conv2DOp>(
          loc,
          RankedTensorType::get({1, 1, rows, units}, outType.getElementType()),
          image, filter, biasValue, rewriter.getDenseI64ArrayAttr({0, 0, 0, 0}),
          rewriter.getDenseI64ArrayAttr({1, 1}),
          rewriter.getDenseI64ArrayAttr({1, 1}), fuseAttr);
      y = rewriter.create<ReshapeOp>(loc, outType, conv);
    } else if (auto conv = dyn_cast<tosa::Conv2DOp>(principal)) {
      y = rewriter.create<Conv2DOp>(
          loc, outType, x, filter, biasValue,
          rewriter.getDenseI64ArrayAttr(nnapiPadding(conv.getPad())),
          rewriter.getDenseI64ArrayAttr(swapYX(conv.getStride())),
          rewriter.getDenseI64ArrayAttr(swapYX(conv.getDilation())), fuseAttr);
    } else if (auto conv = dyn_cast<tosa::DepthwiseConv2DOp>(principal)) {
      auto tosaWeights =
          cast<RankedTensorType>(conv.getWeight().getType()).getShape();
      y = rewriter.create<DepthwiseConv2DOp>(
          loc, outType, x, filter, biasValue,
          rewriter.getDenseI64ArrayAttr(nnapiPadding(conv.getPad())),
          rewriter.getDenseI64ArrayAttr(swapYX(conv.getStride())),
          rewriter.getDenseI64ArrayAttr(swapYX(conv.getDilation())),
          rewriter.getI32IntegerAttr(int32_t(tosaWeights[3])), fuseAttr);
    } else if (isa<tosa::FullyConnectedOp>(principal)) {
      y = rewriter.create<FullyConnectedOp>(loc, outType, x, filter, biasValue,
                                            fuseAttr);
    } else {
      // A matmul by a constant (weights [units, in]): FULLY_CONNECTED
      // flattens x to rows of `in`, then the result takes its shape.
      int64_t units = wType.getDimSize(0);
      int64_t rows = resultType.getNumElements() / units;
      Value fc = rewriter.create<FullyConnectedOp>(
          loc,
          RankedTensorType::get({rows, units}, outType.getElementType()), x,
          filter, biasValue, fuseAttr);
      y = rows == resultType.getDimSize(0) && resultType.getRank() == 2
              ? fc
              : rewriter.create<ReshapeOp>(loc, outType, fc).getResult();
    }
    rewriter.replaceOp(op, storage(rewriter, loc, y));
    return success();
  }
};

} // namespace

void mlir::nnapi::populateTosaToNNAPIQuantizedPatterns(
    RewritePatternSet &patterns) {
  patterns.addWithLabel<QuantizeCompositePattern>(
      {"quantize / dequantize (per tensor)"}, patterns.getContext());
  patterns.addWithLabel<QuantizedCompositePattern>(
      {"quantized_weighted / _binary / _data (dequantize, conv / depthwise "
       "conv / fully connected / add / mul / pools / reshape / concat / "
       "sigmoid / tanh / softmax / hard_swish, clamp, quantize)"},
      patterns.getContext());
}
