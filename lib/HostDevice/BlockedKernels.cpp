//===- BlockedKernels.cpp - Fast kernels where XNNPACK has no operator ----===//

#include "nnapi-mlir/HostDevice/BlockedKernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

// The matrix product has an AVX2+FMA copy (NNAPI_MLIR_X86_AVX2_COPY,
// BlockedKernels.h): the library is built for the baseline so that it runs
// everywhere.

namespace nnapi_mlir::host::blocked {
namespace {

/// Calls f(src, dst) for every index of `sizes`, the offsets advancing by
/// `src` and `dst` per step of each dimension (the last one fastest).
template <typename F>
void forEachOffset(const std::vector<size_t> &sizes,
                   const std::vector<size_t> &src,
                   const std::vector<size_t> &dst, F f) {
  size_t n = sizes.size();
  std::vector<size_t> index(n, 0);
  size_t s = 0, d = 0;
  for (;;) {
    f(s, d);
    size_t k = n;
    for (; k > 0; --k) {
      size_t dim = k - 1;
      if (++index[dim] < sizes[dim]) {
        s += src[dim], d += dst[dim];
        break;
      }
      s -= src[dim] * (sizes[dim] - 1), d -= dst[dim] * (sizes[dim] - 1);
      index[dim] = 0;
    }
    if (k == 0)
      return;
  }
}

std::vector<size_t> stridesOf(const std::vector<size_t> &sizes) {
  std::vector<size_t> strides(sizes.size(), 1);
  for (size_t d = sizes.size(); d-- > 1;)
    strides[d - 1] = strides[d] * sizes[d];
  return strides;
}

constexpr size_t kTile = 16;

} // namespace

template <typename T>
void transposeOf(const T *input, const Shape &is,
                 const std::vector<int32_t> &perm, T *output) {
  size_t total = numElements(is);
  if (total == 0)
    return;
  // Unit dimensions dropped.
  std::vector<int64_t> kept(is.size(), -1);
  std::vector<size_t> sizes;
  for (size_t d = 0; d < is.size(); ++d)
    if (is[d] != 1) {
      kept[d] = int64_t(sizes.size());
      sizes.push_back(is[d]);
    }
  // Runs of consecutive input dimensions, in output order.
  std::vector<std::pair<size_t, size_t>> groups;
  for (int32_t p : perm) {
    if (kept[size_t(p)] < 0)
      continue;
    size_t q = size_t(kept[size_t(p)]);
    if (!groups.empty() && groups.back().second + 1 == q)
      groups.back().second = q;
    else
      groups.push_back({q, q});
  }
  size_t r = groups.size();
  if (r <= 1) {
    std::memcpy(output, input, total * sizeof(T));
    return;
  }
  // The merged problem: input dimension i has inSize[i]; output dimension g
  // is input dimension outPerm[g].
  std::vector<size_t> order(r);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return groups[x].first < groups[y].first;
  });
  std::vector<size_t> inSize(r), outPerm(r);
  for (size_t pos = 0; pos < r; ++pos) {
    auto [first, last] = groups[order[pos]];
    inSize[pos] = 1;
    for (size_t d = first; d <= last; ++d)
      inSize[pos] *= sizes[d];
    outPerm[order[pos]] = pos;
  }
  std::vector<size_t> inStride = stridesOf(inSize), outSize(r);
  for (size_t g = 0; g < r; ++g)
    outSize[g] = inSize[outPerm[g]];
  std::vector<size_t> outStride = stridesOf(outSize);

  // Outer loop over every output dimension but `skip`ped ones.
  auto outer = [&](std::initializer_list<size_t> skip, auto body) {
    std::vector<size_t> s, src, dst;
    for (size_t g = 0; g < r; ++g)
      if (std::find(skip.begin(), skip.end(), g) == skip.end()) {
        s.push_back(outSize[g]);
        src.push_back(inStride[outPerm[g]]);
        dst.push_back(outStride[g]);
      }
    forEachOffset(s, src, dst, body);
  };
  if (outPerm[r - 1] == r - 1) {
    // The innermost dimension stays: whole rows move.
    size_t run = inSize[r - 1];
    outer({r - 1}, [&](size_t src, size_t dst) {
      std::memcpy(output + dst, input + src, run * sizeof(T));
    });
    return;
  }
  // Output dimension q is the input's innermost, output dimension r - 1 is
  // input dimension j: each pair is a 2-D transpose, done in tiles.
  size_t q = size_t(std::find(outPerm.begin(), outPerm.end(), r - 1) -
                    outPerm.begin());
  size_t j = outPerm[r - 1];
  size_t rows = inSize[r - 1], cols = inSize[j];
  size_t rowStride = outStride[q], colStride = inStride[j];
  outer({q, r - 1}, [&](size_t src, size_t dst) {
    const T *in = input + src;
    T *out = output + dst;
    for (size_t a0 = 0; a0 < rows; a0 += kTile) {
      size_t a1 = std::min(rows, a0 + kTile);
      for (size_t b0 = 0; b0 < cols; b0 += kTile) {
        size_t b1 = std::min(cols, b0 + kTile);
        for (size_t a = a0; a < a1; ++a)
          for (size_t b = b0; b < b1; ++b)
            out[a * rowStride + b] = in[a + b * colStride];
      }
    }
  });
}

void transpose(const float *input, const Shape &inputShape,
               const std::vector<int32_t> &perm, float *output) {
  transposeOf(input, inputShape, perm, output);
}

void transpose(const uint8_t *input, const Shape &inputShape,
               const std::vector<int32_t> &perm, uint8_t *output) {
  transposeOf(input, inputShape, perm, output);
}

namespace {
/// A reduction as (outer kept, reduced, inner kept) blocks.
struct Blocks {
  bool ok = true;
  size_t outer = 1, reduced = 1, inner = 1;
};

Blocks blocksOf(const Shape &is, const std::vector<bool> &reduced) {
  Blocks b;
  // 0: before the reduced block, 1: in it, 2: after it.
  int phase = 0;
  for (size_t d = 0; d < is.size(); ++d) {
    if (is[d] == 1)
      continue;
    bool r = reduced[d];
    if (r && phase == 2)
      b.ok = false;
    if (r)
      phase = 1;
    else if (phase == 1)
      phase = 2;
    (r ? b.reduced : phase == 0 ? b.outer : b.inner) *= is[d];
  }
  return b;
}

template <typename Op>
void reduceBlocks(const Blocks &b, const float *input, float *output,
                  float init, Op op) {
  constexpr size_t kLanes = 8;
  for (size_t o = 0; o < b.outer; ++o) {
    const float *in = input + o * b.reduced * b.inner;
    float *out = output + o * b.inner;
    if (b.inner == 1) {
      // One contiguous row: independent lanes, then combined.
      float lanes[kLanes];
      std::fill(lanes, lanes + kLanes, init);
      size_t r = 0;
      for (; r + kLanes <= b.reduced; r += kLanes)
        for (size_t l = 0; l < kLanes; ++l)
          lanes[l] = op(lanes[l], in[r + l]);
      for (; r < b.reduced; ++r)
        lanes[0] = op(lanes[0], in[r]);
      float acc = init;
      for (float v : lanes)
        acc = op(acc, v);
      out[0] = acc;
      continue;
    }
    std::fill(out, out + b.inner, init);
    for (size_t r = 0; r < b.reduced; ++r) {
      const float *row = in + r * b.inner;
      for (size_t i = 0; i < b.inner; ++i)
        out[i] = op(out[i], row[i]);
    }
  }
}
} // namespace

bool canReduce(const Shape &is, const std::vector<bool> &reduced) {
  return reduced.size() == is.size() && blocksOf(is, reduced).ok;
}

void reduce(ReduceKind kind, const float *input, const Shape &is,
            const std::vector<bool> &reduced, float *output) {
  // A zero-sized kept dimension leaves no outputs, a zero-sized reduced one
  // every output at its initial value.
  Blocks b = blocksOf(is, reduced);
  const float inf = std::numeric_limits<float>::infinity();
  switch (kind) {
  case ReduceKind::Mean:
  case ReduceKind::Sum:
    reduceBlocks(b, input, output, 0.0f,
                 [](float a, float v) { return a + v; });
    break;
  case ReduceKind::Prod:
    reduceBlocks(b, input, output, 1.0f,
                 [](float a, float v) { return a * v; });
    break;
  // Once the accumulator is NaN it stays NaN; a NaN input makes it NaN.
  case ReduceKind::Max:
    reduceBlocks(b, input, output, -inf,
                 [](float a, float v) { return v > a || v != v ? v : a; });
    break;
  case ReduceKind::Min:
    reduceBlocks(b, input, output, inf,
                 [](float a, float v) { return v < a || v != v ? v : a; });
    break;
  }
  if (kind == ReduceKind::Mean) {
    float scale = 1.0f / float(b.reduced);
    for (size_t o = 0, n = b.outer * b.inner; o < n; ++o)
      output[o] *= scale;
  }
}

namespace {
struct MatmulDims {
  size_t m, k, n, batches;
};
MatmulDims matmulDims(const Shape &as, bool adjA, const Shape &bs, bool adjB) {
  size_t r = as.size();
  MatmulDims d;
  d.m = adjA ? as[r - 1] : as[r - 2];
  d.k = adjA ? as[r - 2] : as[r - 1];
  d.n = adjB ? bs[r - 2] : bs[r - 1];
  d.batches = d.m * d.k ? numElements(as) / (d.m * d.k) : 0;
  return d;
}

/// c[m, n] = a[m, k] b[k, n]: four rows of c at a time, over column blocks
/// that stay in the first-level cache.
__attribute__((always_inline)) inline void
gemmBody(size_t m, size_t k, size_t n, const float *a, const float *b,
         float *c) {
  constexpr size_t kRows = 4, kCols = 256;
  float acc[kRows][kCols];
  for (size_t i0 = 0; i0 < m; i0 += kRows) {
    size_t rows = std::min(kRows, m - i0);
    for (size_t j0 = 0; j0 < n; j0 += kCols) {
      size_t cols = std::min(kCols, n - j0);
      for (size_t i = 0; i < rows; ++i)
        for (size_t j = 0; j < cols; ++j)
          acc[i][j] = 0.0f;
      for (size_t q = 0; q < k; ++q) {
        const float *brow = b + q * n + j0;
        for (size_t i = 0; i < rows; ++i) {
          float av = a[(i0 + i) * k + q];
          float *row = acc[i];
          for (size_t j = 0; j < cols; ++j)
            row[j] += av * brow[j];
        }
      }
      for (size_t i = 0; i < rows; ++i)
        std::memcpy(c + (i0 + i) * n + j0, acc[i], cols * sizeof(float));
    }
  }
}

void gemmBaseline(size_t m, size_t k, size_t n, const float *a,
                  const float *b, float *c) {
  gemmBody(m, k, n, a, b, c);
}

#ifdef NNAPI_MLIR_X86_AVX2_COPY
__attribute__((target("avx2,fma"))) void
gemmAvx2(size_t m, size_t k, size_t n, const float *a, const float *b,
         float *c) {
  gemmBody(m, k, n, a, b, c);
}
#endif

} // namespace

bool hasAvx2Fma() {
#ifdef NNAPI_MLIR_X86_AVX2_COPY
  static const bool avx2 = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  }();
  return avx2;
#else
  return false;
#endif
}

void gemm(size_t m, size_t k, size_t n, const float *a, const float *b,
          float *c) {
#ifdef NNAPI_MLIR_X86_AVX2_COPY
  if (hasAvx2Fma())
    return gemmAvx2(m, k, n, a, b, c);
#endif
  gemmBaseline(m, k, n, a, b, c);
}

size_t batchMatmulScratch(const Shape &as, bool adjA, const Shape &bs,
                          bool adjB) {
  MatmulDims d = matmulDims(as, adjA, bs, adjB);
  return (adjA ? d.m * d.k : 0) + (adjB ? d.k * d.n : 0);
}

void batchMatmul(const float *a, const Shape &as, bool adjA, const float *b,
                 const Shape &bs, bool adjB, float *output, float *scratch) {
  MatmulDims d = matmulDims(as, adjA, bs, adjB);
  float *aT = scratch, *bT = scratch + (adjA ? d.m * d.k : 0);
  for (size_t p = 0; p < d.batches; ++p) {
    const float *ap = a + p * d.m * d.k, *bp = b + p * d.k * d.n;
    if (adjA) {
      transpose(ap, {uint32_t(d.k), uint32_t(d.m)}, {1, 0}, aT);
      ap = aT;
    }
    if (adjB) {
      transpose(bp, {uint32_t(d.n), uint32_t(d.k)}, {1, 0}, bT);
      bp = bT;
    }
    gemm(d.m, d.k, d.n, ap, bp, output + p * d.m * d.n);
  }
}

} // namespace nnapi_mlir::host::blocked
