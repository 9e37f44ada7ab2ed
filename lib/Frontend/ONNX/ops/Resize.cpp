//===- Resize.cpp - Resize and Upsample -------------------------*- C++ -*-===//
//
// Resize (and Upsample, as the asymmetric floor-nearest Resize it is) of
// the two spatial dimensions of an NCHW tensor: an NHWC tosa.resize whose
// scale, offset and border reproduce ONNX's coordinate transformation and
// nearest mode. Cubic interpolation, which TOSA lacks, is separable: each
// dimension is a constant [in, out] matrix of ONNX's cubic weights, applied
// with a tosa.matmul per dimension. float64 resizes the same way in every
// mode (MLIR 19 lowers no float64 tosa.resize), and so does
// tf_crop_and_resize (its region of interest is a sampling like any other).
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"
#include "../OpRegistry.h"

#include "../../Common/Windows.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <optional>

using namespace mlir;
using namespace mlir::nnapi::onnx_import;
using frontend::Sampling;

namespace {

/// ONNX's cubic convolution weights of the four neighbours of a sampling
/// point whose distance to its left neighbour is `ratio` (in (0, 1]).
std::array<double, 4> cubicWeights(double ratio, double a) {
  double r1 = ratio + 1, q = 1 - ratio, q1 = q + 1;
  return {((a * r1 - 5 * a) * r1 + 8 * a) * r1 - 4 * a,
          ((a + 2) * ratio - (a + 3)) * ratio * ratio + 1,
          ((a + 2) * q - (a + 3)) * q * q + 1,
          ((a * q1 - 5 * a) * q1 + 8 * a) * q1 - 4 * a};
}

/// The [in, out] matrix M of one dimension's resize (y = x M): for each
/// output index, the sampling point ONNX's coordinate transformation gives
/// and the weights of its neighbours: the nearest one (by the nearest mode),
/// the two linear ones, or the four cubic ones (clamped to the edge, or
/// dropped and the weights renormalized with exclude_outside).
/// With tf_crop_and_resize, `crop` is the region of interest along this
/// dimension (start, end, as fractions of in - 1), and the output indices
/// whose sampling point falls outside the input are marked in `outside`
/// (their column stays zero: they take extrapolation_value).
FailureOr<std::vector<double>>
resizeMatrix(int64_t in, int64_t out, double scale, const Sampling &s,
             std::pair<double, double> crop, std::vector<bool> &outside) {
  // (tf_half_pixel_for_nn is defined for nearest sampling only.)
  if (s.coord == "tf_half_pixel_for_nn" && s.mode != "nearest")
    return failure();
  std::vector<double> m(size_t(in * out), 0.0);
  outside.assign(size_t(out), false);
  auto add = [&](int64_t i, int64_t o, double w) {
    m[size_t(std::clamp<int64_t>(i, 0, in - 1) * out + o)] += w;
  };
  for (int64_t o = 0; o < out; ++o) {
    double x;
    if (s.coord == "tf_crop_and_resize") {
      auto [start, end] = crop;
      x = out > 1 ? start * double(in - 1) +
                        double(o) * (end - start) * double(in - 1) /
                            double(out - 1)
                  : 0.5 * (start + end) * double(in - 1);
      if (x < 0 || x > double(in - 1)) {
        outside[size_t(o)] = true;
        continue;
      }
    } else {
      x = frontend::sourceCoordinate(o, in, out, scale, s.coord);
    }
    if (std::isinf(x))
      return failure();
    double left = std::floor(x);
    if (s.mode == "nearest") {
      bool half = x - left == 0.5;
      double pick = s.nearestMode == "floor"                ? left
                    : s.nearestMode == "ceil"               ? std::ceil(x)
                    : s.nearestMode == "round_prefer_floor" ? (half ? left
                                                                    : std::round(x))
                    : s.nearestMode == "round_prefer_ceil"  ? std::round(x)
                                                            : NAN;
      if (std::isnan(pick))
        return failure();
      add(int64_t(pick), o, 1.0);
      continue;
    }
    if (s.mode == "linear") {
      x = std::clamp(x, 0.0, double(in - 1));
      left = std::floor(x);
      add(int64_t(left), o, 1.0 - (x - left));
      if (x != left)
        add(int64_t(left) + 1, o, x - left);
      continue;
    }
    double ratio = x == left ? 1.0 : x - left;
    // With ratio 1 the weights fall on [x-2, x+1]; otherwise on
    // [floor-1, floor+2].
    int64_t first = int64_t(left) - (x == left ? 2 : 1);
    std::array<double, 4> w = cubicWeights(ratio, s.cubicA);
    if (s.excludeOutside) {
      double sum = 0;
      for (int k = 0; k < 4; ++k) {
        int64_t i = first + k;
        if (i < 0 || i >= in)
          w[k] = 0;
        sum += w[k];
      }
      // (All four outside happens only for sampling points outside the
      // input, which no coordinate mode produces; leave the zeros then.)
      if (sum != 0)
        for (double &v : w)
          v /= sum;
    }
    for (int k = 0; k < 4; ++k)
      add(first + k, o, w[k]);
  }
  return m;
}

/// A resize of the last two dimensions as y = Mh^T x Mw per image: two
/// tosa.matmul with the images' rows (then columns) folded into one batch.
/// (For nearest and linear, only float64 comes here: each output is its
/// neighbours' weighted sum, as ONNX defines it.)
/// With tf_crop_and_resize, `roi` holds the 4 starts then the 4 ends, and
/// outputs sampled outside the input take `extrapolation`.
LogicalResult importMatrixResize(NodeContext &ctx, Value x,
                                 RankedTensorType outType,
                                 const Sampling &sampling,
                                 ArrayRef<double> given,
                                 ArrayRef<double> roi = {},
                                 double extrapolation = 0) {
  Importer &imp = ctx.imp;
  RankedTensorType xt = imp.typeOf(x);
  Type element = xt.getElementType();
  int64_t n = xt.getDimSize(0), c = xt.getDimSize(1), h = xt.getDimSize(2),
          w = xt.getDimSize(3), ho = outType.getDimSize(2),
          wo = outType.getDimSize(3);
  // The matrices are dense: bound them (4M weights, 16 MB, per dimension:
  // more than a 1080p image doubled needs).
  constexpr int64_t kMaxWeights = int64_t(1) << 22;
  if (h * ho > kMaxWeights || w * wo > kMaxWeights)
    return ctx.error() << sampling.mode << " resize of " << h << "x" << w
                       << " to " << ho << "x" << wo
                       << " needs interpolation matrices of more than "
                       << kMaxWeights << " weights";
  std::vector<bool> outsideW, outsideH;
  auto matrix = [&](int64_t dim, int64_t in, int64_t out,
                    std::vector<bool> &outside) -> FailureOr<Value> {
    double scale = given.empty() ? double(out) / double(in) : given[dim];
    std::pair<double, double> crop =
        roi.empty() ? std::make_pair(0.0, 1.0)
                    : std::make_pair(roi[size_t(dim)], roi[size_t(dim) + 4]);
    FailureOr<std::vector<double>> m =
        resizeMatrix(in, out, scale, sampling, crop, outside);
    if (failed(m))
      return failure();
    return imp.constant(
        denseOf(RankedTensorType::get({1, in, out}, element), *m));
  };
  FailureOr<Value> mw = matrix(3, w, wo, outsideW),
                   mh = matrix(2, h, ho, outsideH);
  if (failed(mw) || failed(mh)) {
    InFlightDiagnostic diag = ctx.error();
    diag << "coordinate_transformation_mode '" << sampling.coord << "'";
    if (sampling.mode == "nearest")
      diag << " with nearest_mode '" << sampling.nearestMode << "'";
    return diag << " is not supported with mode '" << sampling.mode << "'"
                << (element.isF64() ? " in float64" : "");
  }
  auto matmul = [&](Value lhs, Value rhs, int64_t rows, int64_t cols) {
    return ctx.b.create<tosa::MatMulOp>(
        ctx.loc, RankedTensorType::get({1, rows, cols}, element), lhs, rhs);
  };
  // Columns: [1, N*C*H, W] x [1, W, Wo].
  Value y = matmul(imp.reshape(x, {1, n * c * h, w}), *mw, n * c * h, wo);
  // Rows: [1, N*C*Wo, H] x [1, H, Ho], on the transposed images.
  y = imp.transpose(imp.reshape(y, {n * c, h, wo}), {0, 2, 1});
  y = matmul(imp.reshape(y, {1, n * c * wo, h}), *mh, n * c * wo, ho);
  y = imp.transpose(imp.reshape(y, {n * c, wo, ho}), {0, 2, 1});
  y = imp.reshape(y, {n, c, ho, wo});
  // Outputs sampled outside the input (their weights are all zero) take
  // extrapolation_value.
  bool anyOutside = llvm::is_contained(outsideH, true) ||
                    llvm::is_contained(outsideW, true);
  if (anyOutside && extrapolation != 0) {
    SmallVector<double> fill;
    for (int64_t i = 0; i < ho; ++i)
      for (int64_t j = 0; j < wo; ++j)
        fill.push_back(outsideH[size_t(i)] || outsideW[size_t(j)]
                           ? extrapolation
                           : 0.0);
    y = imp.add(y, imp.constant(denseOf(
                       RankedTensorType::get({1, 1, ho, wo}, element), fill)));
  }
  return ctx.setResult(y);
}

LogicalResult importResize(NodeContext &ctx) {
  Importer &imp = ctx.imp;
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
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return ctx.error() << "mode '" << mode
                       << "' is not supported (nearest, linear, cubic)";
  std::string coord =
      upsample ? "asymmetric"
               : ctx.stringAttr("coordinate_transformation_mode", "half_pixel");
  std::string nearest =
      upsample ? "floor" : ctx.stringAttr("nearest_mode", "round_prefer_floor");
  if (ctx.intAttr("exclude_outside", 0) && mode != "cubic")
    return ctx.error() << "exclude_outside=1 is not supported";
  // The scale ONNX maps coordinates with: the given one when there is a
  // constant scales input (it may differ from out/in), else out/in.
  SmallVector<double> given;
  int scalesInput = upsample ? 1 : 2;
  if (ctx.has(scalesInput)) {
    FailureOr<DenseElementsAttr> c = ctx.needConstant(scalesInput, "scales");
    if (failed(c))
      return failure();
    given = floatsOf(*c);
    if (!given.empty() && given.size() != 4)
      return ctx.error() << "scales must have 4 entries";
    if (!given.empty() && (given[0] != 1 || given[1] != 1))
      return ctx.error() << "only the last two dimensions may be scaled "
                            "(scales[0] and scales[1] must be 1)";
  }
  // tf_crop_and_resize samples the region of interest (roi: 4 starts, 4
  // ends, fractions of each dimension) and fills what falls outside the
  // input with extrapolation_value: the matrix form, whose zero columns
  // mark those outputs.
  SmallVector<double> roi;
  if (coord == "tf_crop_and_resize") {
    if (!ctx.has(1))
      return ctx.error() << "tf_crop_and_resize needs the roi input";
    FailureOr<DenseElementsAttr> c = ctx.needConstant(1, "roi");
    if (failed(c))
      return failure();
    roi = floatsOf(*c);
    if (roi.size() != 8)
      return ctx.error() << "roi must have 8 entries (4 starts, 4 ends), not "
                         << roi.size();
    if (roi[0] != 0 || roi[1] != 0 || roi[4] != 1 || roi[5] != 1)
      return ctx.error() << "only the last two dimensions may be cropped "
                            "(roi must be 0 to 1 on the first two)";
  }
  if (mode == "cubic" || xt.getElementType().isF64() || !roi.empty()) {
    Sampling sampling{mode, coord, nearest,
                      ctx.floatAttr("cubic_coeff_a", -0.75f),
                      ctx.intAttr("exclude_outside", 0) != 0};
    return importMatrixResize(ctx, x, *outType, sampling, given, roi,
                              ctx.floatAttr("extrapolation_value", 0.0f));
  }
  Sampling sampling{mode, coord, nearest};
  Value nhwc = imp.transpose(x, {0, 2, 3, 1});
  SmallVector<double> givenHW;
  if (!given.empty())
    givenHW = {given[2], given[3]};
  std::string why;
  FailureOr<Value> y =
      frontend::resizeNHWC(imp, nhwc, outType->getDimSize(2),
                           outType->getDimSize(3), sampling, givenHW, why);
  if (failed(y))
    return ctx.error() << why;
  return ctx.setResult(imp.transpose(*y, {0, 3, 1, 2}));
}

} // namespace

void mlir::nnapi::onnx_import::registerResizeOps(OpRegistry &registry) {
  constexpr int64_t lo = kMinONNXOpset, hi = kAnyOpset;
  registry.add({
      {"", "Resize", lo, hi, importResize,
       "tosa.resize (NHWC; nearest modes via offsets); cubic (and every "
       "mode in float64): a constant interpolation matrix per dimension, two "
       "tosa.matmul",
       "RESIZE_BILINEAR (1) / RESIZE_NEAREST_NEIGHBOR (3); half-pixel or "
       "aligned corners 4",
       "samplings that differ from NNAPI's at some output index (checked "
       "index by index); cubic and tf_crop_and_resize (the matrix form, "
       "extrapolation_value added where outside) are placed like any "
       "tosa.matmul; roi known at compile time"},
      {"", "Upsample", lo, hi, importResize,
       "tosa.resize (via the version converter's Resize)", "as Resize",
       "as Resize"},
  });
}
