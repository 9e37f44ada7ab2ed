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
// Dynamically shaped buffers (issue 54) go into a second arena, allocated
// where the first of them was, whose layout is computed at run time: the
// buffers are put in slots, one after another, a buffer sharing a slot with
// buffers whose lifetimes ended before it starts (preferring one of the
// same shape, so the slot is not wider than either needs); a slot's size is
// the largest of its buffers' at run time. Offsets are then sums of sizes,
// right for any sizes. Only buffers whose sizes are known where that arena
// is allocated (computed before it, as the input's dimensions are) join.
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

/// A buffer that can join an arena: an allocation in the function's body,
/// of whole-byte numbers in the identity layout, whose uses all stay in the
/// function, with its lifetime in top-level op positions.
struct Candidate {
  mutable memref::AllocOp alloc; // (op handles are used through const)
  size_t first, last;
};

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
    SmallVector<Candidate> statics, dynamics;
    for (Operation &op : body) {
      auto alloc = dyn_cast<memref::AllocOp>(op);
      if (!alloc)
        continue;
      MemRefType type = alloc.getType();
      unsigned bits = type.getElementTypeBitWidth();
      if (!type.getLayout().isIdentity() ||
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
      (type.hasStaticShape() ? statics : dynamics)
          .push_back({alloc, position[alloc], last});
    }
    planStatic(func, statics);
    planDynamic(body, position, dynamics);
  }

  void planStatic(func::FuncOp func, ArrayRef<Candidate> candidates) {
    if (candidates.empty())
      return;
    Block &body = func.getBody().front();
    SmallVector<memref::AllocOp> allocs;
    std::vector<nnapi_mlir::BufferRequest> requests;
    for (const Candidate &c : candidates) {
      MemRefType type = c.alloc.getType();
      allocs.push_back(c.alloc);
      requests.push_back(
          {size_t(type.getNumElements()) * (type.getElementTypeBitWidth() / 8),
           c.first, c.last});
    }

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

  void planDynamic(Block &body, DenseMap<Operation *, size_t> &position,
                   ArrayRef<Candidate> candidates) {
    if (candidates.empty())
      return;
    // The arena goes where the first buffer was; a buffer joins if its
    // sizes are computed before that point.
    memref::AllocOp anchor = candidates.front().alloc;
    auto knownAtAnchor = [&](Value v) {
      if (auto arg = dyn_cast<BlockArgument>(v))
        return arg.getOwner() == &body;
      Operation *def = v.getDefiningOp();
      return def->getBlock() == &body && position[def] < position[anchor];
    };
    SmallVector<Candidate> joined;
    for (const Candidate &c : candidates)
      if (&c == &candidates.front() ||
          llvm::all_of(c.alloc.getDynamicSizes(), knownAtAnchor))
        joined.push_back(c);
    if (joined.size() < 2)
      return; // one allocation either way

    // Slots by lifetime (candidates come in program order): a buffer takes
    // the first free slot whose buffers had its type and sizes, else any
    // free slot, else a new one.
    struct Slot {
      size_t freeAfter;
      SmallVector<memref::AllocOp> members;
    };
    SmallVector<Slot> slots;
    auto sameShape = [](memref::AllocOp a, memref::AllocOp b) {
      return a.getType() == b.getType() &&
             a.getDynamicSizes() == b.getDynamicSizes();
    };
    SmallVector<size_t> slotOf;
    for (const Candidate &c : joined) {
      Slot *chosen = nullptr;
      for (Slot &slot : slots)
        if (slot.freeAfter < c.first &&
            (!chosen || (!sameShape(chosen->members.front(), c.alloc) &&
                         sameShape(slot.members.front(), c.alloc))))
          chosen = &slot;
      if (!chosen) {
        slots.push_back({0, {}});
        chosen = &slots.back();
      }
      chosen->freeAfter = c.last;
      chosen->members.push_back(c.alloc);
      slotOf.push_back(chosen - slots.begin());
    }

    // At the anchor: each buffer's bytes (rounded up to the alignment), each
    // slot's size (the largest), the slots' offsets and the arena.
    OpBuilder b(anchor);
    Location loc = anchor.getLoc();
    auto constant = [&](int64_t v) -> Value {
      return b.create<arith::ConstantIndexOp>(loc, v);
    };
    auto bytesOf = [&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      int64_t fixed = type.getElementTypeBitWidth() / 8;
      for (int64_t d : type.getShape())
        if (!ShapedType::isDynamic(d))
          fixed *= d;
      Value bytes = constant(fixed);
      for (Value size : alloc.getDynamicSizes())
        bytes = b.create<arith::MulIOp>(loc, bytes, size);
      // (bytes + 63) & ~63
      Value rounded =
          b.create<arith::AddIOp>(loc, bytes, constant(kAlignment - 1));
      return b.create<arith::AndIOp>(loc, rounded,
                                     constant(~int64_t(kAlignment - 1)));
    };
    SmallVector<Value> offsets;
    Value total = constant(0);
    for (Slot &slot : slots) {
      Value size;
      for (memref::AllocOp alloc : slot.members) {
        Value bytes = bytesOf(alloc);
        size = size ? b.create<arith::MaxUIOp>(loc, size, bytes) : bytes;
      }
      offsets.push_back(total);
      total = b.create<arith::AddIOp>(loc, total, size);
    }
    Value arena = b.create<memref::AllocOp>(
        loc, MemRefType::get({ShapedType::kDynamic}, b.getI8Type()),
        ValueRange{total}, b.getI64IntegerAttr(kAlignment));
    for (auto [c, slot] : llvm::zip(joined, slotOf)) {
      b.setInsertionPoint(c.alloc);
      Value view = b.create<memref::ViewOp>(c.alloc.getLoc(), c.alloc.getType(),
                                            arena, offsets[slot],
                                            c.alloc.getDynamicSizes());
      c.alloc.replaceAllUsesWith(view);
      c.alloc.erase();
    }
  }
};

} // namespace
