//===- QuantizedOperandsTest.cpp - Quantized operand types: rules, blob ---===//
//
// NNAPI's scale and zero-point rules (Operations.h), per-channel
// quantization in blob format 4, and the runtime passing the scales to the
// host device (whose C API checks are in HostNNAPITest.cpp).
//
//===----------------------------------------------------------------------===//

#include "TestModels.h"
#include "nnapi-mlir/NNAPI/BlobFormat.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"
#include "nnapi-mlir/NNAPI/Operations.h"
#include "nnapi-mlir/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

using namespace nnapi_mlir;

namespace {

constexpr int32_t kPerChannel = ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL;

TEST(QuantizationRules, FollowNNAPIsRanges) {
  EXPECT_EQ(quantizationError(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 0.5f, 255),
            "");
  EXPECT_EQ(quantizationError(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 0.5f, 256),
            "TENSOR_QUANT8_ASYMM needs a zero point in [0, 255], got 256");
  EXPECT_EQ(
      quantizationError(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 1, -128), "");
  EXPECT_EQ(
      quantizationError(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, 1, 128),
      "TENSOR_QUANT8_ASYMM_SIGNED needs a zero point in [-128, 127], got 128");
  EXPECT_EQ(quantizationError(ANEURALNETWORKS_TENSOR_QUANT8_SYMM, 1, 1),
            "TENSOR_QUANT8_SYMM needs a zero point in [0, 0], got 1");
  EXPECT_EQ(quantizationError(ANEURALNETWORKS_TENSOR_QUANT16_ASYMM, 1, 65535),
            "");
  EXPECT_EQ(quantizationError(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, 0, 0),
            "TENSOR_QUANT8_ASYMM needs a positive finite scale, got 0.000000");
  EXPECT_NE(quantizationError(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, NAN, 0), "");
  EXPECT_NE(quantizationError(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, INFINITY, 0),
            "");
  EXPECT_EQ(quantizationError(kPerChannel, 0.5f, 0),
            "TENSOR_QUANT8_SYMM_PER_CHANNEL takes per-channel scales: its "
            "scale and zero point must be 0");
  // Float and int32 operands carry no quantization here.
  EXPECT_EQ(quantizationError(ANEURALNETWORKS_TENSOR_FLOAT32, 0, 0), "");
  EXPECT_EQ(quantizationError(ANEURALNETWORKS_TENSOR_INT32, 0.25f, 0), "");
}

/// relu(a + bias) (TestModels.h) with an unused per-channel constant
/// [3, 2] quantized along dimension 0.
blob::Model withPerChannelConstant() {
  blob::Model m = test_models::addBiasReluModel();
  int8_t values[6] = {1, -2, 3, -4, 5, -6};
  uint32_t idx = m.addConstant(kPerChannel, {3, 2}, values, sizeof(values));
  m.operands[idx].channelDim = 0;
  m.operands[idx].channelScales = {0.5f, 0.25f, 2.0f};
  return m;
}

TEST(QuantizedBlob, PerChannelScalesRoundTrip) {
  std::vector<uint8_t> bytes = blob::write(withPerChannelConstant());
  blob::Model read;
  std::string error;
  ASSERT_TRUE(blob::read(bytes.data(), bytes.size(), read, error)) << error;
  const blob::Operand &op = read.operands.back();
  EXPECT_EQ(op.type, kPerChannel);
  EXPECT_EQ(op.channelDim, 0u);
  EXPECT_EQ(op.zeroPoint, 0);
  EXPECT_EQ(op.channelScales, (std::vector<float>{0.5f, 0.25f, 2.0f}));
  EXPECT_EQ(blob::write(read), bytes);
  EXPECT_NE(blob::dump(read).find("TENSOR_QUANT8_SYMM_PER_CHANNEL [3,2] "
                                  "scales(dim 0: 0.5 0.25 2)"),
            std::string::npos)
      << blob::dump(read);
}

TEST(QuantizedBlob, ReaderRefusesBadPerChannelParameters) {
  blob::Model read;
  std::string error;
  auto refuse = [&](const blob::Model &m, uint32_t version = 0) {
    std::vector<uint8_t> bytes = blob::write(m);
    if (version) {
      std::memcpy(bytes.data() + 8, &version, 4);
      blob::sealChecksum(bytes.data(), bytes.size());
    }
    EXPECT_FALSE(blob::read(bytes.data(), bytes.size(), read, error));
    return error;
  };
  blob::Model m = withPerChannelConstant();
  EXPECT_EQ(refuse(m, 3),
            "operand 4: per-channel quantization in a version 3 blob");
  m = withPerChannelConstant();
  m.operands.back().channelDim = 2;
  EXPECT_EQ(refuse(m), "operand 4: per-channel quantization along dimension "
                       "2 of a rank-2 operand (its scale field must be 0)");
  m = withPerChannelConstant();
  m.operands.back().channelScales[1] = NAN;
  EXPECT_EQ(refuse(m),
            "operand 4: channel scale 1 is not a positive finite number");
  m = withPerChannelConstant();
  m.operands.back().scale = 1.0f;
  EXPECT_NE(refuse(m).find("its scale field must be 0"), std::string::npos);
}

TEST(QuantizedRuntime, PassesPerChannelScalesToTheDevice) {
  nnapi_rt_set_quiet(1);
  nnapi_rt_set_mode(NNAPI_RT_MODE_AUTO);
  nnapi_rt_set_library_path(NNAPI_HOST_LIBRARY);
  std::vector<uint8_t> blob = blob::write(withPerChannelConstant());
  float input[6] = {0, 1, 2, -3, 4, -5}, output[6] = {};
  void *ins[] = {input}, *outs[] = {output};
  ASSERT_EQ(nnapi_rt_execute(blob.data(), int64_t(blob.size()), 1, ins, 1, outs),
            NNAPI_RT_OK)
      << nnapi_rt_last_error();
  // relu(a + {1, -2, 0.5}): the model still computes.
  float expected[6] = {1, 0, 2.5f, 0, 2, 0};
  for (int i = 0; i < 6; ++i)
    EXPECT_FLOAT_EQ(output[i], expected[i]) << i;
}

} // namespace
