//===- ChannelsLastIO.cpp - Drop layout transposes at a model's edges -----===//

#include "nnapi-mlir/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPICHANNELSLASTIO
#include "nnapi-mlir/Transforms/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;

namespace {

/// Whether `op` transposes channels-first to channels-last (`toLast`:
/// [0, 2, ..., r-1, 1]) or back ([0, r-1, 1, ..., r-2]), for ranks 4 and 5.
/// Not rank 3: there both are [0, 2, 1], and a model's own transpose of a
/// sequence at its output would be taken for a layout change.
bool isChannelsTranspose(Operation *op, bool toLast) {
  auto t = dyn_cast<tosa::TransposeOp>(op);
  SmallVector<int64_t> perms;
  if (!t || failed(t.getConstantPerms(perms)))
    return false;
  int64_t rank = int64_t(perms.size());
  if (rank < 4 || rank > 5)
    return false;
  SmallVector<int64_t> want = {0};
  if (toLast) {
    for (int64_t d = 2; d < rank; ++d)
      want.push_back(d);
    want.push_back(1);
  } else {
    want.push_back(rank - 1);
    for (int64_t d = 1; d < rank - 1; ++d)
      want.push_back(d);
  }
  return perms == want;
}

struct ChannelsLastIOPass
    : public nnapi::impl::NNAPIChannelsLastIOBase<ChannelsLastIOPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (!func.isPublic() || func.isExternal() || !func.getBody().hasOneBlock())
      return;
    Block &body = func.getBody().front();
    for (BlockArgument arg : body.getArguments()) {
      if (arg.use_empty() ||
          !llvm::all_of(arg.getUsers(), [](Operation *user) {
            return isChannelsTranspose(user, /*toLast=*/true);
          }))
        continue;
      Type type = (*arg.getUsers().begin())->getResult(0).getType();
      for (Operation *user : llvm::make_early_inc_range(arg.getUsers())) {
        user->getResult(0).replaceAllUsesWith(arg);
        user->erase();
      }
      arg.setType(type);
    }
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    for (OpOperand &operand : ret->getOpOperands()) {
      Operation *def = operand.get().getDefiningOp();
      if (!def || !isChannelsTranspose(def, /*toLast=*/false))
        continue;
      operand.set(def->getOperand(0));
      if (def->use_empty())
        def->erase();
    }
    func.setFunctionType(FunctionType::get(
        func.getContext(), body.getArgumentTypes(), ret.getOperandTypes()));
  }
};

} // namespace
