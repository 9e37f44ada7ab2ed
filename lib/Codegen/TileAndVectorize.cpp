//===- TileAndVectorize.cpp - Per-op code generation strategies -----------===//
//
// nnapi-codegen turns linalg on tensors into tiled, fused, vectorized loops.
//
// A *group* is a compute op (convolution, depthwise convolution, pooling,
// matmul, batch matmul) with the ops fused into its tiles: the initializer
// of its accumulator (a fill or a bias broadcast) and the chain of
// element-wise ops that consume its result one after the other. Element-wise
// chains without a compute op form groups of their own. For each group:
//   1. the last op of the chain is tiled over its output into register-sized
//      tiles and the members are fused into the tile loop;
//   2. tile loops whose tile does not divide the size are peeled, so the
//      main loop and the remainder both have static shapes;
//   3. the compute op's reduction is tiled: one filter row (and for
//      convolutions one filter column and a few input channels), so that
//      2-D windows decompose to 1-D ones;
// then, for the whole function, windows are decomposed, every tile-sized op
// is vectorized, subset ops fold into vector transfers, and tensors carried
// through the reduction loops are hoisted so accumulators stay in
// registers.
//
// Tile sizes come from the target: `lanes` float32 elements per vector and
// `registers` vector registers. A convolution or matmul tile is `rows`
// output pixels (rows) by two vectors of output channels; rows are chosen
// so that accumulators, the filter vectors and a broadcast fit the register
// file.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Codegen/Passes.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"

#include "DotProducts.h"
#include "Patterns.h"
#include "TileSizes.h"

#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/SCF/Transforms/TileUsingInterface.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/bit.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPICODEGEN
#include "nnapi-mlir/Codegen/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;
using namespace mlir::nnapi::codegen;

namespace {

constexpr StringLiteral kCodegenAttr = nnapi::NNAPIDialect::kCodegenAttrName;
/// Vectorized ops: the tiles inside the loops of a strategy, of at most this
/// many iterations, and ops outside loops small enough to be one tile.
constexpr int64_t kMaxTileIterations = 1 << 14;
constexpr int64_t kMaxUntiledIterations = 1 << 8;
/// On a tiled consumer, while the pass runs: which of its loops is mapped to
/// vector lanes (a loop whose tile is not a power of two gets re-tiled).
constexpr StringLiteral kLaneDimAttr = "nnapi_codegen.lane_dim";
/// On a tile with dynamic sizes, while the pass runs: the static vector
/// sizes it is vectorized at with masks (each at least the tile's size).
constexpr StringLiteral kMaskSizesAttr = "nnapi_codegen.mask_sizes";

struct Group {
  Strategy strategy;
  Operation *root = nullptr; ///< The compute op; null for element-wise.
  Operation *consumer = nullptr;
  llvm::SmallPtrSet<Operation *, 8> members;
};

/// A linalg op on ranked tensors of whole-byte elements, statically shaped
/// unless `allowDynamic`. (A vector of i1 is stored bit-packed, while a
/// tensor of i1 holds a byte per element: i1 stays scalar.) Strategies tile
/// dynamically shaped ops too (issue 54): their full tiles are static and
/// vectorize; only static ops vectorize.
bool hasTensorShapes(Operation *op, bool allowDynamic) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics())
    return false;
  for (Type t : op->getOperandTypes())
    if (auto shaped = dyn_cast<ShapedType>(t);
        shaped &&
        (!shaped.hasRank() || (!allowDynamic && !shaped.hasStaticShape()) ||
         !shaped.getElementType().isIntOrFloat() ||
         shaped.getElementType().getIntOrFloatBitWidth() % 8))
      return false;
  return true;
}
bool hasStaticTensorShapes(Operation *op) { return hasTensorShapes(op, false); }
bool isTileable(Operation *op) { return hasTensorShapes(op, true); }

bool isFloat(Operation *op) {
  return op->getNumResults() == 1 &&
         isa<FloatType>(getElementTypeOrSelf(op->getResult(0).getType()));
}

/// Every operand and the result i32: an integer convolution or matmul in the
/// form nnapi-codegen-prepare gives those with zero points (i32 lanes are
/// as wide as f32 ones, so the float tiles fit).
bool isInt32(Operation *op) {
  return op->getNumResults() == 1 &&
         llvm::all_of(op->getOperandTypes(),
                      [](Type t) {
                        return getElementTypeOrSelf(t).isInteger(32);
                      }) &&
         getElementTypeOrSelf(op->getResult(0).getType()).isInteger(32);
}

/// A map that reads loop indices or constant 0 (a broadcast of a unit
/// dimension), each loop at most once.
bool isBroadcastMap(AffineMap map) {
  llvm::SmallBitVector seen(map.getNumDims());
  for (AffineExpr e : map.getResults()) {
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      if (seen.test(d.getPosition()))
        return false;
      seen.set(d.getPosition());
      continue;
    }
    auto c = dyn_cast<AffineConstantExpr>(e);
    if (!c || c.getValue() != 0)
      return false;
  }
  return true;
}

using nnapi::isContractionWithMaps;
using nnapi::isPackedMatmul;

/// A generic that is a plain matmul: loops (m, n, k), A[m, k], B[k, n],
/// C[m, n] (a packed matmul tile once its panel dimension is dropped).
bool isMatmulGeneric(Operation *op) {
  MLIRContext *ctx = op->getContext();
  AffineExpr m, n, k;
  bindDims(ctx, m, n, k);
  return isContractionWithMaps(op, {AffineMap::get(3, 0, {m, k}, ctx),
                                    AffineMap::get(3, 0, {k, n}, ctx),
                                    AffineMap::get(3, 0, {m, n}, ctx)});
}

/// A generic reduction: some reduction loops, one result written through a
/// projected permutation of the parallel loops, operands read through
/// broadcast maps (reduce_sum/max of TOSA, the reductions of softmax).
bool isReduction(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !isa<linalg::GenericOp, linalg::ReduceOp>(op) ||
      op->getNumResults() != 1 || linalgOp.getNumReductionLoops() == 0 ||
      linalg::isaContractionOpInterface(linalgOp))
    return false;
  return llvm::all_of(linalgOp.getIndexingMapsArray(), isBroadcastMap);
}

std::optional<Strategy> computeStrategy(Operation *op) {
  if (!isTileable(op))
    return std::nullopt;
  if (isInt32(op) &&
      isa<linalg::Conv2DNhwcHwcfOp, linalg::DepthwiseConv2DNhwcHwcOp,
          linalg::MatmulOp, linalg::BatchMatmulOp>(op) &&
      !isPackedMatmul(op))
    return isa<linalg::Conv2DNhwcHwcfOp>(op)          ? Strategy::Conv
           : isa<linalg::DepthwiseConv2DNhwcHwcOp>(op) ? Strategy::Depthwise
           : isa<linalg::MatmulOp>(op)                 ? Strategy::Matmul
                                                       : Strategy::BatchMatmul;
  if (isInt8Conv(op))
    return Strategy::Conv;
  if (isInt8Matmul(op))
    return isa<linalg::MatmulOp>(op) ? Strategy::Matmul : Strategy::BatchMatmul;
  if (isInt32(op) && isPackedMatmul(op))
    return Strategy::PackedMatmul;
  // Sums of integers into i32 (an 8-bit convolution's window sums) pool and
  // reduce like floats.
  if (op->getNumResults() == 1 &&
      getElementTypeOrSelf(op->getResult(0).getType()).isInteger(32)) {
    if (isa<linalg::PoolingNhwcSumOp>(op))
      return Strategy::Pool;
    if (isReduction(op))
      return Strategy::Reduction;
  }
  if (!isFloat(op))
    return std::nullopt;
  if (isPackedMatmul(op))
    return Strategy::PackedMatmul;
  if (isMatmulGeneric(op))
    return Strategy::Matmul;
  if (isa<linalg::Conv2DNhwcHwcfOp>(op))
    return Strategy::Conv;
  if (isa<linalg::DepthwiseConv2DNhwcHwcOp>(op))
    return Strategy::Depthwise;
  if (isa<linalg::PoolingNhwcSumOp, linalg::PoolingNhwcMaxOp>(op))
    return Strategy::Pool;
  if (isa<linalg::MatmulOp>(op))
    return Strategy::Matmul;
  if (isa<linalg::BatchMatmulOp>(op))
    return Strategy::BatchMatmul;
  if (isReduction(op))
    return Strategy::Reduction;
  return std::nullopt;
}

/// An all-parallel generic with one result written through the identity map
/// and every operand read through a broadcast map.
bool isElementwise(Operation *op) {
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    return isTileable(op) &&
           cast<ShapedType>(fill.result().getType()).getRank() > 0;
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || !isTileable(op) || op->getNumResults() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      generic.getNumLoops() == 0)
    return false;
  if (!generic.getIndexingMapMatchingResult(op->getResult(0)).isIdentity())
    return false;
  return llvm::all_of(generic.getIndexingMapsArray(), isBroadcastMap);
}

/// `user` is element-wise and reads `value` element for element.
bool readsElementwise(Operation *user, Value value) {
  if (!isElementwise(user) || !isa<linalg::GenericOp>(user))
    return false;
  auto generic = cast<linalg::GenericOp>(user);
  for (OpOperand *in : generic.getDpsInputOperands())
    if (in->get() == value)
      return generic.getMatchingIndexingMap(in).isIdentity();
  return false;
}

/// Whether the body of `op` computes anything (a copy or broadcast only
/// yields an input): a remainder of it pays to vectorize (LLVM's loop
/// vectorizer leaves a short one scalar, and has no vector exp or tanh).
bool computesArithmetic(linalg::LinalgOp op) {
  return llvm::any_of(op->getRegion(0).front(), [](Operation &inner) {
    return !isa<linalg::YieldOp>(inner);
  });
}

std::optional<Value> singleUser(Operation *op) {
  if (op->getNumResults() != 1 || !op->getResult(0).hasOneUse())
    return std::nullopt;
  return op->getResult(0);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct CodegenPass : public nnapi::impl::NNAPICodegenBase<CodegenPass> {
  using NNAPICodegenBase::NNAPICodegenBase;

  LogicalResult initialize(MLIRContext *ctx) override {
    auto addCanonicalization = [ctx](RewritePatternSet &patterns) {
      for (Dialect *dialect : ctx->getLoadedDialects())
        dialect->getCanonicalizationPatterns(patterns);
      for (RegisteredOperationName op : ctx->getRegisteredOperations())
        op.getCanonicalizationPatterns(patterns, ctx);
    };
    RewritePatternSet patterns(ctx);
    addCanonicalization(patterns);
    // The sizes of a loop's tensor results are those of its inits: a
    // dynamic size taken from a fused initializer's loop (a fill of the
    // accumulator, which the tiles now start from zero vectors instead)
    // would keep that loop alive, filling a buffer nothing reads.
    scf::populateSCFForLoopCanonicalizationPatterns(patterns);
    canonicalization = FrozenRewritePatternSet(std::move(patterns));
    // After vectorization: transfers absorb slices and permutations,
    // reductions become contractions; plus canonicalization. (Casting away
    // leading unit dimensions would turn a one-row matmul tile into a
    // matrix-vector contraction, which lowers to horizontal reductions
    // instead of outer products.)
    RewritePatternSet cleanup(ctx);
    vector::populateVectorTransferPermutationMapLoweringPatterns(cleanup);
    vector::populateVectorReductionToContractPatterns(cleanup);
    vector::populateSinkVectorBroadcastPatterns(cleanup);
    nnapi::populateSliceIntoTransferPatterns(cleanup);
    addCanonicalization(cleanup);
    vectorCleanup = FrozenRewritePatternSet(std::move(cleanup));
    return success();
  }

  void runOnOperation() override;

private:
  SmallVector<Group> findGroups();
  LogicalResult tileGroup(RewriterBase &rewriter, Group &group);
  void tileReductions(RewriterBase &rewriter);
  /// A reduction over a row of dynamic length, `op`, as vertical
  /// partial reductions in one vector (whole vectors, then one masked
  /// vector) and a horizontal one after the loop: one horizontal reduction
  /// a row instead of one per chunk.
  LogicalResult tileRowReduction(RewriterBase &rewriter, linalg::LinalgOp op);
  bool retileLanes(RewriterBase &rewriter, int round);
  /// Marks the ops of `op`'s tile for masked vectorization along its
  /// dynamic lane dimension (kMaskSizesAttr) when they are element-wise and
  /// compute something (not copies only); false if they are not.
  bool markMaskedLanes(RewriterBase &rewriter, linalg::LinalgOp op,
                       int64_t laneDim);
  void vectorize(RewriterBase &rewriter);
  void foldPanelDims();
  void markFallbacks();
  void markFallback(Operation *op, StringRef reason);
  void canonicalize() {
    (void)applyPatternsAndFoldGreedily(getOperation(), canonicalization);
  }
  /// Peels each scf.for of `loops` whose step may not divide its range;
  /// returns the remainder loops made.
  SmallVector<scf::ForOp> peel(RewriterBase &rewriter,
                               ArrayRef<LoopLikeOpInterface> loops,
                               bool fullTileSizes = false);
  /// Splits what `remainders` (peeled loops) compute with a dynamic extent
  /// into static tiles of halving widths, from `width` down to `minWidth`,
  /// so that all but the last few elements vectorize: each linalg op in
  /// them that `isSplit` selects is tiled by `tileFor(op, width)` and
  /// peeled, and the next width splits what that peeling leaves.
  void splitRemainders(
      RewriterBase &rewriter, SmallVector<scf::ForOp> remainders,
      int64_t width, int64_t minWidth,
      function_ref<bool(linalg::LinalgOp)> isSplit,
      function_ref<SmallVector<int64_t>(linalg::LinalgOp, int64_t)> tileFor);
  /// Marks the group's output tile loops as parallel (kParallelAttrName).
  void markParallel(const Group &group, ArrayRef<int64_t> tile,
                    ArrayRef<LoopLikeOpInterface> loops);
  /// Transposes: parallel loops around the tiles vectorTransposeTile gives,
  /// or around scalar rows and planes.
  void tileTransposes(RewriterBase &rewriter);

  Target target;
  DotKind dotKind = DotKind::None;
  FrozenRewritePatternSet canonicalization, vectorCleanup;
};

SmallVector<Group> CodegenPass::findGroups() {
  func::FuncOp func = getOperation();
  llvm::SmallPtrSet<Operation *, 16> grouped;
  SmallVector<Group> groups;
  func.walk([&](Operation *op) {
    std::optional<Strategy> s = computeStrategy(op);
    if (!s || grouped.count(op))
      return;
    Group g{*s, op, op, {}};
    g.members.insert(op);
    // The element-wise chain that consumes the result (not after a
    // reduction, whose tiles have another shape than its consumers').
    Operation *last = op;
    while (std::optional<Value> v = singleUser(last)) {
      if (*s == Strategy::Reduction)
        break;
      Operation *user = *v->getUsers().begin();
      if (grouped.count(user) || !readsElementwise(user, *v))
        break;
      g.members.insert(user);
      last = user;
    }
    g.consumer = last;
    // The accumulator's initializer: a fill or a broadcast of the bias.
    Value init = cast<linalg::LinalgOp>(op).getDpsInitOperand(0)->get();
    if (Operation *p = init.getDefiningOp())
      if (p->hasOneUse() && (isa<linalg::FillOp>(p) || isElementwise(p)))
        g.members.insert(p);
    grouped.insert(g.members.begin(), g.members.end());
    groups.push_back(std::move(g));
  });
  // Element-wise chains: the last op and its single-use element-wise
  // producers, transitively.
  SmallVector<Operation *> elementwise;
  func.walk([&](Operation *op) {
    if (isElementwise(op) && !grouped.count(op))
      elementwise.push_back(op);
  });
  for (Operation *op : llvm::reverse(elementwise)) {
    if (grouped.count(op))
      continue;
    Group g{Strategy::Elementwise, nullptr, op, {}};
    SmallVector<Operation *> work = {op};
    while (!work.empty()) {
      Operation *m = work.pop_back_val();
      g.members.insert(m);
      grouped.insert(m);
      for (Value in : cast<linalg::LinalgOp>(m).getDpsInputs()) {
        Operation *p = in.getDefiningOp();
        if (p && !grouped.count(p) && p->hasOneUse() && isElementwise(p) &&
            readsElementwise(m, in))
          work.push_back(p);
      }
    }
    groups.push_back(std::move(g));
  }
  return groups;
}

/// In `loop`, the main loop of a peeled tile loop of constant step `w`,
/// every tile is whole: its tile sizes min(w, extent - iv) are w. Peeling
/// simplifies them itself, except where the extent was a remainder's
/// (`ub - iv0` of an enclosing peeled loop): composed into the min, it is
/// no longer the symbol the loop's bound is written in, and MLIR 19's
/// simplification does not see they agree.
static void setFullTileSizes(RewriterBase &rewriter, scf::ForOp loop) {
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step)
    return;
  Value iv = loop.getInductionVar();
  SmallVector<affine::AffineMinOp> mins;
  for (auto min : loop.getBody()->getOps<affine::AffineMinOp>())
    if (llvm::is_contained(min.getOperands(), iv) &&
        min.getAffineMap().getNumResults() == 2 &&
        llvm::any_of(min.getAffineMap().getResults(), [&](AffineExpr e) {
          auto c = dyn_cast<AffineConstantExpr>(e);
          return c && c.getValue() == *step;
        }))
      mins.push_back(min);
  for (affine::AffineMinOp min : mins) {
    rewriter.setInsertionPoint(min);
    rewriter.replaceOpWithNewOp<arith::ConstantIndexOp>(min, *step);
  }
}

SmallVector<scf::ForOp> CodegenPass::peel(RewriterBase &rewriter,
                                          ArrayRef<LoopLikeOpInterface> loops,
                                          bool fullTileSizes) {
  SmallVector<scf::ForOp> remainders;
  // Innermost first, so peeling an outer loop copies already-peeled bodies.
  for (LoopLikeOpInterface loop : llvm::reverse(loops)) {
    auto forOp = dyn_cast<scf::ForOp>(loop.getOperation());
    if (!forOp)
      continue;
    scf::ForOp partial;
    if (failed(scf::peelForLoopAndSimplifyBounds(rewriter, forOp, partial)))
      continue;
    remainders.push_back(partial);
    // forOp is now the main loop: only whole tiles.
    if (fullTileSizes)
      setFullTileSizes(rewriter, forOp);
  }
  return remainders;
}

LogicalResult CodegenPass::tileGroup(RewriterBase &rewriter, Group &group) {
  auto consumer = cast<TilingInterface>(group.consumer);
  auto resultType =
      cast<RankedTensorType>(group.consumer->getResult(0).getType());
  auto linalgConsumer = cast<linalg::LinalgOp>(group.consumer);
  SmallVector<int64_t> tile;
  if (group.strategy == Strategy::Reduction) {
    tile = reductionOutputTile(linalgConsumer, target);
    // Vector lanes only along an innermost parallel loop.
    if (linalgConsumer.getIteratorTypesArray().back() ==
        utils::IteratorType::parallel)
      group.consumer->setAttr(
          kLaneDimAttr, IntegerAttr::get(IndexType::get(rewriter.getContext()),
                                         linalgConsumer.getNumLoops() - 1));
  } else {
    tile = outputTile(group.strategy, assumedSizes(resultType.getShape()),
                      target);
    // A compute op tiled on its own: its reduction loops are not tiled here.
    tile.resize(linalgConsumer.getNumLoops(), 0);
    // The lane dimension: the output's last, which is the consumer's last
    // parallel loop.
    group.consumer->setAttr(
        kLaneDimAttr, IntegerAttr::get(IndexType::get(rewriter.getContext()),
                                       resultType.getRank() - 1));
  }
  scf::SCFTilingOptions tiling;
  tiling.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), tile));
  scf::SCFTileAndFuseOptions options;
  options.setTilingOptions(tiling);
  options.setFusionControlFn([&](tensor::ExtractSliceOp, OpResult producer,
                                 bool) {
    return std::make_tuple(group.members.contains(producer.getOwner()), false);
  });
  rewriter.setInsertionPoint(group.consumer);
  FailureOr<scf::SCFTileAndFuseResult> result =
      scf::tileConsumerAndFuseProducersUsingSCF(rewriter, consumer, options);
  if (failed(result))
    return failure();
  for (Value v : group.consumer->getResults())
    if (Value r = result->replacements.lookup(v))
      rewriter.replaceAllUsesWith(v, r);
  markParallel(group, tile, result->loops);
  peel(rewriter, result->loops);
  return success();
}

/// `op` tiled by `sizes` (0: not tiled) with plain scf.for loops.
FailureOr<scf::SCFTilingResult> tileLoops(RewriterBase &rewriter,
                                          Operation *op,
                                          ArrayRef<int64_t> sizes) {
  scf::SCFTilingOptions options;
  options.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), sizes));
  rewriter.setInsertionPoint(op);
  return scf::tileUsingSCF(rewriter, cast<TilingInterface>(op), options);
}

/// Iteration points of a linalg op (its loop ranges' product).
int64_t iterationPoints(Operation *op) {
  int64_t points = 1;
  for (int64_t r : loopRanges(cast<linalg::LinalgOp>(op)))
    points *= r;
  return points;
}

void CodegenPass::markParallel(const Group &group, ArrayRef<int64_t> tile,
                               ArrayRef<LoopLikeOpInterface> loops) {
  // The group's work: the iteration points of its members.
  int64_t work = 0;
  for (Operation *m : group.members)
    work += iterationPoints(m);
  SmallVector<int64_t> ranges =
      loopRanges(cast<linalg::LinalgOp>(group.consumer));
  SmallVector<int64_t> trips;
  for (auto [size, range] : llvm::zip(tile, ranges))
    if (size)
      trips.push_back(llvm::divideCeil(range, size));
  // One loop per tiled dimension, outermost first; each iterates over
  // output tiles (all tiled dimensions are parallel ones), so its
  // iterations write disjoint slices. Peeling copies the attribute to the
  // remainder loops.
  if (trips.size() != loops.size())
    return;
  for (auto [loop, trip] : llvm::zip(loops, trips)) {
    work = std::max<int64_t>(1, work / trip);
    Operation *op = LoopLikeOpInterface(loop).getOperation();
    if (isa<scf::ForOp>(op))
      op->setAttr(nnapi::NNAPIDialect::kParallelAttrName,
                  IntegerAttr::get(IntegerType::get(&getContext(), 64), work));
  }
}

void CodegenPass::tileTransposes(RewriterBase &rewriter) {
  SmallVector<linalg::TransposeOp> transposes;
  getOperation().walk([&](linalg::TransposeOp op) {
    if (isTileable(op) && op.getInit().getType().getRank() >= 2 &&
        iterationPoints(op) > kMaxUntiledIterations)
      transposes.push_back(op);
  });
  for (linalg::TransposeOp op : transposes) {
    ArrayRef<int64_t> perm = op.getPermutation();
    // Dynamic dimensions as a size every block divides: their remainders
    // are split below.
    SmallVector<int64_t> shape =
        assumedSizes(op.getInit().getType().getShape());
    int64_t rank = shape.size();
    SmallVector<int64_t> sizes(rank, 0);
    if (std::optional<SmallVector<int64_t>> tile =
            vectorTransposeTile(perm, shape, target)) {
      sizes = *tile;
    } else {
      // Loops over the output dimensions but the last two (the first of a
      // matrix): each iteration writes one row (matrix) or plane, as
      // scalar loops.
      for (int64_t d = 0; d < std::max<int64_t>(1, rank - 2); ++d)
        sizes[d] = 1;
    }
    FailureOr<scf::SCFTilingResult> result = tileLoops(rewriter, op, sizes);
    if (failed(result))
      continue;
    Group group{Strategy::Elementwise, nullptr, op, {}};
    group.members.insert(op);
    markParallel(group, sizes, result->loops);
    rewriter.replaceOp(op, result->replacements);
    // A dynamic dimension's last blocks (a key's [S, D] -> [D, S] with
    // S % 16 rows left): square blocks of half the size, then a quarter,
    // which transpose in registers too, instead of a scalar loop (which
    // LLVM vectorizes as gathers).
    if (hasStaticTensorShapes(op))
      continue; // its tiles divide it
    // Dynamic sizes: peeled, so that the full tiles are static.
    SmallVector<scf::ForOp> remainders = peel(rewriter, result->loops);
    int64_t block = sizes.back();
    if (perm.back() == rank - 1 || block < 8 || sizes[rank - 2] != block)
      continue;
    splitRemainders(
        rewriter, std::move(remainders), block / 2, 4,
        [](linalg::LinalgOp tile) {
          return isa<linalg::TransposeOp>(tile) &&
                 !hasStaticTensorShapes(tile);
        },
        [](linalg::LinalgOp tile, int64_t width) {
          SmallVector<int64_t> blockTile(tile.getNumLoops(), 1);
          blockTile[blockTile.size() - 2] = width;
          blockTile.back() = width;
          return blockTile;
        });
  }
}

bool CodegenPass::markMaskedLanes(RewriterBase &rewriter, linalg::LinalgOp op,
                                  int64_t laneDim) {
  if (!ShapedType::isDynamic(op.getStaticLoopRanges()[laneDim]))
    return false;
  SmallVector<linalg::LinalgOp> members;
  bool computes = false;
  for (Operation &member : *op->getBlock()) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(member);
    if (!linalgOp)
      continue;
    // Element-wise ops with one dynamic dimension (the lanes' remainder):
    // their masked vector code has only masked transfers, which
    // populateMaskRemovalPatterns turns into masked operands.
    if (linalgOp.getNumReductionLoops() ||
        llvm::count_if(linalgOp.getStaticLoopRanges(),
                       ShapedType::isDynamic) > 1)
      return false;
    computes |= computesArithmetic(linalgOp);
    members.push_back(linalgOp);
  }
  if (!computes)
    return false;
  for (linalg::LinalgOp member : members) {
    SmallVector<int64_t> sizes = member.getStaticLoopRanges();
    for (int64_t &size : sizes)
      if (ShapedType::isDynamic(size))
        size = target.lanes;
    member->setAttr(kMaskSizesAttr, rewriter.getDenseI64ArrayAttr(sizes));
  }
  op->removeAttr(kLaneDimAttr);
  return true;
}

bool CodegenPass::retileLanes(RewriterBase &rewriter, int round) {
  SmallVector<std::pair<linalg::LinalgOp, SmallVector<int64_t>>> pending;
  getOperation().walk([&](linalg::LinalgOp op) {
    auto dim = op->getAttrOfType<IntegerAttr>(kLaneDimAttr);
    if (!dim)
      return;
    if (!hasStaticTensorShapes(op)) {
      // The remainder of a dynamic dimension in a compute op's tile (a
      // matmul's, a convolution's) or in an element-wise tile that computes
      // something (softmax's exp and scaling over a dynamic number of
      // keys): split into static tiles that vectorize, instead of scalar
      // loops over up to a whole tile. LLVM's loop vectorizer does not: a
      // reduction's order is fixed, it has no vector exp, and its vector
      // loop takes 32 elements at a time, so a short row stays scalar.
      // (Copies are left to it: split, the recognizer's input layout
      // change was 10% slower.)
      if (!isTileable(op) || !op->getParentOfType<scf::ForOp>())
        return;
      // After a round of whole vectors, an element-wise tile's last
      // partial vector along a dynamic lane dimension is one masked vector
      // (as a reduction's is, tileReductions), not halves and quarters.
      if (round > 0 && markMaskedLanes(rewriter, op, dim.getInt()))
        return;
      if (std::optional<SmallVector<int64_t>> tile = dynamicRemainderTile(
              op, dim.getInt(), target.lanes, round))
        if (llvm::any_of(*op->getBlock(), [](Operation &member) {
              auto linalgOp = dyn_cast<linalg::LinalgOp>(member);
              return linalgOp && (linalgOp.getNumReductionLoops() ||
                                  computesArithmetic(linalgOp));
            }))
          pending.push_back({op, std::move(*tile)});
      return;
    }
    int64_t extent = op.getStaticLoopRanges()[dim.getInt()];
    if (extent > 2 && !llvm::isPowerOf2_64(extent)) {
      SmallVector<int64_t> tile(op.getNumLoops(), 0);
      tile[dim.getInt()] = int64_t(llvm::bit_floor(uint64_t(extent)));
      pending.push_back({op, std::move(tile)});
    }
  });
  for (auto &[op, tile] : pending) {
    scf::SCFTilingOptions tiling;
    tiling.setTileSizes(getAsIndexOpFoldResult(rewriter.getContext(), tile));
    scf::SCFTileAndFuseOptions options;
    options.setTilingOptions(tiling);
    // Fuse the rest of the tile: the linalg ops of the same loop body (each
    // feeds the next; the untiled consumer, still a user while this runs,
    // goes away).
    Block *block = op->getBlock();
    options.setFusionControlFn([block](tensor::ExtractSliceOp,
                                       OpResult producer, bool) {
      Operation *p = producer.getOwner();
      return std::make_tuple(isa<linalg::LinalgOp>(p) && p->getBlock() == block,
                             false);
    });
    rewriter.setInsertionPoint(op);
    FailureOr<scf::SCFTileAndFuseResult> result =
        scf::tileConsumerAndFuseProducersUsingSCF(
            rewriter, cast<TilingInterface>(op.getOperation()), options);
    if (failed(result)) {
      op->removeAttr(kLaneDimAttr);
      continue;
    }
    for (Value v : op->getResults())
      if (Value r = result->replacements.lookup(v))
        rewriter.replaceAllUsesWith(v, r);
    peel(rewriter, result->loops,
         /*fullTileSizes=*/!hasStaticTensorShapes(op));
  }
  return !pending.empty();
}

/// A reduction over one row of dynamic length: its innermost loop is a
/// dynamic reduction, every other loop static.
bool isRowRemainder(linalg::LinalgOp tile) {
  SmallVector<int64_t> ranges = tile.getStaticLoopRanges();
  return isReduction(tile) && !ranges.empty() &&
         ShapedType::isDynamic(ranges.back()) &&
         tile.getIteratorTypesArray().back() ==
             utils::IteratorType::reduction &&
         llvm::none_of(ArrayRef<int64_t>(ranges).drop_back(),
                       ShapedType::isDynamic);
}

LogicalResult CodegenPass::tileRowReduction(RewriterBase &rewriter,
                                            linalg::LinalgOp op) {
  auto partial =
      dyn_cast<PartialReductionOpInterface>(op.getOperation());
  if (!partial)
    return failure();
  SmallVector<OpFoldResult> sizes(op.getNumLoops(), rewriter.getIndexAttr(0));
  sizes.back() = rewriter.getIndexAttr(target.lanes);
  rewriter.setInsertionPoint(op);
  FailureOr<scf::SCFReductionTilingResult> result =
      scf::tileReductionUsingScf(rewriter, partial, sizes);
  if (failed(result))
    return failure();
  // (tileReductionUsingScf has replaced `op` by the merged result.)
  for (scf::ForOp last : peel(rewriter, result->loops, /*fullTileSizes=*/true))
    last.getBody()->walk([&](linalg::LinalgOp chunk) {
      SmallVector<int64_t> ranges = chunk.getStaticLoopRanges();
      if (ranges.empty() || !ShapedType::isDynamic(ranges.back()) ||
          llvm::any_of(ArrayRef<int64_t>(ranges).drop_back(),
                       ShapedType::isDynamic))
        return;
      ranges.back() = target.lanes;
      chunk->setAttr(kMaskSizesAttr, rewriter.getDenseI64ArrayAttr(ranges));
    });
  return success();
}

void CodegenPass::tileReductions(RewriterBase &rewriter) {
  SmallVector<std::pair<linalg::LinalgOp, Strategy>> roots;
  // Every compute op that the group tiling left as tiles (a tile may have
  // lost its loops to canonicalization when it was the only one).
  getOperation().walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(kCodegenAttr))
      return;
    if (std::optional<Strategy> s = computeStrategy(op))
      roots.push_back({op, *s});
  });
  for (auto [op, strategy] : roots) {
    SmallVector<int64_t> sizes = reductionTileSizes(op, strategy, target);
    if (llvm::all_of(sizes, [](int64_t t) { return t == 0; }))
      continue;
    bool dynamicReduction =
        strategy == Strategy::Reduction &&
        ShapedType::isDynamic(op.getStaticLoopRanges().back()) &&
        op.getIteratorTypesArray().back() == utils::IteratorType::reduction;
    if (dynamicReduction && isRowRemainder(op) &&
        succeeded(tileRowReduction(rewriter, op)))
      continue;
    FailureOr<scf::SCFTilingResult> result = tileLoops(rewriter, op, sizes);
    if (failed(result))
      continue;
    rewriter.replaceOp(op, result->replacements);
    SmallVector<scf::ForOp> remainders = peel(rewriter, result->loops);
    if (!dynamicReduction)
      continue;
    // A dynamic reduction that is not one row (several dynamic loops, or no
    // partial-reduction form): chunks of four vectors (a horizontal
    // reduction each), what is left over (up to 63 elements with 16 lanes)
    // in vectors, and the last partial vector as one masked vector whose
    // masked-off lanes hold the reduction's neutral value. (LLVM's
    // vectorizer does not reorder a float reduction: the remainder would be
    // a scalar loop. Splitting it into static chunks of a vector, a half and
    // a quarter left a loop per chunk and a scalar one per row: most of a
    // short row's time.)
    SmallVector<linalg::LinalgOp> tiles;
    for (scf::ForOp loop : remainders)
      loop.getBody()->walk([&](linalg::LinalgOp tile) {
        if (isRowRemainder(tile))
          tiles.push_back(tile);
      });
    for (linalg::LinalgOp tile : tiles) {
      SmallVector<int64_t> vector(tile.getNumLoops(), 0);
      vector.back() = target.lanes;
      FailureOr<scf::SCFTilingResult> inner =
          tileLoops(rewriter, tile, vector);
      if (failed(inner))
        continue;
      rewriter.replaceOp(tile, inner->replacements);
      for (scf::ForOp last :
           peel(rewriter, inner->loops, /*fullTileSizes=*/true))
        last.getBody()->walk([&](linalg::LinalgOp partial) {
          if (!isRowRemainder(partial))
            return;
          SmallVector<int64_t> ranges = partial.getStaticLoopRanges();
          ranges.back() = target.lanes;
          partial->setAttr(kMaskSizesAttr,
                           rewriter.getDenseI64ArrayAttr(ranges));
        });
    }
  }
}

void CodegenPass::splitRemainders(
    RewriterBase &rewriter, SmallVector<scf::ForOp> remainders, int64_t width,
    int64_t minWidth, function_ref<bool(linalg::LinalgOp)> isSplit,
    function_ref<SmallVector<int64_t>(linalg::LinalgOp, int64_t)> tileFor) {
  for (; width >= minWidth && !remainders.empty(); width /= 2) {
    SmallVector<scf::ForOp> next;
    for (scf::ForOp loop : remainders) {
      SmallVector<linalg::LinalgOp> ops;
      loop.getBody()->walk([&](linalg::LinalgOp op) {
        if (isSplit(op))
          ops.push_back(op);
      });
      for (linalg::LinalgOp op : ops) {
        FailureOr<scf::SCFTilingResult> result =
            tileLoops(rewriter, op, tileFor(op, width));
        if (failed(result))
          continue;
        rewriter.replaceOp(op, result->replacements);
        next.append(peel(rewriter, result->loops, /*fullTileSizes=*/true));
      }
    }
    remainders = std::move(next);
  }
}

/// Tiles of packed matmuls hold one panel (a unit panel dimension): drop it,
/// so they vectorize as plain matmul tiles.
void CodegenPass::foldPanelDims() {
  SmallVector<Operation *> tiles;
  getOperation().walk([&](linalg::GenericOp op) {
    if (isPackedMatmul(op) && hasStaticTensorShapes(op) &&
        op.getStaticLoopRanges()[1] == 1)
      tiles.push_back(op);
  });
  if (tiles.empty())
    return;
  RewritePatternSet patterns(&getContext());
  linalg::ControlDropUnitDims control;
  control.controlFn = [](Operation *op) -> SmallVector<unsigned> {
    return isPackedMatmul(op) ? SmallVector<unsigned>{1}
                              : SmallVector<unsigned>{};
  };
  linalg::populateFoldUnitExtentDimsPatterns(patterns, control);
  GreedyRewriteConfig config;
  config.strictMode = GreedyRewriteStrictness::ExistingAndNewOps;
  (void)applyOpPatternsAndFold(tiles, std::move(patterns), config);
}

void CodegenPass::vectorize(RewriterBase &rewriter) {
  SmallVector<linalg::LinalgOp> candidates;
  getOperation().walk([&](linalg::LinalgOp op) {
    if (op->hasAttr(kMaskSizesAttr)) {
      candidates.push_back(op);
      return;
    }
    if (!hasStaticTensorShapes(op))
      return;
    int64_t points = 1;
    for (int64_t r : op.getStaticLoopRanges())
      points *= r;
    bool tile = op->getParentOfType<scf::ForOp>() != nullptr;
    if (points > (tile ? kMaxTileIterations : kMaxUntiledIterations))
      return;
    // Transposes only as the tiles vectorTransposeTile makes.
    if (auto transpose = dyn_cast<linalg::TransposeOp>(op.getOperation())) {
      ArrayRef<int64_t> shape = transpose.getInit().getType().getShape();
      std::optional<SmallVector<int64_t>> wanted = vectorTransposeTile(
          transpose.getPermutation(), shape, target);
      if (!wanted || ArrayRef<int64_t>(*wanted) != shape)
        return;
    }
    candidates.push_back(op);
  });
  for (linalg::LinalgOp op : candidates) {
    rewriter.setInsertionPoint(op);
    SmallVector<int64_t> maskSizes;
    if (auto sizes = op->getAttrOfType<DenseI64ArrayAttr>(kMaskSizesAttr)) {
      maskSizes.assign(sizes.asArrayRef().begin(), sizes.asArrayRef().end());
      op->removeAttr(kMaskSizesAttr);
      // MLIR 19 vectorizes with masks generic ops, not linalg.reduce.
      if (isa<linalg::ReduceOp>(op.getOperation())) {
        FailureOr<linalg::GenericOp> generic =
            linalg::generalizeNamedOp(rewriter, op);
        if (succeeded(generic))
          op = *generic;
      }
    }
    // (The scalable flags given explicitly: MLIR 19 builds its masks' and
    // reductions' types from them, and types built from none differ from
    // the ones the ops expect, though they print alike.)
    SmallVector<bool> scalable(maskSizes.size(), false);
    if (failed(linalg::vectorize(rewriter, op, maskSizes, scalable)))
      markFallback(op, "the vectorizer does not handle this op");
  }
  {
    RewritePatternSet patterns(&getContext());
    nnapi::populateMaskRemovalPatterns(patterns);
    (void)applyPatternsAndFoldGreedily(getOperation(), std::move(patterns));
  }
  (void)applyPatternsAndFoldGreedily(getOperation(), vectorCleanup);
  // Tensors carried through the (reduction) loops: the accumulator tile is
  // read once before the loop and written once after it.
  SmallVector<scf::ForOp> forOps;
  getOperation().walk([&](scf::ForOp loop) { forOps.push_back(loop); });
  for (scf::ForOp loop : forOps) // post-order: innermost first
    hoistLoopInvariantSubsets(rewriter, loop);
  // Hoisting leaves writes into extracted slices followed by inserts: fold
  // them into writes at the slice's place, so bufferization sees no copy.
  (void)applyPatternsAndFoldGreedily(getOperation(), vectorCleanup);
  DominanceInfo dominance;
  eliminateCommonSubExpressions(rewriter, dominance, getOperation());
}

void CodegenPass::markFallback(Operation *op, StringRef reason) {
  op->setAttr(kCodegenAttr,
              StringAttr::get(&getContext(), "scalar loops: " + reason));
}

void CodegenPass::markFallbacks() {
  getOperation().walk([&](linalg::LinalgOp op) {
    if (auto known = op->getAttrOfType<StringAttr>(kCodegenAttr)) {
      if (emitRemarks)
        op->emitRemark() << "'" << op->getName() << "' runs as "
                         << known.getValue();
      return;
    }
    std::string reason;
    if (!hasStaticTensorShapes(op))
      reason = "dynamic shapes (an op no strategy tiles, or the remainder "
               "of a dynamic dimension) or sub-byte (i1) elements";
    else if (op.getNumReductionLoops() && !computeStrategy(op))
      reason = "no vector strategy for this reduction";
    else if (isa<linalg::TransposeOp>(op))
      reason = "no vector strategy for this transpose (it moves the last "
               "dimension elsewhere than next to last, or its sizes do not "
               "divide into blocks)";
    else
      reason = "not tiled by any strategy";
    markFallback(op, reason);
    if (emitRemarks)
      op->emitRemark() << "'" << op->getName()
                       << "' runs as scalar loops: " << reason;
  });
}

void CodegenPass::runOnOperation() {
  target = {std::max<int64_t>(1, vectorBits / 32),
            std::max<int64_t>(4, vectorRegisters)};
  std::optional<DotKind> dot = parseDotKind(int8Dot, getOperation());
  if (!dot)
    return signalPassFailure();
  dotKind = *dot;
  IRRewriter rewriter(&getContext());
  SmallVector<Group> groups = findGroups();
  for (Group &group : groups)
    if (failed(tileGroup(rewriter, group)))
      for (Operation *m : group.members)
        markFallback(m, "tiling failed");
  canonicalize();
  // Lane tiles that are not a power of two (a 52-channel remainder of 20)
  // are split into power-of-two tiles (16 + 4), each a whole vector; the
  // remainders of dynamic dimensions into static rows and vectors.
  for (int round = 0; round < 4 && retileLanes(rewriter, round); ++round)
    canonicalize();
  getOperation().walk([](Operation *op) { op->removeAttr(kLaneDimAttr); });
  {
    // Matmul tiles of one batch are plain matmuls.
    RewritePatternSet patterns(&getContext());
    nnapi::populateUnitBatchMatmulPatterns(patterns);
    (void)applyPatternsAndFoldGreedily(getOperation(), std::move(patterns));
  }
  foldPanelDims();
  // 8-bit convolution tiles on dot-product instructions; the generic
  // strategy below takes those they cannot.
  lowerInt8ConvTiles(rewriter, getOperation(), dotKind, target.registers);
  tileReductions(rewriter);
  tileTransposes(rewriter);
  {
    RewritePatternSet patterns(&getContext());
    linalg::populateDecomposeConvolutionPatterns(patterns);
    (void)applyPatternsAndFoldGreedily(getOperation(), std::move(patterns));
  }
  canonicalize();
  vectorize(rewriter);
  markFallbacks();
}

} // namespace
