//===- Windows.cpp - Sliding windows and resampling, once -----------------===//

#include "Windows.h"

#include <cmath>
#include <limits>
#include <numeric>

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::frontend;

std::pair<int64_t, int64_t>
frontend::windowPads(AutoPad mode, int64_t in, int64_t out, int64_t kernel,
                     int64_t stride, int64_t dilation,
                     std::pair<int64_t, int64_t> given, bool transposed,
                     int64_t outputPadding, bool growEnd) {
  int64_t effective = (kernel - 1) * dilation + 1;
  auto [begin, end] = given;
  if (mode == AutoPad::Valid) {
    begin = end = 0;
  } else if (mode == AutoPad::SameUpper || mode == AutoPad::SameLower) {
    int64_t total =
        transposed
            ? stride * (in - 1) + outputPadding + effective - out
            : std::max<int64_t>((out - 1) * stride + effective - in, 0);
    // Halves rounded down (ONNX's formula is Python's //): a negative total
    // (a transposed output beyond the full result) grows the end.
    int64_t small = total >= 0 ? total / 2 : -((1 - total) / 2),
            large = total - small;
    begin = mode == AutoPad::SameUpper ? small : large;
    end = mode == AutoPad::SameUpper ? large : small;
  }
  if (!transposed) {
    // Make the window fit exactly: extend the end for ceil_mode, trim it
    // when the last stride does not fit.
    int64_t needEnd = (out - 1) * stride + effective - in - begin;
    if (needEnd > end && growEnd)
      end = needEnd;
    int64_t spare = in + begin + end - effective - (out - 1) * stride;
    if (spare > 0)
      end -= std::min(spare, end);
  }
  return {begin, end};
}

double frontend::sourceCoordinate(int64_t o, int64_t in, int64_t out,
                                  double scale, StringRef coord) {
  double outWidth = scale * double(in);
  // One output samples coordinate 0 in both modes (ONNX's definition).
  if (coord == "align_corners")
    return out == 1 ? 0.0 : double(o) * double(in - 1) / (outWidth - 1);
  if (coord == "asymmetric")
    return double(o) / scale;
  if (coord == "pytorch_half_pixel")
    return out == 1 ? 0.0 : (double(o) + 0.5) / scale - 0.5;
  if (coord == "half_pixel")
    return (double(o) + 0.5) / scale - 0.5;
  if (coord == "tf_half_pixel_for_nn")
    return (double(o) + 0.5) / scale;
  return -std::numeric_limits<double>::infinity();
}

FailureOr<ResizeAxis> frontend::tosaResizeAxis(int64_t in, int64_t out,
                                               double given, const Sampling &s,
                                               std::string &why) {
  // scale = n / d as a fraction (exact for sizes, approximated to 1/1000
  // for arbitrary float scales).
  int64_t n = out, d = in;
  if (given > 0) {
    n = int64_t(std::llround(given * 1000));
    d = 1000;
  }
  int64_t g = std::gcd(n, d);
  n /= g;
  d /= g;
  ResizeAxis a;
  const std::string &coord = s.coord;
  if (out == 1 &&
      (coord == "align_corners" || coord == "pytorch_half_pixel")) {
    a.num = 2;
    a.den = 2;
    a.offset = 0; // ONNX samples coordinate 0
  } else if (coord == "asymmetric") {
    a.num = 2 * n;
    a.den = 2 * d;
    a.offset = 0;
  } else if (coord == "half_pixel" || coord == "pytorch_half_pixel") {
    a.num = 2 * n;
    a.den = 2 * d;
    a.offset = d - n;
  } else if (coord == "tf_half_pixel_for_nn") {
    a.num = 2 * n;
    a.den = 2 * d;
    a.offset = d;
  } else if (coord == "align_corners" && in > 1 && in * n > d) {
    // x = o (in - 1) / (in scale - 1): ONNX divides by the unrounded output
    // length, which is out only when sizes are given.
    int64_t num = in * n - d, den = (in - 1) * d;
    int64_t common = std::gcd(num, den);
    a.num = 2 * (num / common);
    a.den = 2 * (den / common);
    a.offset = 0;
  } else {
    why = "coordinate_transformation_mode '" + coord +
          "' is not supported for " + std::to_string(in) + " -> " +
          std::to_string(out);
    return failure();
  }
  if (s.mode == "nearest") {
    // TOSA rounds half up; shift the sampling point for the other modes.
    if (s.nearestMode == "round_prefer_floor")
      a.offset -= 1;
    else if (s.nearestMode == "floor")
      a.offset -= a.num / 2;
    else if (s.nearestMode == "ceil")
      a.offset += a.num / 2 - 1;
    else if (s.nearestMode != "round_prefer_ceil") {
      why = "nearest_mode '" + s.nearestMode + "' is not supported";
      return failure();
    }
  }
  a.border = (out - 1) * a.den - (in - 1) * a.num + a.offset;
  return a;
}

FailureOr<Value> frontend::resizeNHWC(Emitter &e, Value x, int64_t outH,
                                      int64_t outW, const Sampling &s,
                                      ArrayRef<double> given,
                                      std::string &why) {
  RankedTensorType t = e.typeOf(x);
  Shape scale, offset, border;
  int64_t sizes[2][2] = {{t.getDimSize(1), outH}, {t.getDimSize(2), outW}};
  for (int k = 0; k < 2; ++k) {
    FailureOr<ResizeAxis> a =
        tosaResizeAxis(sizes[k][0], sizes[k][1],
                       given.empty() ? 0.0 : given[k], s, why);
    if (failed(a))
      return failure();
    scale.append({a->num, a->den});
    offset.push_back(a->offset);
    border.push_back(a->border);
  }
  auto outType = RankedTensorType::get(
      {t.getDimSize(0), outH, outW, t.getDimSize(3)}, t.getElementType());
  OpBuilder &b = e.builder;
  return Value(b.create<tosa::ResizeOp>(
      e.loc, outType, x, b.getDenseI64ArrayAttr(scale),
      b.getDenseI64ArrayAttr(offset), b.getDenseI64ArrayAttr(border),
      b.getStringAttr(s.mode == "nearest" ? "NEAREST_NEIGHBOR" : "BILINEAR")));
}
