//===- RaiseComposites.cpp - TOSA chains to named composites and back -----===//
//
// nnapi-raise-composites replaces each TOSA chain a matcher recognizes
// (CompositeMatchers.cpp) with an nnapi.composite holding the chain;
// nnapi-inline-composites puts the chains back.
//
//===----------------------------------------------------------------------===//

#include "CompositeMatchers.h"

#include "nnapi-mlir/Transforms/Composites.h"
#include "nnapi-mlir/Transforms/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIRAISECOMPOSITES
#define GEN_PASS_DEF_NNAPIINLINECOMPOSITES
#include "nnapi-mlir/Transforms/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::detail;
namespace names = mlir::nnapi::composite;

namespace {

/// A chain found at a root, in the form of its composite
/// (nnapi-mlir/Transforms/Composites.h).
struct Raised {
  StringRef name;
  /// The chain's ops, in any order; the root is one of them.
  SmallVector<Operation *> members;
  /// The composite's inputs, as Composites.h orders them (orderInputs);
  /// values the chain reads from outside come after them.
  SmallVector<Value> inputs;
  /// The values the composite computes; empty: the root's results.
  SmallVector<Value> outputs;
  SmallVector<NamedAttribute> parameters;
};

using Raiser = std::optional<Raised> (*)(Operation *root, Builder &b);

NamedAttribute intParam(Builder &b, StringRef key, int64_t v) {
  return b.getNamedAttr(key, b.getI64IntegerAttr(v));
}
NamedAttribute floatParam(Builder &b, StringRef key, double v) {
  return b.getNamedAttr(key, b.getF64FloatAttr(v));
}
NamedAttribute arrayParam(Builder &b, StringRef key, ArrayRef<int64_t> v) {
  return b.getNamedAttr(key, b.getDenseI64ArrayAttr(v));
}

/// One entry per composite name: its matcher's result in the composite's
/// form.
const Raiser kRaisers[] = {
    [](Operation *root, Builder &b) -> std::optional<Raised> {
      std::optional<SoftmaxMatch> m = matchSoftmax(dyn_cast<tosa::MulOp>(root));
      if (!m)
        return std::nullopt;
      return Raised{names::kSoftmax,
                    {m->max, m->sub, m->exp, m->sum, m->reciprocal, m->mul},
                    {m->input},
                    {},
                    {intParam(b, names::kAxis, m->axis)}};
    },
    [](Operation *root, Builder &b) -> std::optional<Raised> {
      std::optional<MeanMatch> m = matchMean(dyn_cast<tosa::MulOp>(root));
      if (!m)
        return std::nullopt;
      return Raised{names::kMean,
                    m->members,
                    {m->input},
                    {},
                    {arrayParam(b, names::kAxes, m->axes)}};
    },
    [](Operation *root, Builder &) -> std::optional<Raised> {
      std::optional<HardSwishMatch> m =
          matchHardSwish(dyn_cast<tosa::MulOp>(root));
      if (!m)
        return std::nullopt;
      return Raised{names::kHardSwish, m->members, {m->input}, {}, {}};
    },
    [](Operation *root, Builder &) -> std::optional<Raised> {
      std::optional<PreluMatch> m = matchPrelu(dyn_cast<tosa::AddOp>(root));
      if (!m)
        return std::nullopt;
      return Raised{names::kPrelu,
                    m->members,
                    names::orderInputs(names::kPrelu,
                                       {{names::input::kX, m->input},
                                        {names::input::kSlope, m->slope}}),
                    {},
                    {}};
    },
    [](Operation *root, Builder &b) -> std::optional<Raised> {
      std::optional<EluMatch> m = matchElu(dyn_cast<tosa::AddOp>(root));
      if (!m)
        return std::nullopt;
      return Raised{names::kElu,
                    m->members,
                    {m->input},
                    {},
                    {floatParam(b, names::kAlpha, m->alpha)}};
    },
    [](Operation *root, Builder &b) -> std::optional<Raised> {
      std::optional<LogSoftmaxMatch> m =
          matchLogSoftmax(dyn_cast<tosa::SubOp>(root));
      if (!m)
        return std::nullopt;
      return Raised{names::kLogSoftmax,
                    m->members,
                    {m->input},
                    {},
                    {intParam(b, names::kAxis, m->axis)}};
    },
    [](Operation *root, Builder &b) -> std::optional<Raised> {
      std::optional<InstanceNormMatch> m =
          matchInstanceNorm(dyn_cast<tosa::MulOp>(root));
      if (!m)
        return std::nullopt;
      return Raised{names::kInstanceNormalization,
                    m->members,
                    {m->input},
                    {},
                    {floatParam(b, names::kEpsilon, m->epsilon),
                     intParam(b, names::kChannelAxis, m->nchw ? 1 : 3)}};
    },
    [](Operation *root, Builder &b) -> std::optional<Raised> {
      std::optional<MirrorPadMatch> m =
          matchMirrorPad(dyn_cast<tosa::ConcatOp>(root));
      if (!m)
        return std::nullopt;
      return Raised{
          names::kMirrorPad,
          m->members,
          {m->input},
          {},
          {intParam(b, names::kAxis, m->axis),
           intParam(b, names::kBefore, m->before),
           intParam(b, names::kAfter, m->after),
           b.getNamedAttr(names::kMode, b.getStringAttr(m->symmetric
                                                            ? "symmetric"
                                                            : "reflect"))}};
    },
    [](Operation *root, Builder &b) -> std::optional<Raised> {
      std::optional<DepthSpaceMatch> m =
          matchDepthSpace(dyn_cast<tosa::ReshapeOp>(root));
      if (!m)
        return std::nullopt;
      return Raised{m->toSpace ? names::kDepthToSpace : names::kSpaceToDepth,
                    m->members,
                    {m->input},
                    {},
                    {intParam(b, names::kBlockSize, m->block)}};
    },
    [](Operation *root, Builder &b) -> std::optional<Raised> {
      std::optional<GroupedConvMatch> m =
          matchGroupedConv(dyn_cast<tosa::ConcatOp>(root));
      if (!m)
        return std::nullopt;
      SmallVector<Value> filters, biases;
      for (tosa::Conv2DOp conv : m->convs) {
        filters.push_back(conv.getWeight());
        biases.push_back(conv.getBias());
      }
      return Raised{
          names::kGroupedConv,
          m->members,
          names::orderInputs(names::kGroupedConv,
                             {{names::input::kX, m->input},
                              {names::input::kFilters, filters},
                              {names::input::kBiases, biases}}),
          {},
          {intParam(b, names::kGroups, int64_t(m->convs.size())),
           arrayParam(b, names::kPad, m->convs.front().getPad()),
           arrayParam(b, names::kStride, m->convs.front().getStride())}};
    },
    [](Operation *root, Builder &b) -> std::optional<Raised> {
      std::optional<ChannelShuffleMatch> m =
          matchChannelShuffle(dyn_cast<tosa::ReshapeOp>(root));
      if (!m)
        return std::nullopt;
      return Raised{names::kChannelShuffle,
                    m->members,
                    {m->input},
                    {},
                    {intParam(b, names::kGroups, m->groups),
                     intParam(b, names::kAxis, m->axis)}};
    },
    [](Operation *root, Builder &b) -> std::optional<Raised> {
      std::optional<LocalResponseMatch> m =
          matchLocalResponse(dyn_cast<tosa::MulOp>(root));
      if (!m)
        return std::nullopt;
      return Raised{names::kLocalResponseNormalization,
                    m->members,
                    {m->input},
                    {},
                    {intParam(b, names::kRadius, m->radius),
                     floatParam(b, names::kBias, m->bias),
                     floatParam(b, names::kAlpha, m->alpha),
                     floatParam(b, names::kBeta, m->beta),
                     intParam(b, names::kAxis, m->axis)}};
    },
    [](Operation *root, Builder &b) -> std::optional<Raised> {
      std::optional<L2NormMatch> m =
          matchL2Normalization(dyn_cast<tosa::MulOp>(root));
      if (!m)
        return std::nullopt;
      return Raised{names::kL2Normalization,
                    m->members,
                    {m->input},
                    {},
                    {intParam(b, names::kAxis, m->axis)}};
    },
    [](Operation *root, Builder &) -> std::optional<Raised> {
      std::optional<NotEqualMatch> m =
          matchNotEqual(dyn_cast<tosa::LogicalNotOp>(root));
      if (!m)
        return std::nullopt;
      return Raised{names::kNotEqual,
                    m->members,
                    names::orderInputs(
                        names::kNotEqual,
                        {{names::input::kA, m->equal.getInput1()},
                         {names::input::kB, m->equal.getInput2()}}),
                    {},
                    {}};
    },
    [](Operation *root, Builder &b) -> std::optional<Raised> {
      auto argmax = dyn_cast<tosa::ArgMaxOp>(root);
      std::optional<ArgMinMatch> m = matchArgMin(argmax);
      if (!m)
        return std::nullopt;
      return Raised{names::kArgMin,
                    m->members,
                    {m->input},
                    {},
                    {intParam(b, names::kAxis, argmax.getAxis())}};
    },
    [](Operation *root, Builder &b) -> std::optional<Raised> {
      std::optional<SplitMatch> m = matchSplit(dyn_cast<tosa::SliceOp>(root));
      if (!m)
        return std::nullopt;
      Raised r{names::kSplit,
               m->members,
               {m->input},
               {},
               {intParam(b, names::kAxis, m->axis)}};
      for (Operation *slice : m->members)
        r.outputs.push_back(slice->getResult(0));
      return r;
    },
    [](Operation *root, Builder &b) -> std::optional<Raised> {
      std::optional<StridedSliceMatch> m =
          matchStridedSlice(dyn_cast<tosa::ReshapeOp>(root));
      if (!m)
        return std::nullopt;
      return Raised{names::kStridedSlice,
                    m->members,
                    {m->input},
                    {},
                    {intParam(b, names::kAxis, m->axis),
                     intParam(b, names::kStep, m->step)}};
    },
};

/// `op`, or its ancestor in `block`.
Operation *inBlock(Operation *op, Block *block) {
  return block->findAncestorOpInBlock(*op);
}

/// Replaces the chain `r` found at `root` with a composite, adding the ops
/// it erases (the chain's, constants only the chain used) to `erased`.
/// Returns false (and changes nothing) when the chain cannot be one op: its
/// ops span blocks, a value it computes is used outside and is not a result,
/// or no point in the block follows its inputs and precedes its results'
/// users.
bool raise(Raised &r, Operation *root, OpBuilder &b,
           llvm::SmallPtrSetImpl<Operation *> &erased) {
  Block *block = root->getBlock();
  if (!llvm::all_of(r.members,
                    [&](Operation *m) { return m->getBlock() == block; }))
    return false;
  llvm::sort(r.members,
             [](Operation *x, Operation *y) { return x->isBeforeInBlock(y); });
  llvm::SmallPtrSet<Operation *, 16> inChain(r.members.begin(),
                                             r.members.end());
  if (r.outputs.empty())
    llvm::append_range(r.outputs, root->getResults());
  llvm::SmallPtrSet<Value, 8> isOutput;
  for (Value v : r.outputs)
    isOutput.insert(v);
  // Where the composite goes: before the root, or before the first user of
  // a result that comes earlier (a split's pieces).
  Operation *point = root;
  for (Operation *m : r.members)
    for (Value v : m->getResults())
      for (Operation *user : v.getUsers()) {
        if (inChain.contains(user))
          continue;
        if (!isOutput.contains(v))
          return false;
        Operation *u = inBlock(user, block);
        if (u && u->isBeforeInBlock(point))
          point = u;
      }
  // Values from outside: declared inputs, constants (cloned into the body),
  // and anything else as a further input.
  // (A declared input may repeat: two groups' filters can be one constant.)
  SmallVector<Value> inputs = r.inputs;
  llvm::SmallPtrSet<Value, 8> known(inputs.begin(), inputs.end());
  llvm::SetVector<Operation *> constants;
  for (Operation *m : r.members)
    for (Value v : m->getOperands()) {
      Operation *def = v.getDefiningOp();
      if ((def && inChain.contains(def)) || known.contains(v))
        continue;
      if (def && matchPattern(def, m_Constant())) {
        constants.insert(def);
      } else {
        inputs.push_back(v);
        known.insert(v);
      }
    }
  // Values from enclosing blocks and this block's arguments dominate
  // `point`; ops of this block must come before it.
  for (Value v : inputs) {
    Operation *def = v.getDefiningOp();
    if (def && def->getBlock() == block && !def->isBeforeInBlock(point))
      return false;
  }

  b.setInsertionPoint(point);
  auto composite = b.create<CompositeOp>(
      root->getLoc(), ValueRange(r.outputs).getTypes(), r.name,
      inputs, b.getDictionaryAttr(r.parameters));
  Block *body = b.createBlock(&composite.getBody());
  IRMapping map;
  // A repeated input maps to its first argument.
  for (Value v : inputs) {
    BlockArgument arg = body->addArgument(v.getType(), v.getLoc());
    if (!map.contains(v))
      map.map(v, arg);
  }
  b.setInsertionPointToEnd(body);
  for (Operation *c : constants)
    b.clone(*c, map);
  for (Operation *m : r.members)
    b.clone(*m, map);
  b.create<YieldOp>(root->getLoc(),
                    llvm::map_to_vector(r.outputs, [&](Value v) {
                      return map.lookup(v);
                    }));
  for (auto [v, result] : llvm::zip(r.outputs, composite.getResults()))
    v.replaceAllUsesWith(result);
  for (Operation *m : llvm::reverse(r.members)) {
    erased.insert(m);
    m->erase();
  }
  for (Operation *c : constants)
    if (c->use_empty()) {
      erased.insert(c);
      c->erase();
    }
  return true;
}

struct RaiseCompositesPass
    : nnapi::impl::NNAPIRaiseCompositesBase<RaiseCompositesPass> {
  void runOnOperation() override {
    // The blocks to look at, not those of composites already there.
    SmallVector<Block *> blocks;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<CompositeOp>(op))
        return WalkResult::skip();
      for (Region &region : op->getRegions())
        for (Block &block : region)
          blocks.push_back(&block);
      return WalkResult::advance();
    });
    OpBuilder b(&getContext());
    for (Block *block : blocks) {
      // Roots come after their chains: from the last op up, a larger
      // composite is raised before the smaller ones inside it.
      SmallVector<Operation *> ops = llvm::map_to_vector(
          llvm::reverse(*block), [](Operation &op) { return &op; });
      llvm::SmallPtrSet<Operation *, 32> erased;
      for (Operation *root : ops) {
        if (erased.contains(root))
          continue;
        // The largest chain at this root that can be one op.
        std::vector<Raised> found;
        for (Raiser raiser : kRaisers)
          if (std::optional<Raised> r = raiser(root, b))
            found.push_back(std::move(*r));
        llvm::stable_sort(found, [](const Raised &x, const Raised &y) {
          return x.members.size() > y.members.size();
        });
        for (Raised &r : found)
          if (raise(r, root, b, erased))
            break;
      }
    }
  }
};

struct InlineCompositesPass
    : nnapi::impl::NNAPIInlineCompositesBase<InlineCompositesPass> {
  void runOnOperation() override {
    // Quantized convolutions and additions take their host form
    // (QuantizedHost.cpp), their bodies' quantize composites still whole.
    getOperation()->walk(
        [](CompositeOp op) { (void)names::quantizedHostBody(op); });
    // Inner composites first: each one's body is then plain TOSA.
    SmallVector<CompositeOp> composites;
    getOperation()->walk<WalkOrder::PostOrder>(
        [&](CompositeOp op) { composites.push_back(op); });
    for (CompositeOp op : composites)
      op.inlineBody();
  }
};

} // namespace
