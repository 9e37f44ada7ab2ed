//===- Outlining.h - What an outlined host function takes, and how -------===//
//
// nnapi-outline-parallel-loops and nnapi-outline-layers both make functions
// of ops on buffers; they decide alike what the function recomputes and what
// a call can pass it.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_CODEGEN_OUTLINING_H
#define NNAPI_MLIR_LIB_CODEGEN_OUTLINING_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

namespace mlir::nnapi {

/// A value an outlined function recomputes instead of receiving: a constant
/// (a loop bound, a splat) is part of what the code is. Weights (globals)
/// are passed, so that the same code over other weights is the same function
/// for nnapi-merge-identical-functions.
inline bool isClonedConstant(Value v) {
  Operation *def = v.getDefiningOp();
  return def && def->getNumOperands() == 0 && def->getNumRegions() == 0 &&
         matchPattern(def, m_Constant());
}

/// A type a call passes as the LLVM lowering's bare pointer (a buffer of
/// static shape, strides and offset, as every function of the host code
/// takes them) or as a plain value.
inline bool isBarePointerPassable(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref)
    return !isa<UnrankedMemRefType, TensorType>(type);
  SmallVector<int64_t> strides;
  int64_t offset;
  return memref.hasStaticShape() &&
         succeeded(getStridesAndOffset(memref, strides, offset)) &&
         !ShapedType::isDynamic(offset) &&
         llvm::none_of(strides, ShapedType::isDynamic);
}

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_LIB_CODEGEN_OUTLINING_H
