//===- QuantizedSteps.cpp - Steps on 8-bit quantized data -----------------===//
//
// The host device's steps for operations on TENSOR_QUANT8_ASYMM(_SIGNED)
// data: the reference kernels of QuantizedKernels.h, with the fixed-point
// multipliers computed once from the operands' scales. Validation allows
// quantized data only for the operations hasQuantizedKernel names.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"
#include "OpKinds.h"

#include "nnapi-mlir/HostDevice/BlockedKernels.h"
#include "nnapi-mlir/HostDevice/Kernels.h"
#include "nnapi-mlir/HostDevice/QuantizedKernels.h"

#include <cstring>

namespace nnapi_mlir::host {

bool hasQuantizedKernel(int32_t opcode) {
  switch (opcode) {
  case ANEURALNETWORKS_CONV_2D: case ANEURALNETWORKS_DEPTHWISE_CONV_2D:
  case ANEURALNETWORKS_FULLY_CONNECTED: case ANEURALNETWORKS_QUANTIZE:
  case ANEURALNETWORKS_DEQUANTIZE: case ANEURALNETWORKS_ADD:
  case ANEURALNETWORKS_MAX_POOL_2D: case ANEURALNETWORKS_AVERAGE_POOL_2D:
  case ANEURALNETWORKS_RESHAPE:
  case ANEURALNETWORKS_TRANSPOSE:
  case ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR:
  case ANEURALNETWORKS_CONCATENATION:
  case ANEURALNETWORKS_MUL: case ANEURALNETWORKS_LOGISTIC:
  case ANEURALNETWORKS_TANH: case ANEURALNETWORKS_HARD_SWISH:
  case ANEURALNETWORKS_SOFTMAX:
    return true;
  default:
    return false;
  }
}

namespace {

bool isSignedType(int32_t t) {
  return t == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED ||
         t == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL;
}

class QuantizedStep : public Step {
public:
  QuantizedStep(const HostModel &m, const Operation &op, const OpParams &p,
                const spec::Match &layout)
      : opcode(op.opcode), params(p), inputs(op.inputs),
        output(op.outputs[0]) {
    auto operand = [&](RoleName name) {
      int at = layout.input(name);
      return at < 0 ? uint32_t(-1) : op.inputs[size_t(at)];
    };
    const Operand &in = m.operands[op.inputs[0]];
    const Operand &out = m.operands[output];
    inShape = in.dims;
    outShape = out.dims;
    inType = in.type;
    inZero = in.zeroPoint;
    inScale = in.scale;
    outType = out.type;
    outZero = out.zeroPoint;
    outScale = out.scale;
    if (opcode == ANEURALNETWORKS_QUANTIZE ||
        opcode == ANEURALNETWORKS_DEQUANTIZE ||
        opcode == ANEURALNETWORKS_MAX_POOL_2D ||
        opcode == ANEURALNETWORKS_AVERAGE_POOL_2D ||
        opcode == ANEURALNETWORKS_RESHAPE ||
        opcode == ANEURALNETWORKS_TRANSPOSE ||
        opcode == ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR)
      return;
    if (opcode == ANEURALNETWORKS_LOGISTIC || opcode == ANEURALNETWORKS_TANH ||
        opcode == ANEURALNETWORKS_HARD_SWISH ||
        opcode == ANEURALNETWORKS_SOFTMAX) {
      scratch.resize(2 * numElements(inShape));
      return;
    }
    if (opcode == ANEURALNETWORKS_CONCATENATION) {
      size_t first = size_t(layout.input(role::input));
      for (size_t k = first; k < first + layout.inputCount(role::input); ++k) {
        const Operand &o = m.operands[op.inputs[k]];
        pieces.push_back(op.inputs[k]);
        pieceShapes.push_back(o.dims);
        pieceScales.push_back(o.scale);
        pieceZeros.push_back(o.zeroPoint);
        pieceSigned.push_back(isSignedType(o.type));
      }
      return;
    }
    if (opcode == ANEURALNETWORKS_ADD || opcode == ANEURALNETWORKS_MUL) {
      secondInput = operand(role::input1);
      const Operand &second = m.operands[secondInput];
      secondShape = second.dims;
      secondType = second.type;
      secondZero = second.zeroPoint;
      secondScale = second.scale;
      return;
    }
    filter = operand(spec::weightsRole(opcode)->name);
    bias = operand(role::bias);
    const Operand &f = m.operands[filter];
    filterShape = f.dims;
    filterType = f.type;
    filterZero = f.zeroPoint;
    // NNAPI's real multiplier, in double from the float scales.
    if (f.type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL)
      for (float s : f.channelScales)
        multipliers.push_back(quantizeMultiplier(
            double(in.scale) * double(s) / double(out.scale)));
    else
      multipliers.push_back(quantizeMultiplier(
          double(in.scale) * double(f.scale) / double(out.scale)));
  }

  const char *backend() const override { return "reference"; }

  int run(const Bindings &b) override {
    auto bytes = [&](uint32_t operand) {
      return reinterpret_cast<const uint8_t *>(b[operand]);
    };
    Quant8 in{bytes(inputs[0]), isSignedType(inType), inZero};
    Quant8Out out{reinterpret_cast<uint8_t *>(b[output]), isSignedType(outType),
                  outZero, outScale};
    switch (opcode) {
    case ANEURALNETWORKS_QUANTIZE:
      quantize(b[inputs[0]], out, numElements(outShape));
      return ANEURALNETWORKS_NO_ERROR;
    case ANEURALNETWORKS_DEQUANTIZE:
      dequantize(in, inScale, b[output], numElements(outShape));
      return ANEURALNETWORKS_NO_ERROR;
    case ANEURALNETWORKS_MAX_POOL_2D:
    case ANEURALNETWORKS_AVERAGE_POOL_2D:
      quantizedPool2d(in, inShape, out, outShape, params.window,
                      params.filterW, params.filterH,
                      opcode == ANEURALNETWORKS_AVERAGE_POOL_2D);
      return ANEURALNETWORKS_NO_ERROR;
    case ANEURALNETWORKS_RESHAPE:
      if (out.data != in.data)
        std::memcpy(out.data, in.data, numElements(outShape));
      return ANEURALNETWORKS_NO_ERROR;
    case ANEURALNETWORKS_TRANSPOSE:
      blocked::transpose(in.data, inShape, params.indices, out.data);
      return ANEURALNETWORKS_NO_ERROR;
    case ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR:
      resizeNearest(in.data, inShape, out.data, outShape, params.resize);
      return ANEURALNETWORKS_NO_ERROR;
    case ANEURALNETWORKS_CONCATENATION: {
      std::vector<Quant8> ins;
      for (size_t k = 0; k < pieces.size(); ++k)
        ins.push_back({bytes(pieces[k]), pieceSigned[k], pieceZeros[k]});
      quantizedConcatenation(ins, pieceScales, pieceShapes, params.axis, out);
      return ANEURALNETWORKS_NO_ERROR;
    }
    case ANEURALNETWORKS_ADD:
    case ANEURALNETWORKS_MUL:
      (opcode == ANEURALNETWORKS_ADD ? quantizedAdd : quantizedMul)(
          in, inShape, inScale,
          Quant8{bytes(secondInput), isSignedType(secondType), secondZero},
          secondShape, secondScale, out, outShape, params.fuseCode);
      return ANEURALNETWORKS_NO_ERROR;
    case ANEURALNETWORKS_LOGISTIC:
    case ANEURALNETWORKS_TANH:
    case ANEURALNETWORKS_HARD_SWISH:
    case ANEURALNETWORKS_SOFTMAX: {
      // The float function of the dequantized input, quantized (NNAPI's
      // CPU path uses fixed-point tables; this is within one step).
      size_t n = scratch.size() / 2;
      float *x = scratch.data(), *y = x + n;
      dequantize(in, inScale, x, n);
      if (opcode == ANEURALNETWORKS_SOFTMAX)
        softmax(x, inShape, params.beta, params.axis, y);
      else
        unary(*unaryKindOf(opcode), x, y, n);
      quantize(y, out, n);
      return ANEURALNETWORKS_NO_ERROR;
    }
    default:
      break;
    }
    Quant8 f{bytes(filter), isSignedType(filterType), filterZero};
    const int32_t *biasData =
        bias == uint32_t(-1) ? nullptr
                             : reinterpret_cast<const int32_t *>(b[bias]);
    if (opcode == ANEURALNETWORKS_FULLY_CONNECTED) {
      quantizedFullyConnected(in, f, filterShape, biasData, out, params.batch,
                              multipliers[0], params.fuseCode);
      return ANEURALNETWORKS_NO_ERROR;
    }
    quantizedConv2d(in, inShape, f, filterShape, biasData, out, outShape,
                    params.window, multipliers,
                    opcode == ANEURALNETWORKS_DEPTHWISE_CONV_2D
                        ? params.depthMultiplier
                        : 0);
    return ANEURALNETWORKS_NO_ERROR;
  }

private:
  int32_t opcode;
  OpParams params;
  std::vector<uint32_t> inputs;
  uint32_t output, filter = uint32_t(-1), bias = uint32_t(-1);
  Shape inShape, outShape, filterShape, secondShape;
  int32_t inType = 0, outType = 0, filterType = 0, secondType = 0;
  uint32_t secondInput = 0; ///< ADD and MUL: input1.
  int32_t inZero = 0, outZero = 0, filterZero = 0, secondZero = 0;
  float inScale = 0, outScale = 0, secondScale = 0;
  std::vector<FixedPointMultiplier> multipliers;
  /// The float operations' dequantized input and their float output.
  std::vector<float> scratch;
  // CONCATENATION's inputs.
  std::vector<uint32_t> pieces;
  std::vector<Shape> pieceShapes;
  std::vector<float> pieceScales;
  std::vector<int32_t> pieceZeros;
  std::vector<bool> pieceSigned;
};

} // namespace

std::unique_ptr<Step> createQuantizedStep(const HostModel &model,
                                          size_t index) {
  const Operation &op = model.operations[index];
  bool quantized = op.opcode == ANEURALNETWORKS_QUANTIZE ||
                   op.opcode == ANEURALNETWORKS_DEQUANTIZE ||
                   isQuant8DataType(model.layouts[index].dataType);
  if (!quantized || !hasQuantizedKernel(op.opcode))
    return nullptr;
  return std::make_unique<QuantizedStep>(model, op, model.params[index],
                                         model.layouts[index]);
}

} // namespace nnapi_mlir::host
