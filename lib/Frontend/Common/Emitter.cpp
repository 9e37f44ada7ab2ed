//===- Emitter.cpp - TOSA emission shared by the model importers ----------===//

#include "Emitter.h"

#include "nnapi-mlir/Transforms/Constants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/StringSwitch.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

using namespace mlir;
using namespace mlir::nnapi::frontend;

Value Emitter::splat(Type element, ArrayRef<int64_t> shape, double value) {
  auto type = RankedTensorType::get(shape, element);
  Attribute scalar;
  if (isa<FloatType>(element))
    scalar = builder.getFloatAttr(element, value);
  else
    scalar = builder.getIntegerAttr(element, int64_t(value));
  return constant(DenseElementsAttr::get(type, scalar));
}

Value Emitter::reshape(Value v, ArrayRef<int64_t> shape) {
  if (typeOf(v).getShape() == shape)
    return v;
  auto type = RankedTensorType::get(shape, typeOf(v).getElementType());
  return builder.create<tosa::ReshapeOp>(loc, type, v,
                                         builder.getDenseI64ArrayAttr(shape));
}

/// Elements 0, step, ..., (count - 1) * step of `axis`, whose size is
/// (count - 1) * step + 1 to count * step: zero-padded to count * step,
/// reshaped to [count, step] there, column 0 sliced, reshaped back (the
/// strided_slice composite of TosaToNNAPI).
Value Emitter::everyNth(Value v, int64_t axis, int64_t step, int64_t count) {
  RankedTensorType t = typeOf(v);
  int64_t rank = t.getRank(), size = t.getDimSize(axis);
  if (size < count * step) {
    SmallVector<int64_t> pads(2 * rank, 0);
    pads[2 * axis + 1] = count * step - size;
    Shape padded(t.getShape());
    padded[axis] = count * step;
    v = builder.create<tosa::PadOp>(
        loc, RankedTensorType::get(padded, t.getElementType()), v,
        constant(DenseElementsAttr::get(
            RankedTensorType::get({rank, 2}, builder.getI64Type()),
            ArrayRef<int64_t>(pads))),
        splat(t.getElementType(), {}, 0));
  }
  Shape rows(t.getShape());
  rows[axis] = step;
  rows.insert(rows.begin() + axis, count);
  v = reshape(v, rows);
  Shape start(rank + 1, 0), column(rows);
  column[axis + 1] = 1;
  v = builder.create<tosa::SliceOp>(
      loc, RankedTensorType::get(column, t.getElementType()), v,
      builder.getDenseI64ArrayAttr(start),
      builder.getDenseI64ArrayAttr(column));
  column.erase(column.begin() + axis + 1);
  return reshape(v, column);
}

Value Emitter::transpose(Value v, ArrayRef<int64_t> perm) {
  RankedTensorType t = typeOf(v);
  Shape shape;
  bool identity = true;
  for (auto [i, p] : llvm::enumerate(perm)) {
    shape.push_back(t.getDimSize(p));
    identity &= int64_t(i) == p;
  }
  if (identity)
    return v;
  SmallVector<int32_t> perms(perm.begin(), perm.end());
  Value permsValue = constant(DenseElementsAttr::get(
      RankedTensorType::get({int64_t(perm.size())}, builder.getI32Type()),
      ArrayRef<int32_t>(perms)));
  return builder.create<tosa::TransposeOp>(
      loc, RankedTensorType::get(shape, t.getElementType()), v, permsValue);
}

Value Emitter::toRank(Value v, int64_t rank) {
  RankedTensorType t = typeOf(v);
  if (t.getRank() >= rank)
    return v;
  Shape shape(rank - t.getRank(), 1);
  shape.append(t.getShape().begin(), t.getShape().end());
  return reshape(v, shape);
}

std::pair<Value, Value> Emitter::broadcastPair(Value a, Value b) {
  int64_t rank = std::max(typeOf(a).getRank(), typeOf(b).getRank());
  return {toRank(a, rank), toRank(b, rank)};
}

RankedTensorType Emitter::resultOf(Value a, Value b, Type element) {
  RankedTensorType ta = typeOf(a), tb = typeOf(b);
  Shape shape;
  for (int64_t i = 0; i < ta.getRank(); ++i) {
    int64_t a = ta.getDimSize(i), b = tb.getDimSize(i);
    // A dynamic dimension broadcasts against 1 (it stays dynamic) or equals
    // the other side's size.
    if (ShapedType::isDynamic(a) || ShapedType::isDynamic(b))
      shape.push_back(ShapedType::isDynamic(a) && ShapedType::isDynamic(b)
                          ? ShapedType::kDynamic
                      : ShapedType::isDynamic(a) ? (b == 1 ? a : b)
                                                 : (a == 1 ? b : a));
    else
      shape.push_back(std::max(a, b));
  }
  return RankedTensorType::get(shape, element ? element : ta.getElementType());
}

Value Emitter::clamp(Value v, double lo, double hi) {
  Type e = typeOf(v).getElementType();
  // Float bounds are float32 attributes, float64 ones for a float64 tensor
  // (tosa.clamp takes no narrower bounds than its data); an infinite bound
  // (none) is the attribute type's largest finite value.
  if (isa<FloatType>(e)) {
    FloatType boundType =
        e.isF64() ? builder.getF64Type() : builder.getF32Type();
    double most = e.isF64() ? DBL_MAX : FLT_MAX;
    lo = std::clamp(lo, -most, most);
    hi = std::clamp(hi, -most, most);
    return builder.create<tosa::ClampOp>(
        loc, v.getType(), v, builder.getI64IntegerAttr(0),
        builder.getI64IntegerAttr(0), builder.getFloatAttr(boundType, lo),
        builder.getFloatAttr(boundType, hi));
  }
  // Bounds beyond the element type (such as an infinite one)
  // saturate to it; converting an out-of-range double is undefined in C++.
  unsigned width = e.getIntOrFloatBitWidth();
  int64_t most = width >= 64 ? INT64_MAX : (int64_t(1) << (width - 1)) - 1;
  int64_t least = -most - 1;
  // `none` for NaN (no bound).
  auto bound = [&](double d, int64_t none) {
    if (std::isnan(d))
      return none;
    if (d >= double(most))
      return most;
    if (d <= double(least))
      return least;
    return int64_t(d);
  };
  return builder.create<tosa::ClampOp>(
      loc, v.getType(), v, builder.getI64IntegerAttr(bound(lo, least)),
      builder.getI64IntegerAttr(bound(hi, most)), builder.getF32FloatAttr(0),
      builder.getF32FloatAttr(0));
}

Value Emitter::unary(StringRef opName, Value v) {
  OperationState state(loc, opName);
  state.addOperands(v);
  state.addTypes(v.getType());
  return builder.create(state)->getResult(0);
}

Value Emitter::reduce(StringRef kind, Value v, ArrayRef<int64_t> axes) {
  for (int64_t axis : axes) {
    RankedTensorType t = typeOf(v);
    Shape shape(t.getShape());
    shape[axis] = 1;
    auto type = RankedTensorType::get(shape, t.getElementType());
    IntegerAttr a = builder.getI32IntegerAttr(int32_t(axis));
    if (kind == "sum")
      v = builder.create<tosa::ReduceSumOp>(loc, type, v, a);
    else if (kind == "max")
      v = builder.create<tosa::ReduceMaxOp>(loc, type, v, a);
    else if (kind == "min")
      v = builder.create<tosa::ReduceMinOp>(loc, type, v, a);
    else
      v = builder.create<tosa::ReduceProdOp>(loc, type, v, a);
  }
  return v;
}

Value Emitter::normalizeIndices(Value indices, int64_t size) {
  RankedTensorType t = typeOf(indices);
  Shape ones(t.getRank(), 1);
  Value zero = splat(t.getElementType(), ones, 0);
  Value isNeg = builder.create<tosa::GreaterOp>(
      loc, RankedTensorType::get(t.getShape(), builder.getI1Type()), zero,
      indices);
  Value wrapped = binary<tosa::AddOp>(
      indices, splat(t.getElementType(), ones, double(size)));
  indices = builder.create<tosa::SelectOp>(loc, t, isNeg, wrapped, indices);
  return castTo(clamp(indices, 0, double(size - 1)), builder.getI32Type());
}

Value Emitter::slice(Value v, ArrayRef<int64_t> start,
                      ArrayRef<int64_t> size) {
  if (typeOf(v).getShape() == size)
    return v;
  auto type = RankedTensorType::get(size, typeOf(v).getElementType());
  DenseElementsAttr attr;
  if (matchPattern(v, m_Constant(&attr)))
    return constant(sliceElements(attr, start, size));
  return builder.create<tosa::SliceOp>(loc, type, v,
                                       builder.getDenseI64ArrayAttr(start),
                                       builder.getDenseI64ArrayAttr(size));
}

Value Emitter::castTo(Value v, Type element) {
  Type from = typeOf(v).getElementType();
  if (from == element)
    return v;
  auto shaped = [&](Type e) {
    return RankedTensorType::get(typeOf(v).getShape(), e);
  };
  Type f32 = builder.getF32Type();
  if (element.isBF16()) {
    // To bfloat16 from float32, as ONNX (1.14 on) and ONNX Runtime round:
    // to nearest, ties to even, on the bits (NaN -> 0x7FC0); computed on
    // integers, so that nothing asks LLVM for bfloat16 arithmetic. (Other
    // types go through float32 first: float64 rounds twice.)
    Value x = castTo(v, f32);
    Type i32 = builder.getI32Type();
    Value bits = builder.create<arith::BitcastOp>(loc, shaped(i32), x);
    Value lsb = binary<tosa::BitwiseAndOp>(
        binary<tosa::LogicalRightShiftOp>(bits, scalarLike(bits, 16)),
        scalarLike(bits, 1));
    Value rounded = binary<tosa::LogicalRightShiftOp>(
        add(add(bits, scalarLike(bits, 0x7FFF)), lsb), scalarLike(bits, 16));
    Value isNaN = builder.create<tosa::LogicalNotOp>(
        loc, shaped(builder.getI1Type()), compare<tosa::EqualOp>(x, x));
    rounded = select(isNaN, scalarLike(bits, 0x7FC0), rounded);
    Value half = builder.create<arith::TruncIOp>(
        loc, shaped(builder.getIntegerType(16)), rounded);
    return builder.create<arith::BitcastOp>(loc, shaped(element), half);
  }
  if (from.isBF16()) {
    // From bfloat16: its bits are float32's upper half (exact).
    Value half = builder.create<arith::BitcastOp>(
        loc, shaped(builder.getIntegerType(16)), v);
    Value wide = builder.create<arith::ExtUIOp>(
        loc, shaped(builder.getI32Type()), half);
    wide = binary<tosa::LogicalLeftShiftOp>(wide, scalarLike(wide, 16));
    return castTo(builder.create<arith::BitcastOp>(loc, shaped(f32), wide),
                  element);
  }
  if (isa<FloatType>(from) && element.isInteger(64)) {
    // MLIR 19's tosa-to-linalg saturates every float -> i64 cast to
    // INT64_MAX (its upper bound constant overflows). Saturate in float64
    // to int64's range instead (the largest float64 below 2^63), then
    // convert: exact for every integral value (callers truncate first, as
    // ONNX's Cast does; ONNX leaves values beyond int64 undefined).
    Value wide = clamp(castTo(v, builder.getF64Type()), -0x1p63,
                       0x1p63 - 1024.0);
    return builder.create<arith::FPToSIOp>(loc, shaped(element), wide);
  }
  return builder.create<tosa::CastOp>(loc, shaped(element), v);
}

Value Emitter::select(Value c, Value a, Value b) {
  int64_t rank = std::max(
      {typeOf(c).getRank(), typeOf(a).getRank(), typeOf(b).getRank()});
  c = toRank(c, rank);
  a = toRank(a, rank);
  b = toRank(b, rank);
  Shape shape;
  for (int64_t i = 0; i < rank; ++i)
    shape.push_back(std::max({typeOf(c).getDimSize(i), typeOf(a).getDimSize(i),
                              typeOf(b).getDimSize(i)}));
  return builder.create<tosa::SelectOp>(
      loc, RankedTensorType::get(shape, typeOf(a).getElementType()), c, a, b);
}

/// max(x, 0) + slope * min(x, 0): LeakyRelu's and PRelu's formula.
Value Emitter::leaky(Value x, Value slope) {
  Value pos = clamp(x, 0, kNoBound);
  Value neg = clamp(x, -kNoBound, 0);
  return add(pos, mul(neg, slope));
}

Value Emitter::softmax(Value x, int64_t axis, bool log) {
  Value m = reduce("max", x, {axis});
  Value shifted = sub(x, m);
  Value e = unary("tosa.exp", shifted);
  Value s = reduce("sum", e, {axis});
  if (!log)
    return mul(e, unary("tosa.reciprocal", s));
  return sub(shifted, unary("tosa.log", s));
}

Value Emitter::mean(Value x, ArrayRef<int64_t> axes) {
  int64_t count = 1;
  for (int64_t a : axes)
    count *= typeOf(x).getDimSize(a);
  return mul(reduce("sum", x, axes), scalarLike(x, 1.0 / double(count)));
}

ArrayRef<StringLiteral> Emitter::activationNames() {
  static constexpr StringLiteral names[] = {
      "Relu",       "Tanh",        "Sigmoid",
      "Affine",     "LeakyRelu",   "ThresholdedRelu",
      "ScaledTanh", "HardSigmoid", "Elu",
      "Softsign",   "Softplus"};
  return names;
}

std::pair<bool, bool> Emitter::activationParams(StringRef name) {
  return llvm::StringSwitch<std::pair<bool, bool>>(name)
      .Cases("Affine", "ScaledTanh", "HardSigmoid", {true, true})
      .Cases("LeakyRelu", "ThresholdedRelu", "Elu", {true, false})
      .Default({false, false});
}

Value Emitter::activation(StringRef name, Value x, std::optional<double> alpha,
                           std::optional<double> beta) {
  auto scalar = [&](double value) { return scalarLike(x, value); };
  auto add = [&](Value a, Value b) { return binary<tosa::AddOp>(a, b); };
  if (name == "Relu")
    return clamp(x, 0, kNoBound);
  if (name == "Tanh")
    return unary("tosa.tanh", x);
  if (name == "Sigmoid")
    return unary("tosa.sigmoid", x);
  if (name == "Affine")
    return add(mul(x, scalar(alpha.value_or(1.0))), scalar(beta.value_or(0.0)));
  if (name == "LeakyRelu")
    return leaky(x, scalar(alpha.value_or(0.01f)));
  if (name == "ThresholdedRelu") {
    Value above = builder.create<tosa::GreaterOp>(
        loc, typeOf(x).clone(builder.getI1Type()), x,
        scalar(alpha.value_or(1.0)));
    return builder.create<tosa::SelectOp>(loc, x.getType(), above, x,
                                          scalar(0));
  }
  if (name == "ScaledTanh")
    return mul(unary("tosa.tanh", mul(x, scalar(beta.value_or(1.0)))),
               scalar(alpha.value_or(1.0)));
  if (name == "HardSigmoid")
    return clamp(
        add(mul(x, scalar(alpha.value_or(0.2f))), scalar(beta.value_or(0.5f))),
        0, 1);
  if (name == "Elu") {
    // max(x, 0) + alpha * (exp(min(x, 0)) - 1)
    Value em1 = binary<tosa::SubOp>(unary("tosa.exp", clamp(x, -kNoBound, 0)),
                                    scalar(1));
    return add(clamp(x, 0, kNoBound), mul(em1, scalar(alpha.value_or(1.0))));
  }
  if (name == "Softsign")
    return mul(x,
               unary("tosa.reciprocal", add(unary("tosa.abs", x), scalar(1))));
  if (name == "Softplus")
    return unary("tosa.log", add(unary("tosa.exp", x), scalar(1)));
  return {};
}

namespace mlir::nnapi::frontend {

SmallVector<int64_t> intsOf(DenseElementsAttr attr) {
  SmallVector<int64_t> out;
  // getValues<APInt> is only defined for integers (NDEBUG builds iterate
  // garbage otherwise): floats are truncated toward zero, saturating.
  if (isa<FloatType>(attr.getElementType())) {
    for (APFloat v : attr.getValues<APFloat>()) {
      APSInt i(64, /*isUnsigned=*/false);
      bool exact;
      v.convertToInteger(i, APFloat::rmTowardZero, &exact);
      out.push_back(i.getSExtValue());
    }
    return out;
  }
  for (APInt v : attr.getValues<APInt>())
    out.push_back(v.getSExtValue());
  return out;
}

SmallVector<double> floatsOf(DenseElementsAttr attr) {
  SmallVector<double> out;
  if (isa<FloatType>(attr.getElementType())) {
    for (APFloat v : attr.getValues<APFloat>())
      out.push_back(v.convertToDouble());
  } else {
    for (APInt v : attr.getValues<APInt>())
      out.push_back(double(v.getSExtValue()));
  }
  return out;
}

DenseElementsAttr denseOf(RankedTensorType type, ArrayRef<double> values) {
  Type e = type.getElementType();
  if (auto f = dyn_cast<FloatType>(e)) {
    SmallVector<APFloat> v;
    for (double x : values) {
      APFloat a(x);
      bool lost;
      a.convert(f.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
      v.push_back(a);
    }
    return DenseElementsAttr::get(type, v);
  }
  SmallVector<APInt> v;
  for (double x : values)
    v.push_back(APInt(e.getIntOrFloatBitWidth(), uint64_t(int64_t(x)),
                      /*isSigned=*/true));
  return DenseElementsAttr::get(type, v);
}

} // namespace mlir::nnapi::frontend
