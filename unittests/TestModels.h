//===- TestModels.h - Small blob models shared by the unit tests ----------===//
#ifndef NNAPI_MLIR_UNITTESTS_TESTMODELS_H
#define NNAPI_MLIR_UNITTESTS_TESTMODELS_H

#include "nnapi-mlir/NNAPI/BlobFormat.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"

namespace nnapi_mlir::test_models {
/// out = relu(a + bias) with a [2, 3] input and a constant [3] bias
/// {1, -2, 0.5}.
inline blob::Model addBiasReluModel(float firstBias = 1.0f) {
  blob::Model m;
  uint32_t a = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {2, 3},
                            blob::Lifetime::ModelInput);
  float bias[3] = {firstBias, -2.0f, 0.5f};
  uint32_t b = m.addConstant(ANEURALNETWORKS_TENSOR_FLOAT32, {3}, bias,
                             sizeof(bias));
  uint32_t fuse = m.addInt32(ANEURALNETWORKS_FUSED_RELU);
  uint32_t out = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {2, 3},
                              blob::Lifetime::ModelOutput);
  m.operations.push_back({ANEURALNETWORKS_ADD, {a, b, fuse}, {out}});
  m.inputs = {a};
  m.outputs = {out};
  return m;
}
} // namespace nnapi_mlir::test_models

#endif
