//===- QuantizedKernels.cpp - 8-bit quantized reference kernels -----------===//

#include "nnapi-mlir/HostDevice/QuantizedKernels.h"

#include "nnapi-mlir/NNAPI/Operations.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace nnapi_mlir::host {

FixedPointMultiplier quantizeMultiplier(double real) {
  FixedPointMultiplier m;
  if (!(real > 0) || !std::isfinite(real))
    return m;
  int shift = 0;
  double fraction = std::frexp(real, &shift); // [0.5, 1)
  int64_t q = int64_t(std::round(fraction * double(int64_t(1) << 31)));
  if (q == (int64_t(1) << 31)) {
    q /= 2;
    ++shift;
  }
  if (shift < -31) // below 2^-32: the product rounds to 0
    return m;
  if (shift > 31) { // beyond any int32 product: saturates anyway
    m.multiplier = std::numeric_limits<int32_t>::max();
    m.shift = 31;
    return m;
  }
  m.multiplier = int32_t(q);
  m.shift = shift;
  return m;
}

namespace {

int32_t doublingHighMul(int32_t a, int32_t b) {
  if (a == b && a == std::numeric_limits<int32_t>::min())
    return std::numeric_limits<int32_t>::max();
  int64_t ab = int64_t(a) * int64_t(b);
  int64_t nudge = ab >= 0 ? (int64_t(1) << 30) : (1 - (int64_t(1) << 30));
  return int32_t((ab + nudge) / (int64_t(1) << 31));
}

int32_t roundingShiftRight(int32_t x, int exponent) {
  if (exponent <= 0)
    return x;
  int32_t mask = int32_t((int64_t(1) << exponent) - 1);
  int32_t remainder = x & mask;
  int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);
}

} // namespace

int32_t multiplyByQuantizedMultiplier(int32_t x, FixedPointMultiplier m) {
  int left = m.shift > 0 ? m.shift : 0, right = m.shift > 0 ? 0 : -m.shift;
  // A left shift that overflows saturates (the real product is out of any
  // 8-bit range then).
  int64_t shifted = int64_t(x) * (int64_t(1) << left);
  shifted = std::clamp<int64_t>(shifted, std::numeric_limits<int32_t>::min(),
                                std::numeric_limits<int32_t>::max());
  return roundingShiftRight(doublingHighMul(int32_t(shifted), m.multiplier),
                            right);
}

void quantizedActivationRange(int32_t fuseCode, const Quant8Out &out,
                              int32_t &lo, int32_t &hi) {
  nnapi_mlir::quantizedActivationRange(fuseCode, out.scale, out.zeroPoint,
                                       out.isSigned, lo, hi);
}

namespace {
/// The requantized, clamped value of accumulator `acc`. Accumulators are
/// summed in int64 and saturated to int32 here (NNAPI's are int32; only a
/// model beyond any real one overflows them, and then it saturates instead
/// of wrapping).
int32_t requantize(int64_t wide, FixedPointMultiplier m, int32_t zeroPoint,
                   int32_t lo, int32_t hi) {
  int32_t acc = int32_t(std::clamp<int64_t>(
      wide, std::numeric_limits<int32_t>::min(),
      std::numeric_limits<int32_t>::max()));
  int32_t v = multiplyByQuantizedMultiplier(acc, m);
  int64_t shifted = int64_t(v) + zeroPoint;
  return int32_t(std::clamp<int64_t>(shifted, lo, hi));
}
} // namespace

void quantizedConv2d(const Quant8 &input, const Shape &is, const Quant8 &filter,
                     const Shape &fs, const int32_t *bias,
                     const Quant8Out &output, const Shape &os, const Window &w,
                     const std::vector<FixedPointMultiplier> &multipliers,
                     int32_t depthMultiplier) {
  const int32_t batches = is[0], inH = is[1], inW = is[2], inC = is[3];
  const bool depthwise = depthMultiplier > 0;
  const int32_t outC = depthwise ? fs[3] : fs[0], kH = fs[1], kW = fs[2];
  const int32_t outH = os[1], outW = os[2];
  int32_t lo, hi;
  quantizedActivationRange(w.fuseCode, output, lo, hi);
  std::vector<int64_t> acc(outC);
  for (int32_t n = 0; n < batches; ++n)
    for (int32_t oy = 0; oy < outH; ++oy)
      for (int32_t ox = 0; ox < outW; ++ox) {
        for (int32_t oc = 0; oc < outC; ++oc)
          acc[oc] = bias ? bias[oc] : 0;
        for (int32_t ky = 0; ky < kH; ++ky) {
          int32_t iy = oy * w.strideH - w.padTop + ky * w.dilationH;
          if (iy < 0 || iy >= inH)
            continue;
          for (int32_t kx = 0; kx < kW; ++kx) {
            int32_t ix = ox * w.strideW - w.padLeft + kx * w.dilationW;
            if (ix < 0 || ix >= inW)
              continue;
            size_t in = ((size_t(n) * inH + iy) * inW + ix) * inC;
            if (depthwise) {
              size_t f = (size_t(ky) * kW + kx) * outC;
              for (int32_t oc = 0; oc < outC; ++oc) {
                int32_t x = input[in + oc / depthMultiplier] - input.zeroPoint;
                acc[oc] += x * (filter[f + oc] - filter.zeroPoint);
              }
              continue;
            }
            for (int32_t oc = 0; oc < outC; ++oc) {
              size_t f = ((size_t(oc) * kH + ky) * kW + kx) * inC;
              int64_t sum = 0;
              for (int32_t ic = 0; ic < inC; ++ic)
                sum += (input[in + ic] - input.zeroPoint) *
                       (filter[f + ic] - filter.zeroPoint);
              acc[oc] += sum;
            }
          }
        }
        size_t out = ((size_t(n) * outH + oy) * outW + ox) * outC;
        for (int32_t oc = 0; oc < outC; ++oc) {
          FixedPointMultiplier m =
              multipliers[multipliers.size() == 1 ? 0 : size_t(oc)];
          output.store(out + oc,
                       requantize(acc[oc], m, output.zeroPoint, lo, hi));
        }
      }
}

void quantizedFullyConnected(const Quant8 &input, const Quant8 &weights,
                             const Shape &ws, const int32_t *bias,
                             const Quant8Out &output, uint32_t batch,
                             FixedPointMultiplier multiplier,
                             int32_t fuseCode) {
  const uint32_t units = ws[0], inSize = ws[1];
  int32_t lo, hi;
  quantizedActivationRange(fuseCode, output, lo, hi);
  for (uint32_t b = 0; b < batch; ++b)
    for (uint32_t u = 0; u < units; ++u) {
      int64_t acc = bias ? bias[u] : 0;
      for (uint32_t i = 0; i < inSize; ++i)
        acc += (input[size_t(b) * inSize + i] - input.zeroPoint) *
               (weights[size_t(u) * inSize + i] - weights.zeroPoint);
      output.store(size_t(b) * units + u,
                   requantize(acc, multiplier, output.zeroPoint, lo, hi));
    }
}

namespace {

/// Calls f(i, ia, ib) for each element i of the output of shape `os` with
/// the elements of a and b (shapes aligned at their last dimension) that
/// broadcast to it.
template <typename F>
void forEachBroadcast(const Shape &as, const Shape &bs, const Shape &os,
                      F f) {
  // Strides of a and b in the output's index space (0 where broadcast).
  size_t rank = os.size();
  std::vector<size_t> sa(rank, 0), sb(rank, 0);
  auto strides = [&](const Shape &shape, std::vector<size_t> &out) {
    size_t stride = 1;
    for (size_t k = 0; k < shape.size(); ++k) {
      size_t d = shape.size() - 1 - k, o = rank - 1 - k;
      out[o] = shape[d] == 1 ? 0 : stride;
      stride *= shape[d];
    }
  };
  strides(as, sa);
  strides(bs, sb);
  size_t count = numElements(os);
  std::vector<uint32_t> index(rank, 0);
  for (size_t i = 0; i < count; ++i) {
    size_t ia = 0, ib = 0;
    for (size_t d = 0; d < rank; ++d) {
      ia += index[d] * sa[d];
      ib += index[d] * sb[d];
    }
    f(i, ia, ib);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < os[d])
        break;
      index[d] = 0;
    }
  }
}

} // namespace

void quantizedAdd(const Quant8 &a, const Shape &as, float aScale,
                  const Quant8 &b, const Shape &bs, float bScale,
                  const Quant8Out &output, const Shape &os, int32_t fuseCode) {
  constexpr int kLeftShift = 20;
  double twiceMax = 2.0 * std::max(double(aScale), double(bScale));
  FixedPointMultiplier ma = quantizeMultiplier(double(aScale) / twiceMax);
  FixedPointMultiplier mb = quantizeMultiplier(double(bScale) / twiceMax);
  FixedPointMultiplier mo = quantizeMultiplier(
      twiceMax / (double(int64_t(1) << kLeftShift) * double(output.scale)));
  int32_t lo, hi;
  quantizedActivationRange(fuseCode, output, lo, hi);
  forEachBroadcast(as, bs, os, [&](size_t i, size_t ia, size_t ib) {
    int32_t x = multiplyByQuantizedMultiplier(
        (a[ia] - a.zeroPoint) * (1 << kLeftShift), ma);
    int32_t y = multiplyByQuantizedMultiplier(
        (b[ib] - b.zeroPoint) * (1 << kLeftShift), mb);
    output.store(i, requantize(int64_t(x) + y, mo, output.zeroPoint, lo, hi));
  });
}

void quantizedMul(const Quant8 &a, const Shape &as, float aScale,
                  const Quant8 &b, const Shape &bs, float bScale,
                  const Quant8Out &output, const Shape &os, int32_t fuseCode) {
  FixedPointMultiplier m = quantizeMultiplier(
      double(aScale) * double(bScale) / double(output.scale));
  int32_t lo, hi;
  quantizedActivationRange(fuseCode, output, lo, hi);
  forEachBroadcast(as, bs, os, [&](size_t i, size_t ia, size_t ib) {
    int64_t product = int64_t(a[ia] - a.zeroPoint) * (b[ib] - b.zeroPoint);
    output.store(i, requantize(product, m, output.zeroPoint, lo, hi));
  });
}

void quantizedPool2d(const Quant8 &input, const Shape &is,
                     const Quant8Out &output, const Shape &os, const Window &w,
                     int32_t filterW, int32_t filterH, bool average) {
  int32_t lo, hi;
  quantizedActivationRange(w.fuseCode, output, lo, hi);
  forEachPoolWindow(
      is, os, w, filterW, filterH,
      average ? 0 : std::numeric_limits<int32_t>::min(),
      [&](size_t i) { return int32_t(input[i]); },
      [&](int32_t acc, int32_t v) {
        return average ? acc + v : std::max(acc, v);
      },
      [&](size_t i, int32_t acc, int32_t count) {
        int32_t v;
        if (count == 0)
          v = output.zeroPoint; // a window wholly in the padding
        else if (!average)
          v = acc;
        else // rounded to nearest, halves away from zero
          v = acc >= 0 ? (acc + count / 2) / count : (acc - count / 2) / count;
        output.store(i, std::clamp(v, lo, hi));
      });
}

void quantizedConcatenation(const std::vector<Quant8> &inputs,
                            const std::vector<float> &scales,
                            const std::vector<Shape> &shapes, int32_t axis,
                            const Quant8Out &output) {
  size_t outer = 1, inner = 1;
  for (int32_t d = 0; d < axis; ++d)
    outer *= shapes[0][size_t(d)];
  for (size_t d = size_t(axis) + 1; d < shapes[0].size(); ++d)
    inner *= shapes[0][d];
  size_t at = 0;
  for (size_t o = 0; o < outer; ++o)
    for (size_t k = 0; k < inputs.size(); ++k) {
      const Quant8 &in = inputs[k];
      size_t chunk = shapes[k][size_t(axis)] * inner;
      size_t from = o * chunk;
      if (scales[k] == output.scale && in.zeroPoint == output.zeroPoint &&
          in.isSigned == output.isSigned) {
        std::copy(in.data + from, in.data + from + chunk, output.data + at);
        at += chunk;
        continue;
      }
      float ratio = scales[k] / output.scale;
      for (size_t i = 0; i < chunk; ++i) {
        float v = std::round(float(in[from + i] - in.zeroPoint) * ratio);
        int32_t q = int32_t(std::clamp(v, -1e6f, 1e6f)) + output.zeroPoint;
        output.store(at++, std::clamp(q, output.lowest(), output.highest()));
      }
    }
}

void quantize(const float *input, const Quant8Out &output, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    float v = std::round(input[i] / output.scale);
    // Saturate in float first: NaN and values beyond int32 stay defined.
    float bounded = std::isnan(v) ? 0.0f : std::clamp(v, -1e9f, 1e9f);
    int64_t q = int64_t(bounded) + output.zeroPoint;
    output.store(i, int32_t(std::clamp<int64_t>(q, output.lowest(),
                                                output.highest())));
  }
}

void dequantize(const Quant8 &input, float scale, float *output,
                size_t count) {
  for (size_t i = 0; i < count; ++i)
    output[i] = float(input[i] - input.zeroPoint) * scale;
}

} // namespace nnapi_mlir::host
