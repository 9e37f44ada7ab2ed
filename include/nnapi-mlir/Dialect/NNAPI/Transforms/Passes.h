//===- Passes.h - nnapi dialect transformation passes -----------*- C++ -*-===//
#ifndef NNAPI_MLIR_DIALECT_NNAPI_TRANSFORMS_PASSES_H
#define NNAPI_MLIR_DIALECT_NNAPI_TRANSFORMS_PASSES_H

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::nnapi {
#define GEN_PASS_DECL
#include "nnapi-mlir/Dialect/NNAPI/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "nnapi-mlir/Dialect/NNAPI/Transforms/Passes.h.inc"
} // namespace mlir::nnapi

#endif
