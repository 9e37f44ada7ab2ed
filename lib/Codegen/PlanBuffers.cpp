//===- PlanBuffers.cpp - One arena per function, reused by lifetime -------===//
//
// nnapi-plan-buffers, after bufferization and before deallocation: the
// statically shaped buffers a function allocates in its body become views of
// one arena, placed by lifetime with the same greedy planner as the host
// NNAPI device (nnapi-mlir/Support/BufferPlan.h). A call then makes one
// allocation (which the runtime's pool serves from memory it already has),
// and buffers whose lifetimes do not overlap share memory.
//
// A buffer's lifetime runs, in the order of the function's top-level ops,
// from its allocation to the last op that uses it or any view of it
// (BufferViewFlowAnalysis). A buffer that escapes (returned, or used outside
// the body) is left alone.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Codegen/Passes.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Support/BufferPlan.h"

#include "mlir/Dialect/Bufferization/Transforms/BufferViewFlowAnalysis.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIPLANBUFFERS
#include "nnapi-mlir/Codegen/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;

namespace {

constexpr size_t kAlignment = 64;

struct PlanBuffersPass
    : public nnapi::impl::NNAPIPlanBuffersBase<PlanBuffersPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Block &body = func.getBody().front();
    DenseMap<Operation *, size_t> position;
    for (Operation &op : body)
      position[&op] = position.size();

    BufferViewFlowAnalysis aliases(func);
    SmallVector<memref::AllocOp> allocs;
    std::vector<nnapi_mlir::BufferRequest> requests;
    for (Operation &op : body) {
      auto alloc = dyn_cast<memref::AllocOp>(op);
      if (!alloc)
        continue;
      MemRefType type = alloc.getType();
      unsigned bits = type.getElementTypeBitWidth();
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          !type.getElementType().isIntOrFloat() || bits % 8 ||
          (alloc.getAlignment() && *alloc.getAlignment() > kAlignment))
        continue;
      size_t last = position[alloc];
      bool escapes = false;
      for (Value alias : aliases.resolve(alloc.getResult())) {
        for (Operation *user : alias.getUsers()) {
          if (isa<func::ReturnOp>(user))
            escapes = true;
          Operation *top = body.findAncestorOpInBlock(*user);
          if (!top) {
            escapes = true; // used outside the function's body
            continue;
          }
          last = std::max(last, position[top]);
        }
      }
      if (escapes)
        continue;
      allocs.push_back(alloc);
      requests.push_back(
          {size_t(type.getNumElements()) * (bits / 8), position[alloc], last});
    }
    if (allocs.empty())
      return;

    std::vector<size_t> offsets;
    size_t arenaBytes = nnapi_mlir::planBuffers(requests, kAlignment, offsets);
    size_t unplanned = 0;
    for (const nnapi_mlir::BufferRequest &r : requests)
      unplanned += (r.bytes + kAlignment - 1) / kAlignment * kAlignment;

    OpBuilder builder(&body, body.begin());
    Location loc = func.getLoc();
    auto arenaType =
        MemRefType::get({int64_t(arenaBytes)}, builder.getI8Type());
    Value arena = builder.create<memref::AllocOp>(
        loc, arenaType, builder.getI64IntegerAttr(kAlignment));
    for (auto [alloc, offset] : llvm::zip(allocs, offsets)) {
      builder.setInsertionPoint(alloc);
      Value at = builder.create<arith::ConstantIndexOp>(alloc.getLoc(), offset);
      Value view = builder.create<memref::ViewOp>(
          alloc.getLoc(), alloc.getType(), arena, at, ValueRange{});
      alloc.replaceAllUsesWith(view);
      alloc.erase();
    }
    func->setAttr(nnapi::NNAPIDialect::kArenaBytesAttrName,
                  builder.getI64IntegerAttr(arenaBytes));
    func->setAttr(nnapi::NNAPIDialect::kUnplannedBytesAttrName,
                  builder.getI64IntegerAttr(unplanned));
  }
};

} // namespace
