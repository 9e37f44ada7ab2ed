//===- RuntimeTest.cpp - nnapi_rt_execute: results, errors, injection -----===//

#include "TestModels.h"
#include "nnapi-mlir/Runtime/NNAPILoader.h"
#include "nnapi-mlir/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <atomic>
#include <chrono>
#include <dlfcn.h>
#include <thread>
#include <vector>

using namespace nnapi_mlir;

namespace {

class Runtime : public ::testing::Test {
protected:
  void SetUp() override {
    nnapi_rt_set_quiet(1);
    nnapi_rt_set_mode(NNAPI_RT_MODE_AUTO);
    nnapi_rt_set_library_path(NNAPI_HOST_LIBRARY);
    nnapi_rt_reset_stats();
    blob = blob::write(test_models::addBiasReluModel());
  }
  void TearDown() override { setNNAPIFunctionTableForTesting(nullptr); }

  int32_t run(const std::vector<uint8_t> &bytes) {
    void *ins[] = {input};
    void *outs[] = {output};
    return nnapi_rt_execute(bytes.data(), int64_t(bytes.size()), 1, ins, 1,
                            outs);
  }

  std::vector<uint8_t> blob;
  float input[6] = {0, 1, 2, -3, 4, -5};
  float output[6] = {};
};

TEST_F(Runtime, ExecutesThroughTheHostLibrary) {
  ASSERT_EQ(run(blob), NNAPI_RT_OK) << nnapi_rt_last_error();
  float expected[6] = {1, 0, 2.5f, 0, 2, 0}; // relu(x + {1, -2, 0.5})
  for (int i = 0; i < 6; ++i)
    EXPECT_FLOAT_EQ(output[i], expected[i]) << i;
  // The second call reuses the compiled partition.
  input[0] = 10;
  ASSERT_EQ(run(blob), NNAPI_RT_OK);
  EXPECT_FLOAT_EQ(output[0], 11);
  uint64_t ok = 0, failed = 0;
  nnapi_rt_get_stats(&ok, &failed);
  EXPECT_EQ(ok, 2u);
  EXPECT_EQ(failed, 0u);
}

// FULLY_CONNECTED on the runtime's pool of 2 threads against float64 sums,
// for input widths that are and are not multiples of 4, few rows and more
// units than one register tile: Debian's XNNPACK split such an operator's
// units over threads wrongly when the width was not a multiple of 4 (3 rows
// of 6 inputs into 24 units were off by up to 2.4 on AVX2 CPUs).
TEST_F(Runtime, FullyConnectedIsRightOnSeveralThreads) {
  ASSERT_EQ(nnapi_rt_set_option("threads_force", "1"), NNAPI_RT_OK);
  ASSERT_EQ(nnapi_rt_set_threads(2), NNAPI_RT_OK);
  for (uint32_t width : {6u, 8u, 18u, 33u}) {
    for (uint32_t rows : {1u, 3u, 64u}) {
      const uint32_t units = 24;
      std::vector<float> w(units * width), bias(units), x(rows * width),
          y(rows * units);
      for (size_t i = 0; i < w.size(); ++i)
        w[i] = float(int(i * 7919 % 200) - 100) / 100.0f;
      for (size_t i = 0; i < bias.size(); ++i)
        bias[i] = float(int(i * 104729 % 200) - 100) / 100.0f;
      for (size_t i = 0; i < x.size(); ++i)
        x[i] = float(int(i * 15485863 % 200) - 100) / 100.0f;
      blob::Model m;
      uint32_t in = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32,
                                 {rows, width}, blob::Lifetime::ModelInput);
      uint32_t wi = m.addConstant(ANEURALNETWORKS_TENSOR_FLOAT32,
                                  {units, width}, w.data(), w.size() * 4);
      uint32_t bi = m.addConstant(ANEURALNETWORKS_TENSOR_FLOAT32, {units},
                                  bias.data(), bias.size() * 4);
      uint32_t fuse = m.addInt32(ANEURALNETWORKS_FUSED_NONE);
      uint32_t out = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32,
                                  {rows, units}, blob::Lifetime::ModelOutput);
      m.operations.push_back(
          {ANEURALNETWORKS_FULLY_CONNECTED, {in, wi, bi, fuse}, {out}});
      m.inputs = {in};
      m.outputs = {out};
      std::vector<uint8_t> bytes = blob::write(m);
      void *ins[] = {x.data()};
      void *outs[] = {y.data()};
      ASSERT_EQ(nnapi_rt_execute(bytes.data(), int64_t(bytes.size()), 1, ins,
                                 1, outs),
                NNAPI_RT_OK)
          << nnapi_rt_last_error();
      for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t u = 0; u < units; ++u) {
          double sum = bias[u];
          for (uint32_t k = 0; k < width; ++k)
            sum += double(x[r * width + k]) * w[u * width + k];
          ASSERT_NEAR(y[r * units + u], sum, 1e-4)
              << "width " << width << ", rows " << rows << ", row " << r
              << ", unit " << u;
        }
    }
  }
  nnapi_rt_set_option("threads", nullptr);
  nnapi_rt_set_option("threads_force", nullptr);
}

// A library unloaded and another loaded at the same address (dlclose, then
// dlopen) puts a different blob where the first was: the runtime must run
// the new blob, not the partition it built for the old one.
TEST_F(Runtime, ANewBlobAtAnOldAddressIsANewPartition) {
  std::vector<uint8_t> other = blob::write(test_models::addBiasReluModel(7.0f));
  ASSERT_EQ(other.size(), blob.size());
  std::vector<uint8_t> buffer = blob;
  ASSERT_EQ(run(buffer), NNAPI_RT_OK) << nnapi_rt_last_error();
  EXPECT_FLOAT_EQ(output[0], 1); // relu(0 + 1)
  std::memcpy(buffer.data(), other.data(), other.size());
  ASSERT_EQ(run(buffer), NNAPI_RT_OK) << nnapi_rt_last_error();
  EXPECT_FLOAT_EQ(output[0], 7); // relu(0 + 7)
  std::memcpy(buffer.data(), blob.data(), blob.size());
  ASSERT_EQ(run(buffer), NNAPI_RT_OK) << nnapi_rt_last_error();
  EXPECT_FLOAT_EQ(output[0], 1);
}

// nnapi_rt_reset() and nnapi_rt_set_library_path() while other threads
// execute: an execution keeps its partition and library alive until it is
// done, so every run still returns the right result (the next one loads
// the library again).
TEST_F(Runtime, ResetWhileOtherThreadsExecute) {
  std::atomic<bool> stop{false};
  std::atomic<int> wrong{0}, runs{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      float in[6] = {float(t), 1, 2, -3, 4, -5}, out[6] = {};
      void *ins[] = {in};
      void *outs[] = {out};
      while (!stop) {
        if (nnapi_rt_execute(blob.data(), int64_t(blob.size()), 1, ins, 1,
                             outs) != NNAPI_RT_OK ||
            out[0] != float(t) + 1)
          ++wrong;
        ++runs;
      }
    });
  // Let the threads get going first: on a loaded machine (CI's ASan build)
  // the loop below finished before any of them had run once. Bounded, so
  // that a runtime that never executes fails below instead of hanging.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (runs < 8 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::yield();
  for (int i = 0; i < 200; ++i) {
    if (i % 2)
      nnapi_rt_reset();
    else
      nnapi_rt_set_library_path(NNAPI_HOST_LIBRARY);
    std::this_thread::yield();
  }
  stop = true;
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(wrong, 0) << "of " << runs << " runs";
  EXPECT_GT(runs, 0);
}

TEST_F(Runtime, TruncatedBlobIsAnErrorNotACrash) {
  std::vector<uint8_t> cut(blob.begin(), blob.begin() + blob.size() / 2);
  EXPECT_EQ(run(cut), NNAPI_RT_INVALID_BLOB);
  EXPECT_NE(std::string(nnapi_rt_last_error()).find("size mismatch"),
            std::string::npos)
      << nnapi_rt_last_error();
}

TEST_F(Runtime, CorruptedBlobIsAnError) {
  std::vector<uint8_t> bad = blob;
  bad[bad.size() - 3] ^= 0xFF;
  EXPECT_EQ(run(bad), NNAPI_RT_INVALID_BLOB);
  EXPECT_NE(std::string(nnapi_rt_last_error()).find("checksum"),
            std::string::npos);
  uint64_t ok = 0, failed = 0;
  nnapi_rt_get_stats(&ok, &failed);
  EXPECT_EQ(failed, 1u);
}

TEST_F(Runtime, MissingLibraryIsReported) {
  nnapi_rt_set_library_path("/nonexistent/libneuralnetworks.so");
  EXPECT_EQ(run(blob), NNAPI_RT_LIBRARY_UNAVAILABLE);
  EXPECT_NE(std::string(nnapi_rt_last_error()).find("cannot load NNAPI library"),
            std::string::npos);
}

// The app's log callback takes every warning, quiet or not, once each; NULL
// gives them back to the default (here: quiet, so nowhere).
TEST_F(Runtime, WarningsGoToTheLogCallback) {
  struct Log {
    std::vector<std::pair<int32_t, std::string>> lines;
  } log;
  nnapi_rt_set_log_callback(
      [](void *user, int32_t level, const char *message) {
        static_cast<Log *>(user)->lines.emplace_back(level, message);
      },
      &log);
  nnapi_rt_set_library_path("/nonexistent/libneuralnetworks.so");
  EXPECT_EQ(run(blob), NNAPI_RT_LIBRARY_UNAVAILABLE);
  nnapi_rt_set_log_callback(nullptr, nullptr);
  EXPECT_EQ(run(blob), NNAPI_RT_LIBRARY_UNAVAILABLE);
  ASSERT_EQ(log.lines.size(), 1u);
  EXPECT_EQ(log.lines[0].first, NNAPI_RT_LOG_WARNING);
  EXPECT_NE(log.lines[0].second.find("NNAPI partition failed "
                                     "(NNAPI_RT_LIBRARY_UNAVAILABLE: cannot "
                                     "load NNAPI library"),
            std::string::npos)
      << log.lines[0].second;
}

TEST_F(Runtime, HostOnlyModeNeverCallsNNAPI) {
  nnapi_rt_set_mode(NNAPI_RT_MODE_HOST_ONLY);
  EXPECT_EQ(run(blob), NNAPI_RT_DISABLED);
  nnapi_rt_set_mode(NNAPI_RT_MODE_AUTO);
}

TEST_F(Runtime, WrongArgumentsAreRejected) {
  void *ins[] = {input};
  EXPECT_EQ(nnapi_rt_execute(blob.data(), int64_t(blob.size()), 2, ins, 1, ins),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_EQ(nnapi_rt_execute(nullptr, 10, 1, ins, 1, ins),
            NNAPI_RT_INVALID_ARGUMENT);
}

// A driver that accepts the model but fails at compilation.
int failingFinish(ANeuralNetworksCompilation *) {
  return ANEURALNETWORKS_OP_FAILED;
}

TEST_F(Runtime, InjectedDriverFailureNamesTheCallAndCode) {
  static NNAPIFunctionTable table;
  std::string error;
  ASSERT_TRUE(loadNNAPILibrary(NNAPI_HOST_LIBRARY, table, error)) << error;
  table.ANeuralNetworksCompilation_finish = failingFinish;
  // The injected function is not the host library's: it has no explanation.
  table.hostLastError = nullptr;
  setNNAPIFunctionTableForTesting(&table);
  EXPECT_EQ(run(blob), NNAPI_RT_NNAPI_ERROR);
  EXPECT_STREQ(nnapi_rt_last_error(),
               "no NNAPI device runs this partition: device "
               "'nnapi-mlir-host': ANeuralNetworksCompilation_finish failed "
               "with OP_FAILED (5)");
  // The failure is remembered: the partition is not rebuilt on every call.
  EXPECT_EQ(run(blob), NNAPI_RT_NNAPI_ERROR);
}

TEST(RuntimeNames, StatusAndResultCodes) {
  EXPECT_STREQ(nnapi_rt_status_name(NNAPI_RT_INVALID_BLOB),
               "NNAPI_RT_INVALID_BLOB");
  EXPECT_STREQ(nnapi_rt_result_code_name(ANEURALNETWORKS_BAD_DATA), "BAD_DATA");
  EXPECT_STREQ(nnapi_rt_result_code_name(99), "UNKNOWN");
}

} // namespace

namespace {
TEST_F(Runtime, ADeviceWithoutAnOperationIsNamedWithIt) {
  // The host library impersonating a device without float32 ADD says so
  // when asked which operations it runs: the partition is not compiled
  // there, and the error names the device, the operation and its type, and
  // carries the library's reason.
  static NNAPIFunctionTable table;
  std::string error;
  ASSERT_TRUE(loadNNAPILibrary(NNAPI_HOST_LIBRARY, table, error)) << error;
  auto setProfile = reinterpret_cast<int (*)(const char *)>(
      dlsym(table.handle, "NNAPIMLIRHost_setProfile"));
  ASSERT_NE(setProfile, nullptr);
  ASSERT_EQ(setProfile(NNAPI_PROFILES_DIR "/npu.json"), 0);
  setNNAPIFunctionTableForTesting(&table);
  EXPECT_EQ(run(blob), NNAPI_RT_NNAPI_ERROR);
  EXPECT_STREQ(nnapi_rt_last_error(),
               "no NNAPI device runs this partition: device 'npu' does not "
               "run operation 0 (ADD on TENSOR_FLOAT32): device 'npu' does "
               "not support ADD on float32 (it would with float32 relaxed to "
               "float16)");
  setProfile(nullptr);
}
} // namespace

namespace {

int executionsCreated = 0;
int (*realExecutionCreate)(ANeuralNetworksCompilation *,
                           ANeuralNetworksExecution **) = nullptr;
int countingExecutionCreate(ANeuralNetworksCompilation *c,
                            ANeuralNetworksExecution **e) {
  ++executionsCreated;
  return realExecutionCreate(c, e);
}

/// A call with the buffers of the previous one recomputes its reusable
/// execution; other buffers get a new execution; results are right either
/// way. Without ANeuralNetworksExecution_setReusable every call creates one.
TEST_F(Runtime, ReusesExecutionsOnlyForTheSameBuffers) {
  for (bool reusable : {true, false}) {
    static NNAPIFunctionTable table;
    std::string error;
    ASSERT_TRUE(loadNNAPILibrary(NNAPI_HOST_LIBRARY, table, error)) << error;
    realExecutionCreate = table.ANeuralNetworksExecution_create;
    table.ANeuralNetworksExecution_create = countingExecutionCreate;
    if (!reusable)
      table.ANeuralNetworksExecution_setReusable = nullptr;
    setNNAPIFunctionTableForTesting(&table);
    executionsCreated = 0;

    float other[6] = {5, 5, 5, 5, 5, 5}, otherOut[6] = {};
    void *ins[] = {other};
    void *outs[] = {otherOut};
    ASSERT_EQ(run(blob), NNAPI_RT_OK) << nnapi_rt_last_error();
    input[0] = 7;
    ASSERT_EQ(run(blob), NNAPI_RT_OK);
    EXPECT_FLOAT_EQ(output[0], 8); // new contents, same buffers
    ASSERT_EQ(nnapi_rt_execute(blob.data(), int64_t(blob.size()), 1, ins, 1,
                               outs),
              NNAPI_RT_OK);
    EXPECT_FLOAT_EQ(otherOut[1], 3); // relu(5 - 2)
    input[0] = -9;
    ASSERT_EQ(run(blob), NNAPI_RT_OK);
    EXPECT_FLOAT_EQ(output[0], 0);
    EXPECT_EQ(executionsCreated, reusable ? 3 : 4) << reusable;
    setNNAPIFunctionTableForTesting(nullptr);
  }
}

/// relu(x + b) on [rows, 3] floats: 2 rows, or 8192 (96 KiB, above the
/// size that is given to NNAPI as memory).
std::vector<uint8_t> addBiasReluBlob(uint32_t rows) {
  blob::Model m = test_models::addBiasReluModel();
  m.operands[m.inputs[0]].dims = {rows, 3};
  m.operands[m.outputs[0]].dims = {rows, 3};
  return blob::write(m);
}

/// Buffers of nnapi_rt_alloc (shared blocks) reach NNAPI as memory, others
/// as pointers; results are the same, before and after nnapi_rt_trim_pool
/// freed the memories made over freed blocks.
TEST_F(Runtime, GivesSharedBlocksToNNAPIAsMemory) {
  const uint32_t rows = 8192;
  const size_t bytes = rows * 3 * sizeof(float);
  std::vector<uint8_t> large = addBiasReluBlob(rows);
  auto check = [&](const float *out, const float *in) {
    const float bias[3] = {1, -2, 0.5f};
    for (size_t i = 0; i < rows * 3; ++i)
      if (out[i] != std::max(in[i] + bias[i % 3], 0.0f))
        return ::testing::AssertionFailure() << "element " << i;
    return ::testing::AssertionSuccess();
  };
  for (int round = 0; round < 3; ++round) {
    auto *in = static_cast<float *>(nnapi_rt_alloc(bytes, 64));
    auto *out = static_cast<float *>(nnapi_rt_alloc(bytes, 64));
    ASSERT_TRUE(in && out);
    for (size_t i = 0; i < rows * 3; ++i)
      in[i] = float(int(i % 7) - 3) + float(round);
    nnapi_rt_reset_stats();
    void *ins[] = {in}, *outs[] = {out};
    ASSERT_EQ(nnapi_rt_execute(large.data(), int64_t(large.size()), 1, ins, 1,
                               outs),
              NNAPI_RT_OK)
        << nnapi_rt_last_error();
    EXPECT_TRUE(check(out, in)) << "round " << round;
    uint64_t memory = 0, pointer = 0;
    nnapi_rt_get_binding_stats(&memory, &pointer);
    EXPECT_EQ(memory, 2 * bytes);
    EXPECT_EQ(pointer, 0u);

    // The same data in the caller's own buffers goes as pointers.
    std::vector<float> mineIn(in, in + rows * 3), mineOut(rows * 3);
    void *mineIns[] = {mineIn.data()}, *mineOuts[] = {mineOut.data()};
    ASSERT_EQ(nnapi_rt_execute(large.data(), int64_t(large.size()), 1, mineIns,
                               1, mineOuts),
              NNAPI_RT_OK);
    EXPECT_TRUE(check(mineOut.data(), mineIn.data()));
    nnapi_rt_get_binding_stats(&memory, &pointer);
    EXPECT_EQ(pointer, 2 * bytes);
    nnapi_rt_free(in);
    nnapi_rt_free(out);
    // Round 1 frees the blocks (and their NNAPI memories) to the system:
    // round 2's blocks may reuse the addresses, and must get new memories.
    if (round == 1)
      nnapi_rt_trim_pool();
  }
  // bind_memory=0 gives pointers only; small buffers always go as pointers.
  nnapi_rt_reset_stats();
  ASSERT_EQ(nnapi_rt_set_option("bind_memory", "0"), NNAPI_RT_OK);
  auto *in = static_cast<float *>(nnapi_rt_alloc(bytes, 64));
  auto *out = static_cast<float *>(nnapi_rt_alloc(bytes, 64));
  std::memset(in, 0, bytes);
  void *ins[] = {in}, *outs[] = {out};
  ASSERT_EQ(nnapi_rt_execute(large.data(), int64_t(large.size()), 1, ins, 1,
                             outs),
            NNAPI_RT_OK);
  EXPECT_TRUE(check(out, in));
  uint64_t memory = 1, pointer = 0;
  nnapi_rt_get_binding_stats(&memory, &pointer);
  EXPECT_EQ(memory, 0u) << "bind_memory=0 gives pointers only";
  EXPECT_EQ(pointer, 2 * bytes);
  nnapi_rt_free(in);
  nnapi_rt_free(out);
  ASSERT_EQ(nnapi_rt_set_option("bind_memory", nullptr), NNAPI_RT_OK);
  ASSERT_EQ(run(blob), NNAPI_RT_OK); // 24 bytes: pointers
  nnapi_rt_get_binding_stats(&memory, &pointer);
  EXPECT_EQ(pointer, 2 * bytes + 48);
}

} // namespace

namespace {

/// The pool behind compiled models' buffers (Runtime.h): blocks of 64 KiB
/// and more come back for the next request of the same size and alignment.
TEST(BufferPool, ReusesFreedLargeBlocksAndHonoursAlignment) {
  nnapi_rt_trim_pool();
  uint64_t cached = 1, hits = 0, misses = 0;
  nnapi_rt_get_pool_stats(&cached, &hits, &misses);
  EXPECT_EQ(cached, 0u);
  const uint64_t hits0 = hits, misses0 = misses;

  const size_t big = 1 << 20;
  void *a = nnapi_rt_alloc(big, 64);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  std::memset(a, 1, big); // the whole block is usable
  nnapi_rt_free(a);
  nnapi_rt_get_pool_stats(&cached, &hits, &misses);
  EXPECT_EQ(cached, big);
  void *b = nnapi_rt_alloc(big, 64);
  EXPECT_EQ(b, a);
  nnapi_rt_get_pool_stats(&cached, &hits, &misses);
  EXPECT_EQ(cached, 0u);
  EXPECT_EQ(hits, hits0 + 1);
  EXPECT_EQ(misses, misses0 + 1);

  // Another alignment is another size class; sizes round up to it.
  void *c = nnapi_rt_alloc(big + 1, 4096);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(c) % 4096, 0u);
  // Small blocks do not enter the pool.
  void *small = nnapi_rt_alloc(100, 64);
  ASSERT_NE(small, nullptr);
  nnapi_rt_free(small);
  nnapi_rt_free(b);
  nnapi_rt_free(c);
  nnapi_rt_get_pool_stats(&cached, &hits, &misses);
  EXPECT_EQ(cached, big + (big + 4096));
  nnapi_rt_trim_pool();
  nnapi_rt_get_pool_stats(&cached, &hits, &misses);
  EXPECT_EQ(cached, 0u);

  EXPECT_EQ(nnapi_rt_alloc(64, 96), nullptr) << "alignment not a power of two";
  EXPECT_EQ(nnapi_rt_alloc(UINT64_MAX - 8, 64), nullptr) << "size overflows";
  nnapi_rt_free(nullptr);
}

/// Small blocks a thread frees come back for its next request of the same
/// size and alignment (a dynamic model's arena, allocated per call), not for
/// another size or another thread's; a thread's kept blocks are freed when
/// it ends (LeakSanitizer checks that in the sanitizer jobs).
TEST(BufferPool, KeepsAThreadsFreedSmallBlocksForIt) {
  void *a = nnapi_rt_alloc(1000, 64);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  std::memset(a, 1, 1000);
  nnapi_rt_free(a);
  void *other = nnapi_rt_alloc(2000, 64);
  EXPECT_NE(other, a) << "another size";
  void *aligned = nnapi_rt_alloc(1000, 128);
  EXPECT_NE(aligned, a) << "another alignment";
  EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned) % 128, 0u);
  void *fromThread = nullptr;
  std::thread([&] { fromThread = nnapi_rt_alloc(1000, 64); }).join();
  EXPECT_NE(fromThread, a) << "another thread";
  void *again = nnapi_rt_alloc(1000, 64);
  EXPECT_EQ(again, a);
  // Freed here, from another thread than the one that allocated it.
  nnapi_rt_free(fromThread);
  // More frees than the thread keeps: the rest go to the system.
  std::vector<void *> many;
  for (int i = 0; i < 20; ++i)
    many.push_back(nnapi_rt_alloc(512, 64));
  for (void *p : many)
    nnapi_rt_free(p);
  std::thread([] {
    void *p = nnapi_rt_alloc(300, 64);
    nnapi_rt_free(p); // kept by this thread until it ends
  }).join();
  nnapi_rt_free(again);
  nnapi_rt_free(other);
  nnapi_rt_free(aligned);
  // A full cache keeps the newest block, not the old ones: after eight
  // sizes that are never asked for again, a ninth comes back.
  for (int i = 0; i < 8; ++i)
    nnapi_rt_free(nnapi_rt_alloc(64 * (i + 20), 64));
  void *newest = nnapi_rt_alloc(4000, 64);
  nnapi_rt_free(newest);
  // (The request the runtime makes of the system for such a block: had the
  // block gone back to the system, this would be given it.)
  void *system = std::aligned_alloc(64, 64 + 4000);
  void *back = nnapi_rt_alloc(4000, 64);
  EXPECT_EQ(back, newest);
  nnapi_rt_free(back);
  std::free(system);
}

} // namespace

namespace {

/// relu(x W^T + b) for x [rows, 4] with the rows dynamic (0 in the blob),
/// W [3, 4], b [3]: the partition nnapi_rt_prepare_dims specializes.
std::vector<uint8_t> dynamicRowsBlob() {
  blob::Model m;
  uint32_t x = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {0, 4},
                            blob::Lifetime::ModelInput);
  float w[12], b[3] = {0.5f, -1.0f, 0.25f};
  for (int i = 0; i < 12; ++i)
    w[i] = float(i % 5) - 2.0f;
  uint32_t wi = m.addConstant(ANEURALNETWORKS_TENSOR_FLOAT32, {3, 4}, w,
                              sizeof w);
  uint32_t bi = m.addConstant(ANEURALNETWORKS_TENSOR_FLOAT32, {3}, b, sizeof b);
  uint32_t fc = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {0, 0});
  m.operations.push_back({ANEURALNETWORKS_FULLY_CONNECTED,
                          {x, wi, bi, m.addInt32(0)},
                          {fc}});
  uint32_t y = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {0, 3},
                            blob::Lifetime::ModelOutput);
  m.operations.push_back({ANEURALNETWORKS_RELU, {fc}, {y}});
  m.inputs = {x};
  m.outputs = {y};
  return blob::write(m);
}

/// The same, in float64, from the weights written out above.
std::vector<float> dynamicRowsReference(const std::vector<float> &x) {
  const double b[3] = {0.5, -1.0, 0.25};
  std::vector<float> y;
  for (size_t r = 0; r < x.size() / 4; ++r)
    for (int u = 0; u < 3; ++u) {
      double acc = b[u];
      for (int k = 0; k < 4; ++k)
        acc += double(x[r * 4 + k]) * double((u * 4 + k) % 5 - 2);
      y.push_back(float(acc > 0 ? acc : 0));
    }
  return y;
}

} // namespace

TEST_F(Runtime, SpecializesADynamicPartitionPerShape) {
  std::vector<uint8_t> bytes = dynamicRowsBlob();
  auto runAt = [&](int64_t rows) {
    std::vector<float> x(size_t(rows) * 4);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = float(int(i * 37 % 11) - 5) * 0.5f;
    int64_t dims[2] = {rows, 4}, outDims[2] = {0, 0};
    ASSERT_EQ(nnapi_rt_prepare_dims(bytes.data(), int64_t(bytes.size()), "p",
                                    2, dims, 1, outDims),
              NNAPI_RT_OK)
        << nnapi_rt_last_error();
    EXPECT_EQ(outDims[0], rows);
    EXPECT_EQ(outDims[1], 3);
    std::vector<float> y(size_t(rows) * 3, -1.0f);
    void *ins[] = {x.data()}, *outs[] = {y.data()};
    ASSERT_EQ(nnapi_rt_execute_dims(bytes.data(), int64_t(bytes.size()), "p",
                                    2, dims, 1, ins, 1, outs),
              NNAPI_RT_OK)
        << nnapi_rt_last_error();
    std::vector<float> want = dynamicRowsReference(x);
    for (size_t i = 0; i < y.size(); ++i)
      EXPECT_NEAR(y[i], want[i], 1e-5) << "rows " << rows << " at " << i;
  };
  runAt(2);
  runAt(7);
  runAt(2);
  uint64_t built = 0, hits = 0, evicted = 0;
  nnapi_rt_get_shape_stats(&built, &hits, &evicted);
  EXPECT_EQ(built, 2u);
  EXPECT_EQ(hits, 1u);
  EXPECT_EQ(evicted, 0u);
  // The specialization is listed with its shape.
  bool listed = false;
  for (int32_t i = 0; i < nnapi_rt_partition_count(); ++i) {
    nnapi_rt_partition_info info;
    ASSERT_EQ(nnapi_rt_get_partition_info(i, &info), NNAPI_RT_OK);
    listed = listed || std::string(info.name) == "p at 7x4";
  }
  EXPECT_TRUE(listed);
  // Eight shapes are kept: a ninth drops the least recently used (rows 7;
  // rows 2 ran after it).
  for (int64_t rows = 10; rows < 17; ++rows)
    runAt(rows);
  nnapi_rt_get_shape_stats(&built, &hits, &evicted);
  EXPECT_EQ(built, 9u);
  EXPECT_EQ(evicted, 1u);
  runAt(2);
  nnapi_rt_get_shape_stats(&built, &hits, &evicted);
  EXPECT_EQ(built, 9u) << "rows 2 was kept";
  runAt(7);
  nnapi_rt_get_shape_stats(&built, &hits, &evicted);
  EXPECT_EQ(built, 10u) << "rows 7 was dropped";
}

TEST_F(Runtime, RefusesDimsADynamicPartitionCannotTake) {
  std::vector<uint8_t> bytes = dynamicRowsBlob();
  int64_t outDims[2];
  int64_t wrongWidth[2] = {3, 5};
  EXPECT_EQ(nnapi_rt_prepare_dims(bytes.data(), int64_t(bytes.size()), "p", 2,
                                  wrongWidth, 1, outDims),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_NE(std::string(nnapi_rt_last_error())
                .find("input 0 dimension 1 is 5, the partition's is 4"),
            std::string::npos)
      << nnapi_rt_last_error();
  int64_t tooFew[1] = {3};
  EXPECT_EQ(nnapi_rt_prepare_dims(bytes.data(), int64_t(bytes.size()), "p", 1,
                                  tooFew, 1, outDims),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_NE(std::string(nnapi_rt_last_error())
                .find("the partition's inputs have 2 dimensions, the call "
                      "gave 1"),
            std::string::npos)
      << nnapi_rt_last_error();
  int64_t zero[2] = {0, 4};
  EXPECT_EQ(nnapi_rt_prepare_dims(bytes.data(), int64_t(bytes.size()), "p", 2,
                                  zero, 1, outDims),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_NE(std::string(nnapi_rt_last_error()).find("not in 1..2^31-1"),
            std::string::npos)
      << nnapi_rt_last_error();
  EXPECT_EQ(nnapi_rt_prepare_dims(bytes.data(), int64_t(bytes.size()), "p", 2,
                                  nullptr, 1, outDims),
            NNAPI_RT_INVALID_ARGUMENT);
  // A blob whose declared shapes contradict the rules, or with a dynamic
  // output no rule computes, is refused naming the operation.
  auto refused = [&](blob::Model m, const char *message,
                     std::vector<int64_t> dims = {3, 4}) {
    std::vector<uint8_t> b = blob::write(m);
    int64_t out[3];
    EXPECT_EQ(nnapi_rt_prepare_dims(b.data(), int64_t(b.size()), "q",
                                    int64_t(dims.size()), dims.data(), 1, out),
              NNAPI_RT_INVALID_ARGUMENT);
    EXPECT_NE(std::string(nnapi_rt_last_error()).find(message),
              std::string::npos)
        << nnapi_rt_last_error();
  };
  {
    blob::Model m;
    uint32_t x = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {0, 4},
                              blob::Lifetime::ModelInput);
    uint32_t y = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {0, 5},
                              blob::Lifetime::ModelOutput);
    m.operations.push_back({ANEURALNETWORKS_RELU, {x}, {y}});
    m.inputs = {x};
    m.outputs = {y};
    refused(m, "operation 0 (RELU) computes output 0 as [3,4], the partition "
               "declares [0,5]");
  }
  {
    // A batch-major sequence RNN over a dynamic number of steps.
    blob::Model m;
    uint32_t x = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {3, 0, 4},
                              blob::Lifetime::ModelInput);
    std::vector<float> zeros(16, 0.0f);
    uint32_t w = m.addConstant(ANEURALNETWORKS_TENSOR_FLOAT32, {2, 4},
                               zeros.data(), 8 * sizeof(float));
    uint32_t r = m.addConstant(ANEURALNETWORKS_TENSOR_FLOAT32, {2, 2},
                               zeros.data(), 4 * sizeof(float));
    uint32_t bias = m.addConstant(ANEURALNETWORKS_TENSOR_FLOAT32, {2},
                                  zeros.data(), 2 * sizeof(float));
    uint32_t h = m.addConstant(ANEURALNETWORKS_TENSOR_FLOAT32, {3, 2},
                               zeros.data(), 6 * sizeof(float));
    uint32_t y = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {3, 0, 2},
                              blob::Lifetime::ModelOutput);
    m.operations.push_back({ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_RNN,
                            {x, w, r, bias, h, m.addInt32(1), m.addInt32(0)},
                            {y}});
    m.inputs = {x};
    m.outputs = {y};
    refused(m,
            "operation 0 (UNIDIRECTIONAL_SEQUENCE_RNN) has no output-shape "
            "rule for its dynamic output",
            {3, 5, 4});
  }
  {
    // TILE's rule fills in the tiled dimension.
    blob::Model m;
    uint32_t x = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {0, 4},
                              blob::Lifetime::ModelInput);
    int32_t multiples[2] = {2, 1};
    uint32_t k = m.addConstant(ANEURALNETWORKS_TENSOR_INT32, {2}, multiples,
                               sizeof multiples);
    uint32_t y = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {0, 4},
                              blob::Lifetime::ModelOutput);
    m.operations.push_back({ANEURALNETWORKS_TILE, {x, k}, {y}});
    m.inputs = {x};
    m.outputs = {y};
    std::vector<uint8_t> b = blob::write(m);
    int64_t dims[2] = {3, 4}, out[2] = {};
    ASSERT_EQ(nnapi_rt_prepare_dims(b.data(), int64_t(b.size()), "t", 2, dims,
                                    1, out),
              NNAPI_RT_OK)
        << nnapi_rt_last_error();
    EXPECT_EQ(out[0], 6);
    EXPECT_EQ(out[1], 4);
  }
  // Without dims, a dynamic partition is refused with the way out.
  float x[8] = {}, y[6] = {};
  void *ins[] = {x}, *outs[] = {y};
  EXPECT_EQ(nnapi_rt_execute(bytes.data(), int64_t(bytes.size()), 1, ins, 1,
                             outs),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_NE(std::string(nnapi_rt_last_error()).find("nnapi_rt_execute_dims"),
            std::string::npos)
      << nnapi_rt_last_error();
}
