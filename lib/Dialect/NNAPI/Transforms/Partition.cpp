//===- Partition.cpp - Outline NNAPI-runnable regions into functions ------===//
//
// Regions grow greedily in program order: an op NNAPI can run joins the
// region of one of its operands' producers when the merged region stays
// convex (no path leaves it and comes back through a host op), otherwise it
// starts a region of its own. Multi-op composites (a decomposed softmax)
// enter as one unit. Each region is then outlined into a private function.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Dialect/NNAPI/Transforms/Passes.h"
#include "nnapi-mlir/Conversion/TosaToNNAPI/TosaToNNAPI.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIPARTITION
#define GEN_PASS_DEF_NNAPIFUSEACTIVATIONS
#include "nnapi-mlir/Dialect/NNAPI/Transforms/Passes.h.inc"
} // namespace mlir::nnapi

#include "nnapi-mlir/Dialect/NNAPI/IR/Fusion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::nnapi;

namespace {

/// Constants are cloned into every region that uses them, never placed.
bool isConstantLike(Operation *op) { return matchPattern(op, m_Constant()); }

class Partitioner {
public:
  Partitioner(Block &block, unsigned featureLevel, bool emitRemarks)
      : block(block), featureLevel(featureLevel), emitRemarks(emitRemarks) {}

  /// Groups the block's ops into regions; returns them in program order,
  /// each sorted by program order.
  SmallVector<SmallVector<Operation *>> run();

private:
  bool isCandidate(Operation *op);
  /// True if the ops of `set` (all in this block) form a convex region.
  bool isConvex(const llvm::SmallPtrSetImpl<Operation *> &set);
  /// Every op in the same region as `op`.
  SmallVector<Operation *> members(Operation *op);

  Block &block;
  unsigned featureLevel;
  bool emitRemarks;
  DenseMap<Operation *, unsigned> order;
  DenseMap<Operation *, bool> candidate;
  /// Union-find over ops: each class is one region (or composite unit).
  llvm::EquivalenceClasses<Operation *> regions;
};

bool Partitioner::isCandidate(Operation *op) {
  auto it = candidate.find(op);
  return it != candidate.end() && it->second;
}

SmallVector<Operation *> Partitioner::members(Operation *leader) {
  // findLeader: iterating from a non-leader member would miss the others.
  return SmallVector<Operation *>(regions.findLeader(leader),
                                  regions.member_end());
}

bool Partitioner::isConvex(const llvm::SmallPtrSetImpl<Operation *> &set) {
  unsigned last = 0;
  for (Operation *op : set)
    last = std::max(last, order[op]);
  // Walk forward from every user outside the set; reaching the set again
  // means a path out and back in. Ops after the set's last op cannot reach it.
  SmallVector<Operation *> worklist;
  llvm::SmallPtrSet<Operation *, 32> visited;
  for (Operation *op : set)
    for (Operation *user : op->getUsers())
      if (!set.contains(user) && user->getBlock() == &block &&
          order[user] < last && visited.insert(user).second)
        worklist.push_back(user);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Operation *user : op->getUsers()) {
      if (user->getBlock() != &block)
        continue;
      if (set.contains(user))
        return false;
      if (order[user] < last && visited.insert(user).second)
        worklist.push_back(user);
    }
  }
  return true;
}

SmallVector<SmallVector<Operation *>> Partitioner::run() {
  unsigned index = 0;
  for (Operation &op : block.without_terminator())
    order[&op] = index++;

  // Decide what NNAPI can run; composites are all-or-nothing units.
  for (Operation &op : block.without_terminator()) {
    if (isConstantLike(&op))
      continue;
    std::string reason;
    bool legal = op.getNumRegions() == 0 &&
                 isLegalForNNAPI(&op, featureLevel, &reason);
    if (op.getNumRegions())
      reason = "ops with regions stay on the host";
    candidate[&op] = legal;
    if (!legal && emitRemarks)
      op.emitRemark() << "stays on the host: " << reason;
  }
  SmallVector<SmallVector<Operation *>> composites;
  for (Operation &op : block.without_terminator()) {
    if (!isCandidate(&op))
      continue;
    SmallVector<Operation *> composite = getCompositeMembers(&op);
    bool whole = llvm::all_of(composite, [&](Operation *m) {
      return m->getBlock() == &block && isCandidate(m);
    });
    if (!whole) {
      candidate[&op] = false;
      if (emitRemarks)
        op.emitRemark("stays on the host: part of a pattern that NNAPI "
                      "cannot run as a whole");
    } else if (!composite.empty()) {
      composites.push_back(std::move(composite));
    }
  }
  for (Operation &op : block.without_terminator())
    if (isCandidate(&op))
      regions.insert(&op);
  for (ArrayRef<Operation *> composite : composites)
    for (Operation *m : composite)
      regions.unionSets(composite.front(), m);

  // Grow: merge each unit into a producer's region when that stays convex.
  for (Operation &op : block.without_terminator()) {
    if (!isCandidate(&op))
      continue;
    for (Value operand : op.getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (!producer || producer->getBlock() != &block ||
          !isCandidate(producer) ||
          regions.isEquivalent(producer, &op))
        continue;
      llvm::SmallPtrSet<Operation *, 32> merged;
      for (Operation *m : members(&op))
        merged.insert(m);
      for (Operation *m : members(producer))
        merged.insert(m);
      if (isConvex(merged))
        regions.unionSets(producer, &op);
    }
  }

  SmallVector<SmallVector<Operation *>> result;
  llvm::SmallPtrSet<Operation *, 16> seen;
  for (Operation &op : block.without_terminator()) {
    if (!isCandidate(&op))
      continue;
    Operation *leader = regions.getLeaderValue(&op);
    if (!seen.insert(leader).second)
      continue;
    SmallVector<Operation *> ops = members(leader);
    llvm::sort(ops, [&](Operation *a, Operation *b) {
      return order[a] < order[b];
    });
    result.push_back(std::move(ops));
  }
  return result;
}

/// Outlines `ops` (convex, program order) into a new private function and
/// replaces them with a call. Returns the function.
func::FuncOp outline(func::FuncOp parent, ArrayRef<Operation *> ops,
                     StringRef name, unsigned featureLevel) {
  llvm::SmallPtrSet<Operation *, 32> inRegion(ops.begin(), ops.end());
  llvm::SetVector<Value> inputs, outputs;
  llvm::SetVector<Operation *> constants;
  for (Operation *op : ops) {
    for (Value v : op->getOperands()) {
      Operation *def = v.getDefiningOp();
      if (def && inRegion.contains(def))
        continue;
      if (def && isConstantLike(def))
        constants.insert(def);
      else
        inputs.insert(v);
    }
    for (Value r : op->getResults())
      for (Operation *user : r.getUsers())
        if (!inRegion.contains(user)) {
          outputs.insert(r);
          break;
        }
  }

  OpBuilder builder(parent.getContext());
  builder.setInsertionPointAfter(parent);
  SmallVector<Type> inputTypes, outputTypes;
  for (Value v : inputs)
    inputTypes.push_back(v.getType());
  for (Value v : outputs)
    outputTypes.push_back(v.getType());
  Location loc = builder.getFusedLoc(llvm::to_vector(
      llvm::map_range(ops, [](Operation *op) { return op->getLoc(); })));
  auto func = builder.create<func::FuncOp>(
      loc, name, builder.getFunctionType(inputTypes, outputTypes));
  func.setPrivate();
  func->setAttr(NNAPIDialect::kPartitionAttrName, builder.getUnitAttr());
  func->setAttr(NNAPIDialect::kFeatureLevelAttrName,
                builder.getI32IntegerAttr(featureLevel));
  Block *body = func.addEntryBlock();
  builder.setInsertionPointToStart(body);
  IRMapping mapping;
  for (auto [v, arg] : llvm::zip(inputs, body->getArguments()))
    mapping.map(v, arg);
  for (Operation *c : constants)
    builder.clone(*c, mapping);
  for (Operation *op : ops)
    builder.clone(*op, mapping);
  builder.create<func::ReturnOp>(
      loc, llvm::to_vector(llvm::map_range(
               outputs, [&](Value v) { return mapping.lookup(v); })));

  // The call goes after the region's last op; users of its results that sat
  // between the region's ops are moved after it by the topological sort.
  builder.setInsertionPointAfter(ops.back());
  auto call = builder.create<func::CallOp>(loc, func, inputs.getArrayRef());
  for (auto [output, r] : llvm::zip(outputs, call.getResults()))
    Value(output).replaceUsesWithIf(r, [&](OpOperand &use) {
      return !inRegion.contains(use.getOwner());
    });
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  return func;
}

struct NNAPIPartitionPass
    : public nnapi::impl::NNAPIPartitionBase<NNAPIPartitionPass> {
  using NNAPIPartitionBase::NNAPIPartitionBase;

  void runOnOperation() override {
    if (featureLevel < 1 || featureLevel > kMaxFeatureLevel) {
      getOperation().emitError()
          << "nnapi-partition: feature-level must be 1.." << kMaxFeatureLevel
          << ", got " << featureLevel;
      return signalPassFailure();
    }
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> funcs;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() &&
          !func->hasAttr(NNAPIDialect::kPartitionAttrName))
        funcs.push_back(func);
    SymbolTable symbols(module);
    for (func::FuncOp func : funcs) {
      if (!func.getBody().hasOneBlock()) {
        func.emitRemark("functions with several blocks stay on the host");
        continue;
      }
      Block &block = func.getBody().front();
      Partitioner partitioner(block, featureLevel, emitRemarks);
      unsigned count = 0;
      for (SmallVector<Operation *> &region : partitioner.run()) {
        std::string name =
            (func.getSymName() + "_nnapi_" + Twine(count++)).str();
        func::FuncOp partition = outline(func, region, name, featureLevel);
        symbols.insert(partition); // uniquifies the name if it clashes
      }
      if (count && !sortTopologically(&block)) {
        func.emitError("nnapi-partition: outlining produced a cycle");
        return signalPassFailure();
      }
    }
  }
};

struct NNAPIFuseActivationsPass
    : public nnapi::impl::NNAPIFuseActivationsBase<NNAPIFuseActivationsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFuseActivationPatterns(patterns);
    if (failed(applyPatternsAndFoldGreedily(getOperation(),
                                            std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
