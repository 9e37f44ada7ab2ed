//===- ShapeBuckets.h - Typical input shapes of a dynamic model -*- C++ -*-===//
//
// --shape-buckets names the input shapes a dynamically shaped model will
// mostly see. nnapi-specialize-shapes compiles a static copy of the entry
// for each, nnapi-export-signature records them as 'bucket' lines, and
// nnapi-emit-entry-point dispatches the calls at those shapes to the copies.
// The text is read in one place, here.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_TRANSFORMS_SHAPEBUCKETS_H
#define NNAPI_MLIR_TRANSFORMS_SHAPEBUCKETS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace mlir::nnapi {

/// One typical shape: the dimensions of each input of the entry (none for
/// a rank-0 one).
using ShapeBucket = SmallVector<SmallVector<int64_t, 4>, 2>;

/// Reads --shape-buckets ("1x1x32x100;1x1x32x200": ';' between shapes, ','
/// between one shape's inputs) against `entry`'s inputs: a shape per input,
/// of its rank, with its static dimensions and its dynamic ones within the
/// declared ranges (nnapi.dim_ranges). Emits an error on `entry` and fails
/// otherwise; an empty text is no bucket.
FailureOr<SmallVector<ShapeBucket>> parseShapeBuckets(func::FuncOp entry,
                                                      StringRef text);

/// The name of the entry's static copy for bucket `index`.
std::string specializedEntryName(StringRef entry, unsigned index);

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_TRANSFORMS_SHAPEBUCKETS_H
