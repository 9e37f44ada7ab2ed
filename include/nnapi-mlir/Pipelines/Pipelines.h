//===- Pipelines.h - Pass pipelines of nnapi-mlir ---------------*- C++ -*-===//
//
// The pipelines the tools run, as builders that embedders can call too. Each
// step is a registered pass, so any stage can be run and tested alone with
// nnapi-opt.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_PIPELINES_PIPELINES_H
#define NNAPI_MLIR_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::nnapi {

struct Report;

/// Every option of the pipelines: nnapi-partition's
/// (Partition/PartitionOptions.inc) and the pipelines' own
/// (PipelineOptions.def). Registered pipelines parse them from text
/// ("feature-level=5 host-only=true"); embedders set the fields.
struct CompilePipelineOptions
    : public PassPipelineOptions<CompilePipelineOptions> {
#define NNAPI_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESC)                         \
  Option<TYPE> FIELD{*this, FLAG, llvm::cl::desc(DESC),                        \
                     llvm::cl::init(DEFAULT)};
#define NNAPI_LIST_OPTION(TYPE, FIELD, FLAG, DESC)                             \
  ListOption<TYPE> FIELD{*this, FLAG, llvm::cl::desc(DESC)};
#include "nnapi-mlir/Partition/PartitionOptions.inc"
#define NNAPI_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESC)                         \
  Option<TYPE> FIELD{*this, FLAG, llvm::cl::desc(DESC),                        \
                     llvm::cl::init(DEFAULT)};
#define NNAPI_TARGET_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESC)                  \
  NNAPI_OPTION(TYPE, FIELD, FLAG, DEFAULT, DESC)
#include "nnapi-mlir/Pipelines/PipelineOptions.def"
};

/// TOSA -> partitions -> blobs (nnapi-partition, nnapi-export-signature,
/// nnapi-serialize-partitions). The result is still TOSA plus blobs.
/// When `report` is given, nnapi-partition fills it (see
/// createNNAPIPartition); it must outlive the pass manager's run.
void buildNNAPIPartitionPipeline(OpPassManager &pm,
                                 const CompilePipelineOptions &options,
                                 Report *report = nullptr);

/// TOSA (+ blobs) -> LLVM dialect: TOSA to linalg, bufferization with
/// results as out-parameters, partition dispatch with host fallback, and
/// lowering to the LLVM dialect with the C entry points.
void buildNNAPIHostPipeline(OpPassManager &pm,
                            const CompilePipelineOptions &options);

/// Both of the above: TOSA model in, LLVM dialect out.
void buildNNAPICompilePipeline(OpPassManager &pm,
                               const CompilePipelineOptions &options,
                               Report *report = nullptr);

/// Registers nnapi-partition-pipeline, nnapi-host-pipeline and
/// nnapi-compile-pipeline.
void registerNNAPIPipelines();

} // namespace mlir::nnapi

#endif
