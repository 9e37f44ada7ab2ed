//===- Sparse.cpp - Sparse constants made dense -----------------*- C++ -*-===//
//
// A sparse TFLite tensor stores only some values, in the order its
// SparsityParameters traverse the dimensions: first the tensor's own
// dimensions in `traversal_order`, then block dimensions that split some of
// them (`block_map`). Each level is DENSE (every coordinate, `dense_size` of
// them) or SPARSE_CSR (the coordinates `array_indices` lists between two
// `array_segments` entries of the parent position). Every structure read
// from the file is checked before it is followed.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "llvm/Support/Error.h"

#include <cstring>
#include <functional>

using namespace mlir;
using namespace mlir::nnapi::tflite_import;

namespace {

/// A level's segments or indices, widened; false if the union is unset.
bool readIndexVector(tflite::SparseIndexVector type, const void *table,
                     std::vector<int64_t> &out) {
  auto copy = [&](const auto *vec) {
    if (!vec || !vec->values())
      return false;
    out.assign(vec->values()->begin(), vec->values()->end());
    return true;
  };
  switch (type) {
  case tflite::SparseIndexVector_Int32Vector:
    return copy(static_cast<const tflite::Int32Vector *>(table));
  case tflite::SparseIndexVector_Uint16Vector:
    return copy(static_cast<const tflite::Uint16Vector *>(table));
  case tflite::SparseIndexVector_Uint8Vector:
    return copy(static_cast<const tflite::Uint8Vector *>(table));
  default:
    return false;
  }
}

struct Level {
  bool dense;
  int64_t extent; ///< Coordinates along this level's dimension.
  std::vector<int64_t> segments, indices;
};

llvm::Error fail(const Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 message.str());
}

} // namespace

llvm::Expected<std::vector<char>>
mlir::nnapi::tflite_import::densify(const tflite::SparsityParameters &sp,
                                    ArrayRef<int64_t> shape,
                                    ArrayRef<char> stored, size_t width) {
  const int64_t n = shape.size();
  const auto *order = sp.traversal_order();
  const auto *meta = sp.dim_metadata();
  const auto *blockMap = sp.block_map();
  if (!order || !meta)
    return fail("its sparsity has no traversal order or dimension metadata");
  const int64_t m = order->size(), k = blockMap ? blockMap->size() : 0;
  if (m > kMaxSparseLevels)
    return fail("its sparsity has " + Twine(m) + " levels; at most " +
                Twine(kMaxSparseLevels) + " are supported");
  if (m != n + k || int64_t(meta->size()) != m)
    return fail("its sparsity traverses " + Twine(m) + " dimensions with " +
                Twine(meta->size()) + " metadata entries, where " +
                Twine(n) + " dimensions and " + Twine(k) +
                " blocks need " + Twine(n + k) + " of each");
  // The tensor's dimensions in some order, then the blocks in theirs.
  std::vector<bool> seen(n, false);
  for (int64_t i = 0; i < n; ++i) {
    int32_t d = order->Get(i);
    if (d < 0 || d >= n || seen[d])
      return fail("its traversal order does not list each of its " +
                  Twine(n) + " dimensions once before the blocks");
    seen[d] = true;
  }
  for (int64_t j = 0; j < k; ++j)
    if (order->Get(n + j) != n + j)
      return fail("its traversal order reorders the block dimensions, "
                  "which is not supported");
  std::vector<int64_t> blockOf(n, -1), blockSize(k);
  for (int64_t j = 0; j < k; ++j) {
    int32_t d = blockMap->Get(j);
    if (d < 0 || d >= n || blockOf[d] >= 0)
      return fail("its block map names dimension " + Twine(d) +
                  ", not a distinct one of its " + Twine(n));
    blockOf[d] = j;
    const tflite::DimensionMetadata *dm = meta->Get(n + j);
    if (!dm || dm->format() != tflite::DimensionType_DENSE ||
        dm->dense_size() < 1 || shape[d] % dm->dense_size())
      return fail("block " + Twine(j) + " is not a dense size dividing "
                  "dimension " + Twine(d) + " (" + Twine(shape[d]) + ")");
    blockSize[j] = dm->dense_size();
  }
  std::vector<Level> levels(m);
  for (int64_t i = 0; i < m; ++i) {
    const tflite::DimensionMetadata *dm = meta->Get(i);
    if (!dm)
      return fail("its dimension metadata " + Twine(i) + " is missing");
    Level &level = levels[i];
    if (i < n) {
      int32_t d = order->Get(i);
      level.extent =
          blockOf[d] >= 0 ? shape[d] / blockSize[blockOf[d]] : shape[d];
    } else {
      level.extent = blockSize[i - n];
    }
    level.dense = dm->format() == tflite::DimensionType_DENSE;
    if (level.dense) {
      if (dm->dense_size() != level.extent)
        return fail("level " + Twine(i) + " is dense of size " +
                    Twine(dm->dense_size()) + ", where the shape gives " +
                    Twine(level.extent));
      continue;
    }
    if (!readIndexVector(dm->array_segments_type(), dm->array_segments(),
                         level.segments) ||
        !readIndexVector(dm->array_indices_type(), dm->array_indices(),
                         level.indices))
      return fail("sparse level " + Twine(i) +
                  " has no segments or no indices");
    for (size_t s = 0; s < level.segments.size(); ++s)
      if (level.segments[s] < 0 ||
          level.segments[s] > int64_t(level.indices.size()) ||
          (s && level.segments[s] < level.segments[s - 1]))
        return fail("sparse level " + Twine(i) + "'s segments are not "
                    "ascending positions into its " +
                    Twine(level.indices.size()) + " indices");
    for (int64_t c : level.indices)
      if (c < 0 || c >= level.extent)
        return fail("sparse level " + Twine(i) + " has index " + Twine(c) +
                    ", outside its " + Twine(level.extent) + " coordinates");
  }

  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  std::vector<char> dense(size_t(count) * width, 0);
  const int64_t values = stored.size() / width;
  int64_t next = 0;
  std::vector<int64_t> at(m), coord(n);
  // Positions are numbered per level: a dense level's child of `parent` is
  // parent * size + c, a sparse level's is its entry in the indices.
  std::function<llvm::Error(int64_t, int64_t)> visit =
      [&](int64_t level, int64_t parent) -> llvm::Error {
    if (level == m) {
      for (int64_t i = 0; i < n; ++i)
        coord[order->Get(i)] = at[i];
      for (int64_t j = 0; j < k; ++j) {
        int64_t d = blockMap->Get(j);
        coord[d] = coord[d] * blockSize[j] + at[n + j];
      }
      int64_t offset = 0;
      for (int64_t i = 0; i < n; ++i)
        offset = offset * shape[i] + coord[i];
      if (next >= values)
        return fail("it stores " + Twine(values) +
                    " values, fewer than its sparsity structure names");
      std::memcpy(dense.data() + offset * width,
                  stored.data() + next * width, width);
      ++next;
      return llvm::Error::success();
    }
    const Level &l = levels[level];
    if (l.dense) {
      for (int64_t c = 0; c < l.extent; ++c) {
        at[level] = c;
        if (llvm::Error e = visit(level + 1, parent * l.extent + c))
          return e;
      }
      return llvm::Error::success();
    }
    if (parent + 1 >= int64_t(l.segments.size()))
      return fail("sparse level " + Twine(level) + " has " +
                  Twine(l.segments.size()) + " segment bounds, too few for "
                  "position " + Twine(parent));
    for (int64_t p = l.segments[parent]; p < l.segments[parent + 1]; ++p) {
      at[level] = l.indices[p];
      if (llvm::Error e = visit(level + 1, p))
        return e;
    }
    return llvm::Error::success();
  };
  if (llvm::Error e = visit(0, 0))
    return std::move(e);
  if (next != values || stored.size() % width)
    return fail("it stores " + Twine(values) + " values, but its sparsity "
                "structure names " + Twine(next));
  return dense;
}
