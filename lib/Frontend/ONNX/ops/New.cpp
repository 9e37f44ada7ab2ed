//===- New.cpp - Operators added with the registry --------------*- C++ -*-===//

#include "../Importer.h"
#include "../OpRegistry.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::nnapi::onnx_import;

namespace {

/// `OpTy(a, b)` broadcast to a common rank, with an i1 result.
template <typename OpTy> Value compare(NodeContext &n, Value a, Value b) {
  auto [x, y] = n.imp.broadcastPair(a, b);
  return n.b.create<OpTy>(n.loc, n.imp.resultOf(x, y, n.b.getI1Type()), x, y);
}

/// select(c, a, b) broadcast to a common rank; the element type is a's.
Value select(NodeContext &n, Value c, Value a, Value b) {
  int64_t rank = std::max({n.imp.typeOf(c).getRank(), n.imp.typeOf(a).getRank(),
                           n.imp.typeOf(b).getRank()});
  c = n.imp.toRank(c, rank);
  a = n.imp.toRank(a, rank);
  b = n.imp.toRank(b, rank);
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i)
    shape.push_back(std::max({n.imp.typeOf(c).getDimSize(i),
                              n.imp.typeOf(a).getDimSize(i),
                              n.imp.typeOf(b).getDimSize(i)}));
  return n.b.create<tosa::SelectOp>(
      n.loc, RankedTensorType::get(shape, n.imp.typeOf(a).getElementType()), c,
      a, b);
}

Value add(NodeContext &n, Value a, Value b) {
  return n.imp.binary<tosa::AddOp>(a, b);
}
Value sub(NodeContext &n, Value a, Value b) {
  return n.imp.binary<tosa::SubOp>(a, b);
}

LogicalResult requireFloat(NodeContext &n, Value v) {
  if (n.isFloat(v))
    return success();
  return n.error() << "only float tensors are supported, got "
                   << n.imp.typeOf(v).getElementType();
}

//===----------------------------------------------------------------------===//
// Element-wise
//===----------------------------------------------------------------------===//

LogicalResult importSoftsign(NodeContext &n) {
  Value x = n.in(0);
  if (failed(requireFloat(n, x)))
    return failure();
  Value denominator = add(n, n.imp.unary("tosa.abs", x), n.imp.scalarLike(x, 1));
  return n.setResult(n.imp.mul(x, n.imp.unary("tosa.reciprocal", denominator)));
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
  return n.setResult(n.b.create<tosa::LogicalNotOp>(n.loc, same.getType(), same));
}

LogicalResult importIsInf(NodeContext &n) {
  Value x = n.in(0);
  if (failed(requireFloat(n, x)))
    return failure();
  bool positive = n.intAttr("detect_positive", 1);
  bool negative = n.intAttr("detect_negative", 1);
  Value result;
  auto orWith = [&](Value v) {
    result = result ? n.b.create<tosa::LogicalOrOp>(n.loc, v.getType(), result, v)
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
    Value step = select(n, compare<tosa::GreaterOp>(n, zero, a),
                        n.b.create<tosa::NegateOp>(n.loc, absB.getType(), absB),
                        absB);
    Value tooBig = compare<tosa::GreaterEqualOp>(n, n.imp.unary("tosa.abs", r),
                                                 absB);
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
  if (element.getIntOrFloatBitWidth() > 32)
    return n.error() << "integer Mod of " << element << " is not supported";
  Type i32 = n.b.getI32Type();
  Value x = n.imp.castTo(a, i32), y = n.imp.castTo(b, i32);
  Value q = n.imp.binary<tosa::IntDivOp>(x, y);
  Value r = sub(n, x, n.imp.mul(y, q));
  if (!fmod) {
    Value zero = n.imp.scalarLike(r, 0);
    Value rNeg = compare<tosa::GreaterOp>(n, zero, r);
    Value yNeg = compare<tosa::GreaterOp>(n, zero, y);
    Value nonZero = n.b.create<tosa::LogicalNotOp>(
        n.loc, RankedTensorType::get(n.imp.typeOf(r).getShape(), n.b.getI1Type()),
        compare<tosa::EqualOp>(n, r, zero));
    Value differ = compare<tosa::LogicalXorOp>(n, rNeg, yNeg);
    Value fix = compare<tosa::LogicalAndOp>(n, nonZero, differ);
    r = select(n, fix, add(n, r, y), r);
  }
  return n.setResult(n.imp.castTo(r, element));
}

template <typename OpTy, bool swap>
LogicalResult importComparison(NodeContext &n) {
  return n.setResult(swap ? compare<OpTy>(n, n.in(1), n.in(0))
                          : compare<OpTy>(n, n.in(0), n.in(1)));
}

LogicalResult importXor(NodeContext &n) {
  return n.setResult(compare<tosa::LogicalXorOp>(n, n.in(0), n.in(1)));
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
  Value e = n.imp.unary("tosa.exp", n.imp.mul(x, n.imp.scalarLike(x, 1 / alpha)));
  Value negative = n.imp.mul(sub(n, e, n.imp.scalarLike(x, 1)),
                             n.imp.scalarLike(x, alpha));
  return n.setResult(add(n, n.imp.clamp(x, 0, FLT_MAX),
                         n.imp.clamp(negative, -FLT_MAX, 0)));
}

LogicalResult importThresholdedRelu(NodeContext &n) {
  Value x = n.in(0);
  if (failed(requireFloat(n, x)))
    return failure();
  Value above = compare<tosa::GreaterOp>(
      n, x, n.imp.scalarLike(x, n.floatAttr("alpha", 1.0f)));
  return n.setResult(select(n, above, x, n.imp.scalarLike(x, 0)));
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


//===----------------------------------------------------------------------===//
// Index arithmetic at compile time
//===----------------------------------------------------------------------===//

/// Row-major strides of `shape`.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t i = int64_t(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

/// Rows `rows` of `values` viewed as [1, K, C]: a tosa.gather with a
/// constant index list, reshaped to `shape`. How the operators whose
/// indices are compile-time values (GatherElements, GatherND, ScatterND)
/// move data: NNAPI's GATHER or the host's gather loop.
Value gatherRows(NodeContext &n, Value values, int64_t k, int64_t c,
                 ArrayRef<int32_t> rows, ArrayRef<int64_t> shape) {
  Type element = n.imp.typeOf(values).getElementType();
  values = n.imp.reshape(values, {1, k, c});
  int64_t w = int64_t(rows.size());
  Value indices = n.imp.constant(DenseElementsAttr::get(
      RankedTensorType::get({1, w}, n.b.getI32Type()), rows));
  Value gathered = n.b.create<tosa::GatherOp>(
      n.loc, RankedTensorType::get({1, w, c}, element), values, indices);
  return n.imp.reshape(gathered, shape);
}

/// The compile-time indices of input `i`, each checked against [-size,
/// size) for the dimension `sizeOf(position)` returns and made
/// non-negative; failure after a diagnostic.
FailureOr<SmallVector<int64_t>>
constantIndices(NodeContext &n, int i,
                llvm::function_ref<int64_t(int64_t)> sizeOf) {
  FailureOr<DenseElementsAttr> c = n.needConstant(i, "indices");
  if (failed(c))
    return failure();
  SmallVector<int64_t> v = intsOf(*c);
  for (auto [position, index] : llvm::enumerate(v)) {
    int64_t size = sizeOf(int64_t(position));
    if (index < -size || index >= size)
      return n.error() << "index " << index << " is out of range for a "
                       << "dimension of size " << size;
    if (index < 0)
      index += size;
  }
  return v;
}

LogicalResult importGatherElements(NodeContext &n) {
  Value data = n.in(0);
  FailureOr<RankedTensorType> t = n.out();
  if (failed(t))
    return failure();
  ArrayRef<int64_t> dataShape = n.imp.typeOf(data).getShape();
  int64_t rank = int64_t(dataShape.size());
  int64_t axis = normalizeAxis(n.intAttr("axis", 0), rank);
  ArrayRef<int64_t> indexShape = t->getShape();
  SmallVector<int64_t> indexStrides = stridesOf(indexShape);
  FailureOr<SmallVector<int64_t>> indices = constantIndices(
      n, 1, [&](int64_t) { return dataShape[axis]; });
  if (failed(indices))
    return failure();
  SmallVector<int64_t> dataStrides = stridesOf(dataShape);
  SmallVector<int32_t> rows;
  for (auto [flat, index] : llvm::enumerate(*indices)) {
    int64_t source = 0;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t coordinate = (int64_t(flat) / indexStrides[d]) % indexShape[d];
      source += (d == axis ? index : coordinate) * dataStrides[d];
    }
    rows.push_back(int32_t(source));
  }
  return n.setResult(gatherRows(n, data, product(dataShape), 1, rows,
                                t->getShape()));
}

/// The row of data viewed as [product(dims[0..b+k)), rest] that an index
/// tuple of GatherND/ScatterND selects: `batch` is the linear batch
/// position (batch_dims b), `tuple` the k indices (non-negative).
int64_t rowOf(ArrayRef<int64_t> dataShape, int64_t b, int64_t batch,
              ArrayRef<int64_t> tuple) {
  int64_t row = batch;
  for (auto [i, index] : llvm::enumerate(tuple))
    row = row * dataShape[b + i] + index;
  return row;
}

LogicalResult importGatherND(NodeContext &n) {
  Value data = n.in(0);
  FailureOr<RankedTensorType> t = n.out();
  if (failed(t))
    return failure();
  ArrayRef<int64_t> dataShape = n.imp.typeOf(data).getShape();
  ArrayRef<int64_t> indexShape =
      cast<RankedTensorType>(n.in(1).getType()).getShape();
  int64_t b = n.intAttr("batch_dims", 0);
  int64_t k = indexShape.back();
  FailureOr<SmallVector<int64_t>> indices = constantIndices(
      n, 1, [&](int64_t position) { return dataShape[b + position % k]; });
  if (failed(indices))
    return failure();
  int64_t batches = product(dataShape.take_front(b));
  int64_t tuples = indices->size() / k; // over all batches
  int64_t perBatch = tuples / std::max<int64_t>(batches, 1);
  int64_t c = product(dataShape.drop_front(b + k));
  SmallVector<int32_t> rows;
  for (int64_t i = 0; i < tuples; ++i)
    rows.push_back(int32_t(rowOf(dataShape, b, i / perBatch,
                                 ArrayRef<int64_t>(*indices).slice(i * k, k))));
  return n.setResult(gatherRows(n, data, product(dataShape) / c, c, rows,
                                t->getShape()));
}

/// Rows of data and then of updates concatenated, gathered back with the
/// updated rows taken from the second half (a later update of the same row
/// wins; ONNX leaves duplicates undefined).
LogicalResult importScatterND(NodeContext &n) {
  if (n.stringAttr("reduction", "none") != "none")
    return n.error() << "reduction '" << n.stringAttr("reduction", "none")
                     << "' is not supported";
  Value data = n.in(0), updates = n.in(2);
  RankedTensorType dt = n.imp.typeOf(data);
  ArrayRef<int64_t> dataShape = dt.getShape();
  ArrayRef<int64_t> indexShape =
      cast<RankedTensorType>(n.in(1).getType()).getShape();
  int64_t k = indexShape.back();
  FailureOr<SmallVector<int64_t>> indices = constantIndices(
      n, 1, [&](int64_t position) { return dataShape[position % k]; });
  if (failed(indices))
    return failure();
  int64_t c = product(dataShape.drop_front(k));
  int64_t r = product(dataShape) / std::max<int64_t>(c, 1);
  int64_t u = indices->size() / k;
  SmallVector<int32_t> rows;
  for (int64_t i = 0; i < r; ++i)
    rows.push_back(int32_t(i));
  for (int64_t i = 0; i < u; ++i)
    rows[rowOf(dataShape, 0, 0, ArrayRef<int64_t>(*indices).slice(i * k, k))] =
        int32_t(r + i);
  Value both = n.b.create<tosa::ConcatOp>(
      n.loc, RankedTensorType::get({1, r + u, c}, dt.getElementType()),
      ValueRange{n.imp.reshape(data, {1, r, c}),
                 n.imp.reshape(updates, {1, u, c})},
      n.b.getI32IntegerAttr(1));
  return n.setResult(gatherRows(n, both, r + u, c, rows, dataShape));
}

//===----------------------------------------------------------------------===//
// Masks and compile-time tensors
//===----------------------------------------------------------------------===//

LogicalResult importHardmax(NodeContext &n) {
  Value x = n.in(0);
  if (failed(requireFloat(n, x)))
    return failure();
  RankedTensorType xt = n.imp.typeOf(x);
  int64_t rank = xt.getRank();
  int64_t axis = normalizeAxis(n.intAttr("axis", -1), rank);
  SmallVector<int64_t> reduced(xt.getShape());
  reduced.erase(reduced.begin() + axis);
  Value index = n.b.create<tosa::ArgMaxOp>(
      n.loc, RankedTensorType::get(reduced, n.b.getI32Type()), x,
      n.b.getI32IntegerAttr(axis));
  SmallVector<int64_t> kept(xt.getShape());
  kept[axis] = 1;
  index = n.imp.reshape(index, kept);
  SmallVector<int64_t> iotaShape(rank, 1);
  iotaShape[axis] = xt.getDimSize(axis);
  SmallVector<int32_t> iota;
  for (int64_t i = 0; i < xt.getDimSize(axis); ++i)
    iota.push_back(int32_t(i));
  Value positions = n.imp.constant(DenseElementsAttr::get(
      RankedTensorType::get(iotaShape, n.b.getI32Type()), ArrayRef(iota)));
  Value isMax = compare<tosa::EqualOp>(n, index, positions);
  return n.setResult(select(n, isMax, n.imp.scalarLike(x, 1),
                            n.imp.scalarLike(x, 0)));
}

LogicalResult importTrilu(NodeContext &n) {
  Value x = n.in(0);
  RankedTensorType xt = n.imp.typeOf(x);
  if (xt.getRank() < 2)
    return n.error() << "the input must have rank 2 or more";
  int64_t k = 0;
  if (n.has(1)) {
    FailureOr<DenseElementsAttr> c = n.needConstant(1, "k");
    if (failed(c))
      return failure();
    k = intsOf(*c)[0];
  }
  bool upper = n.intAttr("upper", 1);
  int64_t rows = xt.getDimSize(xt.getRank() - 2);
  int64_t cols = xt.getDimSize(xt.getRank() - 1);
  SmallVector<bool> keep;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      keep.push_back(upper ? j - i >= k : j - i <= k);
  SmallVector<int64_t> maskShape(xt.getRank() - 2, 1);
  maskShape.append({rows, cols});
  Value mask = n.imp.constant(DenseElementsAttr::get(
      RankedTensorType::get(maskShape, n.b.getI1Type()), ArrayRef(keep)));
  return n.setResult(select(n, mask, x, n.imp.scalarLike(x, 0)));
}

/// A running sum along one axis as a matmul with a constant 0/1 matrix
/// (which inputs each output adds up; exclusive and reverse change which).
LogicalResult importCumSum(NodeContext &n) {
  Value x = n.in(0);
  if (failed(requireFloat(n, x)))
    return failure();
  FailureOr<DenseElementsAttr> axisAttr = n.needConstant(1, "axis");
  if (failed(axisAttr))
    return failure();
  RankedTensorType xt = n.imp.typeOf(x);
  int64_t rank = xt.getRank();
  int64_t axis = intsOf(*axisAttr)[0];
  if (axis < -rank || axis >= rank)
    return n.error() << "axis " << axis << " is out of range for rank " << rank;
  axis = normalizeAxis(axis, rank);
  bool exclusive = n.intAttr("exclusive", 0), reverse = n.intAttr("reverse", 0);
  SmallVector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      perm.push_back(d);
  perm.push_back(axis);
  Value moved = n.imp.transpose(x, perm);
  int64_t len = xt.getDimSize(axis);
  int64_t m = xt.getNumElements() / std::max<int64_t>(len, 1);
  SmallVector<float> tri;
  for (int64_t i = 0; i < len; ++i)   // input position
    for (int64_t j = 0; j < len; ++j) // output position
      tri.push_back(reverse ? (exclusive ? i > j : i >= j)
                            : (exclusive ? i < j : i <= j));
  Type element = xt.getElementType();
  Value matrix = n.imp.castTo(
      n.imp.constant(DenseElementsAttr::get(
          RankedTensorType::get({1, len, len}, n.b.getF32Type()),
          ArrayRef(tri))),
      element);
  Value sums = n.b.create<tosa::MatMulOp>(
      n.loc, RankedTensorType::get({1, m, len}, element),
      n.imp.reshape(moved, {1, m, len}), matrix);
  SmallVector<int64_t> movedShape(n.imp.typeOf(moved).getShape());
  SmallVector<int64_t> inverse(rank);
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = int64_t(i);
  return n.setResult(
      n.imp.transpose(n.imp.reshape(sums, movedShape), inverse));
}

/// A dense constant of `type` holding `values` (cast to its element type).
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

LogicalResult importRange(NodeContext &n) {
  FailureOr<DenseElementsAttr> start = n.needConstant(0, "start");
  FailureOr<DenseElementsAttr> limit = n.needConstant(1, "limit");
  FailureOr<DenseElementsAttr> delta = n.needConstant(2, "delta");
  if (failed(start) || failed(limit) || failed(delta))
    return failure();
  double s = floatsOf(*start)[0], l = floatsOf(*limit)[0],
         d = floatsOf(*delta)[0];
  if (d == 0)
    return n.error() << "delta is 0";
  double count = std::max(std::ceil((l - s) / d), 0.0);
  if (count > double(kMaxElements))
    return n.error() << "the range has more than " << kMaxElements
                     << " elements";
  SmallVector<double> values;
  for (int64_t i = 0; i < int64_t(count); ++i)
    values.push_back(s + double(i) * d);
  auto type = RankedTensorType::get({int64_t(count)},
                                    start->getType().getElementType());
  return n.defineConstant(0, denseOf(type, values));
}

LogicalResult importSize(NodeContext &n) {
  Value x = n.in(0);
  return n.defineConstant(
      0, DenseElementsAttr::get(RankedTensorType::get({}, n.b.getI64Type()),
                                int64_t(n.imp.typeOf(x).getNumElements())));
}

LogicalResult importEyeLike(NodeContext &n) {
  FailureOr<RankedTensorType> t = n.out();
  if (failed(t))
    return failure();
  if (t->getRank() != 2)
    return n.error() << "the input must have rank 2";
  int64_t k = n.intAttr("k", 0);
  SmallVector<double> values;
  for (int64_t i = 0; i < t->getDimSize(0); ++i)
    for (int64_t j = 0; j < t->getDimSize(1); ++j)
      values.push_back(j - i == k ? 1 : 0);
  return n.defineConstant(0, denseOf(*t, values));
}


//===----------------------------------------------------------------------===//
// Einsum
//===----------------------------------------------------------------------===//

/// One operand of an Einsum: its value and one letter per dimension.
struct EinsumTerm {
  Value value;
  std::string letters;
};

/// Sums `term` over the letters `keep` rejects.
void sumOut(NodeContext &n, EinsumTerm &term,
            llvm::function_ref<bool(char)> keep) {
  SmallVector<int64_t> axes;
  std::string kept;
  for (auto [i, c] : llvm::enumerate(term.letters)) {
    if (keep(c))
      kept += c;
    else
      axes.push_back(int64_t(i));
  }
  if (axes.empty())
    return;
  Value v = n.imp.reduce("sum", term.value, axes);
  SmallVector<int64_t> shape;
  for (auto [i, d] : llvm::enumerate(n.imp.typeOf(v).getShape()))
    if (!llvm::is_contained(axes, int64_t(i)))
      shape.push_back(d);
  term = {n.imp.reshape(v, shape), kept};
}

/// `term` transposed to the letter order `order` (a permutation of its
/// letters).
Value permuteTo(NodeContext &n, const EinsumTerm &term, StringRef order) {
  SmallVector<int64_t> perm;
  for (char c : order)
    perm.push_back(int64_t(term.letters.find(c)));
  return n.imp.transpose(term.value, perm);
}

/// The matmul-like Einsum equations: one or two operands, each letter at
/// most once per operand, no broadcasting between operands. Letters only one
/// operand has and the output lacks are summed first; then the two operands
/// become one batched matmul [batch, free A, contracted] x [batch,
/// contracted, free B], transposed to the output's order.
LogicalResult importEinsum(NodeContext &n) {
  std::string equation = n.stringAttr("equation", "");
  llvm::erase_if(equation, [](char c) { return c == ' '; });
  auto [lhs, rhsPart] = StringRef(equation).split("->");
  bool explicitOutput = StringRef(equation).contains("->");
  SmallVector<StringRef> specs;
  lhs.split(specs, ',');
  if (int(specs.size()) != n.node.input_size() || specs.size() > 2)
    return n.error() << "equation '" << equation << "' has " << specs.size()
                     << " operands; Einsum of one or two operands is "
                        "supported";
  // Ellipses become letters no term uses (the same ones for every operand,
  // aligned at the end as numpy does).
  std::string unused;
  for (char c = 'A'; c <= 'Z'; ++c)
    if (!StringRef(equation).contains(c))
      unused += c;
  SmallVector<EinsumTerm> terms;
  int64_t ellipsisRank = -1;
  for (auto [i, spec] : llvm::enumerate(specs)) {
    Value v = n.in(int(i));
    if (failed(requireFloat(n, v)))
      return failure();
    int64_t rank = n.imp.typeOf(v).getRank();
    std::string letters = spec.str();
    size_t dots = letters.find("...");
    if (dots != std::string::npos) {
      int64_t k = rank - int64_t(letters.size() - 3);
      if (k < 0 || (ellipsisRank >= 0 && k != ellipsisRank) ||
          k > int64_t(unused.size()))
        return n.error() << "the ellipses of '" << equation
                         << "' stand for different numbers of dimensions";
      ellipsisRank = k;
      letters.replace(dots, 3, unused.substr(unused.size() - k));
    }
    if (int64_t(letters.size()) != rank ||
        !llvm::all_of(letters, [](char c) { return llvm::isAlpha(c); }))
      return n.error() << "term '" << spec << "' does not match operand " << i
                       << " of rank " << rank;
    for (char c : letters)
      if (llvm::count(letters, c) > 1)
        return n.error() << "repeated letter '" << c << "' in a term "
                         << "(diagonals) is not supported";
    terms.push_back({v, letters});
  }
  std::string out;
  if (explicitOutput) {
    out = rhsPart.str();
    size_t dots = out.find("...");
    if (dots != std::string::npos)
      out.replace(dots, 3,
                  unused.substr(unused.size() - std::max<int64_t>(ellipsisRank, 0)));
  } else {
    // Implicit output: the ellipsis dimensions, then the letters that
    // appear once, alphabetically.
    std::string all;
    for (const EinsumTerm &t : terms)
      all += t.letters;
    if (ellipsisRank > 0)
      out = unused.substr(unused.size() - ellipsisRank);
    std::string once;
    for (char c : all)
      if (llvm::count(all, c) == 1 && !StringRef(out).contains(c))
        once += c;
    llvm::sort(once);
    out += once;
  }
  auto sizeOf = [&](const EinsumTerm &t, char c) {
    return n.imp.typeOf(t.value).getDimSize(int64_t(t.letters.find(c)));
  };
  auto inTerm = [](const EinsumTerm &t, char c) {
    return t.letters.find(c) != std::string::npos;
  };
  for (char c : out)
    if (llvm::none_of(terms, [&](const EinsumTerm &t) { return inTerm(t, c); }))
      return n.error() << "output letter '" << c << "' is in no operand";
  if (terms.size() == 1) {
    EinsumTerm t = terms[0];
    sumOut(n, t, [&](char c) { return StringRef(out).contains(c); });
    return n.setResult(permuteTo(n, t, out));
  }
  EinsumTerm a = terms[0], b = terms[1];
  sumOut(n, a, [&](char c) { return StringRef(out).contains(c) || inTerm(b, c); });
  sumOut(n, b, [&](char c) { return StringRef(out).contains(c) || inTerm(a, c); });
  std::string batch, freeA, freeB, contracted;
  for (char c : a.letters) {
    if (inTerm(b, c)) {
      if (sizeOf(a, c) != sizeOf(b, c))
        return n.error() << "letter '" << c << "' has sizes " << sizeOf(a, c)
                         << " and " << sizeOf(b, c)
                         << "; broadcasting between operands is not supported";
      (StringRef(out).contains(c) ? batch : contracted) += c;
    } else {
      freeA += c;
    }
  }
  for (char c : b.letters)
    if (!inTerm(a, c))
      freeB += c;
  auto sizes = [&](const EinsumTerm &t, StringRef letters) {
    int64_t p = 1;
    for (char c : letters)
      p *= sizeOf(t, c);
    return p;
  };
  int64_t nb = sizes(a, batch), m = sizes(a, freeA), k = sizes(a, contracted),
          nn = sizes(b, freeB);
  Type element = n.imp.typeOf(a.value).getElementType();
  Value lhsValue =
      n.imp.reshape(permuteTo(n, a, batch + freeA + contracted), {nb, m, k});
  Value rhsValue =
      n.imp.reshape(permuteTo(n, b, batch + contracted + freeB), {nb, k, nn});
  Value product = n.b.create<tosa::MatMulOp>(
      n.loc, RankedTensorType::get({nb, m, nn}, element), lhsValue, rhsValue);
  SmallVector<int64_t> shape;
  for (char c : batch + freeA)
    shape.push_back(sizeOf(a, c));
  for (char c : freeB)
    shape.push_back(sizeOf(b, c));
  EinsumTerm result{n.imp.reshape(product, shape), batch + freeA + freeB};
  return n.setResult(permuteTo(n, result, out));
}

} // namespace

void mlir::nnapi::onnx_import::registerNewOps(OpRegistry &r) {
  constexpr int64_t lo = 13, hi = kAnyOpset;
  r.add({
      {"", "Softsign", lo, hi, importSoftsign,
       "abs, add, reciprocal, mul", "ABS (3), ADD (1), DIV (2), MUL (1)",
       "non-float"},
      {"", "Sign", lo, hi, importSign, "greater, select",
       "GREATER, SELECT (3)", "-"},
      {"", "Round", lo, hi, importRound,
       "floor, sub, greater, equal, select (half to even)", "FLOOR (1), SUB (2), EQUAL, GREATER, SELECT (3)",
       "non-float"},
      {"", "IsNaN", lo, hi, importIsNaN, "equal(x, x), logical_not",
       "EQUAL, LOGICAL_NOT (3) (bool results: feature level 4)", "non-float"},
      {"", "IsInf", lo, hi, importIsInf, "equal with +-inf, logical_or",
       "EQUAL, LOGICAL_OR (3)", "non-float"},
      {"", "Mod", lo, hi, importMod,
       "float: a - b * trunc(a * reciprocal(b)) with a sign correction; "
       "integers: int_div in int32",
       "float: DIV (2), MUL (1), SUB (2), FLOOR (1), ABS, NEG, GREATER, SELECT (3)",
       "integers (int_div); int64 Mod is refused"},
      {"", "GreaterOrEqual", lo, hi,
       importComparison<tosa::GreaterEqualOp, false>, "tosa.greater_equal",
       "GREATER_EQUAL (3)", "-"},
      {"", "LessOrEqual", lo, hi, importComparison<tosa::GreaterEqualOp, true>,
       "tosa.greater_equal (operands swapped)", "GREATER_EQUAL (3)", "-"},
      {"", "Xor", lo, hi, importXor, "tosa.logical_xor", "-", "always"},
      {"", "Sin", lo, hi, importSinCos, "tosa.sin", "SIN (3)", "non-float"},
      {"", "Cos", lo, hi, importSinCos, "tosa.cos", "-", "always"},
      {"", "Celu", lo, hi, importCelu, "exp, mul, sub, clamp, add",
       "EXP (3), MUL (1), SUB (2), MAXIMUM, MINIMUM (3)", "non-float"},
      {"", "ThresholdedRelu", lo, hi, importThresholdedRelu,
       "greater, select", "GREATER, SELECT (3)", "non-float"},
      {"", "Shrink", lo, hi, importShrink, "greater, add, sub, select",
       "GREATER, SELECT (3), ADD (1), SUB (2)", "non-float"},
      {"", "CastLike", lo, hi, importCastLike, "tosa.cast", "CAST (3)",
       "float to integer is refused"},
      {"", "GatherElements", lo, hi, importGatherElements,
       "tosa.gather of the flattened data (indices must be compile-time "
       "values)", "GATHER (3)", "runtime indices are refused"},
      {"", "GatherND", lo, hi, importGatherND,
       "tosa.gather of rows (indices must be compile-time values)",
       "GATHER (3)", "runtime indices are refused"},
      {"", "ScatterND", lo, hi, importScatterND,
       "concat of data and update rows, tosa.gather (indices must be "
       "compile-time values)",
       "CONCATENATION, GATHER (3)",
       "runtime indices and reductions are refused"},
      {"", "Hardmax", lo, hi, importHardmax,
       "tosa.argmax, equal with a constant iota, select",
       "ARGMAX, EQUAL, SELECT (3)", "non-float"},
      {"", "Trilu", lo, hi, importTrilu, "select with a constant mask",
       "SELECT (3)", "k must be a compile-time value"},
      {"", "CumSum", lo, hi, importCumSum,
       "tosa.matmul with a constant triangular matrix",
       "BATCH_MATMUL (6) or FULLY_CONNECTED (1)", "non-float"},
      {"", "Range", lo, hi, importRange,
       "a constant (start, limit and delta must be compile-time values)",
       "-", "-"},
      {"", "Size", lo, hi, importSize, "a constant", "-", "-"},
      {"", "EyeLike", lo, hi, importEyeLike, "a constant", "-", "-"},
      {"", "Einsum", lo, hi, importEinsum,
       "reduce_sum, transposes, one tosa.matmul (one or two operands; no "
       "diagonals or broadcasting between operands)",
       "TRANSPOSE (2), REDUCE_SUM (3), BATCH_MATMUL (6)", "non-float"},
  });
}
