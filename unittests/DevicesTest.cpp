//===- DevicesTest.cpp - Device choice, caching, bursts, timing -----------===//
//
// The runtime on a library with several devices (the host NNAPI library
// playing an NPU, a GPU, a DSP and NNAPI's CPU reference device, from the
// profiles in test/Inputs/devices): which device runs a partition and why,
// the compilation cache the host device really writes and checks, bursts,
// timing, and every bad option value.
//
//===----------------------------------------------------------------------===//

#include "TestModels.h"
#include "nnapi-mlir/HostDevice/HostExtensions.h"
#include "nnapi-mlir/Runtime/NNAPILoader.h"
#include "nnapi-mlir/Runtime/Runtime.h"
#include "nnapi-mlir/Support/Sha256.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <dlfcn.h>
#include <fstream>
#include <iterator>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace nnapi_mlir;

namespace {

#define DEVICE(name) NNAPI_TEST_INPUTS "/devices/" name ".json"

const char *const kOptionNames[] = {"devices",  "cache_dir", "preference",
                                    "priority", "bursts",    "timing"};

class Devices : public ::testing::Test {
protected:
  static NNAPIFunctionTable &library() {
    static NNAPIFunctionTable table;
    static bool loaded = [] {
      std::string error;
      return loadNNAPILibrary(NNAPI_HOST_LIBRARY, table, error);
    }();
    EXPECT_TRUE(loaded);
    return table;
  }
  template <typename F> F extension(const char *name) {
    return reinterpret_cast<F>(dlsym(library().handle, name));
  }

  void SetUp() override {
    nnapi_rt_set_quiet(1);
    nnapi_rt_set_mode(NNAPI_RT_MODE_AUTO);
    blob = blob::write(test_models::addBiasReluModel());
  }
  void TearDown() override {
    for (const char *name : kOptionNames)
      nnapi_rt_set_option(name, nullptr);
    extension<NNAPIMLIRHost_setDevices_fn>("NNAPIMLIRHost_setDevices")(
        nullptr);
    setNNAPIFunctionTableForTesting(nullptr);
    if (!cacheDir.empty())
      std::system(("rm -rf '" + cacheDir + "'").c_str());
  }

  /// The host library enumerates `spec`'s devices; the runtime uses it.
  void useDevices(const char *spec) {
    ASSERT_EQ(extension<NNAPIMLIRHost_setDevices_fn>(
                  "NNAPIMLIRHost_setDevices")(spec),
              ANEURALNETWORKS_NO_ERROR);
    setNNAPIFunctionTableForTesting(&library()); // enumerates them again
  }

  int32_t run(const std::vector<uint8_t> &bytes) {
    void *ins[] = {input};
    void *outs[] = {output};
    return nnapi_rt_execute(bytes.data(), int64_t(bytes.size()), 1, ins, 1,
                            outs);
  }
  void expectSum() {
    float expected[6] = {1, 0, 2.5f, 0, 2, 0}; // relu(x + {1, -2, 0.5})
    for (int i = 0; i < 6; ++i)
      EXPECT_FLOAT_EQ(output[i], expected[i]) << i;
  }

  nnapi_rt_partition_info partition(int32_t index = 0) {
    nnapi_rt_partition_info info;
    std::memset(&info, 0, sizeof info);
    EXPECT_EQ(nnapi_rt_get_partition_info(index, &info), NNAPI_RT_OK)
        << nnapi_rt_last_error();
    return info;
  }

  /// The named device's counters.
  NNAPIMLIRHostDeviceCounters counters(const std::string &name) {
    NNAPIMLIRHostDeviceCounters c;
    std::memset(&c, 0, sizeof c);
    const NNAPIFunctionTable &fn = library();
    uint32_t n = 0;
    fn.ANeuralNetworks_getDeviceCount(&n);
    for (uint32_t i = 0; i < n; ++i) {
      ANeuralNetworksDevice *d = nullptr;
      const char *deviceName = nullptr;
      fn.ANeuralNetworks_getDevice(i, &d);
      fn.ANeuralNetworksDevice_getName(d, &deviceName);
      if (name == deviceName)
        extension<NNAPIMLIRHost_getDeviceCounters_fn>(
            "NNAPIMLIRHost_getDeviceCounters")(d, &c);
    }
    return c;
  }

  std::string makeCacheDir() {
    char pattern[] = "/tmp/nnapi-cache-test-XXXXXX";
    EXPECT_NE(mkdtemp(pattern), nullptr);
    cacheDir = pattern;
    return cacheDir;
  }
  /// The cache files in the cache directory.
  std::vector<std::string> cacheFiles() {
    std::vector<std::string> files;
    if (DIR *dir = opendir(cacheDir.c_str())) {
      while (dirent *e = readdir(dir))
        if (std::strstr(e->d_name, ".nnapi-host-cache"))
          files.push_back(cacheDir + "/" + e->d_name);
      closedir(dir);
    }
    return files;
  }

  std::vector<uint8_t> blob;
  std::string cacheDir;
  float input[6] = {0, 1, 2, -3, 4, -5};
  float output[6] = {};
};

TEST_F(Devices, ListedWithTheirPlaceAmongTheCandidates) {
  useDevices(DEVICE("npu-sim") ",host," DEVICE("gpu-sim") ",reference");
  ASSERT_EQ(nnapi_rt_device_count(), 4);
  struct Want {
    const char *name;
    int32_t type, level, preference;
  } want[] = {{"npu-sim", ANEURALNETWORKS_DEVICE_ACCELERATOR, 5, 0},
              {"nnapi-mlir-host", ANEURALNETWORKS_DEVICE_CPU, 7, 2},
              {"gpu-sim", ANEURALNETWORKS_DEVICE_GPU, 5, 1},
              {"nnapi-reference", ANEURALNETWORKS_DEVICE_CPU, 7, -1}};
  for (int i = 0; i < 4; ++i) {
    nnapi_rt_device_info d;
    ASSERT_EQ(nnapi_rt_get_device_info(i, &d), NNAPI_RT_OK);
    EXPECT_STREQ(d.name, want[i].name);
    EXPECT_EQ(d.type, want[i].type) << d.name;
    EXPECT_EQ(d.featureLevel, want[i].level) << d.name;
    EXPECT_EQ(d.preference, want[i].preference) << d.name;
  }
  nnapi_rt_device_info d;
  EXPECT_EQ(nnapi_rt_get_device_info(4, &d), NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_STREQ(nnapi_rt_last_error(), "device index 4 out of range (4 devices)");
}

// The NPU lacks ADD: the partition goes to the GPU, the next candidate, and
// neither the NPU nor NNAPI's reference device compiles anything.
TEST_F(Devices, APartitionGoesToTheFirstDeviceThatRunsAllOfIt) {
  useDevices(DEVICE("npu-sim") ",host," DEVICE("gpu-sim") ",reference");
  ASSERT_EQ(run(blob), NNAPI_RT_OK) << nnapi_rt_last_error();
  expectSum();
  nnapi_rt_partition_info p = partition();
  EXPECT_STREQ(p.device, "gpu-sim");
  EXPECT_EQ(p.status, NNAPI_RT_OK);
  EXPECT_EQ(p.executions, 1u);
  EXPECT_EQ(counters("gpu-sim").compilations, 1u);
  EXPECT_EQ(counters("npu-sim").compilations, 0u);
  EXPECT_EQ(counters("nnapi-reference").compilations, 0u);
  EXPECT_EQ(counters("nnapi-mlir-host").compilations, 0u);
}

TEST_F(Devices, TheReferenceDeviceRunsOnlyWhenNamed) {
  useDevices(DEVICE("npu-sim") ",reference");
  EXPECT_EQ(run(blob), NNAPI_RT_NNAPI_ERROR);
  EXPECT_STREQ(nnapi_rt_last_error(),
               "no NNAPI device runs this partition: device 'npu-sim' does "
               "not run operation 0 (ADD on TENSOR_FLOAT32): device 'npu-sim' "
               "does not support ADD on float32");
  nnapi_rt_partition_info p = partition();
  EXPECT_STREQ(p.device, "");
  EXPECT_EQ(p.status, NNAPI_RT_NNAPI_ERROR);
  EXPECT_STREQ(p.error, nnapi_rt_last_error());

  ASSERT_EQ(nnapi_rt_set_option("devices", "nnapi-reference"), NNAPI_RT_OK);
  ASSERT_EQ(run(blob), NNAPI_RT_OK) << nnapi_rt_last_error();
  expectSum();
  EXPECT_STREQ(partition().device, "nnapi-reference");
  EXPECT_EQ(counters("nnapi-reference").compilations, 1u);
}

TEST_F(Devices, ExcludedDevicesAndTypesAreNeverCandidates) {
  useDevices(DEVICE("gpu-sim") ",host");
  ASSERT_EQ(nnapi_rt_set_option("devices", "-gpu-sim"), NNAPI_RT_OK);
  ASSERT_EQ(run(blob), NNAPI_RT_OK) << nnapi_rt_last_error();
  EXPECT_STREQ(partition().device, "nnapi-mlir-host");

  ASSERT_EQ(nnapi_rt_set_option("devices", "-gpu, -cpu"), NNAPI_RT_OK);
  EXPECT_EQ(run(blob), NNAPI_RT_NNAPI_ERROR);
  EXPECT_STREQ(nnapi_rt_last_error(),
               "no NNAPI device may run partitions (devices: gpu-sim (gpu), "
               "nnapi-mlir-host (cpu); chosen by '-gpu, -cpu')");

  // Preferred in the order named; a name no device has is no candidate.
  ASSERT_EQ(nnapi_rt_set_option("devices", "tpu,cpu,gpu"), NNAPI_RT_OK);
  ASSERT_EQ(run(blob), NNAPI_RT_OK) << nnapi_rt_last_error();
  EXPECT_STREQ(partition().device, "nnapi-mlir-host");
}

TEST_F(Devices, ADeviceBelowThePartitionsFeatureLevelIsPassedOver) {
  blob::Model model = test_models::addBiasReluModel();
  model.featureLevel = 3;
  blob = blob::write(model);
  useDevices(DEVICE("old-npu") ",host");
  ASSERT_EQ(run(blob), NNAPI_RT_OK) << nnapi_rt_last_error();
  EXPECT_STREQ(partition().device, "nnapi-mlir-host");
  ASSERT_EQ(nnapi_rt_set_option("devices", "old-npu"), NNAPI_RT_OK);
  EXPECT_EQ(run(blob), NNAPI_RT_NNAPI_ERROR);
  EXPECT_STREQ(nnapi_rt_last_error(),
               "no NNAPI device runs this partition: device 'old-npu' has "
               "feature level 2, the partition needs 3");
}

// The second compilation of the same partition on the same device finds the
// entry the first wrote; a corrupted or truncated entry is detected and
// rewritten; other options make another token.
TEST_F(Devices, TheCacheIsWrittenReadAndChecked) {
  useDevices(DEVICE("gpu-sim"));
  std::string dir = makeCacheDir();
  ASSERT_EQ(nnapi_rt_set_option("cache_dir", dir.c_str()), NNAPI_RT_OK);
  ASSERT_EQ(run(blob), NNAPI_RT_OK) << nnapi_rt_last_error();
  EXPECT_TRUE(partition().cached);
  NNAPIMLIRHostDeviceCounters c = counters("gpu-sim");
  EXPECT_EQ(c.cacheEntriesMissing, 1u);
  EXPECT_EQ(c.cacheEntriesWritten, 1u);
  EXPECT_EQ(c.cacheEntriesFound, 0u);
  std::vector<std::string> files = cacheFiles();
  ASSERT_EQ(files.size(), 1u);

  auto recompile = [&] {
    // Setting an option drops the compiled partitions.
    ASSERT_EQ(nnapi_rt_set_option("cache_dir", dir.c_str()), NNAPI_RT_OK);
    ASSERT_EQ(run(blob), NNAPI_RT_OK) << nnapi_rt_last_error();
    expectSum();
  };
  recompile();
  c = counters("gpu-sim");
  EXPECT_EQ(c.cacheEntriesFound, 1u);
  EXPECT_EQ(c.cacheEntriesWritten, 1u);

  std::string bytes;
  {
    std::ifstream in(files[0], std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  ASSERT_GT(bytes.size(), 100u);
  std::string corrupted = bytes;
  corrupted[bytes.size() / 2] ^= 0x40;
  std::ofstream(files[0], std::ios::binary | std::ios::trunc) << corrupted;
  recompile();
  c = counters("gpu-sim");
  EXPECT_EQ(c.cacheEntriesRejected, 1u);
  EXPECT_EQ(c.cacheEntriesWritten, 2u);
  recompile(); // the rewritten entry is good again
  EXPECT_EQ(counters("gpu-sim").cacheEntriesFound, 2u);

  std::ofstream(files[0], std::ios::binary | std::ios::trunc)
      << bytes.substr(0, bytes.size() / 2);
  recompile();
  c = counters("gpu-sim");
  EXPECT_EQ(c.cacheEntriesRejected, 2u);
  EXPECT_EQ(c.cacheEntriesWritten, 3u);

  // A priority is part of the token: a new entry beside the old one.
  ASSERT_EQ(nnapi_rt_set_option("priority", "high"), NNAPI_RT_OK);
  ASSERT_EQ(run(blob), NNAPI_RT_OK) << nnapi_rt_last_error();
  EXPECT_EQ(counters("gpu-sim").cacheEntriesMissing, 2u);
  EXPECT_EQ(cacheFiles().size(), 2u);
}

// Anyone who may write a shared cache directory may plant anything under an
// entry's name: a directory (libstdc++'s file streams threw through the C
// API for it, aborting the process), a link to another file (it was
// truncated and overwritten), a FIFO (a read blocked forever) or a link to
// /dev/zero (read until memory ran out). Each is refused as an entry, the
// compilation still succeeds, and nothing outside the directory changes.
TEST_F(Devices, TheCacheSurvivesHostileEntries) {
  useDevices(DEVICE("gpu-sim"));
  std::string dir = makeCacheDir();
  ASSERT_EQ(nnapi_rt_set_option("cache_dir", dir.c_str()), NNAPI_RT_OK);
  ASSERT_EQ(run(blob), NNAPI_RT_OK) << nnapi_rt_last_error();
  std::vector<std::string> files = cacheFiles();
  ASSERT_EQ(files.size(), 1u);
  const std::string entry = files[0];
  std::string victim = dir + "-victim";
  std::ofstream(victim) << "not a cache entry";

  auto recompile = [&](const char *what) {
    SCOPED_TRACE(what);
    uint64_t rejected = counters("gpu-sim").cacheEntriesRejected;
    ASSERT_EQ(nnapi_rt_set_option("cache_dir", dir.c_str()), NNAPI_RT_OK);
    std::memset(output, 0, sizeof output);
    ASSERT_EQ(run(blob), NNAPI_RT_OK) << nnapi_rt_last_error();
    expectSum();
    EXPECT_EQ(counters("gpu-sim").cacheEntriesRejected, rejected + 1);
  };

  ASSERT_EQ(std::remove(entry.c_str()), 0);
  ASSERT_EQ(mkdir(entry.c_str(), 0700), 0);
  recompile("a directory");
  ASSERT_EQ(rmdir(entry.c_str()), 0);

  ASSERT_EQ(symlink(victim.c_str(), entry.c_str()), 0);
  recompile("a link to another file");
  {
    std::ifstream in(victim);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(text, "not a cache entry");
  }
  // The rewritten entry replaced the link: a regular file of ours again.
  struct stat st;
  ASSERT_EQ(lstat(entry.c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));

  ASSERT_EQ(std::remove(entry.c_str()), 0);
  ASSERT_EQ(mkfifo(entry.c_str(), 0600), 0);
  recompile("a FIFO");
  ASSERT_EQ(std::remove(entry.c_str()), 0);

  ASSERT_EQ(symlink("/dev/zero", entry.c_str()), 0);
  recompile("a link to /dev/zero");
  std::remove(victim.c_str());
}

// Another user of the NNAPI library in the same process (a second runtime,
// or code calling NNAPI itself) never runs on the runtime's thread pool.
// The pool used to be a process-wide setting held during the runtime's
// Compilation_finish: a compilation the other user finished meanwhile
// captured it, and ran on it after nnapi_rt_reset() destroyed it (a use
// after free). Here the other user finishes its compilation from inside
// the runtime's, as another thread could at that moment.
/// addBiasReluModel() built through `fn` as its user would, finished.
ANeuralNetworksModel *buildAddBiasRelu(const NNAPIFunctionTable &fn) {
  ANeuralNetworksModel *m = nullptr;
  uint32_t dims[] = {2, 3}, biasDims[] = {3};
  ANeuralNetworksOperandType x{ANEURALNETWORKS_TENSOR_FLOAT32, 2, dims, 0, 0};
  ANeuralNetworksOperandType b{ANEURALNETWORKS_TENSOR_FLOAT32, 1, biasDims,
                               0, 0};
  ANeuralNetworksOperandType scalar{ANEURALNETWORKS_INT32, 0, nullptr, 0, 0};
  static const float bias[3] = {1.0f, -2.0f, 0.5f};
  int32_t relu = ANEURALNETWORKS_FUSED_RELU;
  uint32_t in[] = {0, 1, 2}, out[] = {3}, first[] = {0};
  EXPECT_EQ(fn.ANeuralNetworksModel_create(&m), ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(fn.ANeuralNetworksModel_addOperand(m, &x) |
                fn.ANeuralNetworksModel_addOperand(m, &b) |
                fn.ANeuralNetworksModel_addOperand(m, &scalar) |
                fn.ANeuralNetworksModel_addOperand(m, &x) |
                fn.ANeuralNetworksModel_setOperandValue(m, 1, bias,
                                                        sizeof bias) |
                fn.ANeuralNetworksModel_setOperandValue(m, 2, &relu,
                                                        sizeof relu) |
                fn.ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD,
                                                     3, in, 1, out) |
                fn.ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, first,
                                                                 1, out) |
                fn.ANeuralNetworksModel_finish(m),
            ANEURALNETWORKS_NO_ERROR);
  return m;
}

struct OtherUser {
  ANeuralNetworksModel *model = nullptr;
  ANeuralNetworksCompilation *compilation = nullptr;
};
OtherUser otherUser;

TEST_F(Devices, AnotherNNAPIUserNeverRunsOnTheRuntimesPool) {
  static NNAPIFunctionTable table;
  table = library();
  table.handle = nullptr; // not ours to close
  table.ANeuralNetworksCompilation_finish = [](ANeuralNetworksCompilation *c) {
    const NNAPIFunctionTable &fn = library();
    if (!otherUser.compilation) {
      otherUser.model = buildAddBiasRelu(fn);
      EXPECT_EQ(fn.ANeuralNetworksCompilation_create(otherUser.model,
                                                     &otherUser.compilation),
                ANEURALNETWORKS_NO_ERROR);
      EXPECT_EQ(fn.ANeuralNetworksCompilation_finish(otherUser.compilation),
                ANEURALNETWORKS_NO_ERROR);
    }
    return fn.ANeuralNetworksCompilation_finish(c);
  };
  ASSERT_EQ(nnapi_rt_set_option("threads_force", "1"), NNAPI_RT_OK);
  ASSERT_EQ(nnapi_rt_set_threads(2), NNAPI_RT_OK);
  setNNAPIFunctionTableForTesting(&table);
  ASSERT_EQ(run(blob), NNAPI_RT_OK) << nnapi_rt_last_error();
  expectSum();
  ASSERT_NE(otherUser.compilation, nullptr);
  uint32_t threads = 0;
  ASSERT_EQ(extension<NNAPIMLIRHost_getCompilationThreads_fn>(
                "NNAPIMLIRHost_getCompilationThreads")(otherUser.compilation,
                                                       &threads),
            ANEURALNETWORKS_NO_ERROR);
  EXPECT_EQ(threads, 1u);

  // The runtime's pool goes; the other user's compilation still runs.
  nnapi_rt_reset();
  nnapi_rt_set_option("threads", nullptr);
  nnapi_rt_set_option("threads_force", nullptr);
  const NNAPIFunctionTable &fn = library();
  ANeuralNetworksExecution *e = nullptr;
  ASSERT_EQ(fn.ANeuralNetworksExecution_create(otherUser.compilation, &e),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(fn.ANeuralNetworksExecution_setInput(e, 0, nullptr, input,
                                                 sizeof input),
            ANEURALNETWORKS_NO_ERROR);
  ASSERT_EQ(fn.ANeuralNetworksExecution_setOutput(e, 0, nullptr, output,
                                                  sizeof output),
            ANEURALNETWORKS_NO_ERROR);
  std::memset(output, 0, sizeof output);
  ASSERT_EQ(fn.ANeuralNetworksExecution_compute(e), ANEURALNETWORKS_NO_ERROR);
  expectSum();
  fn.ANeuralNetworksExecution_free(e);
  fn.ANeuralNetworksCompilation_free(otherUser.compilation);
  fn.ANeuralNetworksModel_free(otherUser.model);
  otherUser = OtherUser();
}

// 1,000 calls through one burst give identical results; bursts can be
// turned off, and a feature level 2 device (before bursts) gets none.
TEST_F(Devices, BurstsServeRepeatedCalls) {
  useDevices(DEVICE("gpu-sim") "," DEVICE("old-npu"));
  ASSERT_EQ(nnapi_rt_set_option("devices", "gpu-sim"), NNAPI_RT_OK);
  ASSERT_EQ(run(blob), NNAPI_RT_OK) << nnapi_rt_last_error();
  float first[6];
  std::memcpy(first, output, sizeof first);
  uint64_t before = counters("gpu-sim").burstExecutions;
  for (int i = 0; i < 1000; ++i) {
    std::memset(output, 0, sizeof output);
    ASSERT_EQ(run(blob), NNAPI_RT_OK) << nnapi_rt_last_error();
    ASSERT_EQ(std::memcmp(output, first, sizeof first), 0) << "call " << i;
  }
  nnapi_rt_partition_info p = partition();
  EXPECT_STREQ(p.device, "gpu-sim");
  EXPECT_TRUE(p.burst);
  EXPECT_EQ(p.executions, 1001u);
  EXPECT_EQ(counters("gpu-sim").burstExecutions - before, 1000u);
  expectSum();

  ASSERT_EQ(nnapi_rt_set_option("bursts", "0"), NNAPI_RT_OK);
  before = counters("gpu-sim").burstExecutions;
  ASSERT_EQ(run(blob), NNAPI_RT_OK);
  EXPECT_FALSE(partition().burst);
  EXPECT_EQ(counters("gpu-sim").burstExecutions, before);

  ASSERT_EQ(nnapi_rt_set_option("bursts", nullptr), NNAPI_RT_OK);
  ASSERT_EQ(nnapi_rt_set_option("devices", "old-npu"), NNAPI_RT_OK);
  ASSERT_EQ(run(blob), NNAPI_RT_OK);
  EXPECT_STREQ(partition().device, "old-npu");
  EXPECT_FALSE(partition().burst);
  EXPECT_EQ(counters("old-npu").burstExecutions, 0u);
}

TEST_F(Devices, TimingIsMeasuredWhenAsked) {
  useDevices(DEVICE("gpu-sim"));
  ASSERT_EQ(run(blob), NNAPI_RT_OK);
  EXPECT_EQ(partition().hardwareTimed, 0u);
  EXPECT_EQ(partition().driverTimed, 0u);
  ASSERT_EQ(nnapi_rt_set_option("timing", "1"), NNAPI_RT_OK);
  for (int i = 0; i < 5; ++i)
    ASSERT_EQ(run(blob), NNAPI_RT_OK) << nnapi_rt_last_error();
  nnapi_rt_partition_info p = partition();
  EXPECT_EQ(p.executions, 5u);
  EXPECT_EQ(p.hardwareTimed, 5u);
  EXPECT_EQ(p.driverTimed, 5u);
  EXPECT_GT(p.hardwareNs, 0u);
  EXPECT_GE(p.driverNs, p.hardwareNs);
  EXPECT_EQ(counters("gpu-sim").timedExecutions, 5u);
}

TEST_F(Devices, BadOptionValuesAreClearErrors) {
  struct Case {
    const char *name, *value, *message;
  } cases[] = {
      {"thread", "4",
       "unknown runtime option 'thread' (devices, cache_dir, preference, "
       "priority, bursts, bind_memory, timing, threads, threads_force, "
       "thread_pool, loop_timeout_ms, verify, validate, quirks, "
       "max_failures)"},
      {"loop_timeout_ms", "0",
       "runtime option loop_timeout_ms: '0' is not a loop timeout from 1 to "
       "86400000 ms"},
      {"loop_timeout_ms", "-5",
       "runtime option loop_timeout_ms: '-5' is not a loop timeout from 1 to "
       "86400000 ms"},
      {"threads_force", "2",
       "runtime option threads_force: '2' is not 1/on/true or 0/off/false"},
      {"threads", "0",
       "runtime option threads: '0' is not a thread count from 1 to 256"},
      {"threads", "-2",
       "runtime option threads: '-2' is not a thread count from 1 to 256"},
      {"threads", "100000",
       "runtime option threads: '100000' is not a thread count from 1 to "
       "256"},
      {"threads", "2x",
       "runtime option threads: '2x' is not a thread count from 1 to 256"},
      {"devices", "gpu,,cpu",
       "runtime option devices: empty entry in 'gpu,,cpu' (expected device "
       "names or types: accelerator, gpu, cpu, other; '-' before one "
       "excludes it)"},
      {"devices", "-",
       "runtime option devices: empty entry in '-' (expected device names or "
       "types: accelerator, gpu, cpu, other; '-' before one excludes it)"},
      {"cache_dir", "/nonexistent/cache",
       "runtime option cache_dir: '/nonexistent/cache' is not a directory"},
      {"cache_dir", NNAPI_TEST_INPUTS "/devices/gpu-sim.json",
       "runtime option cache_dir: '" NNAPI_TEST_INPUTS
       "/devices/gpu-sim.json' is not a directory"},
      {"preference", "fastest",
       "runtime option preference: 'fastest' is not one of "
       "fast-single-answer, sustained-speed, low-power"},
      {"priority", "urgent",
       "runtime option priority: 'urgent' is not one of low, medium, high"},
      {"bursts", "maybe",
       "runtime option bursts: 'maybe' is not 1/on/true or 0/off/false"},
      {"timing", "2",
       "runtime option timing: '2' is not 1/on/true or 0/off/false"},
  };
  for (const Case &c : cases) {
    EXPECT_EQ(nnapi_rt_set_option(c.name, c.value), NNAPI_RT_INVALID_ARGUMENT)
        << c.name << "=" << c.value;
    EXPECT_STREQ(nnapi_rt_last_error(), c.message);
  }
  EXPECT_EQ(nnapi_rt_set_option(nullptr, "1"), NNAPI_RT_INVALID_ARGUMENT);
}

// An option from the environment with a bad value: every partition falls
// back, and the reason names the variable.
TEST_F(Devices, BadEnvironmentValuesReachThePartitions) {
  setenv("NNAPI_MLIR_PRIORITY", "urgent", 1);
  useDevices(DEVICE("gpu-sim"));
  EXPECT_EQ(run(blob), NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_STREQ(nnapi_rt_last_error(),
               "NNAPI_MLIR_PRIORITY: 'urgent' is not one of low, medium, high");
  // Devices are still listed; the option alone is wrong.
  EXPECT_EQ(nnapi_rt_device_count(), 1);
  // A value set by the caller wins over the environment; forgetting it
  // brings the variable back.
  ASSERT_EQ(nnapi_rt_set_option("priority", "low"), NNAPI_RT_OK);
  EXPECT_EQ(run(blob), NNAPI_RT_OK) << nnapi_rt_last_error();
  ASSERT_EQ(nnapi_rt_set_option("priority", nullptr), NNAPI_RT_OK);
  EXPECT_EQ(run(blob), NNAPI_RT_INVALID_ARGUMENT);
  unsetenv("NNAPI_MLIR_PRIORITY");
  ASSERT_EQ(nnapi_rt_set_option("priority", nullptr), NNAPI_RT_OK);
  EXPECT_EQ(run(blob), NNAPI_RT_OK) << nnapi_rt_last_error();
}

TEST_F(Devices, TheHostLibraryRefusesBadDeviceLists) {
  auto setDevices =
      extension<NNAPIMLIRHost_setDevices_fn>("NNAPIMLIRHost_setDevices");
  auto lastError =
      extension<NNAPIMLIRHost_lastError_fn>("NNAPIMLIRHost_lastError");
  EXPECT_EQ(setDevices("host,host"), ANEURALNETWORKS_BAD_DATA);
  EXPECT_STREQ(lastError(), "two devices named 'nnapi-mlir-host' in 'host,host'");
  EXPECT_EQ(setDevices("host,,reference"), ANEURALNETWORKS_BAD_DATA);
  EXPECT_STREQ(lastError(), "empty entry in the device list 'host,,reference'");
  EXPECT_EQ(setDevices("/nonexistent/npu.json"), ANEURALNETWORKS_BAD_DATA);
  EXPECT_NE(std::strstr(lastError(), "/nonexistent/npu.json"), nullptr)
      << lastError();
  auto setProfile =
      extension<NNAPIMLIRHost_setProfile_fn>("NNAPIMLIRHost_setProfile");
  EXPECT_EQ(setProfile("a.json,b.json"), ANEURALNETWORKS_BAD_DATA);
  EXPECT_STREQ(lastError(), "a profile path cannot contain ','; use "
                            "NNAPIMLIRHost_setDevices");
}

// Libraries that misbehave in ways the host library does not: no device
// API, failing enumeration, an unknown feature level code.
int failingDeviceCount(uint32_t *) { return ANEURALNETWORKS_OP_FAILED; }
int failingName(const ANeuralNetworksDevice *, const char **) {
  return ANEURALNETWORKS_BAD_STATE;
}
int futureLevel(const ANeuralNetworksDevice *, int64_t *level) {
  *level = 12345;
  return ANEURALNETWORKS_NO_ERROR;
}

TEST_F(Devices, LibrariesWithoutOrWithBrokenDeviceAPIs) {
  useDevices("host");
  static NNAPIFunctionTable table;
  table = library();
  table.hostLastError = nullptr; // these failures are not the host's
  table.ANeuralNetworks_getDeviceCount = nullptr;
  setNNAPIFunctionTableForTesting(&table);
  EXPECT_EQ(nnapi_rt_device_count(), 0);
  ASSERT_EQ(run(blob), NNAPI_RT_OK) << nnapi_rt_last_error(); // the driver picks
  EXPECT_STREQ(partition().device, "");
  ASSERT_EQ(nnapi_rt_set_option("devices", "gpu"), NNAPI_RT_OK);
  EXPECT_EQ(run(blob), NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_STREQ(nnapi_rt_last_error(),
               "devices 'gpu' cannot be chosen: this NNAPI library has no "
               "device API (it predates feature level 3)");
  ASSERT_EQ(nnapi_rt_set_option("devices", nullptr), NNAPI_RT_OK);

  table = library();
  table.hostLastError = nullptr;
  table.ANeuralNetworks_getDeviceCount = failingDeviceCount;
  setNNAPIFunctionTableForTesting(&table);
  EXPECT_EQ(nnapi_rt_device_count(), -NNAPI_RT_NNAPI_ERROR);
  EXPECT_STREQ(nnapi_rt_last_error(),
               "ANeuralNetworks_getDeviceCount failed with OP_FAILED (5)");
  EXPECT_EQ(run(blob), NNAPI_RT_NNAPI_ERROR);

  table = library();
  table.hostLastError = nullptr;
  table.ANeuralNetworksDevice_getName = failingName;
  setNNAPIFunctionTableForTesting(&table);
  EXPECT_EQ(nnapi_rt_device_count(), -NNAPI_RT_NNAPI_ERROR);
  EXPECT_STREQ(nnapi_rt_last_error(),
               "describing NNAPI device 0: ANeuralNetworksDevice_getName "
               "failed with BAD_STATE (6)");

  table = library();
  table.ANeuralNetworksDevice_getFeatureLevel = futureLevel;
  setNNAPIFunctionTableForTesting(&table);
  nnapi_rt_device_info d;
  ASSERT_EQ(nnapi_rt_get_device_info(0, &d), NNAPI_RT_OK);
  EXPECT_EQ(d.featureLevel, 0);
  EXPECT_EQ(run(blob), NNAPI_RT_NNAPI_ERROR);
  EXPECT_STREQ(nnapi_rt_last_error(),
               "no NNAPI device runs this partition: device "
               "'nnapi-mlir-host' reports a feature level this runtime does "
               "not know (12345)");
}

TEST_F(Devices, InfoCallsCheckTheirArguments) {
  useDevices("host");
  nnapi_rt_partition_info p;
  EXPECT_EQ(nnapi_rt_get_partition_info(0, &p), NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_STREQ(nnapi_rt_last_error(),
               "partition index 0 out of range (0 partitions)");
  EXPECT_EQ(nnapi_rt_get_partition_info(0, nullptr), NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_STREQ(nnapi_rt_last_error(), "info is null");
  EXPECT_EQ(nnapi_rt_get_device_info(0, nullptr), NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_STREQ(nnapi_rt_last_error(), "info is null");
  EXPECT_STREQ(nnapi_rt_device_type_name(ANEURALNETWORKS_DEVICE_GPU), "gpu");
  EXPECT_STREQ(nnapi_rt_device_type_name(42), "unknown");
}

/// The ADD model of the runtime tests, built through the NNAPI C API.
ANeuralNetworksModel *buildAddModel(const NNAPIFunctionTable &fn) {
  ANeuralNetworksModel *m = nullptr;
  if (fn.ANeuralNetworksModel_create(&m))
    return nullptr;
  uint32_t dims[] = {2, 3}, biasDims[] = {3};
  ANeuralNetworksOperandType tensor{ANEURALNETWORKS_TENSOR_FLOAT32, 2, dims, 0,
                                    0},
      bias{ANEURALNETWORKS_TENSOR_FLOAT32, 1, biasDims, 0, 0},
      scalar{ANEURALNETWORKS_INT32, 0, nullptr, 0, 0};
  static const float biasValues[3] = {1, -2, 0.5f};
  int32_t fuse = ANEURALNETWORKS_FUSED_RELU;
  uint32_t in[] = {0, 1, 2}, out[] = {3}, modelIn[] = {0};
  bool ok = !fn.ANeuralNetworksModel_addOperand(m, &tensor) &&
            !fn.ANeuralNetworksModel_addOperand(m, &bias) &&
            !fn.ANeuralNetworksModel_addOperand(m, &scalar) &&
            !fn.ANeuralNetworksModel_addOperand(m, &tensor) &&
            !fn.ANeuralNetworksModel_setOperandValue(m, 1, biasValues,
                                                     sizeof biasValues) &&
            !fn.ANeuralNetworksModel_setOperandValue(m, 2, &fuse,
                                                     sizeof fuse) &&
            !fn.ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3,
                                                  in, 1, out) &&
            !fn.ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, modelIn,
                                                              1, out) &&
            !fn.ANeuralNetworksModel_finish(m);
  if (!ok) {
    fn.ANeuralNetworksModel_free(m);
    return nullptr;
  }
  return m;
}

// The rules of NNAPI's device, burst and timing calls, as a driver enforces
// them.
TEST_F(Devices, TheHostLibraryEnforcesNNAPIsRules) {
  useDevices(DEVICE("gpu-sim") ",host");
  const NNAPIFunctionTable &fn = library();
  auto lastError =
      extension<NNAPIMLIRHost_lastError_fn>("NNAPIMLIRHost_lastError");
  ANeuralNetworksModel *model = buildAddModel(fn);
  ASSERT_NE(model, nullptr) << lastError();
  ANeuralNetworksDevice *gpu = nullptr, *host = nullptr;
  ASSERT_EQ(fn.ANeuralNetworks_getDevice(0, &gpu), 0);
  ASSERT_EQ(fn.ANeuralNetworks_getDevice(1, &host), 0);
  ANeuralNetworksCompilation *stray = nullptr;
  const ANeuralNetworksDevice *bogus[] = {
      reinterpret_cast<const ANeuralNetworksDevice *>(&fn)};
  EXPECT_EQ(fn.ANeuralNetworksCompilation_createForDevices(model, bogus, 1,
                                                           &stray),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_STREQ(lastError(), "device 0 is not one of this library's devices");

  // Timing needs a one-device compilation; priorities do not.
  ANeuralNetworksCompilation *both = nullptr, *one = nullptr, *other = nullptr;
  const ANeuralNetworksDevice *pair[] = {gpu, host};
  ASSERT_EQ(fn.ANeuralNetworksCompilation_createForDevices(model, pair, 2,
                                                           &both),
            0);
  EXPECT_EQ(fn.ANeuralNetworksCompilation_setPriority(
                both, ANEURALNETWORKS_PRIORITY_HIGH),
            0);
  ASSERT_EQ(fn.ANeuralNetworksCompilation_finish(both), 0);
  EXPECT_EQ(fn.ANeuralNetworksCompilation_setPriority(
                both, ANEURALNETWORKS_PRIORITY_HIGH),
            ANEURALNETWORKS_BAD_STATE);
  EXPECT_STREQ(lastError(), "compilation already finished");
  ASSERT_EQ(fn.ANeuralNetworksCompilation_createForDevices(model, pair, 1,
                                                           &one),
            0);
  EXPECT_EQ(fn.ANeuralNetworksCompilation_setPriority(one, 95),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_STREQ(lastError(), "invalid priority 95");
  EXPECT_EQ(fn.ANeuralNetworksCompilation_setPriority(
                one, ANEURALNETWORKS_PRIORITY_LOW),
            0);
  ASSERT_EQ(fn.ANeuralNetworksCompilation_finish(one), 0);
  uint8_t token[32] = {};
  EXPECT_EQ(fn.ANeuralNetworksCompilation_setCaching(one, "/tmp", token),
            ANEURALNETWORKS_BAD_STATE);
  EXPECT_STREQ(lastError(), "compilation already finished");
  ASSERT_EQ(fn.ANeuralNetworksCompilation_create(model, &other), 0);
  ASSERT_EQ(fn.ANeuralNetworksCompilation_finish(other), 0);

  ANeuralNetworksExecution *e = nullptr;
  ASSERT_EQ(fn.ANeuralNetworksExecution_create(both, &e), 0);
  EXPECT_EQ(fn.ANeuralNetworksExecution_setMeasureTiming(e, true),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_STREQ(lastError(), "timing needs a compilation for exactly one "
                            "device (createForDevices)");
  uint64_t duration = 0;
  EXPECT_EQ(fn.ANeuralNetworksExecution_getDuration(
                e, ANEURALNETWORKS_DURATION_ON_HARDWARE, &duration),
            ANEURALNETWORKS_BAD_STATE);
  fn.ANeuralNetworksExecution_free(e);

  // A burst serves its own compilation's executions only.
  ANeuralNetworksBurst *burst = nullptr;
  ASSERT_EQ(fn.ANeuralNetworksBurst_create(other, &burst), 0);
  ASSERT_EQ(fn.ANeuralNetworksExecution_create(one, &e), 0);
  ASSERT_EQ(fn.ANeuralNetworksExecution_setMeasureTiming(e, true), 0);
  ASSERT_EQ(fn.ANeuralNetworksExecution_setInput(e, 0, nullptr, input,
                                                 sizeof input),
            0);
  ASSERT_EQ(fn.ANeuralNetworksExecution_setOutput(e, 0, nullptr, output,
                                                  sizeof output),
            0);
  EXPECT_EQ(fn.ANeuralNetworksExecution_burstCompute(e, burst),
            ANEURALNETWORKS_BAD_DATA);
  EXPECT_STREQ(lastError(), "the burst belongs to another compilation");
  ASSERT_EQ(fn.ANeuralNetworksExecution_compute(e), 0);
  EXPECT_EQ(fn.ANeuralNetworksExecution_setMeasureTiming(e, false),
            ANEURALNETWORKS_BAD_STATE);
  EXPECT_STREQ(lastError(),
               "setMeasureTiming must come before the computation");
  expectSum();
  uint64_t hardware = 0, driver = 0, fenced = 0;
  EXPECT_EQ(fn.ANeuralNetworksExecution_getDuration(
                e, ANEURALNETWORKS_DURATION_ON_HARDWARE, &hardware),
            0);
  EXPECT_EQ(fn.ANeuralNetworksExecution_getDuration(
                e, ANEURALNETWORKS_DURATION_IN_DRIVER, &driver),
            0);
  EXPECT_EQ(fn.ANeuralNetworksExecution_getDuration(
                e, ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER, &fenced),
            0);
  EXPECT_GT(hardware, 0u);
  EXPECT_GE(driver, hardware);
  EXPECT_EQ(fenced, UINT64_MAX);
  EXPECT_EQ(fn.ANeuralNetworksExecution_getDuration(e, 7, &fenced),
            ANEURALNETWORKS_BAD_DATA);
  fn.ANeuralNetworksExecution_free(e);
  fn.ANeuralNetworksBurst_free(burst);
  for (ANeuralNetworksCompilation *c : {both, one, other})
    fn.ANeuralNetworksCompilation_free(c);
  fn.ANeuralNetworksModel_free(model);
}

// FIPS 180-4 test vectors.
TEST(Sha256, KnownDigests) {
  auto digest = [](const std::string &text) {
    return Sha256::hex(Sha256().update(text.data(), text.size()).finish());
  };
  EXPECT_EQ(digest(""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(digest("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(
      digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  Sha256 million;
  std::string chunk(1000, 'a');
  for (int i = 0; i < 1000; ++i)
    million.update(chunk.data(), chunk.size());
  EXPECT_EQ(Sha256::hex(million.finish()),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

} // namespace
