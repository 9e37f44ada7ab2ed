//===- Quant.h - Quantized values as the importers write them ---*- C++ -*-===//
//
// Both importers write quantized data the same way, so that one raising
// pass (nnapi-raise-quantized) turns it into int8 NNAPI operations: 8-bit
// data is held as signed storage (i8; uint8 data shifted by -128 with its
// zero point), and an operator on quantized data is its float computation
// between `dequantize` and `quantize` composites (Composites.h) with
// compile-time scales and zero points. Private to lib/Frontend.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_FRONTEND_COMMON_QUANT_H
#define NNAPI_MLIR_LIB_FRONTEND_COMMON_QUANT_H

#include "Emitter.h"

namespace mlir::nnapi::frontend {

constexpr int64_t kQMin = -128, kQMax = 127;

/// Compile-time scales and zero points: one each, or one per index of
/// `axis` (-1: per tensor). Zero points are in signed storage.
struct QuantParams {
  SmallVector<float> scales;
  SmallVector<int64_t> zeroPoints;
  int64_t axis = -1;

  /// The values shaped to broadcast against a rank-`rank` tensor.
  Shape broadcastShape(int64_t rank) const {
    Shape shape(rank, 1);
    if (axis >= 0)
      shape[axis] = int64_t(scales.size());
    return shape;
  }
};

/// Scaled float values to storage: round half to even, add the zero point,
/// saturate to [-128, 127], i8. `zeroPoint` is an i32 tensor broadcasting
/// against `scaled`.
Value toStorage(Emitter &e, Value scaled, Value zeroPoint);
/// `v` broadcast to `shape` (same rank) by adding zeros: exact.
Value broadcastTo(Emitter &e, Value v, ArrayRef<int64_t> shape);
/// The quantize formula with tensors for scale (float32) and zero point
/// (i32, signed storage), both broadcasting against x: x / scale (a true
/// division) to storage.
Value quantizeWith(Emitter &e, Value x, Value scale, Value zeroPoint);
/// The dequantize formula: (q - zero point) * scale in float32.
Value dequantizeWith(Emitter &e, Value q, Value scale, Value zeroPoint);
Value scaleTensor(Emitter &e, const QuantParams &p, int64_t rank);
Value zeroPointTensor(Emitter &e, const QuantParams &p, int64_t rank,
                      Type element);
/// A `quantize` or `dequantize` composite of `input` with parameters `p`,
/// its body computed by `body` from the block argument.
Value quantComposite(Emitter &e, StringRef name, Value input,
                     RankedTensorType resultType, const QuantParams &p,
                     llvm::function_ref<Value(Value)> body);
/// `x` (float32) quantized with compile-time parameters.
Value quantize(Emitter &e, Value x, const QuantParams &p);
/// `q` (signed storage, or i32 for a bias) dequantized with compile-time
/// parameters.
Value dequantize(Emitter &e, Value q, const QuantParams &p);

/// Signed storage of uint8 data held as i32 (how the importers hold every
/// unsigned type): shifted by -128, i8. `cache` remembers what graphValue
/// made, so quantized consumers skip the round trip.
Value signedStorageOf(Emitter &e, Value u8AsI32,
                      const llvm::DenseMap<Value, Value> &cache);
/// Signed storage `s` (i8) as the graph holds uint8 data (i32, shifted
/// back), recorded in `cache`.
Value unsignedValueOf(Emitter &e, Value s, llvm::DenseMap<Value, Value> &cache);

} // namespace mlir::nnapi::frontend

#endif // NNAPI_MLIR_LIB_FRONTEND_COMMON_QUANT_H
