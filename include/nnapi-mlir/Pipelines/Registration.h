//===- Registration.h - What the nnapi-mlir tools register ------*- C++ -*-===//
#ifndef NNAPI_MLIR_PIPELINES_REGISTRATION_H
#define NNAPI_MLIR_PIPELINES_REGISTRATION_H

#include "mlir/IR/DialectRegistry.h"

namespace mlir::nnapi {
/// Every dialect the pipelines produce or consume, their bufferization
/// external models, and the LLVM IR translation interfaces.
void registerCompilerDialects(DialectRegistry &registry);
/// The upstream passes the pipelines are made of, so nnapi-opt can run each.
void registerUpstreamPassesUsedByPipelines();
/// Every nnapi-mlir pass (nnapi-partition, convert-tosa-to-nnapi,
/// nnapi-codegen, ...) and the three pipelines, in the global pass registry:
/// what an embedder calls so that its own mlir-opt-like tool or textual
/// pipelines can name them.
void registerAllNNAPIPasses();
} // namespace mlir::nnapi

#endif
