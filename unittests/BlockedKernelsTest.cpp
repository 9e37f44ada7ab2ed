//===- BlockedKernelsTest.cpp - Blocked kernels vs the reference ----------===//
//
// Each blocked kernel of the host device against the reference kernel it
// replaces, on random data and awkward shapes: unit and prime dimensions,
// sizes that are not multiples of the tiles (16) or row blocks (4, 256),
// permutations that keep the innermost dimension and ones that move it.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/HostDevice/BlockedKernels.h"

#include "RandomData.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <random>

using namespace nnapi_mlir::host;

namespace {

std::vector<float> randomData(size_t n, unsigned seed) {
  return nnapi_mlir::test::randomData(n, seed, -2.0f, 2.0f);
}

struct TransposeCase {
  Shape shape;
  std::vector<int32_t> perm;
};

class BlockedTranspose : public ::testing::TestWithParam<TransposeCase> {};

TEST_P(BlockedTranspose, MatchesReference) {
  const TransposeCase &c = GetParam();
  std::vector<float> in = randomData(numElements(c.shape), 1);
  // Slack after the output: a write past the end shows as a changed guard.
  std::vector<float> want(in.size() + 4, -7.0f), got(in.size() + 4, -7.0f);
  transpose(in.data(), c.shape, c.perm, want.data());
  blocked::transpose(in.data(), c.shape, c.perm, got.data());
  // Moves only: exactly the same values.
  EXPECT_EQ(got, want);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, BlockedTranspose,
    ::testing::Values(
        TransposeCase{{1, 3, 5, 7}, {0, 2, 3, 1}},   // NCHW -> NHWC
        TransposeCase{{1, 5, 7, 3}, {0, 3, 1, 2}},   // NHWC -> NCHW
        TransposeCase{{2, 17, 33}, {0, 2, 1}},       // tiles with remainders
        TransposeCase{{37, 19}, {1, 0}},
        TransposeCase{{2, 3, 5, 7}, {0, 2, 1, 3}},   // innermost stays
        TransposeCase{{2, 3, 5, 7}, {3, 2, 1, 0}},
        TransposeCase{{2, 3, 5, 7}, {1, 3, 0, 2}},
        TransposeCase{{1, 1, 9, 1}, {3, 2, 1, 0}},   // only unit dims move
        TransposeCase{{4, 1, 6, 1, 5}, {4, 2, 0, 1, 3}},
        TransposeCase{{2, 3, 4, 5, 6}, {0, 1, 4, 2, 3}}, // merged groups
        TransposeCase{{6}, {0}},
        TransposeCase{{}, {}},
        TransposeCase{{3, 0, 2}, {2, 1, 0}}));       // empty

struct ReduceCase {
  Shape shape;
  std::vector<bool> reduced;
};

class BlockedReduce : public ::testing::TestWithParam<ReduceCase> {};

TEST_P(BlockedReduce, MatchesReference) {
  const ReduceCase &c = GetParam();
  ASSERT_TRUE(blocked::canReduce(c.shape, c.reduced));
  size_t n = numElements(c.shape), outN = 1;
  for (size_t d = 0; d < c.shape.size(); ++d)
    if (!c.reduced[d])
      outN *= c.shape[d];
  std::vector<float> in = randomData(n, 2);
  for (ReduceKind kind : {ReduceKind::Mean, ReduceKind::Sum, ReduceKind::Max,
                          ReduceKind::Min, ReduceKind::Prod}) {
    std::vector<float> data = in;
    if (kind == ReduceKind::Prod) // keep products of many terms finite
      for (float &x : data)
        x = 1.0f + x * 0.01f;
    std::vector<float> want(outN + 1, -7.0f), got(outN + 1, -7.0f);
    reduce(kind, data.data(), c.shape, c.reduced, want.data());
    blocked::reduce(kind, data.data(), c.shape, c.reduced, got.data());
    for (size_t i = 0; i < outN; ++i)
      EXPECT_NEAR(got[i], want[i], 1e-5f * std::max(1.0f, std::fabs(want[i])))
          << "kind " << int(kind) << " element " << i;
    EXPECT_EQ(got[outN], -7.0f) << "wrote past the output";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, BlockedReduce,
    ::testing::Values(
        ReduceCase{{1, 7, 9, 13}, {false, true, true, false}}, // NHWC pool
        ReduceCase{{2, 13, 5, 3}, {false, false, true, true}}, // NCHW pool
        ReduceCase{{3, 37}, {false, true}},                    // last axis
        ReduceCase{{37, 3}, {true, false}},                    // first axis
        ReduceCase{{5, 1, 7}, {true, true, true}},             // all
        ReduceCase{{4, 1, 6}, {false, true, false}},           // unit only
        ReduceCase{{2, 3, 1, 5}, {false, true, true, true}}));

TEST(BlockedReduce, RefusesSplitBlocks) {
  EXPECT_FALSE(blocked::canReduce({2, 3, 4}, {true, false, true}));
  EXPECT_TRUE(blocked::canReduce({2, 1, 4}, {true, false, true}));
}

TEST(BlockedReduce, PropagatesNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // NaN first, in the middle and last, along the row and across rows.
  for (Shape shape : {Shape{3, 20}, Shape{20, 3}}) {
    std::vector<bool> reduced =
        shape[0] == 3 ? std::vector<bool>{false, true}
                      : std::vector<bool>{true, false};
    std::vector<float> in = randomData(60, 3);
    in[0] = nan, in[31] = nan, in[59] = nan;
    for (ReduceKind kind : {ReduceKind::Max, ReduceKind::Min}) {
      std::vector<float> want(3), got(3);
      reduce(kind, in.data(), shape, reduced, want.data());
      blocked::reduce(kind, in.data(), shape, reduced, got.data());
      for (size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(std::isnan(got[i]), std::isnan(want[i])) << i;
        if (!std::isnan(want[i])) {
          EXPECT_EQ(got[i], want[i]) << i;
        }
      }
    }
  }
}

struct MatmulCase {
  Shape a;
  bool adjA;
  Shape b;
  bool adjB;
};

class BlockedBatchMatmul : public ::testing::TestWithParam<MatmulCase> {};

TEST_P(BlockedBatchMatmul, MatchesReference) {
  const MatmulCase &c = GetParam();
  size_t r = c.a.size();
  size_t m = c.adjA ? c.a[r - 1] : c.a[r - 2];
  size_t n = c.adjB ? c.b[r - 2] : c.b[r - 1];
  size_t outN = numElements(c.a) / (c.a[r - 1] * c.a[r - 2]) * m * n;
  std::vector<float> a = randomData(numElements(c.a), 4),
                     b = randomData(numElements(c.b), 5);
  std::vector<float> scratch(
      blocked::batchMatmulScratch(c.a, c.adjA, c.b, c.adjB));
  std::vector<float> want(outN + 1, -7.0f), got(outN + 1, -7.0f);
  batchMatmul(a.data(), c.a, c.adjA, b.data(), c.b, c.adjB, want.data());
  blocked::batchMatmul(a.data(), c.a, c.adjA, b.data(), c.b, c.adjB,
                       got.data(), scratch.data());
  for (size_t i = 0; i < outN; ++i)
    EXPECT_NEAR(got[i], want[i], 1e-4f * std::max(1.0f, std::fabs(want[i])))
        << i;
  EXPECT_EQ(got[outN], -7.0f) << "wrote past the output";
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, BlockedBatchMatmul,
    ::testing::Values(
        MatmulCase{{1, 7, 5}, false, {1, 5, 3}, false},
        MatmulCase{{2, 9, 33}, false, {2, 33, 300}, false}, // > one block
        MatmulCase{{2, 33, 9}, true, {2, 33, 17}, false},
        MatmulCase{{2, 9, 33}, false, {2, 17, 33}, true},   // attention Q K^T
        MatmulCase{{3, 2, 6, 5}, true, {3, 2, 7, 6}, true},
        MatmulCase{{1, 1}, false, {1, 1}, false}));

} // namespace
