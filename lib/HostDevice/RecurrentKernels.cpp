//===- RecurrentKernels.cpp - Sequence LSTM of the host device ------------===//
//
// UNIDIRECTIONAL_SEQUENCE_LSTM as NNAPI's documentation defines it, without
// layer normalization: the reference kernel (Kernels.h), straight from the
// formulas, and the blocked one (BlockedKernels.h) the device runs.
//
// The blocked kernel packs the weights once into one row-major block: the
// input weights transposed, [inputSize, 4 units] with the gates side by
// side (i, f, c, o), then the recurrent ones [outputSize, 4 units] (so the
// two are one [inputSize + outputSize, 4 units] matrix), the biases [4
// units], the projection transposed [units, outputSize] and its bias. A
// gate without weights (a coupled input gate) holds zeros. The input
// products of all steps come first, each block of weights reused from cache
// over the steps; a step's gates then add the recurrent rows scaled by h,
// summed 64 columns at a time in vector registers. The logistic and tanh
// functions use a polynomial exponential on vectors of eight floats (libm's
// calls were most of the time).
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/HostDevice/BlockedKernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

// The eight-float vectors below never cross a call: every function taking
// one is inlined into the two copies of the kernel, so GCC's note that
// their calling convention differs with AVX does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace nnapi_mlir::host {

namespace {

float activate(int32_t code, float x) {
  switch (code) {
  case 1: return std::max(x, 0.0f);
  case 3: return std::min(std::max(x, 0.0f), 6.0f);
  case 4: return std::tanh(x);
  case 6: return 1.0f / (1.0f + std::exp(-x));
  default: return x;
  }
}

float clip(float x, float bound) {
  return bound > 0 ? std::min(std::max(x, -bound), bound) : x;
}

} // namespace

bool isLstmActivation(int32_t code) {
  return code == 0 || code == 1 || code == 3 || code == 4 || code == 6;
}

void sequenceLstm(const SequenceLstm &s, const SequenceLstmWeights &w,
                  const float *input, const float *outputStateIn,
                  const float *cellStateIn, float *output,
                  float *outputStateOut, float *cellStateOut) {
  const size_t units = s.units;
  std::vector<float> h(outputStateIn,
                       outputStateIn + size_t(s.batch) * s.outputSize);
  std::vector<float> c(cellStateIn, cellStateIn + size_t(s.batch) * units);
  std::vector<float> hidden(units);
  auto sigmoid = [](float x) { return 1.0f / (1.0f + std::exp(-x)); };
  for (uint32_t t = 0; t < s.steps; ++t)
    for (uint32_t b = 0; b < s.batch; ++b) {
      size_t at = s.timeMajor ? size_t(t) * s.batch + b
                              : size_t(b) * s.steps + t;
      const float *x = input + at * s.inputSize;
      float *hb = h.data() + size_t(b) * s.outputSize;
      float *cb = c.data() + size_t(b) * units;
      // Gate g's input to unit u: W x + R h + bias, summed in double.
      auto gate = [&](int g, size_t u) {
        double sum = w.bias[g][u];
        for (size_t k = 0; k < s.inputSize; ++k)
          sum += double(w.input[g][u * s.inputSize + k]) * x[k];
        for (size_t k = 0; k < s.outputSize; ++k)
          sum += double(w.recurrent[g][u * s.outputSize + k]) * hb[k];
        return float(sum);
      };
      std::vector<float> pre[4];
      for (int g = 0; g < 4; ++g)
        if (w.input[g])
          for (size_t u = 0; u < units; ++u)
            pre[g].push_back(gate(g, u));
      for (size_t u = 0; u < units; ++u) {
        float prev = cb[u];
        auto peephole = [&](int k, float state) {
          return w.peephole[k] ? w.peephole[k][u] * state : 0.0f;
        };
        float f = sigmoid(pre[1][u] + peephole(1, prev));
        float i = w.input[0] ? sigmoid(pre[0][u] + peephole(0, prev)) : 1 - f;
        float cell = clip(f * prev + i * activate(s.activation, pre[2][u]),
                          s.cellClip);
        float o = sigmoid(pre[3][u] + peephole(2, cell));
        cb[u] = cell;
        hidden[u] = o * activate(s.activation, cell);
      }
      for (size_t k = 0; k < s.outputSize; ++k) {
        if (!w.projection) {
          hb[k] = hidden[k];
          continue;
        }
        double sum = w.projectionBias ? w.projectionBias[k] : 0.0;
        for (size_t u = 0; u < units; ++u)
          sum += double(w.projection[k * units + u]) * hidden[u];
        hb[k] = clip(float(sum), s.projClip);
      }
      std::memcpy(output + at * s.outputSize, hb, s.outputSize * sizeof(float));
    }
  if (outputStateOut)
    std::memcpy(outputStateOut, h.data(), h.size() * sizeof(float));
  if (cellStateOut)
    std::memcpy(cellStateOut, c.data(), c.size() * sizeof(float));
}

namespace blocked {

namespace {

/// Offsets into the packed weights.
struct Packing {
  size_t width, input, recurrent, bias, projection, projectionBias, size;
  explicit Packing(const SequenceLstm &s) {
    width = 4 * size_t(s.units);
    input = 0;
    recurrent = input + size_t(s.inputSize) * width;
    bias = recurrent + size_t(s.outputSize) * width;
    projection = bias + width;
    projectionBias = projection + size_t(s.units) * s.outputSize;
    size = projectionBias + s.outputSize;
  }
};

/// Eight floats: GCC's and Clang's vector extensions, so that the
/// exponential below is vector code in both copies of the kernel (two SSE
/// registers on the baseline, one AVX register in the AVX2 copy).
typedef float Floats __attribute__((vector_size(32)));
typedef int32_t Ints __attribute__((vector_size(32)));
constexpr size_t kLanes = 8;
/// Eight floats anywhere in memory (any alignment, aliasing floats).
typedef float FloatsAt __attribute__((vector_size(32), aligned(4), may_alias));

__attribute__((always_inline)) inline Floats load(const float *p) {
  return *reinterpret_cast<const FloatsAt *>(p);
}
__attribute__((always_inline)) inline void store(float *p, Floats v) {
  *reinterpret_cast<FloatsAt *>(p) = v;
}

/// exp(x) for x clamped to [-87, 88]: x = k ln2 + r with |r| <= ln2 / 2,
/// exp(r) by its Taylor polynomial to degree 7 (relative error below 1e-8
/// there), times 2^k built in the exponent bits.
__attribute__((always_inline)) inline Floats expPoly(Floats x) {
  const Floats lo = Floats{} - 87.0f, hi = Floats{} + 88.0f;
  x = x < lo ? lo : x;
  x = x > hi ? hi : x;
  Floats t = x * 1.44269504088896341f; // log2(e)
  Ints k = __builtin_convertvector(t + (t >= 0.0f ? 0.5f : -0.5f), Ints);
  Floats kf = __builtin_convertvector(k, Floats);
  // ln 2 in two parts, the first exact in few bits (Cody and Waite).
  Floats r = (x - kf * 0.693359375f) + kf * 2.12194440e-4f;
  Floats p = Floats{} + 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  Ints bits = (k + 127) << 23;
  return p * reinterpret_cast<Floats &>(bits);
}

__attribute__((always_inline)) inline Floats sigmoid8(Floats v) {
  return 1.0f / (1.0f + expPoly(-v));
}
/// tanh as 1 - 2 / (exp(2x) + 1).
__attribute__((always_inline)) inline Floats tanh8(Floats v) {
  return 1.0f - 2.0f / (expPoly(v + v) + 1.0f);
}

/// f applied to x[0, n) eight at a time, the tail through a padded copy.
template <Floats (*f)(Floats)>
__attribute__((always_inline)) inline void mapLanes(float *x, size_t n) {
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    store(x + i, f(load(x + i)));
  if (i < n) {
    Floats v = {};
    std::memcpy(&v, x + i, (n - i) * sizeof(float));
    v = f(v);
    std::memcpy(x + i, &v, (n - i) * sizeof(float));
  }
}

__attribute__((always_inline)) inline void sigmoidInPlace(float *x, size_t n) {
  mapLanes<sigmoid8>(x, n);
}

/// The LSTM activation `code` in place.
__attribute__((always_inline)) inline void activateInPlace(int32_t code,
                                                           float *x, size_t n) {
  switch (code) {
  case 1:
    for (size_t i = 0; i < n; ++i)
      x[i] = std::max(x[i], 0.0f);
    break;
  case 3:
    for (size_t i = 0; i < n; ++i)
      x[i] = std::min(std::max(x[i], 0.0f), 6.0f);
    break;
  case 4:
    mapLanes<tanh8>(x, n);
    break;
  case 6:
    sigmoidInPlace(x, n);
    break;
  default:
    break;
  }
}

/// Columns [j, j + kBlocks * 8) of combineRows: their sums held in kBlocks
/// vector registers over all k (one load per multiply-add, nothing stored
/// until the end).
template <size_t kBlocks>
__attribute__((always_inline)) inline void
combineBlock(const float *init, const float *z, size_t rows, const float *m,
             size_t width, size_t j, float *out) {
  Floats a[kBlocks];
  for (size_t q = 0; q < kBlocks; ++q)
    a[q] = load(init + j + q * kLanes);
  for (size_t k = 0; k < rows; ++k) {
    Floats zk = Floats{} + z[k];
    const float *r = m + k * width + j;
    for (size_t q = 0; q < kBlocks; ++q)
      a[q] += zk * load(r + q * kLanes);
  }
  for (size_t q = 0; q < kBlocks; ++q)
    store(out + j + q * kLanes, a[q]);
}

/// For each of `count` vectors z_n (z + n * zStride): out_n[0, width) =
/// init_n[0, width) + sum over k of z_n[k] m[k, 0, width), init_n at init +
/// n * initStride, out_n at out + n * outStride. 64 columns at a time (eight
/// independent sums keep the multiply-adds' latency hidden), then 8, then
/// one; the vectors inner, so that a block of m is read from memory once
/// and from cache after.
__attribute__((always_inline)) inline void
combineRows(const float *init, size_t initStride, const float *z,
            size_t zStride, size_t count, size_t rows, const float *m,
            size_t width, float *out, size_t outStride) {
  size_t j = 0;
  for (; j + 8 * kLanes <= width; j += 8 * kLanes)
    for (size_t n = 0; n < count; ++n)
      combineBlock<8>(init + n * initStride, z + n * zStride, rows, m, width,
                      j, out + n * outStride);
  for (; j + kLanes <= width; j += kLanes)
    for (size_t n = 0; n < count; ++n)
      combineBlock<1>(init + n * initStride, z + n * zStride, rows, m, width,
                      j, out + n * outStride);
  for (; j < width; ++j)
    for (size_t n = 0; n < count; ++n) {
      float a = init[n * initStride + j];
      for (size_t k = 0; k < rows; ++k)
        a += z[n * zStride + k] * m[k * width + j];
      out[n * outStride + j] = a;
    }
}

__attribute__((always_inline)) inline void
lstmBody(const SequenceLstm &s, const SequenceLstmWeights &w,
         const float *packed, const float *input, const float *outputStateIn,
         const float *cellStateIn, float *output, float *outputStateOut,
         float *cellStateOut, float *scratch) {
  Packing at(s);
  const size_t units = s.units, width = at.width, outs = s.outputSize,
               ins = s.inputSize;
  const size_t rows = size_t(s.steps) * s.batch;
  // Scratch: every step's input product, the states, one step's gates and
  // hidden vector.
  float *xw = scratch;
  float *h = xw + rows * width;
  float *c = h + size_t(s.batch) * outs;
  float *gates = c + size_t(s.batch) * units;
  float *hidden = gates + width;
  // The input products of all steps at once: each block of the input
  // weights stays in cache over the steps (the bias is every row's start).
  combineRows(packed + at.bias, 0, input, ins, rows, ins, packed + at.input,
              width, xw, width);
  std::memcpy(h, outputStateIn, size_t(s.batch) * outs * sizeof(float));
  std::memcpy(c, cellStateIn, size_t(s.batch) * units * sizeof(float));
  const float *pi = w.peephole[0], *pf = w.peephole[1], *po = w.peephole[2];
  for (uint32_t t = 0; t < s.steps; ++t)
    for (uint32_t b = 0; b < s.batch; ++b) {
      size_t row = s.timeMajor ? size_t(t) * s.batch + b
                               : size_t(b) * s.steps + t;
      float *hb = h + size_t(b) * outs, *cb = c + size_t(b) * units;
      combineRows(xw + row * width, 0, hb, 0, 1, outs, packed + at.recurrent,
                  width, gates, 0);
      float *gi = gates, *gf = gates + units, *gc = gates + 2 * units,
            *go = gates + 3 * units;
      if (pf)
        for (size_t u = 0; u < units; ++u)
          gf[u] += pf[u] * cb[u];
      sigmoidInPlace(gf, units);
      if (!w.input[0]) {
        for (size_t u = 0; u < units; ++u)
          gi[u] = 1.0f - gf[u];
      } else {
        if (pi)
          for (size_t u = 0; u < units; ++u)
            gi[u] += pi[u] * cb[u];
        sigmoidInPlace(gi, units);
      }
      activateInPlace(s.activation, gc, units);
      for (size_t u = 0; u < units; ++u)
        cb[u] = gf[u] * cb[u] + gi[u] * gc[u];
      if (s.cellClip > 0)
        for (size_t u = 0; u < units; ++u)
          cb[u] = std::min(std::max(cb[u], -s.cellClip), s.cellClip);
      if (po)
        for (size_t u = 0; u < units; ++u)
          go[u] += po[u] * cb[u];
      sigmoidInPlace(go, units);
      std::memcpy(hidden, cb, units * sizeof(float));
      activateInPlace(s.activation, hidden, units);
      for (size_t u = 0; u < units; ++u)
        hidden[u] *= go[u];
      if (w.projection) {
        combineRows(packed + at.projectionBias, 0, hidden, 0, 1, units,
                    packed + at.projection, outs, hb, 0);
        if (s.projClip > 0)
          for (size_t k = 0; k < outs; ++k)
            hb[k] = std::min(std::max(hb[k], -s.projClip), s.projClip);
      } else {
        std::memcpy(hb, hidden, units * sizeof(float));
      }
      std::memcpy(output + row * outs, hb, outs * sizeof(float));
    }
  if (outputStateOut)
    std::memcpy(outputStateOut, h, size_t(s.batch) * outs * sizeof(float));
  if (cellStateOut)
    std::memcpy(cellStateOut, c, size_t(s.batch) * units * sizeof(float));
}

void lstmBaseline(const SequenceLstm &s, const SequenceLstmWeights &w,
                  const float *packed, const float *input, const float *hIn,
                  const float *cIn, float *output, float *hOut, float *cOut,
                  float *scratch) {
  lstmBody(s, w, packed, input, hIn, cIn, output, hOut, cOut, scratch);
}

#ifdef NNAPI_MLIR_X86_AVX2_COPY
__attribute__((target("avx2,fma"))) void
lstmAvx2(const SequenceLstm &s, const SequenceLstmWeights &w,
         const float *packed, const float *input, const float *hIn,
         const float *cIn, float *output, float *hOut, float *cOut,
         float *scratch) {
  lstmBody(s, w, packed, input, hIn, cIn, output, hOut, cOut, scratch);
}
#endif

} // namespace

size_t sequenceLstmPackedSize(const SequenceLstm &s) {
  return Packing(s).size;
}

void packSequenceLstm(const SequenceLstm &s, const SequenceLstmWeights &w,
                      float *packed) {
  Packing at(s);
  const size_t units = s.units;
  std::fill(packed, packed + at.size, 0.0f);
  for (size_t g = 0; g < 4; ++g) {
    if (!w.input[g])
      continue; // a coupled input gate: zeros
    for (size_t u = 0; u < units; ++u) {
      size_t column = g * units + u;
      for (size_t k = 0; k < s.inputSize; ++k)
        packed[at.input + k * at.width + column] =
            w.input[g][u * s.inputSize + k];
      for (size_t k = 0; k < s.outputSize; ++k)
        packed[at.recurrent + k * at.width + column] =
            w.recurrent[g][u * s.outputSize + k];
      packed[at.bias + column] = w.bias[g][u];
    }
  }
  if (w.projection)
    for (size_t k = 0; k < s.outputSize; ++k) {
      for (size_t u = 0; u < units; ++u)
        packed[at.projection + u * s.outputSize + k] =
            w.projection[k * units + u];
      if (w.projectionBias)
        packed[at.projectionBias + k] = w.projectionBias[k];
    }
}

size_t sequenceLstmScratch(const SequenceLstm &s) {
  size_t width = 4 * size_t(s.units);
  return size_t(s.steps) * s.batch * width +
         size_t(s.batch) * (s.outputSize + s.units) + width + s.units;
}

void sequenceLstm(const SequenceLstm &s, const SequenceLstmWeights &w,
                  const float *packed, const float *input,
                  const float *outputStateIn, const float *cellStateIn,
                  float *output, float *outputStateOut, float *cellStateOut,
                  float *scratch) {
#ifdef NNAPI_MLIR_X86_AVX2_COPY
  if (hasAvx2Fma())
    return lstmAvx2(s, w, packed, input, outputStateIn, cellStateIn, output,
                    outputStateOut, cellStateOut, scratch);
#endif
  lstmBaseline(s, w, packed, input, outputStateIn, cellStateIn, output,
               outputStateOut, cellStateOut, scratch);
}

} // namespace blocked

void sequenceRnn(const SequenceRnn &s, const float *input,
                 const float *weights, const float *recurrentWeights,
                 const float *bias, const float *hiddenIn, float *output) {
  size_t B = s.batch, I = s.inputSize, U = s.units;
  // Element (t, b) of a [steps, batch, *] or [batch, steps, *] tensor.
  auto row = [&](size_t t, size_t b, size_t width) {
    return (s.timeMajor ? t * B + b : b * s.steps + t) * width;
  };
  std::vector<float> h(hiddenIn, hiddenIn + B * U), next(B * U);
  for (size_t t = 0; t < s.steps; ++t) {
    for (size_t b = 0; b < B; ++b) {
      const float *x = input + row(t, b, I);
      for (size_t u = 0; u < U; ++u) {
        float acc = bias[u];
        for (size_t k = 0; k < I; ++k)
          acc += weights[u * I + k] * x[k];
        for (size_t k = 0; k < U; ++k)
          acc += recurrentWeights[u * U + k] * h[b * U + k];
        next[b * U + u] = acc;
      }
      applyFusedActivation(next.data() + b * U, U, s.fuseCode);
      std::copy(next.begin() + b * U, next.begin() + (b + 1) * U,
                output + row(t, b, U));
    }
    h.swap(next);
  }
}

} // namespace nnapi_mlir::host
