//===- NNAPIDialect.h - The nnapi dialect -----------------------*- C++ -*-===//
#ifndef NNAPI_MLIR_DIALECT_NNAPI_IR_NNAPIDIALECT_H
#define NNAPI_MLIR_DIALECT_NNAPI_IR_NNAPIDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h.inc"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIEnums.h.inc"

namespace mlir::nnapi {
/// Feature levels are 1..8; this is the newest one.
constexpr unsigned kMaxFeatureLevel = 8;

namespace detail {
/// Lowest feature level running `op`, given the level that introduced its
/// operation: float16 operands need level 3, and some attributes (softmax
/// axis, conv dilation) need more.
unsigned getMinFeatureLevel(Operation *op, unsigned introducedIn);
} // namespace detail
} // namespace mlir::nnapi

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIInterfaces.h.inc"

#define GET_OP_CLASSES
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIOps.h.inc"

#endif // NNAPI_MLIR_DIALECT_NNAPI_IR_NNAPIDIALECT_H
