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

/// nnapi-partition's options as plain values (PartitionOptions.def).
struct NNAPIPartitionOptions {
#define NNAPI_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESC) TYPE FIELD = DEFAULT;
#define NNAPI_LIST_OPTION(TYPE, FIELD, FLAG, DESC) std::vector<TYPE> FIELD;
#include "nnapi-mlir/Partition/PartitionOptions.def"
};

/// nnapi-partition with `options`. When `report` is given, the pass also
/// fills it with what it decided (the same content as the `report` option's
/// files); it must outlive the pass run.
std::unique_ptr<Pass> createNNAPIPartition(const NNAPIPartitionOptions &options,
                                           Report *report = nullptr);

#define GEN_PASS_REGISTRATION
#include "nnapi-mlir/Partition/Passes.h.inc"
} // namespace mlir::nnapi

#endif // NNAPI_MLIR_PARTITION_PASSES_H
