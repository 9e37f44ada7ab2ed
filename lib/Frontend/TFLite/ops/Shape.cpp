//===- Shape.cpp - Reshapes, slices, pads, gathers, resizes -----*- C++ -*-===//
//
// The operators that move data: RESHAPE, SQUEEZE, EXPAND_DIMS, TRANSPOSE,
// CONCATENATION, PACK, UNPACK, SPLIT, SPLIT_V, SLICE, STRIDED_SLICE, PAD,
// PADV2, MIRROR_PAD, TILE, GATHER, DEPTH_TO_SPACE, SPACE_TO_DEPTH,
// SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND, RESIZE_BILINEAR,
// RESIZE_NEAREST_NEIGHBOR and SHAPE. Quantized data goes through its float
// value like everywhere else (nnapi-raise-quantized makes int8 reshapes,
// transposes, concatenations and nearest resizes of it).
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"

#include "../../Common/Windows.h"

#include <numeric>

using namespace mlir;
using namespace mlir::nnapi::tflite_import;

namespace {

/// Input i as data to move: its float value, or integer and bool data as
/// held.
Value data(OpContext &op, int i) {
  Value v = op.in(i);
  if (!v)
    return {};
  Type e = op.imp.typeOf(v).getElementType();
  if (op.quantizedInput(i) || isa<FloatType>(e))
    return op.inFloat(i);
  return v;
}

/// Defines output i from moved data: quantized, narrowed, or as it is.
LogicalResult defineData(OpContext &op, int i, Value v) {
  if (!v)
    return failure();
  if (isa<FloatType>(op.imp.typeOf(v).getElementType()))
    return op.defineFloat(i, v);
  return op.define(i, v);
}


LogicalResult importReshape(OpContext &op) {
  FailureOr<Shape> out = op.outShape();
  Value x = data(op, 0);
  if (!x || failed(out))
    return failure();
  if (op.imp.typeOf(x).getNumElements() != product(*out))
    return op.error() << "an input of " << op.imp.typeOf(x).getNumElements()
                      << " elements cannot become the output's "
                      << product(*out);
  return defineData(op, 0, op.imp.reshape(x, *out));
}

LogicalResult importTranspose(OpContext &op) {
  Value x = data(op, 0);
  FailureOr<SmallVector<int64_t>> perm = op.needInts(1, "the permutation");
  if (!x || failed(perm))
    return failure();
  int64_t rank = op.imp.typeOf(x).getRank();
  SmallVector<int64_t> sorted(*perm);
  llvm::sort(sorted);
  for (int64_t i = 0; i < int64_t(sorted.size()); ++i)
    if (sorted[i] != i || int64_t(sorted.size()) != rank)
      return op.error() << "the permutation is not one of " << rank
                        << " dimensions";
  return defineData(op, 0, op.imp.transpose(x, *perm));
}

LogicalResult importConcatenation(OpContext &op) {
  const auto *o = op.options<tflite::ConcatenationOptions>();
  SmallVector<Value> parts;
  for (int i = 0; i < op.numInputs(); ++i) {
    Value v = data(op, i);
    if (!v)
      return failure();
    parts.push_back(v);
  }
  FailureOr<RankedTensorType> out = op.outType();
  if (parts.empty() || failed(out))
    return op.error() << "nothing to concatenate";
  int64_t rank = op.imp.typeOf(parts[0]).getRank();
  FailureOr<int64_t> axis = axisOf(op, o ? o->axis() : 0, rank);
  if (failed(axis))
    return failure();
  Type element = op.imp.typeOf(parts[0]).getElementType();
  for (Value p : parts)
    if (op.imp.typeOf(p).getElementType() != element ||
        op.imp.typeOf(p).getRank() != rank)
      return op.error() << "the inputs differ in type or rank";
  Value y = op.b.create<tosa::ConcatOp>(
      op.loc, RankedTensorType::get(out->getShape(), element), parts,
      op.b.getI32IntegerAttr(int32_t(*axis)));
  if (isa<FloatType>(element))
    y = op.fused(y, o ? o->fused_activation_function()
                      : tflite::ActivationFunctionType_NONE);
  return defineData(op, 0, y);
}

LogicalResult importPack(OpContext &op) {
  const auto *o = op.options<tflite::PackOptions>();
  FailureOr<RankedTensorType> out = op.outType();
  if (failed(out))
    return failure();
  int64_t rank = out->getRank();
  FailureOr<int64_t> axis = axisOf(op, o ? o->axis() : 0, rank);
  if (failed(axis))
    return failure();
  SmallVector<Value> parts;
  for (int i = 0; i < op.numInputs(); ++i) {
    Value v = data(op, i);
    if (!v)
      return failure();
    Shape shape(op.imp.typeOf(v).getShape());
    if (int64_t(shape.size()) != rank - 1)
      return op.error() << "input " << i << " must have rank " << rank - 1;
    shape.insert(shape.begin() + *axis, 1);
    parts.push_back(op.imp.reshape(v, shape));
  }
  if (parts.empty())
    return op.error() << "nothing to pack";
  Value y = op.b.create<tosa::ConcatOp>(
      op.loc,
      RankedTensorType::get(out->getShape(),
                            op.imp.typeOf(parts[0]).getElementType()),
      parts, op.b.getI32IntegerAttr(int32_t(*axis)));
  return defineData(op, 0, y);
}

/// Splits `x` along `axis` into pieces of `sizes` and defines the outputs.
LogicalResult splitInto(OpContext &op, Value x, int64_t axis,
                        ArrayRef<int64_t> sizes, bool squeeze) {
  RankedTensorType t = op.imp.typeOf(x);
  if (int64_t(sizes.size()) != op.numOutputs())
    return op.error() << sizes.size() << " pieces for " << op.numOutputs()
                      << " outputs";
  int64_t at = 0;
  for (auto [i, size] : llvm::enumerate(sizes)) {
    Shape start(t.getRank(), 0), shape(t.getShape());
    start[axis] = at;
    shape[axis] = size;
    at += size;
    Value piece = op.imp.slice(x, start, shape);
    if (squeeze)
      shape.erase(shape.begin() + axis);
    if (failed(defineData(op, int(i), op.imp.reshape(piece, shape))))
      return failure();
  }
  if (at != t.getDimSize(axis))
    return op.error() << "the pieces cover " << at << " of the "
                      << t.getDimSize(axis) << " entries of axis " << axis;
  return success();
}

LogicalResult importUnpack(OpContext &op) {
  const auto *o = op.options<tflite::UnpackOptions>();
  Value x = data(op, 0);
  if (!x)
    return failure();
  RankedTensorType t = op.imp.typeOf(x);
  FailureOr<int64_t> axis = axisOf(op, o ? o->axis() : 0, t.getRank());
  if (failed(axis))
    return failure();
  SmallVector<int64_t> sizes(t.getDimSize(*axis), 1);
  return splitInto(op, x, *axis, sizes, /*squeeze=*/true);
}

LogicalResult importSplit(OpContext &op) {
  bool v = op.code == tflite::BuiltinOperator_SPLIT_V;
  // SPLIT: (axis, value); SPLIT_V: (value, size_splits, axis).
  int dataIndex = v ? 0 : 1, axisIndex = v ? 2 : 0;
  Value x = data(op, dataIndex);
  FailureOr<SmallVector<int64_t>> axisValue =
      op.needInts(axisIndex, "the axis");
  if (!x || failed(axisValue) || axisValue->size() != 1)
    return failure();
  RankedTensorType t = op.imp.typeOf(x);
  FailureOr<int64_t> axis = axisOf(op, (*axisValue)[0], t.getRank());
  if (failed(axis))
    return failure();
  int64_t size = t.getDimSize(*axis), n = op.numOutputs();
  SmallVector<int64_t> sizes;
  if (v) {
    FailureOr<SmallVector<int64_t>> given = op.needInts(1, "size_splits");
    if (failed(given))
      return failure();
    sizes = *given;
    int64_t known = 0, unknown = -1;
    for (auto [i, s] : llvm::enumerate(sizes)) {
      if (s == -1 && unknown < 0)
        unknown = int64_t(i);
      else if (s < 0)
        return op.error() << "size_splits may hold one -1 and sizes";
      else
        known += s;
    }
    if (unknown >= 0)
      sizes[unknown] = size - known;
  } else {
    if (n == 0 || size % n != 0)
      return op.error() << "axis " << *axis << " of " << size
                        << " entries does not split into " << n << " pieces";
    sizes.assign(n, size / n);
  }
  return splitInto(op, x, *axis, sizes, /*squeeze=*/false);
}

LogicalResult importSlice(OpContext &op) {
  Value x = data(op, 0);
  FailureOr<SmallVector<int64_t>> begin = op.needInts(1, "begin"),
                                  size = op.needInts(2, "size");
  if (!x || failed(begin) || failed(size))
    return failure();
  RankedTensorType t = op.imp.typeOf(x);
  if (int64_t(begin->size()) != t.getRank() ||
      int64_t(size->size()) != t.getRank())
    return op.error() << "begin and size must have " << t.getRank()
                      << " entries";
  Shape start, shape;
  for (int64_t d = 0; d < t.getRank(); ++d) {
    int64_t b = (*begin)[d], s = (*size)[d], n = t.getDimSize(d);
    if (s == -1)
      s = n - b;
    if (b < 0 || s < 0 || b + s > n)
      return op.error() << "the slice of axis " << d << " ([" << b << ", "
                        << b + s << ")) is outside its " << n << " entries";
    start.push_back(b);
    shape.push_back(s);
  }
  return defineData(op, 0, op.imp.slice(x, start, shape));
}

LogicalResult importStridedSlice(OpContext &op) {
  const auto *o = op.options<tflite::StridedSliceOptions>();
  Value x = data(op, 0);
  FailureOr<SmallVector<int64_t>> begin = op.needInts(1, "begin"),
                                  end = op.needInts(2, "end"),
                                  strides = op.needInts(3, "strides");
  FailureOr<Shape> out = op.outShape();
  if (!x || failed(begin) || failed(end) || failed(strides) || failed(out))
    return failure();
  if (o && o->offset())
    return op.error() << "offset slices are not supported";
  int64_t beginMask = o ? o->begin_mask() : 0, endMask = o ? o->end_mask() : 0,
          ellipsisMask = o ? o->ellipsis_mask() : 0,
          newAxisMask = o ? o->new_axis_mask() : 0,
          shrinkMask = o ? o->shrink_axis_mask() : 0;
  size_t n = begin->size();
  if (end->size() != n || strides->size() != n)
    return op.error() << "begin, end and strides differ in length";
  RankedTensorType t = op.imp.typeOf(x);
  int64_t rank = t.getRank();
  // Expand the sparse spec (TensorFlow's): the ellipsis covers the axes no
  // other entry names; new axes name none.
  int64_t named = 0;
  for (size_t i = 0; i < n; ++i)
    if (!(newAxisMask & (1 << i)) && !(ellipsisMask & (1 << i)))
      ++named;
  struct Axis {
    int64_t begin, end, stride;
    bool beginAll, endAll, shrink;
  };
  std::vector<Axis> axes;
  for (size_t i = 0; i < n && int64_t(axes.size()) <= rank; ++i) {
    if (ellipsisMask & (1 << i)) {
      for (int64_t k = 0; k < rank - named; ++k)
        axes.push_back({0, 0, 1, true, true, false});
      continue;
    }
    if (newAxisMask & (1 << i))
      continue; // a unit dimension of the output only
    axes.push_back({(*begin)[i], (*end)[i], (*strides)[i],
                    bool(beginMask & (1 << i)), bool(endMask & (1 << i)),
                    bool(shrinkMask & (1 << i))});
  }
  while (int64_t(axes.size()) < rank)
    axes.push_back({0, 0, 1, true, true, false});
  if (int64_t(axes.size()) != rank)
    return op.error() << "the slice names more axes than the input's "
                      << rank;
  Value y = x;
  for (int64_t d = 0; d < rank; ++d) {
    Axis a = axes[d];
    int64_t size = t.getDimSize(d);
    if (a.stride == 0)
      return op.error() << "stride 0 on axis " << d;
    int64_t first, count;
    if (a.shrink) {
      first = a.begin < 0 ? a.begin + size : a.begin;
      if (first < 0 || first >= size)
        return op.error() << "index " << a.begin << " is out of range for "
                          << "axis " << d << " of " << size;
      count = 1;
      a.stride = 1;
    } else {
      auto clampTo = [&](int64_t v, bool forward) {
        if (v < 0)
          v += size;
        return forward ? std::clamp<int64_t>(v, 0, size)
                       : std::clamp<int64_t>(v, -1, size - 1);
      };
      bool forward = a.stride > 0;
      int64_t lo = a.beginAll ? (forward ? 0 : size - 1)
                              : clampTo(a.begin, forward);
      int64_t hi = a.endAll ? (forward ? size : -1) : clampTo(a.end, forward);
      int64_t span = forward ? hi - lo : lo - hi;
      int64_t step = forward ? a.stride : -a.stride;
      count = span <= 0 ? 0 : (span + step - 1) / step;
      first = lo;
    }
    if (count == 0)
      return op.error() << "slices with no entries are not supported";
    RankedTensorType cur = op.imp.typeOf(y);
    Shape start(cur.getRank(), 0), shape(cur.getShape());
    if (a.stride > 0) {
      start[d] = first;
      shape[d] = (count - 1) * a.stride + 1;
      y = op.imp.slice(y, start, shape);
      if (a.stride > 1)
        y = op.imp.everyNth(y, d, a.stride, count);
    } else {
      // Backwards: the covered block, reversed, then every step-th.
      int64_t step = -a.stride, lastIndex = first - (count - 1) * step;
      start[d] = lastIndex;
      shape[d] = first - lastIndex + 1;
      y = op.imp.slice(y, start, shape);
      y = op.b.create<tosa::ReverseOp>(op.loc, y.getType(), y,
                                       op.b.getI32IntegerAttr(int32_t(d)));
      if (step > 1)
        y = op.imp.everyNth(y, d, step, count);
    }
  }
  return defineData(op, 0, op.imp.reshape(y, *out));
}

/// Paddings input `i`: [rank, 2] (before, after) per axis.
FailureOr<SmallVector<int64_t>> paddings(OpContext &op, int i, int64_t rank) {
  FailureOr<SmallVector<int64_t>> p = op.needInts(i, "the paddings");
  if (failed(p))
    return failure();
  if (int64_t(p->size()) != 2 * rank)
    return op.error() << "the paddings must be [" << rank << ", 2]";
  for (int64_t v : *p)
    if (v < 0)
      return op.error() << "negative paddings are not supported";
  return p;
}

LogicalResult importPad(OpContext &op) {
  Value x = data(op, 0);
  FailureOr<RankedTensorType> out = op.outType();
  if (!x || failed(out))
    return failure();
  RankedTensorType t = op.imp.typeOf(x);
  FailureOr<SmallVector<int64_t>> p = paddings(op, 1, t.getRank());
  if (failed(p))
    return failure();
  double value = 0;
  if (op.code == tflite::BuiltinOperator_PADV2 && op.has(2)) {
    FailureOr<DenseElementsAttr> c = op.needConstant(2, "the pad value");
    if (failed(c) || c->getNumElements() != 1)
      return op.error() << "the pad value must be one constant";
    if (op.quantizedInput(2)) {
      // Its real value.
      FailureOr<std::optional<QuantParams>> q = op.imp.quantOf(
          op.inputTensor(2), op.imp.tensorName(op.inputIndex(2)));
      if (failed(q))
        return failure();
      value = ((*q)->scales[0]) *
              double(intsOf(*c)[0] - (*q)->zeroPoints[0]);
    } else {
      value = floatsOf(*c)[0];
    }
  }
  Shape shape;
  for (int64_t d = 0; d < t.getRank(); ++d)
    shape.push_back(t.getDimSize(d) + (*p)[2 * d] + (*p)[2 * d + 1]);
  Value y = op.b.create<tosa::PadOp>(
      op.loc, RankedTensorType::get(shape, t.getElementType()), x,
      op.imp.constant(DenseElementsAttr::get(
          RankedTensorType::get({t.getRank(), 2}, op.b.getI64Type()),
          ArrayRef<int64_t>(*p))),
      op.imp.splat(t.getElementType(), {}, value));
  return defineData(op, 0, y);
}

LogicalResult importMirrorPad(OpContext &op) {
  const auto *o = op.options<tflite::MirrorPadOptions>();
  bool reflect = !o || o->mode() == tflite::MirrorPadMode_REFLECT;
  Value x = data(op, 0);
  if (!x)
    return failure();
  RankedTensorType t = op.imp.typeOf(x);
  FailureOr<SmallVector<int64_t>> p = paddings(op, 1, t.getRank());
  if (failed(p))
    return failure();
  Value y = x;
  for (int64_t d = 0; d < t.getRank(); ++d) {
    int64_t before = (*p)[2 * d], after = (*p)[2 * d + 1];
    if (!before && !after)
      continue;
    RankedTensorType cur = op.imp.typeOf(y);
    int64_t n = cur.getDimSize(d);
    int64_t skip = reflect ? 1 : 0;
    if (before + skip > n || after + skip > n)
      return op.error() << "paddings of " << before << " and " << after
                        << " are more than axis " << d << "'s " << n
                        << " entries allow";
    auto reversedBlock = [&](int64_t start, int64_t count) {
      Shape s(cur.getRank(), 0), shape(cur.getShape());
      s[d] = start;
      shape[d] = count;
      Value block = op.imp.slice(y, s, shape);
      return op.b
          .create<tosa::ReverseOp>(op.loc, block.getType(), block,
                                   op.b.getI32IntegerAttr(int32_t(d)))
          .getResult();
    };
    SmallVector<Value> parts;
    if (before)
      parts.push_back(reversedBlock(skip, before));
    parts.push_back(y);
    if (after)
      parts.push_back(reversedBlock(n - skip - after, after));
    Shape shape(cur.getShape());
    shape[d] = n + before + after;
    y = op.b.create<tosa::ConcatOp>(
        op.loc, RankedTensorType::get(shape, cur.getElementType()), parts,
        op.b.getI32IntegerAttr(int32_t(d)));
  }
  return defineData(op, 0, y);
}

LogicalResult importTile(OpContext &op) {
  Value x = data(op, 0);
  FailureOr<SmallVector<int64_t>> m = op.needInts(1, "the multiples");
  FailureOr<RankedTensorType> out = op.outType();
  if (!x || failed(m) || failed(out))
    return failure();
  RankedTensorType t = op.imp.typeOf(x);
  if (int64_t(m->size()) != t.getRank())
    return op.error() << "the multiples must have " << t.getRank()
                      << " entries";
  Value y = op.b.create<tosa::TileOp>(
      op.loc, RankedTensorType::get(out->getShape(), t.getElementType()), x,
      op.b.getDenseI64ArrayAttr(*m));
  return defineData(op, 0, y);
}

LogicalResult importGather(OpContext &op) {
  const auto *o = op.options<tflite::GatherOptions>();
  if (o && o->batch_dims() != 0)
    return op.error() << "batch_dims " << o->batch_dims()
                      << " is not supported";
  Value x = data(op, 0);
  FailureOr<Shape> out = op.outShape();
  if (!x || failed(out))
    return failure();
  Emitter &e = op.imp;
  RankedTensorType t = e.typeOf(x);
  FailureOr<int64_t> axis = axisOf(op, o ? o->axis() : 0, t.getRank());
  if (failed(axis))
    return failure();
  int64_t outer = product(t.getShape().take_front(*axis)),
          k = t.getDimSize(*axis),
          inner = product(t.getShape().drop_front(*axis + 1));
  if (k == 0)
    return op.error() << "gathering from an empty axis";
  Value indices;
  int64_t count;
  if (DenseElementsAttr c = op.cst(1)) {
    if (!isa<IntegerType>(c.getElementType()))
      return op.error() << "the indices must be integers";
    SmallVector<int32_t> rows;
    for (int64_t v : intsOf(c)) {
      // TensorFlow Lite refuses negative indices (no wrapping), so do we.
      if (v < 0 || v >= k)
        return op.error() << "index " << v << " is out of range [0, " << k
                          << ")";
      rows.push_back(int32_t(v));
    }
    count = int64_t(rows.size());
    indices = e.constant(DenseElementsAttr::get(
        RankedTensorType::get({1, count}, op.b.getI32Type()),
        ArrayRef<int32_t>(rows)));
  } else {
    Value v = op.in(1);
    if (!v)
      return op.error() << "input 1 is omitted, where the operator needs it";
    count = e.typeOf(v).getNumElements();
    indices = e.reshape(e.normalizeIndices(v, k), {1, count});
  }
  if (outer > 1)
    indices = op.b.create<tosa::TileOp>(
        op.loc, RankedTensorType::get({outer, count}, op.b.getI32Type()),
        indices, op.b.getDenseI64ArrayAttr({outer, 1}));
  Value y = op.b.create<tosa::GatherOp>(
      op.loc, RankedTensorType::get({outer, count, inner}, t.getElementType()),
      e.reshape(x, {outer, k, inner}), indices);
  return defineData(op, 0, e.reshape(y, *out));
}

LogicalResult importDepthSpace(OpContext &op) {
  bool toSpace = op.code == tflite::BuiltinOperator_DEPTH_TO_SPACE;
  int64_t block = 0;
  if (toSpace) {
    if (const auto *o = op.options<tflite::DepthToSpaceOptions>())
      block = o->block_size();
  } else if (const auto *o = op.options<tflite::SpaceToDepthOptions>()) {
    block = o->block_size();
  }
  Value x = data(op, 0);
  FailureOr<Shape> out = op.outShape();
  if (!x || failed(out))
    return failure();
  RankedTensorType t = op.imp.typeOf(x);
  if (t.getRank() != 4 || block < 1)
    return op.error() << "the input must be NHWC and the block size 1 or more";
  int64_t n = t.getDimSize(0), h = t.getDimSize(1), w = t.getDimSize(2),
          c = t.getDimSize(3);
  Emitter &e = op.imp;
  Value y;
  if (toSpace) {
    if (c % (block * block) != 0)
      return op.error() << c << " channels do not split into blocks of "
                        << block * block;
    int64_t oc = c / (block * block);
    y = e.reshape(x, {n, h, w, block, block, oc});
    y = e.transpose(y, {0, 1, 3, 2, 4, 5});
    y = e.reshape(y, {n, h * block, w * block, oc});
  } else {
    if (h % block != 0 || w % block != 0)
      return op.error() << h << "x" << w << " is not a multiple of the block "
                        << block;
    y = e.reshape(x, {n, h / block, block, w / block, block, c});
    y = e.transpose(y, {0, 1, 3, 2, 4, 5});
    y = e.reshape(y, {n, h / block, w / block, block * block * c});
  }
  return defineData(op, 0, y);
}

LogicalResult importSpaceBatch(OpContext &op) {
  bool toBatch = op.code == tflite::BuiltinOperator_SPACE_TO_BATCH_ND;
  Value x = data(op, 0);
  FailureOr<SmallVector<int64_t>> block = op.needInts(1, "the block shape");
  FailureOr<Shape> out = op.outShape();
  if (!x || failed(block) || failed(out))
    return failure();
  RankedTensorType t = op.imp.typeOf(x);
  if (t.getRank() != 4 || block->size() != 2 || (*block)[0] < 1 ||
      (*block)[1] < 1)
    return op.error() << "only NHWC data with a 2-D block is supported";
  FailureOr<SmallVector<int64_t>> p = op.needInts(2, toBatch ? "the paddings"
                                                          : "the crops");
  if (failed(p) || p->size() != 4)
    return op.error() << "paddings and crops must be [2, 2]";
  Emitter &e = op.imp;
  int64_t bh = (*block)[0], bw = (*block)[1];
  int64_t n = t.getDimSize(0), h = t.getDimSize(1), w = t.getDimSize(2),
          c = t.getDimSize(3);
  Value y;
  if (toBatch) {
    int64_t ph = h + (*p)[0] + (*p)[1], pw = w + (*p)[2] + (*p)[3];
    if (ph % bh || pw % bw)
      return op.error() << "the padded size is not a multiple of the block";
    SmallVector<int64_t> pads = {0, 0, (*p)[0], (*p)[1], (*p)[2], (*p)[3], 0, 0};
    y = op.b.create<tosa::PadOp>(
        op.loc, RankedTensorType::get({n, ph, pw, c}, t.getElementType()), x,
        e.constant(DenseElementsAttr::get(
            RankedTensorType::get({4, 2}, op.b.getI64Type()),
            ArrayRef<int64_t>(pads))),
        e.splat(t.getElementType(), {}, 0));
    y = e.reshape(y, {n, ph / bh, bh, pw / bw, bw, c});
    y = e.transpose(y, {2, 4, 0, 1, 3, 5});
    y = e.reshape(y, {bh * bw * n, ph / bh, pw / bw, c});
  } else {
    if (n % (bh * bw))
      return op.error() << "the batch is not a multiple of the block";
    int64_t on = n / (bh * bw);
    y = e.reshape(x, {bh, bw, on, h, w, c});
    y = e.transpose(y, {2, 3, 0, 4, 1, 5});
    y = e.reshape(y, {on, h * bh, w * bw, c});
    int64_t ch = h * bh - (*p)[0] - (*p)[1], cw = w * bw - (*p)[2] - (*p)[3];
    if (ch <= 0 || cw <= 0)
      return op.error() << "the crops remove everything";
    y = e.slice(y, {0, (*p)[0], (*p)[2], 0}, {on, ch, cw, c});
  }
  return defineData(op, 0, y);
}

LogicalResult importResize(OpContext &op) {
  bool nearest = op.code == tflite::BuiltinOperator_RESIZE_NEAREST_NEIGHBOR;
  bool alignCorners = false, halfPixel = false;
  if (nearest) {
    if (const auto *o = op.options<tflite::ResizeNearestNeighborOptions>()) {
      alignCorners = o->align_corners();
      halfPixel = o->half_pixel_centers();
    }
  } else if (const auto *o = op.options<tflite::ResizeBilinearOptions>()) {
    alignCorners = o->align_corners();
    halfPixel = o->half_pixel_centers();
  }
  if (alignCorners && halfPixel)
    return op.error() << "align_corners and half_pixel_centers together are "
                         "not supported";
  Value x = op.inFloat(0);
  FailureOr<SmallVector<int64_t>> size = op.needInts(1, "the size");
  FailureOr<Shape> out = op.outShape();
  if (!x || failed(size) || failed(out))
    return failure();
  RankedTensorType t = op.imp.typeOf(x);
  if (t.getRank() != 4 || size->size() != 2 || (*size)[0] != (*out)[1] ||
      (*size)[1] != (*out)[2])
    return op.error() << "the input must be NHWC and the size the output's";
  // TFLite's sampling in ONNX's terms: align_corners samples the corners;
  // half_pixel_centers is half_pixel for bilinear and TF's nearest offset
  // (o + 0.5) * scale, floored; neither samples o * scale (floored for
  // nearest). Nearest with aligned corners rounds half away from zero.
  Sampling s;
  s.mode = nearest ? "nearest" : "linear";
  s.coord = alignCorners ? "align_corners"
            : halfPixel  ? (nearest ? "tf_half_pixel_for_nn" : "half_pixel")
                         : "asymmetric";
  s.nearestMode = alignCorners ? "round_prefer_ceil" : "floor";
  std::string why;
  FailureOr<Value> y =
      resizeNHWC(op.imp, x, (*size)[0], (*size)[1], s, {}, why);
  if (failed(y))
    return op.error() << why;
  return op.defineFloat(0, *y);
}

LogicalResult importShape(OpContext &op) {
  Value x = op.in(0);
  FailureOr<RankedTensorType> out = op.outType();
  if (!x || failed(out))
    return failure();
  SmallVector<double> dims;
  for (int64_t d : op.imp.typeOf(x).getShape())
    dims.push_back(double(d));
  return op.defineConstant(0, denseOf(*out, dims));
}

} // namespace

void mlir::nnapi::tflite_import::registerShapeOps(OpRegistry &registry) {
  registry.add({
      {tflite::BuiltinOperator_RESHAPE, "", 1, 1, importReshape,
       "tosa.reshape (to the output tensor's shape)", "RESHAPE (1)", "-"},
      {tflite::BuiltinOperator_SQUEEZE, "", 1, 2, importReshape,
       "tosa.reshape", "RESHAPE (1)", "-"},
      {tflite::BuiltinOperator_EXPAND_DIMS, "", 1, 2, importReshape,
       "tosa.reshape", "RESHAPE (1)", "-"},
      {tflite::BuiltinOperator_TRANSPOSE, "", 1, 6, importTranspose,
       "tosa.transpose", "TRANSPOSE (2)", "-"},
      {tflite::BuiltinOperator_CONCATENATION, "", 1, 4, importConcatenation,
       "tosa.concat, fused activation a clamp", "CONCATENATION (1)", "-"},
      {tflite::BuiltinOperator_PACK, "", 1, 4, importPack,
       "tosa.reshape + tosa.concat", "CONCATENATION (1)", "-"},
      {tflite::BuiltinOperator_UNPACK, "", 1, 4, importUnpack,
       "tosa.slice per output", "SLICE (3)", "-"},
      {tflite::BuiltinOperator_SPLIT, "", 1, 4, importSplit,
       "tosa.slice per output (the split composite)", "SPLIT (3)", "-"},
      {tflite::BuiltinOperator_SPLIT_V, "", 1, 2, importSplit,
       "tosa.slice per output", "SPLIT (3) when equal, else SLICE (3)", "-"},
      {tflite::BuiltinOperator_SLICE, "", 1, 6, importSlice, "tosa.slice",
       "SLICE (3)", "-"},
      {tflite::BuiltinOperator_STRIDED_SLICE, "", 1, 8, importStridedSlice,
       "tosa.slice, tosa.reverse for negative strides, every-n-th (pad, "
       "reshape, slice); every mask",
       "STRIDED_SLICE (2)", "offset slices are refused"},
      {tflite::BuiltinOperator_PAD, "", 1, 4, importPad, "tosa.pad",
       "PAD (2)", "-"},
      {tflite::BuiltinOperator_PADV2, "", 1, 4, importPad,
       "tosa.pad with the value given", "PAD_V2 (3)", "-"},
      {tflite::BuiltinOperator_MIRROR_PAD, "", 1, 3, importMirrorPad,
       "slices, tosa.reverse, tosa.concat", "MIRROR_PAD (7)", "-"},
      {tflite::BuiltinOperator_TILE, "", 1, 3, importTile, "tosa.tile",
       "TILE (3)", "-"},
      {tflite::BuiltinOperator_GATHER, "", 1, 7, importGather,
       "tosa.gather on [outer, K, inner]", "GATHER (3)",
       "batch_dims other than 0"},
      {tflite::BuiltinOperator_DEPTH_TO_SPACE, "", 1, 2, importDepthSpace,
       "reshape, transpose, reshape", "DEPTH_TO_SPACE (1)", "-"},
      {tflite::BuiltinOperator_SPACE_TO_DEPTH, "", 1, 2, importDepthSpace,
       "reshape, transpose, reshape", "SPACE_TO_DEPTH (1)", "-"},
      {tflite::BuiltinOperator_SPACE_TO_BATCH_ND, "", 1, 4, importSpaceBatch,
       "pad, reshape, transpose, reshape", "SPACE_TO_BATCH_ND (2)", "-"},
      {tflite::BuiltinOperator_BATCH_TO_SPACE_ND, "", 1, 4, importSpaceBatch,
       "reshape, transpose, reshape, slice", "BATCH_TO_SPACE_ND (2)", "-"},
      {tflite::BuiltinOperator_RESIZE_BILINEAR, "", 1, 4, importResize,
       "tosa.resize (align_corners, half_pixel_centers as ONNX's "
       "coordinate modes)",
       "RESIZE_BILINEAR (1); half-pixel or aligned corners 4", "-"},
      {tflite::BuiltinOperator_RESIZE_NEAREST_NEIGHBOR, "", 1, 4,
       importResize, "tosa.resize (nearest, offsets for TF's rounding)",
       "RESIZE_NEAREST_NEIGHBOR (3); half-pixel or aligned corners 4", "-"},
      {tflite::BuiltinOperator_SHAPE, "", 1, 1, importShape, "a constant",
       "-", "-"},
  });
}
