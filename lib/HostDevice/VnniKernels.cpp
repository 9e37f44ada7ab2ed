//===- VnniKernels.cpp - int8 convolutions with AVX512-VNNI ---------------===//
//
// See QuantizedKernels.h (convInt8). x86-64 only; elsewhere, and on
// CPUs without AVX512-VNNI, hasVnni() is false and nothing here runs.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/HostDevice/QuantizedKernels.h"

#include <algorithm>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define NNAPI_MLIR_VNNI 1
#endif

namespace nnapi_mlir::host {

bool hasVnni() {
#ifdef NNAPI_MLIR_VNNI
  static const bool has = __builtin_cpu_supports("avx512f") &&
                          __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vl") &&
                          __builtin_cpu_supports("avx512vnni");
  return has;
#else
  return false;
#endif
}

PackedInt8Filter packInt8Filter(const int8_t *filter, size_t outChannels,
                                size_t inChannels, const int32_t *bias,
                                int32_t inZero, float inScale,
                                const std::vector<float> &filterScales,
                                float outScale, int32_t outZero, int32_t lo,
                                int32_t hi) {
  PackedInt8Filter p;
  p.inChannels = inChannels;
  p.outChannels = outChannels;
  p.groups = (inChannels + 3) / 4;
  p.paddedOut = (outChannels + 15) / 16 * 16;
  p.weights.assign(p.groups * p.paddedOut * 4, 0);
  p.bias.assign(p.paddedOut, 0);
  p.scales.assign(p.paddedOut, 0.0f);
  p.outZero = outZero;
  p.lo = lo;
  p.hi = hi;
  for (size_t f = 0; f < outChannels; ++f) {
    int64_t sum = 0;
    for (size_t c = 0; c < inChannels; ++c) {
      int8_t w = filter[f * inChannels + c];
      p.weights[((c / 4) * p.paddedOut + f) * 4 + c % 4] = w;
      sum += w;
    }
    // The input is read as uint8 (x + 128): subtract (zero point + 128)
    // times the filter's sum once, in the bias.
    p.bias[f] = int32_t(int64_t(bias ? bias[f] : 0) -
                        (int64_t(inZero) + 128) * sum);
    float s = filterScales[filterScales.size() == 1 ? 0 : f];
    p.scales[f] = float(double(inScale) * double(s) / double(outScale));
  }
  return p;
}

#ifdef NNAPI_MLIR_VNNI
namespace {

/// n bytes of int8 `from` as uint8 (top bit flipped), 8 at a time.
inline void copyFlipped(uint8_t *to, const uint8_t *from, size_t n) {
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t v;
    std::memcpy(&v, from + i, 8);
    v ^= 0x8080808080808080ull;
    std::memcpy(to + i, &v, 8);
  }
  for (; i < n; ++i)
    to[i] = from[i] ^ 0x80;
}

/// `Rows` pixels of `in`: uint8 (the int8 input's top bit flipped), 4
/// channels per 32-bit word, rows of p.groups words.
template <int Rows>
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni"))) void
block(const PackedInt8Filter &p, const uint32_t *in, int8_t *out) {
  const size_t G = p.groups, F = p.outChannels;
  const __m512i zero = _mm512_set1_epi32(p.outZero);
  const __m512i lo = _mm512_set1_epi32(p.lo), hi = _mm512_set1_epi32(p.hi);
  for (size_t f0 = 0; f0 < F; f0 += 32) {
    bool two = f0 + 16 < F;
    __m512i acc[Rows][2];
    __m512i b0 = _mm512_loadu_si512(p.bias.data() + f0);
    __m512i b1 = two ? _mm512_loadu_si512(p.bias.data() + f0 + 16) : b0;
    for (int r = 0; r < Rows; ++r) {
      acc[r][0] = b0;
      acc[r][1] = b1;
    }
    const int8_t *w = p.weights.data() + f0 * 4;
    for (size_t g = 0; g < p.groups; ++g, w += p.paddedOut * 4) {
      __m512i w0 = _mm512_loadu_si512(w);
      __m512i w1 = two ? _mm512_loadu_si512(w + 64) : w0;
      for (int r = 0; r < Rows; ++r) {
        __m512i x = _mm512_set1_epi32(int32_t(in[r * G + g]));
        acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], x, w0);
        if (two)
          acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], x, w1);
      }
    }
    for (int half = 0; half < (two ? 2 : 1); ++half) {
      size_t f = f0 + 16 * size_t(half);
      __m512 scale = _mm512_loadu_ps(p.scales.data() + f);
      __mmask16 mask = F - f >= 16 ? __mmask16(0xFFFF)
                                   : __mmask16((1u << (F - f)) - 1);
      for (int r = 0; r < Rows; ++r) {
        // Float32 requantization, rounded to nearest even (as XNNPACK's
        // and ONNX Runtime's).
        __m512 v = _mm512_mul_ps(_mm512_cvtepi32_ps(acc[r][half]), scale);
        __m512i q = _mm512_add_epi32(_mm512_cvtps_epi32(v), zero);
        q = _mm512_min_epi32(_mm512_max_epi32(q, lo), hi);
        _mm_mask_storeu_epi8(out + r * F + f, mask, _mm512_cvtsepi32_epi8(q));
      }
    }
  }
}

} // namespace
#endif

void convInt8(const PackedInt8Filter &p, const Int8ConvGeometry &g,
              const int8_t *input, int8_t *output, size_t pixelBegin,
              size_t pixelEnd) {
#ifdef NNAPI_MLIR_VNNI
  // Each output pixel's window as one row of uint8 words (im2col: taps in
  // the filter's [kh][kw][c] order, the padding the input's zero point),
  // once, so that the inner loop broadcasts straight from memory; the
  // row's bytes past the window are 0, their weights too.
  const size_t G = p.groups, C = g.channels;
  const uint8_t pad = uint8_t(int8_t(g.inZero)) ^ 0x80;
  std::vector<uint32_t> words((pixelEnd - pixelBegin) * G);
  size_t n = pixelBegin / (g.outH * g.outW);
  size_t rest = pixelBegin % (g.outH * g.outW);
  int64_t oy = int64_t(rest / g.outW), ox = int64_t(rest % g.outW);
  const auto *in = reinterpret_cast<const uint8_t *>(input);
  const int64_t inW = int64_t(g.inW), inH = int64_t(g.inH);
  const size_t rowBytes = size_t(g.kernelW) * C; // one kernel row, if whole
  for (size_t px = pixelBegin; px < pixelEnd; ++px) {
    auto *row = reinterpret_cast<uint8_t *>(words.data() +
                                            (px - pixelBegin) * G);
    uint8_t *at = row;
    int64_t x0 = ox * g.strideW - g.padLeft;
    int64_t x1 = x0 + (g.kernelW - 1) * g.dilationW;
    bool wholeRows = g.dilationW == 1 && x0 >= 0 && x1 < inW;
    for (int64_t ky = 0; ky < g.kernelH; ++ky) {
      int64_t iy = oy * g.strideH - g.padTop + ky * g.dilationH;
      if (iy < 0 || iy >= inH) {
        std::memset(at, pad, rowBytes);
        at += rowBytes;
        continue;
      }
      const uint8_t *line = in + (n * g.inH + size_t(iy)) * g.inW * C;
      if (wholeRows) { // the kernel row's taps are contiguous
        copyFlipped(at, line + size_t(x0) * C, rowBytes);
        at += rowBytes;
        continue;
      }
      for (int64_t kx = 0; kx < g.kernelW; ++kx, at += C) {
        int64_t ix = x0 + kx * g.dilationW;
        if (ix < 0 || ix >= inW)
          std::memset(at, pad, C);
        else
          copyFlipped(at, line + size_t(ix) * C, C);
      }
    }
    std::memset(at, 0, size_t(row + 4 * G - at));
    if (++ox == int64_t(g.outW)) {
      ox = 0;
      if (++oy == int64_t(g.outH)) {
        oy = 0;
        ++n;
      }
    }
  }
  size_t px = pixelBegin;
  for (; px + 4 <= pixelEnd; px += 4)
    block<4>(p, words.data() + (px - pixelBegin) * G,
             output + px * p.outChannels);
  for (; px < pixelEnd; ++px)
    block<1>(p, words.data() + (px - pixelBegin) * G,
             output + px * p.outChannels);
#else
  (void)p, (void)input, (void)output, (void)pixelBegin, (void)pixelEnd;
#endif
}

} // namespace nnapi_mlir::host
