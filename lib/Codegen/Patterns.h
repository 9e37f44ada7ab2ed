//===- Patterns.h - Rewrites shared by the code generation passes ---------===//
#ifndef NNAPI_MLIR_LIB_CODEGEN_PATTERNS_H
#define NNAPI_MLIR_LIB_CODEGEN_PATTERNS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::nnapi {

/// linalg.batch_matmul with a batch of one (a whole op from tosa.matmul, or
/// a tile of one) -> linalg.matmul on the collapsed operands, which the
/// matmul strategy vectorizes into plain contractions.
void populateUnitBatchMatmulPatterns(RewritePatternSet &patterns);

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_LIB_CODEGEN_PATTERNS_H
