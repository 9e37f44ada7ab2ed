//===- PatternCommon.h - Shared by the TOSA to nnapi patterns ---*- C++ -*-===//
//
// Internal to the conversion: the checks and helpers every pattern
// (Patterns.cpp, CompositePatterns.cpp) uses.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_CONVERSION_TOSATONNAPI_PATTERNCOMMON_H
#define NNAPI_MLIR_LIB_CONVERSION_TOSATONNAPI_PATTERNCOMMON_H

#include "nnapi-mlir/Conversion/TosaToNNAPI/TosaToNNAPI.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Transforms/Composites.h"
#include "nnapi-mlir/Transforms/Constants.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/Fusion.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cfloat>
#include <cstdio>

namespace mlir::nnapi::detail {

//===----------------------------------------------------------------------===//
// What every pattern checks first, and helpers (Patterns.cpp)
//===----------------------------------------------------------------------===//

/// NNAPI's float operations need ranked float32/float16 tensors, static
/// unless the pattern takes dynamic dimensions (Dynamic below); the nnapi
/// dialect's types and verifiers say the same, so a pattern never builds an
/// op they reject. Ranks, shapes and attributes are the verifiers'
/// business; feature levels the ops' (NNAPIOperationInterface).
/// The element types a pattern's tensors may have: f32 and f16; also i1
/// (TENSOR_BOOL8) for the comparison, logical and select ops whose nnapi
/// types say which operand is which; also i32 for CAST.
enum class Elements { Float, FloatOrBool, FloatBoolOrInt32 };

/// Whether a pattern takes tensors with dynamic dimensions: those that
/// compute nothing from the sizes and build nnapi ops whose output shapes
/// the spec's rules compute (the runtime specializes such a partition per
/// call, docs/design.md "Dynamic dimensions").
enum class Dynamic { Refused, Allowed };

LogicalResult checkTensor(Operation *op, Type type, StringRef what,
                          unsigned i, PatternRewriter &rewriter,
                          Elements allowed = Elements::Float,
                          Dynamic dynamic = Dynamic::Refused);

LogicalResult checkTensors(Operation *op, PatternRewriter &rewriter,
                           Elements allowed = Elements::Float,
                           Dynamic dynamic = Dynamic::Refused);

/// For ops whose other operands (permutations, paddings) become NNAPI's
/// constant operands: only operand 0 and the result are data.
LogicalResult checkDataTensors(Operation *op, PatternRewriter &rewriter,
                               Dynamic dynamic = Dynamic::Refused);

LogicalResult checkConstant(Operation *op, Value v, StringRef what,
                            PatternRewriter &rewriter);

/// `op`'s inputs by name (Composites.h), or a match failure saying how
/// they do not fit its declaration.
FailureOr<composite::Inputs> bindInputs(CompositeOp op,
                                        PatternRewriter &rewriter);

std::string formatBound(double v);

/// The NNAPI activation a tosa.clamp is, if any.
std::optional<FuseCode> clampActivation(tosa::ClampOp clamp);

/// NNAPI's resize flags (nnapi.resize_*) that sample both dimensions as
/// `op` does, or a match failure saying why none does.
struct ResizeFlags {
  bool alignCorners, halfPixelCenters;
};
FailureOr<ResizeFlags> nnapiResizeFlags(tosa::ResizeOp op,
                                        PatternRewriter &rewriter);

/// A splat constant of `type`'s element type, shaped [1, ..., 1] with `type`'s
/// rank, so that it broadcasts against it.
Value broadcastScalar(PatternRewriter &rewriter, Location loc,
                      RankedTensorType type, double value);

/// NNAPI orders window parameters [left, right, top, bottom] and [w, h];
/// TOSA uses [top, bottom, left, right] and [y, x].
SmallVector<int64_t> nnapiPadding(ArrayRef<int64_t> tosaPad);

SmallVector<int64_t> swapYX(ArrayRef<int64_t> yx);

/// Why a TOSA product with zero points (8-bit operands, i32 results:
/// ONNX's ConvInteger and MatMulInteger, dynamically quantized models)
/// stays on the host: NNAPI's 8-bit operations requantize their results,
/// with zero points fixed when the model is built. (Quantized operations
/// NNAPI runs are raised from their QDQ form before, not from these.)
inline LogicalResult refuseIntegerProduct(Operation *op,
                                          PatternRewriter &rewriter) {
  return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
    diag << "8-bit " << op->getName().stripDialect()
         << " with int32 results has no NNAPI operation (NNAPI's "
            "requantize, with zero points fixed in the model)";
  });
}

/// Convolutions and fully connected: float, not quantized, constant weights
/// and bias (NNAPI drivers and XNNPACK prepare constant weights once).
template <typename TosaOp>
LogicalResult checkWeighted(TosaOp op, PatternRewriter &rewriter,
                            Dynamic dynamic = Dynamic::Refused) {
  if (op.getQuantizationInfo())
    return refuseIntegerProduct(op, rewriter);
  if (failed(checkTensors(op, rewriter, Elements::Float, dynamic)) ||
      failed(checkConstant(op, op.getWeight(), "weight", rewriter)) ||
      failed(checkConstant(op, op.getBias(), "bias", rewriter)))
    return failure();
  return success();
}

/// The NNAPI pool of TOSA pool `op` (its window) on `input`, typed `type`.
template <typename NNAPIOp, typename TosaOp>
Value createPool(PatternRewriter &rewriter, TosaOp op, Value input, Type type,
                 FuseCode fuse) {
  return rewriter.create<NNAPIOp>(
      op.getLoc(), type, input,
      rewriter.getDenseI64ArrayAttr(nnapiPadding(op.getPad())),
      rewriter.getDenseI64ArrayAttr(swapYX(op.getStride())),
      rewriter.getDenseI64ArrayAttr(swapYX(op.getKernel())), fuse);
}

/// A pattern from `TosaOp` to the nnapi ops `Generated`. The generated op
/// names are declared to MLIR, which is where docs/ops.md's TOSA column comes
/// from (tools/nnapi-ops-doc).
template <typename TosaOp, typename... Generated>
struct ToNNAPI : OpRewritePattern<TosaOp> {
  explicit ToNNAPI(MLIRContext *ctx, PatternBenefit benefit = 1)
      : OpRewritePattern<TosaOp>(ctx, benefit,
                                 {Generated::getOperationName()...}) {}
};

} // namespace mlir::nnapi::detail

#endif // NNAPI_MLIR_LIB_CONVERSION_TOSATONNAPI_PATTERNCOMMON_H
