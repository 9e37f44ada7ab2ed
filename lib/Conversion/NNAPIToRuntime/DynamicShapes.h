//===- DynamicShapes.h - Shared by the entry-point passes -------*- C++ -*-===//
#ifndef NNAPI_MLIR_LIB_CONVERSION_NNAPITORUNTIME_DYNAMICSHAPES_H
#define NNAPI_MLIR_LIB_CONVERSION_NNAPITORUNTIME_DYNAMICSHAPES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::nnapi {

/// Replaces `call` by a copy of `callee`'s body (one block ending in
/// func.return): how a dynamic partition's host copy enters the code that
/// needs its sizes (nnapi-output-dims, nnapi-lower-partition-calls).
void inlineCall(func::CallOp call, func::FuncOp callee);

/// A ranked tensor or buffer with a dynamic dimension (issue 54).
inline bool isDynamicShape(Type t) {
  auto shaped = dyn_cast<ShapedType>(t);
  return shaped && shaped.hasRank() && !shaped.hasStaticShape();
}

} // namespace mlir::nnapi

#endif
