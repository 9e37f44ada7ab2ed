//===- TileSizes.cpp - The tiles nnapi-codegen's strategies choose -------===//
//
// Register tiles for the target's vector width and register count, the
// reduction tiles, the tiles transposes vectorize in, and the static tiles
// a dynamic dimension's remainder is split into (TileSizes.h).
//
//===----------------------------------------------------------------------===//

#include "TileSizes.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace mlir::nnapi::codegen {

SmallVector<int64_t> assumedSizes(ArrayRef<int64_t> sizes) {
  SmallVector<int64_t> result(sizes);
  for (int64_t &s : result)
    if (ShapedType::isDynamic(s))
      s = kAssumedDynamicSize;
  return result;
}

/// A linalg op's loop ranges, dynamic ones as kAssumedDynamicSize.
SmallVector<int64_t> loopRanges(linalg::LinalgOp op) {
  return assumedSizes(op.getStaticLoopRanges());
}

/// Tile of a dimension mapped to vector lanes: two vectors, one, or the
/// whole (short) dimension.
static int64_t laneTile(int64_t size, const Target &t) {
  if (size >= 2 * t.lanes)
    return 2 * t.lanes;
  if (size >= t.lanes)
    return t.lanes;
  return size;
}

/// Tile of a dimension mapped to accumulator rows, each `vectorsPerRow`
/// registers wide, leaving `reserved` registers for operands: at most 8,
/// preferring a size that divides the dimension.
static int64_t rowTile(int64_t size, int64_t vectorsPerRow, int64_t reserved,
                       const Target &t) {
  int64_t budget =
      std::max<int64_t>(1, (t.registers - reserved) / vectorsPerRow);
  int64_t cap = std::min<int64_t>({8, budget, size});
  for (int64_t r = cap; r * 2 > cap; --r)
    if (size % r == 0)
      return r;
  return cap;
}

/// Reduction tile: the whole reduction if short, else a divisor of it, else
/// `preferred` (the loop is then peeled).
static int64_t reductionTile(int64_t size, int64_t preferred) {
  if (size <= 8)
    return size;
  for (int64_t r : {preferred, int64_t(8), int64_t(4), int64_t(6), int64_t(5)})
    if (size % r == 0)
      return r;
  return preferred;
}

static int64_t vectorsFor(int64_t laneTileSize, const Target &t) {
  return std::max<int64_t>(1, (laneTileSize + t.lanes - 1) / t.lanes);
}

/// Tile sizes of the group's output dimensions.
SmallVector<int64_t> outputTile(Strategy s, ArrayRef<int64_t> shape,
                                const Target &t) {
  int64_t rank = shape.size();
  SmallVector<int64_t> tile(rank, 1);
  switch (s) {
  case Strategy::Conv:
  case Strategy::Depthwise:
  case Strategy::Pool: { // [N, OH, OW, C]
    int64_t lanesTile = laneTile(shape[3], t);
    int64_t vectors = vectorsFor(lanesTile, t);
    // Convolutions keep filter vectors and a broadcast in registers;
    // windowed ops an input row per accumulator row.
    int64_t perRow = s == Strategy::Conv ? vectors : 2 * vectors;
    int64_t reserved = s == Strategy::Conv ? vectors + 2 : 2;
    tile[2] = rowTile(shape[2], perRow, reserved, t);
    tile[3] = lanesTile;
    break;
  }
  case Strategy::PackedMatmul: { // M, N / P, P: one panel per tile
    int64_t vectors = vectorsFor(shape[2], t);
    tile[0] = rowTile(shape[0], vectors, vectors + 2, t);
    tile[1] = 1;
    tile[2] = shape[2];
    break;
  }
  case Strategy::Matmul:
  case Strategy::BatchMatmul: { // [B,] M, N
    int64_t n = shape[rank - 1];
    int64_t lanesTile = laneTile(n, t);
    int64_t vectors = vectorsFor(lanesTile, t);
    tile[rank - 2] = rowTile(shape[rank - 2], vectors, vectors + 2, t);
    tile[rank - 1] = lanesTile;
    break;
  }
  case Strategy::Reduction: // per loop: reductionGroupTile
    break;
  case Strategy::Elementwise: {
    int64_t last = shape[rank - 1];
    tile[rank - 1] = last >= 4 * t.lanes ? 4 * t.lanes : last;
    break;
  }
  }
  return tile;
}

/// A reduction's output tile, per loop: one of every parallel loop, except
/// vectors along the innermost loop if it is parallel (a reduction over
/// outer dimensions accumulates whole vectors); reduction loops untiled.
SmallVector<int64_t> reductionOutputTile(linalg::LinalgOp op, const Target &t) {
  SmallVector<int64_t> ranges = loopRanges(op);
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  SmallVector<int64_t> tile(ranges.size(), 0);
  for (size_t i = 0; i < ranges.size(); ++i)
    if (iterators[i] == utils::IteratorType::parallel)
      tile[i] = 1;
  if (!ranges.empty() && iterators.back() == utils::IteratorType::parallel)
    tile.back() = laneTile(ranges.back(), t);
  return tile;
}

/// Tile sizes of a tiled compute op's loops that tile only its reduction.
SmallVector<int64_t> reductionTileSizes(linalg::LinalgOp op, Strategy s,
                                        const Target &t) {
  SmallVector<int64_t> ranges = loopRanges(op);
  SmallVector<int64_t> tile(ranges.size(), 0);
  switch (s) {
  case Strategy::Reduction: {
    // The innermost reduction loop in chunks: four vectors if it is the
    // innermost loop (a horizontal reduction per chunk), else eight rows
    // of whole vectors; the other reduction loops one at a time.
    SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
    int64_t innermost = -1;
    for (int64_t i = ranges.size() - 1; i >= 0 && innermost < 0; --i)
      if (iterators[i] == utils::IteratorType::reduction)
        innermost = i;
    for (size_t i = 0; i < ranges.size(); ++i)
      if (iterators[i] == utils::IteratorType::reduction)
        tile[i] = 1;
    tile[innermost] = innermost == int64_t(ranges.size()) - 1
                          ? std::min(ranges[innermost], 4 * t.lanes)
                          : std::min<int64_t>(ranges[innermost], 8);
    break;
  }
  case Strategy::Conv: // N, OH, OW, F, KH, KW, C
    tile[4] = 1;
    tile[5] = 1;
    tile[6] = reductionTile(ranges[6], 4);
    break;
  case Strategy::Depthwise: // N, OH, OW, C, KH, KW
  case Strategy::Pool:
    tile[4] = 1;
    break;
  case Strategy::Matmul:       // M, N, K
  case Strategy::BatchMatmul:  // B, M, N, K
  case Strategy::PackedMatmul: // M, N / P, P, K
    tile.back() = reductionTile(ranges.back(), 4);
    break;
  case Strategy::Elementwise:
    break;
  }
  // Tiles equal to the full range are no tiling.
  for (auto [size, range] : llvm::zip(tile, ranges))
    if (size == range)
      size = 0;
  return tile;
}

/// The tile of a transpose that vectorizes, or none. A transpose that keeps
/// the last dimension moves rows: 1 x ... x 1 x row tiles, a vector copy
/// each (a head split's [B, S, H, D] -> [B, H, S, D]). One that moves the
/// last dimension (a key's [.., S, D] -> [.., D, S]) goes by square blocks
/// of the last two output dimensions, lanes x lanes where both divide (a
/// vector transpose in registers). Others stay scalar.
std::optional<SmallVector<int64_t>> vectorTransposeTile(ArrayRef<int64_t> perm,
                                                        ArrayRef<int64_t> shape,
                                                        const Target &target) {
  int64_t rank = shape.size();
  SmallVector<int64_t> tile(rank, 1);
  if (perm.back() == rank - 1) {
    int64_t row = shape.back();
    // A row up to kMaxTransposeRow elements at once; longer ones in pieces
    // of it when they divide.
    if (row > kMaxTransposeRow && row % kMaxTransposeRow)
      return std::nullopt;
    tile.back() = std::min(row, kMaxTransposeRow);
    return tile;
  }
  if (rank < 2 || perm[rank - 2] != rank - 1)
    return std::nullopt;
  int64_t block = target.lanes;
  while (block >= 4 && (shape[rank - 1] % block || shape[rank - 2] % block))
    block /= 2;
  if (block >= 4) {
    tile[rank - 2] = block;
    tile[rank - 1] = block;
    return tile;
  }
  // Fewer than four elements moved last (a planar RGB image interleaved,
  // NCHW -> NHWC): a vector's worth of the next-to-last dimension by all of
  // them, a short transpose in registers.
  if (shape[rank - 1] >= 4)
    return std::nullopt;
  int64_t row = target.lanes;
  while (row >= 4 && shape[rank - 2] % row)
    row /= 2;
  if (row < 4)
    return std::nullopt;
  tile[rank - 2] = row;
  tile[rank - 1] = shape[rank - 1];
  return tile;
}

/// The tile that splits the remainder of a dynamic dimension (a peeled
/// loop's last, partial tile) into static tiles, so that what a round's
/// peeling leaves over is split by the next: along a dynamic lane loop a
/// vector of `lanes` elements, halved each round (then 1 once that is 2 or
/// less), with one row along the other dynamic parallel loops; with static
/// lanes, 4 rows, then 2, then 1 (a register tile has at most 8). None when
/// nothing is dynamic.
std::optional<SmallVector<int64_t>> dynamicRemainderTile(linalg::LinalgOp op,
                                                         int64_t laneDim,
                                                         int64_t lanes,
                                                         int round) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  // With static lanes (full vectors, fewer rows than a register tile: a
  // convolution's last output columns), the rows go by halves: 4, 2, 1.
  bool staticLanes = !ShapedType::isDynamic(ranges[laneDim]);
  SmallVector<int64_t> tile(op.getNumLoops(), 0);
  bool dynamic = false;
  for (int64_t d = 0, e = op.getNumLoops(); d < e; ++d) {
    if (!ShapedType::isDynamic(ranges[d]) ||
        iterators[d] != utils::IteratorType::parallel)
      continue;
    dynamic = true;
    int64_t vector = lanes >> round;
    if (d == laneDim)
      tile[d] = vector > 2 ? vector : 1;
    else
      tile[d] = staticLanes ? std::max<int64_t>(1, 4 >> round) : 1;
  }
  if (!dynamic)
    return std::nullopt;
  return tile;
}

} // namespace mlir::nnapi::codegen
