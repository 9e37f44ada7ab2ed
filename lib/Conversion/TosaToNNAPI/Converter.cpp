//===- Converter.cpp - TOSA to nnapi: the converter -----------------------===//
//
// Converts a partition with the per-op (and per-composite) and fusion
// patterns; the pass converts with it and the partitioner asks it what it
// can convert.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Conversion/TosaToNNAPI/TosaToNNAPI.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/Operands.h"
#include "nnapi-mlir/NNAPI/Operations.h"
#include "nnapi-mlir/Transforms/Constants.h"
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
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cfloat>
#include <cstdio>

using namespace mlir;
using namespace mlir::nnapi;

//===----------------------------------------------------------------------===//
// The converter: the pass converts with it, the partitioner asks it
//===----------------------------------------------------------------------===//

namespace {
/// The prefix of the names that tag each op's location while the per-op
/// patterns run (tagOps), so that reasons are kept per op.
constexpr StringLiteral kOpTag = "nnapi-conversion-op-";

/// Gives every op of `partition` a location of its own, its original one
/// wrapped in a NameLoc: the listener only sees locations, and the ops
/// imported from one ONNX node share one.
void tagOps(func::FuncOp partition) {
  unsigned next = 0;
  MLIRContext *ctx = partition.getContext();
  partition.walk([&](Operation *op) {
    if (op == partition.getOperation())
      return;
    op->setLoc(NameLoc::get(
        StringAttr::get(ctx, kOpTag + Twine(next++)), op->getLoc()));
  });
}

/// `loc` without the tags of tagOps, also inside the fused locations the
/// folder gives constants it merges.
Location untagged(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    if (name.getName().getValue().starts_with(kOpTag))
      return name.getChildLoc();
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    SmallVector<Location> parts;
    for (Location part : fused.getLocations())
      parts.push_back(untagged(part));
    return FusedLoc::get(loc.getContext(), parts, fused.getMetadata());
  }
  return loc;
}

/// Gives `op` back the location tagOps wrapped (ops a pattern created carry
/// the tagged location of the op they replace).
void untag(Operation *op) { op->setLoc(untagged(op->getLoc())); }

/// Remembers the last reason a pattern gave for not rewriting an op, by the
/// op's (tagged, so unique) location.
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
  RewritePatternSet perOpSet(ctx), fusionSet(ctx);
  populateTosaToNNAPICompositePatterns(perOpSet);
  populateTosaToNNAPIPatterns(perOpSet);
  populateTosaToNNAPIControlFlowPatterns(perOpSet);
  populateTosaToNNAPIQuantizedPatterns(perOpSet);
  populateFuseActivationPatterns(fusionSet);
  perOp = FrozenRewritePatternSet(std::move(perOpSet));
  fusion = FrozenRewritePatternSet(std::move(fusionSet));
}

LogicalResult TosaToNNAPIConverter::convert(
    func::FuncOp partition, unsigned featureLevel,
    function_ref<void(Operation *, const Twine &)> reject) const {
  // One pattern per op (a composite is one op), then activations fold into
  // their producers. Only the partition's own ops and what the patterns
  // create (the ops of an IF's or WHILE's models are clones): never the
  // TOSA inside a composite's body.
  auto topLevel = [&] {
    return llvm::map_to_vector(partition.getOps(),
                               [](Operation &op) { return &op; });
  };
  auto withModels = [&] {
    SmallVector<Operation *> ops;
    partition.walk([&](Operation *op) {
      if (op != partition.getOperation())
        ops.push_back(op);
    });
    return ops;
  };
  GreedyRewriteConfig config;
  config.strictMode = GreedyRewriteStrictness::ExistingAndNewOps;
  FailureReasons reasons;
  config.listener = &reasons;
  tagOps(partition);
  (void)applyOpPatternsAndFold(topLevel(), perOp, config);
  config.listener = nullptr;
  (void)applyOpPatternsAndFold(withModels(), fusion, config);

  bool ok = true;
  DenseMap<Operation *, Location> taggedLocs;
  partition.walk([&](Operation *op) {
    taggedLocs.try_emplace(op, op->getLoc());
    untag(op);
  });
  // A composite left unconverted is one rejection, not one per op inside.
  partition.walk<WalkOrder::PreOrder>([&](Operation *op) {
    Location tagged = taggedLocs.find(op)->second;
    if (isa<func::FuncOp, func::ReturnOp, arith::ConstantOp, YieldOp,
            quant::StorageCastOp>(op))
      return WalkResult::advance();
    auto nnapiOp = dyn_cast<NNAPIOperationInterface>(op);
    if (isa<IfOp, WhileOp>(op)) {
      if (failed(verify(op, /*verifyRecursively=*/false))) {
        ok = false;
        return WalkResult::advance();
      }
      FeatureLevelNeed need = isa<IfOp>(op)
                                  ? cast<IfOp>(op).getFeatureLevelNeed()
                                  : cast<WhileOp>(op).getFeatureLevelNeed();
      if (need.level > featureLevel) {
        reject(op, need.refusal(featureLevel));
        ok = false;
        return WalkResult::skip();
      }
      return WalkResult::advance();
    }
    if (!nnapiOp) {
      auto it = reasons.reasons.find(tagged);
      // Whatever a pattern checked first, float64 is the reason.
      auto isF64 = [](Type t) { return getElementTypeOrSelf(t).isF64(); };
      if (llvm::any_of(op->getOperandTypes(), isF64) ||
          llvm::any_of(op->getResultTypes(), isF64))
        reject(op, "float64 (NNAPI has no float64 tensors; the host "
                   "computes it in float64)");
      else if (it != reasons.reasons.end())
        reject(op, it->second);
      else if (auto composite = dyn_cast<CompositeOp>(op))
        reject(op, "composite '" + composite.getName() +
                       "' has no NNAPI lowering");
      else
        reject(op, "'" + op->getName().getStringRef() +
                       "' has no NNAPI lowering");
      ok = false;
      return WalkResult::skip();
    }
    // The op's verifier is the judge of ranks, shapes and attributes; it
    // reports through the diagnostic engine.
    if (failed(verify(op, /*verifyRecursively=*/false))) {
      ok = false;
      return WalkResult::advance();
    }
    FeatureLevelNeed need = nnapiOp.getFeatureLevelNeed();
    if (need.level > featureLevel) {
      reject(op, need.refusal(featureLevel));
      ok = false;
    }
    return WalkResult::advance();
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

SmallVector<Value> mlir::nnapi::usedValues(Operation *op) {
  SmallVector<Value> used(op->getOperands());
  if (op->getNumRegions()) {
    llvm::SetVector<Value> above;
    getUsedValuesDefinedAbove(op->getRegions(), above);
    for (Value v : above)
      if (!llvm::is_contained(used, v))
        used.push_back(v);
  }
  return used;
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
    for (Value v : usedValues(op)) {
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
  // A value's NNAPI tensor type ("?" for none); views are the type they
  // view.
  auto typeName = [](Type t) -> std::string {
    std::optional<int32_t> code = getTensorOperandCode(t);
    return code ? nnapi_mlir::operandTypeName(*code) : "?";
  };
  scratch->walk([&](Operation *op) {
    FeatureLevelNeed need;
    if (auto nnapiOp = dyn_cast<NNAPIOperationInterface>(op)) {
      need = nnapiOp.getFeatureLevelNeed();
      result.operations.push_back(nnapiOp.getOperationCode());
      auto &types = result.operandTypes.emplace_back();
      for (Type t : op->getOperandTypes())
        if (isa<RankedTensorType>(t))
          types.first.push_back(typeName(t));
      for (Type t : op->getResultTypes())
        types.second.push_back(typeName(t));
    } else if (auto ifOp = dyn_cast<IfOp>(op)) {
      need = ifOp.getFeatureLevelNeed();
      result.operations.push_back(IfOp::kOperationCode);
      result.operandTypes.emplace_back();
    } else if (auto loop = dyn_cast<WhileOp>(op)) {
      need = loop.getFeatureLevelNeed();
      result.operations.push_back(WhileOp::kOperationCode);
      result.operandTypes.emplace_back();
    }
    // An IF or WHILE comes after its models' ops: at the same level, its
    // need says where the op that needs it is.
    if (need.level > result.need.level ||
        (need.level == result.need.level && isa<IfOp, WhileOp>(op)))
      result.need = need;
  });
  return result;
}

LogicalResult mlir::nnapi::convertPartitionToNNAPI(func::FuncOp partition,
                                                   unsigned featureLevel) {
  return TosaToNNAPIConverter(partition.getContext())
      .convert(partition, featureLevel);
}

