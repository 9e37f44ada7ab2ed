//===- TosaToNNAPI.cpp - TOSA to nnapi: legality and patterns -------------===//

#include "nnapi-mlir/Conversion/TosaToNNAPI/TosaToNNAPI.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/Constants.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/Fusion.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cfloat>
#include <cstdio>

using namespace mlir;
using namespace mlir::nnapi;

//===----------------------------------------------------------------------===//
// Composite patterns
//===----------------------------------------------------------------------===//

namespace {
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

std::optional<SoftmaxMatch> matchSoftmax(tosa::MulOp mul) {
  if (!mul || mul.getShift() != 0)
    return std::nullopt;
  SoftmaxMatch m;
  m.mul = mul;
  for (int i = 0; i < 2; ++i) {
    m.exp = mul->getOperand(i).getDefiningOp<tosa::ExpOp>();
    m.reciprocal = mul->getOperand(1 - i).getDefiningOp<tosa::ReciprocalOp>();
    if (m.exp && m.reciprocal)
      break;
  }
  if (!m.exp || !m.reciprocal)
    return std::nullopt;
  m.sum = m.reciprocal.getInput1().getDefiningOp<tosa::ReduceSumOp>();
  m.sub = m.exp.getInput1().getDefiningOp<tosa::SubOp>();
  if (!m.sum || !m.sub || m.sum.getInput() != m.exp.getResult())
    return std::nullopt;
  m.max = m.sub.getInput2().getDefiningOp<tosa::ReduceMaxOp>();
  if (!m.max || m.max.getInput() != m.sub.getInput1() ||
      m.max.getAxis() != m.sum.getAxis())
    return std::nullopt;
  // Every intermediate value stays inside the pattern.
  if (!m.max->hasOneUse() || !m.sub->hasOneUse() || !m.sum->hasOneUse() ||
      !m.reciprocal->hasOneUse() ||
      std::distance(m.exp->use_begin(), m.exp->use_end()) != 2)
    return std::nullopt;
  m.input = m.sub.getInput1();
  m.axis = m.max.getAxis();
  return m;
}

/// A float constant that holds one value everywhere.
std::optional<double> splatValue(Value v) {
  DenseFPElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat())
    return std::nullopt;
  return attr.getSplatValue<APFloat>().convertToDouble();
}

/// Matches `mul(x, c)` in either operand order, c a splat constant; returns
/// x and c.
std::optional<std::pair<Value, double>> matchScale(tosa::MulOp mul) {
  if (!mul || mul.getShift() != 0)
    return std::nullopt;
  for (int i = 0; i < 2; ++i)
    if (std::optional<double> c = splatValue(mul->getOperand(1 - i)))
      return std::make_pair(mul->getOperand(i), *c);
  return std::nullopt;
}

/// `a` and `b` agree to the rounding of `type` (constants folded in the
/// tensor's float type from a double the matcher recomputes): float16 keeps
/// 11 significant bits, float32 24.
bool sameFloat(double a, double b, Type type) {
  double tolerance = getElementTypeOrSelf(type).isF16() ? 1e-3 : 1e-6;
  return std::abs(a - b) <= tolerance * std::max(std::abs(a), std::abs(b));
}

/// A decomposed mean: mul(reduce_sum(...(reduce_sum(x, a0)...), a_n), 1/N)
/// with N the number of elements reduced. Members are the sums and the mul.
struct MeanMatch {
  SmallVector<Operation *> members;
  Value input;
  SmallVector<int64_t> axes;
};

std::optional<MeanMatch> matchMean(tosa::MulOp mul) {
  std::optional<std::pair<Value, double>> scale = matchScale(mul);
  if (!scale)
    return std::nullopt;
  MeanMatch m;
  Value v = scale->first;
  int64_t count = 1;
  while (auto sum = v.getDefiningOp<tosa::ReduceSumOp>()) {
    // Every sum but the outermost feeds only the next one.
    if (!m.members.empty() && !sum->hasOneUse())
      break;
    auto type = dyn_cast<RankedTensorType>(sum.getInput().getType());
    if (!type || !type.hasStaticShape())
      return std::nullopt;
    count *= type.getDimSize(sum.getAxis());
    m.axes.push_back(sum.getAxis());
    m.members.insert(m.members.begin(), sum);
    v = sum.getInput();
  }
  if (m.members.empty() || !m.members.back()->hasOneUse() ||
      !sameFloat(scale->second, 1.0 / double(count), mul.getType()))
    return std::nullopt;
  llvm::sort(m.axes);
  if (std::adjacent_find(m.axes.begin(), m.axes.end()) != m.axes.end())
    return std::nullopt;
  m.members.push_back(mul);
  m.input = v;
  return m;
}

/// A decomposed hard swish: mul(x, clamp(add(mul(x, 1/6), 1/2), 0, 1)), as
/// the ONNX importer writes HardSwish. Members: inner mul, add, clamp, mul.
struct HardSwishMatch {
  SmallVector<Operation *> members;
  Value input;
};

std::optional<HardSwishMatch> matchHardSwish(tosa::MulOp mul) {
  if (!mul || mul.getShift() != 0)
    return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    Value x = mul->getOperand(i);
    auto clamp = mul->getOperand(1 - i).getDefiningOp<tosa::ClampOp>();
    if (!clamp || clamp.getMinFp().convertToDouble() != 0.0 ||
        clamp.getMaxFp().convertToDouble() != 1.0 || !clamp->hasOneUse())
      continue;
    auto add = clamp.getInput().getDefiningOp<tosa::AddOp>();
    if (!add || !add->hasOneUse())
      continue;
    for (int j = 0; j < 2; ++j) {
      auto inner = add->getOperand(j).getDefiningOp<tosa::MulOp>();
      std::optional<double> half = splatValue(add->getOperand(1 - j));
      std::optional<std::pair<Value, double>> scale = matchScale(inner);
      if (!half || *half != 0.5 || !scale || scale->first != x ||
          !sameFloat(scale->second, 1.0 / 6.0, inner.getType()) ||
          !inner->hasOneUse())
        continue;
      // x is the shape of the result: no broadcasting hides in the pattern.
      if (x.getType() != mul.getType() || add.getType() != mul.getType())
        continue;
      return HardSwishMatch{{inner, add, clamp, mul}, x};
    }
  }
  return std::nullopt;
}

/// `v`'s producer when it is a tosa.clamp of one use to [0, +max]
/// (`positive`) or [-max, 0].
tosa::ClampOp matchHalfClamp(Value v, bool positive) {
  auto clamp = v.getDefiningOp<tosa::ClampOp>();
  if (!clamp || !clamp->hasOneUse())
    return {};
  double lo = clamp.getMinFp().convertToDouble();
  double hi = clamp.getMaxFp().convertToDouble();
  bool ok = positive ? lo == 0.0 && hi >= FLT_MAX : lo <= -FLT_MAX && hi == 0.0;
  return ok ? clamp : tosa::ClampOp();
}

/// A decomposed PReLU (or LeakyRelu): add(clamp(x, 0, max),
/// mul(clamp(x, -max, 0), slope)), as the ONNX importer writes them.
/// Members: both clamps, mul, add.
struct PreluMatch {
  SmallVector<Operation *> members;
  Value input, slope;
};

std::optional<PreluMatch> matchPrelu(tosa::AddOp add) {
  if (!add)
    return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    tosa::ClampOp pos = matchHalfClamp(add->getOperand(i), true);
    auto mul = add->getOperand(1 - i).getDefiningOp<tosa::MulOp>();
    if (!pos || !mul || mul.getShift() != 0 || !mul->hasOneUse())
      continue;
    for (int j = 0; j < 2; ++j) {
      tosa::ClampOp neg = matchHalfClamp(mul->getOperand(j), false);
      if (!neg || neg.getInput() != pos.getInput() ||
          pos.getInput().getType() != add.getType())
        continue;
      return PreluMatch{{pos, neg, mul, add}, pos.getInput(),
                        mul->getOperand(1 - j)};
    }
  }
  return std::nullopt;
}

/// A decomposed ELU: add(clamp(x, 0, max), mul(sub(exp(clamp(x, -max, 0)),
/// 1), alpha)) with a constant alpha >= 0 (NNAPI's ELU is max(0, x) +
/// min(0, alpha (exp(x) - 1)), which differs for a negative alpha).
/// Members: both clamps, exp, sub, mul, add.
struct EluMatch {
  SmallVector<Operation *> members;
  Value input;
  double alpha;
};

std::optional<EluMatch> matchElu(tosa::AddOp add) {
  if (!add)
    return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    tosa::ClampOp pos = matchHalfClamp(add->getOperand(i), true);
    std::optional<std::pair<Value, double>> scale =
        matchScale(add->getOperand(1 - i).getDefiningOp<tosa::MulOp>());
    if (!pos || !scale || !(scale->second >= 0.0))
      continue;
    Operation *mul = add->getOperand(1 - i).getDefiningOp();
    auto sub = scale->first.getDefiningOp<tosa::SubOp>();
    if (!mul->hasOneUse() || !sub || !sub->hasOneUse() ||
        splatValue(sub.getInput2()) != 1.0)
      continue;
    auto exp = sub.getInput1().getDefiningOp<tosa::ExpOp>();
    if (!exp || !exp->hasOneUse())
      continue;
    tosa::ClampOp neg = matchHalfClamp(exp.getInput1(), false);
    if (!neg || neg.getInput() != pos.getInput() ||
        pos.getInput().getType() != add.getType() ||
        sub.getType() != add.getType())
      continue;
    return EluMatch{{pos, neg, exp, sub, mul, add}, pos.getInput(),
                    scale->second};
  }
  return std::nullopt;
}

/// A decomposed log-softmax: sub(s, log(reduce_sum(exp(s)))) with
/// s = sub(x, reduce_max(x)) over one axis. Members: reduce_max, the first
/// sub, exp, reduce_sum, log, the last sub.
struct LogSoftmaxMatch {
  SmallVector<Operation *> members;
  Value input;
  int64_t axis;
};

std::optional<LogSoftmaxMatch> matchLogSoftmax(tosa::SubOp root) {
  if (!root)
    return std::nullopt;
  auto shifted = root.getInput1().getDefiningOp<tosa::SubOp>();
  auto log = root.getInput2().getDefiningOp<tosa::LogOp>();
  if (!shifted || !log || !log->hasOneUse())
    return std::nullopt;
  auto sum = log.getInput1().getDefiningOp<tosa::ReduceSumOp>();
  if (!sum || !sum->hasOneUse())
    return std::nullopt;
  auto exp = sum.getInput().getDefiningOp<tosa::ExpOp>();
  auto max = shifted.getInput2().getDefiningOp<tosa::ReduceMaxOp>();
  if (!exp || !exp->hasOneUse() || exp.getInput1() != shifted.getResult() ||
      !max || !max->hasOneUse() || max.getInput() != shifted.getInput1() ||
      max.getAxis() != sum.getAxis() ||
      std::distance(shifted->use_begin(), shifted->use_end()) != 2 ||
      shifted.getType() != root.getType())
    return std::nullopt;
  return LogSoftmaxMatch{{max, shifted, exp, sum, log, root},
                         shifted.getInput1(), int64_t(max.getAxis())};
}

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

std::optional<InstanceNormMatch> matchInstanceNorm(tosa::MulOp root) {
  if (!root || root.getShift() != 0)
    return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    auto centered = root->getOperand(i).getDefiningOp<tosa::SubOp>();
    auto rsqrt = root->getOperand(1 - i).getDefiningOp<tosa::RsqrtOp>();
    if (!centered || !rsqrt || !rsqrt->hasOneUse())
      continue;
    auto add = rsqrt.getInput1().getDefiningOp<tosa::AddOp>();
    if (!add || !add->hasOneUse())
      continue;
    for (int j = 0; j < 2; ++j) {
      std::optional<double> eps = splatValue(add->getOperand(1 - j));
      auto varMul = add->getOperand(j).getDefiningOp<tosa::MulOp>();
      std::optional<MeanMatch> var = matchMean(varMul);
      if (!eps || !(*eps > 0.0) || !var || !varMul->hasOneUse())
        continue;
      auto square = var->input.getDefiningOp<tosa::MulOp>();
      if (!square || square.getShift() != 0 || !square->hasOneUse() ||
          square.getInput1() != centered.getResult() ||
          square.getInput2() != centered.getResult())
        continue;
      auto muMul = centered.getInput2().getDefiningOp<tosa::MulOp>();
      std::optional<MeanMatch> mu = matchMean(muMul);
      Value x = centered.getInput1();
      if (!mu || !muMul->hasOneUse() || mu->input != x || mu->axes != var->axes ||
          x.getType() != root.getType() ||
          !llvm::all_of(centered->getUsers(), [&](Operation *u) {
            return u == square.getOperation() || u == root.getOperation();
          }))
        continue;
      auto type = cast<RankedTensorType>(x.getType());
      bool nchw = mu->axes == ArrayRef<int64_t>{2, 3};
      if (type.getRank() != 4 || (!nchw && mu->axes != ArrayRef<int64_t>{1, 2}))
        continue;
      InstanceNormMatch m{mu->members, x, *eps, nchw};
      m.members.push_back(centered);
      m.members.push_back(square);
      llvm::append_range(m.members, var->members);
      m.members.append({add, rsqrt, root});
      return m;
    }
  }
  return std::nullopt;
}

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

std::optional<MirrorPadMatch> matchMirrorPad(tosa::ConcatOp concat) {
  if (!concat)
    return std::nullopt;
  ValueRange parts = concat.getInput1();
  int64_t axis = concat.getAxis();
  // The middle operand is x: the one that is not a reversed slice of it.
  auto reversedSlice = [&](Value v) -> std::pair<tosa::ReverseOp, tosa::SliceOp> {
    auto rev = v.getDefiningOp<tosa::ReverseOp>();
    if (!rev || !rev->hasOneUse() || rev.getAxis() != axis)
      return {};
    auto slice = rev.getInput().getDefiningOp<tosa::SliceOp>();
    if (!slice || !slice->hasOneUse())
      return {};
    return {rev, slice};
  };
  for (size_t mid = 0; mid < parts.size() && mid < 2; ++mid) {
    if (parts.size() - mid > 2 || parts.size() < 2)
      continue;
    Value x = parts[mid];
    auto type = dyn_cast<RankedTensorType>(x.getType());
    if (!type || !type.hasStaticShape() || reversedSlice(x).first)
      continue;
    int64_t n = type.getDimSize(axis);
    MirrorPadMatch m{{}, x, axis, 0, 0, false};
    std::optional<bool> symmetric;
    bool ok = true;
    for (size_t k = 0; k < parts.size() && ok; ++k) {
      if (k == mid)
        continue;
      auto [rev, slice] = reversedSlice(parts[k]);
      ok = rev && slice.getInput() == x;
      if (!ok)
        break;
      ArrayRef<int64_t> start = slice.getStart(), size = slice.getSize();
      for (int64_t d = 0; d < type.getRank() && ok; ++d)
        if (d != axis)
          ok = start[d] == 0 && size[d] == type.getDimSize(d);
      int64_t count = size[axis];
      // Before x: [skip, skip + count); after: [n - skip - count, n - skip).
      int64_t skip = k < mid ? start[axis] : n - start[axis] - count;
      ok = ok && (skip == 0 || skip == 1) &&
           (!symmetric || *symmetric == (skip == 0));
      symmetric = skip == 0;
      (k < mid ? m.before : m.after) = count;
      m.members.append({slice, rev});
    }
    if (!ok || !symmetric)
      continue;
    m.symmetric = *symmetric;
    m.members.push_back(concat);
    return m;
  }
  return std::nullopt;
}

/// DepthToSpace (DCR) and SpaceToDepth of an NCHW tensor as the ONNX
/// importer writes them: a reshape to rank 6, a transpose, a reshape back to
/// rank 4. Members: both reshapes and the transpose.
struct DepthSpaceMatch {
  SmallVector<Operation *> members;
  Value input;
  int64_t block;
  bool toSpace;
};

std::optional<DepthSpaceMatch> matchDepthSpace(tosa::ReshapeOp root) {
  if (!root)
    return std::nullopt;
  auto transpose = root.getInput1().getDefiningOp<tosa::TransposeOp>();
  SmallVector<int64_t> perm;
  if (!transpose || !transpose->hasOneUse() ||
      failed(transpose.getConstantPerms(perm)))
    return std::nullopt;
  auto inner = transpose.getInput1().getDefiningOp<tosa::ReshapeOp>();
  if (!inner || !inner->hasOneUse())
    return std::nullopt;
  auto x = dyn_cast<RankedTensorType>(inner.getInput1().getType());
  auto mid = dyn_cast<RankedTensorType>(inner.getType());
  auto out = dyn_cast<RankedTensorType>(root.getType());
  if (!x || !mid || !out || !x.hasStaticShape() || !mid.hasStaticShape() ||
      !out.hasStaticShape() || x.getRank() != 4 || mid.getRank() != 6 ||
      out.getRank() != 4)
    return std::nullopt;
  ArrayRef<int64_t> s = x.getShape(), m = mid.getShape();
  int64_t n = s[0], c = s[1], h = s[2], w = s[3];
  DepthSpaceMatch match{{inner, transpose, root}, inner.getInput1(), 0, false};
  if (perm == ArrayRef<int64_t>{0, 3, 4, 1, 5, 2}) {
    // [n, b, b, c / b^2, h, w] -> [n, c / b^2, h, b, w, b].
    int64_t b = m[1];
    if (b < 1 || m[2] != b || c % (b * b) ||
        m != ArrayRef<int64_t>{n, b, b, c / (b * b), h, w} ||
        out.getShape() != ArrayRef<int64_t>{n, c / (b * b), h * b, w * b})
      return std::nullopt;
    match.block = b;
    match.toSpace = true;
    return match;
  }
  if (perm == ArrayRef<int64_t>{0, 3, 5, 1, 2, 4}) {
    // [n, c, h / b, b, w / b, b] -> [n, b, b, c, h / b, w / b].
    int64_t b = m[3];
    if (b < 1 || m[5] != b || h % b || w % b ||
        m != ArrayRef<int64_t>{n, c, h / b, b, w / b, b} ||
        out.getShape() != ArrayRef<int64_t>{n, c * b * b, h / b, w / b})
      return std::nullopt;
    match.block = b;
    return match;
  }
  return std::nullopt;
}

/// A grouped convolution as the ONNX importer writes it: per group g, a
/// conv2d of the channel slice [g * c, (g + 1) * c) of one NHWC input, with
/// constant weights and bias and the same window, concatenated along the
/// channels in group order. Members: the slices, convolutions and concat.
struct GroupedConvMatch {
  SmallVector<Operation *> members;
  SmallVector<tosa::Conv2DOp> convs;
  Value input;
};

std::optional<GroupedConvMatch> matchGroupedConv(tosa::ConcatOp concat) {
  if (!concat || concat.getAxis() != 3 || concat.getInput1().size() < 2)
    return std::nullopt;
  GroupedConvMatch m;
  tosa::Conv2DOp first;
  for (auto [g, part] : llvm::enumerate(concat.getInput1())) {
    auto conv = part.getDefiningOp<tosa::Conv2DOp>();
    if (!conv || !conv->hasOneUse() || conv.getQuantizationInfo() ||
        !matchPattern(conv.getWeight(), m_Constant()) ||
        !matchPattern(conv.getBias(), m_Constant()) ||
        llvm::any_of(conv.getDilation(), [](int64_t d) { return d != 1; }))
      return std::nullopt;
    auto slice = conv.getInput().getDefiningOp<tosa::SliceOp>();
    if (!slice || !slice->hasOneUse())
      return std::nullopt;
    auto in = dyn_cast<RankedTensorType>(slice.getInput().getType());
    auto piece = cast<RankedTensorType>(slice.getType());
    if (!in || in.getRank() != 4 || !piece.hasStaticShape())
      return std::nullopt;
    int64_t c = piece.getDimSize(3);
    if (slice.getStart() != ArrayRef<int64_t>{0, 0, 0, int64_t(g) * c} ||
        piece.getShape().take_front(3) != in.getShape().take_front(3))
      return std::nullopt;
    if (!first) {
      first = conv;
      m.input = slice.getInput();
      if (in.getDimSize(3) != c * int64_t(concat.getInput1().size()))
        return std::nullopt;
    } else if (slice.getInput() != m.input ||
               conv.getPad() != first.getPad() ||
               conv.getStride() != first.getStride() ||
               conv.getWeight().getType() != first.getWeight().getType()) {
      return std::nullopt;
    }
    m.members.append({slice, conv});
    m.convs.push_back(conv);
  }
  m.members.push_back(concat);
  return m;
}

/// Whether `split` is `x` with dimension a cut into split[a], split[a + 1].
bool splitsAxis(ArrayRef<int64_t> split, ArrayRef<int64_t> x, int64_t a) {
  SmallVector<int64_t> merged(split);
  merged[a] *= merged[a + 1];
  merged.erase(merged.begin() + a + 1);
  return ArrayRef<int64_t>(merged) == x;
}

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

std::optional<StridedSliceMatch> matchStridedSlice(tosa::ReshapeOp root) {
  if (!root)
    return std::nullopt;
  auto column = root.getInput1().getDefiningOp<tosa::SliceOp>();
  if (!column || !column->hasOneUse())
    return std::nullopt;
  auto rows = column.getInput().getDefiningOp<tosa::ReshapeOp>();
  if (!rows || !rows->hasOneUse())
    return std::nullopt;
  auto y = dyn_cast<RankedTensorType>(rows.getInput1().getType());
  auto r = dyn_cast<RankedTensorType>(rows.getType());
  if (!y || !r || !y.hasStaticShape() || !r.hasStaticShape() ||
      r.getRank() != y.getRank() + 1)
    return std::nullopt;
  // The axis a of y that became [count, step] at a, a + 1.
  std::optional<int64_t> axis;
  for (int64_t a = 0; a < y.getRank() && !axis; ++a) {
    if (splitsAxis(r.getShape(), y.getShape(), a) && r.getDimSize(a + 1) > 1)
      axis = a;
  }
  if (!axis)
    return std::nullopt;
  int64_t a = *axis, step = r.getDimSize(a + 1);
  SmallVector<int64_t> firstColumn(r.getShape());
  firstColumn[a + 1] = 1;
  if (!llvm::all_of(column.getStart(), [](int64_t v) { return v == 0; }) ||
      column.getSize() != ArrayRef<int64_t>(firstColumn))
    return std::nullopt;
  // y is x or x padded at the end of the axis by less than a step.
  SmallVector<Operation *> members;
  Value x = rows.getInput1();
  Operation *def = x.getDefiningOp();
  if (auto pad = dyn_cast_or_null<tosa::PadOp>(def)) {
    DenseIntElementsAttr pads;
    if (!pad->hasOneUse() || !matchPattern(pad.getPadding(), m_Constant(&pads)))
      return std::nullopt;
    SmallVector<int64_t> p = llvm::to_vector(pads.getValues<int64_t>());
    for (int64_t i = 0; i < int64_t(p.size()); ++i)
      if (p[i] != 0 && i != 2 * a + 1)
        return std::nullopt;
    if (p[2 * a + 1] >= step)
      return std::nullopt;
    members.push_back(pad);
    x = pad.getInput1();
  }
  llvm::append_range(members, SmallVector<Operation *>{rows, column, root});
  return StridedSliceMatch{std::move(members), x, a, step};
}

/// A split as the importer writes ONNX Split: tosa.slice ops of one input in
/// one block that cut one dimension into equal pieces, each piece once (a
/// repeated piece stays a SLICE). Any of the slices finds all of them;
/// members are the slices in order along the axis.
struct SplitMatch {
  SmallVector<Operation *> members;
  Value input;
  int64_t axis;
};

std::optional<SplitMatch> matchSplit(tosa::SliceOp op) {
  if (!op)
    return std::nullopt;
  auto type = dyn_cast<RankedTensorType>(op.getInput().getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  ArrayRef<int64_t> shape = type.getShape(), size = op.getSize(),
                    start = op.getStart();
  // The one dimension the slice cuts; it starts at 0 in all others.
  std::optional<int64_t> axis;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (size[d] == shape[d] && start[d] == 0)
      continue;
    if (axis)
      return std::nullopt;
    axis = d;
  }
  if (!axis || size[*axis] < 1 || shape[*axis] % size[*axis])
    return std::nullopt;
  int64_t piece = size[*axis], parts = shape[*axis] / piece;
  SmallVector<Operation *> slices(parts, nullptr);
  for (Operation *user : op.getInput().getUsers()) {
    auto s = dyn_cast<tosa::SliceOp>(user);
    if (!s || s->getBlock() != op->getBlock() || s.getSize() != size)
      continue;
    ArrayRef<int64_t> b = s.getStart();
    bool sameElsewhere = llvm::all_of(llvm::seq<int64_t>(0, type.getRank()),
                                      [&](int64_t d) {
                                        return d == *axis || b[d] == 0;
                                      });
    if (!sameElsewhere || b[*axis] % piece)
      continue;
    Operation *&slot = slices[b[*axis] / piece];
    if (!slot || user == op) // the matched slice holds its own piece
      slot = user;
  }
  if (llvm::is_contained(slices, nullptr))
    return std::nullopt;
  return SplitMatch{std::move(slices), op.getInput(), *axis};
}

/// A channel shuffle as exported models write it (ShuffleNet): x [..., C,
/// ...] reshaped to [..., g, C / g, ...], the two transposed, reshaped back.
/// Members: both reshapes and the transpose.
struct ChannelShuffleMatch {
  SmallVector<Operation *> members;
  Value input;
  int64_t groups, axis;
};

std::optional<ChannelShuffleMatch> matchChannelShuffle(tosa::ReshapeOp root) {
  if (!root)
    return std::nullopt;
  auto transpose = root.getInput1().getDefiningOp<tosa::TransposeOp>();
  SmallVector<int64_t> perm;
  if (!transpose || !transpose->hasOneUse() ||
      failed(transpose.getConstantPerms(perm)))
    return std::nullopt;
  auto inner = transpose.getInput1().getDefiningOp<tosa::ReshapeOp>();
  if (!inner || !inner->hasOneUse() || root.getType() != inner.getInput1().getType())
    return std::nullopt;
  auto x = dyn_cast<RankedTensorType>(inner.getInput1().getType());
  auto mid = dyn_cast<RankedTensorType>(inner.getType());
  if (!x || !mid || !x.hasStaticShape() || !mid.hasStaticShape() ||
      mid.getRank() != x.getRank() + 1)
    return std::nullopt;
  // The split dimension a: x's dimension a became (g, C / g) at a, a + 1;
  // the permutation swaps exactly those two.
  for (int64_t a = 0; a < x.getRank(); ++a) {
    SmallVector<int64_t> expected = llvm::to_vector(llvm::seq<int64_t>(0, mid.getRank()));
    std::swap(expected[a], expected[a + 1]);
    if (perm != ArrayRef<int64_t>(expected))
      continue;
    if (!splitsAxis(mid.getShape(), x.getShape(), a) || mid.getDimSize(a) < 1)
      return std::nullopt;
    return ChannelShuffleMatch{{inner, transpose, root}, inner.getInput1(),
                               mid.getDimSize(a), a};
  }
  return std::nullopt;
}

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

std::optional<LocalResponseMatch> matchLocalResponse(tosa::MulOp root) {
  if (!root || root.getShift() != 0)
    return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    Value x = root->getOperand(i);
    auto pow = root->getOperand(1 - i).getDefiningOp<tosa::PowOp>();
    std::optional<double> exponent = pow ? splatValue(pow.getInput2())
                                         : std::nullopt;
    if (!pow || !pow->hasOneUse() || !exponent)
      continue;
    auto biasAdd = pow.getInput1().getDefiningOp<tosa::AddOp>();
    if (!biasAdd || !biasAdd->hasOneUse())
      continue;
    for (int j = 0; j < 2; ++j) {
      std::optional<double> bias = splatValue(biasAdd->getOperand(1 - j));
      auto scaleMul = biasAdd->getOperand(j).getDefiningOp<tosa::MulOp>();
      std::optional<std::pair<Value, double>> scale = matchScale(scaleMul);
      if (!bias || !scale || !scaleMul->hasOneUse())
        continue;
      LocalResponseMatch m{{}, x, 0, 0, *bias, 0.0, -*exponent};
      // The sum's leaves: slices of one pad.
      SmallVector<Value> work = {scale->first};
      SmallVector<tosa::SliceOp> slices;
      bool ok = true;
      while (!work.empty() && ok) {
        Value v = work.pop_back_val();
        if (auto add = v.getDefiningOp<tosa::AddOp>();
            add && add->hasOneUse() && add.getType() == x.getType()) {
          m.members.push_back(add);
          work.append({add.getInput1(), add.getInput2()});
        } else if (auto slice = v.getDefiningOp<tosa::SliceOp>();
                   slice && slice->hasOneUse() && slice.getType() == x.getType()) {
          slices.push_back(slice);
        } else {
          ok = false;
        }
      }
      if (!ok || slices.size() < 1 || slices.size() % 2 == 0)
        continue;
      auto pad = slices.front().getInput().getDefiningOp<tosa::PadOp>();
      DenseIntElementsAttr padding;
      if (!pad || !matchPattern(pad.getPadding(), m_Constant(&padding)) ||
          (pad.getPadConst() && splatValue(pad.getPadConst()) != 0.0))
        continue;
      auto square = pad.getInput1().getDefiningOp<tosa::MulOp>();
      if (!square || square.getShift() != 0 || !square->hasOneUse() ||
          square.getInput1() != x || square.getInput2() != x)
        continue;
      // Padding: r on both sides of one axis, none elsewhere.
      SmallVector<int64_t> pads = llvm::map_to_vector(
          padding.getValues<APInt>(),
          [](const APInt &v) { return v.getSExtValue(); });
      int64_t size = int64_t(slices.size()), r = (size - 1) / 2, axis = -1;
      for (int64_t d = 0; d < int64_t(pads.size()) / 2 && ok; ++d) {
        if (pads[2 * d] == 0 && pads[2 * d + 1] == 0)
          continue;
        ok = axis < 0 && pads[2 * d] == r && pads[2 * d + 1] == r;
        axis = d;
      }
      if (!ok || axis < 0)
        continue;
      // Slice k starts at k along the axis, 0 elsewhere; each k once.
      SmallVector<bool> seen(size, false);
      for (tosa::SliceOp slice : slices) {
        ArrayRef<int64_t> start = slice.getStart();
        for (int64_t d = 0; d < int64_t(start.size()) && ok; ++d)
          ok = d == axis ? start[d] >= 0 && start[d] < size && !seen[start[d]]
                         : start[d] == 0;
        if (!ok || slice.getInput() != pad.getResult())
          break;
        seen[start[axis]] = true;
      }
      if (!ok || std::distance(pad->use_begin(), pad->use_end()) != size)
        continue;
      m.radius = r;
      m.axis = axis;
      m.alpha = scale->second; // NNAPI scales the sum itself: ONNX alpha / size
      m.members.append({square, pad});
      m.members.append(slices.begin(), slices.end());
      m.members.append({scaleMul, biasAdd, pow, root});
      return m;
    }
  }
  return std::nullopt;
}

/// x * select(equal(s, 0), 0, rsqrt(s)), s = reduce_sum(x * x) along one
/// axis: x divided by its L2 norm, zeros for a vector of zeros (how the ONNX
/// importer writes LpNormalization with p = 2; NaN stays NaN). Members: the
/// square, the sum, the equal, the rsqrt, the select, the mul.
struct L2NormMatch {
  SmallVector<Operation *> members;
  Value input;
  int64_t axis;
};

std::optional<L2NormMatch> matchL2Normalization(tosa::MulOp root) {
  if (!root || root.getShift() != 0)
    return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    Value x = root->getOperand(i);
    auto select = root->getOperand(1 - i).getDefiningOp<tosa::SelectOp>();
    if (!select || !select->hasOneUse() || x.getType() != root.getType() ||
        splatValue(select.getOnTrue()) != 0.0)
      continue;
    auto isZero = select.getPred().getDefiningOp<tosa::EqualOp>();
    auto rsqrt = select.getOnFalse().getDefiningOp<tosa::RsqrtOp>();
    if (!isZero || !rsqrt || !isZero->hasOneUse() || !rsqrt->hasOneUse())
      continue;
    auto sum = rsqrt.getInput1().getDefiningOp<tosa::ReduceSumOp>();
    if (!sum || std::distance(sum->use_begin(), sum->use_end()) != 2)
      continue;
    Value a = isZero.getInput1(), b = isZero.getInput2();
    if (!(a == sum.getResult() && splatValue(b) == 0.0) &&
        !(b == sum.getResult() && splatValue(a) == 0.0))
      continue;
    auto square = sum.getInput().getDefiningOp<tosa::MulOp>();
    if (!square || square.getShift() != 0 || !square->hasOneUse() ||
        square.getInput1() != x || square.getInput2() != x)
      continue;
    return L2NormMatch{{square, sum, isZero, rsqrt, select, root},
                       x,
                       int64_t(sum.getAxis())};
  }
  return std::nullopt;
}

/// logical_not(equal(a, b)): NOT_EQUAL. Members: the equal, the not.
struct NotEqualMatch {
  SmallVector<Operation *> members;
  tosa::EqualOp equal;
};

std::optional<NotEqualMatch> matchNotEqual(tosa::LogicalNotOp op) {
  auto equal = op ? op.getInput1().getDefiningOp<tosa::EqualOp>()
                  : tosa::EqualOp();
  if (!equal || !equal->hasOneUse())
    return std::nullopt;
  return NotEqualMatch{{equal, op}, equal};
}

/// argmax(negate(x)), how the ONNX importer writes ArgMin: ARGMIN of x.
/// Members: the negate, the argmax.
struct ArgMinMatch {
  SmallVector<Operation *> members;
  Value input;
};

std::optional<ArgMinMatch> matchArgMin(tosa::ArgMaxOp op) {
  auto negate = op ? op.getInput().getDefiningOp<tosa::NegateOp>()
                   : tosa::NegateOp();
  if (!negate || !negate->hasOneUse() || negate.getQuantizationInfo())
    return std::nullopt;
  return ArgMinMatch{{negate, op}, negate.getInput1()};
}

/// The members of the composite `match` finds at `root`, if any.
template <typename RootOp, auto match>
std::optional<SmallVector<Operation *>> membersOf(Operation *root) {
  auto m = match(dyn_cast<RootOp>(root));
  if (!m)
    return std::nullopt;
  return m->members;
}

/// The patterns whose ops NNAPI runs as one operation, by name.
struct CompositeKind {
  StringRef name;
  std::optional<SmallVector<Operation *>> (*match)(Operation *root);
};

const CompositeKind kComposites[] = {
    {"softmax",
     [](Operation *root) -> std::optional<SmallVector<Operation *>> {
       std::optional<SoftmaxMatch> m = matchSoftmax(dyn_cast<tosa::MulOp>(root));
       if (!m)
         return std::nullopt;
       return SmallVector<Operation *>{m->max, m->sub, m->exp,
                                       m->sum, m->reciprocal, m->mul};
     }},
    {"mean", membersOf<tosa::MulOp, matchMean>},
    {"hard_swish", membersOf<tosa::MulOp, matchHardSwish>},
    {"prelu", membersOf<tosa::AddOp, matchPrelu>},
    {"elu", membersOf<tosa::AddOp, matchElu>},
    {"log_softmax", membersOf<tosa::SubOp, matchLogSoftmax>},
    {"instance_normalization", membersOf<tosa::MulOp, matchInstanceNorm>},
    {"mirror_pad", membersOf<tosa::ConcatOp, matchMirrorPad>},
    {"depth_space", membersOf<tosa::ReshapeOp, matchDepthSpace>},
    {"grouped_conv", membersOf<tosa::ConcatOp, matchGroupedConv>},
    {"channel_shuffle", membersOf<tosa::ReshapeOp, matchChannelShuffle>},
    {"local_response_normalization",
     membersOf<tosa::MulOp, matchLocalResponse>},
    {"l2_normalization", membersOf<tosa::MulOp, matchL2Normalization>},
    {"not_equal", membersOf<tosa::LogicalNotOp, matchNotEqual>},
    {"argmin", membersOf<tosa::ArgMaxOp, matchArgMin>},
    {"split", membersOf<tosa::SliceOp, matchSplit>},
    {"strided_slice", membersOf<tosa::ReshapeOp, matchStridedSlice>},
};
} // namespace

Composite mlir::nnapi::getCompositeMembers(Operation *op) {
  // A composite's root is at most 16 uses downstream of its members
  // (instance normalization's first sum is 10 away, an LRN's square 5 plus
  // its window): try the ops reachable in that many steps (each at most
  // once, at most 64). A composite beyond that is still converted whole
  // when its ops are placed together; it is only not placed as one unit.
  SmallVector<Operation *> candidates = {op};
  llvm::SmallPtrSet<Operation *, 16> seen = {op};
  for (size_t i = 0, depth = 0; i < candidates.size() && depth < 16; ++depth) {
    size_t end = candidates.size();
    for (; i < end; ++i)
      for (Operation *user : candidates[i]->getUsers())
        if (candidates.size() < 64 && seen.insert(user).second)
          candidates.push_back(user);
  }
  // Composites nest (an instance normalization holds two means): the
  // largest one that holds `op` wins.
  Composite best;
  for (Operation *root : candidates)
    for (const CompositeKind &kind : kComposites)
      if (std::optional<SmallVector<Operation *>> members = kind.match(root))
        if (llvm::is_contained(*members, op) &&
            members->size() > best.ops.size())
          best = {kind.name, std::move(*members)};
  return best;
}

//===----------------------------------------------------------------------===//
// What every pattern checks first
//===----------------------------------------------------------------------===//

namespace {
/// NNAPI's float operations need static-shaped float32/float16 tensors; the
/// nnapi dialect's types say the same, so a pattern never builds an op its
/// type constraints reject. Ranks, shapes and attributes are the verifiers'
/// business; feature levels the ops' (NNAPIOperationInterface).
/// The element types a pattern's tensors may have: f32 and f16; also i1
/// (TENSOR_BOOL8) for the comparison, logical and select ops whose nnapi
/// types say which operand is which; also i32 for CAST.
enum class Elements { Float, FloatOrBool, FloatBoolOrInt32 };

LogicalResult checkTensor(Operation *op, Type type, StringRef what,
                          unsigned i, PatternRewriter &rewriter,
                          Elements allowed = Elements::Float) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
      diag << what << " " << i << " must have a static shape";
    });
  Type e = tensor.getElementType();
  bool boolOk = allowed != Elements::Float && e.isInteger(1);
  bool int32Ok = allowed == Elements::FloatBoolOrInt32 && e.isInteger(32);
  if (!e.isF32() && !e.isF16() && !boolOk && !int32Ok)
    return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
      diag << what << " " << i << " has element type " << e << "; only "
           << (allowed == Elements::Float         ? "f32 and f16"
               : allowed == Elements::FloatOrBool ? "f32, f16 and i1"
                                                  : "f32, f16, i1 and i32")
           << " are supported";
    });
  return success();
}

LogicalResult checkTensors(Operation *op, PatternRewriter &rewriter,
                           Elements allowed = Elements::Float) {
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(checkTensor(op, type, "operand", i, rewriter, allowed)))
      return failure();
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(checkTensor(op, type, "result", i, rewriter, allowed)))
      return failure();
  return success();
}

/// For ops whose other operands (permutations, paddings) become NNAPI's
/// constant operands: only operand 0 and the result are data.
LogicalResult checkDataTensors(Operation *op, PatternRewriter &rewriter) {
  if (failed(checkTensor(op, op->getOperand(0).getType(), "operand", 0,
                         rewriter)))
    return failure();
  return checkTensor(op, op->getResult(0).getType(), "result", 0, rewriter);
}

LogicalResult checkConstant(Operation *op, Value v, StringRef what,
                            PatternRewriter &rewriter) {
  if (matchPattern(v, m_Constant()))
    return success();
  return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
    diag << what << " must be a constant";
  });
}

std::string formatBound(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%g", v);
  return buffer;
}

/// The NNAPI activation a tosa.clamp is, if any.
std::optional<FuseCode> clampActivation(tosa::ClampOp clamp) {
  double lo = clamp.getMinFp().convertToDouble();
  double hi = clamp.getMaxFp().convertToDouble();
  if (lo == 0.0 && hi >= FLT_MAX)
    return FuseCode::relu;
  if (lo == 0.0 && hi == 6.0)
    return FuseCode::relu6;
  if (lo == -1.0 && hi == 1.0)
    return FuseCode::relu1;
  return std::nullopt;
}
} // namespace

namespace {
int64_t numElements(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasStaticShape() ? shaped.getNumElements() : 0;
}
} // namespace

mlir::nnapi::OpWork mlir::nnapi::estimateWork(Operation *op) {
  OpWork work;
  for (Value v : op->getOperands())
    work.elements += double(numElements(v.getType()));
  for (Value v : op->getResults())
    work.elements += double(numElements(v.getType()));
  if (op->getNumResults() != 1)
    return work;
  double out = double(numElements(op->getResult(0).getType()));
  auto dim = [](Value v, unsigned i) -> double {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    return t && t.getRank() > i && !t.isDynamicDim(i) ? double(t.getDimSize(i))
                                                       : 0.0;
  };
  TypeSwitch<Operation *>(op)
      .Case([&](tosa::Conv2DOp c) {
        // Weight [OC, KH, KW, IC]: one MAC per weight element per output pixel.
        work.macs = out * dim(c.getWeight(), 1) * dim(c.getWeight(), 2) *
                    dim(c.getWeight(), 3);
      })
      .Case([&](tosa::DepthwiseConv2DOp c) {
        // Weight [KH, KW, C, M].
        work.macs = out * dim(c.getWeight(), 0) * dim(c.getWeight(), 1);
      })
      .Case([&](tosa::TransposeConv2DOp c) {
        // Filter [OC, KH, KW, IC]: each input pixel meets every filter tap.
        work.macs = double(numElements(c.getInput().getType())) *
                    dim(c.getFilter(), 0) * dim(c.getFilter(), 1) *
                    dim(c.getFilter(), 2);
      })
      .Case([&](tosa::FullyConnectedOp f) {
        work.macs = out * dim(f.getWeight(), 1);
      })
      .Case([&](tosa::MatMulOp m) { work.macs = out * dim(m.getA(), 2); })
      .Case<tosa::MaxPool2dOp, tosa::AvgPool2dOp>([&](auto p) {
        ArrayRef<int64_t> kernel = p.getKernel();
        work.macs = out * double(kernel[0] * kernel[1]);
      });
  return work;
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {
/// A splat constant of `type`'s element type, shaped [1, ..., 1] with `type`'s
/// rank, so that it broadcasts against it.
Value broadcastScalar(PatternRewriter &rewriter, Location loc,
                      RankedTensorType type, double value) {
  auto scalarType = RankedTensorType::get(
      SmallVector<int64_t>(type.getRank(), 1), type.getElementType());
  return rewriter.create<arith::ConstantOp>(
      loc, DenseElementsAttr::get(
               scalarType,
               rewriter.getFloatAttr(type.getElementType(), value)));
}

/// NNAPI orders window parameters [left, right, top, bottom] and [w, h];
/// TOSA uses [top, bottom, left, right] and [y, x].
SmallVector<int64_t> nnapiPadding(ArrayRef<int64_t> tosaPad) {
  return {tosaPad[2], tosaPad[3], tosaPad[0], tosaPad[1]};
}
SmallVector<int64_t> swapYX(ArrayRef<int64_t> yx) { return {yx[1], yx[0]}; }

/// Convolutions and fully connected: float, not quantized, constant weights
/// and bias (NNAPI drivers and XNNPACK prepare constant weights once).
template <typename TosaOp>
LogicalResult checkWeighted(TosaOp op, PatternRewriter &rewriter) {
  if (op.getQuantizationInfo())
    return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
      diag << "quantized " << op->getName().stripDialect()
           << " is not supported yet";
    });
  if (failed(checkTensors(op, rewriter)) ||
      failed(checkConstant(op, op.getWeight(), "weight", rewriter)) ||
      failed(checkConstant(op, op.getBias(), "bias", rewriter)))
    return failure();
  return success();
}

/// A pattern from `TosaOp` to the nnapi ops `Generated`. The generated op
/// names are declared to MLIR, which is where docs/ops.md's TOSA column comes
/// from (tools/nnapi-ops-doc).
template <typename TosaOp, typename... Generated>
struct ToNNAPI : OpRewritePattern<TosaOp> {
  explicit ToNNAPI(MLIRContext *ctx, PatternBenefit benefit = 1)
      : OpRewritePattern<TosaOp>(ctx, benefit,
                                 {Generated::getOperationName()...}) {}
};

struct SoftmaxPattern : ToNNAPI<tosa::MulOp, SoftmaxOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::MulOp mul,
                                PatternRewriter &rewriter) const override {
    std::optional<SoftmaxMatch> m = matchSoftmax(mul);
    if (!m)
      return rewriter.notifyMatchFailure(mul, "not a decomposed softmax");
    if (failed(checkTensors(mul, rewriter)) ||
        failed(checkTensors(m->max, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<SoftmaxOp>(
        mul, mul.getType(), m->input, rewriter.getF32FloatAttr(1.0f),
        rewriter.getI32IntegerAttr(static_cast<int32_t>(m->axis)));
    return success();
  }
};

template <typename TosaOp, typename NNAPIOp>
struct BinaryPattern : ToNNAPI<TosaOp, NNAPIOp> {
  using ToNNAPI<TosaOp, NNAPIOp>::ToNNAPI;
  LogicalResult matchAndRewrite(TosaOp op,
                                PatternRewriter &rewriter) const override {
    if (auto mul = dyn_cast<tosa::MulOp>(op.getOperation()))
      if (mul.getShift() != 0)
        return rewriter.notifyMatchFailure(
            op, "tosa.mul with a shift is integer-only");
    if (failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<NNAPIOp>(op, op.getType(), op->getOperand(0),
                                         op->getOperand(1));
    return success();
  }
};

template <typename TosaOp, typename NNAPIOp>
struct UnaryPattern : ToNNAPI<TosaOp, NNAPIOp> {
  using ToNNAPI<TosaOp, NNAPIOp>::ToNNAPI;
  LogicalResult matchAndRewrite(TosaOp op,
                                PatternRewriter &rewriter) const override {
    if constexpr (std::is_same_v<TosaOp, tosa::NegateOp>)
      if (op.getQuantizationInfo())
        return rewriter.notifyMatchFailure(op, "quantized negate");
    if (failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<NNAPIOp>(op, op.getType(), op->getOperand(0));
    return success();
  }
};

/// pow(x, 0.5) is SQRT, exactly.
struct SqrtPattern : ToNNAPI<tosa::PowOp, SqrtOp> {
  // Before the plain POW pattern.
  explicit SqrtPattern(MLIRContext *ctx) : ToNNAPI(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(tosa::PowOp op,
                                PatternRewriter &rewriter) const override {
    if (splatValue(op.getInput2()) != 0.5)
      return rewriter.notifyMatchFailure(op, "exponent is not 0.5");
    if (failed(checkTensors(op, rewriter)))
      return failure();
    auto type = cast<RankedTensorType>(op.getType());
    if (op.getInput1().getType() != type)
      return rewriter.notifyMatchFailure(op, "the exponent broadcasts x");
    rewriter.replaceOpWithNewOp<SqrtOp>(op, type, op.getInput1());
    return success();
  }
};

struct ReciprocalPattern : ToNNAPI<tosa::ReciprocalOp, DivOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ReciprocalOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter)))
      return failure();
    auto type = cast<RankedTensorType>(op.getType());
    rewriter.replaceOpWithNewOp<DivOp>(
        op, type, broadcastScalar(rewriter, op.getLoc(), type, 1.0),
        op.getInput1());
    return success();
  }
};

struct ClampPattern : ToNNAPI<tosa::ClampOp, ReluOp, Relu1Op, Relu6Op> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ClampOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<FuseCode> code = clampActivation(op);
    if (!code)
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
        diag << "clamp bounds [" << formatBound(op.getMinFp().convertToDouble())
             << ", " << formatBound(op.getMaxFp().convertToDouble())
             << "] match no NNAPI activation";
      });
    if (failed(checkTensors(op, rewriter)))
      return failure();
    switch (*code) {
    case FuseCode::relu:
      rewriter.replaceOpWithNewOp<ReluOp>(op, op.getType(), op.getInput());
      break;
    case FuseCode::relu1:
      rewriter.replaceOpWithNewOp<Relu1Op>(op, op.getType(), op.getInput());
      break;
    case FuseCode::relu6:
      rewriter.replaceOpWithNewOp<Relu6Op>(op, op.getType(), op.getInput());
      break;
    case FuseCode::none:
      return failure();
    }
    return success();
  }
};

struct Conv2DPattern : ToNNAPI<tosa::Conv2DOp, Conv2DOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::Conv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkWeighted(op, rewriter)))
      return failure();
    // TOSA's [out, kh, kw, in] weights are already NNAPI's filter layout.
    rewriter.replaceOpWithNewOp<Conv2DOp>(
        op, op.getType(), op.getInput(), op.getWeight(), op.getBias(),
        rewriter.getDenseI64ArrayAttr(nnapiPadding(op.getPad())),
        rewriter.getDenseI64ArrayAttr(swapYX(op.getStride())),
        rewriter.getDenseI64ArrayAttr(swapYX(op.getDilation())),
        FuseCode::none);
    return success();
  }
};

struct DepthwiseConv2DPattern : ToNNAPI<tosa::DepthwiseConv2DOp, DepthwiseConv2DOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::DepthwiseConv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkWeighted(op, rewriter)))
      return failure();
    // TOSA weights are [kh, kw, in, multiplier]; NNAPI wants
    // [1, kh, kw, in * multiplier] with channel c * multiplier + m, which is
    // the same memory order, so a constant only needs a new type.
    DenseElementsAttr weights;
    if (!matchPattern(op.getWeight(), m_Constant(&weights)))
      return rewriter.notifyMatchFailure(op, "weights are not constant");
    auto wType = cast<RankedTensorType>(weights.getType());
    ArrayRef<int64_t> w = wType.getShape();
    auto filterType = RankedTensorType::get({1, w[0], w[1], w[2] * w[3]},
                                            wType.getElementType());
    Value filter = rewriter.create<arith::ConstantOp>(
        op.getLoc(), weights.reshape(filterType));
    rewriter.replaceOpWithNewOp<DepthwiseConv2DOp>(
        op, op.getType(), op.getInput(), filter, op.getBias(),
        rewriter.getDenseI64ArrayAttr(nnapiPadding(op.getPad())),
        rewriter.getDenseI64ArrayAttr(swapYX(op.getStride())),
        rewriter.getDenseI64ArrayAttr(swapYX(op.getDilation())),
        rewriter.getI32IntegerAttr(static_cast<int32_t>(w[3])),
        FuseCodeAttr::get(rewriter.getContext(), FuseCode::none));
    return success();
  }
};

/// TOSA's out_pad [top, bottom, left, right] extends (positive) or crops
/// (negative) the full transposed-convolution output; NNAPI's padding only
/// crops, so out_pad must not be positive.
struct TransposeConv2DPattern
    : ToNNAPI<tosa::TransposeConv2DOp, TransposeConv2DOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::TransposeConv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getQuantizationInfo())
      return rewriter.notifyMatchFailure(
          op, "quantized transpose_conv2d is not supported yet");
    if (failed(checkTensors(op, rewriter)) ||
        failed(checkConstant(op, op.getFilter(), "filter", rewriter)) ||
        failed(checkConstant(op, op.getBias(), "bias", rewriter)))
      return failure();
    ArrayRef<int64_t> outPad = op.getOutPad();
    if (llvm::any_of(outPad, [](int64_t p) { return p > 0; }))
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
        diag << "out_pad [";
        llvm::interleaveComma(outPad, diag);
        diag << "] extends the output (ONNX output_padding); NNAPI's padding "
                "only crops";
      });
    SmallVector<int64_t> crop = llvm::map_to_vector(
        nnapiPadding(outPad), [](int64_t p) { return -p; });
    rewriter.replaceOpWithNewOp<TransposeConv2DOp>(
        op, op.getType(), op.getInput(), op.getFilter(), op.getBias(),
        rewriter.getDenseI64ArrayAttr(crop),
        rewriter.getDenseI64ArrayAttr(swapYX(op.getStride())), FuseCode::none);
    return success();
  }
};

/// NNAPI's resize flags that sample one dimension of a tosa.resize the same
/// way: TOSA samples output index o at (o * d + offset) / n (scale n/d),
/// NNAPI at the float formulas of nnapi.resize_*. Checked index by index,
/// so whatever NNAPI's float arithmetic does is what TOSA asked for.
struct ResizeFlags {
  bool alignCorners, halfPixelCenters;
};
constexpr ResizeFlags kResizeFlags[] = {
    {false, false}, {false, true}, {true, false}};

float nnapiResizeScale(int64_t in, int64_t out, ResizeFlags f) {
  if (f.alignCorners && out > 1)
    return float(in - 1) / float(out - 1);
  return float(in) / float(out);
}

bool resizeDimMatches(bool bilinear, int64_t in, int64_t out, int64_t n,
                      int64_t d, int64_t offset, ResizeFlags f) {
  float scale = nnapiResizeScale(in, out, f);
  for (int64_t o = 0; o < out; ++o) {
    int64_t y = o * d + offset;
    if (bilinear) {
      // Both clamp the sample to the input; compare the sample points.
      double tosa = std::clamp(double(y) / double(n), 0.0, double(in - 1));
      float x = f.halfPixelCenters ? (float(o) + 0.5f) * scale - 0.5f
                                   : float(o) * scale;
      double nnapi = std::clamp(double(x), 0.0, double(in - 1));
      if (std::abs(tosa - nnapi) > 1e-5 * double(in))
        return false;
      continue;
    }
    // TOSA rounds y / n half up (n is even, see the pattern).
    int64_t q = y >= 0 ? y / n : -((-y + n - 1) / n);
    int64_t tosa = std::clamp<int64_t>(q + (2 * (y - q * n) >= n), 0, in - 1);
    float x = (float(o) + (f.halfPixelCenters ? 0.5f : 0.0f)) * scale;
    int64_t i = int64_t(f.alignCorners ? std::round(x) : std::floor(x));
    if (std::clamp<int64_t>(i, 0, in - 1) != tosa)
      return false;
  }
  return true;
}

struct ResizePattern
    : ToNNAPI<tosa::ResizeOp, ResizeBilinearOp, ResizeNearestNeighborOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ResizeOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter)))
      return failure();
    bool bilinear = op.getMode() == "BILINEAR";
    auto in = cast<RankedTensorType>(op.getInput().getType()).getShape();
    auto out = cast<RankedTensorType>(op.getType()).getShape();
    ArrayRef<int64_t> scale = op.getScale(), offset = op.getOffset();
    // TOSA's verifier checks the arrays' lengths, not their values.
    if (llvm::any_of(scale, [](int64_t v) { return v <= 0; }))
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
        diag << "scale [";
        llvm::interleaveComma(scale, diag);
        diag << "] must be positive";
      });
    if (!bilinear && (scale[0] % 2 || scale[2] % 2))
      return rewriter.notifyMatchFailure(
          op, "nearest-neighbor resize with an odd scale numerator");
    for (ResizeFlags f : kResizeFlags) {
      if (!resizeDimMatches(bilinear, in[1], out[1], scale[0], scale[1],
                            offset[0], f) ||
          !resizeDimMatches(bilinear, in[2], out[2], scale[2], scale[3],
                            offset[1], f))
        continue;
      if (bilinear)
        rewriter.replaceOpWithNewOp<ResizeBilinearOp>(
            op, op.getType(), op.getInput(), f.alignCorners,
            f.halfPixelCenters);
      else
        rewriter.replaceOpWithNewOp<ResizeNearestNeighborOp>(
            op, op.getType(), op.getInput(), f.alignCorners,
            f.halfPixelCenters);
      return success();
    }
    return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
      diag << "scale [";
      llvm::interleaveComma(scale, diag);
      diag << "] and offset [";
      llvm::interleaveComma(offset, diag);
      diag << "] sample like no NNAPI resize (asymmetric, half-pixel centers "
              "or aligned corners)";
    });
  }
};

struct FullyConnectedPattern : ToNNAPI<tosa::FullyConnectedOp, FullyConnectedOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::FullyConnectedOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkWeighted(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<FullyConnectedOp>(
        op, op.getType(), op.getInput(), op.getWeight(), op.getBias(),
        FuseCode::none);
    return success();
  }
};

template <typename TosaOp, typename NNAPIOp>
struct PoolPattern : ToNNAPI<TosaOp, NNAPIOp> {
  using ToNNAPI<TosaOp, NNAPIOp>::ToNNAPI;
  LogicalResult matchAndRewrite(TosaOp op,
                                PatternRewriter &rewriter) const override {
    if constexpr (std::is_same_v<TosaOp, tosa::AvgPool2dOp>)
      if (op.getQuantizationInfo())
        return rewriter.notifyMatchFailure(
            op, "quantized average pooling is not supported yet");
    if (failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<NNAPIOp>(
        op, op.getType(), op.getInput(),
        rewriter.getDenseI64ArrayAttr(nnapiPadding(op.getPad())),
        rewriter.getDenseI64ArrayAttr(swapYX(op.getStride())),
        rewriter.getDenseI64ArrayAttr(swapYX(op.getKernel())), FuseCode::none);
    return success();
  }
};

struct ConcatPattern : ToNNAPI<tosa::ConcatOp, ConcatenationOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ConcatOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<ConcatenationOp>(
        op, op.getType(), op.getInput1(),
        rewriter.getI32IntegerAttr(static_cast<int32_t>(op.getAxis())));
    return success();
  }
};

struct MeanPattern : ToNNAPI<tosa::MulOp, MeanOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::MulOp mul,
                                PatternRewriter &rewriter) const override {
    std::optional<MeanMatch> m = matchMean(mul);
    if (!m)
      return rewriter.notifyMatchFailure(mul, "not a decomposed mean");
    // A mean inside a larger composite is left to that composite's pattern.
    if (getCompositeMembers(mul).kind != "mean")
      return rewriter.notifyMatchFailure(mul, "part of a larger composite");
    for (Operation *op : m->members)
      if (failed(checkTensors(op, rewriter)))
        return failure();
    rewriter.replaceOpWithNewOp<MeanOp>(mul, mul.getType(), m->input,
                                        rewriter.getDenseI64ArrayAttr(m->axes),
                                        /*keep_dims=*/true);
    return success();
  }
};

struct HardSwishPattern : ToNNAPI<tosa::MulOp, HardSwishOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::MulOp mul,
                                PatternRewriter &rewriter) const override {
    std::optional<HardSwishMatch> m = matchHardSwish(mul);
    if (!m)
      return rewriter.notifyMatchFailure(mul, "not a decomposed hard swish");
    if (failed(checkTensors(mul, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<HardSwishOp>(mul, mul.getType(), m->input);
    return success();
  }
};

struct PreluPattern : ToNNAPI<tosa::AddOp, PreluOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::AddOp add,
                                PatternRewriter &rewriter) const override {
    std::optional<PreluMatch> m = matchPrelu(add);
    if (!m)
      return rewriter.notifyMatchFailure(add, "not a decomposed prelu");
    for (Operation *op : m->members)
      if (failed(checkTensors(op, rewriter)))
        return failure();
    rewriter.replaceOpWithNewOp<PreluOp>(add, add.getType(), m->input,
                                         m->slope);
    return success();
  }
};

struct EluPattern : ToNNAPI<tosa::AddOp, EluOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::AddOp add,
                                PatternRewriter &rewriter) const override {
    std::optional<EluMatch> m = matchElu(add);
    if (!m)
      return rewriter.notifyMatchFailure(add, "not a decomposed elu");
    if (failed(checkTensors(add, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<EluOp>(add, add.getType(), m->input,
                                       rewriter.getF32FloatAttr(m->alpha));
    return success();
  }
};

struct LogSoftmaxPattern : ToNNAPI<tosa::SubOp, LogSoftmaxOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::SubOp sub,
                                PatternRewriter &rewriter) const override {
    std::optional<LogSoftmaxMatch> m = matchLogSoftmax(sub);
    if (!m)
      return rewriter.notifyMatchFailure(sub, "not a decomposed log-softmax");
    for (Operation *op : m->members)
      if (failed(checkTensors(op, rewriter)))
        return failure();
    rewriter.replaceOpWithNewOp<LogSoftmaxOp>(
        sub, sub.getType(), m->input, rewriter.getF32FloatAttr(1.0f),
        rewriter.getI32IntegerAttr(static_cast<int32_t>(m->axis)));
    return success();
  }
};

struct InstanceNormPattern : ToNNAPI<tosa::MulOp, InstanceNormalizationOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::MulOp mul,
                                PatternRewriter &rewriter) const override {
    std::optional<InstanceNormMatch> m = matchInstanceNorm(mul);
    if (!m)
      return rewriter.notifyMatchFailure(mul,
                                         "not a decomposed instance norm");
    for (Operation *op : m->members)
      if (failed(checkTensors(op, rewriter)))
        return failure();
    rewriter.replaceOpWithNewOp<InstanceNormalizationOp>(
        mul, mul.getType(), m->input, rewriter.getF32FloatAttr(1.0f),
        rewriter.getF32FloatAttr(0.0f),
        rewriter.getF32FloatAttr(float(m->epsilon)),
        m->nchw ? rewriter.getUnitAttr() : UnitAttr());
    return success();
  }
};

struct MirrorPadPattern : ToNNAPI<tosa::ConcatOp, MirrorPadOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ConcatOp concat,
                                PatternRewriter &rewriter) const override {
    std::optional<MirrorPadMatch> m = matchMirrorPad(concat);
    if (!m)
      return rewriter.notifyMatchFailure(concat, "not a decomposed mirror pad");
    if (failed(checkTensors(concat, rewriter)))
      return failure();
    int64_t rank = cast<RankedTensorType>(m->input.getType()).getRank();
    SmallVector<int64_t> padding(2 * rank, 0);
    padding[2 * m->axis] = m->before;
    padding[2 * m->axis + 1] = m->after;
    rewriter.replaceOpWithNewOp<MirrorPadOp>(
        concat, concat.getType(), m->input,
        rewriter.getDenseI64ArrayAttr(padding),
        m->symmetric ? rewriter.getUnitAttr() : UnitAttr());
    return success();
  }
};

struct DepthSpacePattern
    : ToNNAPI<tosa::ReshapeOp, DepthToSpaceOp, SpaceToDepthOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<DepthSpaceMatch> m = matchDepthSpace(op);
    if (!m)
      return rewriter.notifyMatchFailure(op, "not a depth/space rearrangement");
    if (failed(checkTensors(op, rewriter)))
      return failure();
    IntegerAttr block =
        rewriter.getI32IntegerAttr(static_cast<int32_t>(m->block));
    if (m->toSpace)
      rewriter.replaceOpWithNewOp<DepthToSpaceOp>(op, op.getType(), m->input,
                                                  block, rewriter.getUnitAttr());
    else
      rewriter.replaceOpWithNewOp<SpaceToDepthOp>(op, op.getType(), m->input,
                                                  block, rewriter.getUnitAttr());
    return success();
  }
};

/// Concatenates constants along dimension 0.
DenseElementsAttr concatConstants(ArrayRef<Value> values) {
  SmallVector<char> raw;
  int64_t rows = 0;
  RankedTensorType type;
  for (Value v : values) {
    DenseElementsAttr attr;
    matchPattern(v, m_Constant(&attr));
    type = cast<RankedTensorType>(attr.getType());
    rows += type.getDimSize(0);
    Type e = type.getElementType();
    size_t bytes = e.getIntOrFloatBitWidth() / 8 * type.getNumElements();
    if (attr.isSplat())
      for (int64_t i = 0; i < type.getNumElements(); ++i)
        raw.append(attr.getRawData().begin(),
                   attr.getRawData().begin() + bytes / type.getNumElements());
    else
      raw.append(attr.getRawData().begin(), attr.getRawData().end());
  }
  SmallVector<int64_t> shape(type.getShape());
  shape[0] = rows;
  return DenseElementsAttr::getFromRawBuffer(
      RankedTensorType::get(shape, type.getElementType()), raw);
}

struct GroupedConvPattern : ToNNAPI<tosa::ConcatOp, GroupedConv2DOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ConcatOp concat,
                                PatternRewriter &rewriter) const override {
    std::optional<GroupedConvMatch> m = matchGroupedConv(concat);
    if (!m)
      return rewriter.notifyMatchFailure(concat,
                                         "not a per-group convolution concat");
    for (Operation *op : m->members)
      if (failed(checkTensors(op, rewriter)))
        return failure();
    SmallVector<Value> weights, biases;
    for (tosa::Conv2DOp conv : m->convs) {
      weights.push_back(conv.getWeight());
      biases.push_back(conv.getBias());
    }
    Location loc = concat.getLoc();
    Value filter = rewriter.create<arith::ConstantOp>(
        loc, concatConstants(weights));
    Value bias = rewriter.create<arith::ConstantOp>(loc, concatConstants(biases));
    tosa::Conv2DOp first = m->convs.front();
    rewriter.replaceOpWithNewOp<GroupedConv2DOp>(
        concat, concat.getType(), m->input, filter, bias,
        rewriter.getDenseI64ArrayAttr(nnapiPadding(first.getPad())),
        rewriter.getDenseI64ArrayAttr(swapYX(first.getStride())),
        rewriter.getI32IntegerAttr(int32_t(m->convs.size())),
        FuseCodeAttr::get(rewriter.getContext(), FuseCode::none));
    return success();
  }
};

struct ChannelShufflePattern : ToNNAPI<tosa::ReshapeOp, ChannelShuffleOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<ChannelShuffleMatch> m = matchChannelShuffle(op);
    if (!m)
      return rewriter.notifyMatchFailure(op, "not a channel shuffle");
    if (failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<ChannelShuffleOp>(
        op, op.getType(), m->input,
        rewriter.getI32IntegerAttr(static_cast<int32_t>(m->groups)),
        rewriter.getI32IntegerAttr(static_cast<int32_t>(m->axis)));
    return success();
  }
};

struct StridedSlicePattern
    : ToNNAPI<tosa::ReshapeOp, StridedSliceOp, ReshapeOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<StridedSliceMatch> m = matchStridedSlice(op);
    if (!m)
      return rewriter.notifyMatchFailure(op, "not every step-th element");
    for (Operation *member : m->members)
      if (failed(checkDataTensors(member, rewriter)))
        return failure();
    auto x = cast<RankedTensorType>(m->input.getType());
    SmallVector<int64_t> begin(x.getRank(), 0), end(x.getShape()),
        strides(x.getRank(), 1), shape(x.getShape());
    strides[m->axis] = m->step;
    shape[m->axis] = (shape[m->axis] + m->step - 1) / m->step;
    Value sliced = rewriter.create<StridedSliceOp>(
        op.getLoc(), RankedTensorType::get(shape, x.getElementType()),
        m->input, rewriter.getDenseI64ArrayAttr(begin),
        rewriter.getDenseI64ArrayAttr(end),
        rewriter.getDenseI64ArrayAttr(strides));
    // A reshape folded into the last one stays a RESHAPE.
    if (sliced.getType() == op.getType())
      rewriter.replaceOp(op, sliced);
    else
      rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), sliced);
    return success();
  }
};

struct SplitPattern : ToNNAPI<tosa::SliceOp, SplitOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::SliceOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<SplitMatch> m = matchSplit(op);
    if (!m)
      return rewriter.notifyMatchFailure(op, "not a split into equal pieces");
    // Slices inside a larger composite (a grouped convolution's) are left
    // to that composite's pattern.
    if (getCompositeMembers(op).kind != "split")
      return rewriter.notifyMatchFailure(op, "part of a larger composite");
    SmallVector<Type> types;
    Operation *first = m->members.front();
    for (Operation *slice : m->members) {
      if (failed(checkTensors(slice, rewriter)))
        return failure();
      types.push_back(slice->getResult(0).getType());
      if (slice->isBeforeInBlock(first))
        first = slice;
    }
    rewriter.setInsertionPoint(first);
    auto split = rewriter.create<SplitOp>(
        op.getLoc(), types, m->input,
        rewriter.getI32IntegerAttr(static_cast<int32_t>(m->axis)));
    for (auto [slice, piece] : llvm::zip(m->members, split.getOutputs()))
      rewriter.replaceOp(slice, piece);
    return success();
  }
};

struct LocalResponsePattern
    : ToNNAPI<tosa::MulOp, LocalResponseNormalizationOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::MulOp mul,
                                PatternRewriter &rewriter) const override {
    std::optional<LocalResponseMatch> m = matchLocalResponse(mul);
    if (!m)
      return rewriter.notifyMatchFailure(mul, "not a decomposed LRN");
    if (failed(checkTensors(mul, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<LocalResponseNormalizationOp>(
        mul, mul.getType(), m->input,
        rewriter.getI32IntegerAttr(static_cast<int32_t>(m->radius)),
        rewriter.getF32FloatAttr(float(m->bias)),
        rewriter.getF32FloatAttr(float(m->alpha)),
        rewriter.getF32FloatAttr(float(m->beta)),
        rewriter.getI32IntegerAttr(static_cast<int32_t>(m->axis)));
    return success();
  }
};

struct L2NormalizationPattern : ToNNAPI<tosa::MulOp, L2NormalizationOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::MulOp mul,
                                PatternRewriter &rewriter) const override {
    std::optional<L2NormMatch> m = matchL2Normalization(mul);
    if (!m)
      return rewriter.notifyMatchFailure(mul, "not a decomposed L2 norm");
    if (failed(checkTensors(mul, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<L2NormalizationOp>(
        mul, mul.getType(), m->input,
        rewriter.getI32IntegerAttr(static_cast<int32_t>(m->axis)));
    return success();
  }
};

/// Clamp bounds that match no activation: MAXIMUM with the lower bound and
/// MINIMUM with the upper one (a bound at the float range is left out).
struct ClampBoundsPattern : ToNNAPI<tosa::ClampOp, MaximumOp, MinimumOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ClampOp op,
                                PatternRewriter &rewriter) const override {
    if (clampActivation(op))
      return rewriter.notifyMatchFailure(op, "an NNAPI activation");
    if (failed(checkTensors(op, rewriter)))
      return failure();
    auto type = cast<RankedTensorType>(op.getType());
    double lo = op.getMinFp().convertToDouble();
    double hi = op.getMaxFp().convertToDouble();
    Value v = op.getInput();
    if (lo > -FLT_MAX)
      v = rewriter.create<MaximumOp>(
          op.getLoc(), type, v, broadcastScalar(rewriter, op.getLoc(), type, lo));
    if (hi < FLT_MAX)
      v = rewriter.create<MinimumOp>(
          op.getLoc(), type, v, broadcastScalar(rewriter, op.getLoc(), type, hi));
    if (v == op.getInput())
      return rewriter.notifyMatchFailure(op, "clamp to the float range");
    rewriter.replaceOp(op, v);
    return success();
  }
};

/// erf from NNAPI operations (NNAPI has no ERF): x * P(x^2) / Q(x^2) with x
/// clamped to [-4, 4], a rational fit of relative error 4e-7 in float32
/// (scripts/fit_erf.py fits it and measures it). It keeps erf's odd symmetry
/// and its zeros (-0, subnormals) and propagates NaN through the clamp.
struct ErfPattern
    : ToNNAPI<tosa::ErfOp, MaximumOp, MinimumOp, MulOp, AddOp, DivOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ErfOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter)))
      return failure();
    auto type = cast<RankedTensorType>(op.getType());
    Location loc = op.getLoc();
    auto c = [&](double v) { return broadcastScalar(rewriter, loc, type, v); };
    auto mul = [&](Value a, Value b) -> Value {
      return rewriter.create<MulOp>(loc, type, a, b, FuseCode::none);
    };
    auto horner = [&](Value y, ArrayRef<double> coefficients) {
      Value acc = c(coefficients.back());
      for (double k : llvm::reverse(coefficients.drop_back()))
        acc = rewriter.create<AddOp>(loc, type, mul(acc, y), c(k),
                                     FuseCode::none);
      return acc;
    };
    static const double p[] = {
        1.1283790940884733,    0.20708019499618013,   0.05151882937709793,
        0.003988730619247162,  0.00014724888194446234, -1.9423217528374837e-06,
        1.911451685820964e-08};
    static const double q[] = {1.0, 0.5168512957612786, 0.11795205816484358,
                               0.01495422927355949, 0.0010206892398301193};
    Value x = rewriter.create<MinimumOp>(
        loc, type, rewriter.create<MaximumOp>(loc, type, op.getInput(), c(-4.0)),
        c(4.0));
    Value y = mul(x, x);
    Value ratio = rewriter.create<DivOp>(loc, type, horner(y, p), horner(y, q),
                                         FuseCode::none);
    rewriter.replaceOp(op, mul(x, ratio));
    return success();
  }
};

struct TransposePattern : ToNNAPI<tosa::TransposeOp, TransposeOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkDataTensors(op, rewriter)))
      return failure();
    SmallVector<int64_t> perms;
    if (failed(op.getConstantPerms(perms)))
      return rewriter.notifyMatchFailure(op, "perms must be a constant");
    rewriter.replaceOpWithNewOp<TransposeOp>(
        op, op.getType(), op.getInput1(),
        rewriter.getDenseI64ArrayAttr(perms));
    return success();
  }
};

struct PadPattern : ToNNAPI<tosa::PadOp, PadOp, PadV2Op> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::PadOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getQuantizationInfo())
      return rewriter.notifyMatchFailure(op, "quantized pad");
    if (failed(checkDataTensors(op, rewriter)))
      return failure();
    DenseIntElementsAttr padding;
    if (!matchPattern(op.getPadding(), m_Constant(&padding)))
      return rewriter.notifyMatchFailure(op, "padding must be a constant");
    SmallVector<int64_t> pads;
    for (const APInt &p : padding.getValues<APInt>())
      pads.push_back(p.getSExtValue());
    double value = 0.0;
    if (Value padConst = op.getPadConst()) {
      std::optional<double> v = splatValue(padConst);
      if (!v)
        return rewriter.notifyMatchFailure(op, "pad value must be a constant");
      value = *v;
    }
    if (value == 0.0 && !std::signbit(value))
      rewriter.replaceOpWithNewOp<PadOp>(op, op.getType(), op.getInput1(),
                                         rewriter.getDenseI64ArrayAttr(pads));
    else
      rewriter.replaceOpWithNewOp<PadV2Op>(
          op, op.getType(), op.getInput1(), rewriter.getDenseI64ArrayAttr(pads),
          rewriter.getF32FloatAttr(float(value)));
    return success();
  }
};

struct SlicePattern : ToNNAPI<tosa::SliceOp, SliceOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::SliceOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<SliceOp>(op, op.getType(), op.getInput(),
                                         op.getStartAttr());
    return success();
  }
};

template <typename TosaOp, typename NNAPIOp>
struct ReducePattern : ToNNAPI<TosaOp, NNAPIOp> {
  using ToNNAPI<TosaOp, NNAPIOp>::ToNNAPI;
  LogicalResult matchAndRewrite(TosaOp op,
                                PatternRewriter &rewriter) const override {
    // REDUCE_ANY/ALL take bool tensors (their nnapi types check which).
    constexpr bool logical = std::is_same_v<TosaOp, tosa::ReduceAnyOp> ||
                             std::is_same_v<TosaOp, tosa::ReduceAllOp>;
    if (failed(checkTensors(op, rewriter,
                            logical ? Elements::FloatOrBool
                                    : Elements::Float)))
      return failure();
    // TOSA keeps the reduced dimension with size 1.
    rewriter.replaceOpWithNewOp<NNAPIOp>(
        op, op.getType(), op.getInput(),
        rewriter.getDenseI64ArrayAttr({int64_t(op.getAxis())}),
        /*keep_dims=*/true);
    return success();
  }
};

/// A product with a constant right-hand side and one batch is a fully
/// connected layer (feature level 1, and the kernel drivers optimize most):
/// weights [N, K] = B^T, zero bias, the [1, M, K] input flattened to [M, K]
/// by the operation itself and the [M, N] result reshaped to [1, M, N].
struct MatMulToFullyConnectedPattern
    : ToNNAPI<tosa::MatMulOp, FullyConnectedOp, ReshapeOp> {
  explicit MatMulToFullyConnectedPattern(MLIRContext *ctx)
      : ToNNAPI(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(tosa::MatMulOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getQuantizationInfo())
      return rewriter.notifyMatchFailure(op, "quantized matmul");
    DenseElementsAttr b;
    if (!matchPattern(op.getB(), m_Constant(&b)))
      return rewriter.notifyMatchFailure(op, "B is not a constant");
    if (failed(checkTensors(op, rewriter)))
      return failure();
    auto bType = cast<RankedTensorType>(b.getType());
    auto outType = cast<RankedTensorType>(op.getType());
    if (bType.getDimSize(0) != 1)
      return rewriter.notifyMatchFailure(op, "more than one batch");
    int64_t k = bType.getDimSize(1), n = bType.getDimSize(2);
    int64_t m = outType.getDimSize(1);
    Type e = bType.getElementType();
    DenseElementsAttr weights =
        permuteElements(b.reshape(RankedTensorType::get({k, n}, e)), {1, 0});
    Location loc = op.getLoc();
    Value w = rewriter.create<arith::ConstantOp>(loc, weights);
    Value bias = rewriter.create<arith::ConstantOp>(
        loc, DenseElementsAttr::get(RankedTensorType::get({n}, e),
                                    rewriter.getFloatAttr(e, 0.0)));
    Value fc = rewriter.create<FullyConnectedOp>(
        loc, RankedTensorType::get({m, n}, e), op.getA(), w, bias,
        FuseCode::none);
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, outType, fc);
    return success();
  }
};

struct MatMulPattern : ToNNAPI<tosa::MatMulOp, BatchMatmulOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::MatMulOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getQuantizationInfo())
      return rewriter.notifyMatchFailure(op, "quantized matmul");
    if (failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<BatchMatmulOp>(op, op.getType(), op.getA(),
                                               op.getB(), false, false);
    return success();
  }
};

struct ReversePattern : ToNNAPI<tosa::ReverseOp, ReverseOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ReverseOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<ReverseOp>(op, op.getType(), op.getInput(),
                                           op.getAxisAttr());
    return success();
  }
};

/// tosa.gather picks rows of values [N, K, C] by indices [N, W]. With
/// constant indices that are the same for every n it is NNAPI's GATHER on
/// axis 1 (the ONNX importer's Gather with constant indices writes that);
/// indices computed at run time (token ids) are read by GATHER from the
/// tensor when there is one row: [1, K, C] by [1, W] gives [1, 1, W, C],
/// reshaped to [1, W, C].
struct GatherPattern : ToNNAPI<tosa::GatherOp, GatherOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::GatherOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkDataTensors(op, rewriter)))
      return failure();
    auto type = cast<RankedTensorType>(op.getIndices().getType());
    int64_t rows = type.getDimSize(0), width = type.getDimSize(1);
    DenseIntElementsAttr indices;
    if (!matchPattern(op.getIndices(), m_Constant(&indices))) {
      if (rows != 1)
        return rewriter.notifyMatchFailure(
            op, "indices computed at run time must have one row (NNAPI's "
                "GATHER takes the same indices for every batch)");
      SmallVector<int64_t> shape(op.getType().getShape());
      shape.insert(shape.begin() + 1, 1);
      Value gathered = rewriter.create<GatherOp>(
          op.getLoc(), op.getType().clone(shape), op.getValues(),
          op.getIndices(), rewriter.getI32IntegerAttr(1));
      rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), gathered);
      return success();
    }
    SmallVector<int32_t> values = llvm::map_to_vector(
        indices.getValues<APInt>(),
        [](const APInt &v) { return int32_t(v.getSExtValue()); });
    for (int64_t r = 1; r < rows; ++r)
      if (!std::equal(values.begin(), values.begin() + width,
                      values.begin() + r * width))
        return rewriter.notifyMatchFailure(
            op, "indices differ between batches");
    values.resize(width);
    Value row = rewriter.create<arith::ConstantOp>(
        op.getLoc(), DenseElementsAttr::get(
                         RankedTensorType::get({width}, rewriter.getI32Type()),
                         ArrayRef<int32_t>(values)));
    rewriter.replaceOpWithNewOp<GatherOp>(op, op.getType(), op.getValues(),
                                          row, rewriter.getI32IntegerAttr(1));
    return success();
  }
};

/// Comparisons, logical ops and select: the nnapi op's operand types (float
/// or bool) are its verifier's business once the tensors are f32, f16 or i1.
template <typename TosaOp, typename NNAPIOp>
struct BoolPattern : ToNNAPI<TosaOp, NNAPIOp> {
  using ToNNAPI<TosaOp, NNAPIOp>::ToNNAPI;
  LogicalResult matchAndRewrite(TosaOp op,
                                PatternRewriter &rewriter) const override {
    // SELECT's no-broadcast rule is its verifier's, like every shape rule.
    if (failed(checkTensors(op, rewriter, Elements::FloatOrBool)))
      return failure();
    rewriter.replaceOpWithNewOp<NNAPIOp>(op, op.getType(), op->getOperands());
    return success();
  }
};

/// tosa.cast between f32, f16, i32 and i1 is CAST, but for float to i32:
/// TOSA rounds to nearest, NNAPI does not say how it rounds.
struct CastPattern : ToNNAPI<tosa::CastOp, CastOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::CastOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter, Elements::FloatBoolOrInt32)))
      return failure();
    if (isa<FloatType>(op.getInput().getType().getElementType()) &&
        op.getType().getElementType().isInteger(32))
      return rewriter.notifyMatchFailure(
          op, "NNAPI leaves the rounding of a float to an integer "
              "unspecified; TOSA rounds to nearest");
    rewriter.replaceOpWithNewOp<CastOp>(op, op.getType(), op.getInput());
    return success();
  }
};

/// tosa.argmax is ARGMAX; as a composite (`ofNegation`), the argmax of a
/// negation (how the ONNX importer writes ArgMin) is ARGMIN of its input.
template <bool ofNegation>
struct ArgMaxPattern : ToNNAPI<tosa::ArgMaxOp, ArgMaxOp, ArgMinOp> {
  using ToNNAPI<tosa::ArgMaxOp, ArgMaxOp, ArgMinOp>::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::ArgMaxOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkTensor(op, op.getInput().getType(), "operand", 0,
                           rewriter)))
      return failure();
    if constexpr (ofNegation) {
      std::optional<ArgMinMatch> m = matchArgMin(op);
      if (!m)
        return rewriter.notifyMatchFailure(op, "not the argmax of a negation");
      rewriter.replaceOpWithNewOp<ArgMinOp>(op, op.getType(), m->input,
                                            op.getAxisAttr());
    } else {
      rewriter.replaceOpWithNewOp<ArgMaxOp>(op, op.getType(), op.getInput(),
                                            op.getAxisAttr());
    }
    return success();
  }
};

/// logical_not(equal(a, b)) is NOT_EQUAL (TOSA has no not-equal).
struct NotEqualPattern : ToNNAPI<tosa::LogicalNotOp, NotEqualOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::LogicalNotOp op,
                                PatternRewriter &rewriter) const override {
    std::optional<NotEqualMatch> m = matchNotEqual(op);
    if (!m)
      return rewriter.notifyMatchFailure(op, "not the negation of an equal");
    tosa::EqualOp equal = m->equal;
    if (failed(checkTensors(equal, rewriter, Elements::FloatOrBool)))
      return failure();
    rewriter.replaceOpWithNewOp<NotEqualOp>(op, op.getType(), equal.getInput1(),
                                            equal.getInput2());
    return success();
  }
};

struct TilePattern : ToNNAPI<tosa::TileOp, TileOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::TileOp op,
                                PatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<TileOp>(op, op.getType(), op.getInput1());
    return success();
  }
};

struct ConstPattern : OpRewritePattern<tosa::ConstOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tosa::ConstOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, op.getValue());
    return success();
  }
};
} // namespace

void mlir::nnapi::populateTosaToNNAPICompositePatterns(
    RewritePatternSet &patterns) {
  patterns.addWithLabel<SoftmaxPattern>(
      {"softmax (reduce_max, sub, exp, reduce_sum, reciprocal, mul)"},
      patterns.getContext());
  patterns.addWithLabel<MeanPattern>({"mean (reduce_sum..., mul by 1/N)"},
                                     patterns.getContext());
  patterns.addWithLabel<HardSwishPattern>(
      {"hard_swish (mul by 1/6, add 1/2, clamp to [0, 1], mul)"},
      patterns.getContext());
  patterns.addWithLabel<InstanceNormPattern>(
      {"instance_normalization ((x - mean) * rsqrt(mean((x - mean)^2) + eps) "
       "over height and width)"},
      patterns.getContext());
  patterns.addWithLabel<MirrorPadPattern>(
      {"mirror_pad (concat of reversed slices around x)"},
      patterns.getContext());
  patterns.addWithLabel<DepthSpacePattern>(
      {"depth_space (NCHW reshape, rank-6 transpose, reshape)"},
      patterns.getContext());
  patterns.addWithLabel<GroupedConvPattern>(
      {"grouped_conv (conv2d per channel slice, concat)"},
      patterns.getContext());
  patterns.addWithLabel<ChannelShufflePattern>(
      {"channel_shuffle (reshape to groups, swap, reshape back)"},
      patterns.getContext());
  patterns.addWithLabel<LocalResponsePattern>(
      {"local_response_normalization (x * pow(bias + k * sum of shifted "
       "squares, -beta))"},
      patterns.getContext());
  patterns.addWithLabel<L2NormalizationPattern>(
      {"l2_normalization (x * select(sum of squares == 0, 0, rsqrt(sum of "
       "squares)))"},
      patterns.getContext());
  patterns.addWithLabel<StridedSlicePattern>(
      {"strided_slice (pad to count x step, reshape to rows, first "
       "column, reshape back)"},
      patterns.getContext());
  patterns.addWithLabel<SplitPattern>(
      {"split (slices cutting one axis into equal pieces)"},
      patterns.getContext());
  patterns.addWithLabel<NotEqualPattern>({"not_equal (logical_not of equal)"},
                                         patterns.getContext());
  patterns.addWithLabel<ArgMaxPattern<true>>(
      {"argmin (argmax of a negate)"}, patterns.getContext());
  patterns.addWithLabel<PreluPattern>(
      {"prelu (add(clamp(x, 0, max), mul(clamp(x, -max, 0), slope)))"},
      patterns.getContext());
  patterns.addWithLabel<EluPattern>(
      {"elu (add(clamp(x, 0, max), mul(exp(clamp(x, -max, 0)) - 1, alpha)))"},
      patterns.getContext());
  patterns.addWithLabel<LogSoftmaxPattern>(
      {"log_softmax (reduce_max, sub, exp, reduce_sum, log, sub)"},
      patterns.getContext());
}

void mlir::nnapi::populateTosaToNNAPIPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<BinaryPattern<tosa::AddOp, AddOp>,
               BinaryPattern<tosa::SubOp, SubOp>,
               BinaryPattern<tosa::MulOp, MulOp>,
               UnaryPattern<tosa::SigmoidOp, LogisticOp>,
               UnaryPattern<tosa::TanhOp, TanhOp>,
               UnaryPattern<tosa::ExpOp, ExpOp>,
               UnaryPattern<tosa::LogOp, LogOp>,
               UnaryPattern<tosa::RsqrtOp, RsqrtOp>,
               UnaryPattern<tosa::AbsOp, AbsOp>,
               UnaryPattern<tosa::NegateOp, NegOp>,
               UnaryPattern<tosa::FloorOp, FloorOp>,
               UnaryPattern<tosa::SinOp, SinOp>,
               BinaryPattern<tosa::MaximumOp, MaximumOp>,
               BinaryPattern<tosa::MinimumOp, MinimumOp>,
               BinaryPattern<tosa::PowOp, PowOp>, SqrtPattern,
               UnaryPattern<tosa::ReshapeOp, ReshapeOp>, ReciprocalPattern,
               ClampPattern, Conv2DPattern, DepthwiseConv2DPattern,
               TransposeConv2DPattern, ResizePattern, FullyConnectedPattern,
               PoolPattern<tosa::MaxPool2dOp, MaxPool2DOp>,
               PoolPattern<tosa::AvgPool2dOp, AveragePool2DOp>, ConcatPattern,
               ClampBoundsPattern, TransposePattern, PadPattern,
               SlicePattern, TilePattern, ReversePattern, GatherPattern,
               BoolPattern<tosa::EqualOp, EqualOp>,
               BoolPattern<tosa::GreaterOp, GreaterOp>,
               BoolPattern<tosa::GreaterEqualOp, GreaterEqualOp>,
               BoolPattern<tosa::LogicalAndOp, LogicalAndOp>,
               BoolPattern<tosa::LogicalOrOp, LogicalOrOp>,
               BoolPattern<tosa::LogicalNotOp, LogicalNotOp>,
               BoolPattern<tosa::SelectOp, SelectOp>, CastPattern,
               ArgMaxPattern<false>,
               ReducePattern<tosa::ReduceSumOp, ReduceSumOp>,
               ReducePattern<tosa::ReduceMaxOp, ReduceMaxOp>,
               ReducePattern<tosa::ReduceMinOp, ReduceMinOp>,
               ReducePattern<tosa::ReduceProdOp, ReduceProdOp>,
               ReducePattern<tosa::ReduceAnyOp, ReduceAnyOp>,
               ReducePattern<tosa::ReduceAllOp, ReduceAllOp>,
               MatMulPattern, ConstPattern>(ctx);
  patterns.addWithLabel<ErfPattern>({"tosa.erf (x P(x^2) / Q(x^2))"}, ctx);
  patterns.addWithLabel<MatMulToFullyConnectedPattern>(
      {"tosa.matmul (constant B, one batch)"}, ctx);
}

//===----------------------------------------------------------------------===//
// The converter: the pass converts with it, the partitioner asks it
//===----------------------------------------------------------------------===//

namespace {
/// Remembers the last reason a pattern gave for not rewriting an op, by the
/// op's location.
struct FailureReasons : RewriterBase::Listener {
  void notifyMatchFailure(
      Location loc, function_ref<void(Diagnostic &)> reasonCallback) override {
    Diagnostic diag(loc, DiagnosticSeverity::Remark);
    reasonCallback(diag);
    reasons[loc] = diag.str();
  }
  DenseMap<Location, std::string> reasons;
};
} // namespace

TosaToNNAPIConverter::TosaToNNAPIConverter(MLIRContext *ctx) {
  RewritePatternSet compositeSet(ctx), perOpSet(ctx), fusionSet(ctx);
  populateTosaToNNAPICompositePatterns(compositeSet);
  populateTosaToNNAPIPatterns(perOpSet);
  populateFuseActivationPatterns(fusionSet);
  composites = FrozenRewritePatternSet(std::move(compositeSet));
  perOp = FrozenRewritePatternSet(std::move(perOpSet));
  fusion = FrozenRewritePatternSet(std::move(fusionSet));
}

LogicalResult TosaToNNAPIConverter::convert(
    func::FuncOp partition, unsigned featureLevel,
    function_ref<void(Operation *, const Twine &)> reject) const {
  // Composites first, while the ops they match are all still TOSA; then one
  // pattern per op; then activations fold into their producers.
  GreedyRewriteConfig config;
  config.maxIterations = 4;
  (void)applyPatternsAndFoldGreedily(partition, composites, config);
  FailureReasons reasons;
  config.listener = &reasons;
  (void)applyPatternsAndFoldGreedily(partition, perOp, config);
  config.listener = nullptr;
  (void)applyPatternsAndFoldGreedily(partition, fusion, config);

  bool ok = true;
  partition.walk([&](Operation *op) {
    if (isa<func::FuncOp, func::ReturnOp, arith::ConstantOp>(op))
      return;
    auto nnapiOp = dyn_cast<NNAPIOperationInterface>(op);
    if (!nnapiOp) {
      auto it = reasons.reasons.find(op->getLoc());
      if (it != reasons.reasons.end())
        reject(op, it->second);
      else
        reject(op, "'" + op->getName().getStringRef() +
                       "' has no NNAPI lowering");
      ok = false;
      return;
    }
    // The op's verifier is the judge of ranks, shapes and attributes; it
    // reports through the diagnostic engine.
    if (failed(verify(op, /*verifyRecursively=*/false))) {
      ok = false;
      return;
    }
    FeatureLevelNeed need = nnapiOp.getFeatureLevelNeed();
    if (need.level > featureLevel) {
      reject(op, "needs NNAPI feature level " + Twine(need.level) + " (" +
                     need.why + "), the target is " + Twine(featureLevel));
      ok = false;
    }
  });
  return success(ok);
}

LogicalResult TosaToNNAPIConverter::convert(func::FuncOp partition,
                                            unsigned featureLevel) const {
  return convert(partition, featureLevel,
                 [](Operation *op, const Twine &why) {
                   std::string text = why.str();
                   std::string name = ("'" + op->getName().getStringRef() +
                                       "'").str();
                   if (StringRef(text).starts_with(name))
                     op->emitError() << text;
                   else
                     op->emitError() << name << " cannot run on NNAPI: "
                                     << text;
                 });
}

ConversionCheck
TosaToNNAPIConverter::check(ArrayRef<Operation *> ops) const {
  ConversionCheck result;
  Operation *root = ops.back();
  MLIRContext *ctx = root->getContext();
  Location loc = root->getLoc();
  llvm::SmallPtrSet<Operation *, 8> inUnit(ops.begin(), ops.end());
  // Values from outside the unit: constants are cloned (patterns look at
  // them), everything else becomes an argument.
  llvm::SetVector<Value> args;
  llvm::SetVector<Operation *> constants;
  for (Operation *op : ops)
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      if (def && inUnit.contains(def))
        continue;
      if (def && matchPattern(def, m_Constant()))
        constants.insert(def);
      else
        args.insert(v);
    }
  // Results used outside the unit, or the root's: what a partition returns.
  SmallVector<Value> results;
  for (Operation *op : ops)
    for (Value r : op->getResults())
      if (llvm::any_of(r.getUsers(),
                       [&](Operation *u) { return !inUnit.contains(u); }))
        results.push_back(r);
  if (results.empty())
    llvm::append_range(results, root->getResults());

  OpBuilder b(ctx);
  OwningOpRef<func::FuncOp> scratch = func::FuncOp::create(
      loc, "nnapi_conversion_check",
      b.getFunctionType(ValueRange(args.getArrayRef()).getTypes(),
                        ValueRange(results).getTypes()));
  Block *body = scratch->addEntryBlock();
  IRMapping map;
  map.map(args.getArrayRef(), body->getArguments());
  b.setInsertionPointToEnd(body);
  for (Operation *c : constants)
    b.clone(*c, map);
  for (Operation *op : ops)
    b.clone(*op, map);
  SmallVector<Value> returned;
  for (Value v : results)
    returned.push_back(map.lookup(v));
  b.create<func::ReturnOp>(loc, returned);

  // Verifier diagnostics become the reason instead of errors.
  std::string firstError;
  ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &diag) {
    if (firstError.empty() && diag.getSeverity() == DiagnosticSeverity::Error)
      firstError = diag.str();
    return success();
  });
  result.convertible = succeeded(
      convert(*scratch, kMaxFeatureLevel, [&](Operation *, const Twine &why) {
        if (firstError.empty())
          firstError = why.str();
      }));
  if (!result.convertible) {
    result.reason = firstError;
    return result;
  }
  scratch->walk([&](NNAPIOperationInterface op) {
    FeatureLevelNeed need = op.getFeatureLevelNeed();
    if (need.level > result.need.level)
      result.need = need;
    result.operations.push_back(op.getOperationCode());
  });
  return result;
}

LogicalResult mlir::nnapi::convertPartitionToNNAPI(func::FuncOp partition,
                                                   unsigned featureLevel) {
  return TosaToNNAPIConverter(partition.getContext())
      .convert(partition, featureLevel);
}
