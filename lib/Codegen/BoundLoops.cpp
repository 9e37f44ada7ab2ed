//===- BoundLoops.cpp - Run-time loops stop at the runtime's loop timeout -===//
//
// nnapi-bound-loops (Passes.td has the IR it writes). The runtime functions
// are declared once per module; the entry point checks whether the run
// timed out (nnapi-emit-entry-point, which looks for their declaration).
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Codegen/Passes.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIBOUNDLOOPS
#include "nnapi-mlir/Codegen/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;

namespace {

/// The private declaration of `name` in `module`, made if missing.
func::FuncOp declare(ModuleOp module, StringRef name, FunctionType type) {
  if (auto f = module.lookupSymbol<func::FuncOp>(name))
    return f;
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto f = builder.create<func::FuncOp>(module.getLoc(), name, type);
  f.setPrivate();
  return f;
}

struct BoundLoopsPass
    : public nnapi::impl::NNAPIBoundLoopsBase<BoundLoopsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<scf::WhileOp> loops;
    module.walk([&](scf::WhileOp loop) { loops.push_back(loop); });
    if (loops.empty())
      return;
    MLIRContext *ctx = module.getContext();
    auto i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
    func::FuncOp deadlineFn =
        declare(module, "nnapi_rt_loop_deadline",
                FunctionType::get(ctx, {}, {i64}));
    func::FuncOp continueFn =
        declare(module, "nnapi_rt_loop_continue",
                FunctionType::get(ctx, {i64}, {i32}));
    for (scf::WhileOp loop : loops) {
      OpBuilder builder(loop);
      Location loc = loop.getLoc();
      Value deadline =
          builder.create<func::CallOp>(loc, deadlineFn, ValueRange{})
              .getResult(0);
      scf::ConditionOp condition = loop.getConditionOp();
      builder.setInsertionPoint(condition);
      Value go =
          builder.create<func::CallOp>(loc, continueFn, ValueRange{deadline})
              .getResult(0);
      Value zero = builder.create<arith::ConstantIntOp>(loc, 0, 32);
      Value ok = builder.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne,
                                               go, zero);
      Value both =
          builder.create<arith::AndIOp>(loc, condition.getCondition(), ok);
      condition.getConditionMutable().assign(both);
    }
  }
};

} // namespace
