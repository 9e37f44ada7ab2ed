//===- Passes.h - TOSA-to-TOSA preparation passes ---------------*- C++ -*-===//
#ifndef NNAPI_MLIR_TRANSFORMS_PASSES_H
#define NNAPI_MLIR_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"

namespace mlir::nnapi {
#define GEN_PASS_DECL
#include "nnapi-mlir/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "nnapi-mlir/Transforms/Passes.h.inc"
} // namespace mlir::nnapi

#endif // NNAPI_MLIR_TRANSFORMS_PASSES_H
