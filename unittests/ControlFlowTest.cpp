//===- ControlFlowTest.cpp - IF and WHILE: blob format 3, runtime, host ---===//
//
// Blobs with referenced models, written here by hand, read back, and run
// through the runtime on the host NNAPI device; results against values
// computed in the test.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/NNAPI/BlobFormat.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"
#include "nnapi-mlir/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <algorithm>
#include <string>

using namespace nnapi_mlir;

namespace {

constexpr int32_t kF32 = ANEURALNETWORKS_TENSOR_FLOAT32;
constexpr int32_t kBool = ANEURALNETWORKS_TENSOR_BOOL8;

/// y = x `opcode` c, with c a constant splat of `value`; all of `dims`
/// (4 elements).
blob::Model elementwise(int32_t opcode, float value,
                        std::vector<uint32_t> dims = {4}) {
  blob::Model m;
  m.featureLevel = 4;
  uint32_t x = m.addOperand(kF32, dims, blob::Lifetime::ModelInput);
  float c[4] = {value, value, value, value};
  uint32_t k = m.addConstant(kF32, dims, c, sizeof(c));
  uint32_t fuse = m.addInt32(ANEURALNETWORKS_FUSED_NONE);
  uint32_t y = m.addOperand(kF32, dims, blob::Lifetime::ModelOutput);
  m.operations.push_back({opcode, {x, k, fuse}, {y}});
  m.inputs = {x};
  m.outputs = {y};
  return m;
}

/// y = IF(cond, x + 1, x * 2).
blob::Model ifModel() {
  blob::Model m;
  m.featureLevel = 4;
  uint32_t cond = m.addOperand(kBool, {1}, blob::Lifetime::ModelInput);
  uint32_t x = m.addOperand(kF32, {4}, blob::Lifetime::ModelInput);
  uint32_t then = m.addSubgraph(elementwise(ANEURALNETWORKS_ADD, 1.0f));
  uint32_t otherwise = m.addSubgraph(elementwise(ANEURALNETWORKS_MUL, 2.0f));
  uint32_t y = m.addOperand(kF32, {4}, blob::Lifetime::ModelOutput);
  m.operations.push_back({ANEURALNETWORKS_IF, {cond, then, otherwise, x}, {y}});
  m.inputs = {cond, x};
  m.outputs = {y};
  return m;
}

/// (i, acc) = WHILE(i < limit) { i + 1, acc + x } from (0, 0): i carried,
/// acc carried, limit and x input-only.
blob::Model whileModel() {
  blob::Model cond;
  cond.featureLevel = 4;
  std::vector<uint32_t> in;
  for (std::vector<uint32_t> dims : {std::vector<uint32_t>{1}, {4}, {1}, {4}})
    in.push_back(cond.addOperand(kF32, dims, blob::Lifetime::ModelInput));
  uint32_t keep = cond.addOperand(kBool, {1}, blob::Lifetime::ModelOutput);
  cond.operations.push_back({ANEURALNETWORKS_LESS, {in[0], in[2]}, {keep}});
  cond.inputs = in;
  cond.outputs = {keep};

  blob::Model body;
  body.featureLevel = 4;
  in.clear();
  for (std::vector<uint32_t> dims : {std::vector<uint32_t>{1}, {4}, {1}, {4}})
    in.push_back(body.addOperand(kF32, dims, blob::Lifetime::ModelInput));
  float one = 1.0f;
  uint32_t k = body.addConstant(kF32, {1}, &one, sizeof(one));
  uint32_t fuse = body.addInt32(ANEURALNETWORKS_FUSED_NONE);
  uint32_t i2 = body.addOperand(kF32, {1}, blob::Lifetime::ModelOutput);
  uint32_t acc2 = body.addOperand(kF32, {4}, blob::Lifetime::ModelOutput);
  body.operations.push_back({ANEURALNETWORKS_ADD, {in[0], k, fuse}, {i2}});
  body.operations.push_back({ANEURALNETWORKS_ADD, {in[1], in[3], fuse}, {acc2}});
  body.inputs = in;
  body.outputs = {i2, acc2};

  blob::Model m;
  m.featureLevel = 4;
  uint32_t limit = m.addOperand(kF32, {1}, blob::Lifetime::ModelInput);
  uint32_t x = m.addOperand(kF32, {4}, blob::Lifetime::ModelInput);
  float zeros[4] = {};
  uint32_t i0 = m.addConstant(kF32, {1}, zeros, 4);
  uint32_t acc0 = m.addConstant(kF32, {4}, zeros, sizeof(zeros));
  uint32_t c = m.addSubgraph(std::move(cond));
  uint32_t b = m.addSubgraph(std::move(body));
  uint32_t iOut = m.addOperand(kF32, {1}, blob::Lifetime::ModelOutput);
  uint32_t accOut = m.addOperand(kF32, {4}, blob::Lifetime::ModelOutput);
  m.operations.push_back(
      {ANEURALNETWORKS_WHILE, {c, b, i0, acc0, limit, x}, {iOut, accOut}});
  m.inputs = {limit, x};
  m.outputs = {iOut, accOut};
  return m;
}

/// (i, v) = WHILE(i < limit) { i + 1, v + 3 } from (0, x): v an int8
/// TENSOR_QUANT8_ASYMM_SIGNED of 5 elements (scale 0.5, zero point -1) carried
/// through the loop, i float32 carried, limit input-only. The quantized
/// value's buffers are a byte per element, which the host device's control
/// flow once sized as float32 (a heap overflow of the caller's output).
blob::Model quantizedWhileModel() {
  constexpr int32_t kQ8 = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
  auto carried = [&](blob::Model &m, blob::Lifetime lifetime) {
    uint32_t v = m.addOperand(kQ8, {5}, lifetime);
    m.operands[v].scale = 0.5f;
    m.operands[v].zeroPoint = -1;
    return v;
  };
  auto inputs = [&](blob::Model &m) {
    uint32_t i = m.addOperand(kF32, {1}, blob::Lifetime::ModelInput);
    uint32_t v = carried(m, blob::Lifetime::ModelInput);
    uint32_t limit = m.addOperand(kF32, {1}, blob::Lifetime::ModelInput);
    return std::vector<uint32_t>{i, v, limit};
  };
  blob::Model cond;
  cond.featureLevel = 4;
  std::vector<uint32_t> in = inputs(cond);
  uint32_t keep = cond.addOperand(kBool, {1}, blob::Lifetime::ModelOutput);
  cond.operations.push_back({ANEURALNETWORKS_LESS, {in[0], in[2]}, {keep}});
  cond.inputs = in;
  cond.outputs = {keep};

  blob::Model body;
  body.featureLevel = 4;
  in = inputs(body);
  float one = 1.0f;
  uint32_t k = body.addConstant(kF32, {1}, &one, sizeof(one));
  // 3.0 at scale 0.5 and zero point -1 is the stored value 5.
  int8_t three[5] = {5, 5, 5, 5, 5};
  uint32_t c = body.addConstant(kQ8, {5}, three, sizeof(three));
  body.operands[c].scale = 0.5f;
  body.operands[c].zeroPoint = -1;
  uint32_t fuse = body.addInt32(ANEURALNETWORKS_FUSED_NONE);
  uint32_t i2 = body.addOperand(kF32, {1}, blob::Lifetime::ModelOutput);
  uint32_t v2 = carried(body, blob::Lifetime::ModelOutput);
  body.operations.push_back({ANEURALNETWORKS_ADD, {in[0], k, fuse}, {i2}});
  body.operations.push_back({ANEURALNETWORKS_ADD, {in[1], c, fuse}, {v2}});
  body.inputs = in;
  body.outputs = {i2, v2};

  blob::Model m;
  m.featureLevel = 4;
  in = inputs(m);
  uint32_t cm = m.addSubgraph(std::move(cond));
  uint32_t bm = m.addSubgraph(std::move(body));
  uint32_t iOut = m.addOperand(kF32, {1}, blob::Lifetime::ModelOutput);
  uint32_t vOut = carried(m, blob::Lifetime::ModelOutput);
  m.operations.push_back(
      {ANEURALNETWORKS_WHILE, {cm, bm, in[0], in[1], in[2]}, {iOut, vOut}});
  m.inputs = in;
  m.outputs = {iOut, vOut};
  return m;
}

class ControlFlow : public ::testing::Test {
protected:
  void SetUp() override {
    nnapi_rt_set_quiet(1);
    nnapi_rt_set_mode(NNAPI_RT_MODE_AUTO);
    nnapi_rt_set_library_path(NNAPI_HOST_LIBRARY);
  }
  void TearDown() override { nnapi_rt_set_mode(NNAPI_RT_MODE_AUTO); }

  static int32_t run(const std::vector<uint8_t> &blob,
                     std::vector<void *> ins, std::vector<void *> outs) {
    return nnapi_rt_execute(blob.data(), int64_t(blob.size()),
                            int64_t(ins.size()), ins.data(),
                            int64_t(outs.size()), outs.data());
  }
};

TEST_F(ControlFlow, IfRunsTheBranchItsConditionPicks) {
  std::vector<uint8_t> blob = blob::write(ifModel());
  float x[4] = {1, -2, 3.5f, 0}, y[4];
  for (uint8_t cond : {1, 0}) {
    uint8_t flag[4] = {cond};
    ASSERT_EQ(run(blob, {flag, x}, {y}), NNAPI_RT_OK) << nnapi_rt_last_error();
    for (int i = 0; i < 4; ++i)
      EXPECT_FLOAT_EQ(y[i], cond ? x[i] + 1 : x[i] * 2) << i;
  }
}

TEST_F(ControlFlow, WhileRunsItsBodyUntilTheConditionFails) {
  std::vector<uint8_t> blob = blob::write(whileModel());
  float x[4] = {1, -2, 0.25f, 7};
  for (float limit : {3.0f, 1.0f, 0.0f, 2.5f}) {
    float i = -1, acc[4];
    ASSERT_EQ(run(blob, {&limit, x}, {&i, acc}), NNAPI_RT_OK)
        << nnapi_rt_last_error();
    float steps = limit > 0 ? std::ceil(limit) : 0;
    EXPECT_FLOAT_EQ(i, steps) << limit;
    for (int k = 0; k < 4; ++k)
      EXPECT_FLOAT_EQ(acc[k], steps * x[k]) << limit << " " << k;
  }
}

TEST_F(ControlFlow, WhileCarriesQuantizedValuesInTheirOwnSize) {
  // Buffers of exactly the declared sizes on the heap: AddressSanitizer
  // reports any byte read or written past them.
  std::vector<uint8_t> blob = blob::write(quantizedWhileModel());
  const int8_t start[5] = {-128, -7, 0, 9, 100};
  for (float limit : {0.0f, 1.0f, 3.0f}) {
    auto v = std::make_unique<int8_t[]>(5);
    auto out = std::make_unique<int8_t[]>(5);
    std::memcpy(v.get(), start, 5);
    auto i = std::make_unique<float>(0.0f), iOut = std::make_unique<float>(-1);
    auto lim = std::make_unique<float>(limit);
    ASSERT_EQ(run(blob, {i.get(), v.get(), lim.get()}, {iOut.get(), out.get()}),
              NNAPI_RT_OK)
        << nnapi_rt_last_error();
    EXPECT_FLOAT_EQ(*iOut, limit);
    // Each step adds 3.0, 6 quanta, saturating at 127.
    for (int k = 0; k < 5; ++k)
      EXPECT_EQ(int(out[k]), std::min(127, start[k] + 6 * int(limit)))
          << "limit " << limit << ", element " << k;
  }
}

TEST_F(ControlFlow, WhileStopsAtTheLoopTimeout) {
  // x = 0 adds nothing and i never reaches an infinite limit. A loop
  // timeout is NNAPI_RT_TIMEOUT, not a device failure: the caller's host
  // copy would loop as long (its loops have the same bound).
  std::vector<uint8_t> blob = blob::write(whileModel());
  float limit = INFINITY, x[4] = {}, i, acc[4];
  uint64_t executions = 0, failures = 0, failuresBefore = 0;
  nnapi_rt_get_stats(&executions, &failuresBefore);
  EXPECT_EQ(run(blob, {&limit, x}, {&i, acc}), NNAPI_RT_TIMEOUT);
  std::string error = nnapi_rt_last_error();
  EXPECT_NE(error.find("a WHILE loop ran longer than the loop timeout of "
                       "2000 ms on NNAPI device 'nnapi-mlir-host' (the "
                       "loop_timeout_ms option)"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("MISSED_DEADLINE_TRANSIENT"), std::string::npos)
      << error;
  EXPECT_NE(error.find("WHILE ran longer than the loop timeout of 2000 ms"),
            std::string::npos)
      << error;
  nnapi_rt_get_stats(&executions, &failures);
  EXPECT_EQ(failures, failuresBefore) << "a timeout is not a device failure";

  // The option sets the timeout the device gets.
  ASSERT_EQ(nnapi_rt_set_option("loop_timeout_ms", "50"), NNAPI_RT_OK);
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(run(blob, {&limit, x}, {&i, acc}), NNAPI_RT_TIMEOUT);
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                std::chrono::steady_clock::now() - start)
                .count();
  EXPECT_LT(ms, 1500) << "stopped at 50 ms, not NNAPI's default 2 s";
  error = nnapi_rt_last_error();
  EXPECT_NE(error.find("loop timeout of 50 ms on NNAPI device 'nnapi-mlir-host'"),
            std::string::npos)
      << error;
  ASSERT_EQ(nnapi_rt_set_option("loop_timeout_ms", nullptr), NNAPI_RT_OK);
}

TEST_F(ControlFlow, ReferencedModelsRoundTrip) {
  std::vector<uint8_t> bytes = blob::write(whileModel());
  blob::Model read;
  std::string error;
  ASSERT_TRUE(blob::read(bytes.data(), bytes.size(), read, error)) << error;
  ASSERT_EQ(read.subgraphs.size(), 2u);
  EXPECT_EQ(read.subgraphs[1].operations.size(), 2u);
  EXPECT_EQ(blob::write(read), bytes);
  std::string text = blob::dump(read);
  EXPECT_NE(text.find("%4 MODEL model #0"), std::string::npos) << text;
  EXPECT_NE(text.find("model #1:\n  nnapi-blob version "), std::string::npos)
      << text;
}

TEST_F(ControlFlow, ReaderRefusesBadReferencedModels) {
  std::string error;
  blob::Model read;
  auto refuse = [&](std::vector<uint8_t> bytes) {
    blob::sealChecksum(bytes.data(), bytes.size());
    EXPECT_FALSE(blob::read(bytes.data(), bytes.size(), read, error));
    return error;
  };
  std::vector<uint8_t> good = blob::write(ifModel());

  // Version 2 had no referenced models.
  std::vector<uint8_t> v2 = good;
  v2[8] = 2;
  EXPECT_EQ(refuse(v2),
            "operand 2: invalid lifetime 5 (referenced model) in a version 2 "
            "blob");

  // A referenced model whose own bytes are damaged.
  std::vector<uint8_t> damaged = good;
  ASSERT_GT(damaged.size(), 100u);
  damaged.at(damaged.size() - 100) ^= 0x55;
  EXPECT_EQ(refuse(damaged).rfind("operand 3: referenced model: blob checksum "
                                  "mismatch", 0),
            0u)
      << error;

  // Level 3 cannot reference models.
  blob::Model low = ifModel();
  low.featureLevel = 3;
  EXPECT_EQ(refuse(blob::write(low)),
            "operand 2: a referenced model needs feature level 4, the blob "
            "claims 3");

  // A referenced model that relaxes float32 when the blob does not.
  blob::Model relaxed = ifModel();
  relaxed.subgraphs[0].relaxFloat32ToFloat16 = true;
  EXPECT_EQ(refuse(blob::write(relaxed)),
            "operand 2: referenced model relaxes float32 differently");

  // A referenced model that writes int8 as uint8 when the blob does not.
  blob::Model flipped = ifModel();
  flipped.subgraphs[0].int8AsUint8 = true;
  EXPECT_EQ(refuse(blob::write(flipped)),
            "operand 2: referenced model writes int8 differently");

  // Nine levels of models.
  blob::Model deep = elementwise(ANEURALNETWORKS_ADD, 1.0f);
  for (int level = 0; level < 9; ++level) {
    blob::Model outer = ifModel();
    outer.subgraphs[0] = deep;
    deep = std::move(outer);
  }
  EXPECT_NE(refuse(blob::write(deep)).find("referenced models nest deeper "
                                           "than 8"),
            std::string::npos)
      << error;
}

TEST_F(ControlFlow, HostDeviceRefusesABranchOfAnotherType) {
  blob::Model m = ifModel();
  // An else model on [2, 2] where IF passes [4].
  m.subgraphs[1] = elementwise(ANEURALNETWORKS_MUL, 2.0f, {2, 2});
  float x[4] = {}, y[4];
  uint8_t flag[4] = {1};
  EXPECT_EQ(run(blob::write(m), {flag, x}, {y}), NNAPI_RT_NNAPI_ERROR);
  EXPECT_NE(std::string(nnapi_rt_last_error())
                .find("operation 0 (IF): input 0 of the else model is "
                      "TENSOR_FLOAT32 [2,2], the operation passes "
                      "TENSOR_FLOAT32 [4]"),
            std::string::npos)
      << nnapi_rt_last_error();
}

TEST_F(ControlFlow, HostDeviceRefusesAnIfWritingAModelInput) {
  blob::Model m = ifModel();
  m.operations[0].outputs = {1}; // x, a model input
  m.operands[5].lifetime = blob::Lifetime::Temporary;
  m.outputs = {};
  float x[4] = {};
  uint8_t flag[4] = {1};
  EXPECT_EQ(run(blob::write(m), {flag, x}, {}), NNAPI_RT_NNAPI_ERROR);
  EXPECT_NE(std::string(nnapi_rt_last_error())
                .find("operation 0 (IF): an output operand is a constant, a "
                      "model input or has no value"),
            std::string::npos)
      << nnapi_rt_last_error();
}

TEST_F(ControlFlow, HostDeviceRefusesAConditionModelWithoutABool) {
  blob::Model m = whileModel();
  blob::Model &cond = m.subgraphs[0];
  cond.operands[4].type = kF32; // i + limit instead of i < limit
  uint32_t fuse = cond.addInt32(ANEURALNETWORKS_FUSED_NONE);
  cond.operations[0] = {ANEURALNETWORKS_ADD, {0, 2, fuse}, {4}};
  float limit = 1, x[4] = {}, i, acc[4];
  EXPECT_EQ(run(blob::write(m), {&limit, x}, {&i, acc}), NNAPI_RT_NNAPI_ERROR);
  EXPECT_NE(std::string(nnapi_rt_last_error())
                .find("operation 0 (WHILE): the condition model must have one "
                      "output, a TENSOR_BOOL8 of one element"),
            std::string::npos)
      << nnapi_rt_last_error();
}

} // namespace

TEST_F(ControlFlow, HostDeviceMatchesIfAgainstItsLayout) {
  // IF's operands are matched against its layout like any operation's:
  // the branches must be MODEL operands, in their places.
  blob::Model m = ifModel();
  std::swap(m.operations[0].inputs[1], m.operations[0].inputs[3]);
  float x[4] = {};
  uint8_t flag[4] = {1};
  float y[4] = {};
  EXPECT_EQ(run(blob::write(m), {flag, x}, {y}), NNAPI_RT_NNAPI_ERROR);
  EXPECT_NE(std::string(nnapi_rt_last_error())
                .find("operation 0 (IF): input 1 (then_model) must be "
                      "MODEL, got TENSOR_FLOAT32"),
            std::string::npos)
      << nnapi_rt_last_error();
}
