//===- Passes.h - nnapi-mlir conversion passes ------------------*- C++ -*-===//
#ifndef NNAPI_MLIR_CONVERSION_PASSES_H
#define NNAPI_MLIR_CONVERSION_PASSES_H

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::nnapi {
/// A partition with dynamic dimensions keeps returning its buffers instead
/// of taking out-parameters: its dispatcher allocates them at the sizes the
/// runtime computes (nnapi-lower-partition-calls), so bufferization's
/// results-to-out-params must leave it alone.
bool keepsReturnedBuffers(func::FuncOp partition);

#define GEN_PASS_DECL
#include "nnapi-mlir/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "nnapi-mlir/Conversion/Passes.h.inc"
} // namespace mlir::nnapi

#endif
