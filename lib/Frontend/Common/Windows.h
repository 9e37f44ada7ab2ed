//===- Windows.h - Sliding windows and resampling, once ---------*- C++ -*-===//
//
// The arithmetic of window operations (convolutions, transposed
// convolutions, pools) and of resizes that both importers need: how much
// padding a window mode means, and the scale, offset and border of a
// tosa.resize that samples where a model's coordinate mode says. Written in
// ONNX's vocabulary (auto_pad, coordinate_transformation_mode,
// nearest_mode), onto which TFLite's SAME / VALID and align_corners /
// half_pixel_centers map. Private to lib/Frontend.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_FRONTEND_COMMON_WINDOWS_H
#define NNAPI_MLIR_LIB_FRONTEND_COMMON_WINDOWS_H

#include "Emitter.h"

#include <string>
#include <utility>

namespace mlir::nnapi::frontend {

/// How a window's padding is given.
enum class AutoPad {
  Explicit,  ///< As given (ONNX's pads).
  Valid,     ///< None.
  SameUpper, ///< ceil(in / stride) outputs, the smaller half first (TFLite's
             ///< SAME).
  SameLower, ///< The same, the larger half first.
};

/// The padding (before, after) of one spatial axis of a window op whose
/// input has `in` entries and output `out`, for a window of `kernel`
/// entries at `stride` and `dilation`. `given` is used with
/// AutoPad::Explicit. A transposed convolution's padding follows from its
/// output size (and `outputPadding`); other windows' is then fitted to `out`
/// exactly: a pool's end grows for ceil_mode (`growEnd`), and an end the
/// last stride does not reach is trimmed.
std::pair<int64_t, int64_t> windowPads(AutoPad mode, int64_t in, int64_t out,
                                       int64_t kernel, int64_t stride,
                                       int64_t dilation,
                                       std::pair<int64_t, int64_t> given,
                                       bool transposed = false,
                                       int64_t outputPadding = 0,
                                       bool growEnd = false);

/// How one dimension of a resize samples its input.
struct Sampling {
  std::string mode = "nearest"; ///< nearest, linear or cubic
  /// ONNX's coordinate_transformation_mode: half_pixel, pytorch_half_pixel,
  /// align_corners, asymmetric, tf_half_pixel_for_nn.
  std::string coord = "half_pixel";
  /// For nearest: round_prefer_floor, round_prefer_ceil, floor, ceil.
  std::string nearestMode = "round_prefer_floor";
  double cubicA = -0.75;
  bool excludeOutside = false;
};

/// The input coordinate output index `o` samples, or a negative infinity
/// for a mode this does not know.
double sourceCoordinate(int64_t o, int64_t in, int64_t out, double scale,
                        llvm::StringRef coord);

/// tosa.resize's scale (numerator, denominator), offset and border for one
/// dimension resized from `in` to `out` as `s` says, with `given` the
/// model's scale (0: out / in). Empty with `why` set if tosa.resize cannot
/// sample that way.
struct ResizeAxis {
  int64_t num = 0, den = 0, offset = 0, border = 0;
};
FailureOr<ResizeAxis> tosaResizeAxis(int64_t in, int64_t out, double given,
                                     const Sampling &s, std::string &why);

/// tosa.resize of the H and W dimensions of NHWC `x` to `outH` x `outW`
/// (`given`: the model's scales for H and W, or empty). Failure with `why`.
FailureOr<Value> resizeNHWC(Emitter &e, Value x, int64_t outH, int64_t outW,
                            const Sampling &s, ArrayRef<double> given,
                            std::string &why);

} // namespace mlir::nnapi::frontend

#endif // NNAPI_MLIR_LIB_FRONTEND_COMMON_WINDOWS_H
