//===- DynamicShapes.cpp - Entry points for dynamically shaped models -----===//
//
// An entry function with dynamic dimensions (issue 54) needs two things the
// static one does not: a way for the caller to learn its output shapes
// before it runs (nnapi-output-dims derives a function computing them from
// the input shapes), and a bare-pointer form of its buffers
// (nnapi-dynamic-entry passes the dynamic dimensions as separate integers).
//
//===----------------------------------------------------------------------===//

#include "DynamicShapes.h"
#include "nnapi-mlir/Conversion/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Affine/Transforms/Transforms.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIOUTPUTDIMS
#define GEN_PASS_DEF_NNAPIDYNAMICENTRY
#include "nnapi-mlir/Conversion/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;
using namespace mlir::nnapi;

void mlir::nnapi::inlineCall(func::CallOp call, func::FuncOp callee) {
  Block &from = callee.getBody().front();
  IRMapping mapping;
  mapping.map(from.getArguments(), call.getOperands());
  OpBuilder b(call);
  for (Operation &op : from.without_terminator())
    b.clone(op, mapping);
  for (auto [result, value] :
       llvm::zip(call.getResults(), from.getTerminator()->getOperands()))
    result.replaceAllUsesWith(mapping.lookupOrDefault(value));
  call.erase();
}

namespace {

/// Sizes are never negative: an unsigned division of a size by a positive
/// constant (a reshape's size, total / other dimensions) is an affine floor
/// division, which folds with the multiplication before it and which value
/// bounds understand.
struct SizeDivisionAsAffine : OpRewritePattern<arith::DivUIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::DivUIOp div,
                                PatternRewriter &rewriter) const override {
    APInt divisor;
    if (!div.getType().isIndex() ||
        !matchPattern(div.getRhs(), m_ConstantInt(&divisor)) ||
        !divisor.isStrictlyPositive())
      return failure();
    AffineExpr s0 = rewriter.getAffineSymbolExpr(0);
    rewriter.replaceOpWithNewOp<affine::AffineApplyOp>(
        div, AffineMap::get(0, 1, s0.floorDiv(divisor.getSExtValue())),
        ValueRange{div.getLhs()});
    return success();
  }
};

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
        !llvm::any_of(func.getResultTypes(), isDynamicShape))
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

    // A call with a dynamically shaped result (an NNAPI partition's host
    // copy: the runtime computes the same sizes with the spec's rules) is
    // its callee's body here, whose sizes reify.
    Block &body = shapes.getBody().front();
    SmallVector<func::CallOp> calls;
    body.walk([&](func::CallOp call) {
      if (llvm::any_of(call.getResultTypes(), isDynamicShape))
        calls.push_back(call);
    });
    for (func::CallOp call : calls) {
      auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
      if (callee && !callee.isExternal() && callee.getBody().hasOneBlock())
        inlineCall(call, callee);
    }

    // Return each dynamic dimension of each result instead of the results;
    // which output and dimension each is, for messages.
    auto ret = cast<func::ReturnOp>(body.getTerminator());
    b.setInsertionPoint(ret);
    SmallVector<Value> dims;
    SmallVector<std::pair<unsigned, int64_t>> which;
    for (auto [i, result] : llvm::enumerate(ret.getOperands())) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (!type)
        continue;
      for (int64_t d = 0; d < type.getRank(); ++d)
        if (type.isDynamicDim(d)) {
          dims.push_back(b.create<tensor::DimOp>(ret.getLoc(), result, d));
          which.push_back({unsigned(i), d});
        }
    }
    b.create<func::ReturnOp>(ret.getLoc(), dims);
    ret.erase();

    // Sizes in terms of operands' sizes, op by op (reified shapes: reshapes,
    // destinations, pads); the same dimension read twice is one value, and
    // max(d, d) is d (TOSA's broadcasting sizes its results with a maximum);
    // reshapes' divisions become affine.
    auto simplify = [&] {
      IRRewriter rewriter(ctx);
      DominanceInfo dominance;
      eliminateCommonSubExpressions(rewriter, dominance, shapes);
      RewritePatternSet patterns(ctx);
      memref::populateResolveRankedShapedTypeResultDimsPatterns(patterns);
      tensor::DimOp::getCanonicalizationPatterns(patterns, ctx);
      arith::MaxUIOp::getCanonicalizationPatterns(patterns, ctx);
      affine::AffineApplyOp::getCanonicalizationPatterns(patterns, ctx);
      patterns.add<SizeDivisionAsAffine>(ctx);
      return applyPatternsAndFoldGreedily(shapes, std::move(patterns));
    };
    if (failed(simplify())) {
      shapes.emitError("the output dimensions did not settle");
      return signalPassFailure();
    }
    // An output size that depends on values the model computes: the first
    // returned size whose computation contains an op `uses` picks is named.
    auto reportValueDependence = [&](function_ref<bool(Operation *)> uses) {
      auto terminator = cast<func::ReturnOp>(body.getTerminator());
      std::pair<unsigned, int64_t> at = which.front();
      for (auto [k, v] : llvm::enumerate(terminator.getOperands())) {
        SetVector<Operation *> slice;
        if (Operation *def = v.getDefiningOp()) {
          getBackwardSlice(def, &slice);
          slice.insert(def);
        }
        if (llvm::any_of(slice, uses)) {
          at = which[k];
          break;
        }
      }
      func.emitError() << "dimension " << at.second << " of output "
                       << at.first
                       << " is not a function of the input dimensions (it "
                          "depends on values the model computes): a model "
                          "with dynamic dimensions needs output shapes "
                          "computable from the input shapes";
      shapes.erase();
    };
    // What is left (the scf.if of TOSA's run-time broadcasting): a bound
    // equal to the size, from the arguments' sizes alone.
    auto isArgument = [&](Value v, std::optional<int64_t> dim,
                          ValueBoundsConstraintSet &) {
      auto arg = dyn_cast<BlockArgument>(v);
      return dim && arg && arg.getOwner() == &body;
    };
    SmallVector<tensor::DimOp> open;
    shapes.walk([&](tensor::DimOp dim) {
      auto arg = dyn_cast<BlockArgument>(dim.getSource());
      if (!arg || arg.getOwner() != &body)
        open.push_back(dim);
    });
    for (tensor::DimOp dim : open) {
      std::optional<int64_t> index = dim.getConstantIndex();
      FailureOr<OpFoldResult> bound = failure();
      if (index) {
        b.setInsertionPoint(dim);
        bound = affine::reifyShapedValueDimBound(
            b, dim.getLoc(), presburger::BoundType::EQ, dim.getSource(),
            *index, isArgument, /*closedUB=*/true);
      }
      if (failed(bound)) {
        reportValueDependence([&](Operation *op) { return op == dim; });
        return signalPassFailure();
      }
      dim.replaceAllUsesWith(
          getValueOrCreateConstantIndexOp(b, dim.getLoc(), *bound));
      dim.erase();
    }

    // Only what computes the sizes stays; the rest goes even where it has
    // effects (a partition's call computing a static output).
    {
      // The ops of the body the returned sizes come from, the values their
      // regions use from above included.
      SmallVector<Value> work(body.getTerminator()->getOperands());
      llvm::SmallPtrSet<Operation *, 32> keep;
      while (!work.empty()) {
        Operation *def = work.pop_back_val().getDefiningOp();
        Operation *top = def ? body.findAncestorOpInBlock(*def) : nullptr;
        if (!top || !keep.insert(top).second)
          continue;
        top->walk([&](Operation *nested) {
          llvm::append_range(work, nested->getOperands());
        });
      }
      SmallVector<Operation *> dead;
      for (Operation &op : body.without_terminator())
        if (!keep.contains(&op))
          dead.push_back(&op);
      for (Operation *op : llvm::reverse(dead)) {
        op->dropAllUses();
        op->erase();
      }
    }

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
    for (unsigned i = 0; i < numTensorArgs; ++i) {
      BlockArgument arg = body.getArgument(i);
      if (!arg.use_empty()) {
        reportValueDependence([&](Operation *op) {
          return llvm::is_contained(op->getOperands(), arg);
        });
        return signalPassFailure();
      }
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
        !llvm::any_of(func.getArgumentTypes(), isDynamicShape))
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
