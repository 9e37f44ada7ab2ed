//===- WindowKernels.cpp - Reference convolutions, pools, matmuls, resizes ===//
//
// The kernels of Kernels.h that slide a window or contract a dimension:
// convolutions, pools, fully connected, batch matmul, resizes. The oracle in
// tests for the XNNPACK steps and the fallback for what they lack.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/HostDevice/Kernels.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace nnapi_mlir::host {

void conv2d(const float *input, const Shape &is, const float *filter,
            const Shape &fs, const float *bias, float *output,
            const Shape &os, const Window &w, int32_t groups) {
  const int32_t batches = is[0], inH = is[1], inW = is[2], inC = is[3];
  const int32_t outC = fs[0], kH = fs[1], kW = fs[2], groupC = fs[3];
  const int32_t outPerGroup = outC / groups;
  const int32_t outH = os[1], outW = os[2];
  for (int32_t n = 0; n < batches; ++n)
    for (int32_t oy = 0; oy < outH; ++oy)
      for (int32_t ox = 0; ox < outW; ++ox) {
        float *out = output + ((size_t(n) * outH + oy) * outW + ox) * outC;
        for (int32_t oc = 0; oc < outC; ++oc)
          out[oc] = bias ? bias[oc] : 0.0f;
        for (int32_t ky = 0; ky < kH; ++ky) {
          int32_t iy = oy * w.strideH - w.padTop + ky * w.dilationH;
          if (iy < 0 || iy >= inH)
            continue;
          for (int32_t kx = 0; kx < kW; ++kx) {
            int32_t ix = ox * w.strideW - w.padLeft + kx * w.dilationW;
            if (ix < 0 || ix >= inW)
              continue;
            const float *in = input + ((size_t(n) * inH + iy) * inW + ix) * inC;
            for (int32_t oc = 0; oc < outC; ++oc) {
              // Output group g reads input channels [g * groupC, ...).
              const float *x = in + size_t(oc / outPerGroup) * groupC;
              const float *f =
                  filter + ((size_t(oc) * kH + ky) * kW + kx) * groupC;
              float acc = 0.0f;
              for (int32_t ic = 0; ic < groupC; ++ic)
                acc += x[ic] * f[ic];
              out[oc] += acc;
            }
          }
        }
        applyFusedActivation(out, outC, w.fuseCode);
      }
}

void depthwiseConv2d(const float *input, const Shape &is, const float *filter,
                     const Shape &fs, const float *bias, float *output,
                     const Shape &os, const Window &w,
                     int32_t depthMultiplier) {
  const int32_t batches = is[0], inH = is[1], inW = is[2], inC = is[3];
  const int32_t kH = fs[1], kW = fs[2], outC = fs[3];
  const int32_t outH = os[1], outW = os[2];
  for (int32_t n = 0; n < batches; ++n)
    for (int32_t oy = 0; oy < outH; ++oy)
      for (int32_t ox = 0; ox < outW; ++ox) {
        float *out = output + ((size_t(n) * outH + oy) * outW + ox) * outC;
        for (int32_t oc = 0; oc < outC; ++oc)
          out[oc] = bias ? bias[oc] : 0.0f;
        for (int32_t ky = 0; ky < kH; ++ky) {
          int32_t iy = oy * w.strideH - w.padTop + ky * w.dilationH;
          if (iy < 0 || iy >= inH)
            continue;
          for (int32_t kx = 0; kx < kW; ++kx) {
            int32_t ix = ox * w.strideW - w.padLeft + kx * w.dilationW;
            if (ix < 0 || ix >= inW)
              continue;
            const float *in = input + ((size_t(n) * inH + iy) * inW + ix) * inC;
            const float *f = filter + (size_t(ky) * kW + kx) * outC;
            for (int32_t ic = 0; ic < inC; ++ic)
              for (int32_t m = 0; m < depthMultiplier; ++m) {
                int32_t oc = ic * depthMultiplier + m;
                out[oc] += in[ic] * f[oc];
              }
          }
        }
        applyFusedActivation(out, outC, w.fuseCode);
      }
}

void transposeConv2d(const float *input, const Shape &is, const float *filter,
                     const Shape &fs, const float *bias, float *output,
                     const Shape &os, const Window &w) {
  const int32_t batches = is[0], inH = is[1], inW = is[2], inC = is[3];
  const int32_t outC = fs[0], kH = fs[1], kW = fs[2];
  const int32_t outH = os[1], outW = os[2];
  // Output-stationary: output pixel (oy, ox) gathers input pixel (iy, ix)
  // through filter tap (ky, kx) when iy * stride + ky = oy + padTop.
  for (int32_t n = 0; n < batches; ++n)
    for (int32_t oy = 0; oy < outH; ++oy)
      for (int32_t ox = 0; ox < outW; ++ox) {
        float *out = output + ((size_t(n) * outH + oy) * outW + ox) * outC;
        for (int32_t oc = 0; oc < outC; ++oc)
          out[oc] = bias[oc];
        for (int32_t ky = 0; ky < kH; ++ky) {
          int32_t y = oy + w.padTop - ky;
          if (y < 0 || y % w.strideH || y / w.strideH >= inH)
            continue;
          int32_t iy = y / w.strideH;
          for (int32_t kx = 0; kx < kW; ++kx) {
            int32_t x = ox + w.padLeft - kx;
            if (x < 0 || x % w.strideW || x / w.strideW >= inW)
              continue;
            int32_t ix = x / w.strideW;
            const float *in = input + ((size_t(n) * inH + iy) * inW + ix) * inC;
            for (int32_t oc = 0; oc < outC; ++oc) {
              const float *f = filter + ((size_t(oc) * kH + ky) * kW + kx) * inC;
              float acc = 0.0f;
              for (int32_t ic = 0; ic < inC; ++ic)
                acc += in[ic] * f[ic];
              out[oc] += acc;
            }
          }
        }
        applyFusedActivation(out, outC, w.fuseCode);
      }
}

void fullyConnected(const float *input, const float *weights,
                    const Shape &ws, const float *bias, float *output,
                    uint32_t batch, int32_t fuseCode) {
  const uint32_t units = ws[0], inSize = ws[1];
  for (uint32_t b = 0; b < batch; ++b) {
    const float *in = input + size_t(b) * inSize;
    float *out = output + size_t(b) * units;
    for (uint32_t u = 0; u < units; ++u) {
      const float *row = weights + size_t(u) * inSize;
      float acc = bias ? bias[u] : 0.0f;
      for (uint32_t i = 0; i < inSize; ++i)
        acc += in[i] * row[i];
      out[u] = acc;
    }
    applyFusedActivation(out, units, fuseCode);
  }
}

void maxPool2d(const float *input, const Shape &is, float *output,
               const Shape &os, const Window &w, int32_t filterW,
               int32_t filterH) {
  forEachPoolWindow(
      is, os, w, filterW, filterH, -std::numeric_limits<float>::infinity(),
      [&](size_t i) { return input[i]; },
      [](float a, float b) { return std::max(a, b); },
      [&](size_t i, float acc, int32_t) { output[i] = acc; });
  applyFusedActivation(output, numElements(os), w.fuseCode);
}

void averagePool2d(const float *input, const Shape &is, float *output,
                   const Shape &os, const Window &w, int32_t filterW,
                   int32_t filterH) {
  forEachPoolWindow(
      is, os, w, filterW, filterH, 0.0f, [&](size_t i) { return input[i]; },
      [](float a, float b) { return a + b; },
      [&](size_t i, float acc, int32_t count) {
        output[i] = count > 0 ? acc / count : 0.0f;
      });
  applyFusedActivation(output, numElements(os), w.fuseCode);
}

void batchMatmul(const float *a, const Shape &as, bool adjA, const float *b,
                 const Shape &bs, bool adjB, float *output) {
  size_t r = as.size();
  size_t m = adjA ? as[r - 1] : as[r - 2], k = adjA ? as[r - 2] : as[r - 1];
  size_t n = adjB ? bs[r - 2] : bs[r - 1];
  size_t batches = numElements(as) / (m * k);
  for (size_t p = 0; p < batches; ++p) {
    const float *ap = a + p * m * k, *bp = b + p * k * n;
    float *op = output + p * m * n;
    for (size_t i = 0; i < m; ++i)
      for (size_t j = 0; j < n; ++j) {
        float sum = 0.0f;
        for (size_t q = 0; q < k; ++q)
          sum += (adjA ? ap[q * m + i] : ap[i * k + q]) *
                 (adjB ? bp[j * k + q] : bp[q * n + j]);
        op[i * n + j] = sum;
      }
  }
}

namespace {
/// NNAPI's resize scale along one dimension, in float as drivers compute it.
float resizeScale(uint32_t in, uint32_t out, Resize how) {
  if (how.alignCorners && out > 1)
    return float(in - 1) / float(out - 1);
  return float(in) / float(out);
}

/// Bilinear taps along one dimension: output index o reads lower[o] with
/// weight 1 - frac[o] and upper[o] with frac[o]. A sample before the first
/// pixel gets lower = upper = 0, after the last lower = upper = in - 1, so
/// it takes the edge value.
struct Taps {
  std::vector<uint32_t> lower, upper;
  std::vector<float> frac;
};
Taps bilinearTaps(uint32_t in, uint32_t out, Resize how) {
  Taps t;
  float scale = resizeScale(in, out, how);
  for (uint32_t o = 0; o < out; ++o) {
    float x = how.halfPixelCenters ? (float(o) + 0.5f) * scale - 0.5f
                                   : float(o) * scale;
    float lo = std::floor(x);
    int64_t l = std::clamp<int64_t>(int64_t(lo), 0, int64_t(in) - 1);
    int64_t u = std::clamp<int64_t>(int64_t(std::ceil(x)), 0, int64_t(in) - 1);
    t.lower.push_back(uint32_t(l));
    t.upper.push_back(uint32_t(u));
    t.frac.push_back(l == u ? 0.0f : x - lo);
  }
  return t;
}

std::vector<uint32_t> nearestTaps(uint32_t in, uint32_t out, Resize how) {
  std::vector<uint32_t> t;
  float scale = resizeScale(in, out, how);
  float offset = how.halfPixelCenters ? 0.5f : 0.0f;
  for (uint32_t o = 0; o < out; ++o) {
    float x = (float(o) + offset) * scale;
    int64_t i = int64_t(how.alignCorners ? std::round(x) : std::floor(x));
    t.push_back(uint32_t(std::clamp<int64_t>(i, 0, int64_t(in) - 1)));
  }
  return t;
}
} // namespace

void resizeBilinear(const float *input, const Shape &is, float *output,
                    const Shape &os, Resize how) {
  const uint32_t inH = is[1], inW = is[2], c = is[3];
  const uint32_t outH = os[1], outW = os[2];
  Taps ys = bilinearTaps(inH, outH, how), xs = bilinearTaps(inW, outW, how);
  for (uint32_t n = 0; n < is[0]; ++n) {
    const float *image = input + size_t(n) * inH * inW * c;
    for (uint32_t oy = 0; oy < outH; ++oy) {
      const float *r0 = image + size_t(ys.lower[oy]) * inW * c;
      const float *r1 = image + size_t(ys.upper[oy]) * inW * c;
      float fy = ys.frac[oy];
      for (uint32_t ox = 0; ox < outW; ++ox) {
        float *out = output + ((size_t(n) * outH + oy) * outW + ox) * c;
        size_t x0 = size_t(xs.lower[ox]) * c, x1 = size_t(xs.upper[ox]) * c;
        float fx = xs.frac[ox];
        for (uint32_t k = 0; k < c; ++k) {
          // A zero weight must not read its pixel: 0 * inf is NaN.
          float top = fx == 0.0f ? r0[x0 + k]
                                 : r0[x0 + k] * (1 - fx) + r0[x1 + k] * fx;
          if (fy == 0.0f) {
            out[k] = top;
            continue;
          }
          float bottom = fx == 0.0f ? r1[x0 + k]
                                    : r1[x0 + k] * (1 - fx) + r1[x1 + k] * fx;
          out[k] = top * (1 - fy) + bottom * fy;
        }
      }
    }
  }
}

namespace {
template <typename T>
void resizeNearestOf(const T *input, const Shape &is, T *output,
                     const Shape &os, Resize how) {
  const uint32_t inH = is[1], inW = is[2], c = is[3];
  const uint32_t outH = os[1], outW = os[2];
  std::vector<uint32_t> ys = nearestTaps(inH, outH, how);
  std::vector<uint32_t> xs = nearestTaps(inW, outW, how);
  for (uint32_t n = 0; n < is[0]; ++n)
    for (uint32_t oy = 0; oy < outH; ++oy)
      for (uint32_t ox = 0; ox < outW; ++ox)
        std::memcpy(output + ((size_t(n) * outH + oy) * outW + ox) * c,
                    input + ((size_t(n) * inH + ys[oy]) * inW + xs[ox]) * c,
                    c * sizeof(T));
}
} // namespace

void resizeNearest(const float *input, const Shape &is, float *output,
                   const Shape &os, Resize how) {
  resizeNearestOf(input, is, output, os, how);
}

void resizeNearest(const uint8_t *input, const Shape &is, uint8_t *output,
                   const Shape &os, Resize how) {
  resizeNearestOf(input, is, output, os, how);
}

} // namespace nnapi_mlir::host
