//===- QuantizedHost.cpp - Host code of quantized convolutions ------------===//
//
// A `quantized_weighted` composite of a float convolution (a QDQ
// convolution, nnapi-raise-quantized) keeps its float chain as its body:
// what NNAPI's operation means. Run on the host as that chain, it would
// dequantize the input and convolve in float32. Here its body instead
// computes the exact integer sums of (x - zx)(w - zw) plus the i32 bias, as
// ONNX Runtime's int8 kernels do, and scales them by the bias's units
// (input scale x weight scale); when the body ends in a quantize, the
// output scale joins that multiplier and the quantize's division goes
// (acc x (sx sw / sy), rounded: ONNX Runtime's QLinearConv requantization).
//   - tosa.conv2d: the quantized tosa.conv2d of the 8-bit operands (the
//     host code generation's dot-product tiles);
//   - tosa.depthwise_conv2d: a float depthwise convolution of x - zx and
//     the constant w - zw, whose sums of integers are exact in float32
//     while they stay below 2^24 (checked from the filter size and bias).
// The integer sums are exact where the float ones round: the result is
// ONNX's definition of the QDQ chain computed with exact products, within a
// quantum of the float formula (a value at a rounding boundary may go the
// other way).
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Transforms/Composites.h"
#include "nnapi-mlir/Transforms/Constants.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"

#include <cfloat>
#include <cmath>

using namespace mlir;
using namespace mlir::nnapi;
namespace names = mlir::nnapi::composite;
using namespace mlir::nnapi::composite;

namespace {

/// The body's quantize composite after `result` (through one clamp), when
/// its body starts by dividing by its scale: that division, and the clamp.
struct Requantize {
  Operation *clamp = nullptr;
  Operation *divide = nullptr;
  float scale = 1.0f;
};

Requantize requantizeAfter(Value result) {
  Requantize r;
  if (!result.hasOneUse())
    return r;
  Operation *user = *result.user_begin();
  Operation *clamp = nullptr;
  if (isa<tosa::ClampOp>(user) && user->hasOneUse()) {
    clamp = user;
    user = *user->user_begin();
  }
  auto quantize = dyn_cast<CompositeOp>(user);
  if (!quantize || quantize.getName() != names::kQuantize ||
      !quantize.getBody().hasOneBlock())
    return r;
  auto scales =
      quantize.getCompositeAttributes().getAs<DenseF32ArrayAttr>(names::kScale);
  BlockArgument arg = quantize.getBody().front().getArgument(0);
  if (!scales || scales.size() != 1 || !arg.hasOneUse())
    return r;
  Operation *first = *arg.user_begin();
  if (first->getName().getStringRef() != "arith.divf" ||
      first->getOperand(0) != arg ||
      splatValue(first->getOperand(1)) != double(scales[0]))
    return r;
  r.clamp = clamp;
  r.divide = first;
  r.scale = scales[0];
  return r;
}

/// With the output scale joined to the multiplier: the clamp's bounds in
/// output quanta, and the quantize's body starting after its division.
void dropDivision(const Requantize &r, OpBuilder &b) {
  if (!r.divide)
    return;
  if (Operation *clamp = r.clamp) {
    auto bound = [&](StringRef name) {
      float v =
          clamp->getAttrOfType<FloatAttr>(name).getValueAsDouble() / r.scale;
      return b.getF32FloatAttr(std::isfinite(v) ? v
                                                : std::copysign(FLT_MAX, v));
    };
    clamp->setAttr("min_fp", bound("min_fp"));
    clamp->setAttr("max_fp", bound("max_fp"));
  }
  r.divide->getResult(0).replaceAllUsesWith(r.divide->getOperand(0));
  r.divide->erase();
}

/// Whether `v` is a dequantize composite of `arg`.
bool dequantizes(Value v, Value arg) {
  auto dq = v.getDefiningOp<CompositeOp>();
  return dq && dq.getName() == names::kDequantize &&
         dq->getNumOperands() == 1 && dq->getOperand(0) == arg;
}

bool staticTensors(ValueRange values) {
  return llvm::all_of(values, [](Value v) {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t && t.hasStaticShape();
  });
}

/// A `quantized_binary` composite of a tosa.add: each dequantized operand
/// scaled straight into output quanta, (x - zx) (sx / sy) + (y - zy)
/// (sy2 / sy), so the quantize does not divide (ONNX Runtime's QLinearAdd
/// computes it so).
LogicalResult binaryBody(CompositeOp op, const Inputs &inputs) {
  Block &body = op.getBody().front();
  auto argument = [&](StringRef name) {
    return body.getArgument(inputs.all(name).getBeginOperandIndex());
  };
  Value x = argument(input::kX), y = argument(input::kY);
  tosa::AddOp add;
  for (Operation &o : body.without_terminator())
    if (auto a = dyn_cast<tosa::AddOp>(o)) {
      if (add)
        return failure();
      add = a;
    }
  DictionaryAttr attrs = op.getCompositeAttributes();
  auto xScale = attrs.getAs<FloatAttr>(names::kInputScale);
  auto xZero = attrs.getAs<IntegerAttr>(names::kInputZeroPoint);
  auto yScale = attrs.getAs<FloatAttr>(names::kSecondScale);
  auto yZero = attrs.getAs<IntegerAttr>(names::kSecondZeroPoint);
  if (!add || !xScale || !xZero || !yScale || !yZero ||
      !dequantizes(add.getInput1(), x) || !dequantizes(add.getInput2(), y) ||
      !staticTensors({x, y, add.getResult()}) ||
      !getElementTypeOrSelf(x).isInteger(8) ||
      !getElementTypeOrSelf(y).isInteger(8) ||
      x.getType() != y.getType())
    return failure();
  Requantize requantize = requantizeAfter(add.getResult());
  if (!requantize.divide)
    return failure();
  OpBuilder b(add);
  Location loc = add.getLoc();
  auto type = cast<RankedTensorType>(add.getType());
  auto one = RankedTensorType::get(
      SmallVector<int64_t>(type.getRank(), 1), b.getF32Type());
  auto scalar = [&](float v) -> Value {
    return b.create<tosa::ConstOp>(loc, one, DenseElementsAttr::get(one, v));
  };
  auto scaled = [&](Value q, FloatAttr scale, IntegerAttr zero) -> Value {
    Value v = b.create<tosa::CastOp>(loc, type, q);
    if (zero.getInt())
      v = b.create<tosa::SubOp>(loc, type, v, scalar(float(zero.getInt())));
    return b.create<tosa::MulOp>(
        loc, type, v,
        scalar(float(scale.getValueAsDouble()) / requantize.scale),
        b.getI8IntegerAttr(0));
  };
  // (In order: argument evaluation order is unspecified.)
  Value xs = scaled(x, xScale, xZero);
  Value ys = scaled(y, yScale, yZero);
  Value sum = b.create<tosa::AddOp>(loc, type, xs, ys);
  dropDivision(requantize, b);
  add.getResult().replaceAllUsesWith(sum);
  IRRewriter rewriter(op.getContext());
  add->erase();
  (void)runRegionDCE(rewriter, op->getRegions());
  return success();
}

/// The dense integers behind `v`, a constant.
std::optional<SmallVector<int64_t>> integersOf(Value v) {
  DenseIntElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  SmallVector<int64_t> values;
  for (const APInt &x : attr.getValues<APInt>())
    values.push_back(x.getSExtValue());
  return values;
}

} // namespace

namespace {

/// A `quantized_weighted` composite of a float convolution (file comment).
LogicalResult weightedBody(CompositeOp op, const Inputs &inputs) {
  Block &body = op.getBody().front();
  Operation *conv = nullptr;
  for (Operation &o : body.without_terminator())
    if (isa<tosa::Conv2DOp, tosa::DepthwiseConv2DOp>(o)) {
      if (conv)
        return failure();
      conv = &o;
    }
  DictionaryAttr attrs = op.getCompositeAttributes();
  auto inputScale = attrs.getAs<FloatAttr>(kInputScale);
  auto inputZero = attrs.getAs<IntegerAttr>(kInputZeroPoint);
  auto weightScales = attrs.getAs<DenseF64ArrayAttr>(kWeightScale);
  auto weightZero = attrs.getAs<IntegerAttr>(kWeightZeroPoint);
  if (!conv || !inputScale || !inputZero || !weightScales || !weightZero ||
      !isa<FloatType>(getElementTypeOrSelf(conv->getResult(0).getType())))
    return failure();
  auto argument = [&](StringRef name) {
    return body.getArgument(inputs.all(name).getBeginOperandIndex());
  };
  Value x = argument(input::kX), w = argument(input::kWeights),
        bias = argument(input::kBias);
  // The convolution reads the dequantized input (nnapi-raise-quantized's
  // body), every shape static.
  if (!dequantizes(conv->getOperand(0), x) ||
      !staticTensors({x, w, bias, conv->getOperand(0), conv->getOperand(1),
                      conv->getResult(0)}))
    return failure();
  auto outType = cast<RankedTensorType>(conv->getResult(0).getType());
  int64_t channels = outType.getShape().back();
  auto shapeOf = [](Value v) {
    return cast<RankedTensorType>(v.getType()).getShape();
  };
  if (!getElementTypeOrSelf(x).isInteger(8) ||
      !getElementTypeOrSelf(w).isInteger(8) ||
      !getElementTypeOrSelf(bias).isInteger(32) ||
      shapeOf(x) != shapeOf(conv->getOperand(0)) ||
      shapeOf(w) != shapeOf(conv->getOperand(1)) ||
      shapeOf(bias) != ArrayRef<int64_t>{channels} ||
      (weightScales.size() != 1 && weightScales.size() != channels))
    return failure();

  OpBuilder b(conv);
  Location loc = conv->getLoc();
  MLIRContext *ctx = op.getContext();
  int64_t zx = inputZero.getInt(), zw = weightZero.getInt();
  auto pad = conv->getAttrOfType<DenseI64ArrayAttr>("pad");
  auto stride = conv->getAttrOfType<DenseI64ArrayAttr>("stride");
  auto dilation = conv->getAttrOfType<DenseI64ArrayAttr>("dilation");
  // The sums, as float32.
  Value sums;
  if (isa<tosa::Conv2DOp>(conv)) {
    auto accType = RankedTensorType::get(outType.getShape(),
                                         IntegerType::get(ctx, 32));
    Value acc = b.create<tosa::Conv2DOp>(
        loc, accType, x, w, bias, pad, stride, dilation,
        tosa::ConvOpQuantizationAttr::get(ctx, zx, zw),
        /*local_bound=*/nullptr);
    sums = b.create<tosa::CastOp>(loc, outType, acc);
  } else {
    // Exact in float32 while every sum stays below 2^24.
    std::optional<SmallVector<int64_t>> wValues =
        integersOf(op->getOperand(inputs.all(input::kWeights)
                                      .getBeginOperandIndex()));
    std::optional<SmallVector<int64_t>> bValues = integersOf(
        op->getOperand(inputs.all(input::kBias).getBeginOperandIndex()));
    if (!wValues || !bValues)
      return failure();
    ArrayRef<int64_t> wShape = shapeOf(w); // KH, KW, C, M
    int64_t taps = wShape[0] * wShape[1], maxBias = 0;
    for (int64_t v : *bValues)
      maxBias = std::max(maxBias, std::abs(v));
    if (taps * 255 * 255 + maxBias >= (int64_t(1) << 24))
      return failure();
    SmallVector<float> wf, bf;
    for (int64_t v : *wValues)
      wf.push_back(float(v - zw));
    for (int64_t v : *bValues)
      bf.push_back(float(v));
    auto f32 = b.getF32Type();
    auto like = [&](Value v) {
      return RankedTensorType::get(shapeOf(v), f32);
    };
    Value xf = b.create<tosa::CastOp>(loc, like(x), x);
    if (zx != 0) {
      auto one = RankedTensorType::get(
          SmallVector<int64_t>(shapeOf(x).size(), 1), f32);
      xf = b.create<tosa::SubOp>(
          loc, like(x), xf,
          b.create<tosa::ConstOp>(
              loc, one, DenseElementsAttr::get(one, float(zx))));
    }
    Value wConst = b.create<tosa::ConstOp>(
        loc, like(w), DenseElementsAttr::get(like(w), ArrayRef<float>(wf)));
    Value bConst = b.create<tosa::ConstOp>(
        loc, like(bias),
        DenseElementsAttr::get(like(bias), ArrayRef<float>(bf)));
    sums = b.create<tosa::DepthwiseConv2DOp>(
        loc, outType, xf, wConst, bConst, pad, stride, dilation,
        /*quantization_info=*/nullptr, /*local_bound=*/nullptr);
  }
  // The multiplier: the bias's units (the bias dequantizes with them), as
  // float32, over the output scale if the quantize's division joins it.
  Requantize requantize = requantizeAfter(conv->getResult(0));
  SmallVector<float> units;
  for (int64_t c = 0; c < channels; ++c)
    units.push_back(float(inputScale.getValueAsDouble()) *
                    float(weightScales[weightScales.size() == 1 ? 0 : c]) /
                    requantize.scale);
  SmallVector<int64_t> unitsShape(outType.getRank(), 1);
  unitsShape.back() = channels;
  auto unitsType = RankedTensorType::get(unitsShape, b.getF32Type());
  Value scale = b.create<tosa::ConstOp>(
      loc, unitsType, DenseElementsAttr::get(unitsType, ArrayRef<float>(units)));
  Value real = b.create<tosa::MulOp>(loc, outType, sums, scale,
                                     b.getI8IntegerAttr(0));
  dropDivision(requantize, b);
  conv->getResult(0).replaceAllUsesWith(real);
  // The float convolution and the dequantizations only it used.
  IRRewriter rewriter(ctx);
  conv->erase();
  (void)runRegionDCE(rewriter, op->getRegions());
  return success();
}

} // namespace

LogicalResult names::quantizedHostBody(CompositeOp op) {
  std::string why;
  FailureOr<Inputs> inputs = Inputs::bind(op, why);
  if (failed(inputs) || !op.getBody().hasOneBlock())
    return failure();
  if (op.getName() == kQuantizedWeighted)
    return weightedBody(op, *inputs);
  if (op.getName() == kQuantizedBinary)
    return binaryBody(op, *inputs);
  return failure();
}
