//===- Outline.cpp - Regions of ops become partition functions ------------===//
//
// What nnapi-partition does with a placement: each partition's ops move to a
// private function called in their place (outline), and what a unit would
// become on NNAPI is found by converting it alone (nnapiSignatures, for the
// device quirks).
//
//===----------------------------------------------------------------------===//

#include "Outline.h"

#include "nnapi-mlir/Conversion/TosaToNNAPI/TosaToNNAPI.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Target/NNAPIBlob/NNAPIBlob.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::nnapi;

namespace {

/// What a region of ops (convex, program order) reads and defines: the
/// values it takes from outside, the constants it uses, and the results
/// read outside it.
struct RegionInterface {
  llvm::SetVector<Value> inputs, outputs;
  llvm::SetVector<Operation *> constants;
  llvm::SmallPtrSet<Operation *, 32> ops;
  Block *block = nullptr;

  /// `user` is one of the region's ops or inside one (a use in the region
  /// of an op of the partition is the partition's).
  bool contains(Operation *user) const {
    Operation *top = block->findAncestorOpInBlock(*user);
    return top && ops.contains(top);
  }
};

RegionInterface regionInterface(ArrayRef<Operation *> ops) {
  RegionInterface region;
  region.ops.insert(ops.begin(), ops.end());
  region.block = ops.front()->getBlock();
  for (Operation *op : ops) {
    for (Value v : usedValues(op)) {
      Operation *def = v.getDefiningOp();
      if (def && region.ops.contains(def))
        continue;
      if (def && matchPattern(def, m_Constant()))
        region.constants.insert(def);
      else
        region.inputs.insert(v);
    }
    for (Value r : op->getResults())
      for (Operation *user : r.getUsers())
        if (!region.contains(user)) {
          region.outputs.insert(r);
          break;
        }
  }
  return region;
}

/// A private partition function at the builder's insertion point holding
/// copies of `ops` and the constants they use, taking `region.inputs` and
/// returning `region.outputs`.
func::FuncOp buildPartitionFunc(OpBuilder &builder, ArrayRef<Operation *> ops,
                                const RegionInterface &region, StringRef name,
                                unsigned featureLevel, bool relaxed) {
  SmallVector<Type> inputTypes, outputTypes;
  for (Value v : region.inputs)
    inputTypes.push_back(v.getType());
  for (Value v : region.outputs)
    outputTypes.push_back(v.getType());
  Location loc = builder.getFusedLoc(llvm::to_vector(
      llvm::map_range(ops, [](Operation *op) { return op->getLoc(); })));
  auto func = builder.create<func::FuncOp>(
      loc, name, builder.getFunctionType(inputTypes, outputTypes));
  func.setPrivate();
  func->setAttr(NNAPIDialect::kPartitionAttrName, builder.getUnitAttr());
  func->setAttr(NNAPIDialect::kFeatureLevelAttrName,
                builder.getI32IntegerAttr(featureLevel));
  if (relaxed)
    func->setAttr(NNAPIDialect::kRelaxAttrName, builder.getUnitAttr());
  OpBuilder::InsertionGuard guard(builder);
  Block *body = func.addEntryBlock();
  builder.setInsertionPointToStart(body);
  IRMapping mapping;
  for (auto [v, arg] : llvm::zip(region.inputs, body->getArguments()))
    mapping.map(v, arg);
  for (Operation *c : region.constants)
    builder.clone(*c, mapping);
  for (Operation *op : ops)
    builder.clone(*op, mapping);
  builder.create<func::ReturnOp>(
      loc, llvm::to_vector(llvm::map_range(
               region.outputs, [&](Value v) { return mapping.lookup(v); })));
  return func;
}

} // namespace

std::vector<std::string> mlir::nnapi::nnapiSignatures(ArrayRef<Operation *> ops,
                                                      unsigned featureLevel,
                                                      bool relaxed) {
  MLIRContext *ctx = ops.front()->getContext();
  // Refusals are the partitioner's to report, not this probe's.
  ScopedDiagnosticHandler quiet(ctx, [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module = ModuleOp::create(ops.front()->getLoc());
  OpBuilder builder(ctx);
  builder.setInsertionPointToEnd(module->getBody());
  RegionInterface region = regionInterface(ops);
  if (region.outputs.empty())
    return {};
  func::FuncOp func =
      buildPartitionFunc(builder, ops, region, "unit", featureLevel, relaxed);
  if (failed(convertPartitionToNNAPI(func, featureLevel)))
    return {};
  FailureOr<blob::Model> model = buildBlobModel(func);
  if (failed(model))
    return {};
  std::vector<std::string> signatures;
  for (const blob::Operation &op : model->operations)
    signatures.push_back(blob::operationSignature(*model, op));
  return signatures;
}

func::FuncOp mlir::nnapi::outline(func::FuncOp parent,
                                  ArrayRef<Operation *> ops, StringRef name,
                                  unsigned featureLevel, bool relaxed) {
  RegionInterface region = regionInterface(ops);
  OpBuilder builder(parent.getContext());
  builder.setInsertionPointAfter(parent);
  func::FuncOp func =
      buildPartitionFunc(builder, ops, region, name, featureLevel, relaxed);
  Location loc = func.getLoc();
  const llvm::SetVector<Value> &inputs = region.inputs,
                               &outputs = region.outputs;

  // The call goes after the region's last op; users of its results that sat
  // between the region's ops are moved after it by the topological sort.
  builder.setInsertionPointAfter(ops.back());
  auto call = builder.create<func::CallOp>(loc, func, inputs.getArrayRef());
  for (auto [output, r] : llvm::zip(outputs, call.getResults()))
    Value(output).replaceUsesWithIf(
        r, [&](OpOperand &use) { return !region.contains(use.getOwner()); });
  for (Operation *op : llvm::reverse(ops))
    op->erase();
  return func;
}
