//===- ConvPool.cpp - Convolutions and pools --------------------*- C++ -*-===//
//
// Conv, ConvTranspose, MaxPool and AveragePool as the NHWC TOSA window ops
// between transposes (1-D windows lifted to 2-D), and the global pools.
// Padding is made explicit: auto_pad resolved, ceil_mode and strides that
// do not fit the input turned into end padding.
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"
#include "../OpRegistry.h"

#include "../../Common/Windows.h"

#include "nnapi-mlir/Transforms/Constants.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::onnx_import;

namespace {

/// Conv, ConvTranspose, MaxPool, AveragePool.
/// A pool TOSA's 2-D pools cannot express (3-D windows, dilations) as the
/// maximum or mean of strided slices of the padded input: one pass per
/// spatial axis (maximum and sum are separable), or, for MaxPool's indices,
/// one slice per kernel position (the window's elements for every output at
/// once). Runs on the
/// host, or as NNAPI SLICE/MAXIMUM/ADD where a partition takes them. The
/// mean divides by a compile-time count per output (positions inside the
/// input, or inside input and pads with count_include_pad).
LogicalResult slicedPool(NodeContext &ctx, ArrayRef<int64_t> kernel,
                         ArrayRef<int64_t> stride, ArrayRef<int64_t> dilation,
                         ArrayRef<int64_t> pads, ArrayRef<int64_t> outDims,
                         bool countIncludePad) {
  constexpr int64_t kMaxWindow = 343; // 7 x 7 x 7
  Importer &imp = ctx.imp;
  OpBuilder &b = ctx.b;
  bool isMax = ctx.opType() == "MaxPool";
  bool isLp = ctx.opType() == "LpPool";
  bool withIndices = isMax && ctx.node.output_size() > 1;
  int64_t p = ctx.intAttr("p", 2);
  if (isLp && p < 1)
    return ctx.error() << "p must be 1 or more, got " << p;
  Value x = ctx.in(0);
  RankedTensorType xt = imp.typeOf(x);
  Type f = xt.getElementType();
  int64_t spatial = xt.getRank() - 2;
  int64_t window = product(kernel);
  if (withIndices && window > kMaxWindow)
    return ctx.error() << "a window of " << window << " elements is too large "
                       << "for a 3-D or dilated MaxPool with indices (at most "
                       << kMaxWindow << ")";
  // Pad so that every window position of every output is inside.
  Shape padded(xt.getShape()), padList(2 * xt.getRank(), 0);
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t need =
        (outDims[i] - 1) * stride[i] + (kernel[i] - 1) * dilation[i] + 1;
    int64_t begin = pads[i];
    int64_t end = std::max<int64_t>(need - begin - xt.getDimSize(2 + i), 0);
    padList[2 * (2 + i)] = begin;
    padList[2 * (2 + i) + 1] = end;
    padded[2 + i] += begin + end;
  }
  // LpPool sums |x|^p.
  if (isLp)
    x = p == 1   ? imp.unary("tosa.abs", x)
        : p == 2 ? imp.mul(x, x)
                 : imp.binary<tosa::PowOp>(imp.unary("tosa.abs", x),
                                           imp.scalarLike(x, double(p)));
  if (llvm::any_of(padList, [](int64_t q) { return q != 0; }))
    x = b.create<tosa::PadOp>(
        ctx.loc, RankedTensorType::get(padded, f), x,
        imp.constant(DenseElementsAttr::get(
            RankedTensorType::get({xt.getRank(), 2}, b.getI64Type()),
            ArrayRef<int64_t>(padList))),
        imp.splat(f, {},
                  !isMax ? 0.0
                  : isa<FloatType>(f)
                      ? -INFINITY
                      : -std::ldexp(1.0, int(f.getIntOrFloatBitWidth()) - 1)));
  Value acc, bestIndex;
  if (!withIndices) {
    // The maximum and the sum over a box are separable: one pass per
    // spatial axis, each the maximum or sum of kernel[i] strided slices
    // along that axis, so a window costs the sum of its sides in slices,
    // not their product, and any window size imports.
    acc = x;
    Shape current(padded);
    for (int64_t i = 0; i < spatial; ++i) {
      Shape size(current);
      size[2 + i] = (outDims[i] - 1) * stride[i] + 1;
      Value along;
      for (int64_t t = 0; t < kernel[i]; ++t) {
        Shape start(xt.getRank(), 0);
        start[2 + i] = t * dilation[i];
        Value part = b.create<tosa::SliceOp>(
            ctx.loc, RankedTensorType::get(size, f), acc,
            b.getDenseI64ArrayAttr(start), b.getDenseI64ArrayAttr(size));
        if (stride[i] > 1)
          part = imp.everyNth(part, 2 + i, stride[i], outDims[i]);
        along = !along  ? part
                : isMax ? imp.binary<tosa::MaximumOp>(along, part)
                        : imp.binary<tosa::AddOp>(along, part);
      }
      acc = along;
      current[2 + i] = outDims[i];
    }
    window = 0; // The loop below is the one with indices.
  }
  SmallVector<int64_t> offset(spatial, 0);
  for (int64_t k = 0; k < window; ++k) {
    int64_t rest = k;
    for (int64_t i = spatial - 1; i >= 0; --i) {
      offset[i] = rest % kernel[i];
      rest /= kernel[i];
    }
    Shape start(xt.getRank(), 0), size(padded);
    for (int64_t i = 0; i < spatial; ++i) {
      start[2 + i] = offset[i] * dilation[i];
      size[2 + i] = (outDims[i] - 1) * stride[i] + 1;
    }
    Value part = b.create<tosa::SliceOp>(
        ctx.loc, RankedTensorType::get(size, f), x,
        b.getDenseI64ArrayAttr(start), b.getDenseI64ArrayAttr(size));
    for (int64_t i = 0; i < spatial; ++i)
      if (stride[i] > 1)
        part = imp.everyNth(part, 2 + i, stride[i], outDims[i]);
    if (withIndices) {
      // Where this kernel position reads from in its plane (h * W + w;
      // plane offsets added at the end), taken where it beats the best so
      // far: strictly greater, so the first maximum wins.
      SmallVector<int64_t> where;
      for (int64_t o = 0; o < product(outDims); ++o) {
        int64_t rest = o, flat = 0;
        SmallVector<int64_t> at(spatial);
        for (int64_t i = spatial - 1; i >= 0; --i) {
          at[i] = rest % outDims[i];
          rest /= outDims[i];
        }
        // Row-major within the plane, or column-major for storage_order 1.
        bool columnMajor = ctx.intAttr("storage_order", 0) != 0;
        for (int64_t k = 0; k < spatial; ++k) {
          int64_t i = columnMajor ? spatial - 1 - k : k;
          flat = flat * xt.getDimSize(2 + i) + at[i] * stride[i] - pads[i] +
                 offset[i] * dilation[i];
        }
        where.push_back(flat);
      }
      Shape whereShape(2, 1);
      whereShape.append(outDims.begin(), outDims.end());
      Value here = imp.constant(DenseElementsAttr::get(
          RankedTensorType::get(whereShape, b.getI64Type()),
          ArrayRef<int64_t>(where)));
      bestIndex = !acc ? here
                       : select(ctx, compare<tosa::GreaterOp>(ctx, part, acc),
                                here, bestIndex);
    }
    acc = !acc    ? part
          : isMax ? imp.binary<tosa::MaximumOp>(acc, part)
                  : imp.binary<tosa::AddOp>(acc, part);
  }
  if (isLp)
    return ctx.setResult(p == 1
                             ? acc
                             : imp.binary<tosa::PowOp>(
                                   acc, imp.scalarLike(acc, 1.0 / double(p))));
  if (withIndices) {
    if (failed(ctx.define(0, acc)))
      return failure();
    // Plane offsets: (n * C + c) * (the plane's size).
    int64_t planes = xt.getDimSize(0) * xt.getDimSize(1);
    int64_t planeSize = product(xt.getShape().drop_front(2));
    SmallVector<int64_t> base;
    for (int64_t q = 0; q < planes; ++q)
      base.push_back(q * planeSize);
    Shape baseShape = {xt.getDimSize(0), xt.getDimSize(1)};
    baseShape.append(spatial, 1);
    Value planeBase = imp.constant(
        DenseElementsAttr::get(RankedTensorType::get(baseShape, b.getI64Type()),
                               ArrayRef<int64_t>(base)));
    return ctx.define(1, imp.binary<tosa::AddOp>(bestIndex, planeBase));
  }
  if (!isMax) {
    // How many window positions each output averages over.
    Shape countShape(2, 1);
    countShape.append(outDims.begin(), outDims.end());
    int64_t outputs = product(outDims);
    SmallVector<double> scale;
    for (int64_t o = 0; o < outputs; ++o) {
      SmallVector<int64_t> at(spatial);
      int64_t rest = o;
      for (int64_t i = spatial - 1; i >= 0; --i) {
        at[i] = rest % outDims[i];
        rest /= outDims[i];
      }
      int64_t count = 1;
      for (int64_t i = 0; i < spatial; ++i) {
        int64_t lo = countIncludePad ? -pads[i] : 0;
        int64_t hi =
            xt.getDimSize(2 + i) + (countIncludePad ? pads[i + spatial] : 0);
        int64_t inside = 0;
        for (int64_t t = 0; t < kernel[i]; ++t) {
          int64_t pos = at[i] * stride[i] - pads[i] + t * dilation[i];
          inside += pos >= lo && pos < hi;
        }
        count *= inside;
      }
      scale.push_back(count ? 1.0 / double(count) : 0.0);
    }
    Value counts = imp.constant(
        denseOf(RankedTensorType::get(countShape, f), scale));
    acc = imp.mul(acc, counts);
  }
  return ctx.setResult(acc);
}

/// A 3-D transposed convolution as the convolution it is: the input with
/// stride - 1 zeros between elements, padded by the dilated kernel's extent
/// less ONNX's pads (cropped where that is negative; output_padding extends
/// the end), convolved with stride 1 by the kernel flipped in space and its
/// channel axes swapped. Host only (NNAPI has no 3-D windows); groups of 1.
LogicalResult importConvTranspose3D(NodeContext &ctx, Value w,
                                    ArrayRef<int64_t> kernel,
                                    ArrayRef<int64_t> stride,
                                    ArrayRef<int64_t> dilation,
                                    ArrayRef<int64_t> pads,
                                    ArrayRef<int64_t> outputPadding,
                                    RankedTensorType outType) {
  Importer &imp = ctx.imp;
  OpBuilder &b = ctx.b;
  if (ctx.intAttr("group", 1) != 1)
    return ctx.error() << "group other than 1 is not supported";
  Value x = ctx.in(0);
  Type f = imp.typeOf(x).getElementType();
  int64_t oc = outType.getDimSize(1);
  if (imp.typeOf(x).getDimSize(1) == 0 || oc == 0)
    return ctx.error() << "zero-size channel dimensions are not supported";
  // NDHWC; then per spatial axis (1..3): zeros between the elements, and
  // the pads (or crops) on both sides.
  Value u = imp.transpose(x, {0, 2, 3, 4, 1});
  for (int64_t i = 0; i < 3; ++i) {
    int64_t axis = 1 + i;
    Shape shape(imp.typeOf(u).getShape());
    int64_t n = shape[axis];
    if (stride[i] > 1) {
      Shape split(shape);
      split.insert(split.begin() + axis + 1, 1);
      Shape spread(split);
      spread[axis + 1] = stride[i];
      SmallVector<int64_t> padding(2 * split.size(), 0);
      padding[2 * (axis + 1) + 1] = stride[i] - 1;
      u = b.create<tosa::PadOp>(
          ctx.loc, RankedTensorType::get(spread, f), imp.reshape(u, split),
          imp.constant(DenseElementsAttr::get(
              RankedTensorType::get({int64_t(split.size()), 2},
                                    b.getI64Type()),
              ArrayRef<int64_t>(padding))),
          imp.splat(f, {}, 0));
      Shape merged(shape);
      merged[axis] = n * stride[i];
      u = imp.reshape(u, merged);
      Shape start(shape.size(), 0), size(merged);
      size[axis] = (n - 1) * stride[i] + 1;
      u = imp.slice(u, start, size);
    }
    int64_t extent = (kernel[i] - 1) * dilation[i];
    int64_t before = extent - pads[i];
    int64_t after = extent - pads[i + 3] + outputPadding[i];
    shape = Shape(imp.typeOf(u).getShape());
    if (before < 0 || after < 0) {
      Shape start(shape.size(), 0), size(shape);
      start[axis] = std::max<int64_t>(-before, 0);
      size[axis] = shape[axis] - start[axis] - std::max<int64_t>(-after, 0);
      if (size[axis] < 1)
        return ctx.error() << "pads crop the whole input";
      u = imp.slice(u, start, size);
      shape = size;
    }
    if (before > 0 || after > 0) {
      SmallVector<int64_t> padding(2 * shape.size(), 0);
      padding[2 * axis] = std::max<int64_t>(before, 0);
      padding[2 * axis + 1] = std::max<int64_t>(after, 0);
      Shape padded(shape);
      padded[axis] += padding[2 * axis] + padding[2 * axis + 1];
      u = b.create<tosa::PadOp>(
          ctx.loc, RankedTensorType::get(padded, f), u,
          imp.constant(DenseElementsAttr::get(
              RankedTensorType::get({int64_t(shape.size()), 2},
                                    b.getI64Type()),
              ArrayRef<int64_t>(padding))),
          imp.splat(f, {}, 0));
    }
  }
  // W [IC, OC, KD, KH, KW] flipped in space -> [OC, KD, KH, KW, IC].
  Value flipped = w;
  for (int32_t axis = 2; axis < 5; ++axis)
    flipped = b.create<tosa::ReverseOp>(ctx.loc, imp.typeOf(flipped), flipped,
                                        b.getI32IntegerAttr(axis));
  Value weight = imp.transpose(flipped, {1, 2, 3, 4, 0});
  Value bias = ctx.has(2) ? ctx.in(2) : imp.splat(f, {oc}, 0);
  auto outNDHWC = RankedTensorType::get(
      {outType.getDimSize(0), outType.getDimSize(2), outType.getDimSize(3),
       outType.getDimSize(4), oc},
      f);
  Value y = b.create<tosa::Conv3DOp>(
      ctx.loc, outNDHWC, u, weight, bias, b.getDenseI64ArrayAttr({0, 0, 0, 0, 0, 0}),
      b.getDenseI64ArrayAttr({1, 1, 1}), b.getDenseI64ArrayAttr(dilation),
      /*quantization_info=*/nullptr);
  return ctx.setResult(imp.transpose(y, {0, 4, 1, 2, 3}));
}

/// A 3-D convolution as tosa.conv3d in NDHWC (one per group, concatenated
/// along channels), which only the host runs (NNAPI has no 3-D
/// convolution). `pads` are ONNX's (begins, then ends), already fitted to
/// the output.
LogicalResult importConv3D(NodeContext &ctx, Value w, DenseElementsAttr wConst,
                           ArrayRef<int64_t> stride, ArrayRef<int64_t> dilation,
                           ArrayRef<int64_t> pads, RankedTensorType outType) {
  Importer &imp = ctx.imp;
  OpBuilder &b = ctx.b;
  Value x = ctx.in(0);
  RankedTensorType xt = imp.typeOf(x);
  Type f = xt.getElementType();
  int64_t c = xt.getDimSize(1), oc = outType.getDimSize(1);
  if (c == 0 || oc == 0)
    return ctx.error() << "zero-size channel dimensions are not supported";
  int64_t group = ctx.intAttr("group", 1);
  if (group < 1 || c % group || oc % group)
    return ctx.error() << "group " << group << " does not divide the " << c
                       << " input and " << oc << " output channels";
  // W [OC, IC/group, KD, KH, KW] -> [OC, KD, KH, KW, IC/group].
  Value weight = wConst
                     ? imp.constant(permuteElements(wConst, {0, 2, 3, 4, 1}))
                     : imp.transpose(w, {0, 2, 3, 4, 1});
  Value bias = ctx.has(2) ? ctx.in(2) : imp.splat(f, {oc}, 0);
  // TOSA order: front, back, top, bottom, left, right.
  Shape tosaPad = {pads[0], pads[3], pads[1], pads[4], pads[2], pads[5]};
  Shape outDims = {outType.getDimSize(0), outType.getDimSize(2),
                   outType.getDimSize(3), outType.getDimSize(4)};
  Value ndhwc = imp.transpose(x, {0, 2, 3, 4, 1});
  Shape in(imp.typeOf(ndhwc).getShape()), wShape(imp.typeOf(weight).getShape());
  int64_t icg = c / group, ocg = oc / group;
  SmallVector<Value> parts;
  for (int64_t g = 0; g < group; ++g) {
    Value xg = ndhwc, wg = weight, bg = bias;
    if (group > 1) {
      xg = imp.slice(ndhwc, {0, 0, 0, 0, g * icg},
                     {in[0], in[1], in[2], in[3], icg});
      wg = imp.slice(weight, {g * ocg, 0, 0, 0, 0},
                     {ocg, wShape[1], wShape[2], wShape[3], wShape[4]});
      bg = imp.slice(bias, {g * ocg}, {ocg});
    }
    Shape partShape(outDims);
    partShape.push_back(ocg);
    parts.push_back(b.create<tosa::Conv3DOp>(
        ctx.loc, RankedTensorType::get(partShape, f), xg, wg, bg,
        b.getDenseI64ArrayAttr(tosaPad), b.getDenseI64ArrayAttr(stride),
        b.getDenseI64ArrayAttr(dilation), /*quantization_info=*/nullptr));
  }
  Shape full(outDims);
  full.push_back(oc);
  Value y = parts.size() == 1
                ? parts.front()
                : b.create<tosa::ConcatOp>(ctx.loc,
                                           RankedTensorType::get(full, f),
                                           parts, b.getI32IntegerAttr(4))
                      .getResult();
  return ctx.setResult(imp.transpose(y, {0, 4, 1, 2, 3}));
}

} // namespace

LogicalResult mlir::nnapi::onnx_import::importWindowOp(NodeContext &ctx,
                                                       const IntegerConv *q) {
  Importer &imp = ctx.imp;
  OpBuilder &builder = ctx.b;
  Location loc = ctx.loc;
  StringRef op = q ? StringRef("Conv") : ctx.opType();
  bool isConv = op == "Conv", isTransposed = op == "ConvTranspose";
  bool isPool = !isConv && !isTransposed;
  Value x = q ? q->x : ctx.in(0);
  RankedTensorType xt = imp.typeOf(x);
  int64_t spatial = xt.getRank() - 2;
  if (spatial < 1 || spatial > 3)
    return ctx.error() << "only 1-D, 2-D and 3-D windows are supported "
                          "(input has rank "
                       << xt.getRank() << ")";
  // Integer max pools (uint8 images) take the strided-slice path: TOSA's
  // max_pool2d has no int32, in which uint8 is computed.
  bool integer = !isa<FloatType>(xt.getElementType());
  if (integer && op != "MaxPool" && !q)
    return ctx.error() << "integer inputs are not supported";
  FailureOr<RankedTensorType> outType = ctx.out();
  if (failed(outType))
    return failure();
  Value w = isPool ? Value() : q ? q->w : ctx.in(1);
  DenseElementsAttr wConst = isPool ? DenseElementsAttr()
                             : q    ? q->wConst
                                    : ctx.cst(1);
  Shape kernel;
  if (isPool) {
    std::optional<Shape> k = ctx.intsAttr("kernel_shape");
    if (!k || int64_t(k->size()) != spatial)
      return ctx.error() << "kernel_shape must give " << spatial << " sizes";
    kernel = *k;
  } else {
    if (imp.typeOf(w).getRank() != xt.getRank())
      return ctx.error() << "the weight has rank " << imp.typeOf(w).getRank()
                         << ", the input " << xt.getRank();
    kernel = Shape(imp.typeOf(w).getShape().drop_front(2));
  }
  Shape stride = ctx.intsAttr("strides").value_or(Shape(spatial, 1));
  Shape dilation = ctx.intsAttr("dilations").value_or(Shape(spatial, 1));
  Shape pads = ctx.intsAttr("pads").value_or(Shape(2 * spatial, 0));
  if (int64_t(stride.size()) != spatial ||
      int64_t(dilation.size()) != spatial ||
      int64_t(pads.size()) != 2 * spatial)
    return ctx.error() << "strides, dilations and pads must match the "
                       << spatial << " spatial dimensions";
  if (llvm::any_of(stride, [](int64_t v) { return v < 1; }) ||
      llvm::any_of(dilation, [](int64_t v) { return v < 1; }))
    return ctx.error() << "strides and dilations must be 1 or more";
  Shape in(xt.getShape().drop_front(2)),
      outDims(outType->getShape().drop_front(2));
  std::string autoPad = ctx.stringAttr("auto_pad", "NOTSET");
  // A transposed convolution given its output_shape derives its pads from
  // it (the pads attribute is ignored), counting output_padding.
  bool derivedPads = isTransposed && ctx.attr("output_shape");
  Shape outputPadding =
      isTransposed ? ctx.intsAttr("output_padding").value_or(Shape(spatial, 0))
                   : Shape(spatial, 0);
  if (int64_t(outputPadding.size()) != spatial)
    return ctx.error() << "output_padding must give " << spatial << " sizes";
  frontend::AutoPad mode = autoPad == "VALID"        ? frontend::AutoPad::Valid
                           : autoPad == "SAME_UPPER" ? frontend::AutoPad::SameUpper
                           : autoPad == "SAME_LOWER" ? frontend::AutoPad::SameLower
                                                     : frontend::AutoPad::Explicit;
  if (autoPad != "NOTSET" && mode == frontend::AutoPad::Explicit)
    return ctx.error() << "auto_pad '" << autoPad << "' is not supported";
  // A transposed convolution's output_shape decides its pads as SAME does:
  // the smaller half first with SAME_UPPER, else the larger (ONNX's rule).
  if (derivedPads && mode != frontend::AutoPad::SameUpper)
    mode = frontend::AutoPad::SameLower;
  // Dynamic spatial sizes (issue 54): the pads must not depend on the size.
  // With explicit pads (or none), ONNX's output size floor((in + pads -
  // effective) / stride) + 1 is TOSA's for every size, so no end padding
  // is needed; SAME, ceil_mode and transposed windows would need a size.
  bool dynamicSpatial =
      llvm::any_of(in, ShapedType::isDynamic) ||
      llvm::any_of(outDims, ShapedType::isDynamic);
  if (dynamicSpatial) {
    if (spatial != 2 || isTransposed || q ||
        (mode != frontend::AutoPad::Explicit &&
         mode != frontend::AutoPad::Valid) ||
        ctx.intAttr("ceil_mode", 0) || (op != "Conv" && op != "MaxPool") ||
        ctx.node.output_size() > 1 ||
        llvm::any_of(dilation, [](int64_t d) { return d != 1; }))
      return ctx.error()
             << "a dynamic spatial size reaches only 2-D Conv and MaxPool "
                "with explicit pads, no dilation and no ceil_mode (their "
                "padding does not depend on the size); give --input-shape "
                "fixed sizes";
    if (mode == frontend::AutoPad::Valid)
      pads.assign(2 * spatial, 0);
  }
  for (int64_t i = 0; i < spatial && !dynamicSpatial; ++i)
    std::tie(pads[i], pads[i + spatial]) = frontend::windowPads(
        mode, in[i], outDims[i], kernel[i], stride[i], dilation[i],
        {pads[i], pads[i + spatial]}, isTransposed, outputPadding[i], isPool);
  bool countIncludePad =
      op == "AveragePool" && ctx.intAttr("count_include_pad", 0);
  // tosa.avg_pool2d has no float64 accumulator, and MLIR 19's
  // tosa-to-linalg no float64 max_pool2d.
  bool f64 = xt.getElementType().isF64();
  if (isPool &&
      (spatial == 3 || op == "LpPool" || ctx.node.output_size() > 1 ||
       integer || f64 || llvm::any_of(dilation, [](int64_t d) { return d != 1; })))
    return slicedPool(ctx, kernel, stride, dilation, pads, outDims,
                      countIncludePad);

  if (spatial == 3 && q)
    return ctx.error() << "3-D integer convolutions are not supported";
  if (spatial == 3 && isTransposed)
    return importConvTranspose3D(ctx, w, kernel, stride, dilation, pads,
                                 outputPadding, *outType);
  if (spatial == 3)
    return importConv3D(ctx, w, wConst, stride, dilation, pads, *outType);

  // NCHW -> NHWC, lifting 1-D windows to 2-D with a unit width.
  if (spatial == 1) {
    x = imp.reshape(x,
                    {xt.getDimSize(0), xt.getDimSize(1), xt.getDimSize(2), 1});
    kernel.push_back(1);
    stride.push_back(1);
    dilation.push_back(1);
    pads = {pads[0], 0, pads[1], 0};
    in.push_back(1);
    outDims.push_back(1);
    if (w) {
      RankedTensorType wt = imp.typeOf(w);
      Shape lifted(wt.getShape());
      lifted.push_back(1);
      if (wConst)
        wConst =
            wConst.reshape(RankedTensorType::get(lifted, wt.getElementType()));
      w = imp.reshape(w, lifted);
    }
  }
  int64_t n = xt.getDimSize(0), c = xt.getDimSize(1);
  int64_t oc = outType->getDimSize(1);
  if (c == 0 || oc == 0)
    return ctx.error() << "zero-size channel dimensions are not supported";
  Value nhwc = imp.transpose(x, {0, 2, 3, 1});
  // TOSA order: top, bottom, left, right.
  Shape tosaPad = {pads[0], pads[2], pads[1], pads[3]};
  // Element types: f of the data and the result, wf of the weights, bf of
  // the bias (an integer convolution: i8, i8, i32 accumulators).
  Type f = q ? builder.getI32Type() : xt.getElementType();
  Type xf = xt.getElementType(), wf = q ? builder.getI8Type() : f;
  auto outNHWC = RankedTensorType::get({n, outDims[0], outDims[1], oc}, f);
  Value y;
  auto zeros = [&](int64_t count) { return imp.splat(f, {count}, 0); };
  Value bias;
  if (!isPool)
    bias = q            ? (q->bias ? q->bias : zeros(oc))
           : ctx.has(2) ? ctx.in(2)
                        : zeros(oc);
  tosa::ConvOpQuantizationAttr quantInfo =
      q ? tosa::ConvOpQuantizationAttr::get(builder.getContext(), q->xZeroPoint,
                                            q->wZeroPoint)
        : nullptr;
  // A zero point computed at run time cannot be TOSA's (an attribute):
  // sum (x - z)(w - wz) over a window is sum x (w - wz) - z sum (w - wz),
  // once the border is x's zero point too. So x is padded with z, the
  // convolution takes input zero point 0, and z times each output
  // channel's filter sum (a constant) is subtracted from its accumulators.
  Value runtimeCorrection;
  if (q && q->xZeroPointValue) {
    if (llvm::any_of(tosaPad, [](int64_t p) { return p; })) {
      auto nt = cast<RankedTensorType>(nhwc.getType());
      SmallVector<int64_t> p = {0,          0,          tosaPad[0], tosaPad[1],
                                tosaPad[2], tosaPad[3], 0,          0};
      nhwc = builder.create<tosa::PadOp>(
          loc,
          RankedTensorType::get({n, nt.getDimSize(1) + p[2] + p[3],
                                 nt.getDimSize(2) + p[4] + p[5], c},
                                xf),
          nhwc,
          imp.constant(DenseElementsAttr::get(
              RankedTensorType::get({4, 2}, builder.getI64Type()),
              ArrayRef<int64_t>(p))),
          imp.castTo(q->xZeroPointValue, xf));
      tosaPad = {0, 0, 0, 0};
    }
    SmallVector<int64_t> w8 = intsOf(wConst);
    int64_t perChannel = int64_t(w8.size()) / oc;
    SmallVector<double> sums(oc, 0);
    for (int64_t o = 0; o < oc; ++o)
      for (int64_t i = 0; i < perChannel; ++i)
        sums[o] += double(w8[o * perChannel + i] - q->wZeroPoint);
    Value filterSums = imp.constant(
        denseOf(RankedTensorType::get({1, 1, 1, oc}, f), sums));
    runtimeCorrection =
        imp.mul(imp.reshape(q->xZeroPointValue, {1, 1, 1, 1}), filterSums);
    quantInfo = tosa::ConvOpQuantizationAttr::get(builder.getContext(), 0,
                                                  q->wZeroPoint);
  }

  if (op == "MaxPool") {
    y = builder.create<tosa::MaxPool2dOp>(
        loc, outNHWC, nhwc, builder.getDenseI64ArrayAttr(kernel),
        builder.getDenseI64ArrayAttr(stride),
        builder.getDenseI64ArrayAttr(tosaPad));
  } else if (op == "AveragePool") {
    if (countIncludePad && llvm::any_of(tosaPad, [](int64_t p) { return p; })) {
      SmallVector<int64_t> p = {0,          0,          tosaPad[0], tosaPad[1],
                                tosaPad[2], tosaPad[3], 0,          0};
      auto nt = cast<RankedTensorType>(nhwc.getType());
      Shape padded = {nt.getDimSize(0), nt.getDimSize(1) + p[2] + p[3],
                      nt.getDimSize(2) + p[4] + p[5], nt.getDimSize(3)};
      nhwc = builder.create<tosa::PadOp>(
          loc, RankedTensorType::get(padded, f), nhwc,
          imp.constant(DenseElementsAttr::get(
              RankedTensorType::get({4, 2}, builder.getI64Type()),
              ArrayRef<int64_t>(p))),
          imp.splat(f, {}, 0));
      tosaPad = {0, 0, 0, 0};
    }
    y = builder.create<tosa::AvgPool2dOp>(loc, outNHWC, nhwc,
                                          builder.getDenseI64ArrayAttr(kernel),
                                          builder.getDenseI64ArrayAttr(stride),
                                          builder.getDenseI64ArrayAttr(tosaPad),
                                          TypeAttr::get(builder.getF32Type()),
                                          /*quantization_info=*/nullptr);
  } else if (isTransposed) {
    if (ctx.intAttr("group", 1) != 1)
      return ctx.error() << "group other than 1 is not supported";
    if (llvm::any_of(dilation, [](int64_t d) { return d != 1; })) {
      // A dilated kernel is the kernel with zeros between its taps:
      // [IC*OC, KH, 1, KW, 1] padded to [IC*OC, KH, dh, KW, dw], then the
      // trailing zeros of each dimension sliced off. Constant weights fold.
      RankedTensorType wt = imp.typeOf(w);
      Shape dims(wt.getShape());
      int64_t io = dims[0] * dims[1];
      constexpr int64_t kMaxSpread = 1 << 20;
      if (io * dims[2] * dilation[0] * dims[3] * dilation[1] > kMaxSpread)
        return ctx.error() << "dilations " << dilation[0] << "x" << dilation[1]
                           << " spread the kernel beyond " << kMaxSpread
                           << " elements";
      Value spread = imp.reshape(w, {io, dims[2], 1, dims[3], 1});
      SmallVector<int64_t> padding = {
          0, 0, 0, 0, 0, dilation[0] - 1, 0, 0, 0, dilation[1] - 1};
      spread = builder.create<tosa::PadOp>(
          loc,
          RankedTensorType::get(
              {io, dims[2], dilation[0], dims[3], dilation[1]},
              wt.getElementType()),
          spread,
          imp.constant(DenseElementsAttr::get(
              RankedTensorType::get({5, 2}, builder.getI64Type()),
              ArrayRef<int64_t>(padding))),
          imp.splat(wt.getElementType(), {}, 0));
      spread = imp.reshape(spread,
                           {io, dims[2] * dilation[0], dims[3] * dilation[1]});
      kernel = {(dims[2] - 1) * dilation[0] + 1,
                (dims[3] - 1) * dilation[1] + 1};
      spread = builder.create<tosa::SliceOp>(
          loc,
          RankedTensorType::get({io, kernel[0], kernel[1]},
                                wt.getElementType()),
          spread, builder.getDenseI64ArrayAttr({0, 0, 0}),
          builder.getDenseI64ArrayAttr({io, kernel[0], kernel[1]}));
      w = imp.reshape(spread, {dims[0], dims[1], kernel[0], kernel[1]});
      wConst = DenseElementsAttr();
      dilation = {1, 1};
    }
    // W [IC, OC, KH, KW] -> [OC, KH, KW, IC].
    Value filter = wConst ? imp.constant(permuteElements(wConst, {1, 2, 3, 0}))
                          : imp.transpose(w, {1, 2, 3, 0});
    Shape outPad = {
        -tosaPad[0],
        outDims[0] - (in[0] - 1) * stride[0] - kernel[0] + tosaPad[0],
        -tosaPad[2],
        outDims[1] - (in[1] - 1) * stride[1] - kernel[1] + tosaPad[2]};
    y = builder.create<tosa::TransposeConv2DOp>(
        loc, outNHWC, nhwc, filter, bias, builder.getDenseI64ArrayAttr(outPad),
        builder.getDenseI64ArrayAttr(stride),
        builder.getDenseI64ArrayAttr(outNHWC.getShape()),
        /*quantization_info=*/nullptr);
  } else {
    int64_t group = ctx.intAttr("group", 1);
    RankedTensorType wt = imp.typeOf(w);
    int64_t kh = kernel[0], kw = kernel[1];
    auto padAttr = builder.getDenseI64ArrayAttr(tosaPad);
    auto strideAttr = builder.getDenseI64ArrayAttr(stride);
    auto dilationAttr = builder.getDenseI64ArrayAttr(dilation);
    if (group == 1) {
      Value weight = wConst
                         ? imp.constant(permuteElements(wConst, {0, 2, 3, 1}))
                         : imp.transpose(w, {0, 2, 3, 1});
      y = builder.create<tosa::Conv2DOp>(loc, outNHWC, nhwc, weight, bias,
                                         padAttr, strideAttr, dilationAttr,
                                         quantInfo);
    } else if (group == c && oc % c == 0 && wt.getDimSize(1) == 1) {
      int64_t m = oc / c;
      Shape grouped = {c, m, kh, kw};
      Value weight;
      if (wConst)
        weight = imp.constant(permuteElements(
            wConst.reshape(RankedTensorType::get(grouped, wf)), {2, 3, 0, 1}));
      else
        weight = imp.transpose(imp.reshape(w, grouped), {2, 3, 0, 1});
      y = builder.create<tosa::DepthwiseConv2DOp>(loc, outNHWC, nhwc, weight,
                                                  bias, padAttr, strideAttr,
                                                  dilationAttr, quantInfo);
    } else if (group > 0 && c % group == 0 && oc % group == 0) {
      // One convolution per group, concatenated along channels.
      int64_t icg = c / group, ocg = oc / group;
      Value weightAll =
          wConst ? imp.constant(permuteElements(wConst, {0, 2, 3, 1}))
                 : imp.transpose(w, {0, 2, 3, 1});
      auto nt = cast<RankedTensorType>(nhwc.getType());
      SmallVector<Value> parts;
      for (int64_t g = 0; g < group; ++g) {
        Value xg = builder.create<tosa::SliceOp>(
            loc,
            RankedTensorType::get({n, nt.getDimSize(1), nt.getDimSize(2), icg},
                                  xf),
            nhwc, builder.getDenseI64ArrayAttr({0, 0, 0, g * icg}),
            builder.getDenseI64ArrayAttr(
                {n, nt.getDimSize(1), nt.getDimSize(2), icg}));
        Value wg = builder.create<tosa::SliceOp>(
            loc, RankedTensorType::get({ocg, kh, kw, icg}, wf), weightAll,
            builder.getDenseI64ArrayAttr({g * ocg, 0, 0, 0}),
            builder.getDenseI64ArrayAttr({ocg, kh, kw, icg}));
        Value bg = builder.create<tosa::SliceOp>(
            loc, RankedTensorType::get({ocg}, f), bias,
            builder.getDenseI64ArrayAttr({g * ocg}),
            builder.getDenseI64ArrayAttr({ocg}));
        parts.push_back(builder.create<tosa::Conv2DOp>(
            loc, RankedTensorType::get({n, outDims[0], outDims[1], ocg}, f), xg,
            wg, bg, padAttr, strideAttr, dilationAttr, quantInfo));
      }
      y = builder.create<tosa::ConcatOp>(loc, outNHWC, parts,
                                         builder.getI32IntegerAttr(3));
    } else {
      return ctx.error() << "group " << group << " does not divide the " << c
                         << " input and " << oc << " output channels";
    }
  }
  if (runtimeCorrection)
    y = imp.sub(y, runtimeCorrection);
  if (q)
    y = q->finish(y);
  Value nchw = imp.transpose(y, {0, 3, 1, 2});
  return ctx.setResult(imp.reshape(nchw, outType->getShape()));
}

namespace {

LogicalResult importWindow(NodeContext &ctx) { return importWindowOp(ctx); }

/// GlobalAveragePool, GlobalMaxPool.
LogicalResult importGlobalPool(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  OpBuilder &builder = ctx.b;
  bool isMax = ctx.opType() == "GlobalMaxPool";
  Value x = ctx.in(0);
  int64_t rank = imp.typeOf(x).getRank();
  SmallVector<int64_t> axes;
  int64_t count = 1;
  for (int64_t i = 2; i < rank; ++i) {
    axes.push_back(i);
    count *= imp.typeOf(x).getDimSize(i);
  }
  // Spatial sizes known at run time only (a model kept dynamic): the
  // reduction, and for the average its count from the sizes of the call.
  if (llvm::any_of(axes, [&](int64_t a) {
        return imp.typeOf(x).isDynamicDim(a);
      })) {
    Value reduced = imp.reduce(isMax ? "max" : "sum", x, axes);
    if (isMax)
      return ctx.setResult(reduced);
    Value n = builder.create<arith::ConstantIndexOp>(ctx.loc, 1);
    for (int64_t a : axes)
      n = builder.create<arith::MulIOp>(
          ctx.loc, n, builder.create<tensor::DimOp>(ctx.loc, x, a));
    Type element = imp.typeOf(x).getElementType();
    Value size = builder.create<arith::UIToFPOp>(
        ctx.loc, element,
        builder.create<arith::IndexCastOp>(ctx.loc, builder.getI64Type(), n));
    Value count = builder.create<tensor::FromElementsOp>(
        ctx.loc, RankedTensorType::get(Shape(rank, 1), element), size);
    return ctx.setResult(imp.mul(
        reduced, builder.create<tosa::ReciprocalOp>(ctx.loc, count.getType(),
                                                    count)));
  }
  // (Not for float64, which the 2-D pools lack: a reduction instead.)
  if (rank == 4 && !imp.typeOf(x).getElementType().isF64()) {
    // A 2-D pool whose window is the whole image, so that it can run as
    // one NNAPI AVERAGE_POOL_2D / MAX_POOL_2D (a global pool for XNNPACK).
    RankedTensorType xt = imp.typeOf(x);
    int64_t n = xt.getDimSize(0), c = xt.getDimSize(1);
    SmallVector<int64_t> kernel = {xt.getDimSize(2), xt.getDimSize(3)};
    Value nhwc = imp.transpose(x, {0, 2, 3, 1});
    auto outNHWC = RankedTensorType::get({n, 1, 1, c}, xt.getElementType());
    Value y;
    if (isMax)
      y = builder.create<tosa::MaxPool2dOp>(
          ctx.loc, outNHWC, nhwc, builder.getDenseI64ArrayAttr(kernel),
          builder.getDenseI64ArrayAttr({1, 1}),
          builder.getDenseI64ArrayAttr({0, 0, 0, 0}));
    else
      y = builder.create<tosa::AvgPool2dOp>(
          ctx.loc, outNHWC, nhwc, builder.getDenseI64ArrayAttr(kernel),
          builder.getDenseI64ArrayAttr({1, 1}),
          builder.getDenseI64ArrayAttr({0, 0, 0, 0}),
          TypeAttr::get(builder.getF32Type()), /*quantization_info=*/nullptr);
    return ctx.setResult(imp.transpose(y, {0, 3, 1, 2}));
  }
  if (isMax)
    return ctx.setResult(imp.reduce("max", x, axes));
  return ctx.setResult(
      imp.mul(imp.reduce("sum", x, axes), imp.scalarLike(x, 1.0 / count)));
}

} // namespace

void mlir::nnapi::onnx_import::registerConvPoolOps(OpRegistry &registry) {
  constexpr int64_t lo = kMinONNXOpset, hi = kAnyOpset;
  registry.add({
      {"", "Conv", lo, hi, importWindow,
       "tosa.conv2d / tosa.depthwise_conv2d / per-group conv2d + concat "
       "(NHWC); 3-D: tosa.conv3d (NDHWC; per group + concat)",
       "CONV_2D / DEPTHWISE_CONV_2D (1; dilation 3); GROUPED_CONV_2D (3) for "
       "other groups without dilation (the grouped_conv composite)",
       "weights not constant; dilated groups run as per-group CONV_2D + "
       "CONCATENATION; 3-D (host only)"},
      {"", "ConvTranspose", lo, hi, importWindow,
       "tosa.transpose_conv2d (NHWC); dilations as a kernel with zeros "
       "between its taps; 3-D: tosa.conv3d of the input with zeros between "
       "its elements, padded, by the flipped kernel",
       "TRANSPOSE_CONV_2D (3)",
       "output_padding that extends the output; groups unsupported; 3-D "
       "(host only)"},
      {"", "MaxPool", lo, hi, importWindow,
       "tosa.max_pool2d (NHWC); 3-D, dilated or integer (uint8, int8): "
       "maximum of strided slices",
       "MAX_POOL_2D (1); SLICE, MAXIMUM (3) for 3-D, dilated or with Indices",
       "Indices: strided slices, positions compared"},
      {"", "LpPool", lo, hi, importWindow,
       "|x|^p, sum of strided slices of the padded input, ^(1/p)",
       "ABS, POW, SLICE (3), ADD (1)", "-"},
      {"", "AveragePool", lo, hi, importWindow,
       "tosa.avg_pool2d (NHWC; explicit tosa.pad for count_include_pad; "
       "1-D lifted to 2-D); 3-D or dilated: mean of strided slices",
       "AVERAGE_POOL_2D (1); SLICE (3), ADD (1), MUL (1) for 3-D or "
       "dilated",
       "-"},
      {"", "GlobalAveragePool", lo, hi, importGlobalPool,
       "rank 4: transposes + tosa.avg_pool2d; else tosa.reduce_sum + "
       "tosa.mul",
       "TRANSPOSE (2) + AVERAGE_POOL_2D (1); else MEAN (2)", "rank > 4"},
      {"", "GlobalMaxPool", lo, hi, importGlobalPool,
       "rank 4: transposes + tosa.max_pool2d; else tosa.reduce_max",
       "TRANSPOSE (2) + MAX_POOL_2D (1); else REDUCE_MAX (3)", "rank > 4"},
  });
}
