//===- ControlFlowPatterns.cpp - tosa.cond_if and tosa.while_loop ---------===//
//
// tosa.cond_if becomes nnapi.if and tosa.while_loop nnapi.while. NNAPI's
// referenced models see only their inputs, so the values a TOSA region uses
// from above become inputs (constants are cloned in). The regions' ops are
// cloned into the new op, where the other patterns of the same rewrite
// convert them; one that does not convert keeps the partition from NNAPI
// with its own reason.
//
// NNAPI models cannot return an input, a constant or one value twice: a
// region that would is refused. A loop-carried value the body passes on
// unchanged becomes one of WHILE's input-only operands and the loop's
// result is its initial value.
//
//===----------------------------------------------------------------------===//

#include "PatternCommon.h"

#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::detail;

namespace {

/// What the regions of `op` use from above, constants apart.
struct Captures {
  SmallVector<Value> values;
  SmallVector<Operation *> constants;
};

Captures capturesOf(Operation *op) {
  llvm::SetVector<Value> used;
  getUsedValuesDefinedAbove(op->getRegions(), used);
  Captures c;
  for (Value v : used) {
    Operation *def = v.getDefiningOp();
    if (def && matchPattern(def, m_Constant()))
      c.constants.push_back(def);
    else
      c.values.push_back(v);
  }
  return c;
}

/// The one-element boolean behind a reshape to rank 0 (the importer's form
/// of a condition), else `v`.
Value throughScalarReshape(Value v) {
  if (auto reshape = v.getDefiningOp<tosa::ReshapeOp>())
    if (auto from = dyn_cast<RankedTensorType>(reshape.getInput1().getType()))
      if (from.hasStaticShape() && from.getNumElements() == 1)
        return reshape.getInput1();
  return v;
}

/// Fails (with the reason) unless each of `values`, yielded by `block`,
/// is computed there by a non-constant op, once.
LogicalResult checkYields(Operation *op, Block &block, ValueRange values,
                          StringRef what, PatternRewriter &rewriter) {
  llvm::SmallPtrSet<Value, 8> seen;
  for (auto [i, v] : llvm::enumerate(values)) {
    Operation *def = v.getDefiningOp();
    StringRef problem;
    if (!def || def->getBlock() != &block)
      problem = "passes on an input unchanged";
    else if (matchPattern(def, m_Constant()))
      problem = "returns a constant";
    else if (!seen.insert(v).second)
      problem = "returns one value twice";
    if (!problem.empty())
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
        diag << "the " << what << " " << problem << " (result " << i
             << "); an NNAPI model returns only values its operations "
                "compute";
      });
  }
  return success();
}

LogicalResult checkTypes(Operation *op, ValueRange values, StringRef what,
                         PatternRewriter &rewriter) {
  for (auto [i, v] : llvm::enumerate(values))
    if (failed(checkTensor(op, v.getType(), what, i, rewriter,
                           Elements::FloatBoolOrInt32)))
      return failure();
  return success();
}

/// Fills `to` (a new region of an nnapi op) with a block taking `types`,
/// the captured constants and `from`'s ops cloned, `map` already mapping
/// `from`'s arguments and the captured values to positions in `types`
/// (`argOf`), and an nnapi.yield of `yields` mapped.
void cloneModel(PatternRewriter &rewriter, Location loc, Region &from,
                Region &to, TypeRange types, ArrayRef<Value> argOf,
                ArrayRef<unsigned> argPositions,
                ArrayRef<Operation *> constants, ValueRange yields) {
  SmallVector<Location> locs(types.size(), loc);
  Block *block = rewriter.createBlock(&to, to.end(), types, locs);
  IRMapping map;
  for (auto [v, position] : llvm::zip(argOf, argPositions))
    map.map(v, block->getArgument(position));
  for (Operation *c : constants)
    rewriter.clone(*c, map);
  for (Operation &op : from.front().without_terminator())
    rewriter.clone(op, map);
  SmallVector<Value> mapped;
  for (Value v : yields)
    mapped.push_back(map.lookup(v));
  rewriter.create<YieldOp>(loc, mapped);
}

struct CondIfPattern : ToNNAPI<tosa::IfOp, IfOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::IfOp op,
                                PatternRewriter &rewriter) const override {
    Captures captured = capturesOf(op);
    SmallVector<Value> inputs(op.getInputs());
    llvm::append_range(inputs, captured.values);
    Value cond = throughScalarReshape(op.getCond());
    if (failed(checkTypes(op, inputs, "input", rewriter)) ||
        failed(checkTypes(op, op.getResults(), "result", rewriter)))
      return failure();
    Region *branches[2] = {&op.getThenBranch(), &op.getElseBranch()};
    const char *names[2] = {"then branch", "else branch"};
    for (int k = 0; k < 2; ++k) {
      Block &block = branches[k]->front();
      if (failed(checkYields(op, block,
                             block.getTerminator()->getOperands(), names[k],
                             rewriter)))
        return failure();
    }
    auto ifOp = rewriter.create<IfOp>(op.getLoc(), op.getResultTypes(), cond,
                                      inputs);
    TypeRange types = ValueRange(inputs).getTypes();
    Region *targets[2] = {&ifOp.getThenBranch(), &ifOp.getElseBranch()};
    for (int k = 0; k < 2; ++k) {
      Block &block = branches[k]->front();
      SmallVector<Value> argOf(block.getArguments());
      llvm::append_range(argOf, captured.values);
      SmallVector<unsigned> positions;
      for (unsigned i = 0; i < argOf.size(); ++i)
        positions.push_back(i);
      cloneModel(rewriter, op.getLoc(), *branches[k], *targets[k], types,
                 argOf, positions, captured.constants,
                 block.getTerminator()->getOperands());
    }
    rewriter.replaceOp(op, ifOp.getResults());
    return success();
  }
};

struct WhileLoopPattern : ToNNAPI<tosa::WhileOp, WhileOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(tosa::WhileOp op,
                                PatternRewriter &rewriter) const override {
    Block &cond = op.getCond().front(), &body = op.getBody().front();
    Operation *bodyYield = body.getTerminator();
    ValueRange inits = op.getInputs();
    // NNAPI's order: the values the body changes (loop-carried), then
    // those it passes on unchanged and the captured ones (input-only).
    SmallVector<unsigned> carried, unchanged;
    for (unsigned i = 0; i < inits.size(); ++i)
      (bodyYield->getOperand(i) == body.getArgument(i) ? unchanged : carried)
          .push_back(i);
    Captures captured = capturesOf(op);
    SmallVector<Value> inputs;
    SmallVector<unsigned> positionOf(inits.size());
    for (unsigned i : carried) {
      positionOf[i] = inputs.size();
      inputs.push_back(inits[i]);
    }
    for (unsigned i : unchanged) {
      positionOf[i] = inputs.size();
      inputs.push_back(inits[i]);
    }
    llvm::append_range(inputs, captured.values);
    if (failed(checkTypes(op, inputs, "input", rewriter)))
      return failure();
    if (carried.empty())
      return rewriter.notifyMatchFailure(op, "the body changes no value");
    SmallVector<Value> nextValues;
    for (unsigned i : carried)
      nextValues.push_back(bodyYield->getOperand(i));
    Value keep = throughScalarReshape(cond.getTerminator()->getOperand(0));
    // A condition that is a loop-carried flag is computed as
    // LOGICAL_AND(flag, flag): a model cannot return its input.
    bool flagCondition = isa<BlockArgument>(keep);
    if (failed(checkYields(op, body, nextValues, "body", rewriter)) ||
        (!flagCondition &&
         failed(checkYields(op, cond, keep, "condition", rewriter))))
      return failure();

    SmallVector<Type> resultTypes;
    for (unsigned i : carried)
      resultTypes.push_back(inits[i].getType());
    auto loop = rewriter.create<WhileOp>(op.getLoc(), resultTypes, inputs);
    TypeRange types = ValueRange(inputs).getTypes();
    for (auto [from, to, yields] :
         {std::tuple{&op.getCond(), &loop.getCondition(),
                     SmallVector<Value>{keep}},
          std::tuple{&op.getBody(), &loop.getBody(), nextValues}}) {
      Block &block = from->front();
      SmallVector<Value> argOf(block.getArguments());
      SmallVector<unsigned> positions(positionOf);
      for (auto [k, v] : llvm::enumerate(captured.values)) {
        argOf.push_back(v);
        positions.push_back(inits.size() + k);
      }
      cloneModel(rewriter, op.getLoc(), *from, *to, types, argOf, positions,
                 captured.constants, yields);
    }
    if (flagCondition) {
      Operation *yield = loop.getCondition().front().getTerminator();
      rewriter.setInsertionPoint(yield);
      Value flag = yield->getOperand(0);
      Value same = rewriter.create<tosa::LogicalAndOp>(
          op.getLoc(), flag.getType(), flag, flag);
      rewriter.modifyOpInPlace(yield, [&] { yield->setOperand(0, same); });
      rewriter.setInsertionPointAfter(loop);
    }
    // A value the body passes on unchanged ends as it began.
    SmallVector<Value> results(inits.size());
    for (auto [k, i] : llvm::enumerate(carried))
      results[i] = loop.getResult(k);
    for (unsigned i : unchanged)
      results[i] = inits[i];
    rewriter.replaceOp(op, results);
    return success();
  }
};

} // namespace

void mlir::nnapi::populateTosaToNNAPIControlFlowPatterns(
    RewritePatternSet &patterns) {
  patterns.add<CondIfPattern, WhileLoopPattern>(patterns.getContext());
}
