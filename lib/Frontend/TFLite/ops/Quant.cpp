//===- Quant.cpp - QUANTIZE and DEQUANTIZE ----------------------*- C++ -*-===//
//
// QUANTIZE (float to 8-bit data, or 8-bit data requantized) and DEQUANTIZE
// (8-bit data to float; a float16 constant, as models with float16 weights
// carry them, becomes a float32 constant at compile time). The composites
// they make are those of Common/Quant.h: NNAPI's QUANTIZE and DEQUANTIZE.
// DENSIFY's sparse constant input is already dense (Sparse.cpp, when the
// importer reads constants), so DENSIFY is that constant.
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"

using namespace mlir;
using namespace mlir::nnapi::tflite_import;

namespace {

LogicalResult importDequantize(OpContext &op) {
  if (DenseElementsAttr c = op.cst(0)) {
    if (isa<FloatType>(c.getElementType())) {
      // float16 weights: widened once, exactly.
      FailureOr<RankedTensorType> out = op.outType();
      if (failed(out))
        return failure();
      if (!isa<FloatType>(out->getElementType()))
        return op.error() << "a float constant dequantizes to float, not "
                          << out->getElementType();
      SmallVector<APFloat> values;
      for (APFloat v : c.getValues<APFloat>()) {
        bool lost;
        v.convert(cast<FloatType>(out->getElementType()).getFloatSemantics(),
                  APFloat::rmNearestTiesToEven, &lost);
        values.push_back(v);
      }
      return op.defineConstant(0, DenseElementsAttr::get(*out, values));
    }
  }
  if (!op.has(0))
    return op.error() << "input 0 is omitted, where the operator needs it";
  if (!op.quantizedInput(0) &&
      !isa<FloatType>(op.imp.typeOf(op.in(0)).getElementType()))
    return op.error() << "the input is neither quantized nor float16";
  return op.defineFloat(0, op.inFloat(0));
}

LogicalResult importQuantize(OpContext &op) {
  if (!op.quantizedOutput(0))
    return op.error() << "the output must be quantized int8 or uint8";
  return op.defineFloat(0, op.inFloat(0));
}

LogicalResult importDensify(OpContext &op) {
  if (!op.has(0) || !op.inputTensor(0).sparsity())
    return op.error() << "the input is not a sparse tensor";
  FailureOr<DenseElementsAttr> dense =
      op.needConstant(0, "the sparse input");
  FailureOr<RankedTensorType> out = op.outType();
  if (failed(dense) || failed(out))
    return failure();
  if (dense->getType() != *out)
    return op.error() << "the output is " << *out << ", where the input is "
                      << dense->getType();
  return op.defineConstant(0, *dense);
}

} // namespace

void mlir::nnapi::tflite_import::registerQuantOps(OpRegistry &registry) {
  registry.add({
      {tflite::BuiltinOperator_QUANTIZE, "", 1, 3, importQuantize,
       "the quantize composite (after a dequantize when requantizing)",
       "QUANTIZE (3); int8 4", "-"},
      {tflite::BuiltinOperator_DEQUANTIZE, "", 1, 6, importDequantize,
       "the dequantize composite; a float16 constant becomes a float32 "
       "constant",
       "DEQUANTIZE (1); int8 4", "-"},
      {tflite::BuiltinOperator_DENSIFY, "", 1, 1, importDensify,
       "a constant: the sparse input expanded at compile time", "-", "-"},
  });
}
