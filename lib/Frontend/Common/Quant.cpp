//===- Quant.cpp - Quantized values as the importers write them -----------===//

#include "Quant.h"

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Transforms/Composites.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::frontend;

namespace names = mlir::nnapi::composite;


Value frontend::toStorage(Emitter &e, Value scaled, Value zeroPoint) {
  // Beyond +-2^30 the result saturates anyway; the bound keeps the i32
  // conversion and the addition from overflowing.
  Value bounded = e.clamp(scaled, -0x1p30, 0x1p30);
  Value rounded = e.castTo(bounded, e.builder.getI32Type()); // half to even
  Value shifted = e.add(rounded, zeroPoint);
  return e.castTo(e.clamp(shifted, kQMin, kQMax), e.builder.getI8Type());
}

Value frontend::broadcastTo(Emitter &e, Value v, ArrayRef<int64_t> shape) {
  if (e.typeOf(v).getShape() == shape)
    return v;
  return e.add(e.splat(e.typeOf(v).getElementType(), shape, 0), v);
}

Value frontend::quantizeWith(Emitter &e, Value x, Value scale,
                             Value zeroPoint) {
  ArrayRef<int64_t> shape = e.typeOf(x).getShape();
  Value divided = e.builder.create<arith::DivFOp>(
      e.loc, x, broadcastTo(e, scale, shape));
  return toStorage(e, divided, zeroPoint);
}

Value frontend::dequantizeWith(Emitter &e, Value q, Value scale,
                               Value zeroPoint) {
  Type f32 = e.builder.getF32Type();
  Value centered = e.sub(e.castTo(q, f32), e.castTo(zeroPoint, f32));
  return e.mul(centered, scale);
}

Value frontend::scaleTensor(Emitter &e, const QuantParams &p, int64_t rank) {
  SmallVector<double> v(p.scales.begin(), p.scales.end());
  return e.constant(denseOf(
      RankedTensorType::get(p.broadcastShape(rank), e.builder.getF32Type()),
      v));
}

Value frontend::zeroPointTensor(Emitter &e, const QuantParams &p, int64_t rank,
                                Type element) {
  SmallVector<double> v(p.zeroPoints.begin(), p.zeroPoints.end());
  return e.constant(
      denseOf(RankedTensorType::get(p.broadcastShape(rank), element), v));
}

Value frontend::quantComposite(Emitter &e, StringRef name, Value input,
                               RankedTensorType resultType,
                               const QuantParams &p,
                               llvm::function_ref<Value(Value)> body) {
  OpBuilder &b = e.builder;
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr(names::kScale, b.getDenseF32ArrayAttr(p.scales)),
      b.getNamedAttr(names::kZeroPoint,
                     b.getDenseI64ArrayAttr(p.zeroPoints))};
  if (p.axis >= 0)
    attrs.push_back(b.getNamedAttr(names::kAxis, b.getI64IntegerAttr(p.axis)));
  auto composite =
      b.create<CompositeOp>(e.loc, TypeRange{resultType}, name,
                            ValueRange{input}, b.getDictionaryAttr(attrs));
  OpBuilder::InsertionGuard guard(b);
  Block *block = b.createBlock(&composite.getBody());
  Value arg = block->addArgument(input.getType(), input.getLoc());
  b.create<YieldOp>(e.loc, body(arg));
  return composite.getResult(0);
}

Value frontend::quantize(Emitter &e, Value x, const QuantParams &p) {
  RankedTensorType t = e.typeOf(x);
  return quantComposite(
      e, names::kQuantize, x,
      RankedTensorType::get(t.getShape(), e.builder.getI8Type()), p,
      [&](Value arg) {
        return quantizeWith(e, arg, scaleTensor(e, p, t.getRank()),
                            zeroPointTensor(e, p, t.getRank(),
                                            e.builder.getI32Type()));
      });
}

Value frontend::dequantize(Emitter &e, Value q, const QuantParams &p) {
  RankedTensorType t = e.typeOf(q);
  return quantComposite(
      e, names::kDequantize, q,
      RankedTensorType::get(t.getShape(), e.builder.getF32Type()), p,
      [&](Value arg) {
        return dequantizeWith(e, arg, scaleTensor(e, p, t.getRank()),
                              zeroPointTensor(e, p, t.getRank(),
                                              t.getElementType()));
      });
}

Value frontend::signedStorageOf(Emitter &e, Value v,
                                const llvm::DenseMap<Value, Value> &cache) {
  auto it = cache.find(v);
  if (it != cache.end())
    return it->second;
  Value shifted = e.sub(v, e.scalarLike(v, 128));
  return e.castTo(shifted, e.builder.getI8Type());
}

Value frontend::unsignedValueOf(Emitter &e, Value s,
                                llvm::DenseMap<Value, Value> &cache) {
  Value wide = e.castTo(s, e.builder.getI32Type());
  Value v = e.add(wide, e.scalarLike(wide, 128));
  cache[v] = s;
  return v;
}
