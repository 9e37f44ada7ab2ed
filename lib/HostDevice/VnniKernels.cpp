//===- VnniKernels.cpp - int8 convolutions with AVX512 --------------------===//
//
// See QuantizedKernels.h (convInt8, depthwiseInt8). x86-64 only; elsewhere,
// and on CPUs without AVX512-VNNI, hasVnni() is false and nothing here
// runs.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/HostDevice/QuantizedKernels.h"

#include <algorithm>
#include <cstring>
#include <memory>

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

PackedDepthwiseInt8
packDepthwiseInt8(const int8_t *filter, size_t kernelH, size_t kernelW,
                  size_t channels, const int32_t *bias, int32_t inZero,
                  float inScale, const std::vector<float> &filterScales,
                  float outScale, int32_t outZero, int32_t lo, int32_t hi) {
  PackedDepthwiseInt8 p;
  p.channels = channels;
  p.kernelW = kernelW;
  p.blocks = (channels + 63) / 64;
  p.rowGroups = (kernelH + 3) / 4;
  p.weights.assign(p.blocks * kernelW * p.rowGroups * 256, 0);
  p.bias.assign(p.blocks * 64, 0);
  p.scales.assign(p.blocks * 64, 0.0f);
  p.pad = uint8_t(int8_t(inZero)) ^ 0x80;
  p.outZero = outZero;
  p.lo = lo;
  p.hi = hi;
  // vpunpck{l,h}bw then vpunpck{l,h}wd of 4 rows' 64 channels leave, in
  // vector k, 128-bit lane L, word j, channel 16L + 4k + j (its 4 rows'
  // bytes); the accumulators keep that order.
  for (size_t c = 0; c < channels; ++c) {
    size_t b = c / 64, lane = c % 64 / 16, k = c % 16 / 4, j = c % 4;
    size_t at = b * 64 + k * 16 + lane * 4 + j;
    int64_t sum = 0;
    for (size_t ky = 0; ky < kernelH; ++ky)
      for (size_t kx = 0; kx < kernelW; ++kx) {
        int8_t w = filter[(ky * kernelW + kx) * channels + c];
        sum += w;
        size_t vector = ((b * kernelW + kx) * p.rowGroups + ky / 4) * 4 + k;
        p.weights[vector * 64 + lane * 16 + j * 4 + ky % 4] = w;
      }
    // Inputs are read as x + 128 and the padding holds the zero point:
    // subtract (zero point + 128) times the filter's sum once, here.
    p.bias[at] =
        int32_t(int64_t(bias ? bias[c] : 0) - (int64_t(inZero) + 128) * sum);
    float s = filterScales[filterScales.size() == 1 ? 0 : c];
    p.scales[at] = float(double(inScale) * double(s) / double(outScale));
  }
  return p;
}

#ifdef NNAPI_MLIR_VNNI
namespace {

/// 64 bytes, as __m512i's storage in a std::vector.
struct alignas(64) Bytes64 {
  uint8_t bytes[64];
};

#define NNAPI_MLIR_VNNI_TARGET                                                 \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni")))

/// acc x scale (16 floats), rounded to nearest even, + zero.
NNAPI_MLIR_VNNI_TARGET __attribute__((always_inline)) inline __m512i
requantize(__m512i acc, const float *scale, __m512i zero) {
  return _mm512_add_epi32(_mm512_cvtps_epi32(_mm512_mul_ps(
                              _mm512_cvtepi32_ps(acc), _mm512_loadu_ps(scale))),
                          zero);
}

/// The output pixels of one block of 64 channels: vpdpbusd over each
/// pixel's window columns (KW x Groups of 4 vectors, 0 for any), then
/// requantization. Specialized for 3x3 windows, whose 12 weight vectors
/// stay in registers.
template <size_t KW, size_t Groups>
NNAPI_MLIR_VNNI_TARGET void
depthwiseBlock(const __m512i *columns, const int8_t *weights,
               const int32_t *bias, const float *scale, size_t kw,
               size_t groups, size_t outW, size_t pixelStep, size_t tapStep,
               __m512i zeroOut, __m512i lo, __m512i hi, int8_t *out,
               size_t outStep, __mmask64 mask) {
  if (KW)
    kw = KW, groups = Groups;
  const size_t vectors = kw * groups * 4;
  constexpr size_t kHeld = KW * Groups * 4;
  __m512i held[kHeld ? kHeld : 1];
  for (size_t i = 0; i < kHeld; ++i)
    held[i] = _mm512_loadu_si512(weights + 64 * i);
  for (size_t ox = 0; ox < outW; ++ox, out += outStep) {
    const __m512i *base = columns + ox * pixelStep;
    __m512i acc0 = _mm512_loadu_si512(bias);
    __m512i acc1 = _mm512_loadu_si512(bias + 16);
    __m512i acc2 = _mm512_loadu_si512(bias + 32);
    __m512i acc3 = _mm512_loadu_si512(bias + 48);
    for (size_t v = 0; v < vectors; v += 4) {
      // Window column v / (4 groups), row group (v / 4) % groups.
      const __m512i *col =
          base + (v / (4 * groups)) * tapStep + (v / 4 % groups) * 4;
      const int8_t *w = weights + 64 * v;
      acc0 = _mm512_dpbusd_epi32(acc0, col[0],
                                 kHeld ? held[v] : _mm512_loadu_si512(w));
      acc1 = _mm512_dpbusd_epi32(
          acc1, col[1], kHeld ? held[v + 1] : _mm512_loadu_si512(w + 64));
      acc2 = _mm512_dpbusd_epi32(
          acc2, col[2], kHeld ? held[v + 2] : _mm512_loadu_si512(w + 128));
      acc3 = _mm512_dpbusd_epi32(
          acc3, col[3], kHeld ? held[v + 3] : _mm512_loadu_si512(w + 192));
    }
    // Float32 requantization rounded to nearest even; the two packs put
    // the channels back in order.
    __m512i q8 = _mm512_packs_epi16(
        _mm512_packs_epi32(requantize(acc0, scale, zeroOut),
                           requantize(acc1, scale + 16, zeroOut)),
        _mm512_packs_epi32(requantize(acc2, scale + 32, zeroOut),
                           requantize(acc3, scale + 48, zeroOut)));
    q8 = _mm512_min_epi8(_mm512_max_epi8(q8, lo), hi);
    _mm512_mask_storeu_epi8(out, mask, q8);
  }
}

/// One output row of a depthwise convolution, block by block of 64
/// channels (see PackedDepthwiseInt8).
NNAPI_MLIR_VNNI_TARGET void depthwiseRow(const PackedDepthwiseInt8 &p,
                                         const Int8ConvGeometry &g,
                                         const int8_t *input, int8_t *output,
                                         size_t n, int64_t oy,
                                         std::vector<Bytes64> &storage) {
  // Locals: the int8 stores below may alias anything reached through p
  // or g.
  const size_t C = p.channels, kw = p.kernelW, groups = p.rowGroups;
  const size_t outW = g.outW, inW = g.inW, kh = size_t(g.kernelH);
  const size_t strideW = size_t(g.strideW), dilationW = size_t(g.dilationW);
  const size_t padLeft = size_t(g.padLeft);
  const __m512i pad = _mm512_set1_epi8(char(p.pad));
  const __m512i top = _mm512_set1_epi8(char(0x80));
  const __m512i zeroOut = _mm512_set1_epi32(p.outZero);
  const __m512i lo = _mm512_set1_epi8(char(p.lo));
  const __m512i hi = _mm512_set1_epi8(char(p.hi));
  // The window's input rows; rows outside the input (or past kh) read 64
  // bytes of the zero point, column after column (step 0).
  int8_t zeroLine[64];
  std::memset(zeroLine, int(int8_t(p.pad ^ 0x80)), sizeof(zeroLine));
  std::vector<const int8_t *> line(groups * 4, zeroLine);
  std::vector<size_t> step(groups * 4, 0);
  for (size_t ky = 0; ky < kh; ++ky) {
    int64_t iy = oy * g.strideH - g.padTop + int64_t(ky) * g.dilationH;
    if (iy >= 0 && iy < int64_t(g.inH)) {
      line[ky] = input + (n * g.inH + size_t(iy)) * inW * C;
      step[ky] = C;
    }
  }
  // Columns -padLeft .. width - padLeft - 1 of the padded input (the
  // padding columns hold the zero point), each as groups x 4 vectors.
  const size_t G4 = groups * 4;
  const size_t width =
      std::max(padLeft + inW, (outW - 1) * strideW + (kw - 1) * dilationW + 1);
  storage.resize(width * G4);
  auto *columns = reinterpret_cast<__m512i *>(storage.data());
  for (size_t x = 0; x < width; ++x)
    if (x < padLeft || x >= padLeft + inW)
      for (size_t r = 0; r < G4; ++r)
        columns[x * G4 + r] = pad;
  int8_t *out = output + (n * g.outH + size_t(oy)) * outW * C;
  for (size_t c0 = 0; c0 < C; c0 += 64) {
    __mmask64 mask =
        C - c0 >= 64 ? ~__mmask64(0) : (__mmask64(1) << (C - c0)) - 1;
    for (size_t gr = 0; gr < groups; ++gr) {
      const int8_t *at[4];
      size_t by[4];
      for (size_t i = 0; i < 4; ++i) {
        by[i] = step[gr * 4 + i];
        at[i] = line[gr * 4 + i] + (by[i] ? c0 : 0);
      }
      __m512i *col = columns + padLeft * G4 + gr * 4;
      for (size_t ix = 0; ix < inW; ++ix, col += G4) {
        __m512i r0 = _mm512_xor_si512(
            _mm512_maskz_loadu_epi8(mask, at[0] + ix * by[0]), top);
        __m512i r1 = _mm512_xor_si512(
            _mm512_maskz_loadu_epi8(mask, at[1] + ix * by[1]), top);
        __m512i r2 = _mm512_xor_si512(
            _mm512_maskz_loadu_epi8(mask, at[2] + ix * by[2]), top);
        __m512i r3 = _mm512_xor_si512(
            _mm512_maskz_loadu_epi8(mask, at[3] + ix * by[3]), top);
        __m512i r01lo = _mm512_unpacklo_epi8(r0, r1);
        __m512i r01hi = _mm512_unpackhi_epi8(r0, r1);
        __m512i r23lo = _mm512_unpacklo_epi8(r2, r3);
        __m512i r23hi = _mm512_unpackhi_epi8(r2, r3);
        col[0] = _mm512_unpacklo_epi16(r01lo, r23lo);
        col[1] = _mm512_unpackhi_epi16(r01lo, r23lo);
        col[2] = _mm512_unpacklo_epi16(r01hi, r23hi);
        col[3] = _mm512_unpackhi_epi16(r01hi, r23hi);
      }
    }
    const size_t b = c0 / 64;
    const int8_t *w = p.weights.data() + b * kw * groups * 256;
    const int32_t *bias = p.bias.data() + c0;
    const float *scale = p.scales.data() + c0;
    if (kw == 3 && groups == 1)
      depthwiseBlock<3, 1>(columns, w, bias, scale, kw, groups, outW,
                           strideW * G4, dilationW * G4, zeroOut, lo, hi,
                           out + c0, C, mask);
    else
      depthwiseBlock<0, 0>(columns, w, bias, scale, kw, groups, outW,
                           strideW * G4, dilationW * G4, zeroOut, lo, hi,
                           out + c0, C, mask);
  }
}

/// n bytes of int8 `from` as uint8 (top bit flipped).
__attribute__((target("avx512f,avx512bw"), always_inline)) inline void
copyFlipped(uint8_t *to, const uint8_t *from, size_t n) {
  const __m512i top = _mm512_set1_epi8(char(0x80));
  size_t i = 0;
  for (; i + 64 <= n; i += 64)
    _mm512_storeu_si512(to + i,
                        _mm512_xor_si512(_mm512_loadu_si512(from + i), top));
  if (i < n) {
    __mmask64 mask = (uint64_t(1) << (n - i)) - 1;
    _mm512_mask_storeu_epi8(
        to + i, mask,
        _mm512_xor_si512(_mm512_maskz_loadu_epi8(mask, from + i), top));
  }
}

/// `Rows` pixels of `in`, 4 channels per 32-bit word, rows of p.groups
/// words `rowBytes` apart: uint8 (the int8 input's top bit flipped), or
/// with `Flip` the int8 input itself, flipped here (on the port the
/// multiplies leave free).
template <int Rows, bool Flip>
NNAPI_MLIR_VNNI_TARGET void block(const PackedInt8Filter &p, const uint8_t *in,
                                  size_t rowBytes, int8_t *out) {
  const size_t F = p.outChannels;
  const __m512i top = _mm512_set1_epi8(char(0x80));
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
        int32_t word; // any alignment
        std::memcpy(&word, in + r * rowBytes + 4 * g, 4);
        __m512i x = _mm512_set1_epi32(word);
        if (Flip)
          x = _mm512_xor_si512(x, top);
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

#ifdef NNAPI_MLIR_VNNI
// Runs only where hasVnni().
NNAPI_MLIR_VNNI_TARGET
#endif
void convInt8(const PackedInt8Filter &p, const Int8ConvGeometry &g,
              const int8_t *input, int8_t *output, size_t pixelBegin,
              size_t pixelEnd) {
#ifdef NNAPI_MLIR_VNNI
  const size_t G = p.groups, C = g.channels;
  // A 1x1 window at stride 1 without padding over whole words of channels:
  // each output pixel's window is its input pixel, read in place.
  if (g.kernelH == 1 && g.kernelW == 1 && g.strideH == 1 && g.strideW == 1 &&
      g.padTop == 0 && g.padLeft == 0 && g.inH == g.outH && g.inW == g.outW &&
      C % 4 == 0 && G == C / 4) {
    const auto *pixels = reinterpret_cast<const uint8_t *>(input);
    size_t px = pixelBegin;
    for (; px + 4 <= pixelEnd; px += 4)
      block<4, true>(p, pixels + px * C, C, output + px * p.outChannels);
    for (; px < pixelEnd; ++px)
      block<1, true>(p, pixels + px * C, C, output + px * p.outChannels);
    return;
  }
  // Each output pixel's window as one row of uint8 words (im2col: taps in
  // the filter's [kh][kw][c] order, the padding the input's zero point),
  // once, so that the inner loop broadcasts straight from memory; the
  // row's bytes past the window are 0, their weights too.
  const uint8_t pad = uint8_t(int8_t(g.inZero)) ^ 0x80;
  // Every byte is written below.
  std::unique_ptr<uint32_t[]> words(new uint32_t[(pixelEnd - pixelBegin) * G]);
  size_t n = pixelBegin / (g.outH * g.outW);
  size_t rest = pixelBegin % (g.outH * g.outW);
  int64_t oy = int64_t(rest / g.outW), ox = int64_t(rest % g.outW);
  const auto *in = reinterpret_cast<const uint8_t *>(input);
  const int64_t inW = int64_t(g.inW), inH = int64_t(g.inH);
  const size_t rowBytes = size_t(g.kernelW) * C; // one kernel row, if whole
  for (size_t px = pixelBegin; px < pixelEnd; ++px) {
    auto *row =
        reinterpret_cast<uint8_t *>(words.get() + (px - pixelBegin) * G);
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
    if (at != row + 4 * G)
      std::memset(at, 0, size_t(row + 4 * G - at));
    if (++ox == int64_t(g.outW)) {
      ox = 0;
      if (++oy == int64_t(g.outH)) {
        oy = 0;
        ++n;
      }
    }
  }
  const auto *rows = reinterpret_cast<const uint8_t *>(words.get());
  size_t px = pixelBegin;
  for (; px + 4 <= pixelEnd; px += 4)
    block<4, false>(p, rows + (px - pixelBegin) * 4 * G, 4 * G,
                    output + px * p.outChannels);
  for (; px < pixelEnd; ++px)
    block<1, false>(p, rows + (px - pixelBegin) * 4 * G, 4 * G,
                    output + px * p.outChannels);
#else
  (void)p, (void)input, (void)output, (void)pixelBegin, (void)pixelEnd;
#endif
}

void depthwiseInt8(const PackedDepthwiseInt8 &p, const Int8ConvGeometry &g,
                   const int8_t *input, int8_t *output, size_t rowBegin,
                   size_t rowEnd) {
#ifdef NNAPI_MLIR_VNNI
  if (g.outW == 0)
    return;
  std::vector<Bytes64> columns;
  for (size_t r = rowBegin; r < rowEnd; ++r)
    depthwiseRow(p, g, input, output, r / g.outH, int64_t(r % g.outH), columns);
#else
  (void)p, (void)g, (void)input, (void)output, (void)rowBegin, (void)rowEnd;
#endif
}

} // namespace nnapi_mlir::host
