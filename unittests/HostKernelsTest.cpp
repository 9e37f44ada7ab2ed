//===- HostKernelsTest.cpp - Kernels against straightforward references ---===//
//
// Each reference below is written from the NNAPI operation definition in the
// most literal form (explicit index arithmetic, double accumulation), not
// from the kernel code.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/HostDevice/Kernels.h"
#include "nnapi-mlir/NNAPI/Shapes.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"

#include "RandomData.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace nnapi_mlir::host;
namespace spec = nnapi_mlir::spec;

namespace {

using nnapi_mlir::test::randomData;

// Input value at (n, y, x, c), zero outside the image (padding).
double at(const std::vector<float> &in, const Shape &s, int n, int y, int x,
          int c) {
  if (y < 0 || x < 0 || y >= int(s[1]) || x >= int(s[2]))
    return 0.0;
  return in[((size_t(n) * s[1] + y) * s[2] + x) * s[3] + c];
}

struct ConvCase {
  uint32_t h, w, inC, outC, kh, kw;
  Window win;
};

class Conv2DTest : public ::testing::TestWithParam<ConvCase> {};

TEST_P(Conv2DTest, MatchesDirectDefinition) {
  ConvCase p = GetParam();
  Shape is{2, p.h, p.w, p.inC}, fs{p.outC, p.kh, p.kw, p.inC};
  int oh = spec::windowOutputSize(p.h, p.kh, p.win.strideH, p.win.dilationH,
                            p.win.padTop, p.win.padBottom);
  int ow = spec::windowOutputSize(p.w, p.kw, p.win.strideW, p.win.dilationW,
                            p.win.padLeft, p.win.padRight);
  ASSERT_GT(oh, 0);
  Shape os{2, uint32_t(oh), uint32_t(ow), p.outC};
  auto in = randomData(numElements(is), 1), f = randomData(numElements(fs), 2),
       b = randomData(p.outC, 3);
  std::vector<float> out(numElements(os));
  conv2d(in.data(), is, f.data(), fs, b.data(), out.data(), os, p.win);
  for (int n = 0; n < 2; ++n)
    for (int y = 0; y < oh; ++y)
      for (int x = 0; x < ow; ++x)
        for (uint32_t o = 0; o < p.outC; ++o) {
          double acc = b[o];
          for (uint32_t ky = 0; ky < p.kh; ++ky)
            for (uint32_t kx = 0; kx < p.kw; ++kx)
              for (uint32_t c = 0; c < p.inC; ++c)
                acc += at(in, is, n, y * p.win.strideH - p.win.padTop +
                                         ky * p.win.dilationH,
                          x * p.win.strideW - p.win.padLeft +
                              kx * p.win.dilationW,
                          c) *
                       f[((o * p.kh + ky) * p.kw + kx) * p.inC + c];
          if (p.win.fuseCode == ANEURALNETWORKS_FUSED_RELU)
            acc = std::max(acc, 0.0);
          float got = out[((size_t(n) * oh + y) * ow + x) * p.outC + o];
          EXPECT_NEAR(got, acc, 1e-5) << n << " " << y << " " << x << " " << o;
        }
}

Window window(int pl, int pr, int pt, int pb, int sw, int sh, int dw = 1,
              int dh = 1, int fuse = 0) {
  Window w;
  w.padLeft = pl, w.padRight = pr, w.padTop = pt, w.padBottom = pb;
  w.strideW = sw, w.strideH = sh, w.dilationW = dw, w.dilationH = dh;
  w.fuseCode = fuse;
  return w;
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, Conv2DTest,
    ::testing::Values(ConvCase{5, 5, 3, 4, 3, 3, window(0, 0, 0, 0, 1, 1)},
                      ConvCase{7, 6, 2, 3, 3, 3, window(1, 1, 1, 1, 2, 2)},
                      ConvCase{8, 8, 3, 2, 3, 2, window(2, 0, 1, 2, 1, 3)},
                      ConvCase{9, 9, 2, 2, 3, 3,
                               window(2, 2, 2, 2, 1, 1, 2, 2,
                                      ANEURALNETWORKS_FUSED_RELU)}));

TEST(DepthwiseConv2D, MatchesDirectDefinition) {
  const uint32_t h = 6, w = 5, c = 3, mult = 2, k = 3;
  Shape is{1, h, w, c}, fs{1, k, k, c * mult};
  Window win = window(1, 1, 1, 1, 1, 1);
  Shape os{1, h, w, c * mult};
  auto in = randomData(numElements(is), 4), f = randomData(numElements(fs), 5),
       b = randomData(c * mult, 6);
  std::vector<float> out(numElements(os));
  depthwiseConv2d(in.data(), is, f.data(), fs, b.data(), out.data(), os, win,
                  mult);
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x)
      for (uint32_t ic = 0; ic < c; ++ic)
        for (uint32_t m = 0; m < mult; ++m) {
          uint32_t oc = ic * mult + m;
          double acc = b[oc];
          for (uint32_t ky = 0; ky < k; ++ky)
            for (uint32_t kx = 0; kx < k; ++kx)
              acc += at(in, is, 0, int(y + ky) - 1, int(x + kx) - 1, ic) *
                     f[(ky * k + kx) * c * mult + oc];
          EXPECT_NEAR(out[(y * w + x) * c * mult + oc], acc, 1e-5);
        }
}

TEST(Pooling, AverageExcludesPaddingAndMaxIgnoresIt) {
  // 1x3x3x1 input 1..9, 2x2 windows with stride 2 and padding 1 on the right
  // and bottom: the corner window covers only the value 9.
  std::vector<float> in = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  Shape is{1, 3, 3, 1}, os{1, 2, 2, 1};
  Window win = window(0, 1, 0, 1, 2, 2);
  std::vector<float> avg(4), mx(4);
  averagePool2d(in.data(), is, avg.data(), os, win, 2, 2);
  maxPool2d(in.data(), is, mx.data(), os, win, 2, 2);
  EXPECT_FLOAT_EQ(avg[0], (1 + 2 + 4 + 5) / 4.0f);
  EXPECT_FLOAT_EQ(avg[1], (3 + 6) / 2.0f);
  EXPECT_FLOAT_EQ(avg[2], (7 + 8) / 2.0f);
  EXPECT_FLOAT_EQ(avg[3], 9.0f);
  EXPECT_EQ(mx, (std::vector<float>{5, 6, 8, 9}));
}

TEST(ImplicitPadding, SameSplitsTheExtraPaddingTowardsTheEnd) {
  int head, tail;
  spec::implicitPadding(ANEURALNETWORKS_PADDING_SAME, 6, 2, 3, 1, head, tail);
  EXPECT_EQ(head, 0); // out 3, needs (3-1)*2+3-6 = 1
  EXPECT_EQ(tail, 1);
  spec::implicitPadding(ANEURALNETWORKS_PADDING_SAME, 5, 1, 4, 1, head, tail);
  EXPECT_EQ(head, 1);
  EXPECT_EQ(tail, 2);
  spec::implicitPadding(ANEURALNETWORKS_PADDING_VALID, 5, 1, 4, 1, head, tail);
  EXPECT_EQ(head + tail, 0);
}

TEST(Binary, BroadcastsLikeNumpyAndFusesActivation) {
  std::vector<float> a = {1, 2, 3, 4, 5, 6}; // [2, 3]
  std::vector<float> b = {10, -20};          // [2, 1]
  Shape out;
  ASSERT_TRUE(spec::broadcastDims({2, 3}, {2, 1}, out));
  EXPECT_EQ(out, (Shape{2, 3}));
  std::vector<float> r(6);
  binary(BinaryKind::Add, a.data(), {2, 3}, b.data(), {2, 1}, r.data(), out,
         ANEURALNETWORKS_FUSED_RELU6);
  EXPECT_EQ(r, (std::vector<float>{6, 6, 6, 0, 0, 0}));
  binary(BinaryKind::Div, a.data(), {2, 3}, b.data(), {2, 1}, r.data(), out, 0);
  EXPECT_FLOAT_EQ(r[4], 5.0f / -20.0f);
  Shape bad;
  EXPECT_FALSE(spec::broadcastDims({3}, {4}, bad));
}

TEST(FullyConnected, FlattensBatches) {
  std::vector<float> in = {1, 2, 3, 4};   // two rows of two
  std::vector<float> w = {1, 0, 0.5, -1}; // [2 units, 2 inputs]
  std::vector<float> b = {0.25f, 0};
  std::vector<float> out(4);
  fullyConnected(in.data(), w.data(), {2, 2}, b.data(), out.data(), 2, 0);
  EXPECT_EQ(out, (std::vector<float>{1.25f, 0.5f - 2, 3.25f, 1.5f - 4}));
}

TEST(Softmax, MatchesDefinitionAlongAnyAxis) {
  auto in = randomData(24, 9);
  Shape s{2, 3, 4};
  for (int axis : {0, 1, 2, -1}) {
    std::vector<float> out(24);
    softmax(in.data(), s, 0.5f, axis, out.data());
    int a = axis < 0 ? axis + 3 : axis;
    size_t strides[3] = {12, 4, 1};
    for (size_t i = 0; i < 24; ++i) {
      size_t pos = (i / strides[a]) % s[a];
      size_t base = i - pos * strides[a];
      double denom = 0;
      for (size_t k = 0; k < s[a]; ++k)
        denom += std::exp(0.5 * in[base + k * strides[a]]);
      EXPECT_NEAR(out[i], std::exp(0.5 * in[i]) / denom, 1e-6) << axis;
    }
  }
}

TEST(Concatenation, InterleavesAlongTheAxis) {
  std::vector<float> a = {1, 2, 3, 4}, b = {5, 6};
  std::vector<float> out(6);
  concatenation({a.data(), b.data()}, {{2, 2}, {2, 1}}, 1, out.data());
  EXPECT_EQ(out, (std::vector<float>{1, 2, 5, 3, 4, 6}));
}

TEST(Unary, Activations) {
  std::vector<float> in = {-7, -0.5f, 0.5f, 7}, out(4);
  unary(UnaryKind::Relu1, in.data(), out.data(), 4);
  EXPECT_EQ(out, (std::vector<float>{-1, -0.5f, 0.5f, 1}));
  unary(UnaryKind::Relu6, in.data(), out.data(), 4);
  EXPECT_EQ(out, (std::vector<float>{0, 0, 0.5f, 6}));
  unary(UnaryKind::Logistic, in.data(), out.data(), 4);
  EXPECT_NEAR(out[1], 1.0 / (1.0 + std::exp(0.5)), 1e-7);
  unary(UnaryKind::Tanh, in.data(), out.data(), 4);
  EXPECT_NEAR(out[2], std::tanh(0.5), 1e-7);
}

TEST(Half, ConversionsRoundTripAndRound) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3C00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xC000);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7BFF);
  EXPECT_EQ(floatToHalf(1e6f), 0x7C00); // overflow to infinity
  EXPECT_EQ(floatToHalf(5.960464477539063e-8f), 0x0001); // smallest subnormal
  EXPECT_FLOAT_EQ(halfToFloat(0x3555), 0.333251953125f);
  for (uint32_t h = 0; h < 0x7C00; ++h) // every finite positive half
    EXPECT_EQ(floatToHalf(halfToFloat(uint16_t(h))), h);
}

} // namespace
