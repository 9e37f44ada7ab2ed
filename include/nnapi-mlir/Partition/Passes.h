//===- Passes.h - nnapi-partition -------------------------------*- C++ -*-===//
#ifndef NNAPI_MLIR_PARTITION_PASSES_H
#define NNAPI_MLIR_PARTITION_PASSES_H

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <string>
#include <vector>

namespace mlir::nnapi {
struct Report;

#define GEN_PASS_DECL
#include "nnapi-mlir/Partition/Passes.h.inc"

/// nnapi-partition with `options` that also fills `report` with what it
/// decided (the content of the `report` option's files); `report` must
/// outlive the pass run.
std::unique_ptr<Pass> createNNAPIPartition(const NNAPIPartitionOptions &options,
                                           Report *report);

#define GEN_PASS_REGISTRATION
#include "nnapi-mlir/Partition/Passes.h.inc"
} // namespace mlir::nnapi

#endif // NNAPI_MLIR_PARTITION_PASSES_H
