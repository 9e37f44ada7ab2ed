//===- Math.cpp - More element-wise operators -------------------*- C++ -*-===//
//
// Element-wise operators built from TOSA compositions: rounding, signs,
// remainders, NaN/infinity tests, trigonometry and the
// thresholded activations.
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"
#include "../OpRegistry.h"

#include "nnapi-mlir/Frontend/ONNX/ONNXImporter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::nnapi::onnx_import;

namespace {

//===----------------------------------------------------------------------===//
// Element-wise
//===----------------------------------------------------------------------===//

LogicalResult importSoftsign(NodeContext &n) {
  Value x = n.in(0);
  if (failed(requireFloat(n, x)))
    return failure();
  return n.setResult(n.imp.activation("Softsign", x));
}

LogicalResult importSign(NodeContext &n) {
  Value x = n.in(0);
  Value zero = n.imp.scalarLike(x, 0);
  Value positive = compare<tosa::GreaterOp>(n, x, zero);
  Value negative = compare<tosa::GreaterOp>(n, zero, x);
  Value y = select(n, negative, n.imp.scalarLike(x, -1), zero);
  return n.setResult(select(n, positive, n.imp.scalarLike(x, 1), y));
}

/// Round half to even. floor(x + 0.5) would round 0.49999997 up (the sum
/// rounds to 1.0), so the fraction is taken from floor(x) instead.
LogicalResult importRound(NodeContext &n) {
  Value x = n.in(0);
  if (failed(requireFloat(n, x)))
    return failure();
  Value f = n.imp.unary("tosa.floor", x);
  Value fraction = sub(n, x, f); // exact
  Value half = n.imp.scalarLike(x, 0.5), one = n.imp.scalarLike(x, 1);
  Value up = add(n, f, one);
  // f is even when f - 2 * floor(f / 2) == 0.
  Value halfF = n.imp.unary("tosa.floor", n.imp.mul(f, half));
  Value even = compare<tosa::EqualOp>(n, sub(n, f, add(n, halfF, halfF)),
                                      n.imp.scalarLike(x, 0));
  Value atHalf = select(n, even, f, up);
  Value below = compare<tosa::GreaterOp>(n, half, fraction);
  Value above = compare<tosa::GreaterOp>(n, fraction, half);
  return n.setResult(select(n, above, up, select(n, below, f, atHalf)));
}

LogicalResult importIsNaN(NodeContext &n) {
  Value x = n.in(0);
  if (failed(requireFloat(n, x)))
    return failure();
  Value same = compare<tosa::EqualOp>(n, x, x);
  return n.setResult(
      n.b.create<tosa::LogicalNotOp>(n.loc, same.getType(), same));
}

LogicalResult importIsInf(NodeContext &n) {
  Value x = n.in(0);
  if (failed(requireFloat(n, x)))
    return failure();
  bool positive = n.intAttr("detect_positive", 1);
  bool negative = n.intAttr("detect_negative", 1);
  Value result;
  auto orWith = [&](Value v) {
    result = result
                 ? n.b.create<tosa::LogicalOrOp>(n.loc, v.getType(), result, v)
                       .getResult()
                 : v;
  };
  if (positive)
    orWith(compare<tosa::EqualOp>(n, x, n.imp.scalarLike(x, INFINITY)));
  if (negative)
    orWith(compare<tosa::EqualOp>(n, x, n.imp.scalarLike(x, -INFINITY)));
  if (!result) // detecting neither: |x| < 0 is false everywhere, NaN too
    result = compare<tosa::GreaterOp>(n, n.imp.scalarLike(x, 0),
                                      n.imp.unary("tosa.abs", x));
  return n.setResult(result);
}

/// fmod = 1: the remainder has the dividend's sign (C's fmod); fmod = 0
/// (integers only): the divisor's sign (Python's %). Floats as
/// a - b * trunc(a / b), corrected by one b where rounding of the quotient
/// left the remainder outside (-|b|, |b|) or with the wrong sign; integers
/// through 32-bit integer division.
LogicalResult importMod(NodeContext &n) {
  Value a = n.in(0), b = n.in(1);
  bool fmod = n.intAttr("fmod", 0);
  Type element = n.imp.typeOf(a).getElementType();
  if (n.imp.typeOf(b).getElementType() != element)
    return n.error() << "mixed element types are not supported";
  if (n.isFloat(a)) {
    if (!fmod)
      return n.error() << "fmod must be 1 for float inputs";
    Value q = n.imp.mul(a, n.imp.unary("tosa.reciprocal", b));
    Value zero = n.imp.scalarLike(a, 0);
    Value t = select(n, compare<tosa::GreaterOp>(n, zero, q),
                     n.imp.unary("tosa.ceil", q), n.imp.unary("tosa.floor", q));
    Value r = sub(n, a, n.imp.mul(b, t));
    Value absB = n.imp.unary("tosa.abs", b);
    // sign(a) * |b|, the step that moves r towards a's side.
    Value step =
        select(n, compare<tosa::GreaterOp>(n, zero, a),
               n.b.create<tosa::NegateOp>(n.loc, absB.getType(), absB), absB);
    Value tooBig =
        compare<tosa::GreaterEqualOp>(n, n.imp.unary("tosa.abs", r), absB);
    r = select(n, tooBig, sub(n, r, step), r);
    Value rNeg = compare<tosa::GreaterOp>(n, zero, r);
    Value rPos = compare<tosa::GreaterOp>(n, r, zero);
    Value aNeg = compare<tosa::GreaterOp>(n, zero, a);
    Value aPos = compare<tosa::GreaterOp>(n, a, zero);
    Value wrongSign = n.b.create<tosa::LogicalOrOp>(
        n.loc, rNeg.getType(),
        n.b.create<tosa::LogicalAndOp>(n.loc, rNeg.getType(), rNeg, aPos),
        n.b.create<tosa::LogicalAndOp>(n.loc, rPos.getType(), rPos, aNeg));
    return n.setResult(select(n, wrongSign, add(n, r, step), r));
  }
  // Integers of every width: element-wise arith on the broadcast operands
  // (TOSA's int_div is 32-bit only), computed on the host. A divisor of 0
  // gives 0 (as numpy; ONNX leaves it undefined) and one of -1 gives 0, so
  // that no division traps (x86 faults on both, and on INT_MIN / -1).
  FailureOr<RankedTensorType> outType = n.out();
  if (failed(outType))
    return failure();
  ArrayRef<int64_t> shape = outType->getShape();
  auto full = [&](Value v) -> Value {
    if (n.imp.typeOf(v).getShape() == shape)
      return v;
    return n.imp.binary<tosa::AddOp>(v, n.imp.splat(element, shape, 0));
  };
  Value x = full(a), y = full(b);
  OpBuilder &bld = n.b;
  Location loc = n.loc;
  auto constant = [&](int64_t v) { return n.imp.splat(element, shape, v); };
  auto cmp = [&](arith::CmpIPredicate p, Value l, Value r) -> Value {
    return bld.create<arith::CmpIOp>(loc, p, l, r);
  };
  Value zero = constant(0);
  // Unsigned inputs (zero-extended into a wider type, or uint64 in int64)
  // take the unsigned remainder: no sign to fix, and -1 is 2^64 - 1.
  bool isUnsigned = n.isUnsignedInput(0) && n.isUnsignedInput(1);
  Value trivial = cmp(arith::CmpIPredicate::eq, y, zero);
  if (!isUnsigned)
    trivial = bld.create<arith::OrIOp>(
        loc, trivial, cmp(arith::CmpIPredicate::eq, y, constant(-1)));
  Value safe = bld.create<arith::SelectOp>(loc, trivial, constant(1), y);
  Value r = isUnsigned ? Value(bld.create<arith::RemUIOp>(loc, x, safe))
                       : Value(bld.create<arith::RemSIOp>(loc, x, safe));
  r = bld.create<arith::SelectOp>(loc, trivial, zero, r);
  if (!fmod && !isUnsigned) {
    // Python's sign: the divisor's.
    Value differ =
        bld.create<arith::XOrIOp>(loc, cmp(arith::CmpIPredicate::slt, r, zero),
                                  cmp(arith::CmpIPredicate::slt, y, zero));
    Value fix = bld.create<arith::AndIOp>(
        loc, cmp(arith::CmpIPredicate::ne, r, zero), differ);
    r = bld.create<arith::SelectOp>(loc, fix,
                                    bld.create<arith::AddIOp>(loc, r, y), r);
  }
  return n.setResult(r);
}

LogicalResult importSinCos(NodeContext &n) {
  Value x = n.in(0);
  if (failed(requireFloat(n, x)))
    return failure();
  return n.setResult(
      n.imp.unary(n.opType() == "Sin" ? "tosa.sin" : "tosa.cos", x));
}

/// Celu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1)).
LogicalResult importCelu(NodeContext &n) {
  Value x = n.in(0);
  if (failed(requireFloat(n, x)))
    return failure();
  double alpha = n.floatAttr("alpha", 1.0f);
  Value e =
      n.imp.unary("tosa.exp", n.imp.mul(x, n.imp.scalarLike(x, 1 / alpha)));
  Value negative =
      n.imp.mul(sub(n, e, n.imp.scalarLike(x, 1)), n.imp.scalarLike(x, alpha));
  return n.setResult(
      add(n, n.imp.clamp(x, 0, kNoBound), n.imp.clamp(negative, -kNoBound, 0)));
}

LogicalResult importThresholdedRelu(NodeContext &n) {
  Value x = n.in(0);
  if (failed(requireFloat(n, x)))
    return failure();
  return n.setResult(
      n.imp.activation("ThresholdedRelu", x, n.floatAttr("alpha", 1.0f)));
}

LogicalResult importShrink(NodeContext &n) {
  Value x = n.in(0);
  if (failed(requireFloat(n, x)))
    return failure();
  double lambd = n.floatAttr("lambd", 0.5f), bias = n.floatAttr("bias", 0.0f);
  Value below = compare<tosa::GreaterOp>(n, n.imp.scalarLike(x, -lambd), x);
  Value above = compare<tosa::GreaterOp>(n, x, n.imp.scalarLike(x, lambd));
  Value y = select(n, above, sub(n, x, n.imp.scalarLike(x, bias)),
                   n.imp.scalarLike(x, 0));
  return n.setResult(select(n, below, add(n, x, n.imp.scalarLike(x, bias)), y));
}

LogicalResult importCastLike(NodeContext &n) {
  FailureOr<RankedTensorType> t = n.out();
  if (failed(t))
    return failure();
  if (n.isFloat(n.in(0)) && !isa<FloatType>(t->getElementType()))
    return n.error() << "float to integer CastLike is not supported (use Cast)";
  return n.setResult(n.imp.castTo(n.in(0), t->getElementType()));
}

} // namespace

void mlir::nnapi::onnx_import::registerMathOps(OpRegistry &r) {
  constexpr int64_t lo = kMinONNXOpset, hi = kAnyOpset;
  r.add({
      {"", "Softsign", lo, hi, importSoftsign, "abs, add, reciprocal, mul",
       "ABS (3), ADD (1), DIV (2), MUL (1)", "non-float"},
      {"", "Sign", lo, hi, importSign, "greater, select", "GREATER, SELECT (3)",
       "-"},
      {"", "Round", lo, hi, importRound,
       "floor, sub, greater, equal, select (half to even)",
       "FLOOR (1), SUB (2), EQUAL, GREATER, SELECT (3)", "non-float"},
      {"", "IsNaN", lo, hi, importIsNaN, "equal(x, x), logical_not",
       "EQUAL, LOGICAL_NOT (3) (bool results: feature level 4)", "non-float"},
      {"", "IsInf", lo, hi, importIsInf, "equal with +-inf, logical_or",
       "EQUAL, LOGICAL_OR (3)", "non-float"},
      {"", "Mod", lo, hi, importMod,
       "float: a - b * trunc(a * reciprocal(b)) with a sign correction; "
       "integers (any width): arith.remsi on the host, divisors 0 and -1 "
       "giving 0",
       "float: DIV (2), MUL (1), SUB (2), FLOOR (1), ABS, NEG, GREATER, SELECT "
       "(3)",
       "integers"},
      {"", "Sin", lo, hi, importSinCos, "tosa.sin", "SIN (3)", "non-float"},
      {"", "Cos", lo, hi, importSinCos, "tosa.cos", "-", "always"},
      {"", "Celu", lo, hi, importCelu, "exp, mul, sub, clamp, add",
       "EXP (3), MUL (1), SUB (2), MAXIMUM, MINIMUM (3)", "non-float"},
      {"", "ThresholdedRelu", lo, hi, importThresholdedRelu, "greater, select",
       "GREATER, SELECT (3)", "non-float"},
      {"", "Shrink", lo, hi, importShrink, "greater, add, sub, select",
       "GREATER, SELECT (3), ADD (1), SUB (2)", "non-float"},
      {"", "CastLike", lo, hi, importCastLike, "tosa.cast", "CAST (3)",
       "float to integer is refused"},
  });
}
