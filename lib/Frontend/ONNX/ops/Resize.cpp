//===- Resize.cpp - Resize and Upsample -------------------------*- C++ -*-===//
//
// Resize (and Upsample, as the asymmetric floor-nearest Resize it is) of
// the two spatial dimensions of an NCHW tensor: an NHWC tosa.resize whose
// scale, offset and border reproduce ONNX's coordinate transformation and
// nearest mode.
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"
#include "../OpRegistry.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace mlir::nnapi::onnx_import;

namespace {

LogicalResult importResize(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  OpBuilder &builder = ctx.b;
  bool upsample = ctx.opType() == "Upsample";
  Value x = ctx.in(0);
  RankedTensorType xt = imp.typeOf(x);
  FailureOr<RankedTensorType> outType = ctx.out();
  if (failed(outType))
    return failure();
  if (xt.getRank() != 4 || outType->getDimSize(0) != xt.getDimSize(0) ||
      outType->getDimSize(1) != xt.getDimSize(1))
    return ctx.error() << "only resizing the last two dimensions of a 4-D "
                          "tensor is supported";
  if (!isa<FloatType>(xt.getElementType()))
    return ctx.error() << "integer inputs are not supported";
  std::string mode = ctx.stringAttr("mode", "nearest");
  if (mode != "nearest" && mode != "linear")
    return ctx.error() << "mode '" << mode
                       << "' is not supported (nearest, linear)";
  std::string coord =
      upsample ? "asymmetric"
               : ctx.stringAttr("coordinate_transformation_mode", "half_pixel");
  std::string nearest =
      upsample ? "floor" : ctx.stringAttr("nearest_mode", "round_prefer_floor");
  if (ctx.intAttr("exclude_outside", 0))
    return ctx.error() << "exclude_outside=1 is not supported";
  // The scale ONNX maps coordinates with: the given one when there is a
  // constant scales input (it may differ from out/in), else out/in.
  SmallVector<double> given;
  int scalesInput = upsample ? 1 : 2;
  if (ctx.has(scalesInput)) {
    DenseElementsAttr c = ctx.cst(scalesInput);
    if (!c)
      return ctx.error() << "scales must be known at compile time";
    given = floatsOf(c);
    if (!given.empty() && given.size() != 4)
      return ctx.error() << "scales must have 4 entries";
  }
  Shape scale, offset, border;
  for (int64_t dim : {2, 3}) {
    int64_t in = xt.getDimSize(dim), out = outType->getDimSize(dim);
    // scale = n / d as a fraction (exact for sizes, approximated to 1/1000
    // for arbitrary float scales).
    int64_t n = out, d = in;
    if (!given.empty()) {
      n = int64_t(std::llround(given[dim] * 1000));
      d = 1000;
    }
    int64_t g = std::gcd(n, d);
    n /= g;
    d /= g;
    int64_t num, den, off;
    if (out == 1 &&
        (coord == "align_corners" || coord == "pytorch_half_pixel")) {
      num = 2;
      den = 2;
      off = 0; // ONNX samples coordinate 0
    } else if (coord == "asymmetric") {
      num = 2 * n;
      den = 2 * d;
      off = 0;
    } else if (coord == "half_pixel" || coord == "pytorch_half_pixel") {
      num = 2 * n;
      den = 2 * d;
      off = d - n;
    } else if (coord == "tf_half_pixel_for_nn") {
      num = 2 * n;
      den = 2 * d;
      off = d;
    } else if (coord == "align_corners" && in > 1) {
      num = 2 * (out - 1);
      den = 2 * (in - 1);
      off = 0;
    } else {
      return ctx.error() << "coordinate_transformation_mode '" << coord
                         << "' is not supported for " << in << " -> " << out;
    }
    if (mode == "nearest") {
      // TOSA rounds half up; shift the sampling point for the other modes.
      if (nearest == "round_prefer_floor")
        off -= 1;
      else if (nearest == "floor")
        off -= num / 2;
      else if (nearest == "ceil")
        off += num / 2 - 1;
      else if (nearest != "round_prefer_ceil")
        return ctx.error() << "nearest_mode '" << nearest
                           << "' is not supported";
    }
    scale.append({num, den});
    offset.push_back(off);
    border.push_back((out - 1) * den - (in - 1) * num + off);
  }
  Value nhwc = imp.transpose(x, {0, 2, 3, 1});
  auto outNHWC =
      RankedTensorType::get({xt.getDimSize(0), outType->getDimSize(2),
                             outType->getDimSize(3), xt.getDimSize(1)},
                            xt.getElementType());
  Value y = builder.create<tosa::ResizeOp>(
      ctx.loc, outNHWC, nhwc, builder.getDenseI64ArrayAttr(scale),
      builder.getDenseI64ArrayAttr(offset),
      builder.getDenseI64ArrayAttr(border),
      builder.getStringAttr(mode == "nearest" ? "NEAREST_NEIGHBOR"
                                              : "BILINEAR"));
  return ctx.setResult(imp.transpose(y, {0, 3, 1, 2}));
}

} // namespace

void mlir::nnapi::onnx_import::registerResizeOps(OpRegistry &registry) {
  constexpr int64_t lo = kMinONNXOpset, hi = kAnyOpset;
  registry.add({
      {"", "Resize", lo, hi, importResize,
       "tosa.resize (NHWC; nearest modes via offsets)",
       "RESIZE_BILINEAR (1) / RESIZE_NEAREST_NEIGHBOR (3); half-pixel or "
       "aligned corners 4",
       "samplings that differ from NNAPI's at some output index (checked "
       "index by index); cubic, tf_crop_and_resize unsupported"},
      {"", "Upsample", lo, hi, importResize,
       "tosa.resize (via the version converter's Resize)", "as Resize",
       "as Resize"},
  });
}
