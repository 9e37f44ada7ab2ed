//===- HostNNAPITest.cpp - The host NNAPI library through its C API ------===//
//
// Loads libnnapi_host.so the way the runtime does and checks NNAPI's
// validation rules and results through the public functions.
//
//===----------------------------------------------------------------------===//

#include "HostModelBuilder.h"
#include "nnapi-mlir/Runtime/NNAPILoader.h"

#include <gtest/gtest.h>

#include "nnapi-mlir/HostDevice/HostExtensions.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace nnapi_mlir;

namespace {

class HostNNAPI : public ::testing::Test {
protected:
  void SetUp() override {
    std::string error;
    ASSERT_TRUE(loadNNAPILibrary(NNAPI_HOST_LIBRARY, fn, error)) << error;
    ASSERT_EQ(fn.ANeuralNetworksModel_create(&model), ANEURALNETWORKS_NO_ERROR);
  }
  void TearDown() override { fn.ANeuralNetworksModel_free(model); }

  uint32_t tensor(std::vector<uint32_t> dims) {
    ANeuralNetworksOperandType t{ANEURALNETWORKS_TENSOR_FLOAT32,
                                 uint32_t(dims.size()), dims.data(), 0, 0};
    EXPECT_EQ(fn.ANeuralNetworksModel_addOperand(model, &t), 0);
    return next++;
  }
  uint32_t int32(int32_t v) {
    ANeuralNetworksOperandType t{ANEURALNETWORKS_INT32, 0, nullptr, 0, 0};
    EXPECT_EQ(fn.ANeuralNetworksModel_addOperand(model, &t), 0);
    EXPECT_EQ(fn.ANeuralNetworksModel_setOperandValue(model, next, &v, 4), 0);
    return next++;
  }

  /// MAX_POOL_2D 2x2 (implicit VALID padding) over a 1x2x2x1 float32
  /// tensor: input, padding, sw, sh, fw, fh, fuse.
  void buildPool(bool relaxed = false) {
    uint32_t in = tensor({1, 2, 2, 1});
    uint32_t out = tensor({1, 1, 1, 1});
    uint32_t ins[] = {in, int32(ANEURALNETWORKS_PADDING_VALID), int32(1),
                      int32(1), int32(2), int32(2), int32(0)};
    ASSERT_EQ(fn.ANeuralNetworksModel_addOperation(
                  model, ANEURALNETWORKS_MAX_POOL_2D, 7, ins, 1, &out),
              0);
    ASSERT_EQ(fn.ANeuralNetworksModel_identifyInputsAndOutputs(model, 1, &in,
                                                               1, &out),
              0);
    ASSERT_EQ(fn.ANeuralNetworksModel_relaxComputationFloat32toFloat16(
                  model, relaxed),
              0);
    ASSERT_EQ(fn.ANeuralNetworksModel_finish(model), 0);
  }

  /// Executes buildPool's model on {3, -1, 7, 2} (checking that a wrongly
  /// sized input is rejected first) and returns its single output.
  float runPool(ANeuralNetworksCompilation *c) {
    ANeuralNetworksExecution *e = nullptr;
    EXPECT_EQ(fn.ANeuralNetworksExecution_create(c, &e), 0);
    if (!e)
      return NAN;
    float x[4] = {3, -1, 7, 2}, y = NAN;
    EXPECT_EQ(fn.ANeuralNetworksExecution_setInput(e, 0, nullptr, x, 12),
              ANEURALNETWORKS_BAD_DATA); // wrong size
    EXPECT_EQ(fn.ANeuralNetworksExecution_setInput(e, 0, nullptr, x, 16), 0);
    EXPECT_EQ(fn.ANeuralNetworksExecution_setOutput(e, 0, nullptr, &y, 4), 0);
    EXPECT_EQ(fn.ANeuralNetworksExecution_compute(e), 0);
    fn.ANeuralNetworksExecution_free(e);
    return y;
  }

  NNAPIFunctionTable fn;
  ANeuralNetworksModel *model = nullptr;
  uint32_t next = 0;
};

TEST_F(HostNNAPI, ReportsOneDevice) {
  uint32_t count = 0;
  ASSERT_EQ(fn.ANeuralNetworks_getDeviceCount(&count), 0);
  EXPECT_EQ(count, 1u);
  ANeuralNetworksDevice *device;
  ASSERT_EQ(fn.ANeuralNetworks_getDevice(0, &device), 0);
  int64_t level = 0;
  ASSERT_EQ(fn.ANeuralNetworksDevice_getFeatureLevel(device, &level), 0);
  EXPECT_EQ(level, ANEURALNETWORKS_FEATURE_LEVEL_7);
  EXPECT_EQ(fn.ANeuralNetworks_getDevice(1, &device), ANEURALNETWORKS_BAD_DATA);
}

TEST_F(HostNNAPI, ComputesAPooledModel) {
  buildPool();
  bool supported = false;
  ANeuralNetworksDevice *device;
  ASSERT_EQ(fn.ANeuralNetworks_getDevice(0, &device), 0);
  ASSERT_EQ(fn.ANeuralNetworksModel_getSupportedOperationsForDevices(
                model, &device, 1, &supported),
            0);
  EXPECT_TRUE(supported);
  ANeuralNetworksCompilation *c;
  ASSERT_EQ(fn.ANeuralNetworksCompilation_create(model, &c), 0);
  ASSERT_EQ(fn.ANeuralNetworksCompilation_finish(c), 0);
  EXPECT_EQ(runPool(c), 7.0f);
  fn.ANeuralNetworksCompilation_free(c);
}

TEST_F(HostNNAPI, ExecutionsReadAndWriteMemoryMadeFromAFile) {
  buildPool();
  ANeuralNetworksCompilation *c;
  ASSERT_EQ(fn.ANeuralNetworksCompilation_create(model, &c), 0);
  ASSERT_EQ(fn.ANeuralNetworksCompilation_finish(c), 0);
  auto lastError = reinterpret_cast<const char *(*)()>(
      dlsym(fn.handle, "NNAPIMLIRHost_lastError"));
  auto counters = reinterpret_cast<NNAPIMLIRHost_getDeviceCounters_fn>(
      dlsym(fn.handle, "NNAPIMLIRHost_getDeviceCounters"));
  ASSERT_TRUE(lastError && counters);
  ANeuralNetworksDevice *device;
  ASSERT_EQ(fn.ANeuralNetworks_getDevice(0, &device), 0);
  NNAPIMLIRHostDeviceCounters before{}, after{};
  ASSERT_EQ(counters(device, &before), 0);

  // A 3-page shared file; the memory starts 100 bytes into its second page
  // (mmap itself needs page offsets), the input 8 bytes into the memory.
  long page = sysconf(_SC_PAGESIZE);
  int fd = int(syscall(SYS_memfd_create, "host-nnapi-test", 0u));
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, 3 * page), 0);
  auto *mine = static_cast<char *>(
      mmap(nullptr, size_t(3 * page), PROT_READ | PROT_WRITE, MAP_SHARED, fd,
           0));
  ASSERT_NE(mine, MAP_FAILED);
  float x[4] = {3, -1, 7, 2};
  std::memcpy(mine + page + 100 + 8, x, sizeof x);
  ANeuralNetworksMemory *memory = nullptr;
  ASSERT_EQ(fn.ANeuralNetworksMemory_createFromFd(size_t(page), PROT_READ |
                                                      PROT_WRITE, fd,
                                                  size_t(page) + 100, &memory),
            0)
      << lastError();
  ANeuralNetworksExecution *e = nullptr;
  ASSERT_EQ(fn.ANeuralNetworksExecution_create(c, &e), 0);
  EXPECT_EQ(fn.ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr,
                                                           memory, 8, 16),
            0);
  EXPECT_EQ(fn.ANeuralNetworksExecution_setOutputFromMemory(e, 0, nullptr,
                                                            memory, 64, 4),
            0);
  // Out of the memory, a wrong length, no memory.
  EXPECT_EQ(fn.ANeuralNetworksExecution_setInputFromMemory(
                e, 0, nullptr, memory, size_t(page) - 8, 16),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(std::string(lastError()),
            "input 0: bytes " + std::to_string(page - 8) + ".." +
                std::to_string(page + 8) + " are outside the memory's " +
                std::to_string(page));
  EXPECT_EQ(fn.ANeuralNetworksExecution_setInputFromMemory(e, 0, nullptr,
                                                           memory, 8, 12),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(fn.ANeuralNetworksExecution_setOutputFromMemory(e, 0, nullptr,
                                                            nullptr, 0, 4),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  ASSERT_EQ(fn.ANeuralNetworksExecution_compute(e), 0) << lastError();
  // The result is in the file, where this process's own mapping sees it.
  float y = 0;
  std::memcpy(&y, mine + page + 100 + 64, 4);
  EXPECT_EQ(y, 7.0f);
  fn.ANeuralNetworksExecution_free(e);
  ASSERT_EQ(counters(device, &after), 0);
  EXPECT_EQ(after.memoryArgumentBytes - before.memoryArgumentBytes, 20u);
  EXPECT_EQ(after.pointerArgumentBytes, before.pointerArgumentBytes);
  EXPECT_EQ(runPool(c), 7.0f); // pointers: counted as such
  ASSERT_EQ(counters(device, &after), 0);
  EXPECT_EQ(after.pointerArgumentBytes - before.pointerArgumentBytes, 20u);

  // An output needs a writable memory.
  ANeuralNetworksMemory *readOnly = nullptr;
  ASSERT_EQ(fn.ANeuralNetworksMemory_createFromFd(size_t(page), PROT_READ, fd,
                                                  0, &readOnly),
            0);
  ASSERT_EQ(fn.ANeuralNetworksExecution_create(c, &e), 0);
  EXPECT_EQ(fn.ANeuralNetworksExecution_setOutputFromMemory(e, 0, nullptr,
                                                            readOnly, 0, 4),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(std::string(lastError()),
            "output 0: the memory is not writable (PROT_WRITE)");
  fn.ANeuralNetworksExecution_free(e);
  fn.ANeuralNetworksMemory_free(readOnly);

  // Memory that cannot be made: no file, no read access, nothing to map.
  ANeuralNetworksMemory *bad = nullptr;
  EXPECT_EQ(fn.ANeuralNetworksMemory_createFromFd(16, PROT_READ, -1, 0, &bad),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(std::string(lastError()), "invalid file descriptor -1");
  EXPECT_EQ(fn.ANeuralNetworksMemory_createFromFd(16, PROT_WRITE, fd, 0, &bad),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(fn.ANeuralNetworksMemory_createFromFd(0, PROT_READ, fd, 0, &bad),
            ANEURALNETWORKS_BAD_DATA);
  int closed = dup(fd);
  close(closed);
  EXPECT_EQ(fn.ANeuralNetworksMemory_createFromFd(16, PROT_READ, closed, 0,
                                                  &bad),
            ANEURALNETWORKS_UNMAPPABLE);
  EXPECT_EQ(bad, nullptr);
  fn.ANeuralNetworksMemory_free(nullptr); // like free(NULL)

  fn.ANeuralNetworksMemory_free(memory);
  fn.ANeuralNetworksCompilation_free(c);
  munmap(mine, size_t(3 * page));
  close(fd);
}

TEST_F(HostNNAPI, RejectsAWrongOutputShapeAtFinish) {
  uint32_t a = tensor({2, 3});
  uint32_t out = tensor({3, 2});
  uint32_t ins[] = {a, a, int32(0)};
  ASSERT_EQ(fn.ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3,
                                                 ins, 1, &out),
            0);
  ASSERT_EQ(fn.ANeuralNetworksModel_identifyInputsAndOutputs(model, 1, &a, 1,
                                                             &out),
            0);
  EXPECT_EQ(fn.ANeuralNetworksModel_finish(model), ANEURALNETWORKS_BAD_DATA);
}

TEST_F(HostNNAPI, RejectsBadFuseCodeAndOperandCount) {
  uint32_t a = tensor({4});
  uint32_t out = tensor({4});
  uint32_t bad[] = {a, a, int32(9)};
  ASSERT_EQ(fn.ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_ADD, 3,
                                                 bad, 1, &out),
            0);
  ASSERT_EQ(fn.ANeuralNetworksModel_identifyInputsAndOutputs(model, 1, &a, 1,
                                                             &out),
            0);
  EXPECT_EQ(fn.ANeuralNetworksModel_finish(model), ANEURALNETWORKS_BAD_DATA);
  auto lastError = reinterpret_cast<const char *(*)()>(
      dlsym(fn.handle, "NNAPIMLIRHost_lastError"));
  ASSERT_NE(lastError, nullptr);
  EXPECT_NE(std::string(lastError()).find("invalid fused activation code 9"),
            std::string::npos)
      << lastError();
}

TEST_F(HostNNAPI, AnOmittedOperandCannotBecomeAModelInput) {
  uint32_t a = tensor({4});
  // No buffer and no length: NNAPI's optional operand left out.
  ASSERT_EQ(fn.ANeuralNetworksModel_setOperandValue(model, int32_t(a), nullptr,
                                                    0),
            ANEURALNETWORKS_NO_ERROR);
  // No buffer but a length is a null argument.
  EXPECT_EQ(fn.ANeuralNetworksModel_setOperandValue(model, int32_t(a), nullptr,
                                                    16),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  uint32_t out = tensor({4});
  EXPECT_EQ(fn.ANeuralNetworksModel_identifyInputsAndOutputs(model, 1, &a, 1,
                                                             &out),
            ANEURALNETWORKS_BAD_DATA);
  auto lastError = reinterpret_cast<const char *(*)()>(
      dlsym(fn.handle, "NNAPIMLIRHost_lastError"));
  ASSERT_NE(lastError, nullptr);
  EXPECT_NE(std::string(lastError()).find(
                "operand 0 is already a constant, an omitted operand, an "
                "input or an output"),
            std::string::npos)
      << lastError();
}

/// Adds an operand to `m`; returns the call's result, the host device's
/// explanation in `why`.
int addOperand(const NNAPIFunctionTable &fn, ANeuralNetworksModel *m,
               int32_t type, std::vector<uint32_t> dims, float scale,
               int32_t zeroPoint, std::string &why) {
  ANeuralNetworksOperandType t{type, uint32_t(dims.size()),
                               dims.empty() ? nullptr : dims.data(), scale,
                               zeroPoint};
  int rc = fn.ANeuralNetworksModel_addOperand(m, &t);
  why = fn.hostLastError ? fn.hostLastError() : "";
  return rc;
}

TEST_F(HostNNAPI, AddOperandChecksScaleAndZeroPoint) {
  std::string why;
  EXPECT_EQ(addOperand(fn, model, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {4},
                       0.1f, 128, why),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(addOperand(fn, model, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {4},
                       0.1f, -1, why),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(why, "operand 1: TENSOR_QUANT8_ASYMM needs a zero point in [0, "
                 "255], got -1");
  EXPECT_EQ(addOperand(fn, model, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED,
                       {4}, NAN, 0, why),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_NE(why.find("needs a positive finite scale"), std::string::npos)
      << why;
  EXPECT_EQ(addOperand(fn, model,
                       ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, {3, 2},
                       0.5f, 0, why),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_NE(why.find("its scale and zero point must be 0"), std::string::npos)
      << why;
}

TEST_F(HostNNAPI, PerChannelScalesAreChecked) {
  std::string why;
  ASSERT_EQ(addOperand(fn, model,
                       ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL, {3, 2},
                       0, 0, why),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(addOperand(fn, model, ANEURALNETWORKS_TENSOR_QUANT8_ASYMM, {4},
                       0.5f, 0, why),
            ANEURALNETWORKS_NO_ERROR);
  auto perChannel = [&](int32_t index, uint32_t dim, std::vector<float> scales) {
    ANeuralNetworksSymmPerChannelQuantParams p{dim, uint32_t(scales.size()),
                                               scales.data()};
    int rc = fn.ANeuralNetworksModel_setOperandSymmPerChannelQuantParams(
        model, index, &p);
    why = fn.hostLastError();
    return rc;
  };
  EXPECT_EQ(perChannel(1, 0, {1}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(why, "operand 1: per-channel scales for a TENSOR_QUANT8_ASYMM "
                 "operand");
  EXPECT_EQ(perChannel(0, 2, {1, 1}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(why, "operand 0: channel dimension 2 of a rank-2 operand");
  EXPECT_EQ(perChannel(0, 1, {1, 1, 1}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(why, "operand 0: 3 scales for dimension 1 of size 2");
  EXPECT_EQ(perChannel(0, 0, {1, 0, 1}), ANEURALNETWORKS_BAD_DATA);
  EXPECT_EQ(why, "operand 0: scale 1 is not a positive finite number");
  // Without its scales the model does not finish.
  EXPECT_EQ(fn.ANeuralNetworksModel_finish(model), ANEURALNETWORKS_BAD_DATA);
  why = fn.hostLastError();
  EXPECT_NE(why.find("operand 0 is TENSOR_QUANT8_SYMM_PER_CHANNEL without its "
                     "scales"),
            std::string::npos)
      << why;
}

/// WHILE (i < limit) i += 1 from 0, built through the C API with the
/// execution's own loop timeout: an endless loop stops at it, well before
/// NNAPI's default of 2 s; a finite one counts to its limit.
TEST_F(HostNNAPI, WhileHonoursTheExecutionsLoopTimeout) {
  std::string why;
  const int32_t f32 = ANEURALNETWORKS_TENSOR_FLOAT32;
  auto finished = [&](ANeuralNetworksModel *m, bool body) {
    // Inputs i and limit; output i + 1 (body) or limit > i (condition).
    for (int k = 0; k < 2; ++k)
      addOperand(fn, m, f32, {1}, 0, 0, why);
    uint32_t out;
    if (body) {
      float one = 1;
      int32_t none = ANEURALNETWORKS_FUSED_NONE;
      addOperand(fn, m, f32, {1}, 0, 0, why);
      fn.ANeuralNetworksModel_setOperandValue(m, 2, &one, 4);
      addOperand(fn, m, ANEURALNETWORKS_INT32, {}, 0, 0, why);
      fn.ANeuralNetworksModel_setOperandValue(m, 3, &none, 4);
      addOperand(fn, m, f32, {1}, 0, 0, why);
      uint32_t in[] = {0, 2, 3};
      out = 4;
      fn.ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, in, 1,
                                           &out);
    } else {
      addOperand(fn, m, ANEURALNETWORKS_TENSOR_BOOL8, {1}, 0, 0, why);
      uint32_t in[] = {1, 0};
      out = 2;
      fn.ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_GREATER, 2, in,
                                           1, &out);
    }
    uint32_t ins[] = {0, 1};
    fn.ANeuralNetworksModel_identifyInputsAndOutputs(m, 2, ins, 1, &out);
    EXPECT_EQ(fn.ANeuralNetworksModel_finish(m), ANEURALNETWORKS_NO_ERROR)
        << fn.hostLastError();
  };
  ANeuralNetworksModel *cond = nullptr, *body = nullptr;
  ASSERT_EQ(fn.ANeuralNetworksModel_create(&cond), ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(fn.ANeuralNetworksModel_create(&body), ANEURALNETWORKS_NO_ERROR);
  finished(cond, false);
  finished(body, true);
  // The loop: limit (input 0), the two models, i0 = 0, the result.
  float zero = 0;
  addOperand(fn, model, f32, {1}, 0, 0, why);
  addOperand(fn, model, ANEURALNETWORKS_MODEL, {}, 0, 0, why);
  addOperand(fn, model, ANEURALNETWORKS_MODEL, {}, 0, 0, why);
  addOperand(fn, model, f32, {1}, 0, 0, why);
  addOperand(fn, model, f32, {1}, 0, 0, why);
  ASSERT_EQ(fn.ANeuralNetworksModel_setOperandValueFromModel(model, 1, cond),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(fn.ANeuralNetworksModel_setOperandValueFromModel(model, 2, body),
            ANEURALNETWORKS_NO_ERROR);
  fn.ANeuralNetworksModel_setOperandValue(model, 3, &zero, 4);
  uint32_t in[] = {1, 2, 3, 0}, out = 4, limitIn = 0;
  fn.ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_WHILE, 4, in, 1,
                                       &out);
  fn.ANeuralNetworksModel_identifyInputsAndOutputs(model, 1, &limitIn, 1,
                                                   &out);
  ASSERT_EQ(fn.ANeuralNetworksModel_finish(model), ANEURALNETWORKS_NO_ERROR)
      << fn.hostLastError();
  ANeuralNetworksCompilation *c = nullptr;
  ASSERT_EQ(fn.ANeuralNetworksCompilation_create(model, &c),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(fn.ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_NO_ERROR)
      << fn.hostLastError();
  auto run = [&](float limit, float &result) {
    ANeuralNetworksExecution *e = nullptr;
    EXPECT_EQ(fn.ANeuralNetworksExecution_create(c, &e),
              ANEURALNETWORKS_NO_ERROR);
    EXPECT_EQ(fn.ANeuralNetworksExecution_setLoopTimeout(e, 50000000),
              ANEURALNETWORKS_NO_ERROR);
    fn.ANeuralNetworksExecution_setInput(e, 0, nullptr, &limit, 4);
    fn.ANeuralNetworksExecution_setOutput(e, 0, nullptr, &result, 4);
    int rc = fn.ANeuralNetworksExecution_compute(e);
    why = fn.hostLastError();
    EXPECT_EQ(fn.ANeuralNetworksExecution_setLoopTimeout(e, 1),
              ANEURALNETWORKS_BAD_STATE);
    fn.ANeuralNetworksExecution_free(e);
    return rc;
  };
  float result = -1;
  EXPECT_EQ(run(3, result), ANEURALNETWORKS_NO_ERROR) << why;
  EXPECT_EQ(result, 3);
  auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(run(INFINITY, result), ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
  EXPECT_NE(why.find("loop timeout of 50 ms"), std::string::npos) << why;
  fn.ANeuralNetworksCompilation_free(c);
  fn.ANeuralNetworksModel_free(cond);
  fn.ANeuralNetworksModel_free(body);
}

TEST_F(HostNNAPI, RejectsUseBeforeFinishAndNulls) {
  ANeuralNetworksCompilation *c;
  EXPECT_EQ(fn.ANeuralNetworksCompilation_create(model, &c),
            ANEURALNETWORKS_BAD_STATE);
  EXPECT_EQ(fn.ANeuralNetworksModel_addOperand(model, nullptr),
            ANEURALNETWORKS_UNEXPECTED_NULL);
  // An operand code NNAPI does not define.
  ANeuralNetworksOperandType t{99, 0, nullptr, 0, 0};
  EXPECT_EQ(fn.ANeuralNetworksModel_addOperand(model, &t),
            ANEURALNETWORKS_BAD_DATA);
}

} // namespace

namespace {

/// The host library impersonating the shipped "npu" profile: float16 and
/// int8 pooling only, feature level 5, an accelerator.
class HostNNAPIWithProfile : public HostNNAPI {
protected:
  void SetUp() override {
    HostNNAPI::SetUp();
    setProfile = reinterpret_cast<int (*)(const char *)>(
        dlsym(fn.handle, "NNAPIMLIRHost_setProfile"));
    lastError = reinterpret_cast<const char *(*)()>(
        dlsym(fn.handle, "NNAPIMLIRHost_lastError"));
    ASSERT_NE(setProfile, nullptr);
    ASSERT_NE(lastError, nullptr);
    ASSERT_EQ(setProfile(NNAPI_PROFILES_DIR "/npu.json"), 0) << lastError();
  }
  void TearDown() override {
    setProfile(nullptr);
    HostNNAPI::TearDown();
  }

  bool supported() {
    ANeuralNetworksDevice *device;
    EXPECT_EQ(fn.ANeuralNetworks_getDevice(0, &device), 0);
    bool result = false;
    EXPECT_EQ(fn.ANeuralNetworksModel_getSupportedOperationsForDevices(
                  model, &device, 1, &result),
              0);
    return result;
  }

  int (*setProfile)(const char *) = nullptr;
  const char *(*lastError)() = nullptr;
};

TEST_F(HostNNAPIWithProfile, EnumeratesTheProfiledDevice) {
  ANeuralNetworksDevice *device;
  ASSERT_EQ(fn.ANeuralNetworks_getDevice(0, &device), 0);
  const char *name = nullptr;
  ASSERT_EQ(fn.ANeuralNetworksDevice_getName(device, &name), 0);
  EXPECT_STREQ(name, "npu");
  int32_t type = 0;
  ASSERT_EQ(fn.ANeuralNetworksDevice_getType(device, &type), 0);
  EXPECT_EQ(type, 4); // ANEURALNETWORKS_DEVICE_ACCELERATOR
  int64_t level = 0;
  ASSERT_EQ(fn.ANeuralNetworksDevice_getFeatureLevel(device, &level), 0);
  EXPECT_EQ(level, ANEURALNETWORKS_FEATURE_LEVEL_5);
  EXPECT_EQ(fn.ANeuralNetworks_getRuntimeFeatureLevel(),
            ANEURALNETWORKS_FEATURE_LEVEL_5);
}

TEST_F(HostNNAPIWithProfile, RejectsFloat32ItDoesNotRun) {
  buildPool(/*relaxed=*/false);
  EXPECT_FALSE(supported());
  ANeuralNetworksCompilation *c;
  ASSERT_EQ(fn.ANeuralNetworksCompilation_create(model, &c), 0);
  EXPECT_EQ(fn.ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_BAD_DATA);
  EXPECT_STREQ(lastError(),
               "operation 0: device 'npu' does not support MAX_POOL_2D on "
               "float32 (it would with float32 relaxed to float16)");
  fn.ANeuralNetworksCompilation_free(c);
}

TEST_F(HostNNAPIWithProfile, RunsRelaxedFloat32) {
  buildPool(/*relaxed=*/true);
  EXPECT_TRUE(supported());
  ANeuralNetworksCompilation *c;
  ASSERT_EQ(fn.ANeuralNetworksCompilation_create(model, &c), 0);
  ASSERT_EQ(fn.ANeuralNetworksCompilation_finish(c), 0) << lastError();
  EXPECT_EQ(runPool(c), 7.0f);
  fn.ANeuralNetworksCompilation_free(c);
}

TEST_F(HostNNAPIWithProfile, RejectsOperationsOutsideItsList) {
  // SOFTMAX is in the profile's feature level but not its operation list.
  uint32_t in = tensor({1, 4});
  uint32_t out = tensor({1, 4});
  float beta = 1.0f;
  ANeuralNetworksOperandType f{ANEURALNETWORKS_FLOAT32, 0, nullptr, 0, 0};
  ASSERT_EQ(fn.ANeuralNetworksModel_addOperand(model, &f), 0);
  ASSERT_EQ(fn.ANeuralNetworksModel_setOperandValue(model, next, &beta, 4), 0);
  uint32_t ins[] = {in, next++};
  ASSERT_EQ(fn.ANeuralNetworksModel_addOperation(model, ANEURALNETWORKS_SOFTMAX,
                                                 2, ins, 1, &out),
            0);
  ASSERT_EQ(fn.ANeuralNetworksModel_identifyInputsAndOutputs(model, 1, &in, 1,
                                                             &out),
            0);
  ASSERT_EQ(fn.ANeuralNetworksModel_relaxComputationFloat32toFloat16(model, true),
            0);
  ASSERT_EQ(fn.ANeuralNetworksModel_finish(model), 0);
  EXPECT_FALSE(supported());
  ANeuralNetworksCompilation *c;
  ASSERT_EQ(fn.ANeuralNetworksCompilation_create(model, &c), 0);
  EXPECT_EQ(fn.ANeuralNetworksCompilation_finish(c), ANEURALNETWORKS_BAD_DATA);
  EXPECT_STREQ(lastError(),
               "operation 0: device 'npu' does not support SOFTMAX on float32");
  fn.ANeuralNetworksCompilation_free(c);
}

TEST_F(HostNNAPIWithProfile, ReportsAnUnloadableProfile) {
  EXPECT_EQ(setProfile("/nonexistent.json"), ANEURALNETWORKS_BAD_DATA);
  EXPECT_STREQ(lastError(), "/nonexistent.json: cannot open device profile");
  // Back to the plain host device.
  ASSERT_EQ(setProfile(nullptr), 0);
  ANeuralNetworksDevice *device;
  ASSERT_EQ(fn.ANeuralNetworks_getDevice(0, &device), 0);
  const char *name = nullptr;
  ASSERT_EQ(fn.ANeuralNetworksDevice_getName(device, &name), 0);
  EXPECT_STREQ(name, "nnapi-mlir-host");
}

} // namespace

namespace {

/// The host library as a device of feature level 2 (test/Inputs/devices/
/// old-npu.json: everything its level has). A model that breaks an operand
/// rule of level 3 is refused with the reason the compiler gives for not
/// offloading it at level 2 (test/Conversion/TosaToNNAPI/
/// tosa-to-nnapi-invalid.mlir): both come from the NNAPI spec.
class HostNNAPIAtLevel2 : public ::testing::Test {
protected:
  void SetUp() override {
    std::string error;
    ASSERT_TRUE(loadNNAPILibrary(NNAPI_HOST_LIBRARY, fn, error)) << error;
    setProfile = reinterpret_cast<int (*)(const char *)>(
        dlsym(fn.handle, "NNAPIMLIRHost_setProfile"));
    ASSERT_NE(setProfile, nullptr);
    ASSERT_EQ(setProfile(NNAPI_TEST_INPUTS "/devices/old-npu.json"), 0);
  }
  void TearDown() override { setProfile(nullptr); }

  /// CONV_2D 1x1 on [1, 4, 4, 2] with explicit padding, then `extra`.
  void conv(test::HostModelBuilder &b, std::vector<uint32_t> extra) {
    uint32_t x = b.input({1, 4, 4, 2});
    uint32_t out = b.output({1, 4, 4, 2});
    std::vector<uint32_t> ins = {x, b.constant({2, 1, 1, 2}), b.constant({2})};
    for (int v : {0, 0, 0, 0, 1, 1, 0})
      ins.push_back(b.i32(v));
    ins.insert(ins.end(), extra.begin(), extra.end());
    b.operation(ANEURALNETWORKS_CONV_2D, ins, {out});
  }
  /// Whether the one device runs every operation of `b`'s model.
  bool supported(test::HostModelBuilder &b) {
    ANeuralNetworksDevice *device = nullptr;
    EXPECT_EQ(fn.ANeuralNetworks_getDevice(0, &device), 0);
    bool ok = true;
    EXPECT_EQ(fn.ANeuralNetworksModel_getSupportedOperationsForDevices(
                  b.nnapiModel(), &device, 1, &ok),
              0);
    return ok;
  }

  NNAPIFunctionTable fn;
  int (*setProfile)(const char *) = nullptr;
};

TEST_F(HostNNAPIAtLevel2, RefusesDilations) {
  test::HostModelBuilder b(fn);
  conv(b, {b.boolean(false), b.i32(2), b.i32(2)});
  EXPECT_EQ(b.compile(nullptr), nullptr);
  EXPECT_EQ(b.error(),
            "NNAPI call returned 4: operation 0: device 'old-npu' (feature "
            "level 2) cannot run CONV_2D: needs feature level 3 (dilations "
            "other than 1)");
  EXPECT_FALSE(supported(b));
}

TEST_F(HostNNAPIAtLevel2, RefusesTheLayoutFlag) {
  test::HostModelBuilder b(fn);
  conv(b, {b.boolean(false)});
  EXPECT_EQ(b.compile(nullptr), nullptr);
  EXPECT_NE(b.error().find("cannot run CONV_2D: needs feature level 3 (a "
                           "layout operand)"),
            std::string::npos)
      << b.error();
}

TEST_F(HostNNAPIAtLevel2, RefusesFloat16) {
  test::HostModelBuilder b(fn, ANEURALNETWORKS_TENSOR_FLOAT16);
  uint32_t x = b.input({2, 3});
  uint32_t out = b.output({2, 3});
  b.operation(ANEURALNETWORKS_ADD, {x, x, b.i32(0)}, {out});
  EXPECT_EQ(b.compile(nullptr), nullptr);
  EXPECT_NE(b.error().find("cannot run ADD: needs feature level 3 (float16 "
                           "operands)"),
            std::string::npos)
      << b.error();
}

TEST_F(HostNNAPIAtLevel2, RunsTheLevel1FormOfTheSameConvolution) {
  test::HostModelBuilder b(fn);
  conv(b, {});
  std::vector<std::vector<float>> results;
  EXPECT_TRUE(b.compileAndRun(nullptr, results)) << b.error();
  EXPECT_TRUE(supported(b));
}

} // namespace
