//===- QuantizedKernels.h - 8-bit quantized kernels, NNAPI's arithmetic ---===//
//
// Reference kernels for TENSOR_QUANT8_ASYMM (uint8) and
// TENSOR_QUANT8_ASYMM_SIGNED (int8) data, computed as NNAPI's CPU
// implementation documents it: integer products of values minus their zero
// points in int32, plus the int32 bias, then requantized with a 32-bit
// fixed-point multiplier and a power-of-two shift (the real multiplier
// input scale x filter scale / output scale), rounded, plus the output
// zero point, clamped to the fused activation's range and the type's.
// Filters may be TENSOR_QUANT8_SYMM_PER_CHANNEL (int8, zero point 0, one
// scale per output channel). Like Kernels.h, they know no opcodes.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_HOSTDEVICE_QUANTIZEDKERNELS_H
#define NNAPI_MLIR_HOSTDEVICE_QUANTIZEDKERNELS_H

#include "nnapi-mlir/HostDevice/Kernels.h"

#include <cstdint>
#include <vector>

namespace nnapi_mlir::host {

/// 8-bit quantized data as the kernels read it.
struct Quant8 {
  const uint8_t *data = nullptr;
  bool isSigned = false; ///< int8 (else uint8)
  int32_t zeroPoint = 0;
  int32_t operator[](size_t i) const {
    return isSigned ? int32_t(int8_t(data[i])) : int32_t(data[i]);
  }
};

/// 8-bit quantized data as the kernels write it.
struct Quant8Out {
  uint8_t *data = nullptr;
  bool isSigned = false;
  int32_t zeroPoint = 0;
  float scale = 1.0f;
  int32_t lowest() const { return isSigned ? -128 : 0; }
  int32_t highest() const { return isSigned ? 127 : 255; }
  void store(size_t i, int32_t v) const {
    data[i] = uint8_t(isSigned ? uint8_t(int8_t(v)) : uint8_t(v));
  }
};

/// A real multiplier as a Q0.31 fixed-point multiplier and a shift (left
/// when positive): real = multiplier / 2^31 * 2^shift.
struct FixedPointMultiplier {
  int32_t multiplier = 0;
  int32_t shift = 0;
};
FixedPointMultiplier quantizeMultiplier(double real);
/// x * m rounded as NNAPI does: the doubling high product rounded to
/// nearest (halves up, saturating at INT32_MIN * INT32_MIN), then a
/// rounding right shift (halves away from zero).
int32_t multiplyByQuantizedMultiplier(int32_t x, FixedPointMultiplier m);

/// The range [lo, hi] of fused activation `fuseCode` on `out`'s scale
/// (ReLU: from the zero point; ReLU1: +-1; ReLU6: 0 to 6), within the type.
void quantizedActivationRange(int32_t fuseCode, const Quant8Out &out,
                              int32_t &lo, int32_t &hi);

/// CONV_2D (depthMultiplier 0) or DEPTHWISE_CONV_2D (depthMultiplier >= 1),
/// NHWC, filters as Kernels.h says. `multipliers` holds one entry, or one
/// per output channel (per-channel filters). `bias` may be null.
void quantizedConv2d(const Quant8 &input, const Shape &inputShape,
                     const Quant8 &filter, const Shape &filterShape,
                     const int32_t *bias, const Quant8Out &output,
                     const Shape &outputShape, const Window &w,
                     const std::vector<FixedPointMultiplier> &multipliers,
                     int32_t depthMultiplier = 0);

/// FULLY_CONNECTED: `batch` rows of input against weights [units, in].
void quantizedFullyConnected(const Quant8 &input, const Quant8 &weights,
                             const Shape &weightsShape, const int32_t *bias,
                             const Quant8Out &output, uint32_t batch,
                             FixedPointMultiplier multiplier,
                             int32_t fuseCode);

/// ADD with numpy broadcasting (shapes aligned at their last dimension):
/// both inputs, minus their zero points, shifted left by 20 bits and scaled
/// to twice the larger input scale, summed, requantized to the output's
/// scale, clamped to the fused activation's range (NNAPI's arithmetic).
void quantizedAdd(const Quant8 &a, const Shape &aShape, float aScale,
                  const Quant8 &b, const Shape &bShape, float bScale,
                  const Quant8Out &output, const Shape &outputShape,
                  int32_t fuseCode);

/// MUL with numpy broadcasting: (a - za) (b - zb) requantized by the real
/// multiplier a scale x b scale / output scale (NNAPI's fixed-point
/// arithmetic), clamped to the fused activation's range.
void quantizedMul(const Quant8 &a, const Shape &aShape, float aScale,
                  const Quant8 &b, const Shape &bShape, float bScale,
                  const Quant8Out &output, const Shape &outputShape,
                  int32_t fuseCode);

/// MAX_POOL_2D (`average` false) or AVERAGE_POOL_2D, NHWC, the output
/// keeping the input's scale and zero point: the largest stored value of
/// the window, or the sum of the stored values of the window's elements
/// inside the input divided by their count, rounded half away from zero
/// (NNAPI's arithmetic); then clamped to the fused activation's range
/// (w.fuseCode).
void quantizedPool2d(const Quant8 &input, const Shape &inputShape,
                     const Quant8Out &output, const Shape &outputShape,
                     const Window &w, int32_t filterW, int32_t filterH,
                     bool average);

/// CONCATENATION along `axis`: inputs of the output's scale and zero point
/// copied, others requantized: round((q - zero point) x (scale / output
/// scale)) + output zero point, in float32, halves away from zero,
/// saturated.
void quantizedConcatenation(const std::vector<Quant8> &inputs,
                            const std::vector<float> &scales,
                            const std::vector<Shape> &shapes, int32_t axis,
                            const Quant8Out &output);

/// A CONV_2D on int8 data (TENSOR_QUANT8_ASYMM_SIGNED) for CPUs with
/// AVX512-VNNI (VnniKernels.cpp), a matrix product per output pixel of its
/// window (im2col) and the filter: int8 filters
/// packed as [ceil(in / 4)][out rounded up to 16][4], the input read as
/// uint8 (x + 128) so that one vpdpbusd multiplies 4 channels of 16 output
/// channels, the bias less (input zero point + 128) x the filter's sum, and
/// float32 requantization (accumulator x input scale x filter scale /
/// output scale, rounded to nearest even, as XNNPACK's and ONNX Runtime's).
/// The bound (tested): within one quantum of NNAPI's fixed-point
/// requantization (quantizedConv2d), apart only on near-ties, accumulators
/// past 2^24 included (design.md, "int8 requantization").
struct PackedInt8Filter {
  size_t inChannels = 0, outChannels = 0, groups = 0, paddedOut = 0;
  std::vector<int8_t> weights;
  std::vector<int32_t> bias;
  std::vector<float> scales;
  int32_t outZero = 0, lo = -128, hi = 127;
};
/// Whether this CPU runs convInt8 (x86-64 with AVX512-VNNI).
bool hasVnni();
/// `filter` [out, in] int8 (zero point 0), one scale or one per output
/// channel; [lo, hi] the fused activation's range.
PackedInt8Filter packInt8Filter(const int8_t *filter, size_t outChannels,
                                size_t inChannels, const int32_t *bias,
                                int32_t inZero, float inScale,
                                const std::vector<float> &filterScales,
                                float outScale, int32_t outZero, int32_t lo,
                                int32_t hi);
/// The window of a CONV_2D run by convInt8.
struct Int8ConvGeometry {
  size_t inH = 1, inW = 1, channels = 1, outH = 1, outW = 1;
  int64_t kernelH = 1, kernelW = 1, strideH = 1, strideW = 1;
  int64_t dilationH = 1, dilationW = 1, padTop = 0, padLeft = 0;
  int32_t inZero = 0; ///< What the padding holds.
};
/// Output pixels [pixelBegin, pixelEnd) (batch x height x width, NHWC) of a
/// CONV_2D on int8 data whose filter p packed as [out, kh x kw x in].
void convInt8(const PackedInt8Filter &p, const Int8ConvGeometry &g,
              const int8_t *input, int8_t *output, size_t pixelBegin,
              size_t pixelEnd);

/// A DEPTHWISE_CONV_2D on int8 data with depth multiplier 1 for CPUs with
/// AVX512-VNNI (VnniKernels.cpp; this XNNPACK's qc8 depthwise kernels
/// multiply 32-bit lanes). Per output row and block of 64 channels, each
/// input column's window rows are interleaved once, 4 rows of a channel per
/// 32-bit word as uint8 (the int8 input's top bit flipped, rows outside the
/// input the zero point), so that one vpdpbusd computes 4 taps of 16
/// channels and each column serves every output pixel whose window covers
/// it. The filter is packed to match: [blocks][kw][row groups][4][64]
/// bytes, the bias less (zero point + 128) x the filter's sum, the bias
/// and scales in the accumulators' lane order; float32 requantization
/// rounded to nearest even (as convInt8's).
struct PackedDepthwiseInt8 {
  size_t channels = 0, blocks = 0, kernelW = 0, rowGroups = 0;
  std::vector<int8_t> weights;
  std::vector<int32_t> bias; ///< [blocks][64]
  std::vector<float> scales; ///< [blocks][64]
  uint8_t pad = 0x80;        ///< The zero point, as uint8.
  int32_t outZero = 0, lo = -128, hi = 127;
};
/// `filter` [kh, kw, channels] int8 (NNAPI's [1, kh, kw, channels], zero
/// point 0), one scale or one per channel; [lo, hi] the fused activation's
/// range.
PackedDepthwiseInt8
packDepthwiseInt8(const int8_t *filter, size_t kernelH, size_t kernelW,
                  size_t channels, const int32_t *bias, int32_t inZero,
                  float inScale, const std::vector<float> &filterScales,
                  float outScale, int32_t outZero, int32_t lo, int32_t hi);
/// Output rows [rowBegin, rowEnd) (batch x height, NHWC) of a depthwise
/// convolution packed as p, on g's window (g.channels == p.channels); runs
/// where hasVnni().
void depthwiseInt8(const PackedDepthwiseInt8 &p, const Int8ConvGeometry &g,
                   const int8_t *input, int8_t *output, size_t rowBegin,
                   size_t rowEnd);

/// QUANTIZE: round(x / scale) + zero point (std::round: halves away from
/// zero), saturated.
void quantize(const float *input, const Quant8Out &output, size_t count);
/// DEQUANTIZE: (q - zero point) * scale.
void dequantize(const Quant8 &input, float scale, float *output,
                size_t count);

} // namespace nnapi_mlir::host

#endif // NNAPI_MLIR_HOSTDEVICE_QUANTIZEDKERNELS_H
