//===- DynamicShapes.cpp - Entry points for dynamically shaped models -----===//
//
// An entry function with dynamic dimensions (issue 54) needs two things the
// static one does not: a way for the caller to learn its output shapes
// before it runs (nnapi-output-dims derives a function computing them from
// the input shapes), and a bare-pointer form of its buffers
// (nnapi-dynamic-entry passes the dynamic dimensions as separate integers).
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Transforms/Transforms.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIOUTPUTDIMS
#define GEN_PASS_DEF_NNAPIDYNAMICENTRY
#include "nnapi-mlir/Conversion/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;
using namespace mlir::nnapi;

namespace {

bool isDynamic(Type t) {
  auto shaped = dyn_cast<ShapedType>(t);
  return shaped && shaped.hasRank() && !shaped.hasStaticShape();
}

//===----------------------------------------------------------------------===//
// nnapi-output-dims
//===----------------------------------------------------------------------===//

struct OutputDimsPass
    : public nnapi::impl::NNAPIOutputDimsBase<OutputDimsPass> {
  using NNAPIOutputDimsBase::NNAPIOutputDimsBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal() ||
        !llvm::any_of(func.getResultTypes(), isDynamic))
      return;
    if (!func.getBody().hasOneBlock()) {
      func.emitError("an entry with dynamically shaped results must be one "
                     "block");
      return signalPassFailure();
    }
    MLIRContext *ctx = module.getContext();
    OpBuilder b(ctx);
    b.setInsertionPointAfter(func);
    auto shapes = cast<func::FuncOp>(b.clone(*func.getOperation()));
    shapes.setSymName(NNAPIDialect::kOutputDimsFnName);
    shapes.setAllArgAttrs(ArrayRef<DictionaryAttr>{});
    shapes.setAllResultAttrs(ArrayRef<DictionaryAttr>{});

    // Each dynamic dimension of each result, as a bound that equals it and
    // is computed from the arguments' dimensions alone (value bounds see
    // through linalg's destinations, reshapes, pads and the scf.if that
    // TOSA's run-time broadcasting leaves); which output each came from,
    // for messages.
    Block &body = shapes.getBody().front();
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    b.setInsertionPoint(ret);
    auto isArgument = [&](Value v, std::optional<int64_t> dim,
                          ValueBoundsConstraintSet &) {
      auto arg = dyn_cast<BlockArgument>(v);
      return dim && arg && arg.getOwner() == &body;
    };
    SmallVector<Value> dims;
    for (auto [i, result] : llvm::enumerate(ret.getOperands())) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type)
        continue;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        if (!type.isDynamicDim(d))
          continue;
        FailureOr<OpFoldResult> bound = affine::reifyShapedValueDimBound(
            b, ret.getLoc(), presburger::BoundType::EQ, result, d, isArgument,
            /*closedUB=*/true);
        if (failed(bound)) {
          func.emitError() << "dimension " << d << " of output " << i
                           << " is not a function of the input dimensions "
                              "(it depends on values the model computes): a "
                              "model with dynamic dimensions needs output "
                              "shapes computable from the input shapes";
          shapes.erase();
          return signalPassFailure();
        }
        dims.push_back(getValueOrCreateConstantIndexOp(b, ret.getLoc(), *bound));
      }
    }
    b.create<func::ReturnOp>(ret.getLoc(), dims);
    ret.erase();

    // tensor.dim of an argument becomes an index argument of its own; the
    // ops that computed values are then dead.
    unsigned numTensorArgs = body.getNumArguments();
    for (unsigned i = 0; i < numTensorArgs; ++i) {
      BlockArgument arg = body.getArgument(i);
      auto type = dyn_cast<RankedTensorType>(arg.getType());
      if (!type)
        continue;
      for (int64_t d = 0; d < type.getRank(); ++d) {
        if (!type.isDynamicDim(d))
          continue;
        BlockArgument size = body.addArgument(b.getIndexType(), arg.getLoc());
        for (OpOperand &use : llvm::make_early_inc_range(arg.getUses())) {
          auto dim = dyn_cast<tensor::DimOp>(use.getOwner());
          std::optional<int64_t> index =
              dim ? dim.getConstantIndex() : std::nullopt;
          if (index && *index == d) {
            dim.replaceAllUsesWith(size);
            dim.erase();
          }
        }
      }
    }
    RewritePatternSet patterns(ctx);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
    if (failed(applyPatternsAndFoldGreedily(shapes, std::move(patterns)))) {
      shapes.emitError("the output dimensions did not settle");
      return signalPassFailure();
    }
    for (unsigned i = 0; i < numTensorArgs; ++i)
      if (!body.getArgument(i).use_empty()) {
        func.emitError() << "the output dimensions read the values of input "
                         << i << ", not only its dimensions";
        shapes.erase();
        return signalPassFailure();
      }
    llvm::BitVector erase(body.getNumArguments());
    erase.set(0, numTensorArgs);
    body.eraseArguments(erase);
    shapes.setFunctionType(FunctionType::get(
        ctx, body.getArgumentTypes(),
        body.getTerminator()->getOperandTypes()));
  }
};

//===----------------------------------------------------------------------===//
// nnapi-dynamic-entry
//===----------------------------------------------------------------------===//

struct DynamicEntryPass
    : public nnapi::impl::NNAPIDynamicEntryBase<DynamicEntryPass> {
  using NNAPIDynamicEntryBase::NNAPIDynamicEntryBase;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto func = module.lookupSymbol<func::FuncOp>(entry);
    if (!func || func.isExternal() ||
        !llvm::any_of(func.getArgumentTypes(), isDynamic))
      return;
    Block &body = func.getBody().front();
    OpBuilder b(func.getContext());
    b.setInsertionPointToStart(&body);
    Location loc = func.getLoc();
    unsigned numArgs = body.getNumArguments();
    for (unsigned i = 0; i < numArgs; ++i) {
      BlockArgument arg = body.getArgument(i);
      auto type = dyn_cast<MemRefType>(arg.getType());
      if (!type || type.hasStaticShape())
        continue;
      if (!type.getLayout().isIdentity()) {
        func.emitError() << "entry argument " << i
                         << " must have the identity layout, got " << type;
        return signalPassFailure();
      }
      // Sizes (the dynamic ones as new arguments) and row-major strides.
      SmallVector<OpFoldResult> sizes;
      for (int64_t d = 0; d < type.getRank(); ++d)
        sizes.push_back(type.isDynamicDim(d)
                            ? OpFoldResult(body.addArgument(b.getIndexType(),
                                                            arg.getLoc()))
                            : OpFoldResult(b.getIndexAttr(type.getDimSize(d))));
      SmallVector<OpFoldResult> strides(type.getRank());
      int64_t staticStride = 1;
      Value dynamicStride;
      for (int64_t d = type.getRank() - 1; d >= 0; --d) {
        strides[d] = dynamicStride ? OpFoldResult(dynamicStride)
                                   : OpFoldResult(b.getIndexAttr(staticStride));
        if (d == 0)
          break;
        if (!type.isDynamicDim(d) && !dynamicStride) {
          staticStride *= type.getDimSize(d);
          continue;
        }
        Value factor = type.isDynamicDim(d)
                           ? cast<Value>(sizes[d])
                           : b.create<arith::ConstantIndexOp>(
                                 loc, type.getDimSize(d));
        Value base = dynamicStride;
        if (!base && staticStride != 1)
          base = b.create<arith::ConstantIndexOp>(loc, staticStride);
        dynamicStride =
            base ? b.create<arith::MulIOp>(loc, factor, base).getResult()
                 : factor;
      }
      auto pointerType = MemRefType::get({}, type.getElementType());
      arg.setType(pointerType);
      auto view = b.create<memref::ReinterpretCastOp>(
          loc, type, arg, b.getIndexAttr(0), sizes, strides);
      arg.replaceAllUsesExcept(view.getResult(), view);
    }
    func.setFunctionType(FunctionType::get(
        func.getContext(), body.getArgumentTypes(), func.getResultTypes()));
  }
};

} // namespace
