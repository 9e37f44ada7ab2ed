//===- Reductions.cpp - Reduce*, ArgMax, ArgMin -----------------*- C++ -*-===//
//
// The Reduce* operators as a TOSA reduction per axis with the element map
// before (abs, square, exp) and after (sqrt, log, 1/N) that each needs, and
// ArgMax/ArgMin as tosa.argmax.
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"
#include "../OpRegistry.h"

#include <limits>

using namespace mlir;
using namespace mlir::nnapi::onnx_import;

namespace {

LogicalResult importReduce(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  OpBuilder &b = ctx.b;
  StringRef op = ctx.opType();
  Value x = ctx.in(0);
  int64_t rank = imp.typeOf(x).getRank();
  SmallVector<int64_t> axes;
  bool axesAsInput = op == "ReduceSum" || ctx.opset >= 18;
  if (axesAsInput && ctx.has(1)) {
    FailureOr<DenseElementsAttr> a = ctx.needConstant(1, "axes");
    if (failed(a))
      return failure();
    axes = intsOf(*a);
  } else if (!axesAsInput) {
    axes = ctx.intsAttr("axes").value_or(Shape());
  }
  // No axes with noop_with_empty_axes reduces over none: the element maps
  // below still apply (ReduceL1 of x is |x|, ReduceLogSum log x).
  if (axes.empty() && !ctx.intAttr("noop_with_empty_axes", 0))
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  for (int64_t &a : axes) {
    if (a < -rank || a >= rank)
      return ctx.error() << "axis " << a << " is out of range for rank "
                         << rank;
    a = normalizeAxis(a, rank);
  }
  StringRef kind = op == "ReduceMax"    ? "max"
                   : op == "ReduceMin"  ? "min"
                   : op == "ReduceProd" ? "prod"
                                        : "sum";
  if (imp.typeOf(x).getNumElements() == 0)
    return ctx.error() << "reducing an empty tensor is not supported";
  // Max, min, sum and prod of integers are exact on the host; the others
  // scale, square or take logarithms.
  if (op != "ReduceMax" && op != "ReduceMin" && op != "ReduceSum" &&
      op != "ReduceProd" && !ctx.isFloat(x))
    return ctx.error() << "integer inputs are not supported";
  // The sum-based reductions sum a function of x and may map the sum.
  Value shift; // ReduceLogSumExp: the maximum, so that exp cannot overflow
  if (op == "ReduceL1")
    x = imp.unary("tosa.abs", x);
  else if (op == "ReduceL2" || op == "ReduceSumSquare")
    x = imp.mul(x, x);
  else if (op == "ReduceLogSumExp") {
    // An infinite maximum would make x - max NaN: shift by 0 there (all
    // -inf sums to 0, log -inf; a +inf sums to +inf).
    Value max = imp.reduce("max", x, axes);
    Value inf = imp.scalarLike(max, std::numeric_limits<double>::infinity());
    Value infinite =
        b.create<tosa::EqualOp>(ctx.loc, imp.typeOf(max).clone(b.getI1Type()),
                                imp.unary("tosa.abs", max), inf);
    shift = b.create<tosa::SelectOp>(ctx.loc, max.getType(), infinite,
                                     imp.splat(imp.typeOf(max).getElementType(),
                                               imp.typeOf(max).getShape(), 0.0),
                                     max);
    x = imp.unary("tosa.exp", imp.binary<tosa::SubOp>(x, shift));
  }
  Value result =
      op == "ReduceMean" ? imp.mean(x, axes) : imp.reduce(kind, x, axes);
  if (op == "ReduceL2")
    result = b.create<tosa::PowOp>(ctx.loc, result.getType(), result,
                                   imp.scalarLike(result, 0.5));
  else if (op == "ReduceLogSum" || op == "ReduceLogSumExp")
    result = imp.unary("tosa.log", result);
  if (shift)
    result = imp.binary<tosa::AddOp>(result, shift);
  FailureOr<RankedTensorType> t = ctx.out();
  if (failed(t))
    return failure();
  return ctx.setResult(imp.reshape(result, t->getShape()));
}

/// ArgMax, ArgMin (the argmax of -x).
LogicalResult importArgMax(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  OpBuilder &b = ctx.b;
  Value x = ctx.in(0);
  if (!ctx.isFloat(x))
    return ctx.error() << "integer inputs are not supported";
  int64_t rank = imp.typeOf(x).getRank();
  int64_t axis = normalizeAxis(ctx.intAttr("axis", 0), rank);
  bool last = ctx.intAttr("select_last_index", 0);
  if (ctx.opType() == "ArgMin")
    x = imp.unary("tosa.negate", x);
  // TOSA picks the first of equal values: for the last one, search the
  // reversed axis and map the index back.
  if (last)
    x = b.create<tosa::ReverseOp>(ctx.loc, x.getType(), x,
                                  b.getI32IntegerAttr(axis));
  Shape shape(imp.typeOf(x).getShape());
  shape.erase(shape.begin() + axis);
  Value idx = b.create<tosa::ArgMaxOp>(
      ctx.loc, RankedTensorType::get(shape, b.getI32Type()), x,
      b.getI32IntegerAttr(axis));
  if (last)
    idx = imp.binary<tosa::SubOp>(
        imp.splat(b.getI32Type(), Shape(shape.size(), 1),
                  double(imp.typeOf(x).getDimSize(axis) - 1)),
        idx);
  FailureOr<RankedTensorType> t = ctx.out();
  if (failed(t))
    return failure();
  return ctx.setResult(
      imp.reshape(imp.castTo(idx, t->getElementType()), t->getShape()));
}

} // namespace

void mlir::nnapi::onnx_import::registerReductionOps(OpRegistry &registry) {
  constexpr int64_t lo = kMinONNXOpset, hi = kAnyOpset;
  constexpr llvm::StringLiteral refusesIntegers =
      "- (integer inputs are refused)";
  registry.add({
      {"", "ReduceL1", lo, hi, importReduce, "tosa.abs, tosa.reduce_sum",
       "ABS, REDUCE_SUM (3)", refusesIntegers},
      {"", "ReduceL2", lo, hi, importReduce,
       "tosa.mul (square), tosa.reduce_sum, tosa.pow 0.5",
       "MUL, REDUCE_SUM, SQRT (3)", refusesIntegers},
      {"", "ReduceLogSum", lo, hi, importReduce, "tosa.reduce_sum, tosa.log",
       "REDUCE_SUM, LOG (3)", refusesIntegers},
      {"", "ReduceLogSumExp", lo, hi, importReduce,
       "log(sum(exp(x - m))) + m, m the maximum (0 where it is infinite): no "
       "overflow, infinities kept",
       "REDUCE_MAX, ABS, EQUAL, SELECT, SUB, EXP, REDUCE_SUM, LOG, ADD (3)",
       refusesIntegers},
      {"", "ReduceMax", lo, hi, importReduce,
       "tosa.reduce_max per axis + reshape", "REDUCE_MAX (3)", "non-float"},
      {"", "ReduceMean", lo, hi, importReduce,
       "tosa.reduce_sum per axis + mul by 1/N (the mean composite)", "MEAN (2)",
       refusesIntegers},
      {"", "ReduceMin", lo, hi, importReduce, "tosa.reduce_min",
       "REDUCE_MIN (3)", "non-float"},
      {"", "ReduceProd", lo, hi, importReduce, "tosa.reduce_prod",
       "REDUCE_PROD (3)", "non-float"},
      {"", "ReduceSum", lo, hi, importReduce, "tosa.reduce_sum",
       "REDUCE_SUM (3)", "non-float"},
      {"", "ReduceSumSquare", lo, hi, importReduce,
       "tosa.mul (square), tosa.reduce_sum", "MUL, REDUCE_SUM (3)",
       refusesIntegers},
      {"", "ArgMax", lo, hi, importArgMax,
       "tosa.argmax (+ reverse for select_last_index)",
       "ARGMAX (3); REVERSE (7) for select_last_index",
       "the int64 cast of the result (host)"},
      {"", "ArgMin", lo, hi, importArgMax, "tosa.negate + tosa.argmax",
       "ARGMIN (3), the argmin composite",
       "the int64 cast of the result (host)"},
  });
}
