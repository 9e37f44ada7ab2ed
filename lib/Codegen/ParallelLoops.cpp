//===- ParallelLoops.cpp - Output tile loops on the runtime's pool --------===//
//
// nnapi-codegen marks the loops over a group's output tiles `nnapi.parallel`
// (their iterations write disjoint slices and read nothing another writes).
// Two passes make such loops run on the runtime's thread pool:
//
// - nnapi-outline-parallel-loops, on buffers: a band of perfectly nested
//   marked loops becomes a function over a range of its linearized
//   iterations, and the band a call of it over all of them, carrying the
//   chunk size (`nnapi.parallel_grain`);
// - nnapi-lower-parallel-calls, on the LLVM dialect: that call becomes
//   nnapi_rt_parallel_for(task, context, count, grain), the call's other
//   arguments packed into a stack struct. Packing is done there because
//   only in the LLVM dialect is every captured value (a buffer descriptor,
//   a vector) a plain value that a struct can hold.
//
// Chunks run the band's iterations in any order and on any thread, each
// exactly once, and never split a reduction: results are the same for every
// thread count.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Codegen/Passes.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"

#include "Outlining.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIOUTLINEPARALLELLOOPS
#define GEN_PASS_DEF_NNAPILOWERPARALLELCALLS
#include "nnapi-mlir/Codegen/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;

namespace {

constexpr StringLiteral kParallelAttr = nnapi::NNAPIDialect::kParallelAttrName;
constexpr StringLiteral kGrainAttr =
    nnapi::NNAPIDialect::kParallelGrainAttrName;
/// The runtime's entry (Runtime.h).
constexpr StringLiteral kParallelFor = "nnapi_rt_parallel_for";

//===----------------------------------------------------------------------===//
// nnapi-outline-parallel-loops
//===----------------------------------------------------------------------===//

/// A marked loop without results and with constant bounds: its trip count.
std::optional<int64_t> tripCount(scf::ForOp loop) {
  if (!loop->hasAttr(kParallelAttr) || loop.getNumResults())
    return std::nullopt;
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!lb || !ub || !step || *step <= 0 || *ub <= *lb)
    return std::nullopt;
  return llvm::divideCeil(*ub - *lb, *step);
}

/// The one marked loop in `loop`'s body if everything else there (but the
/// terminator) is pure and region-free, so that the two loops iterate as
/// one.
scf::ForOp perfectlyNested(scf::ForOp loop) {
  scf::ForOp inner;
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto forOp = dyn_cast<scf::ForOp>(op);
    if (forOp && forOp->hasAttr(kParallelAttr) && !inner) {
      inner = forOp;
      continue;
    }
    if (op.getNumRegions() || !isMemoryEffectFree(&op))
      return {};
  }
  return inner;
}

struct OutlineParallelLoopsPass
    : public nnapi::impl::NNAPIOutlineParallelLoopsBase<
          OutlineParallelLoopsPass> {
  using NNAPIOutlineParallelLoopsBase::NNAPIOutlineParallelLoopsBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      if (func.isExternal())
        continue;
      unsigned outlined = 0;
      SmallVector<scf::ForOp> bands;
      func.walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
        if (!tripCount(loop))
          return WalkResult::advance();
        bands.push_back(loop);
        return WalkResult::skip();
      });
      for (scf::ForOp band : bands)
        outline(symbols, func, band, outlined);
    }
    module.walk([](Operation *op) { op->removeAttr(kParallelAttr); });
  }

  /// Outlines the band that starts at `outer`, if it is worth it.
  void outline(SymbolTable &symbols, func::FuncOp func, scf::ForOp outer,
               unsigned &outlined);
};

void OutlineParallelLoopsPass::outline(SymbolTable &symbols,
                                       func::FuncOp func, scf::ForOp outer,
                                       unsigned &outlined) {
  SmallVector<scf::ForOp> band = {outer};
  SmallVector<int64_t> trips = {*tripCount(outer)};
  while (scf::ForOp inner = perfectlyNested(band.back())) {
    std::optional<int64_t> trip = tripCount(inner);
    if (!trip)
      break;
    band.push_back(inner);
    trips.push_back(*trip);
  }
  int64_t count = 1;
  for (int64_t t : trips)
    count *= t;
  int64_t work =
      band.back()->getAttrOfType<IntegerAttr>(kParallelAttr).getInt();
  int64_t grain = std::max<int64_t>(1, llvm::divideCeil(chunkWork, work));
  // Small bands, and bands that would be a single chunk, stay loops.
  if (count < 2 || grain >= count ||
      count < int64_t(llvm::divideCeil(minWork, work)))
    return;

  // What the body uses from outside: constants are recomputed, the rest
  // passed.
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(outer.getRegion(), captured);
  SmallVector<Value> arguments, clones;
  for (Value v : captured) {
    if (nnapi::isClonedConstant(v))
      clones.push_back(v);
    else if (!nnapi::isBarePointerPassable(v.getType()))
      return; // a pointer would not carry its shape
    else
      arguments.push_back(v);
  }

  MLIRContext *ctx = &getContext();
  Location loc = outer.getLoc();
  Type index = IndexType::get(ctx);
  SmallVector<Type> inputs = {index, index};
  for (Value v : arguments)
    inputs.push_back(v.getType());
  OpBuilder builder(ctx);
  builder.setInsertionPointAfter(func);
  auto callee = builder.create<func::FuncOp>(
      loc, (func.getSymName() + "_parallel" + Twine(outlined++)).str(),
      FunctionType::get(ctx, inputs, {}));
  callee.setPrivate();
  symbols.insert(callee); // renamed if the name is taken
  Block *entry = callee.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  IRMapping map;
  for (auto [v, arg] : llvm::zip(arguments, entry->getArguments().drop_front(2)))
    map.map(v, arg);
  for (Value v : clones)
    map.map(v, builder.clone(*v.getDefiningOp())->getResult(0));

  // for i in [begin, end): split i into the band's indices, innermost
  // fastest, and run the nest's bodies.
  auto constant = [&](int64_t v) -> Value {
    return builder.create<arith::ConstantIndexOp>(loc, v);
  };
  SmallVector<Value> tripValues, lbs, steps;
  for (auto [l, trip] : llvm::zip(band, trips)) {
    tripValues.push_back(constant(trip));
    lbs.push_back(constant(*getConstantIntValue(l.getLowerBound())));
    steps.push_back(constant(*getConstantIntValue(l.getStep())));
  }
  auto loop = builder.create<scf::ForOp>(loc, entry->getArgument(0),
                                         entry->getArgument(1), constant(1));
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  Value rest = loop.getInductionVar();
  SmallVector<Value> indices(band.size());
  for (size_t k = band.size() - 1; k > 0; --k) {
    indices[k] = builder.create<arith::RemUIOp>(loc, rest, tripValues[k]);
    rest = builder.create<arith::DivUIOp>(loc, rest, tripValues[k]);
  }
  indices[0] = rest;
  for (auto [k, l] : llvm::enumerate(band)) {
    Value scaled = builder.create<arith::MulIOp>(loc, indices[k], steps[k]);
    map.map(l.getInductionVar(),
            builder.create<arith::AddIOp>(loc, lbs[k], scaled));
    for (Operation &op : l.getBody()->without_terminator())
      if (k + 1 == band.size() || &op != band[k + 1].getOperation())
        builder.clone(op, map);
  }
  builder.setInsertionPointToEnd(entry);
  builder.create<func::ReturnOp>(loc);

  builder.setInsertionPoint(outer);
  SmallVector<Value> operands = {
      builder.create<arith::ConstantIndexOp>(loc, 0),
      builder.create<arith::ConstantIndexOp>(loc, count)};
  operands.append(arguments);
  auto call = builder.create<func::CallOp>(loc, callee, operands);
  call->setAttr(kGrainAttr, builder.getI64IntegerAttr(grain));
  outer.erase();
}

//===----------------------------------------------------------------------===//
// nnapi-lower-parallel-calls
//===----------------------------------------------------------------------===//

struct LowerParallelCallsPass
    : public nnapi::impl::NNAPILowerParallelCallsBase<LowerParallelCallsPass> {
  void runOnOperation() override;
};

void LowerParallelCallsPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();
  SmallVector<LLVM::CallOp> calls;
  module.walk([&](LLVM::CallOp call) {
    if (call->hasAttr(kGrainAttr))
      calls.push_back(call);
  });
  if (calls.empty())
    return;

  SymbolTable symbols(module);
  OpBuilder builder(ctx);
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i64 = IntegerType::get(ctx, 64);
  auto voidType = LLVM::LLVMVoidType::get(ctx);
  auto parallelFor = symbols.lookup<LLVM::LLVMFuncOp>(kParallelFor);
  if (!parallelFor) {
    builder.setInsertionPointToStart(module.getBody());
    parallelFor = builder.create<LLVM::LLVMFuncOp>(
        module.getLoc(), kParallelFor,
        LLVM::LLVMFunctionType::get(voidType, {ptr, ptr, i64, i64}));
  }

  // One task per function, however many calls it has (functions merged by
  // nnapi-merge-identical-functions): the task inlines its function.
  DenseMap<Operation *, LLVM::LLVMFuncOp> tasks;
  for (LLVM::CallOp call : calls) {
    Location loc = call.getLoc();
    auto callee = call.getCallee()
                      ? symbols.lookup<LLVM::LLVMFuncOp>(*call.getCallee())
                      : LLVM::LLVMFuncOp();
    if (!callee || call.getNumOperands() < 2 || call.getNumResults() ||
        !matchPattern(call.getOperand(0), m_Zero()) ||
        call.getOperand(1).getType() != i64) {
      call.emitOpError() << "with '" << kGrainAttr
                         << "' must call a function (begin = 0, end: i64, "
                            "...) with no results";
      return signalPassFailure();
    }
    ValueRange captured = call.getOperands().drop_front(2);
    auto context = LLVM::LLVMStructType::getLiteral(
        ctx, llvm::to_vector(captured.getTypes()));

    // The task: task(context, begin, end) = callee(begin, end, *context...).
    LLVM::LLVMFuncOp &task = tasks[callee];
    if (!task) {
      builder.setInsertionPointAfter(callee);
      task = builder.create<LLVM::LLVMFuncOp>(
          loc, (callee.getSymName() + "_task").str(),
          LLVM::LLVMFunctionType::get(voidType, {ptr, i64, i64}),
          LLVM::Linkage::Internal);
      symbols.insert(task);
      callee.setLinkage(LLVM::Linkage::Internal);
      Block *entry = task.addEntryBlock(builder);
      builder.setInsertionPointToStart(entry);
      SmallVector<Value> arguments = {entry->getArgument(1),
                                      entry->getArgument(2)};
      for (auto [i, v] : llvm::enumerate(captured)) {
        Value at = builder.create<LLVM::GEPOp>(
            loc, ptr, context, entry->getArgument(0),
            ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
        arguments.push_back(
            builder.create<LLVM::LoadOp>(loc, v.getType(), at));
      }
      builder.create<LLVM::CallOp>(loc, callee, arguments);
      builder.create<LLVM::ReturnOp>(loc, ValueRange{});
    }

    // The call site: the struct lives in the caller's frame (allocated at
    // its entry, so a call in a loop does not grow the stack).
    auto caller = call->getParentOfType<LLVM::LLVMFuncOp>();
    builder.setInsertionPointToStart(&caller.getBody().front());
    Value one = builder.create<LLVM::ConstantOp>(loc, i64, 1);
    Value slot = builder.create<LLVM::AllocaOp>(loc, ptr, context, one);
    builder.setInsertionPoint(call);
    for (auto [i, v] : llvm::enumerate(captured)) {
      Value at = builder.create<LLVM::GEPOp>(
          loc, ptr, context, slot, ArrayRef<LLVM::GEPArg>{0, int32_t(i)});
      builder.create<LLVM::StoreOp>(loc, v, at);
    }
    Value fn = builder.create<LLVM::AddressOfOp>(loc, task);
    Value grain = builder.create<LLVM::ConstantOp>(
        loc, i64, call->getAttrOfType<IntegerAttr>(kGrainAttr).getInt());
    builder.create<LLVM::CallOp>(
        loc, parallelFor,
        ValueRange{fn, slot, call.getOperand(1), grain});
    call.erase();
  }
}

} // namespace
