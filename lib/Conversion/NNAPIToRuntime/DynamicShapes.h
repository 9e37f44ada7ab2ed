//===- DynamicShapes.h - Shared by the entry-point passes -------*- C++ -*-===//
#ifndef NNAPI_MLIR_LIB_CONVERSION_NNAPITORUNTIME_DYNAMICSHAPES_H
#define NNAPI_MLIR_LIB_CONVERSION_NNAPITORUNTIME_DYNAMICSHAPES_H

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::nnapi {

/// Replaces `call` by a copy of `callee`'s body (one block ending in
/// func.return): how a dynamic partition's host copy enters the code that
/// needs its sizes (nnapi-output-dims, nnapi-lower-partition-calls).
void inlineCall(func::CallOp call, func::FuncOp callee);


} // namespace mlir::nnapi

#endif
