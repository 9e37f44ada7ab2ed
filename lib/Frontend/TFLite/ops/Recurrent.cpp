//===- Recurrent.cpp - UNIDIRECTIONAL_SEQUENCE_LSTM -------------*- C++ -*-===//
//
// TFLite's sequence LSTM: its twelve gate tensors (weights, recurrent
// weights and bias of the input, forget, cell and output gates) joined into
// ONNX's gate order, its peepholes, its state variables (zeros at the start
// of each run) and its fused activation, into the `lstm` composite that
// Common/Recurrent.h unrolls for both importers, and NNAPI runs as one
// UNIDIRECTIONAL_SEQUENCE_LSTM.
//
// Refused, each by name: CIFG (no input gate: TFLite's coupling i = 1 - f
// is not the composite's f = 1 - i), projections, layer normalization, a
// cell or projection clip (NNAPI's and TFLite's clip the state; the
// composite's clip is ONNX's, of the gate inputs), integer (full-int8)
// LSTMs.
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"
#include "../../Common/Recurrent.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::nnapi::tflite_import;

namespace {

// Input positions (tensorflow/lite/kernels/lstm_shared.h's numbering).
enum : int {
  kInput = 0,
  kInputToInput = 1, // .. kInputToOutput = 4: i, f, c, o
  kRecurrentToInput = 5, // .. 8
  kCellToInput = 9, // .. 11: i, f, o peepholes
  kInputGateBias = 12, // .. 15
  kProjectionWeights = 16,
  kProjectionBias = 17,
  kOutputState = 18,
  kCellState = 19,
  kInputLayerNorm = 20, // .. 23
};

/// TFLite's gate offsets (i, f, c, o) in ONNX's order (i, o, f, c).
constexpr int kOnnxOrder[4] = {0, 3, 1, 2};

/// The constants `parts` joined along axis 0, or the tosa.concat of the
/// values when one is not constant.
Value joinRows(OpContext &op, ArrayRef<Value> parts) {
  Emitter &e = op.imp;
  RankedTensorType first = e.typeOf(parts[0]);
  Shape shape(first.getShape());
  shape[0] = 0;
  for (Value p : parts)
    shape[0] += e.typeOf(p).getDimSize(0);
  auto type = RankedTensorType::get(shape, first.getElementType());
  SmallVector<double> values;
  for (Value p : parts) {
    DenseElementsAttr attr;
    if (!matchPattern(p, m_Constant(&attr)))
      return op.b.create<tosa::ConcatOp>(op.loc, type, parts,
                                         op.b.getI32IntegerAttr(0));
    values.append(floatsOf(attr));
  }
  return e.constant(denseOf(type, values));
}

FailureOr<RecurrentActivation> cellActivation(OpContext &op,
                                              tflite::ActivationFunctionType a) {
  switch (a) {
  case tflite::ActivationFunctionType_TANH:
    return RecurrentActivation{"Tanh", {}, {}};
  case tflite::ActivationFunctionType_RELU:
    return RecurrentActivation{"Relu", {}, {}};
  case tflite::ActivationFunctionType_NONE:
    return RecurrentActivation{"Affine", 1.0, 0.0};
  default:
    return op.error() << "the cell activation "
                      << tflite::EnumNameActivationFunctionType(a)
                      << " is not supported (TANH, RELU and NONE are)";
  }
}

LogicalResult importSequenceLSTM(OpContext &op) {
  const auto *o = op.options<tflite::UnidirectionalSequenceLSTMOptions>();
  Emitter &e = op.imp;
  if (op.numInputs() != 20 && op.numInputs() != 24)
    return op.error() << "the operator has " << op.numInputs()
                      << " inputs, not 20 or 24";
  if (op.quantizedInput(kInput) || op.quantizedOutput(0))
    return op.error() << "integer (quantized) LSTMs are not supported";
  if (!op.has(kInputToInput) || !op.has(kRecurrentToInput))
    return op.error() << "CIFG (no input gate) is not supported";
  if (op.has(kProjectionWeights) || op.has(kProjectionBias))
    return op.error() << "projection is not supported";
  for (int i = kInputLayerNorm; i < op.numInputs(); ++i)
    if (op.has(i))
      return op.error() << "layer normalization is not supported";
  if (o && (o->cell_clip() != 0 || o->proj_clip() != 0))
    return op.error() << "cell_clip " << o->cell_clip() << " and proj_clip "
                      << o->proj_clip()
                      << " are not supported (only 0, no clipping)";
  FailureOr<RecurrentActivation> g = cellActivation(
      op, o ? o->fused_activation_function()
            : tflite::ActivationFunctionType_TANH);
  if (failed(g))
    return failure();

  Value x = op.inFloat(kInput);
  if (!x)
    return failure();
  if (e.typeOf(x).getRank() != 3)
    return op.error() << "the input must have rank 3, not "
                      << e.typeOf(x).getRank();
  bool timeMajor = o && o->time_major();
  if (!timeMajor)
    x = e.transpose(x, {1, 0, 2});
  RankedTensorType xt = e.typeOf(x);
  int64_t seq = xt.getDimSize(0), batch = xt.getDimSize(1),
          inputSize = xt.getDimSize(2);

  // The gates' tensors, each checked against the geometry.
  SmallVector<Value, 4> w(4), r(4), bias(4);
  int64_t hidden = -1;
  for (int k = 0; k < 4; ++k) {
    w[k] = op.inFloat(kInputToInput + k);
    r[k] = op.inFloat(kRecurrentToInput + k);
    bias[k] = op.inFloat(kInputGateBias + k);
    if (!w[k] || !r[k] || !bias[k])
      return failure();
    if (hidden < 0)
      hidden = e.typeOf(w[k]).getRank() == 2 ? e.typeOf(w[k]).getDimSize(0)
                                               : -1;
    if (e.typeOf(w[k]).getShape() != ArrayRef<int64_t>{hidden, inputSize} ||
        e.typeOf(r[k]).getShape() != ArrayRef<int64_t>{hidden, hidden} ||
        e.typeOf(bias[k]).getShape() != ArrayRef<int64_t>{hidden})
      return op.error() << "gate " << k << "'s weights "
                        << e.typeOf(w[k]) << ", recurrent weights "
                        << e.typeOf(r[k]) << " and bias "
                        << e.typeOf(bias[k])
                        << " do not match an input size of " << inputSize;
  }
  if (seq < 1 || batch < 1 || inputSize < 1 || hidden < 1)
    return op.error() << "zero-size tensors are not supported";
  int64_t perStep = 25;
  if (seq * perStep > kMaxUnrolledNodes)
    return op.error() << "a sequence of " << seq
                      << " steps is longer than the importer unrolls ("
                      << kMaxUnrolledNodes / perStep << ")";
  auto inOnnxOrder = [&](ArrayRef<Value> tfl) {
    SmallVector<Value, 4> v;
    for (int k : kOnnxOrder)
      v.push_back(tfl[k]);
    return v;
  };
  RecurrentWeights weights;
  weights.w = joinRows(op, inOnnxOrder(w));
  weights.r = joinRows(op, inOnnxOrder(r));
  weights.inBias = joinRows(op, inOnnxOrder(bias));
  int peepholes = 0;
  for (int k = 0; k < 3; ++k)
    peepholes += op.has(kCellToInput + k);
  if (peepholes != 0 && peepholes != 3)
    return op.error() << "peepholes must be given for all of the input, "
                         "forget and output gates or none";
  if (peepholes) {
    Value pi = op.inFloat(kCellToInput), pf = op.inFloat(kCellToInput + 1),
          po = op.inFloat(kCellToInput + 2);
    if (!pi || !pf || !po)
      return failure();
    for (Value p : {pi, pf, po})
      if (e.typeOf(p).getShape() != ArrayRef<int64_t>{hidden})
        return op.error() << "a peephole is " << e.typeOf(p) << ", not ["
                          << hidden << "]";
    weights.peep = e.reshape(joinRows(op, {pi, po, pf}), {1, 3 * hidden});
  }
  Value h = op.inFloat(kOutputState), c = op.inFloat(kCellState);
  if (!h || !c)
    return failure();
  for (Value s : {h, c})
    if (e.typeOf(s).getNumElements() != batch * hidden)
      return op.error() << "a state is " << e.typeOf(s) << ", not ["
                        << batch << ", " << hidden << "]";
  h = e.reshape(h, {batch, hidden});
  c = e.reshape(c, {batch, hidden});

  RecurrentBuilder layer(e, Cell::LSTM, seq, batch, inputSize, hidden,
                         op.b.getF32Type());
  RecurrentActivation sigmoid{"Sigmoid", {}, {}};
  RecurrentActivation acts[3] = {sigmoid, *g, *g};
  Value y = layer.sequenceComposite(/*reverse=*/false, acts, weights, x, h, c);
  if (!timeMajor)
    y = e.transpose(y, {1, 0, 2});
  return op.defineFloat(0, y);
}

} // namespace

void mlir::nnapi::tflite_import::registerRecurrentOps(OpRegistry &registry) {
  registry.add({
      {tflite::BuiltinOperator_UNIDIRECTIONAL_SEQUENCE_LSTM, "", 1, 4,
       importSequenceLSTM,
       "the lstm composite: unrolled fully_connected, gates and peepholes "
       "per step (float; no CIFG, projection, layer norm or clip)",
       "UNIDIRECTIONAL_SEQUENCE_LSTM (4)", "-"},
  });
}
