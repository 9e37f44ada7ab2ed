//===- Fusion.h - Rewrites inside the nnapi dialect -------------*- C++ -*-===//
#ifndef NNAPI_MLIR_DIALECT_NNAPI_TRANSFORMS_FUSION_H
#define NNAPI_MLIR_DIALECT_NNAPI_TRANSFORMS_FUSION_H

#include "mlir/IR/PatternMatch.h"

#include <cstdint>

namespace mlir::nnapi {
/// True for the NNAPI operations that have a fused-activation operand
/// (ADD, SUB, MUL, DIV, CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED,
/// AVERAGE_POOL_2D, MAX_POOL_2D).
bool hasFusedActivationOperand(int32_t opcode);
/// True for RELU, RELU1 and RELU6, which fold into such an operand.
bool isFusableActivation(int32_t opcode);

/// Folds nnapi.relu/relu1/relu6 into the fused activation of the op that
/// produces its input, when that op has a fused activation of `none` and no
/// other user.
void populateFuseActivationPatterns(RewritePatternSet &patterns);
} // namespace mlir::nnapi

#endif
