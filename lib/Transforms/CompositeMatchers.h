//===- CompositeMatchers.h - TOSA chains that mean one operation -*- C++ -*-===//
//
// Internal to nnapi-raise-composites: one matcher per composite of
// nnapi-mlir/Transforms/Composites.h, recognizing the TOSA chain the ONNX
// importer (or another TOSA producer) writes for it, rooted at its last op.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_TRANSFORMS_COMPOSITEMATCHERS_H
#define NNAPI_MLIR_LIB_TRANSFORMS_COMPOSITEMATCHERS_H

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

#include <optional>

namespace mlir::nnapi::detail {


/// The ops of a decomposed softmax: mul(exp(x - max(x)), 1 / sum(exp(...))).
struct SoftmaxMatch {
  tosa::ReduceMaxOp max;
  tosa::SubOp sub;
  tosa::ExpOp exp;
  tosa::ReduceSumOp sum;
  tosa::ReciprocalOp reciprocal;
  tosa::MulOp mul;
  Value input;
  int64_t axis;
};

/// A decomposed mean: mul(reduce_sum(...(reduce_sum(x, a0)...), a_n), 1/N)
/// with N the number of elements reduced. Members are the sums and the mul.
struct MeanMatch {
  SmallVector<Operation *> members;
  Value input;
  SmallVector<int64_t> axes;
};

/// A decomposed hard swish: mul(x, clamp(add(mul(x, 1/6), 1/2), 0, 1)), as
/// the ONNX importer writes HardSwish. Members: inner mul, add, clamp, mul.
struct HardSwishMatch {
  SmallVector<Operation *> members;
  Value input;
};

/// A decomposed PReLU (or LeakyRelu): add(clamp(x, 0, max),
/// mul(clamp(x, -max, 0), slope)), as the ONNX importer writes them.
/// Members: both clamps, mul, add.
struct PreluMatch {
  SmallVector<Operation *> members;
  Value input, slope;
};

/// A decomposed ELU: add(clamp(x, 0, max), mul(sub(exp(clamp(x, -max, 0)),
/// 1), alpha)) with a constant alpha >= 0 (NNAPI's ELU is max(0, x) +
/// min(0, alpha (exp(x) - 1)), which differs for a negative alpha).
/// Members: both clamps, exp, sub, mul, add.
struct EluMatch {
  SmallVector<Operation *> members;
  Value input;
  double alpha;
};

/// A decomposed log-softmax: sub(s, log(reduce_sum(exp(s)))) with
/// s = sub(x, reduce_max(x)) over one axis. Members: reduce_max, the first
/// sub, exp, reduce_sum, log, the last sub.
struct LogSoftmaxMatch {
  SmallVector<Operation *> members;
  Value input;
  int64_t axis;
};

/// A decomposed instance normalization: (x - mean(x)) * rsqrt(mean((x -
/// mean(x))^2) + epsilon) with both means over the spatial dimensions of a
/// 4-D tensor, {2, 3} (NCHW, as the ONNX importer writes
/// InstanceNormalization) or {1, 2} (NHWC). Members: both means, sub, the
/// square, add, rsqrt and the final mul; the per-channel scale and bias that
/// follow stay MUL and ADD (NNAPI's gamma and beta are scalars).
struct InstanceNormMatch {
  SmallVector<Operation *> members;
  Value input;
  double epsilon;
  bool nchw;
};

/// A decomposed mirror pad along one axis, as the ONNX importer writes Pad
/// with mode "reflect": concat(reverse(slice(x)), x, reverse(slice(x)))
/// (either side may be missing). The slices start at 1 and end 1 before the
/// last element (REFLECT) or include the edge (SYMMETRIC). Members: slices,
/// reverses, concat.
struct MirrorPadMatch {
  SmallVector<Operation *> members;
  Value input;
  int64_t axis, before = 0, after = 0;
  bool symmetric;
};

/// DepthToSpace (DCR) and SpaceToDepth of an NCHW tensor as the ONNX
/// importer writes them: a reshape to rank 6, a transpose, a reshape back to
/// rank 4. Members: both reshapes and the transpose.
struct DepthSpaceMatch {
  SmallVector<Operation *> members;
  Value input;
  int64_t block;
  bool toSpace;
};

/// A grouped convolution as the ONNX importer writes it: per group g, a
/// conv2d of the channel slice [g * c, (g + 1) * c) of one NHWC input, with
/// constant weights and bias and the same window, concatenated along the
/// channels in group order. Members: the slices, convolutions and concat.
struct GroupedConvMatch {
  SmallVector<Operation *> members;
  SmallVector<tosa::Conv2DOp> convs;
  Value input;
};

/// Every step-th element of one axis as the importer writes a stepped ONNX
/// Slice: x (zero-padded at the end to count * step elements there, by less
/// than a step), reshaped to [count, step] at that axis, column 0 sliced,
/// reshaped back (or, after folding, straight to the shape a later reshape
/// wanted). Members: the pad, both reshapes and the column slice.
struct StridedSliceMatch {
  SmallVector<Operation *> members;
  Value input;
  int64_t axis, step;
};

/// A split as the importer writes ONNX Split: tosa.slice ops of one input in
/// one block that cut one dimension into equal pieces, each piece once (a
/// repeated piece stays a SLICE). Any of the slices finds all of them;
/// members are the slices in order along the axis.
struct SplitMatch {
  SmallVector<Operation *> members;
  Value input;
  int64_t axis;
};

/// A channel shuffle as exported models write it (ShuffleNet): x [..., C,
/// ...] reshaped to [..., g, C / g, ...], the two transposed, reshaped back.
/// Members: both reshapes and the transpose.
struct ChannelShuffleMatch {
  SmallVector<Operation *> members;
  Value input;
  int64_t groups, axis;
};

/// Local response normalization as the ONNX importer writes LRN:
/// mul(x, pow(add(mul(sum, k), bias), -beta)) with sum the add of the
/// `size` slices of pad(mul(x, x)) shifted by 0..size-1 along one axis
/// (padded by (size - 1) / 2 on both sides, size odd). Members: the square,
/// pad, slices, adds, the scale, bias add, pow and the final mul.
struct LocalResponseMatch {
  SmallVector<Operation *> members;
  Value input;
  int64_t radius, axis;
  double bias, alpha, beta;
};

/// x * select(equal(s, 0), 0, rsqrt(s)), s = reduce_sum(x * x) along one
/// axis: x divided by its L2 norm, zeros for a vector of zeros (how the ONNX
/// importer writes LpNormalization with p = 2; NaN stays NaN). Members: the
/// square, the sum, the equal, the rsqrt, the select, the mul.
struct L2NormMatch {
  SmallVector<Operation *> members;
  Value input;
  int64_t axis;
};

/// logical_not(equal(a, b)): NOT_EQUAL. Members: the equal, the not.
struct NotEqualMatch {
  SmallVector<Operation *> members;
  tosa::EqualOp equal;
};

/// argmax(negate(x)), how the ONNX importer writes ArgMin: ARGMIN of x.
/// Members: the negate, the argmax.
struct ArgMinMatch {
  SmallVector<Operation *> members;
  Value input;
};

std::optional<SoftmaxMatch> matchSoftmax(tosa::MulOp mul);

/// Matches `mul(x, c)` in either operand order, c a splat constant; returns
/// x and c.
std::optional<std::pair<Value, double>> matchScale(tosa::MulOp mul);

/// `a` and `b` agree to the rounding of `type` (constants folded in the
/// tensor's float type from a double the matcher recomputes): float16 keeps
/// 11 significant bits, float32 24.
bool sameFloat(double a, double b, Type type);

std::optional<MeanMatch> matchMean(tosa::MulOp mul);

std::optional<HardSwishMatch> matchHardSwish(tosa::MulOp mul);

/// `v`'s producer when it is a tosa.clamp of one use to [0, +max]
/// (`positive`) or [-max, 0].
tosa::ClampOp matchHalfClamp(Value v, bool positive);

std::optional<PreluMatch> matchPrelu(tosa::AddOp add);

std::optional<EluMatch> matchElu(tosa::AddOp add);

std::optional<LogSoftmaxMatch> matchLogSoftmax(tosa::SubOp root);

std::optional<InstanceNormMatch> matchInstanceNorm(tosa::MulOp root);

std::optional<MirrorPadMatch> matchMirrorPad(tosa::ConcatOp concat);

std::optional<DepthSpaceMatch> matchDepthSpace(tosa::ReshapeOp root);

std::optional<GroupedConvMatch> matchGroupedConv(tosa::ConcatOp concat);

/// Whether `split` is `x` with dimension a cut into split[a], split[a + 1].
bool splitsAxis(ArrayRef<int64_t> split, ArrayRef<int64_t> x, int64_t a);

std::optional<StridedSliceMatch> matchStridedSlice(tosa::ReshapeOp root);

std::optional<SplitMatch> matchSplit(tosa::SliceOp op);

std::optional<ChannelShuffleMatch> matchChannelShuffle(tosa::ReshapeOp root);

std::optional<LocalResponseMatch> matchLocalResponse(tosa::MulOp root);

std::optional<L2NormMatch> matchL2Normalization(tosa::MulOp root);

std::optional<NotEqualMatch> matchNotEqual(tosa::LogicalNotOp op);

std::optional<ArgMinMatch> matchArgMin(tosa::ArgMaxOp op);

} // namespace mlir::nnapi::detail

#endif // NNAPI_MLIR_LIB_TRANSFORMS_COMPOSITEMATCHERS_H
