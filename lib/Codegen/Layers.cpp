//===- Layers.cpp - Large host functions cut up; identical ones merged ----===//
//
// Two passes that keep the LLVM module small and evenly divisible:
//
// - nnapi-outline-layers cuts a large function body into layer functions
//   (segments of ops in program order, each closed under the uses of what it
//   computes), which LLVM optimizes and compiles one at a time and which the
//   backend can give to different threads;
// - nnapi-merge-identical-functions keeps one of each set of private
//   functions with the same type, attributes and body.
//
// The two work together: a layer takes the buffers it works on (views of
// the arena, globals) as arguments instead of computing them, so that two
// layers of the same shapes have the same body whatever their weights and
// arena offsets.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Codegen/Passes.h"

#include "Outlining.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIOUTLINELAYERS
#define GEN_PASS_DEF_NNAPIMERGEIDENTICALFUNCTIONS
#include "nnapi-mlir/Codegen/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// nnapi-outline-layers
//===----------------------------------------------------------------------===//

/// Ops in `op`, itself included.
unsigned countOps(Operation *op) {
  unsigned count = 0;
  op->walk([&](Operation *) { ++count; });
  return count;
}

struct OutlineLayersPass
    : public nnapi::impl::NNAPIOutlineLayersBase<OutlineLayersPass> {
  using NNAPIOutlineLayersBase::NNAPIOutlineLayersBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      if (func.isExternal() || !func.getBody().hasOneBlock() ||
          countOps(func) <= 2 * layerOps)
        continue;
      Cutting state{func, func};
      cut(symbols, state, func.getBody().front());
    }
  }

  /// The function being cut: the layers follow it, in order.
  struct Cutting {
    func::FuncOp func;
    Operation *last;
    unsigned outlined = 0;
  };
  /// Cuts `block` into layers, the blocks of its large ops first.
  void cut(SymbolTable &symbols, Cutting &state, Block &block);
  /// Makes `ops` (in `block`, in program order, none used after the last) a
  /// function and a call of it; false (and nothing changed) if they use a
  /// value a call cannot pass.
  bool outline(SymbolTable &symbols, Cutting &state, Block &block,
               ArrayRef<Operation *> ops);
};

void OutlineLayersPass::cut(SymbolTable &symbols, Cutting &state, Block &body) {
  // A large control-flow op's own blocks first (the host copy in a
  // partition call's fallback branch, a loop's body): then it is one op of
  // this block's layers like any other. (Not other ops' regions: a call in a
  // linalg payload would be no layer.)
  for (Operation &op : body)
    if (isa<scf::IfOp, scf::ForOp, scf::WhileOp>(op) &&
        countOps(&op) > 2 * layerOps)
      for (Region &region : op.getRegions())
        if (region.hasOneBlock())
          cut(symbols, state, region.front());
  // Small enough (maybe only now) to stay whole.
  unsigned size = 0;
  for (Operation &op : body)
    size += countOps(&op);
  if (size <= 2 * layerOps)
    return;
  // Ops that stay where they are: the pure, region-free ops computed from
  // what the block gets from outside, allocations and other such ops
  // (constants, views of the arena, globals, index arithmetic). The rest is
  // the work the layers hold.
  DenseSet<Operation *> stays;
  DenseMap<Operation *, unsigned> position;
  for (Operation &op : body) {
    position[&op] = position.size();
    bool addressOnly = op.getNumRegions() == 0 && isPure(&op) &&
                       llvm::all_of(op.getOperands(), [&](Value v) {
                         Operation *def = v.getDefiningOp();
                         return !def || def->getBlock() != &body ||
                                stays.contains(def) ||
                                isa<memref::AllocOp, memref::AllocaOp>(def);
                       });
    if (addressOnly)
      stays.insert(&op);
  }
  // The position of the last op using a result of each op.
  auto lastUse = [&](Operation *op) {
    unsigned last = position[op];
    for (Value result : op->getResults())
      for (Operation *user : result.getUsers())
        if (Operation *top = body.findAncestorOpInBlock(*user))
          last = std::max(last, position[top]);
    return last;
  };

  SmallVector<Operation *> segment;
  unsigned weight = 0, usedUntil = 0;
  // Outlines the segment if nothing after it uses what it computes and it
  // is worth a call, and starts the next.
  auto close = [&](unsigned least) {
    if (!segment.empty() && weight >= least &&
        usedUntil <= position[segment.back()])
      outline(symbols, state, body, segment);
    segment.clear();
    weight = usedUntil = 0;
  };
  for (Operation &op : llvm::make_early_inc_range(body)) {
    if (stays.contains(&op))
      continue;
    // Allocations, deallocations and the terminator end a segment: its ops
    // move down to its last one, which must not cross them.
    if (op.hasTrait<OpTrait::IsTerminator>() ||
        isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp>(op)) {
      close(layerOps / 4);
      continue;
    }
    segment.push_back(&op);
    weight += countOps(&op);
    usedUntil = std::max(usedUntil, lastUse(&op));
    if (weight >= layerOps && usedUntil <= position[&op])
      close(layerOps);
  }
  close(layerOps / 4);
}

bool OutlineLayersPass::outline(SymbolTable &symbols, Cutting &state,
                                Block &body, ArrayRef<Operation *> ops) {
  DenseSet<Operation *> inside(ops.begin(), ops.end());
  // What the ops use from outside, in the order of first use: constants are
  // cloned, the rest passed.
  llvm::SetVector<Value> captured;
  for (Operation *op : ops)
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands()) {
        // Computed in the segment (at its top level or in one of its ops'
        // regions) or not.
        Operation *owner = v.getDefiningOp();
        if (!owner)
          owner = v.getParentBlock()->getParentOp();
        Operation *top = body.findAncestorOpInBlock(*owner);
        if (!top || !inside.contains(top))
          captured.insert(v);
      }
    });
  // Buffers of dynamic shape, strides or offset have no bare-pointer form:
  // they go as their base buffer (rank 0, static) and the dynamic parts of
  // their layout, from which the layer rebuilds them.
  SmallVector<Value> passed, clones, rebuilt;
  for (Value v : captured) {
    if (nnapi::isClonedConstant(v))
      clones.push_back(v);
    else if (nnapi::isBarePointerPassable(v.getType()))
      passed.push_back(v);
    else if (auto memref = dyn_cast<MemRefType>(v.getType());
             memref && isStrided(memref))
      rebuilt.push_back(v);
    else
      return false;
  }

  MLIRContext *ctx = &getContext();
  Location loc = ops.front()->getLoc();
  OpBuilder builder(ctx);
  // The caller's arguments: the passed values, then each rebuilt buffer's
  // base, offset, sizes and strides where they are dynamic.
  builder.setInsertionPointAfter(ops.back());
  SmallVector<Value> arguments(passed);
  for (Value v : rebuilt) {
    auto metadata = builder.create<memref::ExtractStridedMetadataOp>(loc, v);
    auto [strides, offset] = getStridesAndOffset(cast<MemRefType>(v.getType()));
    arguments.push_back(metadata.getBaseBuffer());
    if (ShapedType::isDynamic(offset))
      arguments.push_back(metadata.getOffset());
    for (auto [size, value] : llvm::zip(
             cast<MemRefType>(v.getType()).getShape(), metadata.getSizes()))
      if (ShapedType::isDynamic(size))
        arguments.push_back(value);
    for (auto [stride, value] : llvm::zip(strides, metadata.getStrides()))
      if (ShapedType::isDynamic(stride))
        arguments.push_back(value);
  }
  OpBuilder::InsertPoint callPoint = builder.saveInsertionPoint();

  builder.setInsertionPointAfter(state.last);
  auto callee = builder.create<func::FuncOp>(
      loc, (state.func.getSymName() + "_layer" + Twine(state.outlined++)).str(),
      FunctionType::get(ctx, ValueRange(arguments).getTypes(), {}));
  callee.setPrivate();
  // Cut apart, the layers must stay apart in LLVM too; and they are not the
  // library's symbols.
  callee->setAttr("no_inline", builder.getUnitAttr());
  callee->setAttr("llvm.linkage",
                  LLVM::LinkageAttr::get(ctx, LLVM::Linkage::Internal));
  symbols.insert(callee); // renamed if the name is taken
  state.last = callee;
  Block *entry = callee.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  IRMapping map;
  map.map(passed, entry->getArguments().take_front(passed.size()));
  auto next = entry->getArguments().drop_front(passed.size()).begin();
  for (Value v : rebuilt) {
    auto type = cast<MemRefType>(v.getType());
    auto [strides, offset] = getStridesAndOffset(type);
    Value base = *next++;
    auto part = [&](int64_t value) -> OpFoldResult {
      if (ShapedType::isDynamic(value))
        return *next++;
      return builder.getIndexAttr(value);
    };
    OpFoldResult offsetPart = part(offset);
    SmallVector<OpFoldResult> sizes, stridesPart;
    for (int64_t size : type.getShape())
      sizes.push_back(part(size));
    for (int64_t stride : strides)
      stridesPart.push_back(part(stride));
    map.map(v, builder.create<memref::ReinterpretCastOp>(
                   loc, type, base, offsetPart, sizes, stridesPart));
  }
  for (Value v : clones)
    map.map(v, builder.clone(*v.getDefiningOp())->getResult(0));
  for (Operation *op : ops)
    builder.clone(*op, map);
  builder.create<func::ReturnOp>(loc);

  builder.restoreInsertionPoint(callPoint);
  builder.create<func::CallOp>(loc, callee, arguments);
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  return true;
}

//===----------------------------------------------------------------------===//
// nnapi-merge-identical-functions
//===----------------------------------------------------------------------===//

/// A function's attributes but its name.
DictionaryAttr attributesButName(func::FuncOp func) {
  NamedAttrList attrs(func->getAttrDictionary());
  attrs.erase(SymbolTable::getSymbolAttrName());
  return attrs.getDictionary(func.getContext());
}

llvm::hash_code hashFunction(func::FuncOp func) {
  llvm::hash_code hash = hash_value(attributesButName(func));
  func.getBody().walk([&](Operation *op) {
    hash =
        llvm::hash_combine(hash, OperationEquivalence::computeHash(
                                     op, OperationEquivalence::ignoreHashValue,
                                     OperationEquivalence::ignoreHashValue,
                                     OperationEquivalence::IgnoreLocations));
  });
  return hash;
}

bool sameFunction(func::FuncOp a, func::FuncOp b) {
  return attributesButName(a) == attributesButName(b) &&
         OperationEquivalence::isRegionEquivalentTo(
             &a.getBody(), &b.getBody(), OperationEquivalence::IgnoreLocations);
}

struct MergeIdenticalFunctionsPass
    : public nnapi::impl::NNAPIMergeIdenticalFunctionsBase<
          MergeIdenticalFunctionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool changed = true;
    while (changed) {
      changed = false;
      // Buckets by hash, in the module's order: the first of a set stays.
      llvm::MapVector<llvm::hash_code, SmallVector<func::FuncOp, 1>> buckets;
      for (func::FuncOp func : module.getOps<func::FuncOp>())
        if (func.isPrivate() && !func.isExternal())
          buckets[hashFunction(func)].push_back(func);
      for (auto &[hash, funcs] : buckets) {
        if (funcs.size() < 2)
          continue;
        SmallVector<func::FuncOp> kept;
        for (func::FuncOp func : funcs) {
          auto same = llvm::find_if(
              kept, [&](func::FuncOp k) { return sameFunction(k, func); });
          if (same == kept.end()) {
            kept.push_back(func);
            continue;
          }
          if (failed(SymbolTable::replaceAllSymbolUses(
                  func, same->getSymNameAttr(), module)))
            return signalPassFailure();
          func.erase();
          changed = true;
        }
      }
    }
  }
};

} // namespace
