//===- BuildModel.cpp - A parsed blob becomes an NNAPI model --------------===//

#include "Internal.h"

#include "nnapi-mlir/NNAPI/BlobFormat.h"

#include <string>
#include <vector>

using namespace nnapi_mlir;
using namespace nnapi_mlir::runtime;

int32_t nnapi_mlir::runtime::buildModel(
    const NNAPIFunctionTable &fn, const blob::Model &m,
    ANeuralNetworksModel *&out,
    std::vector<ANeuralNetworksModel *> &referenced) {
  std::vector<ANeuralNetworksModel *> subgraphs;
  for (const blob::Model &sub : m.subgraphs) {
    ANeuralNetworksModel *built = nullptr;
    int32_t status = buildModel(fn, sub, built, referenced);
    if (built)
      referenced.push_back(built);
    if (status)
      return status;
    subgraphs.push_back(built);
  }
  if (!m.subgraphs.empty() && !fn.ANeuralNetworksModel_setOperandValueFromModel)
    return failWith(NNAPI_RT_NNAPI_ERROR,
                    "this NNAPI library has no "
                    "ANeuralNetworksModel_setOperandValueFromModel (feature "
                    "level 4), which the partition's IF or WHILE needs");
  int rc = fn.ANeuralNetworksModel_create(&out);
  if (rc != ANEURALNETWORKS_NO_ERROR)
    return failWith(NNAPI_RT_NNAPI_ERROR,
                    describeCall(fn, "ANeuralNetworksModel_create", rc));
  for (size_t i = 0; i < m.operands.size(); ++i) {
    const blob::Operand &op = m.operands[i];
    ANeuralNetworksOperandType type;
    type.type = op.type;
    type.dimensionCount = static_cast<uint32_t>(op.dims.size());
    type.dimensions = op.dims.empty() ? nullptr : op.dims.data();
    type.scale = op.scale;
    type.zeroPoint = op.zeroPoint;
    rc = fn.ANeuralNetworksModel_addOperand(out, &type);
    if (rc != ANEURALNETWORKS_NO_ERROR)
      return failWith(NNAPI_RT_NNAPI_ERROR,
                      describeCall(fn, "ANeuralNetworksModel_addOperand", rc) +
                          " for operand " + std::to_string(i));
    if (!op.channelScales.empty()) {
      if (!fn.ANeuralNetworksModel_setOperandSymmPerChannelQuantParams)
        return failWith(
            NNAPI_RT_NNAPI_ERROR,
            "this NNAPI library has no "
            "ANeuralNetworksModel_setOperandSymmPerChannelQuantParams "
            "(feature level 3), which operand " +
                std::to_string(i) + " needs");
      ANeuralNetworksSymmPerChannelQuantParams params;
      params.channelDim = op.channelDim;
      params.scaleCount = static_cast<uint32_t>(op.channelScales.size());
      params.scales = op.channelScales.data();
      rc = fn.ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(
          out, static_cast<int32_t>(i), &params);
      if (rc != ANEURALNETWORKS_NO_ERROR)
        return failWith(
            NNAPI_RT_NNAPI_ERROR,
            describeCall(
                fn, "ANeuralNetworksModel_setOperandSymmPerChannelQuantParams",
                rc) +
                " for operand " + std::to_string(i));
    }
    if (op.lifetime == blob::Lifetime::Subgraph) {
      rc = fn.ANeuralNetworksModel_setOperandValueFromModel(
          out, static_cast<int32_t>(i), subgraphs[op.subgraph]);
      if (rc != ANEURALNETWORKS_NO_ERROR)
        return failWith(
            NNAPI_RT_NNAPI_ERROR,
            describeCall(fn, "ANeuralNetworksModel_setOperandValueFromModel",
                         rc) +
                " for operand " + std::to_string(i));
    }
    // A constant has its value; an optional operand given without one is
    // told so by a null buffer.
    if (op.lifetime == blob::Lifetime::Constant ||
        op.lifetime == blob::Lifetime::NoValue) {
      bool given = op.lifetime == blob::Lifetime::Constant;
      rc = fn.ANeuralNetworksModel_setOperandValue(
          out, static_cast<int32_t>(i),
          given ? m.data.data() + op.valueOffset : nullptr,
          given ? op.valueLength : 0);
      if (rc != ANEURALNETWORKS_NO_ERROR)
        return failWith(
            NNAPI_RT_NNAPI_ERROR,
            describeCall(fn, "ANeuralNetworksModel_setOperandValue", rc) +
                " for operand " + std::to_string(i));
    }
  }
  for (size_t i = 0; i < m.operations.size(); ++i) {
    const blob::Operation &op = m.operations[i];
    rc = fn.ANeuralNetworksModel_addOperation(
        out, op.opcode, static_cast<uint32_t>(op.inputs.size()),
        op.inputs.data(), static_cast<uint32_t>(op.outputs.size()),
        op.outputs.data());
    if (rc != ANEURALNETWORKS_NO_ERROR) {
      const char *name = nnapi_mlir::operationName(op.opcode);
      return failWith(
          NNAPI_RT_NNAPI_ERROR,
          describeCall(fn, "ANeuralNetworksModel_addOperation", rc) +
              " for operation " + std::to_string(i) + " (" +
              (name ? name : std::to_string(op.opcode)) + ")");
    }
  }
  rc = fn.ANeuralNetworksModel_identifyInputsAndOutputs(
      out, static_cast<uint32_t>(m.inputs.size()), m.inputs.data(),
      static_cast<uint32_t>(m.outputs.size()), m.outputs.data());
  if (rc != ANEURALNETWORKS_NO_ERROR)
    return failWith(
        NNAPI_RT_NNAPI_ERROR,
        describeCall(fn, "ANeuralNetworksModel_identifyInputsAndOutputs", rc));
  if (m.relaxFloat32ToFloat16) {
    rc = fn.ANeuralNetworksModel_relaxComputationFloat32toFloat16(out, true);
    if (rc != ANEURALNETWORKS_NO_ERROR)
      return failWith(
          NNAPI_RT_NNAPI_ERROR,
          describeCall(
              fn, "ANeuralNetworksModel_relaxComputationFloat32toFloat16", rc));
  }
  rc = fn.ANeuralNetworksModel_finish(out);
  if (rc != ANEURALNETWORKS_NO_ERROR)
    return failWith(NNAPI_RT_NNAPI_ERROR,
                    describeCall(fn, "ANeuralNetworksModel_finish", rc));
  return NNAPI_RT_OK;
}
