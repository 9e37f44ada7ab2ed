//===- InlineDeallocHelper.cpp - nnapi-inline-dealloc-helper --------------===//
//
// nnapi-inline-dealloc-helper: the body of bufferization's private
// `dealloc_helper` (memrefs of dynamic size, which the host code's
// bare-pointer calls cannot pass) goes into each of its callers. The
// scratch arrays the deallocation's lowering allocates and frees in a
// function's body (the pointers and ownership flags it compares, a few
// bytes each) become stack slots: a dynamically shaped model made five
// allocations a call for them.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
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
    inlineHelper(module);
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal())
        stackScratchArrays(func.getBody().front());
  }

  /// Small statically shaped buffers allocated in `body` and freed there
  /// unconditionally (so not returned) as stack slots of the frame.
  static void stackScratchArrays(Block &body) {
    constexpr int64_t kMaxBytes = 1024;
    SmallVector<std::pair<memref::AllocOp, memref::DeallocOp>> scratch;
    for (auto alloc : body.getOps<memref::AllocOp>()) {
      MemRefType type = alloc.getType();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          !type.getElementType().isIntOrIndexOrFloat() ||
          type.getNumElements() * 8 > kMaxBytes)
        continue;
      for (Operation *user : alloc->getUsers())
        if (auto dealloc = dyn_cast<memref::DeallocOp>(user);
            dealloc && dealloc->getBlock() == &body) {
          scratch.push_back({alloc, dealloc});
          break;
        }
    }
    for (auto [alloc, dealloc] : scratch) {
      OpBuilder b(alloc);
      Value slot = b.create<memref::AllocaOp>(alloc.getLoc(), alloc.getType(),
                                              alloc.getAlignmentAttr());
      dealloc.erase();
      alloc.replaceAllUsesWith(slot);
      alloc.erase();
    }
  }

  void inlineHelper(ModuleOp module) {
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
