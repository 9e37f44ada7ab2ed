//===- InlineDeallocHelper.cpp - nnapi-inline-dealloc-helper --------------===//
//
// nnapi-inline-dealloc-helper: the body of bufferization's private
// `dealloc_helper` (memrefs of dynamic size, which the host code's
// bare-pointer calls cannot pass) goes into each of its callers.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIINLINEDEALLOCHELPER
#include "nnapi-mlir/Codegen/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;

namespace {

struct InlineDeallocHelperPass
    : public nnapi::impl::NNAPIInlineDeallocHelperBase<
          InlineDeallocHelperPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto helper = module.lookupSymbol<func::FuncOp>("dealloc_helper");
    if (!helper)
      return;
    if (!helper.isPrivate() || !helper.getBody().hasOneBlock() ||
        helper.getNumResults()) {
      helper.emitError("expected bufferization's private, single-block "
                       "dealloc helper without results");
      return signalPassFailure();
    }
    Block &body = helper.getBody().front();
    SmallVector<func::CallOp> calls;
    module.walk([&](func::CallOp call) {
      if (call.getCallee() == helper.getSymName())
        calls.push_back(call);
    });
    for (func::CallOp call : calls) {
      IRMapping map;
      map.map(body.getArguments(), call.getOperands());
      OpBuilder b(call);
      for (Operation &op : body.without_terminator())
        b.clone(op, map);
      call.erase();
    }
    helper.erase();
  }
};

} // namespace
