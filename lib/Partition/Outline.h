//===- Outline.h - Regions of ops become partition functions ----*- C++ -*-===//
//
// Internal to nnapi-partition (Partition.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_PARTITION_OUTLINE_H
#define NNAPI_MLIR_LIB_PARTITION_OUTLINE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <string>
#include <vector>

namespace mlir::nnapi {

/// Outlines `ops` (convex, program order) into a new private partition
/// function (feature level `featureLevel`, relaxed to float16 when
/// `relaxed`) and replaces them with a call. Returns the function.
func::FuncOp outline(func::FuncOp parent, ArrayRef<Operation *> ops,
                     StringRef name, unsigned featureLevel, bool relaxed);

/// The signatures (blob::operationSignature) of the NNAPI operations `ops`
/// become when converted as a partition of their own; empty if they do not
/// convert alone.
std::vector<std::string> nnapiSignatures(ArrayRef<Operation *> ops,
                                         unsigned featureLevel, bool relaxed);

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_LIB_PARTITION_OUTLINE_H
