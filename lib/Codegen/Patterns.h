//===- Patterns.h - Rewrites shared by the code generation passes ---------===//
#ifndef NNAPI_MLIR_LIB_CODEGEN_PATTERNS_H
#define NNAPI_MLIR_LIB_CODEGEN_PATTERNS_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::nnapi {

/// linalg.batch_matmul with a batch of one (a whole op from tosa.matmul, or
/// a tile of one) -> linalg.matmul on the collapsed operands, which the
/// matmul strategy vectorizes into plain contractions.
void populateUnitBatchMatmulPatterns(RewritePatternSet &patterns);

/// Indexing maps of the contraction nnapi-codegen-prepare makes of a matmul
/// whose right-hand side is a constant packed into panels: loops
/// (m, nb, p, k), A[m, k], Bp[nb, k, p], C[m, nb, p].
SmallVector<AffineMap> packedMatmulMaps(MLIRContext *ctx);

/// A linalg.generic contraction with one reduction loop and exactly these
/// maps.
bool isContractionWithMaps(Operation *op, ArrayRef<AffineMap> maps);

/// nnapi-codegen-prepare's matmul on a packed constant (packedMatmulMaps).
bool isPackedMatmul(Operation *op);

/// vector.transfer_read of a tensor.extract_slice -> a read of its source;
/// tensor.insert_slice of a transfer_write covering the whole slice -> a
/// write into the destination (VectorRewrites.cpp).
void populateSliceIntoTransferPatterns(RewritePatternSet &patterns);

/// vector.mask of a transfer -> the transfer's mask operand; of a
/// multi_reduction -> a select of the neutral value where the mask is off.
/// Bufferization's deallocation does not keep a vector.mask region whole.
void populateMaskRemovalPatterns(RewritePatternSet &patterns);

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_LIB_CODEGEN_PATTERNS_H
