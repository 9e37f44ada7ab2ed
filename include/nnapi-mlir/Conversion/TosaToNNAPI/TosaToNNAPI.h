//===- TosaToNNAPI.h - TOSA to nnapi: legality and patterns -----*- C++ -*-===//
//
// The one place that decides whether a TOSA op can run on NNAPI at a feature
// level (used by nnapi-partition to place ops and by convert-tosa-to-nnapi to
// check its input), and the patterns that rewrite TOSA into the nnapi
// dialect.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_CONVERSION_TOSATONNAPI_TOSATONNAPI_H
#define NNAPI_MLIR_CONVERSION_TOSATONNAPI_TOSATONNAPI_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

#include <string>

namespace mlir::nnapi {

/// True if `op` can be converted to nnapi ops valid at `featureLevel`. When it
/// cannot, `reason` (if given) says why in one phrase, e.g.
/// "clamp bounds [0, 3] match no NNAPI activation". Ops that NNAPI runs only
/// as part of a composite (see getCompositeMembers) are legal iff the
/// composite matches.
bool isLegalForNNAPI(Operation *op, unsigned featureLevel,
                     std::string *reason = nullptr);

/// If `op` belongs to a multi-op pattern that becomes one NNAPI operation
/// (a decomposed softmax: reduce_max, sub, exp, reduce_sum, reciprocal,
/// mul), returns every op of the pattern, root last; otherwise empty. Such
/// ops must be placed together.
SmallVector<Operation *> getCompositeMembers(Operation *op);

/// The NNAPI operation code (ANEURALNETWORKS_*) `op` becomes, or -1 if it
/// has none. Every op of a softmax composite reports SOFTMAX.
int32_t getNNAPIOperationCode(Operation *op);

/// The work an op does, for cost models: multiply-accumulates (convolutions,
/// fully connected, matmul, pooling windows) and the elements of all its
/// tensor operands and results.
struct OpWork {
  double macs = 0;
  double elements = 0;
};
OpWork estimateWork(Operation *op);

/// Patterns that turn composites (softmax) into single nnapi ops. They run
/// before the per-op patterns so that the ops they match are still TOSA.
void populateTosaToNNAPICompositePatterns(RewritePatternSet &patterns);
/// One pattern per TOSA op with an NNAPI counterpart.
void populateTosaToNNAPIPatterns(RewritePatternSet &patterns);

/// Rewrites the body of a partition function into the nnapi dialect, fuses
/// activations, and checks that every remaining op is an nnapi op (or a
/// constant) whose feature level is at most `featureLevel`. Emits an error
/// naming each op that is left over or needs a newer feature level.
LogicalResult convertPartitionToNNAPI(func::FuncOp partition,
                                      unsigned featureLevel);

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_CONVERSION_TOSATONNAPI_TOSATONNAPI_H
