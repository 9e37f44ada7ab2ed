//===- Elementwise.cpp - Arithmetic, comparison, logic, Cast ----*- C++ -*-===//
//
// Operators applied element by element with numpy broadcasting: the
// variadic arithmetic, comparisons and logic, Where, Cast and the
// one-operand math functions (Sigmoid and Tanh among them).
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"
#include "../OpRegistry.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::nnapi::onnx_import;

namespace {

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

/// in(0) op in(1) op ... for Add, Sub, Mul, Div, Pow, Max, Min, Sum and
/// Mean; null after an error.
Value arithmetic(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  StringRef op = ctx.opType();
  Value acc = ctx.in(0);
  for (int i = 1; i < ctx.node.input_size(); ++i) {
    Value b = ctx.in(i);
    if (imp.typeOf(b).getElementType() != imp.typeOf(acc).getElementType()) {
      if (op != "Pow") {
        ctx.error() << "mixed element types are not supported";
        return {};
      }
      if (ctx.isFloat(acc))
        b = imp.castTo(b, imp.typeOf(acc).getElementType());
    }
    if (op == "Add" || op == "Sum" || op == "Mean")
      acc = imp.binary<tosa::AddOp>(acc, b);
    else if (op == "Sub")
      acc = imp.binary<tosa::SubOp>(acc, b);
    else if (op == "Mul")
      acc = imp.mul(acc, b);
    else if (op == "Div") {
      if (ctx.isFloat(acc)) {
        acc = imp.mul(acc, imp.unary("tosa.reciprocal", b));
      } else {
        Type e = imp.typeOf(acc).getElementType();
        if (e.getIntOrFloatBitWidth() > 32) {
          ctx.error() << "integer division of " << e << " is not supported";
          return {};
        }
        acc = imp.castTo(
            imp.binary<tosa::IntDivOp>(imp.castTo(acc, ctx.b.getI32Type()),
                                       imp.castTo(b, ctx.b.getI32Type())),
            e);
      }
    } else if (op == "Pow") {
      if (ctx.isFloat(acc)) {
        acc = imp.binary<tosa::PowOp>(acc, b);
      } else {
        // Integer powers through float64, rounded back (exact while the
        // result fits float64's 53-bit mantissa).
        Type e = imp.typeOf(acc).getElementType();
        acc = imp.castTo(
            imp.binary<tosa::PowOp>(imp.castTo(acc, ctx.b.getF64Type()),
                                    imp.castTo(b, ctx.b.getF64Type())),
            e);
      }
    } else if (op == "Max")
      acc = imp.binary<tosa::MaximumOp>(acc, b);
    else
      acc = imp.binary<tosa::MinimumOp>(acc, b);
  }
  if (op == "Mean")
    acc = imp.mul(acc, imp.scalarLike(acc, 1.0 / ctx.node.input_size()));
  return acc;
}

/// Add, Sub, Mul, Div: integer shape arithmetic folds on the host.
LogicalResult importAddSubMulDiv(NodeContext &ctx) {
  if (std::optional<LogicalResult> folded = foldAtCompileTime(ctx))
    return *folded;
  Value result = arithmetic(ctx);
  return result ? ctx.setResult(result) : failure();
}

LogicalResult importPow(NodeContext &ctx) {
  Value result = arithmetic(ctx);
  return result ? ctx.setResult(result) : failure();
}

/// Max, Min, Sum, Mean: one input is forwarded.
LogicalResult importVariadic(NodeContext &ctx) {
  if (ctx.node.input_size() == 1) {
    if (DenseElementsAttr c = ctx.cst(0))
      return ctx.defineConstant(0, c);
    return ctx.setResult(ctx.in(0));
  }
  Value result = arithmetic(ctx);
  return result ? ctx.setResult(result) : failure();
}

//===----------------------------------------------------------------------===//
// Comparison, logic, selection
//===----------------------------------------------------------------------===//

/// Equal, Greater, Less, GreaterOrEqual, LessOrEqual, And, Or, Xor: `OpTy`
/// with an i1 result, operands swapped for Less and LessOrEqual.
template <typename OpTy, bool swap>
LogicalResult importComparison(NodeContext &ctx) {
  if (std::optional<LogicalResult> folded = foldAtCompileTime(ctx))
    return *folded;
  return ctx.setResult(swap ? compare<OpTy>(ctx, ctx.in(1), ctx.in(0))
                            : compare<OpTy>(ctx, ctx.in(0), ctx.in(1)));
}

LogicalResult importWhere(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  Value c = ctx.in(0), a = ctx.in(1), b = ctx.in(2);
  int64_t rank = std::max({imp.typeOf(c).getRank(), imp.typeOf(a).getRank(),
                           imp.typeOf(b).getRank()});
  c = imp.toRank(c, rank);
  a = imp.toRank(a, rank);
  b = imp.toRank(b, rank);
  FailureOr<RankedTensorType> t = ctx.out();
  if (failed(t))
    return failure();
  return ctx.setResult(ctx.b.create<tosa::SelectOp>(ctx.loc, *t, c, a, b));
}

LogicalResult importCast(NodeContext &ctx) {
  if (std::optional<LogicalResult> folded = foldAtCompileTime(ctx))
    return *folded;
  Importer &imp = ctx.imp;
  FailureOr<RankedTensorType> t = ctx.out();
  if (failed(t))
    return failure();
  Value x = ctx.in(0);
  Type to = t->getElementType();
  if (ctx.isFloat(x) && isa<IntegerType>(to) && !to.isInteger(1)) {
    // ONNX truncates towards zero; TOSA's cast rounds to nearest.
    Value isNeg = compare<tosa::GreaterOp>(ctx, imp.scalarLike(x, 0), x);
    x = select(ctx, isNeg, imp.unary("tosa.ceil", x),
               imp.unary("tosa.floor", x));
  }
  return ctx.setResult(imp.castTo(x, to));
}

//===----------------------------------------------------------------------===//
// One-operand functions
//===----------------------------------------------------------------------===//

/// The TOSA op of each one-operand operator.
StringRef unaryOpOf(StringRef op) {
  return llvm::StringSwitch<StringRef>(op)
      .Case("Abs", "tosa.abs")
      .Case("Ceil", "tosa.ceil")
      .Case("Erf", "tosa.erf")
      .Case("Exp", "tosa.exp")
      .Case("Floor", "tosa.floor")
      .Case("Log", "tosa.log")
      .Case("Neg", "tosa.negate")
      .Case("Reciprocal", "tosa.reciprocal")
      .Case("Sigmoid", "tosa.sigmoid")
      .Case("Tanh", "tosa.tanh")
      .Case("Not", "tosa.logical_not");
}

LogicalResult importUnary(NodeContext &ctx) {
  if (std::optional<LogicalResult> folded = foldAtCompileTime(ctx))
    return *folded;
  StringRef op = ctx.opType();
  Value x = ctx.in(0);
  if (!ctx.isFloat(x) && op != "Not" && op != "Abs" && op != "Neg")
    return ctx.error() << "integer inputs are not supported";
  return ctx.setResult(ctx.imp.unary(unaryOpOf(op), x));
}

LogicalResult importSqrt(NodeContext &ctx) {
  Value x = ctx.in(0);
  return ctx.setResult(
      ctx.imp.unary("tosa.reciprocal", ctx.imp.unary("tosa.rsqrt", x)));
}

} // namespace

void mlir::nnapi::onnx_import::registerElementwiseOps(OpRegistry &registry) {
  constexpr int64_t lo = kMinONNXOpset, hi = kAnyOpset;
  registry.add({
      // Arithmetic.
      {"", "Add", lo, hi, importAddSubMulDiv, "tosa.add", "ADD (1)",
       "non-float, rank > 4"},
      {"", "Sub", lo, hi, importAddSubMulDiv, "tosa.sub", "SUB (2)", ""},
      {"", "Mul", lo, hi, importAddSubMulDiv, "tosa.mul", "MUL (1)", "integer"},
      {"", "Div", lo, hi, importAddSubMulDiv,
       "tosa.mul by tosa.reciprocal (float), tosa.int_div (int)",
       "MUL + DIV (2)", "integer"},
      {"", "Pow", lo, hi, importPow, "tosa.pow (integers through float32)",
       "POW (3); SQRT (3) for a constant exponent 0.5", "non-float"},
      {"", "Max", lo, hi, importVariadic, "tosa.maximum", "MAXIMUM (3)",
       "non-float, rank 0"},
      {"", "Min", lo, hi, importVariadic, "tosa.minimum", "MINIMUM (3)",
       "non-float, rank 0"},
      {"", "Sum", lo, hi, importVariadic, "tosa.add chain", "ADD (1)", ""},
      {"", "Mean", lo, hi, importVariadic, "add + mul by 1/n", "ADD, MUL (1)",
       ""},
      // Comparison, logic, selection, conversion.
      {"", "Equal", lo, hi, importComparison<tosa::EqualOp, false>,
       "tosa.equal", "EQUAL (3); NOT_EQUAL (3) under a Not",
       "integer operands"},
      {"", "Greater", lo, hi, importComparison<tosa::GreaterOp, false>,
       "tosa.greater", "GREATER (3)", "integer operands"},
      {"", "Less", lo, hi, importComparison<tosa::GreaterOp, true>,
       "tosa.greater (swapped)", "GREATER (3)", "integer operands"},
      {"", "And", lo, hi, importComparison<tosa::LogicalAndOp, false>,
       "tosa.logical_and", "LOGICAL_AND (3)", "-"},
      {"", "Or", lo, hi, importComparison<tosa::LogicalOrOp, false>,
       "tosa.logical_or", "LOGICAL_OR (3)", "-"},
      {"", "GreaterOrEqual", lo, hi,
       importComparison<tosa::GreaterEqualOp, false>, "tosa.greater_equal",
       "GREATER_EQUAL (3)", "-"},
      {"", "LessOrEqual", lo, hi, importComparison<tosa::GreaterEqualOp, true>,
       "tosa.greater_equal (operands swapped)", "GREATER_EQUAL (3)", "-"},
      {"", "Xor", lo, hi, importComparison<tosa::LogicalXorOp, false>,
       "tosa.logical_xor", "-", "always"},
      {"", "Not", lo, hi, importUnary, "tosa.logical_not",
       "LOGICAL_NOT (3); with an Equal, NOT_EQUAL (3)", "-"},
      {"", "Where", lo, hi, importWhere, "tosa.select", "SELECT (3)",
       "broadcasting operands (SELECT does not broadcast); integer choices"},
      {"", "Cast", lo, hi, importCast,
       "tosa.cast (float->int truncates toward zero)",
       "CAST (3; bool operands 4) between float32, float16, int32 and bool",
       "float to int (NNAPI's rounding is unspecified), int64 or other "
       "types"},
      // One-operand functions.
      {"", "Abs", lo, hi, importUnary, "tosa.abs", "ABS (3)", "non-float"},
      {"", "Ceil", lo, hi, importUnary, "tosa.ceil", "-", "always"},
      {"", "Erf", lo, hi, importUnary, "tosa.erf",
       "x P(x^2) / Q(x^2) of MAXIMUM, MINIMUM, MUL, ADD, DIV (3; abs. error "
       "< 4.1e-7)",
       "non-float"},
      {"", "Exp", lo, hi, importUnary, "tosa.exp", "EXP (3)", "non-float"},
      {"", "Floor", lo, hi, importUnary, "tosa.floor", "FLOOR (1)",
       "non-float"},
      {"", "Log", lo, hi, importUnary, "tosa.log", "LOG (3)", "non-float"},
      {"", "Neg", lo, hi, importUnary, "tosa.negate", "NEG (3)", "non-float"},
      {"", "Reciprocal", lo, hi, importUnary, "tosa.reciprocal", "DIV (2)", ""},
      {"", "Sigmoid", lo, hi, importUnary, "tosa.sigmoid", "LOGISTIC (1)", ""},
      {"", "Tanh", lo, hi, importUnary, "tosa.tanh", "TANH (1)", ""},
      {"", "Sqrt", lo, hi, importSqrt, "tosa.rsqrt + tosa.reciprocal",
       "RSQRT + DIV (3)", "non-float"},
  });
}
