//===- CompositeMatchers.cpp - TOSA chains that mean one operation --------===//
//
// Matchers for the chains of TOSA ops that one NNAPI operation computes
// (softmax, mean, hard swish, instance normalization...), for
// nnapi-raise-composites.
//
//===----------------------------------------------------------------------===//

#include "CompositeMatchers.h"

#include "nnapi-mlir/Transforms/Constants.h"

#include "mlir/IR/Matchers.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cfloat>

using namespace mlir;
using mlir::nnapi::splatValue;

namespace mlir::nnapi::detail {
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

std::optional<EluMatch> matchElu(tosa::AddOp add) {
  if (!add)
    return std::nullopt;
  for (int i = 0; i < 2; ++i) {
    tosa::ClampOp pos = matchHalfClamp(add->getOperand(i), true);
    if (!pos)
      continue;
    // alpha * (exp(min(x, 0)) - 1); with alpha = 1 (ONNX's default) the
    // multiply was folded away before raising.
    Value scaled = add->getOperand(1 - i);
    auto mul = scaled.getDefiningOp<tosa::MulOp>();
    std::optional<std::pair<Value, double>> scale = matchScale(mul);
    if (!scale) {
      mul = {};
      scale = std::make_pair(scaled, 1.0);
    }
    if (!(scale->second >= 0.0) || (mul && !mul->hasOneUse()))
      continue;
    auto sub = scale->first.getDefiningOp<tosa::SubOp>();
    if (!sub || !sub->hasOneUse() || splatValue(sub.getInput2()) != 1.0)
      continue;
    auto exp = sub.getInput1().getDefiningOp<tosa::ExpOp>();
    if (!exp || !exp->hasOneUse())
      continue;
    tosa::ClampOp neg = matchHalfClamp(exp.getInput1(), false);
    if (!neg || neg.getInput() != pos.getInput() ||
        pos.getInput().getType() != add.getType() ||
        sub.getType() != add.getType())
      continue;
    EluMatch m{{pos, neg, exp, sub}, pos.getInput(), scale->second};
    if (mul)
      m.members.push_back(mul);
    m.members.push_back(add);
    return m;
  }
  return std::nullopt;
}

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

std::optional<NotEqualMatch> matchNotEqual(tosa::LogicalNotOp op) {
  auto equal = op ? op.getInput1().getDefiningOp<tosa::EqualOp>()
                  : tosa::EqualOp();
  if (!equal || !equal->hasOneUse())
    return std::nullopt;
  return NotEqualMatch{{equal, op}, equal};
}

std::optional<ArgMinMatch> matchArgMin(tosa::ArgMaxOp op) {
  auto negate = op ? op.getInput().getDefiningOp<tosa::NegateOp>()
                   : tosa::NegateOp();
  if (!negate || !negate->hasOneUse() || negate.getQuantizationInfo())
    return std::nullopt;
  return ArgMinMatch{{negate, op}, negate.getInput1()};
}

} // namespace mlir::nnapi::detail
