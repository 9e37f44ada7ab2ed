//===- Constants.cpp - Compile-time values ----------------------*- C++ -*-===//
//
// Constant, Shape and ConstantOfShape define compile-time values; the
// shape arithmetic that consumes them (integer Gather, Concat, Add, Sub,
// Mul, Div, Ceil, Floor, Relu, Abs and the reshapes) and the comparisons
// and logic of conditions (Equal, Greater, Less, ..., And, Or, Xor, Not)
// are folded on the host by foldAtCompileTime, which those operators'
// handlers call first. Slice and Split slice constants
// of any type and rank themselves (ops/DataMovement.cpp), with the
// normalization of their run-time form.
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"
#include "../OpRegistry.h"

#include <cmath>

using namespace mlir;
using namespace mlir::nnapi::onnx_import;

namespace {

LogicalResult importConstant(NodeContext &ctx) {
  OpBuilder &b = ctx.b;
  if (const auto *a = ctx.attr("value")) {
    FailureOr<DenseElementsAttr> attr = ctx.imp.tensorAttr(a->t());
    if (failed(attr))
      return failure();
    return ctx.defineConstant(0, *attr);
  }
  if (const auto *a = ctx.attr("value_float"))
    return ctx.defineConstant(
        0, DenseElementsAttr::get(RankedTensorType::get({}, b.getF32Type()),
                                  a->f()));
  if (const auto *a = ctx.attr("value_int"))
    return ctx.defineConstant(
        0, DenseElementsAttr::get(RankedTensorType::get({}, b.getI64Type()),
                                  int64_t(a->i())));
  if (const auto *a = ctx.attr("value_floats")) {
    SmallVector<float> v(a->floats().begin(), a->floats().end());
    return ctx.defineConstant(
        0, DenseElementsAttr::get(
               RankedTensorType::get({int64_t(v.size())}, b.getF32Type()),
               ArrayRef<float>(v)));
  }
  if (const auto *a = ctx.attr("value_ints")) {
    SmallVector<int64_t> v(a->ints().begin(), a->ints().end());
    return ctx.defineConstant(
        0, DenseElementsAttr::get(
               RankedTensorType::get({int64_t(v.size())}, b.getI64Type()),
               ArrayRef<int64_t>(v)));
  }
  return ctx.error()
         << "only value, value_float(s) and value_int(s) are supported";
}

LogicalResult importShape(NodeContext &ctx) {
  DenseElementsAttr c = ctx.cst(0);
  Shape dims(c ? cast<RankedTensorType>(c.getType()).getShape()
               : ctx.imp.typeOf(ctx.in(0)).getShape());
  int64_t rank = dims.size();
  int64_t start = normalizeAxis(ctx.intAttr("start", 0), rank);
  int64_t end = normalizeAxis(ctx.intAttr("end", rank), rank);
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, start, rank);
  Shape slice(dims.begin() + start, dims.begin() + end);
  return ctx.defineConstant(
      0, DenseElementsAttr::get(
             RankedTensorType::get({int64_t(slice.size())}, ctx.b.getI64Type()),
             ArrayRef<int64_t>(slice)));
}

LogicalResult importConstantOfShape(NodeContext &ctx) {
  FailureOr<DenseElementsAttr> shapeAttr = ctx.needConstant(0, "the shape");
  if (failed(shapeAttr))
    return failure();
  FailureOr<RankedTensorType> t = ctx.out();
  if (failed(t))
    return failure();
  Attribute value =
      isa<FloatType>(t->getElementType())
          ? Attribute(ctx.b.getFloatAttr(t->getElementType(), 0))
          : Attribute(ctx.b.getIntegerAttr(t->getElementType(), 0));
  if (const auto *a = ctx.attr("value")) {
    FailureOr<DenseElementsAttr> v = ctx.imp.tensorAttr(a->t());
    if (failed(v))
      return failure();
    value = *v->getValues<Attribute>().begin();
  }
  return ctx.defineConstant(0, DenseElementsAttr::get(*t, value));
}

} // namespace

std::optional<LogicalResult>
mlir::nnapi::onnx_import::foldAtCompileTime(NodeContext &ctx) {
  StringRef op = ctx.opType();
  const onnx::NodeProto &node = ctx.node;
  bool comparison = op == "Equal" || op == "Greater" || op == "Less" ||
                    op == "GreaterOrEqual" || op == "LessOrEqual";
  bool logic = op == "And" || op == "Or" || op == "Xor" || op == "Not";
  // One-operand functions of counts (Range's expansion: ceil(relu(...))).
  bool rounding = op == "Ceil" || op == "Floor" || op == "Relu" || op == "Abs";
  if (!(op == "Gather" || op == "Concat" || op == "Unsqueeze" ||
        op == "Squeeze" || op == "Reshape" || op == "Identity" ||
        op == "Cast" || op == "Mul" || op == "Add" || op == "Sub" ||
        op == "Div" || op == "Neg" || comparison || logic || rounding) ||
      node.input_size() == 0 ||
      !llvm::all_of(llvm::seq(0, node.input_size()),
                    [&](int i) { return !ctx.has(i) || ctx.cst(i); }))
    return std::nullopt;
  // A Concat of integer vectors has its type without ONNX's inference,
  // which (libonnx 1.12) rejects an empty vector among the inputs (the
  // expanded LayerNormalization of axis = -rank builds such a shape).
  auto concatType = [&]() -> std::optional<RankedTensorType> {
    if (op != "Concat")
      return std::nullopt;
    Type element;
    int64_t length = 0;
    for (int i = 0; i < node.input_size(); ++i) {
      if (!ctx.has(i))
        continue;
      auto it = cast<RankedTensorType>(ctx.cst(i).getType());
      if (it.getRank() != 1 || !isa<IntegerType>(it.getElementType()) ||
          (element && element != it.getElementType()))
        return std::nullopt;
      element = it.getElementType();
      length += it.getDimSize(0);
    }
    if (!element)
      return std::nullopt;
    return RankedTensorType::get({length}, element);
  };
  std::optional<RankedTensorType> known = concatType();
  FailureOr<RankedTensorType> t = known ? FailureOr(*known) : ctx.out();
  if (failed(t))
    return failure();
  DenseElementsAttr x = ctx.cst(0);
  if (isa<IntegerType>(t->getElementType()) && t->getNumElements() <= 4096) {
    SmallVector<int64_t> v;
    bool foldable = true;
    if (op == "Gather") {
      SmallVector<int64_t> data = intsOf(x), idx = intsOf(ctx.cst(1));
      auto xt = cast<RankedTensorType>(x.getType());
      int64_t axis = normalizeAxis(ctx.intAttr("axis", 0), xt.getRank());
      int64_t outer = product(xt.getShape().take_front(axis));
      int64_t k = xt.getDimSize(axis);
      int64_t inner = product(xt.getShape().drop_front(axis + 1));
      for (int64_t i : idx)
        if (i < -k || i >= k)
          return ctx.error() << "index " << i << " is out of range for "
                             << "a dimension of size " << k;
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t i : idx)
          for (int64_t j = 0; j < inner; ++j)
            v.push_back(data[(o * k + (i < 0 ? i + k : i)) * inner + j]);
    } else if (op == "Concat") {
      for (int i = 0; i < node.input_size(); ++i)
        llvm::append_range(v, intsOf(ctx.cst(i)));
    } else if (op == "Cast" && (x.getElementType().isInteger(1) ||
                                t->getElementType().isInteger(1))) {
      // Booleans are 0 and 1 (not the sign-extended -1), and a value
      // becomes true when it is not 0.
      bool toBool = t->getElementType().isInteger(1);
      if (isa<FloatType>(x.getElementType()))
        for (double d : floatsOf(x))
          v.push_back(d != 0);
      else
        for (APInt e : x.getValues<APInt>())
          v.push_back(toBool ? !e.isZero() : int64_t(e.getZExtValue()));
    } else if (op == "Cast" && isa<FloatType>(x.getElementType())) {
      // Toward zero, as the importer's Cast; NaN and values outside the
      // result type (which the run-time cast saturates) are left to it.
      unsigned bits = t->getElementTypeBitWidth();
      double limit = std::ldexp(1.0, int(bits) - 1);
      for (double d : floatsOf(x)) {
        double whole = std::trunc(d);
        if (!(whole >= -limit && whole < limit)) {
          foldable = false;
          break;
        }
        v.push_back(int64_t(whole));
      }
    } else if (op == "Mul" || op == "Add" || op == "Sub" || op == "Div") {
      SmallVector<int64_t> a = intsOf(x), b = intsOf(ctx.cst(1));
      // Same-size or one-element operands only (other broadcasts run);
      // an empty operand is left alone.
      size_t n = size_t(t->getNumElements());
      auto fits = [&](size_t size) { return size == n || size == 1; };
      foldable = n && fits(a.size()) && fits(b.size());
      for (size_t i = 0; foldable && i < n; ++i) {
        int64_t p = a[a.size() == 1 ? 0 : i], q = b[b.size() == 1 ? 0 : i];
        if (op == "Div" && q == 0)
          return ctx.error() << "integer division by zero";
        // Two's complement wrap-around, as the run-time ops (and no
        // undefined behaviour here): INT64_MIN / -1 wraps to INT64_MIN.
        uint64_t up = uint64_t(p), uq = uint64_t(q);
        v.push_back(op == "Mul"   ? int64_t(up * uq)
                    : op == "Add" ? int64_t(up + uq)
                    : op == "Sub" ? int64_t(up - uq)
                    : q == -1     ? int64_t(0 - up)
                                  : p / q);
      }
    } else if (comparison || logic) {
      // Conditions (an If's, from shapes or a specialized input): booleans
      // are 0 and 1. Same-size or one-element operands only.
      size_t n = size_t(t->getNumElements());
      auto fits = [&](size_t size) { return size == n || size == 1; };
      auto values = [&](DenseElementsAttr a) {
        if (isa<FloatType>(a.getElementType()))
          return floatsOf(a);
        SmallVector<double> out;
        for (int64_t e : intsOf(a))
          out.push_back(a.getElementType().isInteger(1) ? e != 0 : double(e));
        return out;
      };
      SmallVector<double> a = values(x),
                          b = op == "Not" ? a : values(ctx.cst(1));
      // (Doubles hold the small integers of shapes and rates exactly.)
      foldable = n && fits(a.size()) && fits(b.size());
      for (size_t i = 0; foldable && i < n; ++i) {
        double p = a[a.size() == 1 ? 0 : i], q = b[b.size() == 1 ? 0 : i];
        bool r = op == "Equal"            ? p == q
                 : op == "Greater"        ? p > q
                 : op == "Less"           ? p < q
                 : op == "GreaterOrEqual" ? p >= q
                 : op == "LessOrEqual"    ? p <= q
                 : op == "And"            ? p != 0 && q != 0
                 : op == "Or"             ? p != 0 || q != 0
                 : op == "Xor"            ? (p != 0) != (q != 0)
                                          : p == 0; // Not
        v.push_back(r);
      }
    } else if (rounding) {
      for (int64_t e : intsOf(x))
        v.push_back(op == "Relu"  ? std::max<int64_t>(e, 0)
                    : op == "Abs" ? int64_t(e < 0 ? 0 - uint64_t(e) : e)
                                  : e);
    } else if (op == "Neg") {
      for (int64_t e : intsOf(x))
        v.push_back(int64_t(0 - uint64_t(e)));
    } else {
      v = intsOf(x); // Unsqueeze, Squeeze, Reshape, Identity, Cast
    }
    if (foldable && int64_t(v.size()) == t->getNumElements()) {
      SmallVector<APInt> ints;
      unsigned bits = t->getElementTypeBitWidth();
      for (int64_t e : v)
        ints.push_back(APInt(bits, uint64_t(e), true));
      return ctx.defineConstant(0, DenseElementsAttr::get(*t, ints));
    }
  } else if (auto ft = dyn_cast<FloatType>(t->getElementType());
             ft && t->getNumElements() <= 4096 &&
             (op == "Cast" || op == "Mul" || op == "Add" || op == "Sub" ||
              op == "Div" || op == "Neg" || rounding)) {
    // Small float computations (a window's size as a float, Range's
    // bounds): in double, rounded once to the result type, which for
    // these operations equals computing in that type.
    SmallVector<double> a = floatsOf(x), v;
    if (x.getElementType().isInteger(1))
      for (auto [d, e] : llvm::zip(a, x.getValues<APInt>()))
        d = double(e.getZExtValue());
    if (op == "Cast" || op == "Neg" || rounding) {
      for (double d : a)
        v.push_back(op == "Neg"     ? -d
                    : op == "Ceil"  ? std::ceil(d)
                    : op == "Floor" ? std::floor(d)
                    : op == "Relu"  ? std::max(d, 0.0)
                    : op == "Abs"   ? std::fabs(d)
                                    : d);
    } else {
      SmallVector<double> b = floatsOf(ctx.cst(1));
      size_t n = size_t(t->getNumElements());
      auto fits = [&](size_t size) { return size == n || size == 1; };
      if (!n || !fits(a.size()) || !fits(b.size()))
        return std::nullopt;
      for (size_t i = 0; i < n; ++i) {
        double p = a[a.size() == 1 ? 0 : i], q = b[b.size() == 1 ? 0 : i];
        v.push_back(op == "Mul"   ? p * q
                    : op == "Add" ? p + q
                    : op == "Sub" ? p - q
                                  : p / q);
      }
    }
    if (int64_t(v.size()) != t->getNumElements())
      return std::nullopt;
    return ctx.defineConstant(0, denseOf(*t, v));
  } else if (op == "Identity" || op == "Reshape" || op == "Unsqueeze" ||
             op == "Squeeze") {
    if (x.getElementType() == t->getElementType())
      return ctx.defineConstant(0, x.reshape(*t));
  }
  return std::nullopt; // computed at run time
}

void mlir::nnapi::onnx_import::registerConstantOps(OpRegistry &registry) {
  constexpr int64_t lo = kMinONNXOpset, hi = kAnyOpset;
  registry.add({
      {"", "Constant", lo, hi, importConstant, "compile-time constant", "-",
       "n/a"},
      {"", "ConstantOfShape", lo, hi, importConstantOfShape,
       "compile-time constant", "-", "n/a"},
      {"", "Shape", lo, hi, importShape, "compile-time constant", "-", "n/a"},
  });
}
