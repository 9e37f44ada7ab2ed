//===- DotProducts.h - 8-bit convolutions on dot-product instructions -----===//
//
// Integer convolutions on 8-bit data, computed with the target's
// dot-product instructions: x86 vpdpbusd and AArch64 sdot multiply four
// 8-bit pairs per 32-bit lane and add them to the lane; x86 vpmaddwd, on
// CPUs without VNNI, two 16-bit pairs (the 8-bit operands sign-extended,
// the filter at compile time).
// nnapi-codegen-prepare keeps such a convolution's operands 8-bit (its zero
// points moved into the accumulator's initial value, or a filter zero point
// the filter's differences from which exceed 8 bits subtracted times each
// window's input sum after); nnapi-codegen tiles it like a float
// convolution and lowers each register tile to a loop of dot products over
// a filter packed at compile time; nnapi-lower-vectors makes those the
// target's instruction.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_CODEGEN_DOTPRODUCTS_H
#define NNAPI_MLIR_LIB_CODEGEN_DOTPRODUCTS_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir::nnapi::codegen {

/// The 8-bit dot-product instructions a target has (the `int8-dot` option).
enum class DotKind {
  None,
  Avx512Vnni, ///< vpdpbusd on 512-bit vectors (unsigned x signed)
  AvxVnni,    ///< vpdpbusd on 256-bit vectors (AVX-VNNI or AVX512-VNNI+VL)
  DotProd,    ///< AArch64 sdot on 128-bit vectors (signed x signed)
  I8mm,       ///< AArch64 smmla (2x8 by 8x2 blocks), sdot where it cannot
  Avx512Madd, ///< vpmaddwd on 512-bit vectors (AVX512BW without VNNI)
  Avx2Madd    ///< vpmaddwd on 256-bit vectors (AVX2 without VNNI)
};

/// vpmaddwd (Avx512Madd, Avx2Madd): 16-bit operands, pairs per lane.
bool isMadd(DotKind kind);

/// The kind named by an `int8-dot` value ("" is None); none, with an error
/// on `op`, if unknown.
std::optional<DotKind> parseDotKind(StringRef name, Operation *op);

/// A linalg.conv_2d_nhwc_hwcf on an i8 (or, for vpmaddwd, i16) input and
/// an i8 filter accumulating in i32: what nnapi-codegen-prepare makes for
/// the dot-product tiles.
bool isInt8Conv(Operation *op);

/// A linalg.matmul or batch_matmul of two static i8 (or, for vpmaddwd, i16)
/// tensors into i32: what nnapi-codegen-prepare makes of an 8-bit matmul of
/// two computed tensors (no constant filter to pack), whose register tiles
/// lowerInt8ConvTiles computes on dot products too.
bool isInt8Matmul(Operation *op);

/// nnapi-codegen-prepare's rewrites of linalg.conv_2d_nhwc_fhwc_q and
/// linalg.quantized_matmul on 8-bit data with a constant filter into
/// isInt8Conv ops (none for None).
void populateInt8ConvPatterns(RewritePatternSet &patterns, DotKind kind);

/// nnapi-codegen-prepare's rewrites for vpmaddwd: the 8-bit operands of
/// isInt8Conv ops (their input) and isInt8Matmul ops (both) sign-extended
/// to 16 bits once, before the op (none for other kinds). Applied with
/// populateInt8MatmulPatterns'.
void populateMaddOperandPatterns(RewritePatternSet &patterns, DotKind kind);

/// nnapi-codegen-prepare's rewrites of quantized (batch) matmuls of two
/// computed 8-bit tensors into isInt8Matmul ops and their zero points'
/// corrections (none for None). Applied once populateInt8ConvPatterns'
/// have converged: a filter is a constant only once its transpose folds.
void populateInt8MatmulPatterns(RewritePatternSet &patterns, DotKind kind);

/// Lowers register tiles of isInt8Conv ops (output [1, 1, rows, channels],
/// static, filter a slice of a constant) to loops of dot products. Packed
/// filters are made once per constant and function. Tiles it cannot lower
/// are left for the generic strategy.
void lowerInt8ConvTiles(RewriterBase &rewriter, Operation *function,
                        DotKind kind, int64_t registers);

/// What lowering a register tile of an isInt8Conv op needs: its output
/// [1, 1, rows, channels], its filter's sizes, strides and dilations, and
/// the constant the filter tile is sliced from, with the tile's offsets
/// along the output channels. None unless every shape is static, the output
/// one row of pixels and the filter such a slice.
struct ConvTile {
  int64_t rows, channels, kh, kw, c;
  SmallVector<int64_t> strides, dilations;
  arith::ConstantOp filter;
  SmallVector<OpFoldResult> offsets;
};
std::optional<ConvTile> convTile(linalg::Conv2DNhwcHwcfOp op);

/// What lowering a register tile of an isInt8Matmul linalg.matmul needs:
/// A [rows, k], B [k, channels]. None for any other op.
struct MatmulTile {
  Value a, b;
  int64_t rows, channels, k;
};
std::optional<MatmulTile> matmulTile(linalg::MatmulOp op);

/// The tile's first output channel: the sum of its offsets.
Value firstChannel(OpBuilder &b, Location loc, ArrayRef<OpFoldResult> offsets);

/// A loop over [0, n) carrying `in` through `body` (no loop for n = 1).
SmallVector<Value>
carry(OpBuilder &b, Location loc, int64_t n, ValueRange in,
      function_ref<SmallVector<Value>(OpBuilder &, Value, ValueRange)> body);

/// I8mm: lowers the tiles (isInt8Conv and isInt8Matmul linalg.matmul ops)
/// smmla can take (MatrixMultiplyAccumulate.cpp), packing filters once per
/// constant into `entry`; returns the others.
SmallVector<Operation *> lowerInt8MmlaTiles(RewriterBase &rewriter,
                                            ArrayRef<Operation *> tiles,
                                            int64_t registers, Block &entry);

/// nnapi-lower-vectors: smmla's products in plain vector ops -> smmla.
void populateMmlaLoweringPatterns(RewritePatternSet &patterns);

/// nnapi-lower-vectors: the dot products the tiles compute in plain vector
/// ops (a multi-reduction over groups of four products of extended bytes)
/// -> the target's instruction (a no-op for None).
void populateDotProductLoweringPatterns(RewritePatternSet &patterns,
                                        DotKind kind);

} // namespace mlir::nnapi::codegen

#endif // NNAPI_MLIR_LIB_CODEGEN_DOTPRODUCTS_H
