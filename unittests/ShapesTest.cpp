//===- ShapesTest.cpp - The NNAPI spec's output-shape rules ---------------===//
//
// spec::inferShapes on operations written out by hand, with the shapes
// worked out here from NNAPI's documentation (not from the rules).
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/NNAPI/Layouts.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"
#include "nnapi-mlir/NNAPI/Shapes.h"

#include <gtest/gtest.h>

#include <cstring>
#include <deque>

using namespace nnapi_mlir::spec;

namespace {

/// An operation's inputs, built one by one; outputs are declared by rank.
class Op {
public:
  explicit Op(int32_t code) : code(code) {}

  Op &tensor(Dims dims, int32_t type = ANEURALNETWORKS_TENSOR_FLOAT32) {
    return add(type, std::move(dims), {});
  }
  Op &i32(int32_t v) { return add(ANEURALNETWORKS_INT32, {}, bytes(&v, 4)); }
  Op &boolean(bool v) {
    uint8_t b = v;
    return add(ANEURALNETWORKS_BOOL, {}, bytes(&b, 1));
  }
  Op &f32(float v) { return add(ANEURALNETWORKS_FLOAT32, {}, bytes(&v, 4)); }
  /// A constant TENSOR_INT32, of shape [size] unless `dims` says.
  Op &ints(std::vector<int32_t> v, Dims dims = {}) {
    if (dims.empty())
      dims = {uint32_t(v.size())};
    return add(ANEURALNETWORKS_TENSOR_INT32, std::move(dims),
               bytes(v.data(), 4 * v.size()));
  }
  Op &output(uint32_t rank, int32_t type = ANEURALNETWORKS_TENSOR_FLOAT32) {
    outs.push_back({type, rank, false});
    return *this;
  }

  /// The outputs' dims, or the error.
  std::string infer(std::vector<ShapeResult> &results) {
    std::vector<OperandDesc> descs;
    std::vector<ShapeOperand> inputs;
    for (Input &in : ins) {
      descs.push_back({in.type, uint32_t(in.dims.size()), !in.value.empty()});
      inputs.push_back({in.type, &in.dims,
                        in.value.empty() ? nullptr : in.value.data()});
    }
    Match layout;
    std::string error;
    if (!match(code, descs, outs, layout, error))
      return "layout: " + error;
    if (!inferShapes(code, layout, inputs, results, error))
      return error;
    return "";
  }
  Dims dims() {
    std::vector<ShapeResult> results;
    std::string error = infer(results);
    EXPECT_EQ(error, "");
    return results.empty() ? Dims{} : results[0].dims;
  }
  std::string error() {
    std::vector<ShapeResult> results;
    return infer(results);
  }

private:
  struct Input {
    int32_t type;
    Dims dims;
    std::vector<uint8_t> value;
  };
  static std::vector<uint8_t> bytes(const void *p, size_t n) {
    const auto *b = static_cast<const uint8_t *>(p);
    return std::vector<uint8_t>(b, b + n);
  }
  Op &add(int32_t type, Dims dims, std::vector<uint8_t> value) {
    ins.push_back({type, std::move(dims), std::move(value)});
    return *this;
  }
  int32_t code;
  std::deque<Input> ins; // stable addresses for ShapeOperand::dims
  std::vector<OperandDesc> outs;
};

/// CONV_2D, implicit padding: input, filter [out, kh, kw, in], bias, scheme,
/// strides, fuse.
Op conv(Dims input, Dims filter, int32_t scheme, int32_t stride) {
  Op op(ANEURALNETWORKS_CONV_2D);
  op.tensor(std::move(input)).tensor(filter).tensor({filter[0]});
  op.i32(scheme).i32(stride).i32(stride).i32(0).output(4);
  return op;
}

TEST(Shapes, ConvolutionWindows) {
  // SAME: ceil(in / stride); 17 / 2 -> 9, 40 / 2 -> 20.
  EXPECT_EQ(conv({1, 17, 40, 3}, {8, 3, 3, 3}, ANEURALNETWORKS_PADDING_SAME, 2)
                .dims(),
            (Dims{1, 9, 20, 8}));
  // VALID: (in - k) / stride + 1; (17 - 3) / 2 + 1 = 8, (40 - 3) / 2 + 1 = 19.
  EXPECT_EQ(conv({1, 17, 40, 3}, {8, 3, 3, 3}, ANEURALNETWORKS_PADDING_VALID, 2)
                .dims(),
            (Dims{1, 8, 19, 8}));
  EXPECT_EQ(conv({1, 2, 2, 3}, {8, 3, 3, 3}, ANEURALNETWORKS_PADDING_VALID, 1)
                .error(),
            "the window of 3 does not fit the height 2 plus padding");
  EXPECT_EQ(conv({1, 8, 8, 4}, {8, 3, 3, 3}, ANEURALNETWORKS_PADDING_SAME, 1)
                .error(),
            "filter input depth 3 does not match input depth 4");
  EXPECT_EQ(conv({1, 8, 8, 3}, {8, 3, 3, 3}, ANEURALNETWORKS_PADDING_SAME, 0)
                .error(),
            "stride_w must be positive");
  EXPECT_EQ(conv({1, 8, 8, 3}, {8, 3, 3, 3}, 7, 1).error(),
            "invalid padding scheme 7");
}

TEST(Shapes, PoolingInNCHW) {
  // MAX_POOL_2D, explicit padding 1 each side, 3x3, stride 2, NCHW:
  // [1, 5, 11, 7] -> H (11 + 2 - 3) / 2 + 1 = 6, W (7 + 2 - 3) / 2 + 1 = 4.
  Op op(ANEURALNETWORKS_MAX_POOL_2D);
  op.tensor({1, 5, 11, 7});
  for (int32_t v : {1, 1, 1, 1, 2, 2, 3, 3, 0})
    op.i32(v);
  op.boolean(true).output(4);
  EXPECT_EQ(op.dims(), (Dims{1, 5, 6, 4}));
}

TEST(Shapes, BroadcastsAndTypes) {
  Op add(ANEURALNETWORKS_ADD);
  add.tensor({4, 1, 3}).tensor({5, 1}).i32(0).output(3);
  EXPECT_EQ(add.dims(), (Dims{4, 5, 3}));
  Op less(ANEURALNETWORKS_LESS);
  less.tensor({2, 3}).tensor({3}).output(2, ANEURALNETWORKS_TENSOR_BOOL8);
  std::vector<ShapeResult> results;
  ASSERT_EQ(less.infer(results), "");
  EXPECT_EQ(results[0].type, ANEURALNETWORKS_TENSOR_BOOL8);
  EXPECT_EQ(results[0].dims, (Dims{2, 3}));
  Op bad(ANEURALNETWORKS_MUL);
  bad.tensor({2, 3}).tensor({4}).i32(0).output(2);
  EXPECT_EQ(bad.error(), "shapes [2,3] and [4] do not broadcast");
}

TEST(Shapes, MatricesAndReshapes) {
  // FULLY_CONNECTED flattens [2, 3, 8] into 6 rows of 8.
  Op fc(ANEURALNETWORKS_FULLY_CONNECTED);
  fc.tensor({2, 3, 8}).tensor({5, 8}).tensor({5}).i32(0).output(2);
  EXPECT_EQ(fc.dims(), (Dims{6, 5}));
  Op mm(ANEURALNETWORKS_BATCH_MATMUL);
  mm.tensor({2, 7, 4}).tensor({2, 5, 4}).boolean(false).boolean(true).output(3);
  EXPECT_EQ(mm.dims(), (Dims{2, 7, 5}));
  Op reshape(ANEURALNETWORKS_RESHAPE);
  reshape.tensor({2, 3, 4}).ints({4, -1}).output(2);
  EXPECT_EQ(reshape.dims(), (Dims{4, 6}));
  Op twice(ANEURALNETWORKS_RESHAPE);
  twice.tensor({2, 3, 4}).ints({-1, -1}).output(2);
  EXPECT_EQ(twice.error(), "shape has more than one -1");
  Op t(ANEURALNETWORKS_TRANSPOSE);
  t.tensor({2, 3, 4}).ints({2, 0, 1}).output(3);
  EXPECT_EQ(t.dims(), (Dims{4, 2, 3}));
}

TEST(Shapes, ReductionsConcatenationAndPadding) {
  Op mean(ANEURALNETWORKS_MEAN);
  mean.tensor({2, 3, 4}).ints({1, -1, 1}).i32(0).output(1);
  EXPECT_EQ(mean.dims(), (Dims{2}));
  Op kept(ANEURALNETWORKS_MEAN);
  kept.tensor({2, 3, 4}).ints({1}).i32(1).output(3);
  EXPECT_EQ(kept.dims(), (Dims{2, 1, 4}));
  Op concat(ANEURALNETWORKS_CONCATENATION);
  concat.tensor({2, 3}).tensor({2, 5}).i32(-1).output(2);
  EXPECT_EQ(concat.dims(), (Dims{2, 8}));
  Op ragged(ANEURALNETWORKS_CONCATENATION);
  ragged.tensor({2, 3}).tensor({4, 5}).tensor({2}).i32(1).output(2);
  EXPECT_EQ(ragged.error(), "input 1 differs from the first in dimension 0 "
                            "(4 vs 2), not the concatenation axis");
  // PAD's paddings are [rank, 2]: before and after each dimension.
  Op pad(ANEURALNETWORKS_PAD);
  pad.tensor({2, 3}).ints({1, 0, 2, 3}, {2, 2}).output(2);
  EXPECT_EQ(pad.dims(), (Dims{3, 8}));
  Op flat(ANEURALNETWORKS_PAD);
  flat.tensor({2, 3}).ints({1, 0, 2, 3, 0, 0}, {3, 2}).output(2);
  EXPECT_EQ(flat.error(), "paddings has shape [3,2], expected [2,2]");
  Op mirror(ANEURALNETWORKS_MIRROR_PAD);
  mirror.tensor({2, 3}).ints({0, 0, 3, 0}, {2, 2}).i32(0).output(2);
  EXPECT_EQ(mirror.error(), "mirror padding of dimension 1 exceeds 2 (REFLECT "
                            "mirrors at most that much of 3)");
}

} // namespace

TEST(Shapes, DataMovement) {
  // DEPTH_TO_SPACE NHWC, block 2: [1, 2, 3, 8] -> [1, 4, 6, 2].
  Op d2s(ANEURALNETWORKS_DEPTH_TO_SPACE);
  d2s.tensor({1, 2, 3, 8}).i32(2).output(4);
  EXPECT_EQ(d2s.dims(), (Dims{1, 4, 6, 2}));
  Op d2sBad(ANEURALNETWORKS_DEPTH_TO_SPACE);
  d2sBad.tensor({1, 2, 3, 6}).i32(2).output(4);
  EXPECT_EQ(d2sBad.error(), "depth 6 is not a multiple of block_size^2");
  // SPACE_TO_DEPTH NCHW (the layout flag): [1, 3, 4, 6] -> [1, 12, 2, 3].
  Op s2d(ANEURALNETWORKS_SPACE_TO_DEPTH);
  s2d.tensor({1, 3, 4, 6}).i32(2).boolean(true).output(4);
  EXPECT_EQ(s2d.dims(), (Dims{1, 12, 2, 3}));
  Op s2dBad(ANEURALNETWORKS_SPACE_TO_DEPTH);
  s2dBad.tensor({1, 5, 4, 3}).i32(2).output(4);
  EXPECT_EQ(s2dBad.error(),
            "height and width must be multiples of block_size 2");
  // GATHER on axis 1 with [2, 3] indices: [4, 5, 6] -> [4, 2, 3, 6];
  // constant indices are checked, computed ones are not.
  Op gather(ANEURALNETWORKS_GATHER);
  gather.tensor({4, 5, 6}).i32(1).tensor({2, 3}, ANEURALNETWORKS_TENSOR_INT32)
      .output(4);
  EXPECT_EQ(gather.dims(), (Dims{4, 2, 3, 6}));
  Op outside(ANEURALNETWORKS_GATHER);
  outside.tensor({4, 5}).i32(-1).ints({0, 5}).output(2);
  EXPECT_EQ(outside.error(), "index 5 is outside dimension 1 of size 5");
  Op deep(ANEURALNETWORKS_GATHER);
  deep.tensor({2, 3, 4}).i32(0).tensor({2, 2, 2}, ANEURALNETWORKS_TENSOR_INT32)
      .output(4);
  EXPECT_EQ(deep.error(), "the output has rank 5, more than 4");
  // SLICE: size -1 runs to the end.
  Op slice(ANEURALNETWORKS_SLICE);
  slice.tensor({4, 6}).ints({1, 2}).ints({2, -1}).output(2);
  EXPECT_EQ(slice.dims(), (Dims{2, 4}));
  Op sliceBad(ANEURALNETWORKS_SLICE);
  sliceBad.tensor({4, 6}).ints({1, 5}).ints({2, 2}).output(2);
  EXPECT_EQ(sliceBad.error(),
            "size 2 from 5 does not fit dimension 1 of size 6");
  // STRIDED_SLICE: [0:7:3] of 8 takes 3; a negative stride from the end
  // with the end mask takes 5 (7, 5, 3, 1... of 10 by -2); a shrunk axis
  // drops.
  Op strided(ANEURALNETWORKS_STRIDED_SLICE);
  strided.tensor({8, 10, 4})
      .ints({0, -1, 2})
      .ints({7, 0, 3})
      .ints({3, -2, 1})
      .i32(0)
      .i32(2)
      .i32(4)
      .output(2);
  EXPECT_EQ(strided.dims(), (Dims{3, 5}));
  Op zero(ANEURALNETWORKS_STRIDED_SLICE);
  zero.tensor({8}).ints({0}).ints({8}).ints({0}).i32(0).i32(0).i32(0).output(1);
  EXPECT_EQ(zero.error(), "strides must not be 0 (dimension 0)");
  Op empty(ANEURALNETWORKS_STRIDED_SLICE);
  empty.tensor({8}).ints({5}).ints({2}).ints({1}).i32(0).i32(0).i32(0)
      .output(1);
  EXPECT_EQ(empty.error(), "dimension 0 of the output would be empty");
  // SPLIT gives num_splits equal outputs.
  Op split(ANEURALNETWORKS_SPLIT);
  split.tensor({2, 6}).i32(1).i32(3).output(2).output(2).output(2);
  std::vector<ShapeResult> parts;
  EXPECT_EQ(split.infer(parts), "");
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[2].dims, (Dims{2, 2}));
  Op splitBad(ANEURALNETWORKS_SPLIT);
  splitBad.tensor({2, 5}).i32(1).i32(2).output(2).output(2);
  EXPECT_EQ(splitBad.error(),
            "num_splits 2 does not divide dimension 1 of size 5");
  // TILE multiplies each dimension.
  Op tile(ANEURALNETWORKS_TILE);
  tile.tensor({2, 3}).ints({3, 1}).output(2);
  EXPECT_EQ(tile.dims(), (Dims{6, 3}));
  Op tileBad(ANEURALNETWORKS_TILE);
  tileBad.tensor({2, 3}).ints({0, 1}).output(2);
  EXPECT_EQ(tileBad.error(), "multiples must be positive");
  // REVERSE and CHANNEL_SHUFFLE keep the shape, after their checks.
  Op reverse(ANEURALNETWORKS_REVERSE);
  reverse.tensor({2, 3}).ints({1}).output(2);
  EXPECT_EQ(reverse.dims(), (Dims{2, 3}));
  Op reverseBad(ANEURALNETWORKS_REVERSE);
  reverseBad.tensor({2, 3}).ints({2}).output(2);
  EXPECT_EQ(reverseBad.error(), "axis 2 out of range");
  Op shuffle(ANEURALNETWORKS_CHANNEL_SHUFFLE);
  shuffle.tensor({1, 6}).i32(4).i32(1).output(2);
  EXPECT_EQ(shuffle.error(), "num_groups 4 does not divide dimension 1 (6)");
}
