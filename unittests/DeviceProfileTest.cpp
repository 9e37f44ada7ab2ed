//===- DeviceProfileTest.cpp - Device profile parsing and validation ------===//

#include "nnapi-mlir/NNAPI/DeviceProfile.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace nnapi_mlir::profile;
using nnapi_mlir::operationCode;
using nnapi_mlir::operationName;

namespace {

const char *kValid = R"({
  "format": "nnapi-mlir-device-profile-1",
  "name": "test-npu",
  "description": "unit test \u00e9",
  "feature_level": 4,
  "device_type": "accelerator",
  "operations": {"CONV_2D": ["float16", "int8"], "*": ["float32"]},
  "device_cost": {
    "default": {
      "float32": {"fixed_us": 1, "ns_per_mac": 0.5, "ns_per_element": 2},
      "float16": {"fixed_us": 1, "ns_per_mac": 0.25, "ns_per_element": 1},
      "int8": {"fixed_us": 1, "ns_per_mac": 0.125, "ns_per_element": 1}
    },
    "CONV_2D": {"float16": {"fixed_us": 7, "ns_per_mac": 0, "ns_per_element": 0}}
  },
  "host_cost": {"default": {
    "float32": {"fixed_us": 0, "ns_per_mac": 1, "ns_per_element": 1},
    "float16": {"fixed_us": 0, "ns_per_mac": 1, "ns_per_element": 1},
    "int8": {"fixed_us": 0, "ns_per_mac": 1, "ns_per_element": 1}}},
  "transfer": {"fixed_us": 3, "ns_per_byte": 0.5},
  "partition_overhead_us": 40
})";

TEST(DeviceProfileTest, ParsesAValidProfile) {
  DeviceProfile p;
  std::string error;
  ASSERT_TRUE(parseDeviceProfile(kValid, p, error)) << error;
  EXPECT_EQ(p.name, "test-npu");
  EXPECT_EQ(p.description, "unit test \xc3\xa9");
  EXPECT_EQ(p.featureLevel, 4u);
  EXPECT_EQ(p.deviceType, 4);
  int32_t conv = operationCode("CONV_2D");
  EXPECT_EQ(conv, 3);
  EXPECT_STREQ(operationName(conv), "CONV_2D");
  EXPECT_TRUE(p.supports(conv, DataType::Float16));
  EXPECT_FALSE(p.supports(conv, DataType::Float32)); // listed: "*" not used
  EXPECT_TRUE(p.supports(operationCode("ADD"), DataType::Float32));
  EXPECT_FALSE(p.supports(operationCode("ADD"), DataType::Int8));
  EXPECT_DOUBLE_EQ(p.device.lookup(conv, DataType::Float16).fixedUs, 7);
  EXPECT_DOUBLE_EQ(p.device.lookup(conv, DataType::Float32).fixedUs, 1);
  // 1 us + (1000 MACs * 0.5 ns + 100 elements * 2 ns) = 1.7 us
  EXPECT_DOUBLE_EQ(p.device.lookup(0, DataType::Float32).estimateUs(1000, 100),
                   1.7);
  EXPECT_DOUBLE_EQ(p.transferUs(2000), 3 + 1.0);
  EXPECT_DOUBLE_EQ(p.partitionOverheadUs, 40);
}

std::string errorFor(const std::string &text) {
  DeviceProfile p;
  std::string error;
  EXPECT_FALSE(parseDeviceProfile(text, p, error)) << text;
  return error;
}

std::string replaced(const std::string &from, const std::string &to) {
  std::string s = kValid;
  size_t at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

TEST(DeviceProfileTest, RejectsMalformedJsonWithPosition) {
  EXPECT_EQ(errorFor(""), "invalid JSON: line 1, column 1: unexpected end of input");
  EXPECT_EQ(errorFor("{\"a\": 1,}"),
            "invalid JSON: line 1, column 9: expected a string key");
  EXPECT_EQ(errorFor("{\n  \"a\" 1}"),
            "invalid JSON: line 2, column 7: expected ':'");
  EXPECT_EQ(errorFor("{\"a\": \"x"),
            "invalid JSON: line 1, column 9: unterminated string");
  EXPECT_EQ(errorFor("{\"a\": 1e999}"),
            "invalid JSON: line 1, column 12: number out of range");
  EXPECT_EQ(errorFor("{\"a\": 1, \"a\": 2}"),
            "invalid JSON: line 1, column 13: duplicate key 'a'");
  EXPECT_EQ(errorFor("[1] x"),
            "invalid JSON: line 1, column 5: unexpected text after the JSON value");
  EXPECT_EQ(errorFor(std::string(200, '[')),
            "invalid JSON: line 1, column 66: nesting deeper than 64");
  EXPECT_EQ(errorFor("{\"a\": \"\\ud800\"}"),
            "invalid JSON: line 1, column 14: unpaired surrogate in \\u escape");
  // Every truncation of a valid profile is an error, never a crash.
  std::string valid = kValid;
  for (size_t n = 0; n < valid.size(); ++n) {
    DeviceProfile p;
    std::string error;
    EXPECT_FALSE(parseDeviceProfile(valid.substr(0, n), p, error)) << n;
    EXPECT_FALSE(error.empty());
  }
}

TEST(DeviceProfileTest, RejectsSchemaErrorsWithKeyPath) {
  EXPECT_EQ(errorFor("[]"), "profile (line 1): must be an object");
  EXPECT_EQ(errorFor(replaced("\"feature_level\": 4", "\"feature_level\": 9")),
            "feature_level (line 5): must be a number in [1, 8]");
  EXPECT_EQ(errorFor(replaced("\"feature_level\": 4", "\"feature_level\": 2.5")),
            "feature_level (line 5): must be an integer");
  EXPECT_EQ(errorFor(replaced("-profile-1", "-profile-2")),
            "format (line 2): must be \"nnapi-mlir-device-profile-1\"");
  EXPECT_EQ(errorFor(replaced("\"partition_overhead_us\": 40", "\"partition_overhead\": 40")),
            "partition_overhead (line 21): unknown key (expected one of: "
            "format, name, description, feature_level, device_type, "
            "operations, device_cost, host_cost, transfer, "
            "partition_overhead_us, thread_scaling, measured, quirks)");
  EXPECT_EQ(errorFor(replaced("\"CONV_2D\": [", "\"CONV2D\": [")),
            "operations.CONV2D (line 7): unknown NNAPI operation 'CONV2D'");
  EXPECT_EQ(errorFor(replaced("[\"float16\", \"int8\"]", "[\"bf16\"]")),
            "operations.CONV_2D (line 7): unknown type (expected float32, "
            "float16 or int8)");
  EXPECT_EQ(errorFor(replaced("\"ns_per_mac\": 0.5", "\"ns_per_mac\": -1")),
            "device_cost.default.float32.ns_per_mac (line 10): must be a "
            "number in [0, 1e+12]");
  EXPECT_EQ(errorFor(replaced("\"fixed_us\": 7, ", "")),
            "device_cost.CONV_2D.float16 (line 14): missing 'fixed_us'");
  EXPECT_EQ(errorFor(replaced("\"device_type\": \"accelerator\"", "\"device_type\": \"tpu\"")),
            "device_type (line 6): must be one of other, cpu, gpu, accelerator");
  EXPECT_EQ(errorFor(replaced("\"transfer\": {\"fixed_us\": 3, ", "\"transfer\": {")),
            "transfer (line 20): missing 'fixed_us'");
  EXPECT_EQ(errorFor(replaced("\"operations\": {\"CONV_2D\": [\"float16\", \"int8\"], \"*\": [\"float32\"]}",
                              "\"operations\": {}")),
            "operations (line 7): must list at least one operation");
  EXPECT_EQ(errorFor(replaced("\"name\": \"test-npu\",", "")),
            "profile (line 1): missing required key 'name'");
}

std::string withMeasured(const std::string &entries) {
  return replaced("\"partition_overhead_us\": 40",
                  "\"partition_overhead_us\": 40,\n  \"measured\": " + entries);
}

TEST(DeviceProfileTest, MeasuredOps) {
  DeviceProfile p;
  std::string error;
  ASSERT_TRUE(parseDeviceProfile(
      withMeasured(R"J({"tosa.exp(tensor<2xf32>) -> (tensor<2xf32>)": {"host_us": 0.5},
    "nnapi.composite(tensor<2xf32>) -> (tensor<2xf32>) {name = \"softmax\"}": {"device_us": 2, "host_us": 1}})J"),
      p, error))
      << error;
  ASSERT_EQ(p.measured.size(), 2u);
  const MeasuredUnit &exp =
      p.measured.at("tosa.exp(tensor<2xf32>) -> (tensor<2xf32>)");
  EXPECT_EQ(exp.hostUs, 0.5);
  EXPECT_FALSE(exp.deviceUs);
  const MeasuredUnit &softmax = p.measured.at(
      "nnapi.composite(tensor<2xf32>) -> (tensor<2xf32>) {name = \"softmax\"}");
  EXPECT_EQ(softmax.hostUs, 1);
  EXPECT_EQ(softmax.deviceUs, 2);

  EXPECT_EQ(errorFor(withMeasured("[]")), "measured (line 22): must be an object");
  EXPECT_EQ(errorFor(withMeasured(R"({"a": {}})")),
            "measured.a (line 22): needs 'host_us' or 'device_us'");
  EXPECT_EQ(errorFor(withMeasured(R"({"a": {"gpu_us": 1}})")),
            "measured.a.gpu_us (line 22): unknown key (expected one of: "
            "host_us, device_us)");
  EXPECT_EQ(errorFor(withMeasured(R"({"a": {"host_us": -1}})")),
            "measured.a.host_us (line 22): must be a number in [0, 1e+12]");
  EXPECT_EQ(errorFor(withMeasured(R"({"": {"host_us": 1}})")),
            "measured (line 22): an empty signature");
}

std::string withScaling(const std::string &entry) {
  return replaced("\"partition_overhead_us\": 40",
                  "\"partition_overhead_us\": 40,\n  \"thread_scaling\": " +
                      entry);
}

TEST(DeviceProfileTest, ThreadScaling) {
  DeviceProfile p;
  std::string error;
  ASSERT_TRUE(parseDeviceProfile(kValid, p, error)) << error;
  // Without it every thread count costs one thread's.
  EXPECT_EQ(p.threadScaling.measuredThreads, 0u);
  EXPECT_EQ(p.threadScaling.hostFactor(4), 1.0);
  EXPECT_EQ(p.threadScaling.deviceFactor(4), 1.0);
  ASSERT_TRUE(parseDeviceProfile(
      withScaling(R"({"threads": 2, "host": 0.8, "device": 0})"), p, error))
      << error;
  EXPECT_EQ(p.threadScaling.measuredThreads, 2u);
  // Amdahl: (1 - p) + p / t.
  EXPECT_DOUBLE_EQ(p.threadScaling.hostFactor(1), 1.0);
  EXPECT_DOUBLE_EQ(p.threadScaling.hostFactor(2), 0.6);
  EXPECT_DOUBLE_EQ(p.threadScaling.hostFactor(4), 0.4);
  EXPECT_DOUBLE_EQ(p.threadScaling.deviceFactor(4), 1.0);
  // The fit inverts it, within [0, 1].
  EXPECT_DOUBLE_EQ(ThreadScaling::fit(0.6, 2), 0.8);
  EXPECT_DOUBLE_EQ(ThreadScaling::fit(0.4, 4), 0.8);
  EXPECT_EQ(ThreadScaling::fit(1.2, 2), 0.0);  // slower with more threads
  EXPECT_EQ(ThreadScaling::fit(0.3, 2), 1.0);  // better than linear
  EXPECT_EQ(ThreadScaling::fit(0.5, 1), 0.0);

  EXPECT_EQ(errorFor(withScaling(R"({"threads": 2, "host": 1.5, "device": 0})")),
            "thread_scaling.host (line 22): must be a number in [0, 1]");
  EXPECT_EQ(errorFor(withScaling(R"({"threads": 1, "host": 0.5, "device": 0})")),
            "thread_scaling.threads (line 22): must be a number in [2, 256]");
  EXPECT_EQ(errorFor(withScaling(R"({"threads": 2.5, "host": 0.5, "device": 0})")),
            "thread_scaling.threads (line 22): must be an integer");
  EXPECT_EQ(errorFor(withScaling(R"({"threads": 2, "host": 0.5})")),
            "thread_scaling (line 22): missing 'device'");
  EXPECT_EQ(errorFor(withScaling(R"({"threads": 2, "host": 0.5, "device": 0, "gpu": 1})")),
            "thread_scaling.gpu (line 22): unknown key (expected one of: "
            "threads, host, device, operations)");
  EXPECT_EQ(errorFor(withScaling(R"({"threads": 2, "host": 0.5, "device": 0, "operations": {"CONV": {"host": 1, "device": 1}}})")),
            "thread_scaling.operations.CONV (line 22): unknown NNAPI "
            "operation 'CONV'");
  EXPECT_EQ(errorFor(withScaling(R"({"threads": 2, "host": 0.5, "device": 0, "operations": {"ADD": {"host": 1}}})")),
            "thread_scaling.operations.ADD (line 22): missing 'device'");

  // Per operation, where measured; the side's for the others.
  ASSERT_TRUE(parseDeviceProfile(
      withScaling(R"({"threads": 2, "host": 0.8, "device": 0.2, "operations": {"CONV_2D": {"host": 1, "device": 0.9}}})"),
      p, error))
      << error;
  int32_t conv = operationCode("CONV_2D"), add = operationCode("ADD");
  EXPECT_DOUBLE_EQ(p.threadScaling.hostFactor(2, conv), 0.5);
  EXPECT_DOUBLE_EQ(p.threadScaling.deviceFactor(2, conv), 0.55);
  EXPECT_DOUBLE_EQ(p.threadScaling.hostFactor(2, add), 0.6);
  EXPECT_DOUBLE_EQ(p.threadScaling.deviceFactor(2, add), 0.9);
  EXPECT_DOUBLE_EQ(p.threadScaling.deviceFactor(2, -1), 0.9);
}

TEST(DeviceProfileTest, MissingFileIsAnError) {
  DeviceProfile p;
  std::string error;
  EXPECT_FALSE(loadDeviceProfile("/nonexistent/profile.json", p, error));
  EXPECT_EQ(error, "/nonexistent/profile.json: cannot open device profile");
}

// A profile path may name anything: what is not a regular file of a sane
// size is refused at once (/dev/zero was read until memory ran out, a FIFO
// blocked forever).
TEST(DeviceProfileTest, OnlyRegularFilesOfASaneSizeAreRead) {
  DeviceProfile p;
  std::string error;
  EXPECT_FALSE(loadDeviceProfile("/dev/zero", p, error));
  EXPECT_EQ(error, "/dev/zero: cannot read device profile: the file is not a "
                   "regular file");
  EXPECT_FALSE(loadDeviceProfile("/tmp", p, error));
  EXPECT_EQ(error, "/tmp: cannot read device profile: the file is a directory");

  char dir[] = "/tmp/nnapi-profile-test-XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  std::string fifo = std::string(dir) + "/fifo.json";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(loadDeviceProfile(fifo, p, error));
  EXPECT_EQ(error, fifo + ": cannot read device profile: the file is not a "
                          "regular file");
  std::string big = std::string(dir) + "/big.json";
  {
    FILE *f = std::fopen(big.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fclose(f);
    ASSERT_EQ(truncate(big.c_str(), 8 << 20), 0); // 8 MiB of zero bytes
  }
  EXPECT_FALSE(loadDeviceProfile(big, p, error));
  EXPECT_EQ(error, big + ": cannot read device profile: the file has 8388608 "
                         "bytes, more than the 4194304 allowed");
  std::remove(fifo.c_str());
  std::remove(big.c_str());
  rmdir(dir);
}

TEST(DeviceProfileTest, ShippedProfilesAreValid) {
  DIR *dir = opendir(NNAPI_PROFILES_DIR);
  ASSERT_NE(dir, nullptr);
  int count = 0;
  while (dirent *entry = readdir(dir)) {
    std::string name = entry->d_name;
    if (name.size() < 5 || name.substr(name.size() - 5) != ".json")
      continue;
    DeviceProfile p;
    std::string error;
    EXPECT_TRUE(loadDeviceProfile(std::string(NNAPI_PROFILES_DIR) + "/" + name,
                                  p, error))
        << error;
    EXPECT_EQ(p.name + ".json", name);
    ++count;
  }
  closedir(dir);
  EXPECT_EQ(count, 10); // generic-fl1..7, npu, cpu-nnapi, host-xnnpack
}

} // namespace
