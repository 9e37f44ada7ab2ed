//===- Fusion.h - Rewrites inside the nnapi dialect -------------*- C++ -*-===//
#ifndef NNAPI_MLIR_DIALECT_NNAPI_TRANSFORMS_FUSION_H
#define NNAPI_MLIR_DIALECT_NNAPI_TRANSFORMS_FUSION_H

#include "nnapi-mlir/NNAPI/Operations.h"

#include "mlir/IR/PatternMatch.h"

#include <cstdint>

namespace mlir::nnapi {
/// True for the NNAPI operations with a fused-activation operand (the FUSES
/// column of NNAPI/Operations.def).
using nnapi_mlir::hasFusedActivationOperand;
/// True for RELU, RELU1 and RELU6, which fold into such an operand.
bool isFusableActivation(int32_t opcode);

/// Folds nnapi.relu/relu1/relu6 into the fused activation of the op that
/// produces its input, when that op has a fused activation of `none` and no
/// other user.
void populateFuseActivationPatterns(RewritePatternSet &patterns);
} // namespace mlir::nnapi

#endif
