//===- Indexing.cpp - Gathers, scatters, masks ------------------*- C++ -*-===//
//
// Operators that move elements by computed positions (GatherElements,
// GatherND, ScatterND: flat positions, constant or computed at run time,
// fed to one tosa.gather), masks (Hardmax, Trilu), running sums (CumSum)
// and compile-time tensors (Range, Size, EyeLike).
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"
#include "../OpRegistry.h"

#include "nnapi-mlir/Frontend/ONNX/ONNXImporter.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::nnapi::onnx_import;

namespace {

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

/// Rows `rows` (int32, any shape, one element per row) of `values` viewed
/// as [1, K, C]: one tosa.gather, reshaped to `shape`. How GatherElements,
/// GatherND and ScatterND move data, whether their row numbers are
/// compile-time constants or computed at run time: NNAPI's GATHER or the
/// host's gather loop.
Value gatherRows(NodeContext &n, Value values, int64_t k, int64_t c, Value rows,
                 ArrayRef<int64_t> shape) {
  Type element = n.imp.typeOf(values).getElementType();
  int64_t w = n.imp.typeOf(rows).getNumElements();
  Value gathered = n.b.create<tosa::GatherOp>(
      n.loc, RankedTensorType::get({1, w, c}, element),
      n.imp.reshape(values, {1, k, c}), n.imp.reshape(rows, {1, w}));
  return n.imp.reshape(gathered, shape);
}

/// Row numbers known at compile time, as an int32 constant.
Value constantRows(NodeContext &n, ArrayRef<int32_t> rows) {
  return n.imp.constant(DenseElementsAttr::get(
      RankedTensorType::get({int64_t(rows.size())}, n.b.getI32Type()), rows));
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
  if (failed(n.needRank(0, 1)) || failed(n.needRank(1, rank, rank)))
    return failure();
  int64_t axis = normalizeAxis(n.intAttr("axis", 0), rank);
  if (axis < 0 || axis >= rank)
    return n.error() << "axis " << n.intAttr("axis", 0)
                     << " is out of range for rank " << rank;
  ArrayRef<int64_t> indexShape = t->getShape();
  SmallVector<int64_t> indexStrides = stridesOf(indexShape);
  SmallVector<int64_t> dataStrides = stridesOf(dataShape);
  if (product(dataShape) > INT32_MAX)
    return n.error() << "data of more than 2^31 - 1 elements is not supported";
  // The flat source of each output is index * stride(axis) plus its other
  // coordinates' part, a constant.
  SmallVector<int32_t> base;
  for (int64_t flat = 0; flat < product(indexShape); ++flat) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis)
        offset += (flat / indexStrides[d]) % indexShape[d] * dataStrides[d];
    base.push_back(int32_t(offset));
  }
  Value rows;
  if (!n.cst(1)) {
    Value index = n.imp.normalizeIndices(n.in(1), dataShape[axis]);
    SmallVector<int64_t> ones(rank, 1);
    rows = add(n,
               n.imp.mul(index, n.imp.splat(n.b.getI32Type(), ones,
                                            double(dataStrides[axis]))),
               n.imp.reshape(constantRows(n, base), indexShape));
  } else {
    FailureOr<SmallVector<int64_t>> indices =
        constantIndices(n, 1, [&](int64_t) { return dataShape[axis]; });
    if (failed(indices))
      return failure();
    for (auto [flat, index] : llvm::enumerate(*indices))
      base[flat] += int32_t(index * dataStrides[axis]);
    rows = constantRows(n, base);
  }
  return n.setResult(
      gatherRows(n, data, product(dataShape), 1, rows, t->getShape()));
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
  int64_t batches = product(dataShape.take_front(b));
  int64_t tuples = product(indexShape) / std::max<int64_t>(k, 1);
  int64_t perBatch = tuples / std::max<int64_t>(batches, 1);
  int64_t c = product(dataShape.drop_front(b + k));
  int64_t dataRows = product(dataShape) / std::max<int64_t>(c, 1);
  if (product(dataShape) > INT32_MAX)
    return n.error() << "data of more than 2^31 - 1 elements is not supported";
  if (!n.cst(1)) {
    // Runtime indices: row = batch * rows per batch + sum of index_i *
    // stride_i, each index normalized against its own dimension.
    Value tuplesValue = n.imp.reshape(n.in(1), {tuples, k});
    Type indexType = n.imp.typeOf(tuplesValue).getElementType();
    int64_t stride = 1;
    Value row;
    for (int64_t i = k - 1; i >= 0; --i) {
      Value column = n.b.create<tosa::SliceOp>(
          n.loc, RankedTensorType::get({tuples, 1}, indexType), tuplesValue,
          n.b.getDenseI64ArrayAttr({0, i}),
          n.b.getDenseI64ArrayAttr({tuples, 1}));
      Value part =
          n.imp.mul(n.imp.normalizeIndices(column, dataShape[b + i]),
                    n.imp.splat(n.b.getI32Type(), {1, 1}, double(stride)));
      row = row ? add(n, row, part) : part;
      stride *= dataShape[b + i];
    }
    SmallVector<int32_t> batchBase;
    for (int64_t t = 0; t < tuples; ++t)
      batchBase.push_back(int32_t(t / perBatch * stride));
    Value base = n.imp.constant(DenseElementsAttr::get(
        RankedTensorType::get({tuples, 1}, n.b.getI32Type()),
        ArrayRef(batchBase)));
    row = row ? add(n, row, base) : base;
    return n.setResult(gatherRows(n, data, dataRows, c, row, t->getShape()));
  }
  FailureOr<SmallVector<int64_t>> indices = constantIndices(
      n, 1, [&](int64_t position) { return dataShape[b + position % k]; });
  if (failed(indices))
    return failure();
  SmallVector<int32_t> rows;
  for (int64_t i = 0; i < tuples; ++i)
    rows.push_back(int32_t(rowOf(dataShape, b, i / perBatch,
                                 ArrayRef<int64_t>(*indices).slice(i * k, k))));
  return n.setResult(
      gatherRows(n, data, dataRows, c, constantRows(n, rows), t->getShape()));
}

/// Rows of data and then of updates concatenated, gathered back with the
/// updated rows taken from the second half (a later update of the same row
/// wins; ONNX leaves duplicates undefined). With reduction add or mul, the
/// j-th update of each row is gathered as a layer (rows without one take
/// the identity row) and the layers are combined with data in update
/// order, as ONNX's loop accumulates them.
LogicalResult importScatterND(NodeContext &n) {
  std::string reduction = n.stringAttr("reduction", "none");
  if (reduction != "none" && reduction != "add" && reduction != "mul")
    return n.error() << "reduction '" << reduction
                     << "' is not supported (none, add, mul)";
  Value data = n.in(0), updates = n.in(2);
  RankedTensorType dt = n.imp.typeOf(data);
  ArrayRef<int64_t> dataShape = dt.getShape();
  if (failed(n.needRank(0, 1)) || failed(n.needRank(1, 1)))
    return failure();
  ArrayRef<int64_t> indexShape =
      cast<RankedTensorType>(n.in(1).getType()).getShape();
  int64_t k = indexShape.back();
  if (k < 1 || k > dt.getRank())
    return n.error() << "the last dimension of the indices (" << k
                     << ") must be from 1 to the data's rank (" << dt.getRank()
                     << ")";
  FailureOr<SmallVector<int64_t>> indices = constantIndices(
      n, 1, [&](int64_t position) { return dataShape[position % k]; });
  if (failed(indices))
    return failure();
  int64_t c = product(dataShape.drop_front(k));
  int64_t r = product(dataShape) / std::max<int64_t>(c, 1);
  int64_t u = indices->size() / k;
  if (reduction != "none") {
    std::vector<SmallVector<int32_t>> hits(r);
    size_t layers = 0;
    for (int64_t i = 0; i < u; ++i) {
      auto &row = hits[rowOf(dataShape, 0, 0,
                             ArrayRef<int64_t>(*indices).slice(i * k, k))];
      row.push_back(int32_t(r + i));
      layers = std::max(layers, row.size());
    }
    // Each repetition is one gather of every row.
    constexpr size_t kMaxLayers = 256;
    if (layers > kMaxLayers)
      return n.error() << "a row receives " << layers
                       << " updates; a reduction over more than " << kMaxLayers
                       << " updates of one row is not supported";
    // -0.0: adding it keeps a -0.0 in data (+0.0 would not).
    Value identity = n.imp.splat(dt.getElementType(), {1, 1, c},
                                 reduction == "add" ? -0.0 : 1.0);
    Value all = n.b.create<tosa::ConcatOp>(
        n.loc, RankedTensorType::get({1, r + u + 1, c}, dt.getElementType()),
        ValueRange{n.imp.reshape(data, {1, r, c}),
                   n.imp.reshape(updates, {1, u, c}), identity},
        n.b.getI32IntegerAttr(1));
    Value result = data;
    for (size_t j = 0; j < layers; ++j) {
      SmallVector<int32_t> rows;
      for (const auto &row : hits)
        rows.push_back(j < row.size() ? row[j] : int32_t(r + u));
      Value layer =
          gatherRows(n, all, r + u + 1, c, constantRows(n, rows), dataShape);
      result =
          reduction == "add" ? add(n, result, layer) : n.imp.mul(result, layer);
    }
    return n.setResult(result);
  }
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
  return n.setResult(
      gatherRows(n, both, r + u, c, constantRows(n, rows), dataShape));
}

//===----------------------------------------------------------------------===//
// Masks and compile-time tensors
//===----------------------------------------------------------------------===//

/// The first position of the maximum of `x` along `axis` (int32, that
/// dimension kept as 1) and where it is (i1, x's shape): tosa.argmax and an
/// equal with a constant iota.
std::pair<Value, Value> argMaxOneHot(NodeContext &n, Value x, int64_t axis) {
  RankedTensorType xt = n.imp.typeOf(x);
  int64_t rank = xt.getRank();
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
  return {index, compare<tosa::EqualOp>(n, index, positions)};
}

LogicalResult importHardmax(NodeContext &n) {
  Value x = n.in(0);
  if (failed(requireFloat(n, x)))
    return failure();
  int64_t axis =
      normalizeAxis(n.intAttr("axis", -1), n.imp.typeOf(x).getRank());
  Value isMax = argMaxOneHot(n, x, axis).second;
  return n.setResult(
      select(n, isMax, n.imp.scalarLike(x, 1), n.imp.scalarLike(x, 0)));
}

/// The k largest (or smallest) along an axis, in order, as k rounds of
/// argmax, each taking the maximum out with -inf: ties go to the lower
/// index, as ONNX wants. For the small constant k of detection and
/// decoding heads; the cost grows with k.
LogicalResult importTopK(NodeContext &n) {
  constexpr int64_t kMaxK = 64;
  Value x = n.in(0);
  if (failed(requireFloat(n, x)))
    return failure();
  FailureOr<DenseElementsAttr> kAttr = n.needConstant(1, "K");
  if (failed(kAttr))
    return failure();
  RankedTensorType xt = n.imp.typeOf(x);
  int64_t axis = normalizeAxis(n.intAttr("axis", -1), xt.getRank());
  int64_t k = intsOf(*kAttr)[0];
  if (k < 1 || k > xt.getDimSize(axis) || k > kMaxK)
    return n.error() << "K must be in [1, "
                     << std::min(xt.getDimSize(axis), kMaxK) << "], got " << k;
  bool largest = n.intAttr("largest", 1);
  Value work =
      largest ? x : n.b.create<tosa::NegateOp>(n.loc, xt, x).getResult();
  SmallVector<Value> values, indices;
  SmallVector<int64_t> kept(xt.getShape());
  kept[axis] = 1;
  Value minusInf = n.imp.scalarLike(x, -INFINITY);
  for (int64_t round = 0; round < k; ++round) {
    auto [index, isMax] = argMaxOneHot(n, work, axis);
    Value value = n.imp.reduce("max", work, {axis});
    values.push_back(
        largest ? value
                : n.b.create<tosa::NegateOp>(n.loc, value.getType(), value)
                      .getResult());
    indices.push_back(index);
    if (round + 1 < k)
      work = select(n, isMax, minusInf, work);
  }
  SmallVector<int64_t> outShape(xt.getShape());
  outShape[axis] = k;
  auto concat = [&](ArrayRef<Value> parts, Type element) -> Value {
    if (parts.size() == 1)
      return parts[0];
    return n.b.create<tosa::ConcatOp>(n.loc,
                                      RankedTensorType::get(outShape, element),
                                      parts, n.b.getI32IntegerAttr(axis));
  };
  if (failed(n.define(0, concat(values, xt.getElementType()))))
    return failure();
  FailureOr<RankedTensorType> indexType = n.out(1);
  if (failed(indexType))
    return failure();
  return n.define(1, n.imp.castTo(concat(indices, n.b.getI32Type()),
                                  indexType->getElementType()));
}

LogicalResult importTrilu(NodeContext &n) {
  Value x = n.in(0);
  RankedTensorType xt = n.imp.typeOf(x);
  if (xt.getRank() < 2)
    return n.error() << "the input must have rank 2 or more";
  bool upper = n.intAttr("upper", 1);
  int64_t rows = xt.getDimSize(xt.getRank() - 2);
  int64_t cols = xt.getDimSize(xt.getRank() - 1);
  SmallVector<int64_t> maskShape(xt.getRank() - 2, 1);
  maskShape.append({rows, cols});
  if (n.has(1) && !n.cst(1)) {
    // A runtime k: compare the constant j - i with it.
    SmallVector<int64_t> diagonal;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        diagonal.push_back(j - i);
    Value offsets = n.imp.constant(DenseElementsAttr::get(
        RankedTensorType::get(maskShape, n.b.getI64Type()),
        ArrayRef(diagonal)));
    Value k = n.imp.castTo(n.in(1), n.b.getI64Type());
    Value keep = upper ? compare<tosa::GreaterEqualOp>(n, offsets, k)
                       : compare<tosa::GreaterEqualOp>(n, k, offsets);
    return n.setResult(select(n, keep, x, n.imp.scalarLike(x, 0)));
  }
  int64_t k = n.has(1) ? intsOf(n.cst(1))[0] : 0;
  SmallVector<bool> keep;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      keep.push_back(upper ? j - i >= k : j - i <= k);
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
  SmallVector<double> tri;
  for (int64_t i = 0; i < len; ++i)   // input position
    for (int64_t j = 0; j < len; ++j) // output position
      tri.push_back(reverse ? (exclusive ? i > j : i >= j)
                            : (exclusive ? i < j : i <= j));
  Type element = xt.getElementType();
  Value matrix = n.imp.constant(
      denseOf(RankedTensorType::get({1, len, len}, element), tri));
  Value sums = n.b.create<tosa::MatMulOp>(
      n.loc, RankedTensorType::get({1, m, len}, element),
      n.imp.reshape(moved, {1, m, len}), matrix);
  SmallVector<int64_t> movedShape(n.imp.typeOf(moved).getShape());
  SmallVector<int64_t> inverse(rank);
  for (auto [i, p] : llvm::enumerate(perm))
    inverse[p] = int64_t(i);
  return n.setResult(n.imp.transpose(n.imp.reshape(sums, movedShape), inverse));
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

} // namespace

void mlir::nnapi::onnx_import::registerIndexingOps(OpRegistry &r) {
  constexpr int64_t lo = kMinONNXOpset, hi = kAnyOpset;
  r.add({
      {"", "GatherElements", lo, hi, importGatherElements,
       "tosa.gather of the flattened data (runtime indices: their flat "
       "positions computed, out-of-range ones clamped)",
       "GATHER (3); MUL, ADD, SELECT for runtime indices", "-"},
      {"", "GatherND", lo, hi, importGatherND,
       "tosa.gather of rows (runtime indices: row numbers computed, "
       "out-of-range ones clamped)",
       "GATHER (3); SLICE, MUL, ADD, SELECT for runtime indices", "-"},
      {"", "ScatterND", lo, hi, importScatterND,
       "concat of data and update rows, tosa.gather (indices must be "
       "compile-time values); reduction add/mul: one gathered layer per "
       "repeated row, combined in update order",
       "CONCATENATION, GATHER (3); ADD, MUL for reductions",
       "runtime indices are refused"},
      {"", "Hardmax", lo, hi, importHardmax,
       "tosa.argmax, equal with a constant iota, select",
       "ARGMAX, EQUAL, SELECT (3)", "non-float"},
      {"", "TopK", lo, hi, importTopK,
       "K rounds of tosa.argmax + reduce_max, the maximum replaced by -inf "
       "each time; concat (K a compile-time value, at most 64)",
       "ARGMAX, REDUCE_MAX, EQUAL, SELECT, CONCATENATION (3)", "non-float"},
      {"", "Trilu", lo, hi, importTrilu,
       "select with a constant mask (a runtime k: greater_equal with a "
       "constant j - i)",
       "SELECT, GREATER_EQUAL (3)", "-"},
      {"", "CumSum", lo, hi, importCumSum,
       "tosa.matmul with a constant triangular matrix",
       "BATCH_MATMUL (6) or FULLY_CONNECTED (1)", "non-float"},
      {"", "Range", lo, hi, importRange,
       "a constant (start, limit and delta must be compile-time values)", "-",
       "-"},
      {"", "Size", lo, hi, importSize, "a constant", "-", "-"},
      {"", "EyeLike", lo, hi, importEyeLike, "a constant", "-", "-"},
  });
}
