//===- Fusion.h - Rewrites inside the nnapi dialect -------------*- C++ -*-===//
#ifndef NNAPI_MLIR_DIALECT_NNAPI_TRANSFORMS_FUSION_H
#define NNAPI_MLIR_DIALECT_NNAPI_TRANSFORMS_FUSION_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::nnapi {
/// Folds nnapi.relu/relu1/relu6 into the fused activation of the op that
/// produces its input, when that op has a fused activation of `none` and no
/// other user.
void populateFuseActivationPatterns(RewritePatternSet &patterns);
} // namespace mlir::nnapi

#endif
