//===- Normalization.cpp - Softmax and the normalizations -------*- C++ -*-===//
//
// Softmax, LogSoftmax, BatchNormalization, LpNormalization,
// LayerNormalization, InstanceNormalization and LRN, composed of
// reductions and element-wise ops in the shapes TosaToNNAPI's composites
// recognize.
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"
#include "../OpRegistry.h"

#include <cmath>

using namespace mlir;
using namespace mlir::nnapi::onnx_import;

namespace {

/// Softmax, LogSoftmax: shifted by the maximum.
LogicalResult importSoftmax(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  Value x = ctx.in(0);
  int64_t rank = imp.typeOf(x).getRank();
  int64_t axis = normalizeAxis(ctx.intAttr("axis", -1), rank);
  return ctx.setResult(
      imp.softmax(x, axis, /*log=*/ctx.opType() == "LogSoftmax"));
}

/// The statistics both normalizations compute: x's mean and (biased)
/// variance over `axes` (kept as 1), x - mean, and 1 / sqrt(var + eps).
struct Moments {
  Value mean, var, centered, invStd;
};
Moments moments(Importer &imp, Value x, ArrayRef<int64_t> axes, double eps) {
  int64_t count = 1;
  for (int64_t a : axes)
    count *= imp.typeOf(x).getDimSize(a);
  auto mean = [&](Value v) {
    return imp.mul(imp.reduce("sum", v, axes),
                   imp.scalarLike(v, 1.0 / double(count)));
  };
  Moments m;
  m.mean = mean(x);
  m.centered = imp.binary<tosa::SubOp>(x, m.mean);
  m.var = mean(imp.mul(m.centered, m.centered));
  m.invStd = imp.unary("tosa.rsqrt",
                       imp.binary<tosa::AddOp>(m.var, imp.scalarLike(x, eps)));
  return m;
}

/// Training mode: normalizes with the batch's own mean and (biased)
/// variance over every axis but the channels, and blends them into the
/// running statistics: running = input * momentum + batch * (1 - momentum).
/// Deterministic, unlike training-mode Dropout.
LogicalResult importBatchNormTraining(NodeContext &ctx, Value x,
                                      const Shape &paramShape, double eps) {
  Importer &imp = ctx.imp;
  int64_t rank = imp.typeOf(x).getRank();
  SmallVector<int64_t> axes;
  for (int64_t d = 0; d < rank; ++d)
    if (d != 1)
      axes.push_back(d);
  Moments m = moments(imp, x, axes, eps);
  Value batchMean = m.mean, batchVar = m.var, centered = m.centered,
        inv = m.invStd;
  auto p = [&](int i) { return imp.reshape(ctx.in(i), paramShape); };
  if (failed(ctx.setResult(imp.binary<tosa::AddOp>(
          imp.mul(imp.mul(centered, inv), p(1)), p(2)))))
    return failure();
  double momentum = ctx.floatAttr("momentum", 0.9f);
  for (int i = 1; i < ctx.node.output_size(); ++i) {
    if (ctx.node.output(i).empty())
      continue;
    Value running =
        imp.binary<tosa::AddOp>(imp.mul(p(i + 2), imp.scalarLike(x, momentum)),
                                imp.mul(i == 1 ? batchMean : batchVar,
                                        imp.scalarLike(x, 1.0 - momentum)));
    if (failed(ctx.define(i, running)))
      return failure();
  }
  return success();
}

LogicalResult importBatchNormalization(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  Value x = ctx.in(0); // ONNX's type constraints make it a float
  int64_t rank = imp.typeOf(x).getRank();
  if (rank < 2)
    return ctx.error() << "the input needs a channel dimension (rank >= 2)";
  int64_t c = imp.typeOf(x).getDimSize(1);
  double eps = ctx.floatAttr("epsilon", 1e-5f);
  Shape paramShape(rank, 1);
  paramShape[1] = c;
  // ONNX's inference does not hold initializers to [C].
  for (int i = 1; i < 5; ++i)
    if (imp.typeOf(ctx.in(i)).getNumElements() != c)
      return ctx.error() << "scale, B, mean and var must have " << c
                         << " elements (one per channel); input " << i
                         << " has " << imp.typeOf(ctx.in(i)).getNumElements();
  if (ctx.intAttr("training_mode", 0)) {
    for (int i = 1; i < 5; ++i)
      if (imp.typeOf(ctx.in(i)).getElementType() !=
          imp.typeOf(x).getElementType())
        return ctx.error() << "training mode with statistics of another "
                              "type than the input is not supported";
    return importBatchNormTraining(ctx, x, paramShape, eps);
  }
  if (ctx.node.output_size() > 1)
    return ctx.error() << "the running mean/var outputs are supported in "
                          "training mode only (training_mode=1, opset 14 and "
                          "later)";
  if (ctx.cst(1) && ctx.cst(2) && ctx.cst(3) && ctx.cst(4)) {
    // Fold into one multiply and one add.
    SmallVector<double> scale = floatsOf(ctx.cst(1)),
                        bias = floatsOf(ctx.cst(2)),
                        mean = floatsOf(ctx.cst(3)), var = floatsOf(ctx.cst(4));
    SmallVector<double> a, b;
    for (int64_t i = 0; i < c; ++i) {
      double k = scale[i] / std::sqrt(var[i] + eps);
      a.push_back(k);
      b.push_back(bias[i] - mean[i] * k);
    }
    auto t = RankedTensorType::get(paramShape,
                                   imp.typeOf(x).getElementType());
    return ctx.setResult(imp.binary<tosa::AddOp>(
        imp.mul(x, imp.constant(denseOf(t, a))), imp.constant(denseOf(t, b))));
  }
  auto p = [&](int i) { return imp.reshape(ctx.in(i), paramShape); };
  Value inv = imp.unary("tosa.rsqrt",
                        imp.binary<tosa::AddOp>(p(4), imp.scalarLike(x, eps)));
  return ctx.setResult(imp.binary<tosa::AddOp>(
      imp.mul(imp.mul(imp.binary<tosa::SubOp>(x, p(3)), inv), p(1)), p(2)));
}

/// x / ||x||_p along one axis, zeros for a vector of zeros (as ONNX Runtime
/// computes it; NaN stays NaN): x * select(s == 0, 0, g(s)), s the sum of
/// squares and g rsqrt for p = 2 (the l2_normalization composite: NNAPI's
/// L2_NORMALIZATION), s the sum of |x| and g the reciprocal for p = 1.
LogicalResult importLpNormalization(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  OpBuilder &b = ctx.b;
  Value x = ctx.in(0);
  if (!ctx.isFloat(x))
    return ctx.error() << "integer inputs are not supported";
  int64_t rank = imp.typeOf(x).getRank(), p = ctx.intAttr("p", 2);
  int64_t axis = ctx.intAttr("axis", -1);
  if (axis < -rank || axis >= rank)
    return ctx.error() << "axis " << axis << " is out of range for rank "
                       << rank;
  if (p != 1 && p != 2)
    return ctx.error() << "p must be 1 or 2, got " << p;
  axis = normalizeAxis(axis, rank);
  Value s = imp.reduce("sum", p == 2 ? imp.mul(x, x) : imp.unary("tosa.abs", x),
                       {axis});
  // Zeros of the sum's shape: NNAPI's SELECT does not broadcast.
  Value zero =
      imp.splat(imp.typeOf(s).getElementType(), imp.typeOf(s).getShape(), 0.0);
  Value isZero = b.create<tosa::EqualOp>(
      ctx.loc, imp.typeOf(s).clone(b.getI1Type()), s, zero);
  Value inverse = imp.unary(p == 2 ? "tosa.rsqrt" : "tosa.reciprocal", s);
  Value scale =
      b.create<tosa::SelectOp>(ctx.loc, s.getType(), isZero, zero, inverse);
  return ctx.setResult(imp.mul(x, scale));
}

/// Normalizes over the dimensions from `axis` on: the mean and variance are
/// mean composites (sums scaled by 1/N), so NNAPI runs it as MEAN, SUB, MUL,
/// ADD and RSQRT.
LogicalResult importLayerNormalization(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  Value x = ctx.in(0);
  if (!ctx.isFloat(x))
    return ctx.error() << "integer inputs are not supported";
  // The statistics in float64 when asked (stash_type 11): x is cast up and
  // the normalized value back, as ONNX's definition does. (float32, the
  // default, is computed in the input's type, float16 included.)
  int64_t stash = ctx.intAttr("stash_type", 1);
  if (stash != onnx::TensorProto::FLOAT && stash != onnx::TensorProto::DOUBLE)
    return ctx.error() << "stash_type " << stash
                       << " is not supported (1: float32, 11: float64)";
  Type element = imp.typeOf(x).getElementType();
  if (stash == onnx::TensorProto::DOUBLE)
    x = imp.castTo(x, ctx.b.getF64Type());
  int64_t rank = imp.typeOf(x).getRank();
  int64_t axis = ctx.intAttr("axis", -1);
  if (axis < -rank || axis >= rank)
    return ctx.error() << "axis " << axis << " is out of range for rank "
                       << rank;
  axis = normalizeAxis(axis, rank);
  SmallVector<int64_t> axes;
  for (int64_t i = axis; i < rank; ++i)
    axes.push_back(i);
  double eps = ctx.floatAttr("epsilon", 1e-5f);
  Moments m = moments(imp, x, axes, eps);
  Value mu = m.mean, centered = m.centered, inv = m.invStd;
  Value result = imp.mul(imp.castTo(imp.mul(centered, inv), element),
                         imp.toRank(ctx.in(1), rank));
  if (ctx.has(2))
    result = imp.binary<tosa::AddOp>(result, imp.toRank(ctx.in(2), rank));
  // The optional Mean and InvStdDev outputs: the statistics, with the
  // normalized dimensions kept as 1.
  Value stats[] = {mu, inv};
  for (auto [i, stat] : llvm::enumerate(stats)) {
    if (int(i) + 1 >= ctx.node.output_size() || ctx.node.output(i + 1).empty())
      continue;
    FailureOr<RankedTensorType> t = ctx.out(i + 1);
    if (failed(t))
      return failure();
    if (t->getNumElements() != imp.typeOf(stat).getNumElements())
      return ctx.error() << "output " << i + 1 << " has shape " << *t
                         << ", expected " << imp.typeOf(stat);
    if (failed(ctx.define(i + 1, imp.reshape(stat, t->getShape()))))
      return failure();
  }
  return ctx.setResult(result);
}

LogicalResult importInstanceNormalization(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  Value x = ctx.in(0);
  // [N, C, D1, ...]: statistics over D1...
  if (failed(ctx.needRank(0, 3)))
    return failure();
  int64_t rank = imp.typeOf(x).getRank();
  int64_t c = imp.typeOf(x).getDimSize(1);
  SmallVector<int64_t> axes;
  int64_t count = 1;
  for (int64_t i = 2; i < rank; ++i) {
    axes.push_back(i);
    count *= imp.typeOf(x).getDimSize(i);
  }
  double eps = ctx.floatAttr("epsilon", 1e-5f);
  Value mean =
      imp.mul(imp.reduce("sum", x, axes), imp.scalarLike(x, 1.0 / count));
  Value centered = imp.binary<tosa::SubOp>(x, mean);
  Value var = imp.mul(imp.reduce("sum", imp.mul(centered, centered), axes),
                      imp.scalarLike(x, 1.0 / count));
  Value inv = imp.unary("tosa.rsqrt",
                        imp.binary<tosa::AddOp>(var, imp.scalarLike(x, eps)));
  Shape paramShape(rank, 1);
  paramShape[1] = c;
  return ctx.setResult(imp.binary<tosa::AddOp>(
      imp.mul(imp.mul(centered, inv), imp.reshape(ctx.in(1), paramShape)),
      imp.reshape(ctx.in(2), paramShape)));
}

/// x / (bias + alpha / size * the sum of squares over `size` channels)^beta.
LogicalResult importLRN(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  OpBuilder &b = ctx.b;
  Value x = ctx.in(0);
  RankedTensorType xt = imp.typeOf(x);
  int64_t size = ctx.intAttr("size", 0);
  if (size <= 0)
    return ctx.error() << "size must be positive";
  double alpha = ctx.floatAttr("alpha", 1e-4f),
         beta = ctx.floatAttr("beta", 0.75f),
         bias = ctx.floatAttr("bias", 1.0f);
  int64_t rank = xt.getRank();
  int64_t before = (size - 1) / 2, after = size - 1 - before;
  Value sq = imp.mul(x, x);
  SmallVector<int64_t> pads(2 * rank, 0);
  pads[2] = before;
  pads[3] = after;
  Shape padded(xt.getShape());
  padded[1] += size - 1;
  Value p = b.create<tosa::PadOp>(
      ctx.loc, RankedTensorType::get(padded, xt.getElementType()), sq,
      imp.constant(DenseElementsAttr::get(
          RankedTensorType::get({rank, 2}, b.getI64Type()),
          ArrayRef<int64_t>(pads))),
      imp.splat(xt.getElementType(), {}, 0));
  Value sum;
  for (int64_t i = 0; i < size; ++i) {
    Shape start(rank, 0);
    start[1] = i;
    Value s =
        b.create<tosa::SliceOp>(ctx.loc, xt, p, b.getDenseI64ArrayAttr(start),
                                b.getDenseI64ArrayAttr(xt.getShape()));
    sum = sum ? imp.binary<tosa::AddOp>(sum, s) : s;
  }
  Value d = imp.binary<tosa::AddOp>(
      imp.mul(sum, imp.scalarLike(x, alpha / size)), imp.scalarLike(x, bias));
  return ctx.setResult(
      imp.mul(x, imp.binary<tosa::PowOp>(d, imp.scalarLike(x, -beta))));
}

} // namespace

void mlir::nnapi::onnx_import::registerNormalizationOps(OpRegistry &registry) {
  constexpr int64_t lo = kMinONNXOpset, hi = kAnyOpset;
  registry.add({
      {"", "Softmax", lo, hi, importSoftmax,
       "reduce_max, sub, exp, reduce_sum, reciprocal, mul (the softmax "
       "composite)",
       "SOFTMAX (1; other axes/ranks 3)",
       "when the device profile lacks SOFTMAX"},
      {"", "LogSoftmax", lo, hi, importSoftmax,
       "reduce_max, sub, exp, reduce_sum, log, sub",
       "LOG_SOFTMAX (3), the log_softmax composite", "non-float"},
      {"", "BatchNormalization", lo, hi, importBatchNormalization,
       "folded into tosa.mul + tosa.add (constant statistics); training "
       "mode: batch statistics by reduce_sum, running statistics blended",
       "MUL + ADD (1)", "integer inputs"},
      {"", "LpNormalization", lo, hi, importLpNormalization,
       "x * select(s == 0, 0, rsqrt(s)), s the sum of squares (p = 2; the "
       "l2_normalization composite); reciprocal of the sum of |x| for p = 1",
       "L2_NORMALIZATION (4: zeros for a vector of zeros) for p = 2; ABS, "
       "REDUCE_SUM, EQUAL, DIV, SELECT, MUL (3) for p = 1",
       "p other than 1 and 2; non-float"},
      {"", "LayerNormalization", lo, hi, importLayerNormalization,
       "sums scaled by 1/N (mean composites), sub, mul, add, rsqrt over the "
       "axes from `axis`; stash_type 11: the statistics in float64 (host)",
       "MEAN (2), SUB, MUL, ADD, RSQRT (3)",
       "stash_type other than float32 or float64 (not imported)"},
      {"", "InstanceNormalization", lo, hi, importInstanceNormalization,
       "reduce_sum, mul, sub, rsqrt, mul, add",
       "INSTANCE_NORMALIZATION (3), the instance_normalization composite, "
       "then MUL, ADD for the per-channel scale and bias",
       "non-float"},
      {"", "LRN", lo, hi, importLRN, "mul, pad, slices, add, pow, mul",
       "LOCAL_RESPONSE_NORMALIZATION on axis 1 (3), the "
       "local_response_normalization composite",
       "even size (an asymmetric window) runs as MUL, ADD, PAD, SLICE, POW"},
  });
}
