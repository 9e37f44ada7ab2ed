//===- ProfileFitTest.cpp - nnapi-profile-device's cost model fits --------===//
//
// The fits are checked against coefficients chosen here: samples are made
// from a known cost model (with and without noise), and the fit must give
// the model back.
//
//===----------------------------------------------------------------------===//

#include "Fit.h"

#include <gtest/gtest.h>

#include <random>

using namespace nnapi_mlir;
using namespace nnapi_mlir::profiling;

namespace {

std::vector<Sample> samplesOf(const profile::CostModel &truth,
                              const std::vector<std::pair<double, double>> &work,
                              double noise = 0, unsigned seed = 1) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> jitter(1 - noise, 1 + noise);
  std::vector<Sample> samples;
  for (auto [macs, elements] : work)
    samples.push_back({macs, elements,
                       truth.estimateUs(macs, elements) *
                           (noise > 0 ? jitter(rng) : 1.0)});
  return samples;
}

const std::vector<std::pair<double, double>> kConvWork = {
    {9216, 2048}, {65536, 16384}, {2359296, 81920}, {28901376, 150528}};

TEST(ProfileFitTest, RecoversAllThreeCoefficients) {
  profile::CostModel truth{0.6, 0.011, 0.06};
  std::optional<CostFit> fit = fitCost(samplesOf(truth, kConvWork));
  ASSERT_TRUE(fit);
  EXPECT_NEAR(fit->cost.fixedUs, 0.6, 1e-9);
  EXPECT_NEAR(fit->cost.nsPerMac, 0.011, 1e-12);
  EXPECT_NEAR(fit->cost.nsPerElement, 0.06, 1e-11);
  EXPECT_LT(fit->worstRelativeError, 1e-9);
}

TEST(ProfileFitTest, ElementwiseWorkNeedsNoMacCost) {
  profile::CostModel truth{0.25, 0, 0.07};
  std::optional<CostFit> fit = fitCost(
      samplesOf(truth, {{0, 768}, {0, 24576}, {0, 196608}, {0, 786432}}));
  ASSERT_TRUE(fit);
  EXPECT_NEAR(fit->cost.fixedUs, 0.25, 1e-9);
  EXPECT_EQ(fit->cost.nsPerMac, 0);
  EXPECT_NEAR(fit->cost.nsPerElement, 0.07, 1e-12);
}

TEST(ProfileFitTest, NoisySamplesStayClose) {
  profile::CostModel truth{1.0, 0.02, 0.1};
  std::optional<CostFit> fit =
      fitCost(samplesOf(truth, kConvWork, /*noise=*/0.02));
  ASSERT_TRUE(fit);
  EXPECT_LT(fit->worstRelativeError, 0.08);
  EXPECT_NEAR(fit->cost.nsPerMac, 0.02, 0.002);
}

TEST(ProfileFitTest, CoefficientsNeverNegative) {
  // Latency that falls as the work grows fits no model with a positive
  // slope: the fit keeps what stays non-negative (a fixed cost).
  std::vector<Sample> samples = {{0, 100, 10}, {0, 1000, 8}, {0, 10000, 6}};
  std::optional<CostFit> fit = fitCost(samples);
  ASSERT_TRUE(fit);
  EXPECT_GE(fit->cost.fixedUs, 0);
  EXPECT_GE(fit->cost.nsPerMac, 0);
  EXPECT_GE(fit->cost.nsPerElement, 0);
  EXPECT_NEAR(fit->cost.estimateUs(0, 1000), 8, 2.5);
}

TEST(ProfileFitTest, SkipsNonPositiveLatencies) {
  EXPECT_FALSE(fitCost({}));
  EXPECT_FALSE(fitCost({{0, 100, 0}, {0, 200, -1}}));
  std::optional<CostFit> fit = fitCost({{0, 100, 0}, {0, 1000, 2}});
  ASSERT_TRUE(fit);
  EXPECT_NEAR(fit->cost.estimateUs(0, 1000), 2, 1e-9);
}

TEST(ProfileFitTest, LineFit) {
  Line line = fitLine({0, 1000, 2000, 4000}, {0.5, 1.5, 2.5, 4.5});
  EXPECT_NEAR(line.intercept, 0.5, 1e-12);
  EXPECT_NEAR(line.slope, 0.001, 1e-15);
  // A falling line is flat at the mean; a negative intercept goes through 0.
  line = fitLine({1, 2, 3}, {3, 2, 1});
  EXPECT_EQ(line.slope, 0);
  EXPECT_NEAR(line.intercept, 2, 1e-12);
  line = fitLine({1, 2, 3}, {0, 1, 2});
  EXPECT_EQ(line.intercept, 0);
  EXPECT_NEAR(line.slope, 8.0 / 14.0, 1e-12);
  // One point: the intercept alone.
  line = fitLine({5}, {2});
  EXPECT_EQ(line.slope, 0);
  EXPECT_EQ(line.intercept, 2);
  line = fitLine({}, {});
  EXPECT_EQ(line.intercept, 0);
}

TEST(ProfileFitTest, Median) {
  EXPECT_EQ(median({}), 0);
  EXPECT_EQ(median({3}), 3);
  EXPECT_EQ(median({5, 1, 3}), 3);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
}

} // namespace
