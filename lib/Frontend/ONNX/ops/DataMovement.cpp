//===- DataMovement.cpp - Shapes and data movement --------------*- C++ -*-===//
//
// Operators that move elements without computing on them: reshapes,
// Transpose, Expand, Tile, Concat, Split, Slice, Gather, Pad,
// DepthToSpace, SpaceToDepth, Identity and Dropout. Those that consume
// shape vectors fold on the host first (foldAtCompileTime).
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"
#include "../OpRegistry.h"

#include "nnapi-mlir/Transforms/Constants.h"

#include <array>

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::onnx_import;

namespace {

/// Reshape, Flatten, Squeeze, Unsqueeze: to the inferred shape.
LogicalResult importReshape(NodeContext &ctx) {
  if (std::optional<LogicalResult> folded = foldAtCompileTime(ctx))
    return *folded;
  FailureOr<RankedTensorType> t = ctx.out();
  if (failed(t))
    return failure();
  return ctx.setResult(ctx.imp.reshape(ctx.in(0), t->getShape()));
}

LogicalResult importTranspose(NodeContext &ctx) {
  Value x = ctx.in(0);
  int64_t rank = ctx.imp.typeOf(x).getRank();
  Shape perm = ctx.intsAttr("perm").value_or(Shape());
  if (perm.empty())
    for (int64_t i = rank - 1; i >= 0; --i)
      perm.push_back(i);
  if (DenseElementsAttr c = ctx.cst(0))
    return ctx.defineConstant(0, permuteElements(c, perm));
  return ctx.setResult(ctx.imp.transpose(x, perm));
}

LogicalResult importExpand(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  FailureOr<RankedTensorType> t = ctx.out();
  if (failed(t))
    return failure();
  Value x = imp.toRank(ctx.in(0), t->getRank());
  Shape multiples;
  for (int64_t i = 0; i < t->getRank(); ++i) {
    int64_t from = imp.typeOf(x).getDimSize(i), to = t->getDimSize(i);
    if (from == 0)
      return ctx.error() << "zero-size tensors are not supported";
    if (to % from != 0)
      return ctx.error() << "cannot expand dimension " << i << " from " << from
                         << " to " << to;
    multiples.push_back(to / from);
  }
  return ctx.setResult(ctx.b.create<tosa::TileOp>(
      ctx.loc,
      RankedTensorType::get(t->getShape(), imp.typeOf(x).getElementType()), x,
      ctx.b.getDenseI64ArrayAttr(multiples)));
}

LogicalResult importTile(NodeContext &ctx) {
  FailureOr<DenseElementsAttr> repeats = ctx.needConstant(1, "repeats");
  if (failed(repeats))
    return failure();
  FailureOr<RankedTensorType> t = ctx.out();
  if (failed(t))
    return failure();
  return ctx.setResult(ctx.b.create<tosa::TileOp>(
      ctx.loc, *t, ctx.in(0), ctx.b.getDenseI64ArrayAttr(intsOf(*repeats))));
}

LogicalResult importConcat(NodeContext &ctx) {
  if (std::optional<LogicalResult> folded = foldAtCompileTime(ctx))
    return *folded;
  FailureOr<RankedTensorType> t = ctx.out();
  if (failed(t))
    return failure();
  SmallVector<Value> inputs;
  for (int i = 0; i < ctx.node.input_size(); ++i)
    if (ctx.has(i) && ctx.imp.typeOf(ctx.in(i)).getNumElements() > 0)
      inputs.push_back(ctx.in(i));
  if (inputs.empty())
    return ctx.error() << "every input is empty (zero-size tensors are "
                          "not supported)";
  int64_t axis = normalizeAxis(ctx.intAttr("axis", 0), t->getRank());
  return ctx.setResult(
      inputs.size() == 1
          ? inputs[0]
          : Value(ctx.b.create<tosa::ConcatOp>(ctx.loc, *t, inputs,
                                               ctx.b.getI32IntegerAttr(axis))));
}

/// Constants up to this many elements are sliced at compile time (Slice,
/// Split), so that what they give can decide shapes, pads or axes.
constexpr int64_t kMaxFoldedElements = 1 << 16;

/// The elements first[d] + i * step[d], i < type's dimension d, of constant
/// `x` along every axis (steps may be negative), as `type`.
DenseElementsAttr sliceConstant(DenseElementsAttr x, ArrayRef<int64_t> first,
                                ArrayRef<int64_t> step,
                                RankedTensorType type) {
  if (x.isSplat())
    return DenseElementsAttr::get(type, x.getSplatValue<Attribute>());
  auto xt = cast<RankedTensorType>(x.getType());
  int64_t rank = xt.getRank();
  SmallVector<int64_t> strides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * xt.getDimSize(d + 1);
  SmallVector<Attribute> all(x.getValues<Attribute>()), out;
  SmallVector<int64_t> at(rank, 0);
  for (int64_t n = 0; n < type.getNumElements(); ++n) {
    int64_t flat = 0;
    for (int64_t d = 0; d < rank; ++d)
      flat += (first[d] + at[d] * step[d]) * strides[d];
    out.push_back(all[flat]);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++at[d] < type.getDimSize(d))
        break;
      at[d] = 0;
    }
  }
  return DenseElementsAttr::get(type, out);
}

/// Whether input `i` is a constant small enough to slice at compile time.
DenseElementsAttr foldableConstant(NodeContext &ctx, int i) {
  DenseElementsAttr c = ctx.cst(i);
  return c && c.getNumElements() <= kMaxFoldedElements ? c : DenseElementsAttr();
}

LogicalResult importSplit(NodeContext &ctx) {
  Value x;
  DenseElementsAttr constant = foldableConstant(ctx, 0);
  if (!constant)
    x = ctx.in(0);
  auto xt = constant ? cast<RankedTensorType>(constant.getType())
                     : ctx.imp.typeOf(x);
  int64_t rank = xt.getRank();
  int64_t axis = normalizeAxis(ctx.intAttr("axis", 0), rank);
  int64_t offset = 0;
  for (int i = 0; i < ctx.node.output_size(); ++i) {
    FailureOr<RankedTensorType> t = ctx.out(i);
    if (failed(t))
      return failure();
    Shape start(rank, 0);
    start[axis] = offset;
    if (constant) {
      (void)ctx.defineConstant(
          i, sliceConstant(constant, start, SmallVector<int64_t>(rank, 1), *t));
      offset += t->getDimSize(axis);
      continue;
    }
    if (failed(
            ctx.define(i, ctx.b.create<tosa::SliceOp>(
                              ctx.loc, *t, x, ctx.b.getDenseI64ArrayAttr(start),
                              ctx.b.getDenseI64ArrayAttr(t->getShape())))))
      return failure();
    offset += t->getDimSize(axis);
  }
  return success();
}

LogicalResult importSlice(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  OpBuilder &b = ctx.b;
  // A constant is sliced here, with the normalization below (any axes and
  // steps), so that the result can decide a shape, pads or axes.
  DenseElementsAttr constant = foldableConstant(ctx, 0);
  Value x = constant ? Value() : ctx.in(0);
  RankedTensorType xt =
      constant ? cast<RankedTensorType>(constant.getType()) : imp.typeOf(x);
  int64_t rank = xt.getRank();
  FailureOr<DenseElementsAttr> starts = ctx.needConstant(1, "starts");
  FailureOr<DenseElementsAttr> ends = ctx.needConstant(2, "ends");
  if (failed(starts) || failed(ends))
    return failure();
  SmallVector<int64_t> s = intsOf(*starts), e = intsOf(*ends), axes, steps;
  if (ctx.has(3)) {
    FailureOr<DenseElementsAttr> a = ctx.needConstant(3, "axes");
    if (failed(a))
      return failure();
    axes = intsOf(*a);
  } else {
    for (size_t i = 0; i < s.size(); ++i)
      axes.push_back(i);
  }
  if (ctx.has(4)) {
    FailureOr<DenseElementsAttr> st = ctx.needConstant(4, "steps");
    if (failed(st))
      return failure();
    steps = intsOf(*st);
  } else {
    steps.assign(s.size(), 1);
  }
  if (e.size() != s.size() || axes.size() != s.size() ||
      steps.size() != s.size())
    return ctx.error() << "starts, ends, axes and steps differ in length";
  // A negative step reverses its axis first; then one slice from each
  // axis's first element to its last, then every step-th element of the
  // stepped axes (everyNth).
  Shape start(rank, 0), size(xt.getShape());
  SmallVector<std::array<int64_t, 3>> strided; // axis, step, count
  // For a constant: each axis's first element, step and count.
  Shape firsts(rank, 0), signedSteps(rank, 1), counts(xt.getShape());
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] < -rank || axes[i] >= rank)
      return ctx.error() << "axis " << axes[i] << " is out of range for rank "
                         << rank;
    int64_t a = normalizeAxis(axes[i], rank);
    int64_t dim = xt.getDimSize(a), step = steps[i];
    if (step == 0)
      return ctx.error() << "steps must not be 0";
    int64_t first = s[i] < 0 ? s[i] + dim : s[i];
    int64_t last = e[i] < 0 ? e[i] + dim : e[i];
    int64_t count;
    if (step > 0) {
      first = std::clamp<int64_t>(first, 0, dim);
      last = std::clamp<int64_t>(last, 0, dim);
      count = last > first ? (last - first + step - 1) / step : 0;
    } else {
      first = std::clamp<int64_t>(first, 0, dim - 1);
      last = std::clamp<int64_t>(last, -1, dim - 1);
      count = first > last ? (first - last - step - 1) / -step : 0;
    }
    firsts[a] = count ? first : 0;
    signedSteps[a] = step;
    counts[a] = count;
    if (constant)
      continue;
    if (step < 0) {
      // Element `first` of x is element dim - 1 - first of the reversed
      // axis.
      x = b.create<tosa::ReverseOp>(ctx.loc, x.getType(), x,
                                    b.getI32IntegerAttr(a));
      first = dim - 1 - first;
      step = -step;
    }
    start[a] = count ? first : 0;
    size[a] = count ? (count - 1) * step + 1 : 0;
    if (step > 1 && count > 1)
      strided.push_back({a, step, count});
  }
  FailureOr<RankedTensorType> t = ctx.out();
  if (failed(t))
    return failure();
  if (constant)
    return ctx.defineConstant(
        0, sliceConstant(constant, firsts, signedSteps,
                         RankedTensorType::get(counts, xt.getElementType()))
               .reshape(*t));
  Shape range(size);
  Value result = b.create<tosa::SliceOp>(
      ctx.loc, RankedTensorType::get(range, xt.getElementType()), x,
      b.getDenseI64ArrayAttr(start), b.getDenseI64ArrayAttr(size));
  for (auto [a, step, count] : strided)
    result = imp.everyNth(result, a, step, count);
  return ctx.setResult(imp.reshape(result, t->getShape()));
}

LogicalResult importGather(NodeContext &ctx) {
  if (std::optional<LogicalResult> folded = foldAtCompileTime(ctx))
    return *folded;
  Importer &imp = ctx.imp;
  OpBuilder &b = ctx.b;
  Value data = ctx.in(0), indices = ctx.in(1);
  RankedTensorType dt = imp.typeOf(data), it = imp.typeOf(indices);
  int64_t axis = normalizeAxis(ctx.intAttr("axis", 0), dt.getRank());
  int64_t outer = product(dt.getShape().take_front(axis));
  int64_t k = dt.getDimSize(axis);
  int64_t inner = product(dt.getShape().drop_front(axis + 1));
  int64_t w = it.getNumElements();
  Value idx;
  if (DenseElementsAttr c = ctx.cst(1)) {
    SmallVector<int32_t> v;
    for (int64_t i : intsOf(c)) {
      if (i < -k || i >= k)
        return ctx.error() << "index " << i << " is out of range for "
                           << "a dimension of size " << k;
      v.push_back(int32_t(i < 0 ? i + k : i));
    }
    SmallVector<int32_t> tiled;
    for (int64_t o = 0; o < outer; ++o)
      tiled.append(v.begin(), v.end());
    idx = imp.constant(DenseElementsAttr::get(
        RankedTensorType::get({outer, w}, b.getI32Type()),
        ArrayRef<int32_t>(tiled)));
  } else {
    Value flat = imp.normalizeIndices(imp.reshape(indices, {1, w}), k);
    idx = outer == 1
              ? flat
              : b.create<tosa::TileOp>(
                    ctx.loc, RankedTensorType::get({outer, w}, b.getI32Type()),
                    flat, b.getDenseI64ArrayAttr({outer, 1}));
  }
  Value values = imp.reshape(data, {outer, k, inner});
  Value gathered = b.create<tosa::GatherOp>(
      ctx.loc, RankedTensorType::get({outer, w, inner}, dt.getElementType()),
      values, idx);
  FailureOr<RankedTensorType> t = ctx.out();
  if (failed(t))
    return failure();
  return ctx.setResult(imp.reshape(gathered, t->getShape()));
}

LogicalResult importPad(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  OpBuilder &b = ctx.b;
  std::string mode = ctx.stringAttr("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge")
    return ctx.error() << "mode '" << mode << "' is not supported";
  FailureOr<DenseElementsAttr> pads = ctx.needConstant(1, "pads");
  if (failed(pads))
    return failure();
  Value x = ctx.in(0);
  int64_t rank = imp.typeOf(x).getRank();
  SmallVector<int64_t> p = intsOf(*pads);
  if (ctx.has(3))
    return ctx.error() << "the axes input is not supported";
  if (int64_t(p.size()) != 2 * rank)
    return ctx.error() << "pads must have " << 2 * rank << " entries";
  if (llvm::any_of(p, [](int64_t v) { return v < 0; }))
    return ctx.error() << "negative pads are not supported";
  if (mode != "constant") {
    // Axis by axis (as numpy.pad does): concatenate the copied or mirrored
    // border slices around the tensor.
    Value result = x;
    for (int64_t axis = 0; axis < rank; ++axis) {
      int64_t before = p[axis], after = p[axis + rank];
      if (!before && !after)
        continue;
      RankedTensorType t = imp.typeOf(result);
      int64_t n = t.getDimSize(axis);
      if (mode == "reflect" && (before >= n || after >= n))
        return ctx.error() << "reflect padding of " << std::max(before, after)
                           << " needs a dimension larger than " << n;
      auto slice = [&](int64_t start, int64_t size) {
        Shape begin(rank, 0), sizes(t.getShape());
        begin[axis] = start;
        sizes[axis] = size;
        return Value(b.create<tosa::SliceOp>(
            ctx.loc, RankedTensorType::get(sizes, t.getElementType()), result,
            b.getDenseI64ArrayAttr(begin), b.getDenseI64ArrayAttr(sizes)));
      };
      auto border = [&](int64_t start, int64_t count) -> Value {
        if (mode == "edge") {
          Value one = slice(start, 1);
          Shape multiples(rank, 1);
          multiples[axis] = count;
          Shape sizes(t.getShape());
          sizes[axis] = count;
          return b.create<tosa::TileOp>(
              ctx.loc, RankedTensorType::get(sizes, t.getElementType()), one,
              b.getDenseI64ArrayAttr(multiples));
        }
        Value part = slice(start, count);
        return b.create<tosa::ReverseOp>(ctx.loc, part.getType(), part,
                                         b.getI32IntegerAttr(axis));
      };
      SmallVector<Value> pieces;
      if (before)
        pieces.push_back(mode == "edge" ? border(0, before)
                                        : border(1, before));
      pieces.push_back(result);
      if (after)
        pieces.push_back(mode == "edge" ? border(n - 1, after)
                                        : border(n - 1 - after, after));
      Shape sizes(t.getShape());
      sizes[axis] += before + after;
      result = b.create<tosa::ConcatOp>(
          ctx.loc, RankedTensorType::get(sizes, t.getElementType()), pieces,
          b.getI32IntegerAttr(axis));
    }
    return ctx.setResult(result);
  }
  SmallVector<int64_t> tosaPads;
  for (int64_t i = 0; i < rank; ++i) {
    tosaPads.push_back(p[i]);
    tosaPads.push_back(p[i + rank]);
  }
  double value = 0;
  if (ctx.has(2)) {
    FailureOr<DenseElementsAttr> v = ctx.needConstant(2, "the pad value");
    if (failed(v))
      return failure();
    if (v->getNumElements())
      value = floatsOf(*v)[0];
  }
  Value padding = imp.constant(
      DenseElementsAttr::get(RankedTensorType::get({rank, 2}, b.getI64Type()),
                             ArrayRef<int64_t>(tosaPads)));
  Value padConst = imp.splat(imp.typeOf(x).getElementType(), {}, value);
  FailureOr<RankedTensorType> t = ctx.out();
  if (failed(t))
    return failure();
  return ctx.setResult(
      b.create<tosa::PadOp>(ctx.loc, *t, x, padding, padConst));
}

/// DepthToSpace, SpaceToDepth: a rank-6 reshape, transpose, reshape.
LogicalResult importDepthToSpace(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  bool toSpace = ctx.opType() == "DepthToSpace";
  Value x = ctx.in(0);
  RankedTensorType xt = imp.typeOf(x);
  if (xt.getRank() != 4)
    return ctx.error() << "input must have rank 4";
  int64_t n = xt.getDimSize(0), c = xt.getDimSize(1), h = xt.getDimSize(2),
          w = xt.getDimSize(3);
  int64_t bs = ctx.intAttr("blocksize", 0);
  if (bs <= 0)
    return ctx.error() << "blocksize must be positive";
  if (toSpace ? bs > c || c % (bs * bs) != 0
              : bs > h || bs > w || h % bs || w % bs)
    return ctx.error() << "blocksize " << bs << " does not divide the input's "
                       << (toSpace ? "channels" : "height and width");
  FailureOr<RankedTensorType> t = ctx.out();
  if (failed(t))
    return failure();
  Value r;
  if (toSpace) {
    if (ctx.stringAttr("mode", "DCR") == "DCR") {
      r = imp.reshape(x, {n, bs, bs, c / (bs * bs), h, w});
      r = imp.transpose(r, {0, 3, 4, 1, 5, 2});
    } else {
      r = imp.reshape(x, {n, c / (bs * bs), bs, bs, h, w});
      r = imp.transpose(r, {0, 1, 4, 2, 5, 3});
    }
  } else {
    r = imp.reshape(x, {n, c, h / bs, bs, w / bs, bs});
    r = imp.transpose(r, {0, 3, 5, 1, 2, 4});
  }
  return ctx.setResult(imp.reshape(r, t->getShape()));
}

/// Input 0 as output 0, a compile-time value staying one.
LogicalResult forward(NodeContext &ctx) {
  if (DenseElementsAttr c = ctx.cst(0))
    return ctx.defineConstant(0, c);
  return ctx.setResult(ctx.in(0));
}

LogicalResult importIdentity(NodeContext &ctx) {
  if (std::optional<LogicalResult> folded = foldAtCompileTime(ctx))
    return *folded;
  return forward(ctx);
}

LogicalResult importDropout(NodeContext &ctx) {
  if (ctx.node.output_size() > 1 && !ctx.node.output(1).empty()) {
    // Inference keeps every element: the mask is all true.
    FailureOr<RankedTensorType> maskType = ctx.out(1);
    if (failed(maskType))
      return failure();
    (void)ctx.defineConstant(
        1, DenseElementsAttr::get(*maskType, ctx.b.getBoolAttr(true)));
  }
  if (DenseElementsAttr training = ctx.cst(2))
    if (intsOf(training)[0] != 0)
      return ctx.error() << "training_mode=1 is not supported";
  if (ctx.has(2) && !ctx.cst(2))
    return ctx.error() << "training_mode must be a constant";
  return forward(ctx);
}

} // namespace

void mlir::nnapi::onnx_import::registerDataMovementOps(OpRegistry &registry) {
  constexpr int64_t lo = kMinONNXOpset, hi = kAnyOpset;
  registry.add({
      {"", "Reshape", lo, hi, importReshape,
       "tosa.reshape (shape from ONNX shape inference)", "RESHAPE (1)",
       "rank > 4"},
      {"", "Flatten", lo, hi, importReshape, "tosa.reshape", "RESHAPE (1)",
       "rank > 4"},
      {"", "Squeeze", lo, hi, importReshape, "tosa.reshape", "RESHAPE (1)", ""},
      {"", "Unsqueeze", lo, hi, importReshape, "tosa.reshape", "RESHAPE (1)",
       ""},
      {"", "Transpose", lo, hi, importTranspose,
       "tosa.transpose (constants folded)", "TRANSPOSE (2)", "rank > 4"},
      {"", "Expand", lo, hi, importExpand, "tosa.tile", "TILE (3)", "rank > 4"},
      {"", "Tile", lo, hi, importTile, "tosa.tile (constant repeats)",
       "TILE (3)", "non-float"},
      {"", "Concat", lo, hi, importConcat, "tosa.concat", "CONCATENATION (1)",
       "rank > 4"},
      {"", "Split", lo, hi, importSplit, "tosa.slice per output",
       "SPLIT (3) into equal pieces, the split composite; SLICE (3) per "
       "output otherwise",
       "non-float"},
      {"", "Slice", lo, hi, importSlice,
       "tosa.slice of the range (constant starts/ends); per stepped axis "
       "every step-th element (pad, reshape, slice, reshape); tosa.reverse "
       "first for a negative step",
       "SLICE (3); STRIDED_SLICE (2) per stepped axis, the strided_slice "
       "composite; REVERSE (7) for negative steps",
       "non-float"},
      {"", "Gather", lo, hi, importGather,
       "tosa.gather (indices folded when constant; constants folded; "
       "run-time indices wrapped, clamped, cast to int32)",
       "GATHER (3): constant indices, or run-time indices when the "
       "dimensions before the axis are 1 (embedding lookups)",
       "run-time indices with dimensions > 1 before the axis; the int64 "
       "index arithmetic"},
      {"", "Pad", lo, hi, importPad,
       "tosa.pad (constant), slices + reverse/tile + concat (reflect, edge)",
       "PAD (2), PAD_V2 (3) for a non-zero value; MIRROR_PAD (7) for reflect "
       "(the mirror_pad composite); SLICE, TILE, CONCATENATION (3) for edge",
       "non-float"},
      {"", "DepthToSpace", lo, hi, importDepthToSpace,
       "tosa.reshape + tosa.transpose (rank 6)",
       "DEPTH_TO_SPACE in NCHW layout (3), the depth_to_space composite",
       "CRD mode (a rank-6 transpose)"},
      {"", "SpaceToDepth", lo, hi, importDepthToSpace,
       "tosa.reshape + tosa.transpose",
       "SPACE_TO_DEPTH in NCHW layout (3), the space_to_depth composite", "-"},
      {"", "Identity", lo, hi, importIdentity, "forwarded", "-", "n/a"},
      {"", "Dropout", lo, hi, importDropout,
       "identity (mask output: constant true)", "-", "n/a"},
  });
}
