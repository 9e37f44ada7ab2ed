//===- ModelApi.cpp - NNAPI's model-building functions on the host --------===//
//
// ANeuralNetworksModel_*: operands, their values (copied when small, as
// NNAPI does, or referenced), per-channel quantization, referenced models,
// operations, inputs and outputs, then finish, which validates the model
// operation by operation (Validation.cpp). HostNNAPI.cpp compiles and runs
// the finished model.
//
//===----------------------------------------------------------------------===//

#include "CApi.h"
#include "Devices.h"
#include "HostModel.h"

#include "nnapi-mlir/NNAPI/Operations.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <string>
#include <vector>

using namespace nnapi_mlir::host;

int ANeuralNetworksModel_create(ANeuralNetworksModel **model) {
  return guarded(__func__, [&]() -> int {
    if (!model)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "model is null");
    if (std::string error = currentDevices().error; !error.empty())
      return fail(ANEURALNETWORKS_BAD_STATE, error);
    *model = new (std::nothrow) ANeuralNetworksModel();
    return *model ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
  });
}

void ANeuralNetworksModel_free(ANeuralNetworksModel *model) { delete model; }

int ANeuralNetworksModel_addOperand(ANeuralNetworksModel *model,
                                    const ANeuralNetworksOperandType *type) {
  return guarded(__func__, [&]() -> int {
    if (!model || !type)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    if (model->finished)
      return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
    if (elementBytes(type->type) == 0 && type->type != ANEURALNETWORKS_MODEL)
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "operand type " + std::to_string(type->type) +
                      " is not supported by the host implementation");
    if (isScalar(type->type) && type->dimensionCount != 0)
      return fail(ANEURALNETWORKS_BAD_DATA, "scalar operand with dimensions");
    if (std::string why =
            nnapi_mlir::quantizationError(type->type, type->scale,
                                          type->zeroPoint);
        !why.empty())
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "operand " + std::to_string(model->operands.size()) + ": " +
                      why);
    if (type->dimensionCount && !type->dimensions)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "dimensions are null");
    uint64_t elements = 1;
    for (uint32_t i = 0; i < type->dimensionCount; ++i) {
      elements *= std::max<uint32_t>(type->dimensions[i], 1);
      if (elements > (uint64_t(1) << 32))
        return fail(ANEURALNETWORKS_BAD_DATA,
                    "operand has more than 2^32 elements");
    }
    Operand op;
    op.type = type->type;
    op.dims.assign(type->dimensions, type->dimensions + type->dimensionCount);
    op.scale = type->scale;
    op.zeroPoint = type->zeroPoint;
    model->operands.push_back(std::move(op));
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksModel_setOperandValue(ANeuralNetworksModel *model,
                                         int32_t index, const void *buffer,
                                         size_t length) {
  return guarded(__func__, [&]() -> int {
    if (!model || (!buffer && length))
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    if (model->finished)
      return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
    if (index < 0 || size_t(index) >= model->operands.size())
      return fail(ANEURALNETWORKS_BAD_DATA, "operand index out of range");
    Operand &op = model->operands[index];
    if (op.kind == Kind::Input || op.kind == Kind::Output)
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "operand " + std::to_string(index) +
                      " is a model input or output and cannot have a value");
    if (op.type == ANEURALNETWORKS_MODEL)
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "operand " + std::to_string(index) +
                      " is a MODEL: its value is set with "
                      "ANeuralNetworksModel_setOperandValueFromModel");
    if (!buffer) {
      // NNAPI's way of leaving an optional operand out.
      op.copy.clear();
      op.value = nullptr;
      op.kind = Kind::Omitted;
      return ANEURALNETWORKS_NO_ERROR;
    }
    if (length != operandBytes(op))
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "value of operand " + std::to_string(index) + " has " +
                      std::to_string(length) + " bytes, its type needs " +
                      std::to_string(operandBytes(op)));
    const auto *bytes = static_cast<const uint8_t *>(buffer);
    if (length <= ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES) {
      op.copy.assign(bytes, bytes + length);
      op.value = op.copy.data();
    } else {
      op.copy.clear();
      op.value = bytes; // the caller keeps it alive, as NNAPI specifies
    }
    op.kind = Kind::Constant;
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(
    ANeuralNetworksModel *model, int32_t index,
    const ANeuralNetworksSymmPerChannelQuantParams *params) {
  return guarded(__func__, [&]() -> int {
    if (!model || !params || (params->scaleCount && !params->scales))
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    if (model->finished)
      return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
    if (index < 0 || size_t(index) >= model->operands.size())
      return fail(ANEURALNETWORKS_BAD_DATA, "operand index out of range");
    Operand &op = model->operands[index];
    std::string where = "operand " + std::to_string(index) + ": ";
    if (op.type != ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL)
      return fail(ANEURALNETWORKS_BAD_DATA,
                  where + "per-channel scales for a " +
                      nnapi_mlir::operandTypeName(op.type) + " operand");
    if (params->channelDim >= op.dims.size())
      return fail(ANEURALNETWORKS_BAD_DATA,
                  where + "channel dimension " +
                      std::to_string(params->channelDim) + " of a rank-" +
                      std::to_string(op.dims.size()) + " operand");
    if (params->scaleCount != op.dims[params->channelDim])
      return fail(ANEURALNETWORKS_BAD_DATA,
                  where + std::to_string(params->scaleCount) +
                      " scales for dimension " +
                      std::to_string(params->channelDim) + " of size " +
                      std::to_string(op.dims[params->channelDim]));
    for (uint32_t k = 0; k < params->scaleCount; ++k)
      if (!(params->scales[k] > 0) || !std::isfinite(params->scales[k]))
        return fail(ANEURALNETWORKS_BAD_DATA,
                    where + "scale " + std::to_string(k) +
                        " is not a positive finite number");
    op.channelDim = params->channelDim;
    op.channelScales.assign(params->scales, params->scales + params->scaleCount);
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksModel_setOperandValueFromModel(
    ANeuralNetworksModel *model, int32_t index,
    const ANeuralNetworksModel *value) {
  return guarded(__func__, [&]() -> int {
    if (!model || !value)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    if (model->finished)
      return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
    if (!value->finished)
      return fail(ANEURALNETWORKS_BAD_STATE,
                  "the referenced model is not finished");
    if (value == model)
      return fail(ANEURALNETWORKS_BAD_DATA, "a model cannot reference itself");
    if (index < 0 || size_t(index) >= model->operands.size())
      return fail(ANEURALNETWORKS_BAD_DATA, "operand index out of range");
    Operand &op = model->operands[index];
    if (op.type != ANEURALNETWORKS_MODEL)
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "operand " + std::to_string(index) + " is not a MODEL");
    if (op.kind != Kind::Temporary && op.kind != Kind::Model)
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "operand " + std::to_string(index) +
                      " is a model input or output");
    op.kind = Kind::Model;
    op.model = value;
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksModel_addOperation(ANeuralNetworksModel *model,
                                      int32_t type, uint32_t inputCount,
                                      const uint32_t *inputs,
                                      uint32_t outputCount,
                                      const uint32_t *outputs) {
  return guarded(__func__, [&]() -> int {
    if (!model || (inputCount && !inputs) || (outputCount && !outputs))
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    if (model->finished)
      return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
    if (outputCount == 0)
      return fail(ANEURALNETWORKS_BAD_DATA, "operation without outputs");
    Operation op;
    op.opcode = type;
    op.inputs.assign(inputs, inputs + inputCount);
    op.outputs.assign(outputs, outputs + outputCount);
    for (uint32_t idx : op.inputs)
      if (idx >= model->operands.size())
        return fail(ANEURALNETWORKS_BAD_DATA, "input operand out of range");
    for (uint32_t idx : op.outputs)
      if (idx >= model->operands.size())
        return fail(ANEURALNETWORKS_BAD_DATA, "output operand out of range");
    model->operations.push_back(std::move(op));
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksModel_identifyInputsAndOutputs(ANeuralNetworksModel *model,
                                                  uint32_t inputCount,
                                                  const uint32_t *inputs,
                                                  uint32_t outputCount,
                                                  const uint32_t *outputs) {
  return guarded(__func__, [&]() -> int {
    if (!model || (inputCount && !inputs) || (outputCount && !outputs))
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    if (model->finished)
      return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
    for (uint32_t i = 0; i < inputCount + outputCount; ++i) {
      uint32_t idx = i < inputCount ? inputs[i] : outputs[i - inputCount];
      if (idx >= model->operands.size())
        return fail(ANEURALNETWORKS_BAD_DATA, "operand index out of range");
      Operand &op = model->operands[idx];
      if (op.kind != Kind::Temporary)
        return fail(ANEURALNETWORKS_BAD_DATA,
                    "operand " + std::to_string(idx) +
                        " is already a constant, an omitted operand, an input "
                        "or an output");
      if (!isFloatTensor(op.type) && op.type != ANEURALNETWORKS_TENSOR_BOOL8 &&
          op.type != ANEURALNETWORKS_TENSOR_INT32 && !nnapi_mlir::isQuant8DataType(op.type))
        return fail(ANEURALNETWORKS_BAD_DATA,
                    "model inputs and outputs must be float, int32, bool or "
                    "8-bit quantized tensors here");
      op.kind = i < inputCount ? Kind::Input : Kind::Output;
    }
    model->inputs.assign(inputs, inputs + inputCount);
    model->outputs.assign(outputs, outputs + outputCount);
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksModel_relaxComputationFloat32toFloat16(
    ANeuralNetworksModel *model, bool allow) {
  return guarded(__func__, [&]() -> int {
    if (!model)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "model is null");
    if (model->finished)
      return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
    model->relaxed = allow; // float32 stays exact on the host: allowed, unused
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksModel_finish(ANeuralNetworksModel *model) {
  return guarded(__func__, [&]() -> int {
    if (!model)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "model is null");
    if (model->finished)
      return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
    if (int rc = validateModel(*model))
      return rc;
    model->finished = true;
    return ANEURALNETWORKS_NO_ERROR;
  });
}

/// The devices of `list` (all known ones), or an error code with fail().
