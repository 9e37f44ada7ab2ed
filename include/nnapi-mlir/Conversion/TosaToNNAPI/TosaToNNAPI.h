//===- TosaToNNAPI.h - TOSA to nnapi: patterns and converter ----*- C++ -*-===//
//
// The patterns that rewrite TOSA into the nnapi dialect, and the converter
// that applies them: the one place that decides whether TOSA ops can run on
// NNAPI and at which feature level (nnapi-partition asks it, then
// convert-tosa-to-nnapi uses it).
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_CONVERSION_TOSATONNAPI_TOSATONNAPI_H
#define NNAPI_MLIR_CONVERSION_TOSATONNAPI_TOSATONNAPI_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"

#include <string>

namespace mlir::nnapi {
/// What converting a group of TOSA ops would produce.
struct ConversionCheck {
  /// The patterns rewrote every op into nnapi ops that verify.
  bool convertible = false;
  /// Why not, in one phrase ("clamp bounds [0, 3] match no NNAPI
  /// activation", a verifier's message...).
  std::string reason;
  /// The highest feature level the produced ops need, and what needs it.
  FeatureLevelNeed need;
  /// The NNAPI operations produced, in program order.
  SmallVector<int32_t> operations;
  /// Per produced operation, the NNAPI operand types of its tensor
  /// operands and of its results ("TENSOR_QUANT8_ASYMM_SIGNED").
  SmallVector<std::pair<SmallVector<std::string>, SmallVector<std::string>>>
      operandTypes;
};

/// TOSA to nnapi with its pattern sets built once. It is the only judge of
/// what NNAPI can run: convert-tosa-to-nnapi converts partitions with it, and
/// nnapi-partition asks it, op by op (a composite is one op), by
/// converting a copy (check()), so placement and conversion cannot disagree.
class TosaToNNAPIConverter {
public:
  explicit TosaToNNAPIConverter(MLIRContext *ctx);

  /// Rewrites the body of a partition function into the nnapi dialect, fuses
  /// activations, and checks that every remaining op is an nnapi op (or a
  /// constant) that verifies and needs at most `featureLevel`. Emits an
  /// error naming each op that does not.
  LogicalResult convert(func::FuncOp partition, unsigned featureLevel) const;

  /// Converts a copy of `ops` (in program order: one op, or an op and the
  /// activation fused into it) and says what came out. The ops are not
  /// touched.
  ConversionCheck check(ArrayRef<Operation *> ops) const;

private:
  LogicalResult convert(func::FuncOp partition, unsigned featureLevel,
                        function_ref<void(Operation *, const Twine &)> reject)
      const;

  FrozenRewritePatternSet perOp, fusion;
};

/// One pattern per nnapi.composite name (nnapi-mlir/Transforms/Composites.h)
/// with an NNAPI operation.
void populateTosaToNNAPICompositePatterns(RewritePatternSet &patterns);
/// One pattern per TOSA op with an NNAPI counterpart.
void populateTosaToNNAPIPatterns(RewritePatternSet &patterns);
/// tosa.cond_if to nnapi.if, tosa.while_loop to nnapi.while (their regions'
/// ops are left to the other patterns of the same rewrite).
void populateTosaToNNAPIControlFlowPatterns(RewritePatternSet &patterns);
/// The quantize, dequantize and quantized composites (8-bit NNAPI).
void populateTosaToNNAPIQuantizedPatterns(RewritePatternSet &patterns);

/// The values `op` reads: its operands, then what its regions use from
/// above (a tosa.cond_if's branches read values defined before it).
SmallVector<Value> usedValues(Operation *op);

/// TosaToNNAPIConverter(ctx).convert(partition, featureLevel).
LogicalResult convertPartitionToNNAPI(func::FuncOp partition,
                                      unsigned featureLevel);

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_CONVERSION_TOSATONNAPI_TOSATONNAPI_H
