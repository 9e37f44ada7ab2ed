//===- VerifyTest.cpp - Checks against the host copy, quirks records ------===//
//
// The runtime's comparisons through its C API (nnapi_rt_execute_checked,
// nnapi_rt_verify): the test plays the compiled model's host copy and hands
// back outputs it computed itself, exact or off by a known amount, and
// checks what the runtime concludes; the tolerance per type is
// docs/validation.md's. Then the quirks record's format and the operation
// signatures it keys on.
//
//===----------------------------------------------------------------------===//

#include "TestModels.h"
#include "nnapi-mlir/NNAPI/DeviceProfile.h"
#include "nnapi-mlir/NNAPI/Quirks.h"
#include "nnapi-mlir/Runtime/NNAPILoader.h"
#include "nnapi-mlir/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace nnapi_mlir;

namespace {

class Verify : public ::testing::Test {
protected:
  void SetUp() override {
    nnapi_rt_set_quiet(1);
    nnapi_rt_set_mode(NNAPI_RT_MODE_AUTO);
    nnapi_rt_set_library_path(NNAPI_HOST_LIBRARY);
    ASSERT_EQ(nnapi_rt_set_option("validate", "1"), NNAPI_RT_OK);
  }
  void TearDown() override {
    nnapi_rt_set_option("validate", nullptr);
    nnapi_rt_set_option("verify", nullptr);
    nnapi_rt_set_option("max_failures", nullptr);
    setNNAPIFunctionTableForTesting(nullptr);
  }

  /// Runs `blob` through the checked entry, then hands `hostOutput` (what
  /// the host copy computed) to nnapi_rt_verify; the check info after.
  nnapi_rt_check_info check(const std::vector<uint8_t> &blob, void *input,
                            void *input2, void *hostOutput) {
    std::vector<uint8_t> deviceOutput(64);
    void *ins[] = {input, input2};
    void *outs[] = {deviceOutput.data()};
    int64_t numInputs = input2 ? 2 : 1;
    EXPECT_EQ(nnapi_rt_execute_checked(blob.data(), int64_t(blob.size()),
                                       "main_nnapi_0", numInputs, ins, 1, outs),
              NNAPI_RT_VERIFY)
        << nnapi_rt_last_error();
    void *host[] = {hostOutput};
    nnapi_rt_verify(blob.data(), int64_t(blob.size()), 1, host);
    nnapi_rt_check_info info;
    EXPECT_EQ(nnapi_rt_get_check_info(0, &info), NNAPI_RT_OK);
    return info;
  }
};

TEST_F(Verify, Float32WithinAndBeyondTheTolerance) {
  std::vector<uint8_t> blob = blob::write(test_models::addBiasReluModel());
  float input[6] = {0, 1, 2, -3, 4, -5};
  // relu(x + {1, -2, 0.5}); the host's largest magnitude is about 2.5, so
  // the tolerance is about 1e-4 * 2.5 + 1e-6.
  float host[6] = {1, 0, 2.5f + 2e-4f, 0, 2, 0};
  nnapi_rt_check_info info = check(blob, input, nullptr, host);
  EXPECT_EQ(info.checks, 1u);
  EXPECT_EQ(info.mismatches, 0u);
  EXPECT_STREQ(info.unit, "abs");
  nnapi_rt_partition_info partition;
  ASSERT_EQ(nnapi_rt_get_partition_info(0, &partition), NNAPI_RT_OK);
  EXPECT_STREQ(partition.name, "main_nnapi_0");
  EXPECT_EQ(partition.operations, 1);
  EXPECT_NEAR(info.tolerance, 2.51e-4, 1e-7);
  EXPECT_NEAR(info.maxError, 2e-4, 1e-6);
  host[2] = 2.5f + 3e-4f;
  info = check(blob, input, nullptr, host);
  EXPECT_EQ(info.checks, 2u);
  EXPECT_EQ(info.mismatches, 1u);
  EXPECT_NEAR(info.maxError, 3e-4, 1e-6);
  EXPECT_EQ(
      std::string(info.firstMismatch).rfind("output 0: max error 0.0002999", 0),
      0u)
      << info.firstMismatch;
  EXPECT_NE(std::string(info.firstMismatch)
                .find(" abs > tolerance 0.00025103 abs at element 2 (device "
                      "2.5, host 2.5003)"),
            std::string::npos)
      << info.firstMismatch;
  // validate: nothing is left.
  EXPECT_STREQ(info.disabled, "");
}

TEST_F(Verify, NaNWhereTheHostHasANumberIsAMismatch) {
  std::vector<uint8_t> blob = blob::write(test_models::addBiasReluModel(3));
  float input[6] = {0, 1, 2, -3, 4, -5};
  float host[6] = {3, 0, 2.5f, 0, 2, 0};
  host[4] = std::nanf("");
  nnapi_rt_check_info info = check(blob, input, nullptr, host);
  EXPECT_EQ(info.mismatches, 1u);
  EXPECT_TRUE(std::isinf(info.maxError));
}

/// out = a + b on TENSOR_QUANT8_ASYMM_SIGNED [4] with scale 1, zero point 0
/// (quanta equal values), or DEQUANTIZE(a) at scale 0.5 when `dequantize`.
blob::Model quantizedModel(bool dequantize) {
  blob::Model m;
  int32_t q8 = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
  uint32_t a = m.addOperand(q8, {4}, blob::Lifetime::ModelInput);
  m.operands[a].scale = dequantize ? 0.5f : 1.0f;
  if (dequantize) {
    uint32_t out = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {4},
                                blob::Lifetime::ModelOutput);
    m.operations.push_back({ANEURALNETWORKS_DEQUANTIZE, {a}, {out}});
    m.inputs = {a};
    m.outputs = {out};
    m.featureLevel = 3;
    return m;
  }
  uint32_t b = m.addOperand(q8, {4}, blob::Lifetime::ModelInput);
  m.operands[b].scale = 1.0f;
  uint32_t fuse = m.addInt32(ANEURALNETWORKS_FUSED_NONE);
  uint32_t out = m.addOperand(q8, {4}, blob::Lifetime::ModelOutput);
  m.operands[out].scale = 1.0f;
  m.operations.push_back({ANEURALNETWORKS_ADD, {a, b, fuse}, {out}});
  m.inputs = {a, b};
  m.outputs = {out};
  m.featureLevel = 4;
  return m;
}

TEST_F(Verify, Int8InQuanta) {
  std::vector<uint8_t> blob = blob::write(quantizedModel(false));
  int8_t a[4] = {1, 2, 3, 4}, b[4] = {10, 20, 30, -40};
  int8_t host[4] = {11, 22 + 2, 33, -36}; // two quanta off: allowed
  nnapi_rt_check_info info = check(blob, a, b, host);
  EXPECT_STREQ(info.unit, "quanta");
  EXPECT_EQ(info.tolerance, 2);
  EXPECT_EQ(info.maxError, 2);
  EXPECT_EQ(info.mismatches, 0u);
  host[3] = -36 - 3; // three: not
  info = check(blob, a, b, host);
  EXPECT_EQ(info.maxError, 3);
  EXPECT_EQ(info.mismatches, 1u);
}

TEST_F(Verify, DequantizedFloatsGetTheQuantaOfTheirSource) {
  std::vector<uint8_t> blob = blob::write(quantizedModel(true));
  int8_t a[4] = {2, -4, 6, 8};
  // 0.5 * a; two quanta are 1.0 (plus float32's 1e-4 * 4 + 1e-6).
  float host[4] = {1 + 1.0f, -2, 3, 4};
  nnapi_rt_check_info info = check(blob, a, nullptr, host);
  EXPECT_NEAR(info.tolerance, 1.0 + 4e-4 + 1e-6, 1e-6);
  EXPECT_EQ(info.mismatches, 0u);
  host[0] = 1 + 1.01f;
  info = check(blob, a, nullptr, host);
  EXPECT_EQ(info.mismatches, 1u);
}

TEST_F(Verify, VerifyChecksEveryKthExecutionAndLeavesALyingDevice) {
  ASSERT_EQ(nnapi_rt_set_option("validate", nullptr), NNAPI_RT_OK);
  ASSERT_EQ(nnapi_rt_set_option("verify", "3"), NNAPI_RT_OK);
  std::vector<uint8_t> blob = blob::write(test_models::addBiasReluModel(5));
  float input[6] = {0, 1, 2, -3, 4, -5};
  float out[6];
  void *ins[] = {input}, *outs[] = {out};
  std::vector<int32_t> statuses;
  for (int i = 0; i < 4; ++i)
    statuses.push_back(nnapi_rt_execute_checked(
        blob.data(), int64_t(blob.size()), "p", 1, ins, 1, outs));
  // Executions 1 and 4 are checked (the host copy, here the test, did not
  // answer the first: an unanswered check compares nothing).
  EXPECT_EQ(statuses, (std::vector<int32_t>{NNAPI_RT_VERIFY, NNAPI_RT_OK,
                                            NNAPI_RT_OK, NNAPI_RT_VERIFY}));
  float wrong[6] = {5, 0, 2.5f, 0, 2, 0}; // element 4 should be 4 + 5 = 9
  void *host[] = {wrong};
  nnapi_rt_verify(blob.data(), int64_t(blob.size()), 1, host);
  nnapi_rt_check_info info;
  ASSERT_EQ(nnapi_rt_get_check_info(0, &info), NNAPI_RT_OK);
  EXPECT_EQ(info.checks, 1u);
  EXPECT_EQ(info.mismatches, 1u);
  EXPECT_NE(std::string(info.disabled)
                .find("'nnapi-mlir-host' computed "
                      "wrong values (output 0:"),
            std::string::npos)
      << info.disabled;
  // The one device is gone: the partition runs its host copy from now on,
  // and says why.
  EXPECT_EQ(nnapi_rt_execute_checked(blob.data(), int64_t(blob.size()), "p", 1,
                                     ins, 1, outs),
            NNAPI_RT_NNAPI_ERROR);
  EXPECT_NE(std::string(nnapi_rt_last_error())
                .find("device 'nnapi-mlir-host' computed wrong values"),
            std::string::npos)
      << nnapi_rt_last_error();
  // The old entry point never asks for a check.
  ASSERT_EQ(nnapi_rt_set_option("verify", "1"), NNAPI_RT_OK);
  EXPECT_EQ(
      nnapi_rt_execute(blob.data(), int64_t(blob.size()), 1, ins, 1, outs),
      NNAPI_RT_OK);
}

int failingCompute(ANeuralNetworksExecution *) {
  return ANEURALNETWORKS_OP_FAILED;
}
int failingBurstCompute(ANeuralNetworksExecution *, ANeuralNetworksBurst *) {
  return ANEURALNETWORKS_OP_FAILED;
}
std::atomic<int> computeCalls{0};
int countedFailingCompute(ANeuralNetworksExecution *e) {
  ++computeCalls;
  return failingCompute(e);
}
int countedFailingBurst(ANeuralNetworksExecution *e, ANeuralNetworksBurst *b) {
  ++computeCalls;
  return failingBurstCompute(e, b);
}

TEST_F(Verify, ADeviceFailingMaxFailuresTimesInARowIsLeft) {
  ASSERT_EQ(nnapi_rt_set_option("validate", nullptr), NNAPI_RT_OK);
  static NNAPIFunctionTable table;
  std::string error;
  ASSERT_TRUE(loadNNAPILibrary(NNAPI_HOST_LIBRARY, table, error)) << error;
  table.ANeuralNetworksExecution_compute = countedFailingCompute;
  table.ANeuralNetworksExecution_burstCompute = countedFailingBurst;
  table.hostLastError = nullptr;
  setNNAPIFunctionTableForTesting(&table);
  ASSERT_EQ(nnapi_rt_set_option("max_failures", "2"), NNAPI_RT_OK);
  computeCalls = 0;
  std::vector<uint8_t> blob = blob::write(test_models::addBiasReluModel(7));
  float input[6] = {}, out[6];
  void *ins[] = {input}, *outs[] = {out};
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(nnapi_rt_execute_checked(blob.data(), int64_t(blob.size()),
                                       nullptr, 1, ins, 1, outs),
              NNAPI_RT_NNAPI_ERROR);
  // Two tries on the device; then it is left and nothing calls it.
  EXPECT_EQ(computeCalls.load(), 2);
  EXPECT_NE(std::string(nnapi_rt_last_error())
                .find("failed 2 executions in a row (the max_failures "
                      "option; the last: "),
            std::string::npos)
      << nnapi_rt_last_error();
}

// The record's format: written, read back, and refused when malformed.
TEST(Quirks, RecordRoundTripsAndRefusesMalformedFiles) {
  quirks::Record record;
  EXPECT_TRUE(record.add("npu", "1.0",
                         {"ADD(x) -> (y)", "max error \"3\"", "validate"}));
  EXPECT_FALSE(record.add("npu", "1.0", {"ADD(x) -> (y)", "again", "verify"}));
  EXPECT_TRUE(record.add("npu", "2.0", {"ADD(x) -> (y)", "", "verify"}));
  std::string text = quirks::write(record);
  quirks::Record back;
  std::string error;
  ASSERT_TRUE(quirks::parse(text, back, error)) << error << "\n" << text;
  ASSERT_EQ(back.devices.size(), 2u);
  const quirks::Quirk *q = back.find("npu", "1.0", "ADD(x) -> (y)");
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->error, "max error \"3\"");
  EXPECT_EQ(q->foundBy, "validate");
  EXPECT_EQ(back.find("npu", "3.0", "ADD(x) -> (y)"), nullptr);
  EXPECT_EQ(back.find("gpu", "1.0", "ADD(x) -> (y)"), nullptr);

  EXPECT_FALSE(quirks::parse("{\"format\": \"nnapi-mlir-quirks-1\", "
                             "\"devices\": [{\"name\": \"\", \"version\": "
                             "\"\", \"quirks\": []}]}",
                             back, error));
  EXPECT_EQ(error, "devices[0].name (line 1): must be a non-empty string");
  EXPECT_FALSE(quirks::parse("{\"format\": \"nnapi-mlir-quirks-1\", "
                             "\"devices\": [{\"name\": \"n\", \"version\": "
                             "\"\", \"quirks\": [{\"error\": \"e\"}]}]}",
                             back, error));
  EXPECT_EQ(error, "devices[0].quirks[0] (line 1): missing 'signature'");
  EXPECT_FALSE(quirks::parse("[", back, error));
  EXPECT_EQ(error.rfind("invalid JSON: ", 0), 0u) << error;

  // A missing file is an empty record; append creates it.
  std::string path =
      ::testing::TempDir() + "/quirks-" + std::to_string(getpid()) + ".json";
  std::remove(path.c_str());
  ASSERT_TRUE(quirks::load(path, back, error)) << error;
  EXPECT_TRUE(back.devices.empty());
  ASSERT_TRUE(
      quirks::append(path, "gpu", "7", {"SUB() -> ()", "e", "verify"}, error))
      << error;
  ASSERT_TRUE(quirks::load(path, back, error)) << error;
  EXPECT_NE(back.find("gpu", "7", "SUB() -> ()"), nullptr);
  std::remove(path.c_str());
}

TEST(Quirks, DeviceProfilesCarryThem) {
  std::ifstream in(std::string(NNAPI_TEST_INPUTS) + "/devices/gpu-sim.json");
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  size_t brace = text.rfind('}');
  ASSERT_NE(brace, std::string::npos);
  text.insert(brace, ", \"quirks\": [{\"signature\": \"ADD(x) -> (y)\", "
                     "\"error\": \"off\"}]");
  profile::DeviceProfile p;
  std::string error;
  ASSERT_TRUE(profile::parseDeviceProfile(text, p, error)) << error;
  ASSERT_EQ(p.quirks.size(), 1u);
  EXPECT_EQ(p.quirks[0].signature, "ADD(x) -> (y)");
  EXPECT_EQ(p.quirks[0].error, "off");
  text.insert(brace, ", \"quirks\": 3");
  EXPECT_FALSE(profile::parseDeviceProfile(text, p, error));
}

// What a quirk is keyed on: written out by hand for the test model.
TEST(Quirks, OperationSignature) {
  blob::Model m = test_models::addBiasReluModel();
  EXPECT_EQ(blob::operationSignature(m, m.operations[0]),
            "ADD(TENSOR_FLOAT32 [2,3], TENSOR_FLOAT32 [3] const, INT32 = 1) "
            "-> (TENSOR_FLOAT32 [2,3])");
  blob::Model q = quantizedModel(false);
  EXPECT_EQ(blob::operationSignature(q, q.operations[0]),
            "ADD(TENSOR_QUANT8_ASYMM_SIGNED [4] scale 1 zero_point 0, "
            "TENSOR_QUANT8_ASYMM_SIGNED [4] scale 1 zero_point 0, INT32 = 0) "
            "-> (TENSOR_QUANT8_ASYMM_SIGNED [4] scale 1 zero_point 0)");
}

} // namespace
