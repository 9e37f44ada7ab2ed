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
#include <functional>
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

TEST(QuantizationRules, OperationColumnsOfTheTables) {
  // NNAPI's documentation: LOGISTIC and SOFTMAX give 1/256 with zero point 0
  // (-128 signed), TANH 1/128 with 128 (0 signed); other operations fix
  // nothing.
  auto logistic = fixedOutputQuantization("LOGISTIC", /*isSigned=*/true);
  ASSERT_TRUE(logistic);
  EXPECT_EQ(logistic->scale, 1.0f / 256);
  EXPECT_EQ(logistic->zeroPoint, -128);
  auto softmax = fixedOutputQuantization("SOFTMAX", /*isSigned=*/false);
  ASSERT_TRUE(softmax);
  EXPECT_EQ(softmax->zeroPoint, 0);
  auto tanh = fixedOutputQuantization("TANH", /*isSigned=*/false);
  ASSERT_TRUE(tanh);
  EXPECT_EQ(tanh->scale, 1.0f / 128);
  EXPECT_EQ(tanh->zeroPoint, 128);
  EXPECT_EQ(fixedOutputQuantization("TANH", true)->zeroPoint, 0);
  EXPECT_FALSE(fixedOutputQuantization("CONV_2D", true));
  // Moving or selecting values keeps the input's parameters; CONCATENATION
  // may requantize from level 3, arithmetic from level 1.
  EXPECT_EQ(requantizingLevel("RESHAPE"), 0u);
  EXPECT_EQ(requantizingLevel("MAX_POOL_2D"), 0u);
  EXPECT_EQ(requantizingLevel("AVERAGE_POOL_2D"), 0u);
  EXPECT_EQ(requantizingLevel("CONCATENATION"), 3u);
  EXPECT_EQ(requantizingLevel("CONV_2D"), 1u);
  EXPECT_EQ(requantizingLevel("ADD"), 1u);
  // The 8-bit data types are the two ASYMM ones.
  EXPECT_TRUE(isQuant8DataType(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM));
  EXPECT_TRUE(isQuant8DataType(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED));
  EXPECT_FALSE(isQuant8DataType(ANEURALNETWORKS_TENSOR_QUANT8_SYMM));
  EXPECT_FALSE(isQuant8DataType(kPerChannel));
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

/// float x [1, 1, 4, 1] -> QUANTIZE (scale 0.5) -> CONV_2D 1x1 with
/// two per-channel filters {1} (scale 0.5) and {-2} (scale 0.25), bias 0
/// -> (scale 1) -> DEQUANTIZE. `mutate` breaks one rule.
blob::Model quantizedConv(
    const std::function<void(blob::Model &, uint32_t filter, uint32_t bias,
                             uint32_t conv)> &mutate = {}) {
  blob::Model m;
  m.featureLevel = 4;
  constexpr int32_t kSigned = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
  uint32_t x = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 1, 4, 1},
                            blob::Lifetime::ModelInput);
  uint32_t xq = m.addOperand(kSigned, {1, 1, 4, 1});
  m.operands[xq].scale = 0.5f;
  int8_t w[2] = {1, -2};
  uint32_t filter = m.addConstant(kPerChannel, {2, 1, 1, 1}, w, sizeof(w));
  m.operands[filter].channelScales = {0.5f, 0.25f};
  int32_t b[2] = {0, 0};
  uint32_t bias =
      m.addConstant(ANEURALNETWORKS_TENSOR_INT32, {2}, b, sizeof(b));
  std::vector<uint32_t> scalars;
  for (int32_t v : {0, 0, 0, 0, 1, 1, 0})
    scalars.push_back(m.addInt32(v));
  uint32_t y = m.addOperand(kSigned, {1, 1, 4, 2});
  m.operands[y].scale = 1.0f;
  uint32_t out = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 1, 4, 2},
                              blob::Lifetime::ModelOutput);
  m.operations.push_back({ANEURALNETWORKS_QUANTIZE, {x}, {xq}});
  std::vector<uint32_t> convInputs = {xq, filter, bias};
  convInputs.insert(convInputs.end(), scalars.begin(), scalars.end());
  m.operations.push_back({ANEURALNETWORKS_CONV_2D, convInputs, {y}});
  m.operations.push_back({ANEURALNETWORKS_DEQUANTIZE, {y}, {out}});
  m.inputs = {x};
  m.outputs = {out};
  if (mutate)
    mutate(m, filter, bias, 1);
  return m;
}

/// Runs `m` on the host device; "" on success with `output` filled, else
/// the runtime's error.
std::string runQuantized(const blob::Model &m, float *output) {
  nnapi_rt_set_quiet(1);
  nnapi_rt_set_mode(NNAPI_RT_MODE_AUTO);
  nnapi_rt_set_library_path(NNAPI_HOST_LIBRARY);
  std::vector<uint8_t> blob = blob::write(m);
  float input[4] = {2, 4, 6, 8};
  void *ins[] = {input}, *outs[] = {output};
  int rc = nnapi_rt_execute(blob.data(), int64_t(blob.size()), 1, ins, 1,
                            outs);
  return rc == NNAPI_RT_OK ? "" : nnapi_rt_last_error();
}

TEST(QuantizedRuntime, RunsAnInt8ConvolutionOnTheHostDevice) {
  float output[8] = {};
  ASSERT_EQ(runQuantized(quantizedConv(), output), "");
  // x / 0.5 = 4, 8, 12, 16; channel 0: * 1 * (0.5 * 0.5 / 1) = 1, 2, 3, 4;
  // channel 1: * -2 * (0.5 * 0.25 / 1) = -1, -2, -3, -4 (no rounding).
  float expected[8] = {1, -1, 2, -2, 3, -3, 4, -4};
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(output[i], expected[i]) << i;
}

TEST(QuantizedRuntime, HostDeviceRefusesBrokenQuantizationRules) {
  float output[8];
  auto refused = [&](const std::string &error, const char *expected) {
    EXPECT_NE(error.find("BAD_DATA"), std::string::npos) << error;
    EXPECT_NE(error.find(expected), std::string::npos) << error;
  };
  refused(runQuantized(quantizedConv([](blob::Model &m, uint32_t, uint32_t b,
                                        uint32_t) {
            m.operands[b].scale = 0.25f;
          }),
                       output),
          "with per-channel filter scales the bias scale must be 0");
  refused(runQuantized(quantizedConv([](blob::Model &m, uint32_t f, uint32_t,
                                        uint32_t) {
            m.operands[f].channelDim = 3;
            m.operands[f].dims = {1, 1, 1, 2};
          }),
                       output),
          "per-channel filter scales must run along dimension 0, not 3");
  // A per-tensor filter whose bias scale is not input x filter scale.
  refused(runQuantized(quantizedConv([](blob::Model &m, uint32_t f, uint32_t b,
                                        uint32_t) {
            m.operands[f].type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
            m.operands[f].channelScales.clear();
            m.operands[f].scale = 0.5f;
            m.operands[b].scale = 0.3f;
          }),
                       output),
          "the bias scale must be input scale x filter scale");
  // An operation without an int8 kernel.
  refused(runQuantized(quantizedConv([](blob::Model &m, uint32_t, uint32_t,
                                        uint32_t) {
            uint32_t fuse = m.addInt32(0);
            uint32_t difference =
                m.addOperand(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED,
                             {1, 1, 4, 1});
            m.operands[difference].scale = 0.5f;
            m.operations.insert(
                m.operations.begin() + 1,
                {ANEURALNETWORKS_SUB, {1, 1, fuse}, {difference}});
          }),
                       output),
          "the host device has no kernel for TENSOR_QUANT8_ASYMM_SIGNED data "
          "of SUB");
  // A max pool whose output is quantized unlike its input.
  refused(runQuantized(quantizedConv([](blob::Model &m, uint32_t, uint32_t,
                                        uint32_t) {
            std::vector<uint32_t> in = {1};
            for (int32_t v : {0, 0, 0, 0, 1, 1, 1, 1, 0})
              in.push_back(m.addInt32(v));
            uint32_t pooled =
                m.addOperand(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED,
                             {1, 1, 4, 1});
            m.operands[pooled].scale = 0.25f;
            m.operations.insert(m.operations.begin() + 1,
                                {ANEURALNETWORKS_MAX_POOL_2D, in, {pooled}});
          }),
                       output),
          "MAX_POOL_2D keeps its input's scale and zero point (input "
          "0.500000, 0; output 0.250000, 0)");
  // LOGISTIC on int8 data with other output parameters than NNAPI's.
  refused(runQuantized(quantizedConv([](blob::Model &m, uint32_t, uint32_t,
                                        uint32_t) {
            uint32_t sigmoid =
                m.addOperand(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED,
                             {1, 1, 4, 1});
            m.operands[sigmoid].scale = 0.5f;
            m.operations.insert(m.operations.begin() + 1,
                                {ANEURALNETWORKS_LOGISTIC, {1}, {sigmoid}});
          }),
                       output),
          "LOGISTIC on TENSOR_QUANT8_ASYMM_SIGNED data needs output scale and "
          "zero point 0.003906, -128, got 0.500000, 0");
  // A zero point outside the type's range.
  refused(runQuantized(quantizedConv([](blob::Model &m, uint32_t, uint32_t,
                                        uint32_t) {
            m.operands[1].zeroPoint = 200;
          }),
                       output),
          "zero point in [-128, 127], got 200");
}

} // namespace

namespace {

/// int8 x [4] (zero point -3) -> ADD x + x (output zero point 4) -> y, and
/// y -> DEQUANTIZE -> float z, written for a level-3 driver: TENSOR_QUANT8_ASYMM
/// with zero points + 128, flagged int8AsUint8.
blob::Model int8AsUint8Model() {
  blob::Model m;
  m.featureLevel = 3;
  m.int8AsUint8 = true;
  constexpr int32_t kAsymm = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  uint32_t x = m.addOperand(kAsymm, {4}, blob::Lifetime::ModelInput);
  m.operands[x].scale = 0.5f;
  m.operands[x].zeroPoint = 125;
  uint32_t fuse = m.addInt32(0);
  uint32_t y = m.addOperand(kAsymm, {4}, blob::Lifetime::ModelOutput);
  m.operands[y].scale = 0.5f;
  m.operands[y].zeroPoint = 132;
  uint32_t z = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4},
                            blob::Lifetime::ModelOutput);
  m.operations.push_back({ANEURALNETWORKS_ADD, {x, x, fuse}, {y}});
  m.operations.push_back({ANEURALNETWORKS_DEQUANTIZE, {y}, {z}});
  m.inputs = {x};
  m.outputs = {y, z};
  return m;
}

} // namespace

TEST(QuantizedBlob, Int8AsUint8FlagRoundTripsAndNeedsVersion5) {
  std::vector<uint8_t> bytes = blob::write(int8AsUint8Model());
  blob::Model read;
  std::string error;
  ASSERT_TRUE(blob::read(bytes.data(), bytes.size(), read, error)) << error;
  EXPECT_TRUE(read.int8AsUint8);
  EXPECT_NE(blob::dump(read).find("feature_level 3 int8_as_uint8"),
            std::string::npos);
  // The flag in a version 4 blob, and an unknown flag.
  std::vector<uint8_t> old = bytes;
  uint32_t version = 4;
  std::memcpy(old.data() + 8, &version, 4);
  blob::sealChecksum(old.data(), old.size());
  EXPECT_FALSE(blob::read(old.data(), old.size(), read, error));
  EXPECT_EQ(error, "the int8-as-uint8 flag in a version 4 blob");
  std::vector<uint8_t> unknown = bytes;
  unknown[36] |= 4;
  blob::sealChecksum(unknown.data(), unknown.size());
  EXPECT_FALSE(blob::read(unknown.data(), unknown.size(), read, error));
  EXPECT_EQ(error, "unknown blob flags 6");
}

TEST(QuantizedRuntime, FlipsInt8InputsAndOutputsOfAUint8Model) {
  nnapi_rt_set_quiet(1);
  nnapi_rt_set_mode(NNAPI_RT_MODE_AUTO);
  nnapi_rt_set_library_path(NNAPI_HOST_LIBRARY);
  std::vector<uint8_t> blob = blob::write(int8AsUint8Model());
  // The caller's int8 data (zero point -3): -3, -1, 5, 100.
  int8_t x[4] = {-3, -1, 5, 100};
  const int8_t kept[4] = {-3, -1, 5, 100};
  int8_t y[4] = {};
  float z[4] = {};
  void *ins[] = {x}, *outs[] = {y, z};
  ASSERT_EQ(nnapi_rt_execute(blob.data(), int64_t(blob.size()), 1, ins, 2, outs),
            NNAPI_RT_OK)
      << nnapi_rt_last_error();
  // Real x = (q + 3) * 0.5: 0, 1, 4, 51.5; 2x = 0, 2, 8, 103 -> q = 2x / 0.5
  // + 4 in int8: 4, 8, 20, 127 (saturated); DEQUANTIZE reads the model's
  // uint8 (zero point 132), the same reals.
  const int8_t wantY[4] = {4, 8, 20, 127};
  const float wantZ[4] = {0, 2, 8, 61.5f};
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(y[i], wantY[i]) << i;
    EXPECT_FLOAT_EQ(z[i], wantZ[i]) << i;
    EXPECT_EQ(x[i], kept[i]) << "the caller's input changed at " << i;
  }
}
