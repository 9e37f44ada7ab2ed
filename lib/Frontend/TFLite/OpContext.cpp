//===- OpContext.cpp - What an operator handler sees ------------*- C++ -*-===//
//
// An operator's inputs (held, as float values, as compile-time constants),
// its outputs' declared types, and the definitions of its results: quantized
// to the output's parameters, narrowed to float16, or as they are.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::tflite_import;

OpContext::OpContext(Importer &imp, const tflite::Operator &op, uint32_t index,
                     int32_t code, int32_t version, StringRef name)
    : imp(imp), op(op), b(imp.builder), loc(imp.loc), index(index),
      code(code), version(version), name(name) {}

const tflite::Tensor &OpContext::inputTensor(int i) const {
  return *imp.graph->tensors()->Get(inputIndex(i));
}
const tflite::Tensor &OpContext::outputTensor(int i) const {
  return *imp.graph->tensors()->Get(outputIndex(i));
}

InFlightDiagnostic OpContext::error() {
  InFlightDiagnostic d = emitError(loc);
  if (imp.graphIndex != imp.entryGraph)
    d << "subgraph " << imp.graphIndex << ", ";
  d << "operator " << index << " (" << name << " v" << version;
  if (numOutputs() > 0) {
    const flatbuffers::String *out = outputTensor(0).name();
    d << ", output '" << (out ? out->str() : "") << "'";
  }
  d << "): ";
  return d;
}

Value OpContext::in(int i) {
  if (!has(i))
    return {};
  Importer::Slot &slot = imp.slots[inputIndex(i)];
  if (!slot.value && slot.constant)
    slot.value = imp.constant(slot.constant);
  return slot.value;
}

FailureOr<DenseElementsAttr> OpContext::needConstant(int i, StringRef what) {
  if (DenseElementsAttr c = cst(i))
    return c;
  return error() << what << " must be a constant";
}

FailureOr<SmallVector<int64_t>> OpContext::needInts(int i, StringRef what) {
  FailureOr<DenseElementsAttr> c = needConstant(i, what);
  if (failed(c))
    return failure();
  if (!isa<IntegerType>(c->getElementType()))
    return error() << what << " must be integers";
  return intsOf(*c);
}

bool OpContext::quantizedInput(int i) const {
  return has(i) && isQuantized8(inputTensor(i));
}
bool OpContext::quantizedOutput(int i) const {
  return isQuantized8(outputTensor(i));
}

Value OpContext::inFloat(int i) {
  Value v = in(i);
  if (!v) {
    // A refused producer has said why; an omitted or never computed input
    // is said here.
    if (!has(i))
      error() << "input " << i << " is omitted, where a value is needed";
    else if (!imp.slots[inputIndex(i)].failed)
      error() << "input " << i << " (" << imp.tensorName(inputIndex(i))
              << ") has no value: no operator before this one computes it";
    return {};
  }
  const tflite::Tensor &t = inputTensor(i);
  Type element = imp.typeOf(v).getElementType();
  std::string what = imp.tensorName(inputIndex(i));
  if (hasScale(t) && (element.isInteger(8) || element.isInteger(32) ||
                      element.isInteger(16))) {
    FailureOr<std::optional<QuantParams>> q = imp.quantOf(t, what);
    if (failed(q))
      return {};
    return dequantize(imp, v, **q);
  }
  if (element.isF32())
    return v;
  if (isa<FloatType>(element))
    return imp.castTo(v, b.getF32Type());
  error() << "input " << i << " (" << what << ") is " << element
          << " data without quantization, where a number is needed";
  return {};
}

FailureOr<RankedTensorType> OpContext::outType(int i) {
  return imp.tensorType(outputTensor(i), imp.tensorName(outputIndex(i)));
}

FailureOr<Shape> OpContext::outShape(int i) {
  FailureOr<RankedTensorType> t = outType(i);
  if (failed(t))
    return failure();
  return Shape(t->getShape());
}

LogicalResult OpContext::define(int i, Value v) {
  FailureOr<RankedTensorType> t = outType(i);
  if (failed(t))
    return failure();
  if (!v)
    return error() << "internal error: no value for output " << i;
  RankedTensorType got = imp.typeOf(v);
  // With dynamic dimensions the handler computes the file's shape itself
  // (a reshape to it would need every size).
  if (!got.hasStaticShape() || !t->hasStaticShape()) {
    // A file whose signatures leave -1 out where the sizes follow a
    // dynamic input: a dimension computed dynamic that the file fixes.
    bool fixedInFile = false;
    if (got.getRank() == t->getRank())
      for (int64_t d = 0; d < got.getRank(); ++d)
        fixedInFile |= got.isDynamicDim(d) && !t->isDynamicDim(d);
    if (fixedInFile && got.getElementType() == t->getElementType()) {
      return error() << "output " << i << " ("
                     << imp.tensorName(outputIndex(i)) << ") is "
                     << shapeText(t->getShape())
                     << " in the file's shape signature, but its inputs' "
                        "dynamic dimensions make it "
                     << shapeText(got.getShape())
                     << ": the file does not say that its size follows them "
                        "(convert the model with its unknown dimensions "
                        "marked, or compile it at its stored size)";
    }
    if (got != *t)
      return error() << "internal error: output " << i << " computed as "
                     << got << ", the tensor is " << *t;
    imp.slots[outputIndex(i)].value = v;
    return success();
  }
  if (got.getElementType() != t->getElementType() ||
      got.getNumElements() != t->getNumElements())
    return error() << "internal error: output " << i << " computed as "
                   << got << ", the tensor is " << *t;
  imp.slots[outputIndex(i)].value = imp.reshape(v, t->getShape());
  return success();
}

LogicalResult OpContext::defineFloat(int i, Value v) {
  if (!v)
    return failure();
  FailureOr<RankedTensorType> t = outType(i);
  if (failed(t))
    return failure();
  const tflite::Tensor &out = outputTensor(i);
  if (isQuantized8(out)) {
    FailureOr<std::optional<QuantParams>> q =
        imp.quantOf(out, imp.tensorName(outputIndex(i)));
    if (failed(q))
      return failure();
    if ((*q)->axis >= 0)
      return error() << "output " << i
                     << " is quantized per channel, which only constant "
                        "tensors may be";
    return define(i, quantize(imp, imp.reshape(v, t->getShape()), **q));
  }
  // Other quantized outputs (int16 of TFLite's 16x8 mode, int32) would
  // need a quantize of their own width, which the pipeline does not have.
  if (hasScale(out))
    return error() << "output " << i << " is quantized "
                   << tflite::EnumNameTensorType(out.type())
                   << " data, which is not supported (quantized "
                      "activations must be int8 or uint8)";
  if (t->getElementType() != imp.typeOf(v).getElementType())
    v = imp.castTo(v, t->getElementType());
  return define(i, v);
}

LogicalResult OpContext::defineConstant(int i, DenseElementsAttr value) {
  FailureOr<RankedTensorType> t = outType(i);
  if (failed(t))
    return failure();
  if (value.getType().getElementType() != t->getElementType() ||
      value.getNumElements() != t->getNumElements())
    return error() << "internal error: constant output " << i << " is "
                   << value.getType() << ", the tensor is " << *t;
  imp.slots[outputIndex(i)].constant = value.reshape(*t);
  return success();
}

Value OpContext::fused(Value x, tflite::ActivationFunctionType act) {
  switch (act) {
  case tflite::ActivationFunctionType_NONE:
    return x;
  case tflite::ActivationFunctionType_RELU:
    return imp.clamp(x, 0, kNoBound);
  case tflite::ActivationFunctionType_RELU_N1_TO_1:
    return imp.clamp(x, -1, 1);
  case tflite::ActivationFunctionType_RELU6:
    return imp.clamp(x, 0, 6);
  case tflite::ActivationFunctionType_TANH:
    return imp.unary("tosa.tanh", x);
  default:
    error() << "fused activation "
            << tflite::EnumNameActivationFunctionType(act)
            << " is not supported";
    return {};
  }
}

FailureOr<int64_t> tflite_import::axisOf(OpContext &op, int64_t axis,
                                         int64_t rank) {
  int64_t a = normalizeAxis(axis, rank);
  if (a < 0 || a >= rank)
    return op.error() << "axis " << axis << " is out of range for rank "
                      << rank;
  return a;
}
