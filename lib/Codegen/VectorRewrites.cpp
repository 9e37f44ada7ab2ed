//===- VectorRewrites.cpp - Vector transfers of tiles, masks removed ------===//
//
// Rewrites nnapi-codegen applies to the vector code of its tiles: tensor
// slices folded into the transfers that read and write them, and the
// vector.mask ops of masked remainders made masked operands and selects.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// Folding tensor slices into vector transfers
//===----------------------------------------------------------------------===//
//
// MLIR 19's tensor::populateFoldTensorSubsetIntoVectorTransferPatterns folds
// insert_slice(transfer_write(v, t), d) into transfer_write(v, d) even when v
// covers only part of t, dropping the rest of t (fixed upstream later). These
// two patterns do the same folds, the insert one only when the write covers
// the whole slice.

/// vector.transfer_read (tensor.extract_slice %s[o]) [i] -> transfer_read %s[o
/// + i].
struct FoldReadOfSlice : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    auto slice = read.getSource().getDefiningOp<tensor::ExtractSliceOp>();
    // (Not a read masked by an enclosing vector.mask, whose region holds
    // the read alone.)
    if (!slice || read.getMask() || isa<vector::MaskOp>(read->getParentOp()) ||
        !slice.hasUnitStride() ||
        slice.getSourceType().getRank() != slice.getResultType().getRank())
      return failure();
    Location loc = read.getLoc();
    SmallVector<Value> indices;
    for (auto [offset, index] :
         llvm::zip(slice.getMixedOffsets(), read.getIndices()))
      indices.push_back(rewriter.create<affine::AffineApplyOp>(
          loc, rewriter.getAffineDimExpr(0) + rewriter.getAffineDimExpr(1),
          ValueRange{getValueOrCreateConstantIndexOp(rewriter, loc, offset),
                     index}));
    rewriter.replaceOpWithNewOp<vector::TransferReadOp>(
        read, read.getVectorType(), slice.getSource(), indices,
        read.getPermutationMapAttr(), read.getPadding(), Value(),
        read.getInBoundsAttr());
    return success();
  }
};

/// tensor.insert_slice (vector.transfer_write %v, %t[0...]) into %d[o] ->
/// transfer_write %v, %d[o], when %v covers all of %t.
struct FoldInsertOfCoveringWrite : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::InsertSliceOp insert,
                                PatternRewriter &rewriter) const override {
    auto write = insert.getSource().getDefiningOp<vector::TransferWriteOp>();
    if (!write || write.getMask() || !insert.hasUnitStride() ||
        insert.getSourceType().getRank() != insert.getDestType().getRank() ||
        !write.getPermutationMap().isMinorIdentity() ||
        write.hasOutOfBoundsDim() ||
        !llvm::all_of(write.getIndices(), isZeroIndex))
      return failure();
    ArrayRef<int64_t> slice = insert.getSourceType().getShape();
    ArrayRef<int64_t> vec = write.getVectorType().getShape();
    size_t lead = slice.size() - vec.size();
    if (llvm::any_of(slice.take_front(lead),
                     [](int64_t d) { return d != 1; }) ||
        slice.drop_front(lead) != vec)
      return failure();
    Location loc = insert.getLoc();
    SmallVector<Value> indices;
    for (OpFoldResult offset : insert.getMixedOffsets())
      indices.push_back(getValueOrCreateConstantIndexOp(rewriter, loc, offset));
    AffineMap map = AffineMap::getMinorIdentityMap(
        insert.getDestType().getRank(), vec.size(), rewriter.getContext());
    rewriter.replaceOpWithNewOp<vector::TransferWriteOp>(
        insert, write.getVector(), insert.getDest(), indices,
        AffineMapAttr::get(map), write.getInBoundsAttr());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Masked remainders without vector.mask
//===----------------------------------------------------------------------===//

/// vector.mask %m { vector.multi_reduction <kind> %src, %acc } ->
/// multi_reduction of select(%m, %src, the kind's neutral value): the
/// masked remainder of a dynamic reduction without a vector.mask region,
/// which bufferization's deallocation does not keep whole (it puts ops in
/// the region). With the masked transfers made masked operands
/// (populateVectorMaskLoweringPatternsForSideEffectingOps), no vector.mask
/// is left.
struct MaskedReductionToSelect : OpRewritePattern<vector::MaskOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(vector::MaskOp mask,
                                PatternRewriter &rewriter) const override {
    auto reduction =
        dyn_cast_or_null<vector::MultiDimReductionOp>(mask.getMaskableOp());
    if (!reduction || mask.hasPassthru())
      return failure();
    Type element = reduction.getSourceVectorType().getElementType();
    std::optional<TypedAttr> neutral = neutralValue(
        rewriter, reduction.getKind(), element);
    if (!neutral)
      return failure();
    Location loc = reduction.getLoc();
    Value fill = rewriter.create<arith::ConstantOp>(
        loc, DenseElementsAttr::get(reduction.getSourceVectorType(),
                                    Attribute(*neutral)));
    Value source = rewriter.create<arith::SelectOp>(
        loc, mask.getMask(), reduction.getSource(), fill);
    rewriter.replaceOpWithNewOp<vector::MultiDimReductionOp>(
        mask, source, reduction.getAcc(), reduction.getReductionMask(),
        reduction.getKind());
    return success();
  }

  /// x combined with it is x.
  static std::optional<TypedAttr> neutralValue(OpBuilder &b,
                                               vector::CombiningKind kind,
                                               Type element) {
    using K = vector::CombiningKind;
    if (auto f = dyn_cast<FloatType>(element)) {
      const llvm::fltSemantics &sem = f.getFloatSemantics();
      switch (kind) {
      case K::ADD:
        return b.getFloatAttr(f, 0.0);
      case K::MUL:
        return b.getFloatAttr(f, 1.0);
      case K::MAXIMUMF:
      case K::MAXNUMF:
        return b.getFloatAttr(f, APFloat::getInf(sem, /*Negative=*/true));
      case K::MINIMUMF:
      case K::MINNUMF:
        return b.getFloatAttr(f, APFloat::getInf(sem, /*Negative=*/false));
      default:
        return std::nullopt;
      }
    }
    auto i = dyn_cast<IntegerType>(element);
    if (!i)
      return std::nullopt;
    unsigned w = i.getWidth();
    switch (kind) {
    case K::ADD:
    case K::OR:
    case K::XOR:
    case K::MAXUI:
      return b.getIntegerAttr(i, 0);
    case K::MUL:
      return b.getIntegerAttr(i, 1);
    case K::AND:
    case K::MINUI:
      return b.getIntegerAttr(i, APInt::getAllOnes(w));
    case K::MAXSI:
      return b.getIntegerAttr(i, APInt::getSignedMinValue(w));
    case K::MINSI:
      return b.getIntegerAttr(i, APInt::getSignedMaxValue(w));
    default:
      return std::nullopt;
    }
  }
};

/// The masked update of a static tensor's leading elements, as the last
/// partial chunk of a row reduction's vertical accumulator has it:
///   %s = tensor.extract_slice %acc[0...][sizes]
///   %a = vector.transfer_read %s[0...], %pad, %m   (%m: the slice's sizes)
///   %w = vector.transfer_write f(%a, ...), %s[0...], %m
///   tensor.insert_slice %w into %acc[0...][sizes]
/// -> a whole read of %acc, select(%m, f(...), the read) and a whole write:
/// the accumulator stays a vector the loop carries, with no buffer (and no
/// allocation a row) behind it. (Lanes past the slice compute on %acc's own
/// values and are not kept.)
struct MaskedPrefixUpdateAsSelect : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  /// Whether every use of `value`, followed through element-wise ops, ends
  /// in `write`'s vector operand.
  static bool onlyFeeds(Value value, vector::TransferWriteOp write) {
    SmallVector<Value> pending{value};
    while (!pending.empty()) {
      Value v = pending.pop_back_val();
      for (OpOperand &use : v.getUses()) {
        Operation *user = use.getOwner();
        if (user == write && use.getOperandNumber() == 0)
          continue;
        if (!OpTrait::hasElementwiseMappableTraits(user) ||
            user->getNumRegions() != 0 || user->getNumResults() != 1)
          return false;
        pending.push_back(user->getResult(0));
      }
    }
    return true;
  }

  LogicalResult matchAndRewrite(tensor::InsertSliceOp insert,
                                PatternRewriter &rewriter) const override {
    auto write = insert.getSource().getDefiningOp<vector::TransferWriteOp>();
    auto destType = dyn_cast<RankedTensorType>(insert.getDestType());
    if (!write || !write.getMask() || !destType || !destType.hasStaticShape() ||
        write.getVectorType().getShape() != destType.getShape() ||
        !write.getPermutationMap().isMinorIdentity() ||
        !llvm::all_of(write.getIndices(), isZeroIndex) ||
        !insert.hasUnitStride() ||
        !llvm::all_of(insert.getMixedOffsets(), isZeroIndex))
      return failure();
    auto slice = write.getSource().getDefiningOp<tensor::ExtractSliceOp>();
    auto mask = write.getMask().getDefiningOp<vector::CreateMaskOp>();
    if (!slice || !mask || slice.getSource() != insert.getDest() ||
        !slice.hasUnitStride() ||
        !llvm::all_of(slice.getMixedOffsets(), isZeroIndex) ||
        !isEqualConstantIntOrValueArray(slice.getMixedSizes(),
                                        insert.getMixedSizes()) ||
        !isEqualConstantIntOrValueArray(
            getAsOpFoldResult(mask.getOperands()), slice.getMixedSizes()))
      return failure();
    // Every other use of the slice: a read of it under the same mask whose
    // lanes reach nothing but the write, through element-wise ops (so that
    // the lanes past the slice, its padding before and the accumulator's
    // own values after, are never seen).
    SmallVector<vector::TransferReadOp> reads;
    for (Operation *user : slice->getUsers()) {
      if (user == write)
        continue;
      auto read = dyn_cast<vector::TransferReadOp>(user);
      if (!read || read.getMask() != write.getMask() ||
          read.getVectorType() != write.getVectorType() ||
          !read.getPermutationMap().isMinorIdentity() ||
          !llvm::all_of(read.getIndices(), isZeroIndex) ||
          !onlyFeeds(read.getResult(), write))
        return failure();
      reads.push_back(read);
    }
    Location loc = insert.getLoc();
    rewriter.setInsertionPointAfter(slice);
    SmallVector<Value> zeros(
        destType.getRank(), rewriter.create<arith::ConstantIndexOp>(loc, 0));
    SmallVector<bool> inBounds(destType.getRank(), true);
    Value whole = rewriter.create<vector::TransferReadOp>(
        loc, write.getVectorType(), insert.getDest(), zeros,
        ArrayRef<bool>(inBounds));
    for (vector::TransferReadOp read : reads)
      rewriter.replaceOp(read, whole);
    rewriter.setInsertionPoint(insert);
    Value kept = rewriter.create<arith::SelectOp>(loc, write.getMask(),
                                                  write.getVector(), whole);
    rewriter.replaceOpWithNewOp<vector::TransferWriteOp>(
        insert, kept, insert.getDest(), zeros, ArrayRef<bool>(inBounds));
    return success();
  }
};

} // namespace

void mlir::nnapi::populateSliceIntoTransferPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FoldReadOfSlice, FoldInsertOfCoveringWrite>(
      patterns.getContext());
}

void mlir::nnapi::populateMaskRemovalPatterns(RewritePatternSet &patterns) {
  vector::populateVectorMaskLoweringPatternsForSideEffectingOps(patterns);
  patterns.add<MaskedReductionToSelect, MaskedPrefixUpdateAsSelect>(
      patterns.getContext());
}
