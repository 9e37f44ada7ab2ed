//===- HostDeviceTest.cpp - XNNPACK-backed host device vs reference -------===//
//
// Builds single-operation (and a few multi-operation) models through the
// host library's NNAPI C API, compiles each twice, once with XNNPACK
// (the default) and once with NNAPI_MLIR_HOST_KERNELS=reference, and
// compares the results. The reference kernels are themselves checked against
// direct definitions in HostKernelsTest. Shapes are chosen to be awkward:
// 1x1 and 7x7 kernels, strides 2, dilation, asymmetric padding,
// broadcasting, batch 2, channel counts that are not multiples of 8.
//
//===----------------------------------------------------------------------===//

#include "HostModelBuilder.h"

#include "../lib/HostDevice/Executor.h"
#include "nnapi-mlir/NNAPI/Shapes.h"
#include "nnapi-mlir/HostDevice/QuantizedKernels.h"
#include "nnapi-mlir/Support/BufferPlan.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

using namespace nnapi_mlir;
using nnapi_mlir::test::HostModelBuilder;

namespace {

class HostDevice : public ::testing::Test {
protected:
  void SetUp() override {
    std::string error;
    ASSERT_TRUE(loadNNAPILibrary(NNAPI_HOST_LIBRARY, fn, error)) << error;
    info = reinterpret_cast<decltype(info)>(
        dlsym(fn.handle, "NNAPIMLIRHost_getCompilationInfo"));
    ASSERT_NE(info, nullptr);
  }
  void TearDown() override {
    unsetenv("NNAPI_MLIR_HOST_KERNELS");
    unsetenv("NNAPI_MLIR_HOST_FAULT");
  }

  /// Runs `b`'s model with XNNPACK and with the reference kernels and
  /// expects each output to match `expected` (computed without the device's
  /// executor: no buffer plan, views or staging; NaN where it has NaN).
  void expectOutputs(HostModelBuilder &b,
                     const std::vector<std::vector<float>> &expected,
                     float tolerance) {
    for (const char *kernels : {(const char *)nullptr, "reference"}) {
      std::vector<std::vector<float>> got;
      ASSERT_TRUE(b.compileAndRun(kernels, got)) << b.error();
      ASSERT_EQ(got.size(), expected.size());
      for (size_t k = 0; k < got.size(); ++k) {
        ASSERT_EQ(got[k].size(), expected[k].size());
        for (size_t i = 0; i < got[k].size(); ++i) {
          const char *which = kernels ? kernels : "xnnpack";
          if (std::isnan(expected[k][i])) {
            ASSERT_TRUE(std::isnan(got[k][i]))
                << which << " output " << k << " element " << i;
            continue;
          }
          ASSERT_NEAR(got[k][i], expected[k][i],
                      tolerance * std::max(1.0f, std::fabs(expected[k][i])))
              << which << " output " << k << " element " << i;
        }
      }
    }
  }

  /// Compiles `b`'s model with XNNPACK and with the reference kernels, runs
  /// both on the same inputs and expects the same outputs (NaN where the
  /// reference has NaN). Returns the
  /// number of XNNPACK steps of the XNNPACK compilation.
  uint32_t expectSameAsReference(HostModelBuilder &b, float tolerance = 1e-4f) {
    std::vector<std::vector<float>> fast, reference;
    uint32_t steps = 0, xnnpack = 0, ignored = 0;
    EXPECT_TRUE(b.compileAndRun(nullptr, fast, &steps, &xnnpack)) << b.error();
    EXPECT_TRUE(b.compileAndRun("reference", reference, &steps, &ignored))
        << b.error();
    EXPECT_EQ(ignored, 0u) << "reference mode ran XNNPACK operators";
    EXPECT_EQ(fast.size(), reference.size());
    for (size_t k = 0; k < std::min(fast.size(), reference.size()); ++k) {
      EXPECT_EQ(fast[k].size(), reference[k].size());
      size_t bad = 0;
      for (size_t i = 0; i < std::min(fast[k].size(), reference[k].size()); ++i)
        if (!(std::isnan(fast[k][i]) && std::isnan(reference[k][i])) &&
            !(std::fabs(fast[k][i] - reference[k][i]) <=
              tolerance * std::max(1.0f, std::fabs(reference[k][i]))) &&
            bad++ < 5)
          ADD_FAILURE() << "output " << k << " element " << i << ": xnnpack "
                        << fast[k][i] << ", reference " << reference[k][i];
      EXPECT_EQ(bad, 0u) << "mismatching elements in output " << k;
    }
    return xnnpack;
  }

  /// Expects `b`'s model to fail to compile with `message` in the error.
  void expectRejected(HostModelBuilder &b, const char *message) {
    EXPECT_EQ(b.compile(nullptr), nullptr);
    EXPECT_NE(b.error().find(message), std::string::npos)
        << "expected \"" << message << "\" in: " << b.error();
  }

  NNAPIFunctionTable fn;
  int (*info)(const ANeuralNetworksCompilation *, uint32_t *, uint32_t *,
              uint64_t *) = nullptr;
};

struct ConvCase {
  uint32_t n, h, w, c, outC, kh, kw;
  int32_t strideH, strideW, dilationH, dilationW;
  int32_t padL, padR, padT, padB; ///< -1: implicit SAME padding.
  int32_t fuse;
};

class ConvVsReference : public HostDevice,
                        public ::testing::WithParamInterface<ConvCase> {};

/// Output size along one dimension (padding explicit or SAME).
uint32_t outSize(uint32_t in, uint32_t k, int32_t stride, int32_t dilation,
                 int32_t padA, int32_t padB) {
  if (padA < 0)
    return (in + stride - 1) / stride;
  int32_t effective = (int32_t(k) - 1) * dilation + 1;
  return uint32_t((int32_t(in) + padA + padB - effective) / stride + 1);
}

TEST_P(ConvVsReference, Conv2D) {
  const ConvCase &p = GetParam();
  HostModelBuilder b(fn);
  uint32_t oh = outSize(p.h, p.kh, p.strideH, p.dilationH, p.padT, p.padB);
  uint32_t ow = outSize(p.w, p.kw, p.strideW, p.dilationW, p.padL, p.padR);
  uint32_t in = b.input({p.n, p.h, p.w, p.c});
  uint32_t filter = b.constant({p.outC, p.kh, p.kw, p.c});
  uint32_t bias = b.constant({p.outC});
  uint32_t out = b.output({p.n, oh, ow, p.outC});
  std::vector<uint32_t> ins = {in, filter, bias};
  if (p.padL < 0)
    ins.push_back(b.i32(ANEURALNETWORKS_PADDING_SAME));
  else
    for (int32_t pad : {p.padL, p.padR, p.padT, p.padB})
      ins.push_back(b.i32(pad));
  for (int32_t v : {p.strideW, p.strideH, p.fuse})
    ins.push_back(b.i32(v));
  ins.push_back(b.boolean(false));
  ins.push_back(b.i32(p.dilationW));
  ins.push_back(b.i32(p.dilationH));
  b.operation(ANEURALNETWORKS_CONV_2D, ins, {out});
  EXPECT_EQ(expectSameAsReference(b), 1u);
}

TEST_P(ConvVsReference, DepthwiseConv2D) {
  const ConvCase &p = GetParam();
  uint32_t multiplier = p.outC % p.c == 0 ? p.outC / p.c : 1;
  uint32_t outC = p.c * multiplier;
  HostModelBuilder b(fn);
  uint32_t oh = outSize(p.h, p.kh, p.strideH, p.dilationH, p.padT, p.padB);
  uint32_t ow = outSize(p.w, p.kw, p.strideW, p.dilationW, p.padL, p.padR);
  uint32_t in = b.input({p.n, p.h, p.w, p.c});
  uint32_t filter = b.constant({1, p.kh, p.kw, outC});
  uint32_t bias = b.constant({outC});
  uint32_t out = b.output({p.n, oh, ow, outC});
  std::vector<uint32_t> ins = {in, filter, bias};
  if (p.padL < 0)
    ins.push_back(b.i32(ANEURALNETWORKS_PADDING_SAME));
  else
    for (int32_t pad : {p.padL, p.padR, p.padT, p.padB})
      ins.push_back(b.i32(pad));
  for (int32_t v : {p.strideW, p.strideH, int32_t(multiplier), p.fuse})
    ins.push_back(b.i32(v));
  ins.push_back(b.boolean(false));
  ins.push_back(b.i32(p.dilationW));
  ins.push_back(b.i32(p.dilationH));
  b.operation(ANEURALNETWORKS_DEPTHWISE_CONV_2D, ins, {out});
  EXPECT_EQ(expectSameAsReference(b), 1u);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, ConvVsReference,
    ::testing::Values(
        // 1x1, batch 2, odd channels, no activation.
        ConvCase{2, 5, 7, 3, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0},
        // 7x7 stride 2 with asymmetric padding and RELU.
        ConvCase{1, 13, 11, 5, 9, 7, 7, 2, 2, 1, 1, 3, 2, 1, 3, 1},
        // 3x3 dilation 2, SAME padding, RELU6, multiplier 2 for depthwise.
        ConvCase{1, 9, 10, 6, 12, 3, 3, 1, 1, 2, 2, -1, -1, -1, -1, 3},
        // 3x3 stride 2 (different per axis), VALID-like, RELU1.
        ConvCase{2, 12, 9, 13, 13, 3, 3, 2, 1, 1, 1, 0, 0, 0, 0, 2},
        // 5x3 kernel, dilation only in H, stride only in W.
        ConvCase{1, 15, 8, 17, 34, 5, 3, 1, 2, 3, 1, 2, 1, 4, 4, 0}));

TEST_F(HostDevice, FullyConnectedFlattensRank4Input) {
  for (int32_t fuse : {0, 2}) {
    HostModelBuilder b(fn);
    uint32_t in = b.input({2, 1, 3, 17}); // 6 rows of 17
    uint32_t w = b.constant({11, 17});
    uint32_t bias = b.constant({11});
    uint32_t out = b.output({6, 11});
    b.operation(ANEURALNETWORKS_FULLY_CONNECTED, {in, w, bias, b.i32(fuse)},
                {out});
    EXPECT_EQ(expectSameAsReference(b), 1u);
  }
}

/// A pool's operands: `in`, explicit padding [l, r, t, b], stride, filter
/// and fuse code.
std::vector<uint32_t> poolOperands(HostModelBuilder &b, uint32_t in,
                                   std::vector<int32_t> pads, int32_t stride,
                                   int32_t filterW, int32_t filterH,
                                   int32_t fuse) {
  std::vector<uint32_t> ins = {in};
  for (int32_t v : pads)
    ins.push_back(b.i32(v));
  for (int32_t v : {stride, stride, filterW, filterH, fuse})
    ins.push_back(b.i32(v));
  return ins;
}

/// POOL with explicit padding [l, r, t, b], stride, filter and fuse code.
void addPool(HostModelBuilder &b, int32_t code, std::vector<uint32_t> inShape,
             std::vector<uint32_t> outShape, std::vector<int32_t> pads,
             int32_t stride, int32_t filterW, int32_t filterH, int32_t fuse) {
  uint32_t in = b.input(inShape);
  uint32_t out = b.output(outShape);
  b.operation(code, poolOperands(b, in, pads, stride, filterW, filterH, fuse),
              {out});
}

TEST_F(HostDevice, AveragePoolExcludesPaddingLikeTheReference) {
  HostModelBuilder b(fn);
  addPool(b, ANEURALNETWORKS_AVERAGE_POOL_2D, {2, 9, 8, 5}, {2, 5, 5, 5},
          {2, 1, 1, 1}, 2, 3, 3, ANEURALNETWORKS_FUSED_RELU);
  EXPECT_EQ(expectSameAsReference(b), 1u);
}

TEST_F(HostDevice, GlobalAveragePool) {
  HostModelBuilder b(fn);
  addPool(b, ANEURALNETWORKS_AVERAGE_POOL_2D, {2, 7, 7, 19}, {2, 1, 1, 19},
          {0, 0, 0, 0}, 1, 7, 7, 0);
  EXPECT_EQ(expectSameAsReference(b), 1u);
}

TEST_F(HostDevice, MaxPoolWithPaddingAndRelu6) {
  HostModelBuilder b(fn);
  addPool(b, ANEURALNETWORKS_MAX_POOL_2D, {1, 10, 9, 7}, {1, 5, 5, 7},
          {1, 1, 1, 0}, 2, 3, 3, ANEURALNETWORKS_FUSED_RELU6);
  EXPECT_EQ(expectSameAsReference(b), 1u);
}

/// float -> QUANTIZE -> int8 POOL -> DEQUANTIZE -> float: XNNPACK's s8
/// max pool, qs8 global average pool and f32/qs8 conversions against the
/// reference kernels, within one quantum (XNNPACK rounds halves to even
/// after a product with the reciprocal scale; NNAPI's QUANTIZE divides and
/// rounds halves away from zero, its average pool too).
void addInt8Pool(HostModelBuilder &b, int32_t code,
                 std::vector<uint32_t> inShape, std::vector<uint32_t> outShape,
                 std::vector<int32_t> pads, int32_t stride, int32_t filterW,
                 int32_t filterH, int32_t fuse) {
  // Inputs in [-1, 1]: the tolerance below is then one quantum.
  uint32_t in = b.input(inShape);
  uint32_t q = b.int8Temporary(inShape, 0.05f, 3);
  b.operation(ANEURALNETWORKS_QUANTIZE, {in}, {q});
  uint32_t pooled = b.int8Temporary(outShape, 0.05f, 3);
  b.operation(code, poolOperands(b, q, pads, stride, filterW, filterH, fuse),
              {pooled});
  b.operation(ANEURALNETWORKS_DEQUANTIZE, {pooled}, {b.output(outShape)});
}

TEST_F(HostDevice, Int8MaxPoolAndConversionsMatchTheReference) {
  HostModelBuilder b(fn);
  addInt8Pool(b, ANEURALNETWORKS_MAX_POOL_2D, {1, 10, 9, 7}, {1, 5, 5, 7},
              {1, 1, 1, 0}, 2, 3, 3, ANEURALNETWORKS_FUSED_RELU6);
  // QUANTIZE, MAX_POOL_2D, DEQUANTIZE: all three on XNNPACK.
  EXPECT_EQ(expectSameAsReference(b, 0.0501f), 3u);
}

TEST_F(HostDevice, Int8GlobalAveragePoolMatchesTheReference) {
  HostModelBuilder b(fn);
  addInt8Pool(b, ANEURALNETWORKS_AVERAGE_POOL_2D, {2, 7, 7, 19},
              {2, 1, 1, 19}, {0, 0, 0, 0}, 1, 7, 7, 0);
  EXPECT_EQ(expectSameAsReference(b, 0.0501f), 3u);
  // A windowed int8 average pool has no XNNPACK operator here.
  HostModelBuilder w(fn);
  addInt8Pool(w, ANEURALNETWORKS_AVERAGE_POOL_2D, {1, 6, 6, 4}, {1, 3, 3, 4},
              {0, 0, 0, 0}, 2, 2, 2, 0);
  EXPECT_EQ(expectSameAsReference(w, 0.0501f), 2u);
}

struct Int8ConvCase {
  uint32_t h, w, c, f, k;
  int32_t stride, pad, dilation;
  bool depthwise = false; ///< f == c then.
  enum Numbers {
    Typical,
    /// Inputs in [0.5, 1) and weights in [100, 127]: the int32
    /// accumulators pass 2^24 (where a float32 loses integers), the output
    /// scale keeps the results in range.
    Deep,
    /// Scales of powers of two whose multiplier is exactly 1/2, small
    /// weights and biases: half of the sums are ties, where NNAPI rounds
    /// up and a float32 requantization to nearest even.
    Ties,
  } numbers = Typical;
};

class Int8ConvVsReference : public HostDevice,
                            public ::testing::WithParamInterface<Int8ConvCase> {
};

TEST_P(Int8ConvVsReference, MatchesTheReference) {
  // float -> QUANTIZE -> CONV_2D or DEPTHWISE_CONV_2D (int8 filter, int32
  // bias, ReLU) -> DEQUANTIZE: on a CPU with AVX512-VNNI the convolution
  // runs our kernel (channel counts that fill no vector, pixel counts that
  // fill no block, padding of the input's zero point), elsewhere XNNPACK's
  // qc8; within one quantum of NNAPI's fixed-point reference.
  const Int8ConvCase t = GetParam();
  std::mt19937 rng(3);
  const bool deep = t.numbers == Int8ConvCase::Deep,
             ties = t.numbers == Int8ConvCase::Ties;
  const float inScale = ties ? 0.125f : 0.01f,
              filterScale = ties ? 0.0625f : 0.004f,
              outScale = deep ? 300.0f : ties ? 0.015625f : 0.03f;
  std::uniform_int_distribution<int> w8(deep ? 100 : ties ? -12 : -127,
                                        ties ? 12 : 127),
      b32(ties ? -9 : -300, ties ? 9 : 300);
  std::vector<uint8_t> filter(t.k * t.k * t.f * (t.depthwise ? 1 : t.c)),
      bias(t.f * 4);
  for (uint8_t &v : filter)
    v = uint8_t(int8_t(w8(rng)));
  for (uint32_t f = 0; f < t.f; ++f) {
    int32_t v = b32(rng);
    std::memcpy(bias.data() + 4 * f, &v, 4);
  }
  uint32_t span = (t.k - 1) * uint32_t(t.dilation) + 1;
  uint32_t oh = (t.h + 2 * t.pad - span) / t.stride + 1;
  uint32_t ow = (t.w + 2 * t.pad - span) / t.stride + 1;
  HostModelBuilder b(fn);
  uint32_t in = deep ? b.input({1, t.h, t.w, t.c}, 0.5f, 1.0f)
                     : b.input({1, t.h, t.w, t.c});
  uint32_t q = b.int8Temporary({1, t.h, t.w, t.c}, inScale, -7);
  b.operation(ANEURALNETWORKS_QUANTIZE, {in}, {q});
  uint32_t w = b.quantizedConstant(
      ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED,
      {t.depthwise ? 1 : t.f, t.k, t.k, t.depthwise ? t.f : t.c}, filter,
      filterScale, 0);
  uint32_t bias32 = b.quantizedConstant(ANEURALNETWORKS_TENSOR_INT32, {t.f},
                                        bias, inScale * filterScale, 0);
  uint32_t conv = b.int8Temporary({1, oh, ow, t.f}, outScale, 5);
  std::vector<uint32_t> ins = {q, w, bias32};
  for (int32_t v : {t.pad, t.pad, t.pad, t.pad, t.stride, t.stride})
    ins.push_back(b.i32(v));
  if (t.depthwise)
    ins.push_back(b.i32(1)); // depth multiplier
  ins.push_back(b.i32(ANEURALNETWORKS_FUSED_RELU));
  ins.push_back(b.boolean(false)); // NHWC
  ins.push_back(b.i32(t.dilation));
  ins.push_back(b.i32(t.dilation));
  b.operation(t.depthwise ? ANEURALNETWORKS_DEPTHWISE_CONV_2D
                          : ANEURALNETWORKS_CONV_2D,
              ins, {conv});
  b.operation(ANEURALNETWORKS_DEQUANTIZE, {conv}, {b.output({1, oh, ow, t.f})});
  std::vector<std::vector<float>> fast, reference;
  uint32_t steps = 0, xnnpack = 0, ignored = 0;
  ASSERT_TRUE(b.compileAndRun(nullptr, fast, &steps, &xnnpack)) << b.error();
  ASSERT_TRUE(b.compileAndRun("reference", reference, &steps, &ignored))
      << b.error();
  // QUANTIZE and DEQUANTIZE on XNNPACK, the convolution too without VNNI.
  EXPECT_EQ(xnnpack, host::hasVnni() ? 2u : 3u);
  ASSERT_EQ(fast[0].size(), reference[0].size());
  size_t differ = 0;
  const float quantum = outScale;
  for (size_t i = 0; i < fast[0].size(); ++i) {
    ASSERT_LE(std::fabs(fast[0][i] - reference[0][i]), quantum * 1.01f) << i;
    differ += fast[0][i] != reference[0][i];
  }
  // Our kernels, like XNNPACK's, requantize in float32 rounded to nearest
  // even where NNAPI uses a fixed-point multiplier and rounds halves up
  // (design.md, "int8 requantization"): the bound is one quantum (above),
  // and only near-ties differ. The seeded typical and deep cases have none
  // (deep: accumulators past 2^24, where the float32 conversion drops low
  // bits, 2^-24 of the value); in the tie cases the halves that go to the
  // even neighbour do (half the sums are ties, half of those round
  // differently).
  if (ties)
    EXPECT_LE(differ, fast[0].size() / 4);
  else if (host::hasVnni())
    EXPECT_EQ(differ, 0u);
  else
    EXPECT_LT(differ, fast[0].size() / 10 + 1);
  // Not all clamped to 0 (a 1x1 depthwise window sums one product), nor
  // all saturated (at 127 - zero point 5 quanta).
  EXPECT_GT(*std::max_element(fast[0].begin(), fast[0].end()),
            (t.k == 1 && t.depthwise) || ties ? 0.2f : 0.5f);
  EXPECT_TRUE(std::any_of(fast[0].begin(), fast[0].end(), [&](float v) {
    return v > 0 && v < 121.5f * quantum;
  }));
}

INSTANTIATE_TEST_SUITE_P(
    HostDevice, Int8ConvVsReference,
    ::testing::Values(Int8ConvCase{7, 5, 21, 37, 1, 1, 0, 1},
                      // 1x1 over whole words of channels: read in place.
                      Int8ConvCase{6, 5, 24, 40, 1, 1, 0, 1},
                      Int8ConvCase{9, 8, 3, 32, 3, 2, 1, 1},
                      Int8ConvCase{6, 7, 13, 19, 3, 1, 2, 2},
                      // Depthwise: 3x3 (the specialized block) over 64 +
                      // 13 channels, strided; 5x5 dilated (two row groups,
                      // padding columns on both sides); a 1x1 window.
                      Int8ConvCase{9, 7, 77, 77, 3, 2, 1, 1, true},
                      Int8ConvCase{8, 9, 40, 40, 5, 1, 3, 2, true},
                      Int8ConvCase{5, 6, 16, 16, 1, 1, 0, 1, true},
                      // Sums of 70,000 and 65,700 products (beyond 2^16
                      // taps, accumulators beyond 2^24): read in place,
                      // and through the window rows.
                      Int8ConvCase{2, 2, 70000, 16, 1, 1, 0, 1, false,
                                   Int8ConvCase::Deep},
                      Int8ConvCase{3, 3, 7300, 16, 3, 1, 1, 1, false,
                                   Int8ConvCase::Deep},
                      // Ties: a 1x1 convolution read in place, a 3x3
                      // depthwise one.
                      Int8ConvCase{4, 4, 8, 32, 1, 1, 0, 1, false,
                                   Int8ConvCase::Ties},
                      Int8ConvCase{6, 6, 64, 64, 3, 1, 1, 1, true,
                                   Int8ConvCase::Ties}));

TEST_F(HostDevice, OneByOneMaxPoolFallsBackToTheReferenceKernel) {
  // XNNPACK refuses a 1x1 pooling window; the operation still runs.
  HostModelBuilder b(fn);
  addPool(b, ANEURALNETWORKS_MAX_POOL_2D, {1, 6, 6, 3}, {1, 3, 3, 3},
          {0, 0, 0, 0}, 2, 1, 1, 0);
  EXPECT_EQ(expectSameAsReference(b), 0u);
}

struct BinaryCase {
  int32_t opcode;
  std::vector<uint32_t> a, b, out;
  bool constantB;
  int32_t fuse;
};

class BinaryVsReference : public HostDevice,
                          public ::testing::WithParamInterface<BinaryCase> {};

TEST_P(BinaryVsReference, Broadcasts) {
  const BinaryCase &p = GetParam();
  HostModelBuilder b(fn);
  uint32_t x = b.input(p.a);
  // Divisors stay away from zero.
  float lo = p.opcode == ANEURALNETWORKS_DIV ? 0.5f : -1.0f;
  uint32_t y = p.constantB ? b.constant(p.b, lo, 2.0f) : b.input(p.b, lo, 2.0f);
  uint32_t out = b.output(p.out);
  b.operation(p.opcode, {x, y, b.i32(p.fuse)}, {out});
  // Without a fused activation the reference loop runs: XNNPACK's clamp to
  // [-inf, inf] would turn NaN into -inf.
  EXPECT_EQ(expectSameAsReference(b), p.fuse ? 1u : 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, BinaryVsReference,
    ::testing::Values(
        BinaryCase{ANEURALNETWORKS_ADD, {2, 3, 4, 5}, {4, 1}, {2, 3, 4, 5},
                   false, 1},
        BinaryCase{ANEURALNETWORKS_MUL, {1, 5}, {3, 1}, {3, 5}, false, 0},
        BinaryCase{ANEURALNETWORKS_SUB, {}, {2, 3}, {2, 3}, false, 2},
        BinaryCase{ANEURALNETWORKS_DIV, {2, 7, 9}, {9}, {2, 7, 9}, true, 0},
        BinaryCase{ANEURALNETWORKS_ADD, {1, 4, 4, 13}, {1, 1, 1, 13},
                   {1, 4, 4, 13}, true, 3},
        // MUL and DIV run on XNNPACK only with a fused activation: compared
        // with the reference kernels here.
        BinaryCase{ANEURALNETWORKS_MUL, {1, 5}, {3, 1}, {3, 5}, false, 1},
        BinaryCase{ANEURALNETWORKS_MUL, {2, 3, 4}, {4}, {2, 3, 4}, true, 2},
        BinaryCase{ANEURALNETWORKS_DIV, {2, 7, 9}, {9}, {2, 7, 9}, true, 3},
        BinaryCase{ANEURALNETWORKS_DIV, {3, 1}, {1, 5}, {3, 5}, false, 1}));

TEST_F(HostDevice, ElementwiseActivationsAndSoftmax) {
  struct Case {
    int32_t opcode;
    uint32_t xnnpack; ///< Expected XNNPACK steps.
  };
  for (Case c : {Case{ANEURALNETWORKS_RELU, 1}, Case{ANEURALNETWORKS_RELU1, 1},
                 Case{ANEURALNETWORKS_RELU6, 1},
                 Case{ANEURALNETWORKS_LOGISTIC, 1},
                 Case{ANEURALNETWORKS_TANH, 0}}) {
    HostModelBuilder b(fn);
    uint32_t in = b.input({2, 3, 7}, -8.0f, 8.0f);
    uint32_t out = b.output({2, 3, 7});
    b.operation(c.opcode, {in}, {out});
    EXPECT_EQ(expectSameAsReference(b, 1e-5f), c.xnnpack) << c.opcode;
  }
  // XNNPACK's softmax normalizes the last axis with beta 1; other forms use
  // the reference kernel.
  struct Softmax {
    float beta;
    int32_t axis;
    uint32_t xnnpack;
  };
  for (Softmax s : {Softmax{1.0f, -1, 1}, Softmax{0.5f, -1, 0},
                    Softmax{1.0f, 1, 0}}) {
    HostModelBuilder b(fn);
    uint32_t in = b.input({3, 5, 11}, -4.0f, 4.0f);
    uint32_t out = b.output({3, 5, 11});
    b.operation(ANEURALNETWORKS_SOFTMAX, {in, b.f32(s.beta), b.i32(s.axis)},
                {out});
    EXPECT_EQ(expectSameAsReference(b, 1e-5f), s.xnnpack);
  }
}

/// SAME padding for a 3x3, stride-1 window on `size` x `size`, plus the
/// fused activation.
host::Window sameWindow(int32_t size, int32_t fuseCode) {
  host::Window w;
  nnapi_mlir::spec::implicitPadding(ANEURALNETWORKS_PADDING_SAME, size, 1, 3, 1,
                               w.padTop, w.padBottom);
  nnapi_mlir::spec::implicitPadding(ANEURALNETWORKS_PADDING_SAME, size, 1, 3, 1,
                               w.padLeft, w.padRight);
  w.fuseCode = fuseCode;
  return w;
}

TEST_F(HostDevice, Float16ModelComputesInFloat32) {
  HostModelBuilder b(fn, ANEURALNETWORKS_TENSOR_FLOAT16);
  uint32_t in = b.input({1, 6, 6, 4});
  uint32_t filter = b.constant({3, 3, 3, 4});
  uint32_t bias = b.constant({3});
  uint32_t conv = b.temporary({1, 6, 6, 3});
  b.operation(ANEURALNETWORKS_CONV_2D,
              {in, filter, bias, b.i32(ANEURALNETWORKS_PADDING_SAME), b.i32(1),
               b.i32(1), b.i32(ANEURALNETWORKS_FUSED_RELU)},
              {conv});
  uint32_t out = b.output({1, 6, 6, 3});
  b.operation(ANEURALNETWORKS_LOGISTIC, {conv}, {out});
  EXPECT_EQ(expectSameAsReference(b, 1e-3f), 2u);

  // In float32 on the float16 values (the temporary is not rounded to
  // float16), then rounded once: within float16's half ulp near 1.
  std::vector<float> expected(6 * 6 * 3);
  host::conv2d(b.inputValue(0).data(), {1, 6, 6, 4},
               b.constantValue(filter).data(), {3, 3, 3, 4},
               b.constantValue(bias).data(), expected.data(), {1, 6, 6, 3},
               sameWindow(6, ANEURALNETWORKS_FUSED_RELU));
  host::unary(host::UnaryKind::Logistic, expected.data(), expected.data(),
              expected.size());
  expectOutputs(b, {expected}, 1e-3f);
}

/// conv -> relu -> reshape -> fully connected -> softmax, plus a second
/// output taken before the reshape: reshapes become views, the arena reuses
/// memory, and outputs that later operations read stay correct.
TEST_F(HostDevice, ChainReusesArenaMemoryAndViewsReshapes) {
  HostModelBuilder b(fn);
  uint32_t in = b.input({1, 8, 8, 3});
  uint32_t f1 = b.constant({8, 3, 3, 3}), b1 = b.constant({8});
  uint32_t c1 = b.temporary({1, 8, 8, 8});
  b.operation(ANEURALNETWORKS_CONV_2D,
              {in, f1, b1, b.i32(ANEURALNETWORKS_PADDING_SAME), b.i32(1),
               b.i32(1), b.i32(ANEURALNETWORKS_FUSED_RELU)},
              {c1});
  uint32_t f2 = b.constant({8, 3, 3, 8}), b2 = b.constant({8});
  uint32_t c2 = b.temporary({1, 8, 8, 8});
  b.operation(ANEURALNETWORKS_CONV_2D,
              {c1, f2, b2, b.i32(ANEURALNETWORKS_PADDING_SAME), b.i32(1),
               b.i32(1), b.i32(0)},
              {c2});
  uint32_t pooled = b.output({1, 4, 4, 8});
  b.operation(ANEURALNETWORKS_MAX_POOL_2D,
              {c2, b.i32(ANEURALNETWORKS_PADDING_VALID), b.i32(2), b.i32(2),
               b.i32(2), b.i32(2), b.i32(0)},
              {pooled});
  uint32_t flat = b.temporary({1, 128});
  int32_t shape[] = {1, 128};
  b.operation(ANEURALNETWORKS_RESHAPE,
              {pooled, b.tensorI32({2}, shape)}, {flat});
  uint32_t fw = b.constant({10, 128}), fb = b.constant({10});
  uint32_t fc = b.temporary({1, 10});
  b.operation(ANEURALNETWORKS_FULLY_CONNECTED, {flat, fw, fb, b.i32(0)}, {fc});
  uint32_t probs = b.output({1, 10});
  b.operation(ANEURALNETWORKS_SOFTMAX, {fc, b.f32(1.0f)}, {probs});
  EXPECT_EQ(expectSameAsReference(b), 5u);

  // The same chain straight through the kernels, each tensor its own buffer.
  std::vector<float> t1(512), t2(512), t3(128), t4(10), t5(10);
  host::conv2d(b.inputValue(0).data(), {1, 8, 8, 3},
               b.constantValue(f1).data(), {8, 3, 3, 3},
               b.constantValue(b1).data(), t1.data(), {1, 8, 8, 8},
               sameWindow(8, ANEURALNETWORKS_FUSED_RELU));
  host::conv2d(t1.data(), {1, 8, 8, 8}, b.constantValue(f2).data(),
               {8, 3, 3, 8}, b.constantValue(b2).data(), t2.data(),
               {1, 8, 8, 8}, sameWindow(8, 0));
  host::Window pool;
  pool.strideW = pool.strideH = 2;
  host::maxPool2d(t2.data(), {1, 8, 8, 8}, t3.data(), {1, 4, 4, 8}, pool, 2,
                  2);
  host::fullyConnected(t3.data(), b.constantValue(fw).data(), {10, 128},
                       b.constantValue(fb).data(), t4.data(), 1, 0);
  host::softmax(t4.data(), {1, 10}, 1.0f, -1, t5.data());
  expectOutputs(b, {t3, t5}, 1e-4f);

  ANeuralNetworksCompilation *c = b.compile(nullptr);
  ASSERT_NE(c, nullptr) << b.error();
  uint32_t steps = 0, xnnpack = 0;
  uint64_t arena = 0;
  ASSERT_EQ(info(c, &steps, &xnnpack, &arena), 0);
  EXPECT_EQ(steps, 5u) << "the reshape should be a view";
  // Each buffer is its bytes plus the kernels' read slack, in 64-byte
  // units: c1 and c2 2112 (live together while the second conv runs), the
  // input's staging 832, pooled's 576, fc and probs 64 each: 5760 without
  // reuse. The largest set alive at once is c1 + c2, and everything else
  // fits where one of them is dead.
  size_t tensor =
      (8 * 8 * 8 * sizeof(float) + host::kKernelSlackBytes + 63) / 64 * 64;
  EXPECT_EQ(arena, 2 * tensor);
}

TEST_F(HostDevice, ReusableExecutionRunsTwiceAndFreezesItsBuffers) {
  HostModelBuilder b(fn);
  uint32_t x = b.input({4});
  uint32_t out = b.output({4});
  b.operation(ANEURALNETWORKS_RELU, {x}, {out});
  ANeuralNetworksCompilation *c = b.compile(nullptr);
  ASSERT_NE(c, nullptr) << b.error();
  ANeuralNetworksExecution *e = nullptr;
  ASSERT_EQ(fn.ANeuralNetworksExecution_create(c, &e), 0);
  ASSERT_NE(fn.ANeuralNetworksExecution_setReusable, nullptr);
  ASSERT_EQ(fn.ANeuralNetworksExecution_setReusable(e, true), 0);
  float in[4] = {-1, 2, -3, 4}, result[4] = {};
  ASSERT_EQ(fn.ANeuralNetworksExecution_setInput(e, 0, nullptr, in, 16), 0);
  ASSERT_EQ(fn.ANeuralNetworksExecution_setOutput(e, 0, nullptr, result, 16), 0);
  ASSERT_EQ(fn.ANeuralNetworksExecution_compute(e), 0);
  EXPECT_EQ(result[1], 2.0f);
  in[1] = 5; // same buffers, new contents
  ASSERT_EQ(fn.ANeuralNetworksExecution_compute(e), 0);
  EXPECT_EQ(result[1], 5.0f);
  EXPECT_EQ(result[0], 0.0f);
  EXPECT_EQ(fn.ANeuralNetworksExecution_setInput(e, 0, nullptr, in, 16),
            ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(fn.ANeuralNetworksExecution_setReusable(e, false),
            ANEURALNETWORKS_BAD_STATE);
  fn.ANeuralNetworksExecution_free(e);

  // A plain execution computes once.
  ASSERT_EQ(fn.ANeuralNetworksExecution_create(c, &e), 0);
  ASSERT_EQ(fn.ANeuralNetworksExecution_setInput(e, 0, nullptr, in, 16), 0);
  ASSERT_EQ(fn.ANeuralNetworksExecution_setOutput(e, 0, nullptr, result, 16), 0);
  ASSERT_EQ(fn.ANeuralNetworksExecution_compute(e), 0);
  EXPECT_EQ(fn.ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_BAD_STATE);
  fn.ANeuralNetworksExecution_free(e);
}

TEST_F(HostDevice, InjectedXnnpackFailuresAreReportedAtTheRightCall) {
  auto build = [&](HostModelBuilder &b) {
    uint32_t x = b.input({1, 4, 4, 2});
    uint32_t out = b.output({1, 4, 4, 2});
    b.operation(ANEURALNETWORKS_CONV_2D,
                {x, b.constant({2, 1, 1, 2}), b.constant({2}),
                 b.i32(ANEURALNETWORKS_PADDING_VALID), b.i32(1), b.i32(1),
                 b.i32(0)},
                {out});
  };
  for (const char *fault : {"initialize", "create"}) {
    HostModelBuilder b(fn);
    build(b);
    setenv("NNAPI_MLIR_HOST_FAULT", fault, 1);
    EXPECT_EQ(b.compile(nullptr), nullptr) << fault;
    EXPECT_NE(b.error().find(std::string("xnn_") +
                             (fault[0] == 'i' ? "initialize" : "create")),
              std::string::npos)
        << b.error();
    EXPECT_NE(b.error().find("injected"), std::string::npos) << b.error();
  }
  // The reference kernels do not use XNNPACK, so its failures do not matter.
  {
    HostModelBuilder b(fn);
    build(b);
    setenv("NNAPI_MLIR_HOST_FAULT", "initialize", 1);
    std::vector<std::vector<float>> out;
    EXPECT_TRUE(b.compileAndRun("reference", out)) << b.error();
  }
  HostModelBuilder b(fn);
  build(b);
  setenv("NNAPI_MLIR_HOST_FAULT", "run", 1);
  std::vector<std::vector<float>> out;
  EXPECT_FALSE(b.compileAndRun(nullptr, out));
  EXPECT_NE(b.error().find("xnn_run_operator returned"), std::string::npos)
      << b.error();
  setenv("NNAPI_MLIR_HOST_FAULT", "sometimes", 1);
  HostModelBuilder c(fn);
  build(c);
  EXPECT_EQ(c.compile(nullptr), nullptr);
  EXPECT_NE(c.error().find("NNAPI_MLIR_HOST_FAULT must be"), std::string::npos)
      << c.error();
}

TEST_F(HostDevice, UnknownKernelModeIsAnError) {
  HostModelBuilder b(fn);
  uint32_t x = b.input({4});
  uint32_t out = b.output({4});
  b.operation(ANEURALNETWORKS_RELU, {x}, {out});
  EXPECT_EQ(b.compile("fastest"), nullptr);
  EXPECT_NE(b.error().find("NNAPI_MLIR_HOST_KERNELS must be"),
            std::string::npos)
      << b.error();
}

/// Malformed operations that once made the host device read past its
/// operands or overflow: each is rejected with a message, nothing is read.
TEST_F(HostDevice, RejectsMalformedOperationsWithoutOverflowing) {
  {
    // 8 inputs, the 8th an INT32: neither the implicit form (7, then a
    // BOOL layout) nor the explicit one (10): the explicit paddings that
    // are not there used to be read. The implicit form got furthest.
    HostModelBuilder b(fn);
    uint32_t x = b.input({1, 4, 4, 2});
    uint32_t out = b.output({1, 4, 4, 2});
    b.operation(ANEURALNETWORKS_CONV_2D,
                {x, b.constant({2, 1, 1, 2}), b.constant({2}),
                 b.i32(ANEURALNETWORKS_PADDING_SAME), b.i32(1), b.i32(1),
                 b.i32(0), b.i32(1)},
                {out});
    expectRejected(b, "input 7 (layout) must be BOOL, got INT32");
  }
  {
    // Explicit paddings near 2^30: the padded size used to overflow int32.
    HostModelBuilder b(fn);
    uint32_t x = b.input({1, 4, 4, 2});
    uint32_t out = b.output({1, 4, 4, 2});
    int32_t huge = (1 << 30) + 5;
    b.operation(ANEURALNETWORKS_CONV_2D,
                {x, b.constant({2, 1, 1, 2}), b.constant({2}), b.i32(huge),
                 b.i32(huge), b.i32(huge), b.i32(huge), b.i32(1), b.i32(1),
                 b.i32(0)},
                {out});
    expectRejected(b, "the padded input is larger than 2^31 - 1");
  }
  {
    // A RESHAPE whose shape multiplies past 2^64 (checked before each
    // multiplication, against the input's element count).
    HostModelBuilder b(fn);
    uint32_t x = b.input({4});
    uint32_t out = b.output({4});
    const int32_t dims[] = {2, 1 << 30, 1 << 30, 1 << 30};
    b.operation(ANEURALNETWORKS_RESHAPE, {x, b.tensorI32({4}, dims)}, {out});
    expectRejected(b, "shape [2,1073741824,1073741824,1073741824] has more "
                      "elements than the input's 4");
  }
}

TEST(BufferPlan, PlacesBuffersWithDisjointLifetimesTogether) {
  // a and b never live at once: one offset. c overlaps both in time.
  std::vector<BufferRequest> requests = {
      {1000, 0, 1}, {1000, 2, 3}, {100, 1, 2}};
  std::vector<size_t> offsets;
  size_t total = planBuffers(requests, 64, offsets);
  EXPECT_EQ(offsets[0], offsets[1]);
  EXPECT_EQ(total, 1024u + 128u);
}

TEST(BufferPlan, NeverOverlapsLiveBuffersAndStaysWithinTheirSum) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<BufferRequest> requests(1 + rng() % 24);
    for (BufferRequest &r : requests) {
      r.bytes = 1 + rng() % 5000;
      r.first = rng() % 20;
      r.last = r.first + rng() % 6;
    }
    std::vector<size_t> offsets;
    size_t total = planBuffers(requests, 64, offsets);
    size_t sum = 0, peak = 0;
    for (size_t step = 0; step < 26; ++step) {
      size_t live = 0;
      for (const BufferRequest &r : requests)
        if (r.first <= step && step <= r.last)
          live += (r.bytes + 63) / 64 * 64;
      peak = std::max(peak, live);
    }
    for (size_t i = 0; i < requests.size(); ++i) {
      const BufferRequest &a = requests[i];
      sum += (a.bytes + 63) / 64 * 64;
      EXPECT_EQ(offsets[i] % 64, 0u);
      EXPECT_LE(offsets[i] + a.bytes, total);
      for (size_t j = i + 1; j < requests.size(); ++j) {
        const BufferRequest &b = requests[j];
        bool live = a.first <= b.last && b.first <= a.last;
        bool apart = offsets[i] + a.bytes <= offsets[j] ||
                     offsets[j] + b.bytes <= offsets[i];
        EXPECT_TRUE(!live || apart) << "trial " << trial;
      }
    }
    EXPECT_GE(total, peak); // no plan can do better than the live peak
    EXPECT_LE(total, sum);
  }
}

} // namespace

/// MAXIMUM, MINIMUM and POW have no fused-activation operand and no rank-0
/// tensors; the element-wise unary operations one input of rank 1 to 4.
TEST_F(HostDevice, RejectsMalformedElementwiseOperations) {
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    uint32_t out = b.output({2, 3});
    b.operation(ANEURALNETWORKS_MAXIMUM, {x, x, b.i32(0)}, {out});
    expectRejected(b, "expects 2 inputs, got 3");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({});
    uint32_t out = b.output({});
    b.operation(ANEURALNETWORKS_POW, {x, x}, {out});
    expectRejected(b, "input 0 (input0) has rank 0, expected one of 1, 2, 3, 4");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    uint32_t y = b.input({2});
    uint32_t out = b.output({2, 3});
    b.operation(ANEURALNETWORKS_MINIMUM, {x, y}, {out});
    expectRejected(b, "shapes [2,3] and [2] do not broadcast");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    uint32_t out = b.output({3, 2});
    b.operation(ANEURALNETWORKS_EXP, {x}, {out});
    expectRejected(b, "output shape [3,2] differs from computed [2,3]");
  }
}

/// An unfused ADD keeps NaN (XNNPACK's clamp would make it -inf) in both
/// kernel modes.
TEST_F(HostDevice, UnfusedAddPropagatesNaN) {
  for (const char *mode : {static_cast<const char *>(nullptr), "reference"}) {
    HostModelBuilder b(fn);
    uint32_t x = b.input({4});
    uint32_t out = b.output({4});
    b.operation(ANEURALNETWORKS_ADD, {x, x, b.i32(0)}, {out});
    b.setInput(0, {std::nanf(""), 1.0f, -2.0f, 0.5f});
    std::vector<std::vector<float>> result;
    ASSERT_TRUE(b.compileAndRun(mode, result)) << b.error();
    EXPECT_TRUE(std::isnan(result[0][0]));
    EXPECT_EQ(result[0][1], 2.0f);
    EXPECT_EQ(result[0][2], -4.0f);
  }
}

/// The operand rules of the data movement, reduction and matrix product
/// operations.
TEST_F(HostDevice, RejectsMalformedDataAndReductionOperations) {
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    int32_t perm[] = {0, 0};
    uint32_t out = b.output({2, 2});
    b.operation(ANEURALNETWORKS_TRANSPOSE, {x, b.tensorI32({2}, perm)}, {out});
    expectRejected(b, "perm is not a permutation of the input's dimensions");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    int32_t perm[] = {1, 0, 2};
    uint32_t out = b.output({3, 2});
    b.operation(ANEURALNETWORKS_TRANSPOSE, {x, b.tensorI32({3}, perm)}, {out});
    expectRejected(b, "perm has shape [3], expected [2]");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    int32_t pads[] = {0, 0, -1, 0};
    uint32_t out = b.output({2, 2});
    b.operation(ANEURALNETWORKS_PAD, {x, b.tensorI32({2, 2}, pads)}, {out});
    expectRejected(b, "paddings must be non-negative");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    int32_t pads[] = {0, 0, 0x7fffffff, 0};
    uint32_t out = b.output({2, 3});
    b.operation(ANEURALNETWORKS_PAD, {x, b.tensorI32({2, 2}, pads)}, {out});
    expectRejected(b, "the padded dimension 1 is larger than 2^31 - 1");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    int32_t pads[] = {0, 0, 1, 1};
    uint32_t out = b.output({2, 5});
    b.operation(ANEURALNETWORKS_PAD_V2,
                {x, b.tensorI32({2, 2}, pads), b.i32(0)}, {out});
    expectRejected(b, "input 2 (pad_value) must be FLOAT32, got INT32");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({4, 8});
    int32_t begin[] = {0, 6}, size[] = {4, 3};
    uint32_t out = b.output({4, 3});
    b.operation(ANEURALNETWORKS_SLICE,
                {x, b.tensorI32({2}, begin), b.tensorI32({2}, size)}, {out});
    expectRejected(b, "size 3 from 6 does not fit dimension 1 of size 8");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({4, 8});
    int32_t size[] = {-1, -1};
    uint32_t out = b.output({4, 6});
    uint32_t begin = b.input({2}); // computed at run time
    b.operation(ANEURALNETWORKS_SLICE, {x, begin, b.tensorI32({2}, size)},
                {out});
    expectRejected(b, "input 1 (begin) must be TENSOR_INT32, got TENSOR_FLOAT32");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    int32_t multiples[] = {0x10000, 0x10000};
    uint32_t out = b.output({4, 6});
    b.operation(ANEURALNETWORKS_TILE, {x, b.tensorI32({2}, multiples)}, {out});
    expectRejected(b, "the tiled tensor has more than 2^32 - 1 elements");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    int32_t axes[] = {2};
    uint32_t out = b.output({2, 3});
    b.operation(ANEURALNETWORKS_REDUCE_SUM,
                {x, b.tensorI32({1}, axes), b.boolean(true)}, {out});
    expectRejected(b, "axis 2 out of range");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    int32_t axes[] = {1};
    uint32_t out = b.output({2, 1});
    b.operation(ANEURALNETWORKS_MEAN,
                {x, b.tensorI32({1}, axes), b.boolean(true)}, {out});
    expectRejected(b, "input 2 (keep_dims) must be INT32, got BOOL");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3, 4});
    uint32_t y = b.input({2, 5, 6});
    uint32_t out = b.output({2, 3, 6});
    b.operation(ANEURALNETWORKS_BATCH_MATMUL, {x, y}, {out});
    expectRejected(b, "contracting dimensions differ (4 vs 5)");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3, 4});
    uint32_t y = b.input({3, 4, 6});
    uint32_t out = b.output({2, 3, 6});
    b.operation(ANEURALNETWORKS_BATCH_MATMUL, {x, y}, {out});
    expectRejected(b, "batch dimensions differ");
  }
}

/// NNAPI semantics the TOSA patterns never produce: TRANSPOSE without perm
/// reverses the dimensions, SLICE's size -1 runs to the end, MEAN and
/// REDUCE_* drop reduced dimensions without keep_dims, BATCH_MATMUL's adj
/// flags transpose; checked against values computed here.
TEST_F(HostDevice, DataOperationsFollowNNAPISemantics) {
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    uint32_t out = b.output({3, 2});
    b.operation(ANEURALNETWORKS_TRANSPOSE, {x}, {out});
    b.setInput(0, {1, 2, 3, 4, 5, 6});
    std::vector<std::vector<float>> r;
    ASSERT_TRUE(b.compileAndRun(nullptr, r)) << b.error();
    EXPECT_EQ(r[0], (std::vector<float>{1, 4, 2, 5, 3, 6}));
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    int32_t begin[] = {1, 1}, size[] = {-1, -1};
    uint32_t out = b.output({1, 2});
    b.operation(ANEURALNETWORKS_SLICE,
                {x, b.tensorI32({2}, begin), b.tensorI32({2}, size)}, {out});
    b.setInput(0, {1, 2, 3, 4, 5, 6});
    std::vector<std::vector<float>> r;
    ASSERT_TRUE(b.compileAndRun(nullptr, r)) << b.error();
    EXPECT_EQ(r[0], (std::vector<float>{5, 6}));
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    int32_t axes[] = {-1, 1};
    uint32_t mean = b.output({2});
    uint32_t prod = b.output({1});
    int32_t all[] = {0, 1};
    b.operation(ANEURALNETWORKS_MEAN, {x, b.tensorI32({2}, axes), b.i32(0)},
                {mean});
    b.operation(ANEURALNETWORKS_REDUCE_PROD,
                {x, b.tensorI32({2}, all), b.boolean(false)}, {prod});
    b.setInput(0, {1, 2, 3, 4, 5, 6});
    std::vector<std::vector<float>> r;
    ASSERT_TRUE(b.compileAndRun(nullptr, r)) << b.error();
    EXPECT_EQ(r[0], (std::vector<float>{2, 5}));
    EXPECT_EQ(r[1], (std::vector<float>{720}));
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({1, 3, 2}); // adj_x: x^T is [2, 3]
    uint32_t y = b.input({1, 2, 3}); // adj_y: y^T is [3, 2]
    uint32_t out = b.output({1, 2, 2});
    b.operation(ANEURALNETWORKS_BATCH_MATMUL,
                {x, y, b.boolean(true), b.boolean(true)}, {out});
    b.setInput(0, {1, 2, 3, 4, 5, 6});  // x^T = [[1, 3, 5], [2, 4, 6]]
    b.setInput(1, {1, 0, 2, 0, 1, 1});  // y^T = [[1, 0], [0, 1], [2, 1]]
    std::vector<std::vector<float>> r;
    ASSERT_TRUE(b.compileAndRun(nullptr, r)) << b.error();
    EXPECT_EQ(r[0], (std::vector<float>{11, 8, 14, 10}));
  }
}

TEST_F(HostDevice, UpsamplingOperationsFollowNNAPISemantics) {
  auto run = [&](HostModelBuilder &b, const char *kernels = nullptr) {
    std::vector<std::vector<float>> r;
    EXPECT_TRUE(b.compileAndRun(kernels, r)) << b.error();
    return r.empty() ? std::vector<float>() : r[0];
  };
  auto transposeConv = [&](HostModelBuilder &b, uint32_t x, uint32_t w,
                           uint32_t bias, std::array<int32_t, 4> pad,
                           int32_t stride, int32_t fuse, uint32_t out) {
    b.operation(ANEURALNETWORKS_TRANSPOSE_CONV_2D,
                {x, w, bias, b.i32(pad[0]), b.i32(pad[1]), b.i32(pad[2]),
                 b.i32(pad[3]), b.i32(stride), b.i32(stride), b.i32(fuse),
                 b.boolean(false)},
                {out});
  };
  {
    // Stride 2, no overlap: input pixel v at (y, x) writes v * filter at
    // (2y + ky, 2x + kx); the padding crops column 0 and row 3.
    HostModelBuilder b(fn);
    uint32_t x = b.input({1, 2, 2, 1});
    uint32_t w = b.constantOf({1, 2, 2, 1}, {1, 10, 100, 1000});
    uint32_t bias = b.constantOf({1}, {0.5f});
    uint32_t out = b.output({1, 3, 3, 1});
    transposeConv(b, x, w, bias, {1, 0, 0, 1}, 2, 0, out);
    b.setInput(0, {1, 2, 3, 4});
    EXPECT_EQ(run(b), (std::vector<float>{10.5f, 2.5f, 20.5f, 1000.5f, 200.5f,
                                          2000.5f, 30.5f, 4.5f, 40.5f}));
  }
  {
    // Stride 1: the contributions overlap and add; then bias and relu.
    HostModelBuilder b(fn);
    uint32_t x = b.input({1, 2, 2, 1});
    uint32_t w = b.constantOf({1, 2, 2, 1}, {1, 1, 1, 1});
    uint32_t bias = b.constantOf({1}, {-5.5f});
    uint32_t out = b.output({1, 3, 3, 1});
    transposeConv(b, x, w, bias, {0, 0, 0, 0}, 1, ANEURALNETWORKS_FUSED_RELU,
                  out);
    b.setInput(0, {1, 2, 3, 4});
    EXPECT_EQ(run(b), (std::vector<float>{0, 0, 0, 0, 4.5f, 0.5f, 0, 1.5f, 0}));
  }
  auto resize = [&](int32_t code, std::vector<float> in, uint32_t outW,
                    std::vector<uint32_t> flags, bool scales = false,
                    const char *kernels = nullptr) {
    HostModelBuilder b(fn);
    uint32_t inW = uint32_t(in.size());
    uint32_t x = b.input({1, 1, inW, 1});
    uint32_t out = b.output({1, 1, outW, 1});
    std::vector<uint32_t> ins = {x};
    if (scales) {
      ins.push_back(b.f32(float(outW) / float(inW)));
      ins.push_back(b.f32(1.0f));
    } else {
      ins.push_back(b.i32(int32_t(outW)));
      ins.push_back(b.i32(1));
    }
    for (uint32_t f : flags)
      ins.push_back(b.boolean(f));
    b.operation(code, ins, {out});
    b.setInput(0, in);
    return run(b, kernels);
  };
  const int32_t bilinear = ANEURALNETWORKS_RESIZE_BILINEAR;
  const int32_t nearest = ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR;
  // Bilinear 2 -> 4: samples 0, .5, 1, 1.5 (the last past the edge); with
  // half-pixel centers -.25, .25, .75, 1.25; 2 -> 3 with aligned corners
  // 0, .5, 1. Sizes given as scales give the same.
  EXPECT_EQ(resize(bilinear, {0, 4}, 4, {}), (std::vector<float>{0, 2, 4, 4}));
  EXPECT_EQ(resize(bilinear, {0, 4}, 4, {}, true),
            (std::vector<float>{0, 2, 4, 4}));
  EXPECT_EQ(resize(bilinear, {0, 4}, 4, {0, 0, 1}),
            (std::vector<float>{0, 1, 3, 4}));
  EXPECT_EQ(resize(bilinear, {0, 4}, 3, {0, 1, 0}),
            (std::vector<float>{0, 2, 4}));
  // Nearest 3 -> 5: floor(o * .6); round(o * .5) with aligned corners
  // (halves away from zero); floor((o + .5) * .6) with half-pixel centers.
  EXPECT_EQ(resize(nearest, {0, 1, 2}, 5, {0}),
            (std::vector<float>{0, 0, 1, 1, 2}));
  EXPECT_EQ(resize(nearest, {0, 1, 2}, 5, {0, 1, 0}),
            (std::vector<float>{0, 1, 1, 2, 2}));
  EXPECT_EQ(resize(nearest, {0, 1, 2}, 5, {0, 0, 1}),
            (std::vector<float>{0, 0, 1, 2, 2}));
  // On the reference kernels an infinite pixel does not leak into samples
  // that give it weight 0; XNNPACK, like TFLite's kernels and the compiled
  // host code, multiplies it by 0 (docs/design.md).
  std::vector<float> r =
      resize(bilinear, {1, INFINITY}, 3, {0, 1, 0}, false, "reference");
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0], 1.0f);
  EXPECT_TRUE(std::isinf(r[2]));
}

TEST_F(HostDevice, RejectsMalformedUpsamplingOperations) {
  auto transposeConv = [&](std::vector<uint32_t> inShape,
                           std::vector<uint32_t> filterShape,
                           uint32_t biasSize, std::array<int32_t, 4> pad,
                           std::vector<uint32_t> outShape,
                           const char *message) {
    HostModelBuilder b(fn);
    uint32_t x = b.input(inShape);
    uint32_t w = b.constant(filterShape), bias = b.constant({biasSize});
    uint32_t out = b.output(outShape);
    b.operation(ANEURALNETWORKS_TRANSPOSE_CONV_2D,
                {x, w, bias, b.i32(pad[0]), b.i32(pad[1]), b.i32(pad[2]),
                 b.i32(pad[3]), b.i32(2), b.i32(2), b.i32(0), b.boolean(false)},
                {out});
    expectRejected(b, message);
  };
  transposeConv({1, 2, 2, 3}, {4, 2, 2, 2}, 4, {0, 0, 0, 0}, {1, 4, 4, 4},
                "filter input depth 2 does not match input depth 3");
  transposeConv({1, 2, 2, 3}, {4, 2, 2, 3}, 3, {0, 0, 0, 0}, {1, 4, 4, 4},
                "bias size 3 does not match output depth 4");
  transposeConv({1, 2, 2, 3}, {4, 2, 2, 3}, 4, {2, 2, 0, 0}, {1, 4, 1, 4},
                "padding crops the whole output");
  transposeConv({1, 2, 2, 3}, {4, 2, 2, 3}, 4, {0, 0, -1, 0}, {1, 5, 4, 4},
                "padding must be non-negative");
  transposeConv({1, 2, 2, 3}, {4, 2, 2, 3}, 4, {0, 0, 0, 0}, {1, 5, 4, 4},
                "output shape [1,5,4,4] differs from computed [1,4,4,4]");
  {
    // The implicit-padding form (output shape, padding scheme).
    HostModelBuilder b(fn);
    uint32_t x = b.input({1, 2, 2, 3});
    uint32_t w = b.constant({4, 2, 2, 3}), bias = b.constant({4});
    int32_t shape[] = {1, 4, 4, 4};
    uint32_t out = b.output({1, 4, 4, 4});
    b.operation(ANEURALNETWORKS_TRANSPOSE_CONV_2D,
                {x, w, bias, b.tensorI32({4}, shape),
                 b.i32(ANEURALNETWORKS_PADDING_SAME), b.i32(2), b.i32(2),
                 b.i32(0), b.boolean(false)},
                {out});
    expectRejected(b, "only the explicit-padding form (11 inputs)");
  }
  auto resize = [&](std::vector<uint32_t> flags, int32_t width,
                    std::vector<uint32_t> outShape, const char *message) {
    HostModelBuilder b(fn);
    uint32_t x = b.input({1, 2, 2, 3});
    uint32_t out = b.output(outShape);
    std::vector<uint32_t> ins = {x, b.i32(width), b.i32(4)};
    for (uint32_t f : flags)
      ins.push_back(b.boolean(f));
    b.operation(ANEURALNETWORKS_RESIZE_BILINEAR, ins, {out});
    expectRejected(b, message);
  };
  resize({0, 1, 1}, 4, {1, 4, 4, 3},
         "align_corners and half_pixel_centers exclude each other");
  // NCHW: [N, C, H, W] = [1, 2, 2, 3] resized to [1, 2, 4, 4].
  resize({1}, 4, {1, 2, 4, 4}, "NCHW layout is not supported");
  resize({}, 0, {1, 4, 4, 3}, "output size must be positive");
  resize({}, 5, {1, 4, 4, 3},
         "output shape [1,4,4,3] differs from computed [1,4,5,3]");
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({1, 2, 2, 3});
    uint32_t out = b.output({1, 4, 4, 3});
    b.operation(ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR,
                {x, b.f32(-2.0f), b.f32(2.0f), b.boolean(false)}, {out});
    expectRejected(b, "gives no valid output size");
  }
}

TEST_F(HostDevice, ActivationOperationsFollowNNAPISemantics) {
  auto run = [&](HostModelBuilder &b) {
    std::vector<std::vector<float>> r;
    EXPECT_TRUE(b.compileAndRun(nullptr, r)) << b.error();
    return r.empty() ? std::vector<float>() : r[0];
  };
  {
    // PRELU's alpha broadcasts: one slope per column.
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 2});
    uint32_t alpha = b.constantOf({2}, {0.5f, 2.0f});
    uint32_t out = b.output({2, 2});
    b.operation(ANEURALNETWORKS_PRELU, {x, alpha}, {out});
    b.setInput(0, {-2, -2, 3, 0});
    EXPECT_EQ(run(b), (std::vector<float>{-1, -4, 3, 0}));
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({3});
    uint32_t out = b.output({3});
    b.operation(ANEURALNETWORKS_ELU, {x, b.f32(2.0f)}, {out});
    b.setInput(0, {-1, 0, 1.5f});
    std::vector<float> r = run(b);
    ASSERT_EQ(r.size(), 3u);
    EXPECT_FLOAT_EQ(r[0], 2.0f * (std::exp(-1.0f) - 1.0f));
    EXPECT_EQ(r[1], 0.0f);
    EXPECT_EQ(r[2], 1.5f);
  }
  {
    // log(softmax(beta x)) over axis 0 of [2, 2], beta 2.
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 2});
    uint32_t out = b.output({2, 2});
    b.operation(ANEURALNETWORKS_LOG_SOFTMAX, {x, b.f32(2.0f), b.i32(0)},
                {out});
    b.setInput(0, {0, 1, 1, 1});
    std::vector<float> r = run(b);
    ASSERT_EQ(r.size(), 4u);
    double lse = std::log(1.0 + std::exp(2.0));
    EXPECT_NEAR(r[0], 0.0 - lse, 1e-6);
    EXPECT_NEAR(r[2], 2.0 - lse, 1e-6);
    EXPECT_NEAR(r[1], -std::log(2.0), 1e-6);
    EXPECT_NEAR(r[3], -std::log(2.0), 1e-6);
  }
}

TEST_F(HostDevice, RejectsMalformedActivationOperations) {
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    uint32_t out = b.output({2, 3});
    b.operation(ANEURALNETWORKS_LOG_SOFTMAX, {x, b.f32(1.0f)}, {out});
    expectRejected(b, "expects 3 inputs, got 2");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    uint32_t out = b.output({2, 3});
    b.operation(ANEURALNETWORKS_ELU, {x, b.i32(1)}, {out});
    expectRejected(b, "input 1 (alpha) must be FLOAT32, got INT32");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    uint32_t alpha = b.constant({2});
    uint32_t out = b.output({2, 3});
    b.operation(ANEURALNETWORKS_PRELU, {x, alpha}, {out});
    expectRejected(b, "shapes [2,3] and [2] do not broadcast");
  }
}

TEST_F(HostDevice, InstanceNormalizationInBothLayouts) {
  // Channel 0 holds {1, 3}, channel 1 {2, 6}: means 2 and 4, variances 1
  // and 4; gamma 2, beta 0.5, epsilon 1e-6.
  for (bool nchw : {false, true}) {
    HostModelBuilder b(fn);
    uint32_t x = b.input(nchw ? std::vector<uint32_t>{1, 2, 1, 2}
                              : std::vector<uint32_t>{1, 1, 2, 2});
    uint32_t out = b.output(nchw ? std::vector<uint32_t>{1, 2, 1, 2}
                                 : std::vector<uint32_t>{1, 1, 2, 2});
    b.operation(ANEURALNETWORKS_INSTANCE_NORMALIZATION,
                {x, b.f32(2.0f), b.f32(0.5f), b.f32(1e-6f), b.boolean(nchw)},
                {out});
    b.setInput(0, nchw ? std::vector<float>{1, 3, 2, 6}
                       : std::vector<float>{1, 2, 3, 6});
    std::vector<std::vector<float>> r;
    ASSERT_TRUE(b.compileAndRun(nullptr, r)) << b.error();
    std::vector<float> expected = nchw ? std::vector<float>{-1.5f, 2.5f, -1.5f, 2.5f}
                                       : std::vector<float>{-1.5f, -1.5f, 2.5f, 2.5f};
    for (size_t i = 0; i < 4; ++i)
      EXPECT_NEAR(r[0][i], expected[i], 1e-5) << (nchw ? "NCHW " : "NHWC ") << i;
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({1, 2, 2, 2});
    uint32_t out = b.output({1, 2, 2, 2});
    b.operation(ANEURALNETWORKS_INSTANCE_NORMALIZATION,
                {x, b.f32(1.0f), b.f32(0.0f), b.f32(-1.0f), b.boolean(false)},
                {out});
    EXPECT_EQ(b.compile(nullptr), nullptr);
    EXPECT_NE(b.error().find("epsilon must be positive"), std::string::npos)
        << b.error();
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({1, 2, 2, 2});
    uint32_t out = b.output({1, 2, 2, 2});
    b.operation(ANEURALNETWORKS_INSTANCE_NORMALIZATION,
                {x, b.f32(1.0f), b.f32(0.0f), b.f32(1.0f)}, {out});
    EXPECT_EQ(b.compile(nullptr), nullptr);
    EXPECT_NE(b.error().find("expects 5 inputs, got 4"), std::string::npos)
        << b.error();
  }
}

TEST_F(HostDevice, MirrorPadReverseAndGatherFollowNNAPISemantics) {
  auto run = [&](HostModelBuilder &b) {
    std::vector<std::vector<float>> r;
    EXPECT_TRUE(b.compileAndRun(nullptr, r)) << b.error();
    return r.empty() ? std::vector<float>() : r[0];
  };
  for (int32_t mode : {0, 1}) {
    // [1, 2, 3] padded 2 before and 1 after: REFLECT [3, 2, 1, 2, 3, 2],
    // SYMMETRIC [2, 1, 1, 2, 3, 3].
    HostModelBuilder b(fn);
    uint32_t x = b.input({1, 3});
    int32_t pads[] = {0, 0, 2, 1};
    uint32_t out = b.output({1, 6});
    b.operation(ANEURALNETWORKS_MIRROR_PAD,
                {x, b.tensorI32({2, 2}, pads), b.i32(mode)}, {out});
    b.setInput(0, {1, 2, 3});
    std::vector<float> expected = mode ? std::vector<float>{2, 1, 1, 2, 3, 3}
                                       : std::vector<float>{3, 2, 1, 2, 3, 2};
    EXPECT_EQ(run(b), expected);
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    int32_t axis[] = {1};
    uint32_t out = b.output({2, 3});
    b.operation(ANEURALNETWORKS_REVERSE, {x, b.tensorI32({1}, axis)}, {out});
    b.setInput(0, {1, 2, 3, 4, 5, 6});
    EXPECT_EQ(run(b), (std::vector<float>{3, 2, 1, 6, 5, 4}));
  }
  {
    // 2-D indices replace the gathered dimension: [3, 2] -> [2, 2, 2].
    HostModelBuilder b(fn);
    uint32_t x = b.input({3, 2});
    int32_t idx[] = {2, 0, 1, 1};
    uint32_t out = b.output({2, 2, 2});
    b.operation(ANEURALNETWORKS_GATHER, {x, b.i32(0), b.tensorI32({2, 2}, idx)},
                {out});
    b.setInput(0, {1, 2, 3, 4, 5, 6});
    EXPECT_EQ(run(b), (std::vector<float>{5, 6, 1, 2, 3, 4, 3, 4}));
  }
  {
    // Indices given at run time (token ids of an embedding lookup), read on
    // axis 1 of a [1, 3, 2] table: [1, 4] ids -> [1, 1, 4, 2].
    HostModelBuilder b(fn);
    uint32_t x = b.input({1, 3, 2});
    uint32_t ids = b.int32Input({1, 4});
    uint32_t out = b.output({1, 1, 4, 2});
    b.operation(ANEURALNETWORKS_GATHER, {x, b.i32(1), ids}, {out});
    b.setInput(0, {1, 2, 3, 4, 5, 6});
    b.setInput(1, {2, 2, 0, 1});
    EXPECT_EQ(run(b), (std::vector<float>{5, 6, 5, 6, 1, 2, 3, 4}));
  }
}

/// An index computed at run time outside the dimension fails the execution
/// (OP_FAILED with the index), on every kernel set; nothing is read.
TEST_F(HostDevice, GatherFailsOnAnIndexOutsideTheDimension) {
  for (const char *kernels : {"reference", "xnnpack"}) {
    for (float bad : {3.0f, -1.0f}) {
      HostModelBuilder b(fn);
      uint32_t x = b.input({3, 2});
      uint32_t ids = b.int32Input({2});
      uint32_t out = b.output({2, 2});
      b.operation(ANEURALNETWORKS_GATHER, {x, b.i32(0), ids}, {out});
      b.setInput(1, {0, bad});
      std::vector<std::vector<float>> r;
      EXPECT_FALSE(b.compileAndRun(kernels, r));
      EXPECT_NE(b.error().find("GATHER index " + std::to_string(int(bad)) +
                               " is outside dimension 0 of size 3"),
                std::string::npos)
          << b.error();
    }
  }
}

TEST_F(HostDevice, RejectsMalformedMirrorPadReverseAndGather) {
  auto mirror = [&](int32_t mode, int32_t before, std::vector<uint32_t> out,
                    const char *message) {
    HostModelBuilder b(fn);
    uint32_t x = b.input({1, 3});
    int32_t pads[] = {0, 0, before, 0};
    uint32_t o = b.output(out);
    b.operation(ANEURALNETWORKS_MIRROR_PAD,
                {x, b.tensorI32({2, 2}, pads), b.i32(mode)}, {o});
    expectRejected(b, message);
  };
  mirror(0, 3, {1, 6}, "mirror padding of dimension 1 exceeds 2");
  mirror(1, 4, {1, 7}, "mirror padding of dimension 1 exceeds 3");
  mirror(2, 1, {1, 4}, "mirror pad mode must be 0 (REFLECT) or 1 (SYMMETRIC)");
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    int32_t axis[] = {2};
    uint32_t out = b.output({2, 3});
    b.operation(ANEURALNETWORKS_REVERSE, {x, b.tensorI32({1}, axis)}, {out});
    expectRejected(b, "axis 2 out of range");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({3, 2});
    int32_t idx[] = {3};
    uint32_t out = b.output({1, 2});
    b.operation(ANEURALNETWORKS_GATHER, {x, b.i32(0), b.tensorI32({1}, idx)},
                {out});
    expectRejected(b, "index 3 is outside dimension 0 of size 3");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({3, 2});
    uint32_t idx = b.input({1});
    uint32_t out = b.output({1, 2});
    b.operation(ANEURALNETWORKS_GATHER, {x, b.i32(0), idx}, {out});
    expectRejected(b, "input 2 (indices) must be TENSOR_INT32, got TENSOR_FLOAT32");
  }
}

TEST_F(HostDevice, DepthToSpaceAndBackInBothLayouts) {
  // NHWC [1, 1, 1, 8] with block 2 is [1, 2, 2, 2]: block element (i, j)
  // takes depth channels (i * 2 + j) * 2 + c. SPACE_TO_DEPTH undoes it.
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({1, 1, 1, 8});
    uint32_t out = b.output({1, 2, 2, 2});
    b.operation(ANEURALNETWORKS_DEPTH_TO_SPACE, {x, b.i32(2)}, {out});
    b.setInput(0, {0, 1, 2, 3, 4, 5, 6, 7});
    std::vector<std::vector<float>> r;
    ASSERT_TRUE(b.compileAndRun(nullptr, r)) << b.error();
    EXPECT_EQ(r[0], (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}));
  }
  {
    // NCHW [1, 8, 1, 1] -> [1, 2, 2, 2]: channel c of block (i, j) at
    // [c][i][j] reads depth channel (i * 2 + j) * 2 + c.
    HostModelBuilder b(fn);
    uint32_t x = b.input({1, 8, 1, 1});
    uint32_t t = b.temporary({1, 2, 2, 2});
    uint32_t out = b.output({1, 8, 1, 1});
    uint32_t space = b.output({1, 2, 2, 2});
    b.operation(ANEURALNETWORKS_DEPTH_TO_SPACE, {x, b.i32(2), b.boolean(true)},
                {t});
    b.operation(ANEURALNETWORKS_SPACE_TO_DEPTH, {t, b.i32(2), b.boolean(true)},
                {out});
    b.operation(ANEURALNETWORKS_RELU, {t}, {space});
    b.setInput(0, {0, 1, 2, 3, 4, 5, 6, 7});
    std::vector<std::vector<float>> r;
    ASSERT_TRUE(b.compileAndRun(nullptr, r)) << b.error();
    EXPECT_EQ(r[0], (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}));
    EXPECT_EQ(r[1], (std::vector<float>{0, 2, 4, 6, 1, 3, 5, 7}));
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({1, 3, 4, 2});
    uint32_t out = b.output({1, 1, 2, 8});
    b.operation(ANEURALNETWORKS_SPACE_TO_DEPTH, {x, b.i32(2)}, {out});
    EXPECT_EQ(b.compile(nullptr), nullptr);
    EXPECT_NE(b.error().find("height and width must be multiples of "
                             "block_size"),
              std::string::npos)
        << b.error();
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({1, 2, 2, 6});
    uint32_t out = b.output({1, 4, 4, 1});
    b.operation(ANEURALNETWORKS_DEPTH_TO_SPACE, {x, b.i32(2)}, {out});
    EXPECT_EQ(b.compile(nullptr), nullptr);
    EXPECT_NE(b.error().find("depth 6 is not a multiple of block_size^2"),
              std::string::npos)
        << b.error();
  }
}

TEST_F(HostDevice, GroupedConvolutionConvolvesEachGroupAlone) {
  // Two groups of two channels, 1x1 filters: outputs 0 and 1 (group 0) are
  // 2 x0 + 3 x1 and 9 x0 + 9 x1, outputs 2 and 3 (group 1) x2 - x3 and
  // x2 + x3; bias 0.5.
  // Both padding forms (explicit zeros, implicit VALID) give the same.
  for (bool implicit : {false, true}) {
    HostModelBuilder b(fn);
    uint32_t x = b.input({1, 1, 1, 4});
    uint32_t w = b.constantOf({4, 1, 1, 2}, {2, 3, 9, 9, 1, -1, 1, 1});
    uint32_t bias = b.constantOf({4}, {0.5f, 0.5f, 0.5f, 0.5f});
    uint32_t out = b.output({1, 1, 1, 4});
    std::vector<uint32_t> ins = {x, w, bias};
    if (implicit) {
      ins.push_back(b.i32(ANEURALNETWORKS_PADDING_VALID));
    } else {
      for (int k = 0; k < 4; ++k)
        ins.push_back(b.i32(0));
    }
    for (uint32_t v : {b.i32(1), b.i32(1), b.i32(2), b.i32(0)})
      ins.push_back(v);
    ins.push_back(b.boolean(false));
    b.operation(ANEURALNETWORKS_GROUPED_CONV_2D, ins, {out});
    b.setInput(0, {1, 2, 10, 4});
    std::vector<std::vector<float>> r;
    ASSERT_TRUE(b.compileAndRun(nullptr, r)) << b.error();
    EXPECT_EQ(r[0], (std::vector<float>{8.5f, 27.5f, 6.5f, 14.5f}));
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({1, 1, 1, 4});
    uint32_t w = b.constant({3, 1, 1, 2}), bias = b.constant({3});
    uint32_t out = b.output({1, 1, 1, 3});
    b.operation(ANEURALNETWORKS_GROUPED_CONV_2D,
                {x, w, bias, b.i32(0), b.i32(0), b.i32(0), b.i32(0), b.i32(1),
                 b.i32(1), b.i32(2), b.i32(0), b.boolean(false)},
                {out});
    EXPECT_EQ(b.compile(nullptr), nullptr);
    EXPECT_NE(b.error().find("num_groups 2 does not divide the input depth 4 "
                             "and the output depth 3"),
              std::string::npos)
        << b.error();
  }
}

TEST_F(HostDevice, ChannelShuffleInterleavesGroups) {
  // 6 channels in 3 groups of 2 on the last axis: [a0 a1 b0 b1 c0 c1] ->
  // [a0 b0 c0 a1 b1 c1].
  HostModelBuilder b(fn);
  uint32_t x = b.input({2, 6});
  uint32_t out = b.output({2, 6});
  b.operation(ANEURALNETWORKS_CHANNEL_SHUFFLE, {x, b.i32(3), b.i32(-1)}, {out});
  b.setInput(0, {0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15});
  std::vector<std::vector<float>> r;
  ASSERT_TRUE(b.compileAndRun(nullptr, r)) << b.error();
  EXPECT_EQ(r[0], (std::vector<float>{0, 2, 4, 1, 3, 5, 10, 12, 14, 11, 13, 15}));

  HostModelBuilder bad(fn);
  uint32_t y = bad.input({2, 6});
  uint32_t o = bad.output({2, 6});
  bad.operation(ANEURALNETWORKS_CHANNEL_SHUFFLE, {y, bad.i32(4), bad.i32(1)},
                {o});
  EXPECT_EQ(bad.compile(nullptr), nullptr);
  EXPECT_NE(bad.error().find("num_groups 4 does not divide dimension 1"),
            std::string::npos)
      << bad.error();
}

TEST_F(HostDevice, L2NormalizationDividesByTheNormAndKeepsZeros) {
  // Axis 1 of [2, 3, 2]: columns (3, 0, 4) and (0, 0, 0) of the first
  // batch row, (1, 2, 2) and (NaN, 1, 0) of the second; a column of zeros
  // gives zeros, a NaN makes the column NaN, squares that underflow float32
  // count as zero.
  HostModelBuilder b(fn);
  uint32_t x = b.input({2, 3, 2});
  uint32_t out = b.output({2, 3, 2});
  b.operation(ANEURALNETWORKS_L2_NORMALIZATION, {x, b.i32(1)}, {out});
  float nan = std::numeric_limits<float>::quiet_NaN();
  b.setInput(0, {3, 0, 0, 0, 4, 0, 1, nan, 2, 1, 2, 0});
  expectOutputs(b, {{0.6f, 0, 0, 0, 0.8f, 0, 1 / 3.0f, nan, 2 / 3.0f, nan,
                     2 / 3.0f, nan}}, 1e-6f);

  // The level 1 form: the last axis of a 4-D input, no axis operand.
  HostModelBuilder last(fn);
  uint32_t y = last.input({1, 1, 2, 2});
  uint32_t o = last.output({1, 1, 2, 2});
  last.operation(ANEURALNETWORKS_L2_NORMALIZATION, {y}, {o});
  last.setInput(0, {1e-30f, 0, -5, 12});
  expectOutputs(last, {{0, 0, -5 / 13.0f, 12 / 13.0f}}, 1e-6f);

  // Without the axis operand the last axis of any rank (feature level 3).
  HostModelBuilder rank2(fn);
  uint32_t z = rank2.input({2, 2});
  uint32_t p = rank2.output({2, 2});
  rank2.operation(ANEURALNETWORKS_L2_NORMALIZATION, {z}, {p});
  rank2.setInput(0, {3, -4, 0, 0});
  expectOutputs(rank2, {{0.6f, -0.8f, 0, 0}}, 1e-6f);

  HostModelBuilder axis(fn);
  uint32_t w = axis.input({2, 3});
  uint32_t q = axis.output({2, 3});
  axis.operation(ANEURALNETWORKS_L2_NORMALIZATION, {w, axis.i32(2)}, {q});
  expectRejected(axis, "axis 2 out of range");
}

/// UNIDIRECTIONAL_SEQUENCE_LSTM's variants, each against a step-by-step
/// computation in double written from NNAPI's formulas here.
struct LstmCase {
  uint32_t steps, batch, in, units, out;
  bool cifg, peepholes, projection, timeMajor;
  int32_t activation;
  float cellClip, projClip;
  bool runtimeWeights = false; ///< Weights and biases as model inputs.
};

class SequenceLstmVsFormulas : public HostDevice,
                               public ::testing::WithParamInterface<LstmCase> {};

double lstmActivation(int32_t code, double x) {
  switch (code) {
  case 1: return std::max(x, 0.0);
  case 3: return std::min(std::max(x, 0.0), 6.0);
  case 4: return std::tanh(x);
  case 6: return 1 / (1 + std::exp(-x));
  default: return x;
  }
}

TEST_P(SequenceLstmVsFormulas, Computes) {
  const LstmCase &p = GetParam();
  HostModelBuilder b(fn);
  uint32_t x = p.timeMajor ? b.input({p.steps, p.batch, p.in})
                           : b.input({p.batch, p.steps, p.in});
  uint32_t h0 = b.input({p.batch, p.out}), c0 = b.input({p.batch, p.units});
  // Gate order i, f, c, o. Weights given at run time are inputs 3 on.
  std::map<uint32_t, size_t> inputOf;
  auto weight = [&](std::vector<uint32_t> dims) {
    if (!p.runtimeWeights)
      return b.constant(dims, -0.5f, 0.5f);
    uint32_t idx = b.input(dims, -0.5f, 0.5f);
    inputOf[idx] = b.inputCount() - 1;
    return idx;
  };
  uint32_t wx[4], wh[4], bias[4], peep[3], proj = 0, projBias = 0;
  for (int g = 0; g < 4; ++g) {
    bool none = g == 0 && p.cifg;
    wx[g] = none ? b.omitted() : weight({p.units, p.in});
    wh[g] = none ? b.omitted() : weight({p.units, p.out});
    bias[g] = none ? b.omitted() : weight({p.units});
  }
  for (int k = 0; k < 3; ++k)
    peep[k] = p.peepholes && !(k == 0 && p.cifg)
                  ? b.constant({p.units}, -0.5f, 0.5f)
                  : b.omitted();
  if (p.projection) {
    proj = b.constant({p.out, p.units}, -0.5f, 0.5f);
    projBias = b.constant({p.out}, -0.5f, 0.5f);
  }
  uint32_t y = p.timeMajor ? b.output({p.steps, p.batch, p.out})
                           : b.output({p.batch, p.steps, p.out});
  uint32_t hOut = b.output({p.batch, p.out}), cOut = b.output({p.batch, p.units});
  std::vector<uint32_t> ins = {x};
  ins.insert(ins.end(), wx, wx + 4);
  ins.insert(ins.end(), wh, wh + 4);
  ins.insert(ins.end(), peep, peep + 3);
  ins.insert(ins.end(), bias, bias + 4);
  ins.push_back(p.projection ? proj : b.omitted());
  ins.push_back(p.projection ? projBias : b.omitted());
  ins.insert(ins.end(), {h0, c0, b.i32(p.activation), b.f32(p.cellClip),
                         b.f32(p.projClip), b.boolean(p.timeMajor)});
  for (int k = 0; k < 4; ++k)
    ins.push_back(b.omitted());
  b.operation(ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM, ins, {y, hOut, cOut});

  auto value = [&](uint32_t idx) -> const std::vector<float> & {
    auto it = inputOf.find(idx);
    return it == inputOf.end() ? b.constantValue(idx) : b.inputValue(it->second);
  };
  const std::vector<float> &xs = b.inputValue(0);
  std::vector<double> h(b.inputValue(1).begin(), b.inputValue(1).end());
  std::vector<double> c(b.inputValue(2).begin(), b.inputValue(2).end());
  std::vector<float> ys(b.outputElements(0));
  auto clip = [](double v, float bound) {
    return bound > 0 ? std::min(std::max(v, -double(bound)), double(bound)) : v;
  };
  auto sigmoid = [](double v) { return 1 / (1 + std::exp(-v)); };
  for (uint32_t t = 0; t < p.steps; ++t)
    for (uint32_t n = 0; n < p.batch; ++n) {
      size_t at = p.timeMajor ? t * p.batch + n : n * p.steps + t;
      std::vector<double> pre[4], hidden(p.units);
      for (int g = 0; g < 4; ++g) {
        pre[g].assign(p.units, 0);
        if (g == 0 && p.cifg)
          continue;
        for (uint32_t u = 0; u < p.units; ++u) {
          double sum = value(bias[g])[u];
          for (uint32_t k = 0; k < p.in; ++k)
            sum += value(wx[g])[u * p.in + k] * xs[at * p.in + k];
          for (uint32_t k = 0; k < p.out; ++k)
            sum += value(wh[g])[u * p.out + k] * h[n * p.out + k];
          pre[g][u] = sum;
        }
      }
      for (uint32_t u = 0; u < p.units; ++u) {
        double &cell = c[n * p.units + u];
        auto peephole = [&](int k, double state) {
          return p.peepholes && !(k == 0 && p.cifg) ? value(peep[k])[u] * state
                                                    : 0.0;
        };
        double f = sigmoid(pre[1][u] + peephole(1, cell));
        double i = p.cifg ? 1 - f : sigmoid(pre[0][u] + peephole(0, cell));
        cell = clip(f * cell + i * lstmActivation(p.activation, pre[2][u]),
                    p.cellClip);
        double o = sigmoid(pre[3][u] + peephole(2, cell));
        hidden[u] = o * lstmActivation(p.activation, cell);
      }
      for (uint32_t k = 0; k < p.out; ++k) {
        double v = hidden[k < p.units ? k : 0];
        if (p.projection) {
          v = value(projBias)[k];
          for (uint32_t u = 0; u < p.units; ++u)
            v += value(proj)[k * p.units + u] * hidden[u];
          v = clip(v, p.projClip);
        }
        h[n * p.out + k] = v;
        ys[at * p.out + k] = float(v);
      }
    }
  expectOutputs(b, {ys, std::vector<float>(h.begin(), h.end()),
                    std::vector<float>(c.begin(), c.end())},
                1e-5f);
}

INSTANTIATE_TEST_SUITE_P(
    Variants, SequenceLstmVsFormulas,
    ::testing::Values(
        // ONNX's default LSTM: tanh, no peepholes, time-major.
        LstmCase{5, 2, 3, 4, 4, false, false, false, true, 4, 0, 0},
        // Peepholes, batch-major, relu with a cell clip.
        LstmCase{4, 3, 5, 6, 6, false, true, false, false, 1, 0.5f, 0},
        // A coupled input gate with peepholes, sigmoid.
        LstmCase{3, 1, 2, 5, 5, true, true, false, true, 6, 0, 0},
        // A projection to fewer outputs, clipped; relu6.
        LstmCase{6, 2, 4, 7, 3, false, false, true, true, 3, 0, 0.25f},
        // Weights computed at run time (model inputs).
        LstmCase{3, 2, 3, 4, 4, false, true, false, true, 4, 0, 0, true}));

TEST_F(HostDevice, RejectsMalformedSequenceLstms) {
  // 28 operands of a default LSTM over [2, 1, 3] with 4 units, then
  // `edit` changes one.
  auto build = [&](HostModelBuilder &b,
                   const std::function<void(std::vector<uint32_t> &)> &edit,
                   uint32_t outputs = 3) {
    std::vector<uint32_t> ins = {b.input({2, 1, 3})};
    for (int g = 0; g < 4; ++g)
      ins.push_back(b.constant({4, 3}));
    for (int g = 0; g < 4; ++g)
      ins.push_back(b.constant({4, 4}));
    for (int k = 0; k < 3; ++k)
      ins.push_back(b.omitted());
    for (int g = 0; g < 4; ++g)
      ins.push_back(b.constant({4}));
    ins.insert(ins.end(), {b.omitted(), b.omitted(), b.input({1, 4}),
                           b.input({1, 4}), b.i32(4), b.f32(0), b.f32(0),
                           b.boolean(true)});
    for (int k = 0; k < 4; ++k)
      ins.push_back(b.omitted());
    edit(ins);
    std::vector<uint32_t> outs = {b.output({2, 1, 4})};
    if (outputs == 3)
      outs.insert(outs.end(), {b.output({1, 4}), b.output({1, 4})});
    b.operation(ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM, ins, outs);
  };
  struct Bad {
    std::function<void(HostModelBuilder &, std::vector<uint32_t> &)> edit;
    const char *message;
  };
  std::vector<Bad> cases = {
      {[](HostModelBuilder &b, std::vector<uint32_t> &in) {
         in[1] = b.omitted(); // of the input gate's, the input weights only
       },
       "input_to_input_weights is missing (the input gate's weights and bias "
       "are all given or all omitted)"},
      {[](HostModelBuilder &b, std::vector<uint32_t> &in) {
         in[2] = b.constant({4, 2});
       },
       "input_to_forget_weights is [4,2], expected [4,3]"},
      {[](HostModelBuilder &b, std::vector<uint32_t> &in) {
         in[10] = b.constant({4}); // the forget gate's peephole alone
       },
       "the peephole weights are given for every gate"},
      {[](HostModelBuilder &b, std::vector<uint32_t> &in) {
         in[17] = b.constant({4});
       },
       "projection_bias without projection_weights"},
      {[](HostModelBuilder &b, std::vector<uint32_t> &in) {
         // An output size of 2 without a projection.
         for (int k = 5; k <= 8; ++k)
           in[k] = b.constant({4, 2});
         in[18] = b.input({1, 2});
       },
       "without a projection the output size (2) must be the number of "
       "units (4)"},
      {[](HostModelBuilder &b, std::vector<uint32_t> &in) {
         in[20] = b.i32(2);
       },
       "invalid activation 2"},
      {[](HostModelBuilder &b, std::vector<uint32_t> &in) {
         in[21] = b.f32(-1);
       },
       "cell_clip and proj_clip must be 0 (off) or positive"},
      {[](HostModelBuilder &b, std::vector<uint32_t> &in) {
         in[24] = b.constant({4});
       },
       "layer normalization (input_layer_norm_weights) is not implemented"},
      {[](HostModelBuilder &b, std::vector<uint32_t> &in) {
         in[3] = b.omitted();
       },
       "input 3 (input_to_cell_weights) cannot be omitted"},
  };
  for (const Bad &bad : cases) {
    HostModelBuilder b(fn);
    build(b, [&](std::vector<uint32_t> &in) { bad.edit(b, in); });
    expectRejected(b, bad.message);
  }
  // Without the state outputs (the level 3 form) it runs too.
  HostModelBuilder single(fn);
  build(single, [](std::vector<uint32_t> &) {}, 1);
  std::vector<std::vector<float>> got;
  EXPECT_TRUE(single.compileAndRun(nullptr, got)) << single.error();
}

/// UNIDIRECTIONAL_SEQUENCE_RNN against h = act(W x + R h + b) computed in
/// double here: relu time-major, none batch-major, relu6.
TEST_F(HostDevice, SequenceRnnMatchesItsFormula) {
  struct Case {
    uint32_t steps, batch, in, units;
    bool timeMajor;
    int32_t fuse;
  };
  for (const Case &p : {Case{5, 2, 3, 4, true, ANEURALNETWORKS_FUSED_RELU},
                        Case{3, 3, 2, 5, false, ANEURALNETWORKS_FUSED_NONE},
                        Case{4, 1, 4, 3, true, ANEURALNETWORKS_FUSED_RELU6}}) {
    HostModelBuilder b(fn);
    std::vector<uint32_t> xDims = p.timeMajor
                                      ? std::vector<uint32_t>{p.steps, p.batch, p.in}
                                      : std::vector<uint32_t>{p.batch, p.steps, p.in};
    uint32_t x = b.input(xDims), h0 = b.input({p.batch, p.units});
    uint32_t w = b.constant({p.units, p.in}), r = b.constant({p.units, p.units});
    uint32_t bias = b.constant({p.units});
    std::vector<uint32_t> yDims = xDims;
    yDims[2] = p.units;
    uint32_t y = b.output(yDims);
    b.operation(ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_RNN,
                {x, w, r, bias, h0, b.i32(p.fuse), b.i32(p.timeMajor ? 1 : 0)},
                {y});
    const std::vector<float> &xs = b.inputValue(0);
    std::vector<double> h(b.inputValue(1).begin(), b.inputValue(1).end());
    std::vector<float> ys(b.outputElements(0));
    auto act = [&](double v) {
      if (p.fuse == ANEURALNETWORKS_FUSED_RELU)
        return std::max(v, 0.0);
      if (p.fuse == ANEURALNETWORKS_FUSED_RELU6)
        return std::min(std::max(v, 0.0), 6.0);
      return v;
    };
    for (uint32_t t = 0; t < p.steps; ++t) {
      std::vector<double> next(h.size());
      for (uint32_t n = 0; n < p.batch; ++n) {
        size_t at = p.timeMajor ? t * p.batch + n : n * p.steps + t;
        for (uint32_t u = 0; u < p.units; ++u) {
          double sum = b.constantValue(bias)[u];
          for (uint32_t k = 0; k < p.in; ++k)
            sum += b.constantValue(w)[u * p.in + k] * xs[at * p.in + k];
          for (uint32_t k = 0; k < p.units; ++k)
            sum += b.constantValue(r)[u * p.units + k] * h[n * p.units + k];
          next[n * p.units + u] = act(sum);
          ys[at * p.units + u] = float(act(sum));
        }
      }
      h = next;
    }
    expectOutputs(b, {ys}, 1e-5f);
  }
}

TEST_F(HostDevice, RejectsMalformedSequenceRnns) {
  struct Bad {
    std::function<void(HostModelBuilder &, std::vector<uint32_t> &)> edit;
    const char *message;
  };
  std::vector<Bad> cases = {
      {[](HostModelBuilder &b, std::vector<uint32_t> &in) {
         in[2] = b.constant({4, 3});
       },
       "recurrent_weights is [4,3], expected [4,4]"},
      {[](HostModelBuilder &b, std::vector<uint32_t> &in) {
         in[4] = b.input({2, 4});
       },
       "hidden_state is [2,4], expected [1,4]"},
      {[](HostModelBuilder &b, std::vector<uint32_t> &in) {
         in[6] = b.i32(2);
       },
       "time_major must be 0 or 1, got 2"},
      {[](HostModelBuilder &b, std::vector<uint32_t> &in) {
         in[5] = b.i32(7);
       },
       "invalid fused activation code 7"},
  };
  for (const Bad &bad : cases) {
    HostModelBuilder b(fn);
    std::vector<uint32_t> ins = {b.input({2, 1, 3}), b.constant({4, 3}),
                                 b.constant({4, 4}), b.constant({4}),
                                 b.input({1, 4}), b.i32(1), b.i32(1)};
    bad.edit(b, ins);
    b.operation(ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_RNN, ins,
                {b.output({2, 1, 4})});
    expectRejected(b, bad.message);
  }
}

TEST_F(HostDevice, LocalResponseNormalizationSumsAClippedWindow) {
  // Axis 1 of [1, 3, 1]: radius 1, bias 1, alpha 0.5, beta 1. Squares
  // 1, 4, 9: sums 5, 14, 13 (the window is cut at the ends).
  HostModelBuilder b(fn);
  uint32_t x = b.input({1, 3, 1});
  uint32_t out = b.output({1, 3, 1});
  b.operation(ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION,
              {x, b.i32(1), b.f32(1.0f), b.f32(0.5f), b.f32(1.0f), b.i32(1)},
              {out});
  b.setInput(0, {1, 2, 3});
  std::vector<std::vector<float>> r;
  ASSERT_TRUE(b.compileAndRun(nullptr, r)) << b.error();
  std::vector<float> expected = {1 / 3.5f, 2 / 8.0f, 3 / 7.5f};
  for (size_t i = 0; i < 3; ++i)
    EXPECT_NEAR(r[0][i], expected[i], 1e-6) << i;

  // Without the axis operand the last axis, of any rank (feature level 3;
  // level 1 has only 4-D inputs): [1, 3] with the same window.
  HostModelBuilder last(fn);
  uint32_t y = last.input({1, 3});
  uint32_t o = last.output({1, 3});
  last.operation(ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION,
                 {y, last.i32(1), last.f32(1.0f), last.f32(0.5f),
                  last.f32(1.0f)},
                 {o});
  last.setInput(0, {1, 2, 3});
  expectOutputs(last, {expected}, 1e-6f);
}

TEST_F(HostDevice, ComparisonsLogicalOperationsAndSelect) {
  // Every comparison of a = [1, NaN, 3, -1] with b = [1, 2, 2, 0] (NaN
  // compares unequal to everything), as SELECT(cond, 1, 0).
  struct Case {
    int32_t code;
    std::vector<float> expected;
  };
  const Case cases[] = {
      {ANEURALNETWORKS_EQUAL, {1, 0, 0, 0}},
      {ANEURALNETWORKS_NOT_EQUAL, {0, 1, 1, 1}},
      {ANEURALNETWORKS_GREATER, {0, 0, 1, 0}},
      {ANEURALNETWORKS_GREATER_EQUAL, {1, 0, 1, 0}},
      {ANEURALNETWORKS_LESS, {0, 0, 0, 1}},
      {ANEURALNETWORKS_LESS_EQUAL, {1, 0, 0, 1}},
  };
  for (const Case &c : cases) {
    HostModelBuilder b(fn);
    uint32_t x = b.input({4}), y = b.input({4});
    uint32_t cond = b.boolTemporary({4});
    uint32_t one = b.constantOf({4}, {1, 1, 1, 1});
    uint32_t zero = b.constantOf({4}, {0, 0, 0, 0});
    uint32_t out = b.output({4});
    b.operation(c.code, {x, y}, {cond});
    b.operation(ANEURALNETWORKS_SELECT, {cond, one, zero}, {out});
    b.setInput(0, {1, NAN, 3, -1});
    b.setInput(1, {1, 2, 2, 0});
    std::vector<std::vector<float>> r;
    ASSERT_TRUE(b.compileAndRun(nullptr, r)) << b.error();
    EXPECT_EQ(r[0], c.expected) << "opcode " << c.code;
  }
  {
    // Logical ops broadcast: (p AND [1, 0]) OR NOT q, p [2, 2], q [2, 1].
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 2});
    uint32_t zero = b.constantOf({1, 1}, {0});
    uint32_t p = b.boolTemporary({2, 2}), q = b.boolTemporary({2, 1});
    uint32_t mask = b.tensorBool8({2}, {1, 0});
    uint32_t pm = b.boolTemporary({2, 2}), nq = b.boolTemporary({2, 1});
    uint32_t cond = b.boolTemporary({2, 2});
    uint32_t ones = b.constantOf({2, 2}, {1, 1, 1, 1});
    uint32_t zeros = b.constantOf({2, 2}, {0, 0, 0, 0});
    uint32_t col = b.constantOf({2, 1}, {0, 5});
    uint32_t out = b.output({2, 2});
    b.operation(ANEURALNETWORKS_GREATER, {x, zero}, {p});
    b.operation(ANEURALNETWORKS_GREATER, {col, zero}, {q});
    b.operation(ANEURALNETWORKS_LOGICAL_AND, {p, mask}, {pm});
    b.operation(ANEURALNETWORKS_LOGICAL_NOT, {q}, {nq});
    b.operation(ANEURALNETWORKS_LOGICAL_OR, {pm, nq}, {cond});
    b.operation(ANEURALNETWORKS_SELECT, {cond, ones, zeros}, {out});
    // p = [[1, 1], [0, 1]]; p AND [1, 0] = [[1, 0], [0, 0]];
    // NOT q = [[1], [0]]: OR gives [[1, 1], [0, 0]].
    b.setInput(0, {1, 2, -3, 4});
    std::vector<std::vector<float>> r;
    ASSERT_TRUE(b.compileAndRun(nullptr, r)) << b.error();
    EXPECT_EQ(r[0], (std::vector<float>{1, 1, 0, 0}));
  }
}

TEST_F(HostDevice, RejectsMalformedBoolOperations) {
  {
    // A comparison writes TENSOR_BOOL8, not float.
    HostModelBuilder b(fn);
    uint32_t x = b.input({4});
    uint32_t out = b.output({4});
    b.operation(ANEURALNETWORKS_GREATER, {x, x}, {out});
    expectRejected(b, "output 0 (output) must be TENSOR_BOOL8, got TENSOR_FLOAT32");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({4});
    uint32_t out = b.output({4});
    b.operation(ANEURALNETWORKS_LOGICAL_AND, {x, x}, {out});
    expectRejected(b, "input 0 (input0) must be TENSOR_BOOL8, got TENSOR_FLOAT32");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 4});
    uint32_t cond = b.tensorBool8({4}, {1, 0, 1, 0});
    uint32_t out = b.output({2, 4});
    b.operation(ANEURALNETWORKS_SELECT, {cond, x, x}, {out});
    expectRejected(b, "SELECT does not broadcast");
  }
}

TEST_F(HostDevice, BoolReductions) {
  // x > 0 for x = [[1, -1, 2], [-3, -4, -5]]: ANY over axis 1 = [1, 0],
  // ALL over axis 0 = [0, 0, 0], ALL over axis 1 of NOT = [0, 1].
  HostModelBuilder b(fn);
  uint32_t x = b.input({2, 3});
  uint32_t zero = b.constantOf({1}, {0});
  uint32_t p = b.boolTemporary({2, 3}), np = b.boolTemporary({2, 3});
  uint32_t any = b.boolTemporary({2}), all = b.boolTemporary({3});
  uint32_t allNot = b.boolTemporary({2});
  int32_t axis0[] = {0}, axis1[] = {1};
  std::vector<uint32_t> outs;
  b.operation(ANEURALNETWORKS_GREATER, {x, zero}, {p});
  b.operation(ANEURALNETWORKS_LOGICAL_NOT, {p}, {np});
  b.operation(ANEURALNETWORKS_REDUCE_ANY,
              {p, b.tensorI32({1}, axis1), b.boolean(false)}, {any});
  b.operation(ANEURALNETWORKS_REDUCE_ALL,
              {p, b.tensorI32({1}, axis0), b.boolean(false)}, {all});
  b.operation(ANEURALNETWORKS_REDUCE_ALL,
              {np, b.tensorI32({1}, axis1), b.boolean(false)}, {allNot});
  for (auto [cond, n] : {std::pair{any, 2u}, std::pair{all, 3u},
                         std::pair{allNot, 2u}}) {
    uint32_t one = b.constantOf({n}, std::vector<float>(n, 1.0f));
    uint32_t zeros = b.constantOf({n}, std::vector<float>(n, 0.0f));
    uint32_t out = b.output({n});
    b.operation(ANEURALNETWORKS_SELECT, {cond, one, zeros}, {out});
  }
  b.setInput(0, {1, -1, 2, -3, -4, -5});
  std::vector<std::vector<float>> r;
  ASSERT_TRUE(b.compileAndRun(nullptr, r)) << b.error();
  EXPECT_EQ(r[0], (std::vector<float>{1, 0}));
  EXPECT_EQ(r[1], (std::vector<float>{0, 0, 0}));
  EXPECT_EQ(r[2], (std::vector<float>{0, 1}));
}

TEST_F(HostDevice, ArgMaxAndArgMinPickTheFirstExtremeAndSkipNaN) {
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 4});
    uint32_t mx = b.int32Output({2}), mn = b.int32Output({4});
    b.operation(ANEURALNETWORKS_ARGMAX, {x, b.i32(1)}, {mx});
    b.operation(ANEURALNETWORKS_ARGMIN, {x, b.i32(-2)}, {mn});
    b.setInput(0, {NAN, 3, 7, 7, 2, 2, NAN, -1});
    std::vector<std::vector<float>> r;
    ASSERT_TRUE(b.compileAndRun(nullptr, r)) << b.error();
    EXPECT_EQ(r[0], (std::vector<float>{2, 0})); // first 7; 2 before 2
    EXPECT_EQ(r[1], (std::vector<float>{1, 1, 0, 1}));
  }
  {
    // ARGMAX's output is TENSOR_INT32: a float output is refused.
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 4});
    uint32_t out = b.output({2});
    b.operation(ANEURALNETWORKS_ARGMAX, {x, b.i32(1)}, {out});
    EXPECT_EQ(b.compile(nullptr), nullptr);
    EXPECT_NE(b.error().find("output 0 (output) must be TENSOR_INT32, got TENSOR_FLOAT32"),
              std::string::npos)
        << b.error();
  }
}

TEST_F(HostDevice, XnnpackGroupedAndTransposedConvolutionsMatchTheReference) {
  {
    // 3 groups of 2 -> 5 channels, 3x3, stride 2, asymmetric padding, relu6.
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 9, 7, 6});
    uint32_t w = b.constant({15, 3, 3, 2}), bias = b.constant({15});
    uint32_t out = b.output({2, 5, 3, 15});
    b.operation(ANEURALNETWORKS_GROUPED_CONV_2D,
                {x, w, bias, b.i32(1), b.i32(0), b.i32(1), b.i32(1), b.i32(2),
                 b.i32(2), b.i32(3), b.i32(ANEURALNETWORKS_FUSED_RELU6),
                 b.boolean(false)},
                {out});
    EXPECT_EQ(expectSameAsReference(b), 1u);
  }
  for (auto [k, stride, pad] : {std::tuple{4, 2, std::array{1, 1, 1, 1}},
                                std::tuple{3, 2, std::array{0, 1, 1, 0}},
                                std::tuple{1, 1, std::array{0, 0, 0, 0}}}) {
    HostModelBuilder b(fn);
    uint32_t in = 5, c = 3, oc = 4;
    uint32_t x = b.input({1, in, in, c});
    uint32_t w = b.constant({oc, uint32_t(k), uint32_t(k), c});
    uint32_t bias = b.constant({oc});
    uint32_t o = (in - 1) * stride + k;
    uint32_t out =
        b.output({1, o - pad[2] - pad[3], o - pad[0] - pad[1], oc});
    b.operation(ANEURALNETWORKS_TRANSPOSE_CONV_2D,
                {x, w, bias, b.i32(pad[0]), b.i32(pad[1]), b.i32(pad[2]),
                 b.i32(pad[3]), b.i32(stride), b.i32(stride),
                 b.i32(ANEURALNETWORKS_FUSED_RELU), b.boolean(false)},
                {out});
    EXPECT_EQ(expectSameAsReference(b), 1u) << "kernel " << k;
  }
}

/// The unary operations, PRELU with per-channel slopes, constant padding,
/// bilinear resizing, DEPTH_TO_SPACE and CHANNEL_SHUFFLE on XNNPACK give the
/// reference kernels' results; the forms XNNPACK has no operator for run on
/// the reference kernels.
TEST_F(HostDevice, XnnpackUnaryAndDataMovementStepsMatchTheReference) {
  for (int32_t code : {ANEURALNETWORKS_ABS, ANEURALNETWORKS_FLOOR,
                       ANEURALNETWORKS_NEG, ANEURALNETWORKS_SQRT,
                       ANEURALNETWORKS_HARD_SWISH}) {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3, 5}, -7.0f, 7.0f);
    uint32_t out = b.output({2, 3, 5});
    b.operation(code, {x}, {out});
    EXPECT_EQ(expectSameAsReference(b, 1e-5f), 1u) << code;
  }
  {
    // SQRT of a negative is NaN on XNNPACK too; one element is one row.
    HostModelBuilder b(fn);
    uint32_t x = b.input({1});
    uint32_t out = b.output({1});
    b.operation(ANEURALNETWORKS_SQRT, {x}, {out});
    b.setInput(0, {-4.0f});
    std::vector<std::vector<float>> result;
    ASSERT_TRUE(b.compileAndRun(nullptr, result)) << b.error();
    EXPECT_TRUE(std::isnan(result[0][0]));
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({3, 17}, -3.0f, 3.0f);
    uint32_t out = b.output({3, 17});
    b.operation(ANEURALNETWORKS_ELU, {x, b.f32(0.7f)}, {out});
    EXPECT_EQ(expectSameAsReference(b, 1e-5f), 1u);
  }
  struct Prelu {
    std::vector<uint32_t> alpha;
    bool constant;
    uint32_t xnnpack;
  };
  for (const Prelu &c : {Prelu{{1, 1, 6}, true, 1}, Prelu{{1}, true, 1},
                         Prelu{{6}, false, 0}, Prelu{{4, 1}, true, 0}}) {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 4, 6});
    uint32_t alpha = c.constant ? b.constant(c.alpha, 0.0f, 0.5f)
                                : b.input(c.alpha, 0.0f, 0.5f);
    uint32_t out = b.output({2, 4, 6});
    b.operation(ANEURALNETWORKS_PRELU, {x, alpha}, {out});
    EXPECT_EQ(expectSameAsReference(b, 1e-6f), c.xnnpack)
        << "alpha of " << c.alpha.size() << " dims";
  }
  for (bool withValue : {false, true}) {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3, 4});
    int32_t pads[] = {0, 1, 2, 0, 1, 3};
    std::vector<uint32_t> ins = {x, b.tensorI32({3, 2}, pads)};
    if (withValue)
      ins.push_back(b.f32(-2.5f));
    uint32_t out = b.output({3, 5, 8});
    b.operation(withValue ? ANEURALNETWORKS_PAD_V2 : ANEURALNETWORKS_PAD, ins,
                {out});
    EXPECT_EQ(expectSameAsReference(b, 0.0f), 1u) << withValue;
  }
  // Bilinear 5x7 -> 9x4 and 3x3 -> 8x6 with each of NNAPI's samplings.
  for (auto [alignCorners, halfPixel] :
       {std::pair{false, false}, std::pair{true, false},
        std::pair{false, true}}) {
    for (auto [inH, inW, outH, outW] :
         {std::array<uint32_t, 4>{5, 7, 9, 4}, std::array<uint32_t, 4>{3, 3, 8, 6}}) {
      HostModelBuilder b(fn);
      uint32_t x = b.input({2, inH, inW, 3});
      uint32_t out = b.output({2, outH, outW, 3});
      b.operation(ANEURALNETWORKS_RESIZE_BILINEAR,
                  {x, b.i32(int32_t(outW)), b.i32(int32_t(outH)),
                   b.boolean(false), b.boolean(alignCorners),
                   b.boolean(halfPixel)},
                  {out});
      EXPECT_EQ(expectSameAsReference(b, 1e-5f), 1u)
          << alignCorners << halfPixel << " " << inH << "x" << inW;
    }
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3, 4, 12});
    uint32_t out = b.output({2, 6, 8, 3});
    b.operation(ANEURALNETWORKS_DEPTH_TO_SPACE, {x, b.i32(2)}, {out});
    EXPECT_EQ(expectSameAsReference(b, 0.0f), 1u);
  }
  for (auto [axis, xnnpack] : {std::pair{-1, 1u}, std::pair{2, 1u},
                               std::pair{1, 0u}}) {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 6, 12});
    uint32_t out = b.output({2, 6, 12});
    b.operation(ANEURALNETWORKS_CHANNEL_SHUFFLE, {x, b.i32(3), b.i32(axis)},
                {out});
    EXPECT_EQ(expectSameAsReference(b, 0.0f), xnnpack) << axis;
  }
}

/// SPLIT: equal pieces along the axis, in order, one output each.
TEST_F(HostDevice, SplitCutsEqualPiecesInOrder) {
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 6});
    uint32_t p0 = b.output({2, 2}), p1 = b.output({2, 2}), p2 = b.output({2, 2});
    b.operation(ANEURALNETWORKS_SPLIT, {x, b.i32(-1), b.i32(3)}, {p0, p1, p2});
    b.setInput(0, {0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15});
    expectOutputs(b, {{0, 1, 10, 11}, {2, 3, 12, 13}, {4, 5, 14, 15}}, 0.0f);
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 5});
    uint32_t p0 = b.output({2, 2}), p1 = b.output({2, 3});
    b.operation(ANEURALNETWORKS_SPLIT, {x, b.i32(1), b.i32(2)}, {p0, p1});
    expectRejected(b, "num_splits 2 does not divide dimension 1 of size 5");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 6});
    uint32_t p0 = b.output({2, 3}), p1 = b.output({2, 3});
    b.operation(ANEURALNETWORKS_SPLIT, {x, b.i32(1), b.i32(3)}, {p0, p1});
    expectRejected(b, "expects 3 outputs, got 2");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 6});
    uint32_t p0 = b.output({2, 3}), p1 = b.output({1, 3});
    b.operation(ANEURALNETWORKS_SPLIT, {x, b.i32(1), b.i32(2)}, {p0, p1});
    expectRejected(b, "output 1 shape [1,3] differs from computed [2,3]");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 6});
    uint32_t p0 = b.output({2, 6});
    b.operation(ANEURALNETWORKS_SPLIT, {x, b.i32(2), b.i32(1)}, {p0});
    expectRejected(b, "axis 2 out of range");
  }
}

/// CAST between float32, float16, int32 and bool: float16 rounds to nearest
/// even, a float becomes an int32 truncated toward zero (saturated, NaN 0),
/// anything becomes the bool value != 0.
TEST_F(HostDevice, CastConvertsBetweenElementTypes) {
  const float nan = std::nanf("");
  {
    // float32 -> float16 -> float32: 1 + 2^-11 is halfway to the next
    // float16 and rounds to even (1); 1 + 3 * 2^-11 rounds up; 70000 is
    // beyond float16's range.
    HostModelBuilder b(fn);
    uint32_t x = b.input({4});
    uint32_t h = b.temporaryOf(ANEURALNETWORKS_TENSOR_FLOAT16, {4});
    uint32_t out = b.output({4});
    b.operation(ANEURALNETWORKS_CAST, {x}, {h});
    b.operation(ANEURALNETWORKS_CAST, {h}, {out});
    b.setInput(0, {1.0f + 0x1p-11f, 1.0f + 0x3p-11f, -2.5f, 70000.0f});
    std::vector<std::vector<float>> r;
    for (const char *kernels : {(const char *)nullptr, "reference"}) {
      ASSERT_TRUE(b.compileAndRun(kernels, r)) << b.error();
      EXPECT_EQ(r[0][0], 1.0f);
      EXPECT_EQ(r[0][1], 1.0f + 0x1p-9f);
      EXPECT_EQ(r[0][2], -2.5f);
      EXPECT_TRUE(std::isinf(r[0][3]));
    }
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({6});
    uint32_t out = b.int32Output({6});
    b.operation(ANEURALNETWORKS_CAST, {x}, {out});
    b.setInput(0, {2.7f, -2.7f, -0.5f, nan, 3e9f, -3e9f});
    expectOutputs(b, {{2, -2, 0, 0, 2147483647.0f, -2147483648.0f}}, 0.0f);
  }
  {
    // float -> bool -> float; int32 and bool constants -> float.
    HostModelBuilder b(fn);
    uint32_t x = b.input({4});
    uint32_t m = b.boolTemporary({4});
    uint32_t out = b.output({4});
    b.operation(ANEURALNETWORKS_CAST, {x}, {m});
    b.operation(ANEURALNETWORKS_CAST, {m}, {out});
    int32_t ints[] = {-7, 0, 16777217, 3};
    uint32_t i = b.tensorI32({4}, ints);
    uint32_t fromInt = b.output({4});
    b.operation(ANEURALNETWORKS_CAST, {i}, {fromInt});
    uint32_t bools = b.tensorBool8({4}, {1, 0, 0, 1});
    uint32_t fromBool = b.output({4});
    b.operation(ANEURALNETWORKS_CAST, {bools}, {fromBool});
    b.setInput(0, {0.0f, -0.0f, nan, 1e-30f});
    expectOutputs(b,
                  {{0, 0, 1, 1}, {-7, 0, 16777216.0f, 3}, {1, 0, 0, 1}}, 0.0f);
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    uint32_t out = b.output({3, 2});
    b.operation(ANEURALNETWORKS_CAST, {x}, {out});
    expectRejected(b, "output shape [3,2] differs from computed [2,3]");
  }
  {
    HostModelBuilder b(fn);
    uint32_t x = b.input({2, 3});
    uint32_t out = b.temporaryOf(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {2, 3});
    uint32_t y = b.output({2, 3});
    b.operation(ANEURALNETWORKS_CAST, {x}, {out});
    b.operation(ANEURALNETWORKS_CAST, {out}, {y});
    expectRejected(b, "output 0 (output) must be TENSOR_FLOAT32, "
                      "TENSOR_FLOAT16, TENSOR_INT32 or TENSOR_BOOL8");
  }
}

/// STRIDED_SLICE with NNAPI's masks, negative indices and strides and
/// shrunk axes.
TEST_F(HostDevice, StridedSliceFollowsNNAPISemantics) {
  auto run = [&](std::vector<int32_t> begins, std::vector<int32_t> ends,
                 std::vector<int32_t> strides, int32_t beginMask,
                 int32_t endMask, int32_t shrinkMask,
                 std::vector<uint32_t> outShape,
                 std::vector<float> expected) {
    HostModelBuilder b(fn);
    uint32_t x = b.input({3, 4});
    uint32_t out = b.output(outShape);
    b.operation(ANEURALNETWORKS_STRIDED_SLICE,
                {x, b.tensorI32({2}, begins.data()),
                 b.tensorI32({2}, ends.data()),
                 b.tensorI32({2}, strides.data()), b.i32(beginMask),
                 b.i32(endMask), b.i32(shrinkMask)},
                {out});
    // x[r][c] = 10 * r + c.
    b.setInput(0, {0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23});
    expectOutputs(b, {expected}, 0.0f);
  };
  // Rows 0 and 2, columns 1 and 3.
  run({0, 1}, {3, 4}, {2, 2}, 0, 0, 0, {2, 2}, {1, 3, 21, 23});
  // Negative strides from the end, -1 meaning the last element; an end
  // before the first element clamps.
  run({-1, -1}, {-100, 0}, {-2, -2}, 0, 0, 0, {2, 2}, {23, 21, 3, 1});
  // Masks take the whole range whatever the indices say.
  run({2, 3}, {0, 0}, {1, 3}, 3, 3, 0, {3, 2}, {0, 3, 10, 13, 20, 23});
  // Row 1 shrunk away: a rank-1 result.
  run({1, 0}, {2, 4}, {1, 1}, 0, 0, 1, {4}, {10, 11, 12, 13});

  auto rejects = [&](std::vector<int32_t> strides,
                            std::vector<int32_t> ends,
                            std::vector<uint32_t> outShape,
                            const char *message) {
    HostModelBuilder b(fn);
    uint32_t x = b.input({3, 4});
    int32_t begins[] = {0, 0};
    uint32_t out = b.output(outShape);
    b.operation(ANEURALNETWORKS_STRIDED_SLICE,
                {x, b.tensorI32({2}, begins), b.tensorI32({2}, ends.data()),
                 b.tensorI32({2}, strides.data()), b.i32(0), b.i32(0),
                 b.i32(0)},
                {out});
    expectRejected(b, message);
  };
  rejects({1, 0}, {3, 4}, {3, 4}, "strides must not be 0 (dimension 1)");
  rejects({1, 1}, {3, 0}, {3, 1}, "dimension 1 of the output would be empty");
  rejects({1, 2}, {3, 4}, {3, 3},
          "output shape [3,3] differs from computed [3,2]");
}
