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

} // namespace nnapi_mlir::host
