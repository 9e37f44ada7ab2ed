//===- DynamicShapes.h - Shared by the entry-point passes -------*- C++ -*-===//
#ifndef NNAPI_MLIR_LIB_CONVERSION_NNAPITORUNTIME_DYNAMICSHAPES_H
#define NNAPI_MLIR_LIB_CONVERSION_NNAPITORUNTIME_DYNAMICSHAPES_H

#include "mlir/IR/BuiltinTypes.h"

namespace mlir::nnapi {

/// A ranked tensor or buffer with a dynamic dimension (issue 54).
inline bool isDynamicShape(Type t) {
  auto shaped = dyn_cast<ShapedType>(t);
  return shaped && shaped.hasRank() && !shaped.hasStaticShape();
}

} // namespace mlir::nnapi

#endif
