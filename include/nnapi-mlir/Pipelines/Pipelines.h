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

struct CompilePipelineOptions
    : public PassPipelineOptions<CompilePipelineOptions> {
  Option<unsigned> featureLevel{*this, "feature-level",
                                llvm::cl::desc("NNAPI feature level 1..8"),
                                llvm::cl::init(7)};
  Option<bool> hostOnly{*this, "host-only",
                        llvm::cl::desc("Create no NNAPI partitions"),
                        llvm::cl::init(false)};
  Option<std::string> entry{*this, "entry",
                            llvm::cl::desc("Name of the entry function"),
                            llvm::cl::init("main")};
  // Passed to nnapi-partition; see its documentation.
  Option<std::string> deviceProfile{
      *this, "device-profile",
      llvm::cl::desc("Device profile JSON (default: generic accelerator)")};
  Option<double> minPartitionCost{
      *this, "min-partition-cost",
      llvm::cl::desc("Minimum estimated saving (us) of a partition"),
      llvm::cl::init(0)};
  Option<unsigned> maxPartitions{
      *this, "max-partitions",
      llvm::cl::desc("Keep at most this many partitions (0: no limit)"),
      llvm::cl::init(0)};
  Option<bool> allowFp16{
      *this, "allow-fp16",
      llvm::cl::desc("Let NNAPI compute float32 relaxed to float16"),
      llvm::cl::init(false)};
  ListOption<std::string> stopOps{
      *this, "stop-ops", llvm::cl::desc("Op types that stay on the host")};
  Option<std::string> placement{
      *this, "placement", llvm::cl::desc("JSON placement override file")};
  Option<std::string> report{
      *this, "report",
      llvm::cl::desc("Write the placement report to PATH.{json,html,dot}")};
  Option<bool> emitRemarks{
      *this, "emit-remarks",
      llvm::cl::desc("Remark on every host op and partition, and on every "
                     "op the host code generation leaves to scalar loops"),
      llvm::cl::init(false)};
  // Host code generation; see nnapi-codegen.
  Option<bool> hostCodegen{
      *this, "host-codegen",
      llvm::cl::desc("Tile and vectorize the host code (off: plain loops)"),
      llvm::cl::init(true)};
  Option<unsigned> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("Vector register width of the host target"),
      llvm::cl::init(256)};
  Option<unsigned> vectorRegisters{
      *this, "vector-registers",
      llvm::cl::desc("Vector registers of the host target"),
      llvm::cl::init(16)};
};

/// TOSA -> partitions -> blobs (nnapi-partition, nnapi-export-signature,
/// nnapi-serialize-partitions). The result is still TOSA plus blobs.
void buildNNAPIPartitionPipeline(OpPassManager &pm,
                                 const CompilePipelineOptions &options);

/// TOSA (+ blobs) -> LLVM dialect: TOSA to linalg, bufferization with
/// results as out-parameters, partition dispatch with host fallback, and
/// lowering to the LLVM dialect with the C entry points.
void buildNNAPIHostPipeline(OpPassManager &pm,
                            const CompilePipelineOptions &options);

/// Both of the above: TOSA model in, LLVM dialect out.
void buildNNAPICompilePipeline(OpPassManager &pm,
                               const CompilePipelineOptions &options);

/// Registers nnapi-partition-pipeline, nnapi-host-pipeline and
/// nnapi-compile-pipeline.
void registerNNAPIPipelines();

} // namespace mlir::nnapi

#endif
