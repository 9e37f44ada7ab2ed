//===- Kernels.cpp - Reference CPU kernels with NNAPI semantics -----------===//

#include "nnapi-mlir/HostDevice/Kernels.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace nnapi_mlir::host {

size_t numElements(const Shape &shape) {
  size_t n = 1;
  for (uint32_t d : shape)
    n *= d;
  return n;
}

void applyFusedActivation(float *data, size_t count, int32_t fuseCode) {
  float lo, hi;
  switch (fuseCode) {
  case ANEURALNETWORKS_FUSED_RELU:
    lo = 0.0f, hi = std::numeric_limits<float>::infinity();
    break;
  case ANEURALNETWORKS_FUSED_RELU1:
    lo = -1.0f, hi = 1.0f;
    break;
  case ANEURALNETWORKS_FUSED_RELU6:
    lo = 0.0f, hi = 6.0f;
    break;
  default:
    return;
  }
  for (size_t i = 0; i < count; ++i)
    data[i] = std::min(std::max(data[i], lo), hi);
}

bool broadcastShapes(const Shape &a, const Shape &b, Shape &out) {
  size_t rank = std::max(a.size(), b.size());
  out.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    uint32_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    uint32_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return false;
    out[i] = da == 1 ? db : da;
  }
  return true;
}

namespace {
// Strides of `shape` aligned to the trailing dims of a rank-`rank` shape,
// with 0 for broadcast dimensions.
std::vector<size_t> broadcastStrides(const Shape &shape, size_t rank) {
  std::vector<size_t> strides(rank, 0);
  size_t s = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    size_t dim = rank - shape.size() + i;
    strides[dim] = shape[i] == 1 ? 0 : s;
    s *= shape[i];
  }
  return strides;
}
} // namespace

namespace {
/// Row-major strides of `shape`.
std::vector<size_t> stridesOf(const Shape &shape) {
  std::vector<size_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;)
    strides[i - 1] = strides[i] * shape[i];
  return strides;
}

/// `shape` around dimension `axis`: the elements before it (outer), its
/// size (len) and the elements after it (inner).
struct AxisSplit {
  size_t outer = 1, len = 1, inner = 1;
};
AxisSplit splitAt(const Shape &shape, int32_t axis) {
  AxisSplit s;
  s.len = shape[axis];
  for (int32_t d = 0; d < axis; ++d)
    s.outer *= shape[d];
  for (size_t d = size_t(axis) + 1; d < shape.size(); ++d)
    s.inner *= shape[d];
  return s;
}

/// Calls f(index) for every index of `shape` in row-major order.
template <typename F> void forEachIndex(const Shape &shape, F f) {
  size_t total = numElements(shape);
  std::vector<uint32_t> index(shape.size(), 0);
  for (size_t flat = 0; flat < total; ++flat) {
    f(index, flat);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}
} // namespace

namespace {
/// The broadcast loop of binary(): the innermost dimension is one tight loop
/// (both strides 0 or 1), the outer ones an odometer.
template <typename A, typename B, typename O, typename F>
void broadcastLoop(const A *a, const std::vector<size_t> &sa, const B *b,
                   const std::vector<size_t> &sb, O *out,
                   const Shape &outShape, F f) {
  size_t rank = outShape.size();
  if (rank == 0) {
    out[0] = f(a[0], b[0]);
    return;
  }
  size_t inner = outShape[rank - 1];
  size_t da = sa[rank - 1], db = sb[rank - 1];
  Shape outer(outShape.begin(), outShape.end() - 1);
  forEachIndex(outer, [&](const std::vector<uint32_t> &index, size_t row) {
    size_t ia = 0, ib = 0;
    for (size_t d = 0; d + 1 < rank; ++d) {
      ia += index[d] * sa[d];
      ib += index[d] * sb[d];
    }
    const A *pa = a + ia;
    const B *pb = b + ib;
    O *po = out + row * inner;
    if (da && db)
      for (size_t i = 0; i < inner; ++i)
        po[i] = f(pa[i], pb[i]);
    else if (da)
      for (size_t i = 0; i < inner; ++i)
        po[i] = f(pa[i], pb[0]);
    else if (db)
      for (size_t i = 0; i < inner; ++i)
        po[i] = f(pa[0], pb[i]);
    else
      for (size_t i = 0; i < inner; ++i)
        po[i] = f(pa[0], pb[0]);
  });
}
} // namespace

void binary(BinaryKind kind, const float *a, const Shape &aShape,
            const float *b, const Shape &bShape, float *out,
            const Shape &outShape, int32_t fuseCode) {
  size_t rank = outShape.size();
  std::vector<size_t> sa = broadcastStrides(aShape, rank);
  std::vector<size_t> sb = broadcastStrides(bShape, rank);
  auto loop = [&](auto f) { broadcastLoop(a, sa, b, sb, out, outShape, f); };
  switch (kind) {
  case BinaryKind::Add: loop([](float x, float y) { return x + y; }); break;
  case BinaryKind::Sub: loop([](float x, float y) { return x - y; }); break;
  case BinaryKind::Mul: loop([](float x, float y) { return x * y; }); break;
  case BinaryKind::Div: loop([](float x, float y) { return x / y; }); break;
  // NaN in either operand propagates.
  case BinaryKind::Maximum:
    loop([](float x, float y) {
      return x != x ? x : y != y ? y : std::max(x, y);
    });
    break;
  case BinaryKind::Minimum:
    loop([](float x, float y) {
      return x != x ? x : y != y ? y : std::min(x, y);
    });
    break;
  case BinaryKind::Pow:
    loop([](float x, float y) { return std::pow(x, y); });
    break;
  case BinaryKind::Prelu:
    loop([](float x, float y) { return x >= 0.0f ? x : x * y; });
    break;
  }
  applyFusedActivation(out, numElements(outShape), fuseCode);
}

void compare(CompareKind kind, const float *a, const Shape &aShape,
             const float *b, const Shape &bShape, uint8_t *out,
             const Shape &outShape) {
  size_t rank = outShape.size();
  std::vector<size_t> sa = broadcastStrides(aShape, rank);
  std::vector<size_t> sb = broadcastStrides(bShape, rank);
  auto loop = [&](auto f) { broadcastLoop(a, sa, b, sb, out, outShape, f); };
  switch (kind) {
  case CompareKind::Equal:
    loop([](float x, float y) { return uint8_t(x == y); });
    break;
  case CompareKind::NotEqual:
    loop([](float x, float y) { return uint8_t(x != y); });
    break;
  case CompareKind::Greater:
    loop([](float x, float y) { return uint8_t(x > y); });
    break;
  case CompareKind::GreaterEqual:
    loop([](float x, float y) { return uint8_t(x >= y); });
    break;
  case CompareKind::Less:
    loop([](float x, float y) { return uint8_t(x < y); });
    break;
  case CompareKind::LessEqual:
    loop([](float x, float y) { return uint8_t(x <= y); });
    break;
  }
}

void logical(bool orNotAnd, const uint8_t *a, const Shape &aShape,
             const uint8_t *b, const Shape &bShape, uint8_t *out,
             const Shape &outShape) {
  size_t rank = outShape.size();
  std::vector<size_t> sa = broadcastStrides(aShape, rank);
  std::vector<size_t> sb = broadcastStrides(bShape, rank);
  if (orNotAnd)
    broadcastLoop(a, sa, b, sb, out, outShape,
                  [](uint8_t x, uint8_t y) { return uint8_t(x || y); });
  else
    broadcastLoop(a, sa, b, sb, out, outShape,
                  [](uint8_t x, uint8_t y) { return uint8_t(x && y); });
}

void logicalNot(const uint8_t *input, uint8_t *output, size_t count) {
  for (size_t i = 0; i < count; ++i)
    output[i] = !input[i];
}

void cast(const void *input, Storage from, void *output, Storage to,
          size_t count) {
  auto read = [&](size_t i) -> double {
    switch (from) {
    case Storage::Int32: return static_cast<const int32_t *>(input)[i];
    case Storage::Bool: return static_cast<const uint8_t *>(input)[i] ? 1 : 0;
    default: return static_cast<const float *>(input)[i];
    }
  };
  for (size_t i = 0; i < count; ++i) {
    double v = read(i);
    switch (to) {
    case Storage::Float:
      static_cast<float *>(output)[i] = float(v);
      break;
    case Storage::Half:
      static_cast<float *>(output)[i] = halfToFloat(floatToHalf(float(v)));
      break;
    case Storage::Int32: {
      double t = std::trunc(v);
      int32_t r = std::isnan(t) ? 0
                  : t <= double(std::numeric_limits<int32_t>::min())
                      ? std::numeric_limits<int32_t>::min()
                  : t >= double(std::numeric_limits<int32_t>::max())
                      ? std::numeric_limits<int32_t>::max()
                      : int32_t(t);
      static_cast<int32_t *>(output)[i] = r;
      break;
    }
    case Storage::Bool:
      static_cast<uint8_t *>(output)[i] = v != 0;
      break;
    }
  }
}

void select(const uint8_t *condition, const float *onTrue,
            const float *onFalse, float *output, size_t count) {
  for (size_t i = 0; i < count; ++i)
    output[i] = condition[i] ? onTrue[i] : onFalse[i];
}

std::optional<CompareKind> compareKindOf(int32_t opcode) {
  switch (opcode) {
  case ANEURALNETWORKS_EQUAL: return CompareKind::Equal;
  case ANEURALNETWORKS_NOT_EQUAL: return CompareKind::NotEqual;
  case ANEURALNETWORKS_GREATER: return CompareKind::Greater;
  case ANEURALNETWORKS_GREATER_EQUAL: return CompareKind::GreaterEqual;
  case ANEURALNETWORKS_LESS: return CompareKind::Less;
  case ANEURALNETWORKS_LESS_EQUAL: return CompareKind::LessEqual;
  default: return std::nullopt;
  }
}

void computeImplicitPadding(int32_t paddingCode, int32_t inSize,
                            int32_t stride, int32_t filterSize,
                            int32_t dilation, int32_t &padHead,
                            int32_t &padTail) {
  padHead = padTail = 0;
  if (paddingCode != ANEURALNETWORKS_PADDING_SAME || stride <= 0)
    return;
  // 64-bit: dilations and strides near 2^31 must not overflow.
  int64_t effective = int64_t(filterSize - 1) * dilation + 1;
  int64_t outSize = (int64_t(inSize) + stride - 1) / stride;
  int64_t total = std::max<int64_t>((outSize - 1) * stride + effective - inSize, 0);
  total = std::min<int64_t>(total, std::numeric_limits<int32_t>::max());
  padHead = int32_t(total / 2);
  padTail = int32_t(total - padHead);
}

int32_t windowOutputSize(int32_t inSize, int32_t filterSize, int32_t stride,
                         int32_t dilation, int32_t padHead, int32_t padTail) {
  int64_t effective = int64_t(filterSize - 1) * dilation + 1;
  int64_t span = int64_t(inSize) + padHead + padTail - effective;
  if (span < 0 || stride <= 0)
    return 0;
  int64_t size = span / stride + 1;
  return size > std::numeric_limits<int32_t>::max() ? 0 : int32_t(size);
}

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

namespace {
template <typename Reduce, typename Finish>
void pool2d(const float *input, const Shape &is, float *output,
            const Shape &os, const Window &w, int32_t filterW,
            int32_t filterH, float init, Reduce reduce, Finish finish) {
  const int32_t batches = is[0], inH = is[1], inW = is[2], channels = is[3];
  const int32_t outH = os[1], outW = os[2];
  for (int32_t n = 0; n < batches; ++n)
    for (int32_t oy = 0; oy < outH; ++oy)
      for (int32_t ox = 0; ox < outW; ++ox) {
        int32_t y0 = oy * w.strideH - w.padTop, x0 = ox * w.strideW - w.padLeft;
        int32_t yBegin = std::max(y0, 0), yEnd = std::min(y0 + filterH, inH);
        int32_t xBegin = std::max(x0, 0), xEnd = std::min(x0 + filterW, inW);
        float *out = output + ((size_t(n) * outH + oy) * outW + ox) * channels;
        int32_t count = std::max(yEnd - yBegin, 0) * std::max(xEnd - xBegin, 0);
        for (int32_t c = 0; c < channels; ++c) {
          float acc = init;
          for (int32_t y = yBegin; y < yEnd; ++y)
            for (int32_t x = xBegin; x < xEnd; ++x)
              acc = reduce(acc,
                           input[((size_t(n) * inH + y) * inW + x) * channels + c]);
          out[c] = finish(acc, count);
        }
        applyFusedActivation(out, channels, w.fuseCode);
      }
}
} // namespace

void maxPool2d(const float *input, const Shape &is, float *output,
               const Shape &os, const Window &w, int32_t filterW,
               int32_t filterH) {
  pool2d(
      input, is, output, os, w, filterW, filterH,
      -std::numeric_limits<float>::infinity(),
      [](float a, float b) { return std::max(a, b); },
      [](float a, int32_t) { return a; });
}

void averagePool2d(const float *input, const Shape &is, float *output,
                   const Shape &os, const Window &w, int32_t filterW,
                   int32_t filterH) {
  pool2d(
      input, is, output, os, w, filterW, filterH, 0.0f,
      [](float a, float b) { return a + b; },
      [](float a, int32_t count) { return count > 0 ? a / count : 0.0f; });
}

std::optional<BinaryKind> binaryKindOf(int32_t opcode) {
  switch (opcode) {
  case ANEURALNETWORKS_ADD: return BinaryKind::Add;
  case ANEURALNETWORKS_SUB: return BinaryKind::Sub;
  case ANEURALNETWORKS_MUL: return BinaryKind::Mul;
  case ANEURALNETWORKS_DIV: return BinaryKind::Div;
  case ANEURALNETWORKS_MAXIMUM: return BinaryKind::Maximum;
  case ANEURALNETWORKS_MINIMUM: return BinaryKind::Minimum;
  case ANEURALNETWORKS_POW: return BinaryKind::Pow;
  case ANEURALNETWORKS_PRELU: return BinaryKind::Prelu;
  default: return std::nullopt;
  }
}

std::optional<UnaryKind> unaryKindOf(int32_t opcode) {
  switch (opcode) {
  case ANEURALNETWORKS_RELU: return UnaryKind::Relu;
  case ANEURALNETWORKS_RELU1: return UnaryKind::Relu1;
  case ANEURALNETWORKS_RELU6: return UnaryKind::Relu6;
  case ANEURALNETWORKS_LOGISTIC: return UnaryKind::Logistic;
  case ANEURALNETWORKS_TANH: return UnaryKind::Tanh;
  case ANEURALNETWORKS_EXP: return UnaryKind::Exp;
  case ANEURALNETWORKS_LOG: return UnaryKind::Log;
  case ANEURALNETWORKS_SQRT: return UnaryKind::Sqrt;
  case ANEURALNETWORKS_RSQRT: return UnaryKind::Rsqrt;
  case ANEURALNETWORKS_ABS: return UnaryKind::Abs;
  case ANEURALNETWORKS_NEG: return UnaryKind::Neg;
  case ANEURALNETWORKS_FLOOR: return UnaryKind::Floor;
  case ANEURALNETWORKS_SIN: return UnaryKind::Sin;
  case ANEURALNETWORKS_HARD_SWISH: return UnaryKind::HardSwish;
  default: return std::nullopt;
  }
}

void unary(UnaryKind kind, const float *input, float *output, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    float x = input[i];
    switch (kind) {
    case UnaryKind::Relu: output[i] = std::max(x, 0.0f); break;
    case UnaryKind::Relu1: output[i] = std::min(std::max(x, -1.0f), 1.0f); break;
    case UnaryKind::Relu6: output[i] = std::min(std::max(x, 0.0f), 6.0f); break;
    case UnaryKind::Logistic: output[i] = 1.0f / (1.0f + std::exp(-x)); break;
    case UnaryKind::Tanh: output[i] = std::tanh(x); break;
    case UnaryKind::Exp: output[i] = std::exp(x); break;
    case UnaryKind::Log: output[i] = std::log(x); break;
    case UnaryKind::Sqrt: output[i] = std::sqrt(x); break;
    case UnaryKind::Rsqrt: output[i] = 1.0f / std::sqrt(x); break;
    case UnaryKind::Abs: output[i] = std::fabs(x); break;
    case UnaryKind::Neg: output[i] = -x; break;
    case UnaryKind::Floor: output[i] = std::floor(x); break;
    case UnaryKind::Sin: output[i] = std::sin(x); break;
    case UnaryKind::HardSwish:
      output[i] = x * std::min(std::max(x + 3.0f, 0.0f), 6.0f) / 6.0f;
      break;
    }
  }
}

void softmax(const float *input, const Shape &shape, float beta, int32_t axis,
             float *output, bool logarithm) {
  int32_t rank = static_cast<int32_t>(shape.size());
  if (axis < 0)
    axis += rank;
  auto [outer, len, inner] = splitAt(shape, axis);
  for (size_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < inner; ++i) {
      const float *in = input + o * len * inner + i;
      float *out = output + o * len * inner + i;
      float maxValue = -std::numeric_limits<float>::infinity();
      for (size_t k = 0; k < len; ++k)
        maxValue = std::max(maxValue, in[k * inner]);
      float sum = 0.0f;
      for (size_t k = 0; k < len; ++k)
        sum += std::exp((in[k * inner] - maxValue) * beta);
      if (logarithm) {
        // beta x - log(sum(exp(beta x))), shifted by beta max(x).
        float logSum = std::log(sum);
        for (size_t k = 0; k < len; ++k)
          out[k * inner] = (in[k * inner] - maxValue) * beta - logSum;
        continue;
      }
      for (size_t k = 0; k < len; ++k)
        out[k * inner] = std::exp((in[k * inner] - maxValue) * beta) / sum;
    }
}

void elu(const float *input, float *output, size_t count, float alpha) {
  for (size_t i = 0; i < count; ++i) {
    float x = input[i];
    output[i] = x > 0.0f ? x : std::min(0.0f, alpha * std::expm1(x));
  }
}

void concatenation(const std::vector<const float *> &inputs,
                   const std::vector<Shape> &shapes, int32_t axis,
                   float *output) {
  int32_t rank = static_cast<int32_t>(shapes[0].size());
  if (axis < 0)
    axis += rank;
  AxisSplit split = splitAt(shapes[0], axis); // each input has its own len
  size_t outer = split.outer, inner = split.inner;
  for (size_t o = 0; o < outer; ++o)
    for (size_t k = 0; k < inputs.size(); ++k) {
      size_t chunk = shapes[k][axis] * inner;
      std::memcpy(output, inputs[k] + o * chunk, chunk * sizeof(float));
      output += chunk;
    }
}

void transpose(const float *input, const Shape &is,
               const std::vector<int32_t> &perm, float *output) {
  std::vector<size_t> inStrides = stridesOf(is);
  Shape os;
  for (int32_t p : perm)
    os.push_back(is[p]);
  forEachIndex(os, [&](const std::vector<uint32_t> &o, size_t flat) {
    size_t src = 0;
    for (size_t d = 0; d < o.size(); ++d)
      src += o[d] * inStrides[perm[d]];
    output[flat] = input[src];
  });
}

void slice(const float *input, const Shape &is,
           const std::vector<int32_t> &begin, float *output, const Shape &os) {
  stridedSlice(input, is, begin, std::vector<int32_t>(is.size(), 1), output,
               os);
}

void stridedSlice(const float *input, const Shape &is,
                  const std::vector<int32_t> &begin,
                  const std::vector<int32_t> &strides, float *output,
                  const Shape &counts) {
  std::vector<size_t> inStrides = stridesOf(is);
  forEachIndex(counts, [&](const std::vector<uint32_t> &o, size_t flat) {
    int64_t src = 0;
    for (size_t d = 0; d < o.size(); ++d)
      src += (begin[d] + int64_t(o[d]) * strides[d]) * int64_t(inStrides[d]);
    output[flat] = input[src];
  });
}

void pad(const float *input, const Shape &is,
         const std::vector<int32_t> &padBefore, float value, float *output,
         const Shape &os, PadMode mode) {
  std::vector<size_t> inStrides = stridesOf(is);
  // Mirroring skips the edge element (Reflect) or repeats it (Symmetric).
  int64_t skip = mode == PadMode::Reflect ? 1 : 0;
  forEachIndex(os, [&](const std::vector<uint32_t> &o, size_t flat) {
    size_t src = 0;
    for (size_t d = 0; d < o.size(); ++d) {
      int64_t n = is[d], i = int64_t(o[d]) - padBefore[d];
      if (i < 0 || i >= n) {
        if (mode == PadMode::Constant) {
          output[flat] = value;
          return;
        }
        i = i < 0 ? -i - 1 + skip : 2 * n - 1 - i - skip;
      }
      src += size_t(i) * inStrides[d];
    }
    output[flat] = input[src];
  });
}

void reverse(const float *input, const Shape &shape, int32_t axis,
             float *output) {
  auto [outer, len, inner] = splitAt(shape, axis);
  for (size_t o = 0; o < outer; ++o)
    for (size_t k = 0; k < len; ++k)
      std::memcpy(output + (o * len + k) * inner,
                  input + (o * len + len - 1 - k) * inner,
                  inner * sizeof(float));
}

void depthSpace(const float *input, const Shape &is, int32_t block,
                bool nchw, bool toSpace, float *output) {
  size_t b = size_t(block), n = is[0];
  size_t h = nchw ? is[2] : is[1], w = nchw ? is[3] : is[2];
  size_t c = nchw ? is[1] : is[3];
  // The space side's height, width and channels.
  size_t hs = toSpace ? h * b : h, ws = toSpace ? w * b : w;
  size_t cs = toSpace ? c / (b * b) : c;
  size_t hd = hs / b, wd = ws / b, cd = cs * b * b;
  auto offset = [&](size_t i, size_t y, size_t x, size_t ch, size_t height,
                    size_t width, size_t channels) {
    return nchw ? ((i * channels + ch) * height + y) * width + x
                : ((i * height + y) * width + x) * channels + ch;
  };
  for (size_t i = 0; i < n; ++i)
    for (size_t y = 0; y < hs; ++y)
      for (size_t x = 0; x < ws; ++x)
        for (size_t ch = 0; ch < cs; ++ch) {
          size_t space = offset(i, y, x, ch, hs, ws, cs);
          size_t depth = offset(i, y / b, x / b,
                                ((y % b) * b + x % b) * cs + ch, hd, wd, cd);
          if (toSpace)
            output[space] = input[depth];
          else
            output[depth] = input[space];
        }
}

void channelShuffle(const float *input, const Shape &shape, int32_t groups,
                    int32_t axis, float *output) {
  auto [outer, len, inner] = splitAt(shape, axis);
  size_t per = len / size_t(groups);
  for (size_t o = 0; o < outer; ++o)
    for (size_t g = 0; g < size_t(groups); ++g)
      for (size_t i = 0; i < per; ++i)
        std::memcpy(output + (o * len + i * size_t(groups) + g) * inner,
                    input + (o * len + g * per + i) * inner,
                    inner * sizeof(float));
}

size_t gather(const float *input, const Shape &shape, int32_t axis,
              const int32_t *indices, size_t count, float *output) {
  auto [outer, len, inner] = splitAt(shape, axis);
  for (size_t k = 0; k < count; ++k)
    if (indices[k] < 0 || size_t(indices[k]) >= len)
      return k;
  for (size_t o = 0; o < outer; ++o)
    for (size_t k = 0; k < count; ++k)
      std::memcpy(output + (o * count + k) * inner,
                  input + (o * len + size_t(indices[k])) * inner,
                  inner * sizeof(float));
  return count;
}

void tile(const float *input, const Shape &is, float *output,
          const Shape &os) {
  std::vector<size_t> inStrides = stridesOf(is);
  forEachIndex(os, [&](const std::vector<uint32_t> &o, size_t flat) {
    size_t src = 0;
    for (size_t d = 0; d < o.size(); ++d)
      src += (o[d] % is[d]) * inStrides[d];
    output[flat] = input[src];
  });
}

std::optional<ReduceKind> reduceKindOf(int32_t opcode) {
  switch (opcode) {
  case ANEURALNETWORKS_MEAN: return ReduceKind::Mean;
  case ANEURALNETWORKS_REDUCE_SUM: return ReduceKind::Sum;
  case ANEURALNETWORKS_REDUCE_MAX: return ReduceKind::Max;
  case ANEURALNETWORKS_REDUCE_MIN: return ReduceKind::Min;
  case ANEURALNETWORKS_REDUCE_PROD: return ReduceKind::Prod;
  default: return std::nullopt;
  }
}

namespace {
/// The element count of `is` reduced over the dimensions d with reduced[d].
size_t reducedCount(const Shape &is, const std::vector<bool> &reduced) {
  size_t n = 1;
  for (size_t d = 0; d < is.size(); ++d)
    if (!reduced[d])
      n *= is[d];
  return n;
}

/// Calls f(input index, output index) for every element of an `is` tensor
/// reduced over the dimensions d with reduced[d]; sets `count` to the
/// elements reduced into each output element.
template <typename F>
void forEachReduced(const Shape &is, const std::vector<bool> &reduced,
                    size_t &count, F f) {
  // Output strides per input dimension, 0 for the reduced ones.
  Shape kept;
  for (size_t d = 0; d < is.size(); ++d)
    if (!reduced[d])
      kept.push_back(is[d]);
  std::vector<size_t> keptStrides = stridesOf(kept), outStrides(is.size(), 0);
  size_t k = 0;
  count = 1;
  for (size_t d = 0; d < is.size(); ++d) {
    if (reduced[d])
      count *= is[d];
    else
      outStrides[d] = keptStrides[k++];
  }
  forEachIndex(is, [&](const std::vector<uint32_t> &i, size_t flat) {
    size_t dst = 0;
    for (size_t d = 0; d < i.size(); ++d)
      dst += i[d] * outStrides[d];
    f(flat, dst);
  });
}
} // namespace

void reduce(ReduceKind kind, const float *input, const Shape &is,
            const std::vector<bool> &reduced, float *output) {
  const float inf = std::numeric_limits<float>::infinity();
  float init = kind == ReduceKind::Max    ? -inf
               : kind == ReduceKind::Min  ? inf
               : kind == ReduceKind::Prod ? 1.0f
                                          : 0.0f;
  // Sums accumulate in double: the mean of a long axis stays exact to float.
  size_t count, outCount = reducedCount(is, reduced);
  std::vector<double> acc(outCount, init);
  forEachReduced(is, reduced, count, [&](size_t flat, size_t dst) {
    double v = input[flat], &a = acc[dst];
    switch (kind) {
    case ReduceKind::Mean: case ReduceKind::Sum: a += v; break;
    case ReduceKind::Prod: a *= v; break;
    case ReduceKind::Max:
      if (!std::isnan(a) && (v > a || std::isnan(v)))
        a = v;
      break;
    case ReduceKind::Min:
      if (!std::isnan(a) && (v < a || std::isnan(v)))
        a = v;
      break;
    }
  });
  for (size_t o = 0; o < outCount; ++o)
    output[o] = float(kind == ReduceKind::Mean ? acc[o] / double(count)
                                               : acc[o]);
}

void argExtreme(bool max, const float *input, const Shape &shape,
                int32_t axis, int32_t *output) {
  auto [outer, len, inner] = splitAt(shape, axis);
  const float inf = std::numeric_limits<float>::infinity();
  for (size_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < inner; ++i) {
      const float *in = input + o * len * inner + i;
      float best = max ? -inf : inf;
      int32_t index = 0;
      for (size_t k = 0; k < len; ++k) {
        float v = in[k * inner];
        if (max ? v > best : v < best) {
          best = v;
          index = int32_t(k);
        }
      }
      output[o * inner + i] = index;
    }
}

void reduceBool(bool any, const uint8_t *input, const Shape &is,
                const std::vector<bool> &reduced, uint8_t *output) {
  size_t count;
  std::fill(output, output + reducedCount(is, reduced), uint8_t(any ? 0 : 1));
  forEachReduced(is, reduced, count, [&](size_t flat, size_t dst) {
    if (any)
      output[dst] |= input[flat] != 0;
    else
      output[dst] &= input[flat] != 0;
  });
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

void resizeNearest(const float *input, const Shape &is, float *output,
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
                    c * sizeof(float));
}

void instanceNormalization(const float *input, const Shape &shape,
                           InstanceNorm how, float *output) {
  // One image channel is `count` values `stride` apart from `begin(n, c)`.
  size_t batches = shape[0];
  size_t channels = how.nchw ? shape[1] : shape[3];
  size_t count = how.nchw ? size_t(shape[2]) * shape[3]
                          : size_t(shape[1]) * shape[2];
  size_t stride = how.nchw ? 1 : channels;
  for (size_t n = 0; n < batches; ++n)
    for (size_t c = 0; c < channels; ++c) {
      size_t begin = how.nchw ? (n * channels + c) * count
                              : n * count * channels + c;
      const float *in = input + begin;
      float *out = output + begin;
      double sum = 0.0;
      for (size_t i = 0; i < count; ++i)
        sum += in[i * stride];
      double mean = sum / double(count), squares = 0.0;
      for (size_t i = 0; i < count; ++i) {
        double d = in[i * stride] - mean;
        squares += d * d;
      }
      double scale = how.gamma / std::sqrt(squares / double(count) + how.epsilon);
      for (size_t i = 0; i < count; ++i)
        out[i * stride] = float((in[i * stride] - mean) * scale + how.beta);
    }
}

void localResponseNormalization(const float *input, const Shape &shape,
                                LocalResponse how, float *output) {
  auto [outer, len, inner] = splitAt(shape, how.axis);
  int64_t r = how.radius;
  for (size_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < inner; ++i) {
      const float *in = input + o * len * inner + i;
      float *out = output + o * len * inner + i;
      for (int64_t k = 0; k < int64_t(len); ++k) {
        float sum = 0.0f;
        for (int64_t j = std::max<int64_t>(0, k - r);
             j <= std::min<int64_t>(int64_t(len) - 1, k + r); ++j)
          sum += in[j * inner] * in[j * inner];
        out[k * inner] =
            in[k * inner] / std::pow(how.bias + how.alpha * sum, how.beta);
      }
    }
}

void l2Normalization(const float *input, const Shape &shape, int32_t axis,
                     float *output) {
  auto [outer, len, inner] = splitAt(shape, axis);
  for (size_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < inner; ++i) {
      const float *in = input + o * len * inner + i;
      float *out = output + o * len * inner + i;
      float sum = 0.0f;
      for (size_t k = 0; k < len; ++k)
        sum += in[k * inner] * in[k * inner];
      // NaN stays NaN; a sum that underflows counts as zero.
      float scale = sum == 0.0f ? 0.0f : 1.0f / std::sqrt(sum);
      for (size_t k = 0; k < len; ++k)
        out[k * inner] = in[k * inner] * scale;
    }
}

float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1F, mant = h & 0x3FF, bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else { // subnormal: renormalize
      exp = 127 - 15 + 1;
      while (!(mant & 0x400)) {
        mant <<= 1;
        --exp;
      }
      bits = sign | (exp << 23) | ((mant & 0x3FF) << 13);
    }
  } else if (exp == 0x1F) {
    bits = sign | 0x7F800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t floatToHalf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  uint16_t sign = (bits >> 16) & 0x8000;
  int32_t exp = int32_t((bits >> 23) & 0xFF);
  uint32_t mant = bits & 0x7FFFFF;
  if (exp == 0xFF) // inf or nan
    return sign | 0x7C00 | (mant ? 0x200 : 0);
  int32_t e = exp - 127 + 15;
  if (e >= 0x1F)
    return sign | 0x7C00;
  if (e <= 0) {
    if (e < -10)
      return sign;
    mant |= 0x800000;
    uint32_t shift = uint32_t(14 - e);
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1)))
      ++half;
    return sign | uint16_t(half);
  }
  uint32_t half = (uint32_t(e) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1FFF;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1)))
    ++half; // may carry into the exponent, which is the correct rounding
  return sign | uint16_t(half);
}

} // namespace nnapi_mlir::host
