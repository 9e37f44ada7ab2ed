//===- Passes.h - nnapi-partition -------------------------------*- C++ -*-===//
#ifndef NNAPI_MLIR_PARTITION_PASSES_H
#define NNAPI_MLIR_PARTITION_PASSES_H

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::nnapi {
#define GEN_PASS_DECL
#include "nnapi-mlir/Partition/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "nnapi-mlir/Partition/Passes.h.inc"
} // namespace mlir::nnapi

#endif // NNAPI_MLIR_PARTITION_PASSES_H
