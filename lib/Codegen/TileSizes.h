//===- TileSizes.h - The tiles nnapi-codegen's strategies choose ----------===//
//
// Tile sizes depend on the strategy, the op's shape and the target (its
// float32 lanes per vector and vector registers) only: kept apart from the
// rewriting in TileAndVectorize.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_CODEGEN_TILESIZES_H
#define NNAPI_MLIR_LIB_CODEGEN_TILESIZES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::nnapi::codegen {

enum class Strategy {
  Conv,
  Depthwise,
  Pool,
  Matmul,
  BatchMatmul,
  PackedMatmul, ///< nnapi-codegen-prepare's matmul on a packed constant
  Reduction,    ///< a generic with reduction loops (reduce_sum, softmax...)
  Elementwise
};

struct Target {
  int64_t lanes;     ///< float32 elements per vector register
  int64_t registers; ///< vector registers
};

/// Longest row a transpose moves as one vector (vectorTransposeTile).
inline constexpr int64_t kMaxTransposeRow = 256;
/// The size tile choices assume for a dynamic dimension: large, so that
/// it gets the full register tiles (peeling handles what is left).
inline constexpr int64_t kAssumedDynamicSize = 1024;

/// `sizes` with dynamic ones as kAssumedDynamicSize.
SmallVector<int64_t> assumedSizes(ArrayRef<int64_t> sizes);
/// A linalg op's loop ranges, dynamic ones as kAssumedDynamicSize.
SmallVector<int64_t> loopRanges(linalg::LinalgOp op);

/// Tile sizes of the group's output dimensions.
SmallVector<int64_t> outputTile(Strategy s, ArrayRef<int64_t> shape,
                                const Target &t);
/// A reduction's output tile, per loop (reduction loops untiled).
SmallVector<int64_t> reductionOutputTile(linalg::LinalgOp op, const Target &t);
/// Tile sizes of a tiled compute op's loops that tile only its reduction.
SmallVector<int64_t> reductionTileSizes(linalg::LinalgOp op, Strategy s,
                                        const Target &t);
/// The tile of a transpose that vectorizes, or none.
std::optional<SmallVector<int64_t>> vectorTransposeTile(ArrayRef<int64_t> perm,
                                                        ArrayRef<int64_t> shape,
                                                        const Target &target);
/// The static tile a dynamic dimension's remainder (lanes or rows) is split
/// into in retileLanes' round `round`, or none.
std::optional<SmallVector<int64_t>> dynamicRemainderTile(linalg::LinalgOp op,
                                                         int64_t laneDim,
                                                         int64_t lanes,
                                                         int round);

} // namespace mlir::nnapi::codegen

#endif // NNAPI_MLIR_LIB_CODEGEN_TILESIZES_H
