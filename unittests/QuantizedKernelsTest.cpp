//===- QuantizedKernelsTest.cpp - 8-bit kernels against integer arithmetic ===//
//
// The quantized kernels against a computation written here from NNAPI's
// definition in 128-bit integers: products of values minus zero points
// summed with the bias, the real multiplier as m / 2^31 * 2^shift, the
// doubling high product floor((a * b + 2^30) / 2^31), a right shift
// rounding halves away from zero, plus the output zero point, clamped.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/HostDevice/QuantizedKernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace nnapi_mlir::host;

namespace {

/// floor(a / b) for b > 0.
__int128 floorDiv(__int128 a, __int128 b) {
  __int128 q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

/// NNAPI's requantization of `acc` by `real`, from its definition.
int64_t referenceScale(int64_t acc, double real) {
  int exponent = 0;
  double fraction = std::frexp(real, &exponent);
  int64_t m = std::llround(std::ldexp(fraction, 31));
  if (m == (int64_t(1) << 31)) {
    m /= 2;
    ++exponent;
  }
  int left = std::max(exponent, 0), right = std::max(-exponent, 0);
  __int128 x = __int128(acc) * (__int128(1) << left);
  x = std::max<__int128>(std::min<__int128>(x, INT32_MAX), INT32_MIN);
  __int128 high = floorDiv(x * m + (__int128(1) << 30), __int128(1) << 31);
  if (right == 0)
    return int64_t(high);
  __int128 half = __int128(1) << (right - 1), unit = __int128(1) << right;
  return high >= 0 ? int64_t(floorDiv(high + half, unit))
                   : -int64_t(floorDiv(-high + half, unit));
}

int64_t clampTo(int64_t v, int64_t lo, int64_t hi) {
  return std::min(std::max(v, lo), hi);
}

TEST(QuantizedKernels, MultipliersBelowAndAboveOne) {
  for (double real : {0.0003, 0.0123, 0.25, 0.5, 0.7071, 0.999999, 1.0, 1.5,
                      3.75, 17.2}) {
    FixedPointMultiplier m = quantizeMultiplier(real);
    for (int32_t acc : {0, 1, -1, 7, -7, 255, -256, 12345, -98765, 1 << 20,
                        -(1 << 22), 100000000}) {
      SCOPED_TRACE("real " + std::to_string(real) + " acc " +
                   std::to_string(acc));
      EXPECT_EQ(multiplyByQuantizedMultiplier(acc, m),
                referenceScale(acc, real));
    }
  }
  // 0.5 needs no shift: the high product rounds halves up (1.5 -> 2,
  // -1.5 -> -1). 0.25 is 0.5 shifted right once, so 5 * 0.25 = 1.25 rounds
  // twice: 2.5 -> 3 in the high product, then 1.5 -> 2 in the shift
  // (halves away from zero): NNAPI's result, not the nearest integer.
  EXPECT_EQ(multiplyByQuantizedMultiplier(3, quantizeMultiplier(0.5)), 2);
  EXPECT_EQ(multiplyByQuantizedMultiplier(-3, quantizeMultiplier(0.5)), -1);
  EXPECT_EQ(multiplyByQuantizedMultiplier(5, quantizeMultiplier(0.25)), 2);
  EXPECT_EQ(multiplyByQuantizedMultiplier(-5, quantizeMultiplier(0.25)), -1);
}

struct ConvCase {
  bool isSigned;
  int32_t inZero, filterZero, outZero;
  bool perChannel;
  int32_t fuseCode;
  int32_t depthMultiplier; // 0: CONV_2D
};

/// Outputs of a checkConv at the type's lowest and highest value.
struct Saturation {
  int64_t low = 0, high = 0;
};

/// A 1x5x5x3 input, 3x3 filters, stride 2, padding 1, 4 output channels;
/// how many outputs saturated goes to `saturation`.
void checkConv(const ConvCase &c, Saturation *saturation = nullptr) {
  std::mt19937 rng(7);
  int lo = c.isSigned ? -128 : 0, hi = c.isSigned ? 127 : 255;
  std::uniform_int_distribution<int> value(lo, hi), filterValue(-127, 127);
  const int inC = c.depthMultiplier ? 2 : 3;
  const int outC = c.depthMultiplier ? inC * c.depthMultiplier : 4;
  Shape is = {1, 5, 5, uint32_t(inC)}, os = {1, 3, 3, uint32_t(outC)};
  Shape fs = c.depthMultiplier ? Shape{1, 3, 3, uint32_t(outC)}
                               : Shape{uint32_t(outC), 3, 3, uint32_t(inC)};
  std::vector<uint8_t> in(numElements(is)), filter(numElements(fs));
  for (uint8_t &v : in)
    v = uint8_t(value(rng));
  bool filterSigned = c.isSigned || c.perChannel;
  for (uint8_t &v : filter)
    v = uint8_t(filterSigned ? filterValue(rng) : value(rng));
  std::vector<int32_t> bias(outC);
  for (int32_t &b : bias)
    b = int32_t(rng() % 4001) - 2000;
  float inScale = 0.05f, outScale = 0.2f;
  std::vector<float> filterScales(outC);
  for (int i = 0; i < outC; ++i)
    filterScales[i] = c.perChannel ? 0.003f * float(i + 1) : 0.004f;
  std::vector<FixedPointMultiplier> ms;
  for (int i = 0; i < (c.perChannel ? outC : 1); ++i)
    ms.push_back(quantizeMultiplier(double(inScale) * filterScales[i] /
                                    double(outScale)));
  Window w;
  w.padLeft = w.padRight = w.padTop = w.padBottom = 1;
  w.strideW = w.strideH = 2;
  w.fuseCode = c.fuseCode;
  std::vector<uint8_t> out(numElements(os));
  Quant8 qin{in.data(), c.isSigned, c.inZero};
  Quant8 qf{filter.data(), filterSigned, c.perChannel ? 0 : c.filterZero};
  Quant8Out qout{out.data(), c.isSigned, c.outZero, outScale};
  quantizedConv2d(qin, is, qf, fs, bias.data(), qout, os, w, ms,
                  c.depthMultiplier);

  auto read = [&](const std::vector<uint8_t> &v, size_t i, bool s) {
    return s ? int64_t(int8_t(v[i])) : int64_t(v[i]);
  };
  // Activation bounds on the output scale (ReLU6: 6 / 0.2 = 30 steps).
  int64_t actLo = lo, actHi = hi;
  if (c.fuseCode == 1 || c.fuseCode == 3)
    actLo = std::max<int64_t>(lo, c.outZero);
  if (c.fuseCode == 3)
    actHi = std::min<int64_t>(hi, c.outZero + 30);
  int64_t saturatedLow = 0, saturatedHigh = 0;
  for (int oy = 0; oy < 3; ++oy)
    for (int ox = 0; ox < 3; ++ox)
      for (int oc = 0; oc < outC; ++oc) {
        int64_t acc = bias[oc];
        for (int ky = 0; ky < 3; ++ky)
          for (int kx = 0; kx < 3; ++kx) {
            int iy = oy * 2 - 1 + ky, ix = ox * 2 - 1 + kx;
            if (iy < 0 || iy >= 5 || ix < 0 || ix >= 5)
              continue;
            if (c.depthMultiplier) {
              int ic = oc / c.depthMultiplier;
              acc += (read(in, (iy * 5 + ix) * inC + ic, c.isSigned) -
                      c.inZero) *
                     (read(filter, (ky * 3 + kx) * outC + oc, filterSigned) -
                      qf.zeroPoint);
              continue;
            }
            for (int ic = 0; ic < inC; ++ic)
              acc += (read(in, (iy * 5 + ix) * inC + ic, c.isSigned) -
                      c.inZero) *
                     (read(filter, ((oc * 3 + ky) * 3 + kx) * inC + ic,
                           filterSigned) -
                      qf.zeroPoint);
          }
        double real = double(inScale) *
                      filterScales[c.perChannel ? oc : 0] / double(outScale);
        int64_t expected =
            clampTo(referenceScale(acc, real) + c.outZero, actLo, actHi);
        saturatedLow += expected == lo;
        saturatedHigh += expected == hi;
        size_t at = size_t((oy * 3 + ox) * outC + oc);
        ASSERT_EQ(read(out, at, c.isSigned), expected)
            << "at (" << oy << ", " << ox << ", " << oc << ")";
      }
  if (saturation)
    *saturation = {saturatedLow, saturatedHigh};
}

TEST(QuantizedKernels, ConvUnsignedZeroPointsAtBothEnds) {
  checkConv({false, 0, 255, 255, false, 0, 0});
  // Output zero points near the ends of uint8: sums saturate there, so both
  // clamps are exercised, not only computed.
  Saturation low, high;
  checkConv({false, 255, 0, 0, false, 0, 0}, &low);
  checkConv({false, 0, 128, 250, false, 0, 0}, &high);
  EXPECT_GT(low.low, 0);
  EXPECT_GT(high.high, 0);
  checkConv({false, 128, 130, 120, false, 3, 0}); // ReLU6
}

TEST(QuantizedKernels, ConvSignedPerChannel) {
  // Output zero point 127: the int8 sums saturate at the top.
  Saturation ends;
  checkConv({true, -128, 0, 127, true, 0, 0}, &ends);
  EXPECT_GT(ends.high, 0);
  checkConv({true, 127, 0, -128, true, 1, 0}); // ReLU
  checkConv({true, 5, 0, -3, false, 0, 0});
}

TEST(QuantizedKernels, DepthwisePerChannel) {
  checkConv({true, -20, 0, 10, true, 0, 2});
  checkConv({false, 100, 0, 128, true, 3, 1});
}

TEST(QuantizedKernels, Saturates) {
  // Every product pushes past the type's range: all outputs at the ends.
  std::vector<uint8_t> in = {255, 255, 0, 0}, weights = {127, 127, 127, 127};
  std::vector<int32_t> bias = {0, 0};
  std::vector<uint8_t> out(4);
  Quant8 qin{in.data(), false, 0}, qw{weights.data(), true, 0};
  weights[2] = weights[3] = uint8_t(int8_t(-127));
  Quant8Out qout{out.data(), true, 0, 0.01f};
  quantizedFullyConnected(qin, qw, {2, 2}, bias.data(), qout, 2,
                          quantizeMultiplier(1.0), 0);
  // Row 0: 255*127*2 -> 127; 255*-127*2 -> -128. Row 1 is zero.
  EXPECT_EQ(int8_t(out[0]), 127);
  EXPECT_EQ(int8_t(out[1]), -128);
  EXPECT_EQ(int8_t(out[2]), 0);
  EXPECT_EQ(int8_t(out[3]), 0);
}

TEST(QuantizedKernels, AddRescalesBothInputsAndBroadcasts) {
  // a [2, 3] uint8 + b [3] (broadcast along rows), different scales, ReLU.
  std::vector<uint8_t> a = {0, 17, 128, 200, 255, 90}, b = {3, 250, 128};
  float sa = 0.05f, sb = 0.11f, so = 0.08f;
  int32_t za = 128, zb = 100, zo = 20;
  std::vector<uint8_t> out(6);
  quantizedAdd(Quant8{a.data(), false, za}, {2, 3}, sa,
               Quant8{b.data(), false, zb}, {3}, sb,
               Quant8Out{out.data(), false, zo, so}, {2, 3}, /*ReLU=*/1);
  double twiceMax = 2.0 * std::max(sa, sb);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) {
      int64_t x = referenceScale((int64_t(a[r * 3 + c]) - za) * (1 << 20),
                                 double(sa) / twiceMax);
      int64_t y = referenceScale((int64_t(b[c]) - zb) * (1 << 20),
                                 double(sb) / twiceMax);
      int64_t sum = referenceScale(x + y, twiceMax / (double(1 << 20) * so));
      int64_t expected = clampTo(sum + zo, zo, 255); // ReLU: >= zero point
      EXPECT_EQ(int64_t(out[r * 3 + c]), expected) << r << "," << c;
      // Within one step of the real sum.
      double real = (a[r * 3 + c] - za) * sa + (b[c] - zb) * sb;
      double want = std::min(255.0, std::max(double(zo), real / so + zo));
      EXPECT_LE(std::fabs(double(out[r * 3 + c]) - want), 1.0);
    }
}

TEST(QuantizedKernels, QuantizeRoundsHalvesAwayFromZeroAndSaturates) {
  float in[] = {0.0f, 0.25f, -0.25f, 0.75f, 1000.0f, -1000.0f, NAN};
  uint8_t out[7];
  quantize(in, Quant8Out{out, true, 3, 0.5f}, 7);
  // 0.25 / 0.5 = 0.5 -> 1 (+3 = 4); -0.5 -> -1 (2); 1.5 -> 2 (5).
  int8_t expected[] = {3, 4, 2, 5, 127, -128, 3};
  for (int i = 0; i < 7; ++i)
    EXPECT_EQ(int8_t(out[i]), expected[i]) << i;
  uint8_t back[2] = {0, 255};
  float deq[2];
  dequantize(Quant8{back, false, 128}, 0.5f, deq, 2);
  EXPECT_EQ(deq[0], -64.0f);
  EXPECT_EQ(deq[1], 63.5f);
}

TEST(QuantizedKernels, MulRequantizesTheProductAndBroadcasts) {
  // int8 a [2, 3] * b [3] (broadcast along rows), multiplier below 1 and a
  // ReLU6; then uint8 with a multiplier above 1 that saturates.
  std::vector<uint8_t> a, b;
  for (int8_t v : {-128, -5, 0, 17, 127, 64})
    a.push_back(uint8_t(v));
  for (int8_t v : {3, -100, 127})
    b.push_back(uint8_t(v));
  float sa = 0.05f, sb = 0.02f, so = 0.04f;
  int32_t za = -3, zb = 7, zo = -20;
  std::vector<uint8_t> out(6);
  quantizedMul(Quant8{a.data(), true, za}, {2, 3}, sa, Quant8{b.data(), true, zb},
               {3}, sb, Quant8Out{out.data(), true, zo, so}, {2, 3},
               /*ReLU6=*/3);
  int64_t six = zo + int64_t(std::lround(6.0 / so)); // 130: beyond int8
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c) {
      int64_t product =
          (int64_t(int8_t(a[r * 3 + c])) - za) * (int64_t(int8_t(b[c])) - zb);
      int64_t expected = clampTo(
          referenceScale(product, double(sa) * double(sb) / double(so)) + zo,
          zo, std::min<int64_t>(six, 127));
      EXPECT_EQ(int64_t(int8_t(out[r * 3 + c])), expected) << r << "," << c;
    }
  std::vector<uint8_t> ua = {0, 200}, ub = {255, 255};
  std::vector<uint8_t> uout(2);
  quantizedMul(Quant8{ua.data(), false, 100}, {2}, 0.5f,
               Quant8{ub.data(), false, 0}, {2}, 0.5f,
               Quant8Out{uout.data(), false, 10, 0.1f}, {2}, 0);
  // (0 - 100) * 255 * 2.5 + 10 -> 0; (200 - 100) * 255 * 2.5 + 10 -> 255.
  EXPECT_EQ(uout[0], 0);
  EXPECT_EQ(uout[1], 255);
}

TEST(QuantizedKernels, PoolsOnStoredValues) {
  // A 3x3 int8 image, one channel, zero point -5: 2x2 windows, stride 1,
  // padding 1 on the right and bottom (windows partly outside count only
  // the elements inside).
  std::vector<uint8_t> in;
  int8_t values[9] = {-128, 7, 8, 9, -3, -4, 127, 0, -1};
  for (int8_t v : values)
    in.push_back(uint8_t(v));
  Window w;
  w.padRight = 1;
  w.padBottom = 1;
  std::vector<uint8_t> maxOut(9), avgOut(9);
  auto pools = [&] {
    for (bool average : {false, true})
      quantizedPool2d(
          Quant8{in.data(), true, -5}, {1, 3, 3, 1},
          Quant8Out{(average ? avgOut : maxOut).data(), true, -5, 0.5f},
          {1, 3, 3, 1}, w, 2, 2, average);
  };
  pools();
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x) {
      int64_t best = INT64_MIN, sum = 0, count = 0;
      for (int dy = 0; dy < 2; ++dy)
        for (int dx = 0; dx < 2; ++dx)
          if (y + dy < 3 && x + dx < 3) {
            int64_t v = values[(y + dy) * 3 + x + dx];
            best = std::max(best, v);
            sum += v;
            ++count;
          }
      // The mean rounded to nearest, halves away from zero.
      int64_t twice = 2 * std::llabs(sum) + count;
      int64_t mean = (twice / (2 * count)) * (sum < 0 ? -1 : 1);
      EXPECT_EQ(int8_t(maxOut[y * 3 + x]), best) << y << "," << x;
      EXPECT_EQ(int8_t(avgOut[y * 3 + x]), mean) << y << "," << x;
    }
  // Window (0, 0): -128, 7, 9, -3 -> -115 / 4 = -28.75 -> -29; (0, 1): 7,
  // 8, -3, -4 -> 2; (2, 2): -1 alone.
  EXPECT_EQ(int8_t(avgOut[0]), -29);
  EXPECT_EQ(int8_t(avgOut[1]), 2);
  EXPECT_EQ(int8_t(avgOut[8]), -1);
  // ReLU6 on scale 0.5, zero point -5: [-5, 7].
  w.fuseCode = 3;
  pools();
  EXPECT_EQ(int8_t(maxOut[0]), 7);  // 9 lowered to 6 / 0.5 - 5
  EXPECT_EQ(int8_t(avgOut[0]), -5); // -29 raised to the zero point
}

TEST(QuantizedKernels, ConcatenationRequantizesOtherParameters) {
  // uint8 [2, 1] and [2, 2] along axis 1: the first copied (the output's
  // parameters), the second requantized from scale 0.3, zero point 10 to
  // scale 0.2, zero point 128.
  std::vector<uint8_t> a = {0, 255}, b = {10, 11, 255, 0};
  std::vector<uint8_t> out(6);
  quantizedConcatenation({Quant8{a.data(), false, 128},
                          Quant8{b.data(), false, 10}},
                         {0.2f, 0.3f}, {{2, 1}, {2, 2}}, 1,
                         Quant8Out{out.data(), false, 128, 0.2f});
  // (q - 10) * 1.5 rounded half away from zero, + 128, saturated:
  // 0 -> 128, 1.5 -> 130, 367.5 -> 255, -15 -> 113.
  std::vector<uint8_t> expected = {0, 128, 130, 255, 255, 113};
  EXPECT_EQ(out, expected);
}

} // namespace
