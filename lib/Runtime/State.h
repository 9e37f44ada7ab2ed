//===- State.h - The runtime's partitions and process state -----*- C++ -*-===//
//
// Shared by the runtime's sources: Runtime.cpp builds, compiles and runs
// partitions; Checks.cpp compares them with their host copies and keeps the
// quirks record (docs/validation.md). Internal to libnnapi_runtime.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_RUNTIME_STATE_H
#define NNAPI_MLIR_LIB_RUNTIME_STATE_H

#include "Devices.h"
#include "Internal.h"
#include "SharedMemory.h"
#include "Threads.h"
#include "Verify.h"

#include "nnapi-mlir/NNAPI/BlobFormat.h"
#include "nnapi-mlir/NNAPI/Quirks.h"
#include "nnapi-mlir/Runtime/NNAPILoader.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <dlfcn.h>

namespace nnapi_mlir::runtime {

/// A loaded NNAPI library (or an injected function table). Partitions and
/// the state share it: it is unloaded when the last of them lets go, so a
/// reset or a new library path never unloads code another thread runs.
struct Library {
  NNAPIFunctionTable table;
  const NNAPIFunctionTable *injected = nullptr;
  const NNAPIFunctionTable &functions() const {
    return injected ? *injected : table;
  }
  ~Library() {
    releaseSharedMemories(functions());
    if (table.handle)
      dlclose(table.handle);
  }
};

/// One partition: its parsed blob and, once built, its NNAPI objects, which
/// it frees with the library that made them.
struct Partition {
  std::shared_ptr<Library> library;
  /// The pool its compilation runs on (the host device's operators), kept
  /// while the compilation lives.
  std::shared_ptr<runtime::ThreadPool> pool;
  /// What identifies the blob at its address: another blob loaded where
  /// an unloaded one was (dlclose, dlopen) differs in size or in the first
  /// bytes (the header with its counts and CRC-32).
  int64_t size = 0;
  std::vector<uint8_t> head;
  blob::Model model;
  /// The blob, while the partition is being built (the cache token hashes
  /// it only when a cache directory is set).
  const uint8_t *buildBytes = nullptr;
  uint64_t sequence = 0; ///< Creation order, for nnapi_rt_get_partition_info.
  /// A dynamic partition's specialization: the call's input dims ("1x37x16,
  /// 4"; empty for a static partition), and when a call last used it (the
  /// least recently used of a blob's goes first, kMaxShapesPerBlob).
  std::string shape;
  std::atomic<uint64_t> lastUse{0};
  ANeuralNetworksModel *nnModel = nullptr;
  /// The models nnModel references (IF's branches, WHILE's condition and
  /// body), alive as long as it is.
  std::vector<ANeuralNetworksModel *> referenced;
  ANeuralNetworksCompilation *compilation = nullptr;
  /// The device it was compiled for (empty: the library's choice, for
  /// libraries without the device API) and its feature level.
  std::string device;
  unsigned deviceLevel = 0;
  /// Why the candidates preferred to `device` did not take it.
  std::string passedOver;
  /// Its function in the compiled model (nnapi_rt_execute_checked), or "".
  std::string name;
  bool cached = false; ///< Compiled with a cache directory.
  bool timing = false; ///< Executions measure their durations.
  /// It holds a WHILE (here or in a referenced model), and the loop timeout
  /// its executions get (loop_timeout_ms, capped at NNAPI's maximum).
  bool hasWhile = false;
  uint64_t loopTimeoutNs = 0;
  /// One burst per partition (devices of feature level 3 and above); a
  /// burst serves one computation at a time, so a call that finds it busy
  /// computes without.
  ANeuralNetworksBurst *burst = nullptr;
  std::mutex burstMutex;
  /// Executions that succeeded, durations the driver measured (each kind
  /// counted apart: drivers may give one and not the other), and executions
  /// that failed (the caller then ran the host copy), with the last reason.
  std::atomic<uint64_t> executions{0}, hardwareTimed{0}, hardwareNs{0},
      driverTimed{0}, driverNs{0}, failures{0};
  std::mutex failureMutex;
  std::string lastFailure;
  int32_t setupStatus = NNAPI_RT_OK;
  std::string setupError;
  std::vector<uint64_t> inputBytes, outputBytes;
  /// Inputs and outputs whose top bits the runtime flips: the caller's int8
  /// data, the model's TENSOR_QUANT8_ASYMM (blob::Model::int8AsUint8).
  std::vector<bool> flipInputs, flipOutputs;
  bool reported = false;
  /// A reusable execution (NNAPI feature level 5) bound to `boundInputs`
  /// and `boundOutputs`, run again when a call passes the same buffers.
  /// `execMutex` guards it; a call that finds it busy makes its own.
  std::mutex execMutex;
  ANeuralNetworksExecution *reusable = nullptr;
  std::vector<void *> boundInputs, boundOutputs;
  /// sharedMemoryEpoch() when `reusable` was bound.
  uint64_t boundEpoch = 0;
  /// Give inputs and outputs in the allocator's shared blocks to NNAPI as
  /// memory (the bind_memory option when it was built).
  bool bindMemory = true;

  /// Devices it must not use in this process, with why: they computed wrong
  /// values (verify) or failed max_failures times in a row.
  std::vector<std::pair<std::string, std::string>> excluded;
  /// Set when it left its device: the next call builds it again (for the
  /// next device, or none) and hands over the counters.
  std::atomic<bool> retired{false};
  /// Executions since the first (verify checks every K-th) and failures
  /// since the last success.
  std::atomic<uint64_t> calls{0}, failuresInRow{0};
  /// Comparisons with the host copy (verify, validate).
  struct Checks {
    uint64_t count = 0, mismatches = 0, deviceNs = 0, hostNs = 0;
    std::string device; ///< Of the last check.
    Check worst;        ///< The worst output seen (once count > 0).
    std::string firstMismatch;
    bool narrowed = false;
    Narrowing narrowing;
  };
  std::mutex checksMutex;
  Checks checks;

  static constexpr size_t kHeadBytes = 128;
  bool holds(const uint8_t *bytes, int64_t bytesSize) const {
    return bytesSize == size &&
           std::memcmp(bytes, head.data(), head.size()) == 0;
  }
  ~Partition() {
    const NNAPIFunctionTable &fn = library->functions();
    if (reusable && fn.ANeuralNetworksExecution_free)
      fn.ANeuralNetworksExecution_free(reusable);
    if (burst && fn.ANeuralNetworksBurst_free)
      fn.ANeuralNetworksBurst_free(burst);
    if (compilation && fn.ANeuralNetworksCompilation_free)
      fn.ANeuralNetworksCompilation_free(compilation);
    if (fn.ANeuralNetworksModel_free) {
      if (nnModel)
        fn.ANeuralNetworksModel_free(nnModel);
      for (ANeuralNetworksModel *m : referenced)
        fn.ANeuralNetworksModel_free(m);
    }
  }
};

/// A partition by its blob's address and, for a dynamic partition's
/// specializations, the call's input dims (every input's, in order).
using PartitionKey = std::pair<const uint8_t *, std::vector<int64_t>>;

/// How many specializations of one dynamic partition are kept.
constexpr size_t kMaxShapesPerBlob = 8;

struct State {
  std::mutex mutex;
  /// Executions hold their partition, so dropping one here frees it only
  /// when the last execution using it is done.
  std::map<PartitionKey, std::shared_ptr<Partition>> partitions;
  /// Dynamic partitions: specializations built, calls that found theirs,
  /// and specializations dropped to keep kMaxShapesPerBlob.
  std::atomic<uint64_t> shapesBuilt{0}, shapeHits{0}, shapesEvicted{0};
  uint64_t useClock = 0; ///< Ticks at each call of a dynamic partition.
  std::shared_ptr<Library> library; ///< Null until loaded or injected.
  const NNAPIFunctionTable *injected = nullptr;
  bool libraryTried = false;
  bool libraryReported = false;
  int32_t libraryStatus = NNAPI_RT_OK;
  std::string libraryError;
  std::string libraryPath;
  int32_t mode = -1;
  int32_t quiet = -1;
  /// nnapi_rt_set_log_callback's.
  nnapi_rt_log_fn logCallback = nullptr;
  void *logUserData = nullptr;
  /// The values nnapi_rt_set_option was given (by name), the options in
  /// force (given, else from the environment, else defaults: resolved on
  /// first use and on every change), the first bad environment value, and
  /// the library's devices.
  std::map<std::string, std::string> givenOptions;
  Options options;
  bool optionsResolved = false;
  std::string optionsError;
  std::vector<DeviceInfo> devices;
  /// The thread pool for the threads option in force (currentPool); its
  /// own mutex, so that nnapi_rt_parallel_for does not wait for a
  /// partition being compiled under `mutex`.
  std::mutex poolMutex;
  std::shared_ptr<runtime::ThreadPool> pool;
  uint64_t nextSequence = 0;
  bool threadsCapReported = false; ///< The threads option was capped.
  std::atomic<uint64_t> nnapiExecutions{0}, failedExecutions{0};
  /// Bytes of partition inputs and outputs given to NNAPI as memory and as
  /// pointers (nnapi_rt_get_binding_stats).
  std::atomic<uint64_t> memoryBoundBytes{0}, pointerBoundBytes{0};
  /// The quirks record in force (Options::quirksFile), read with the
  /// options; `quirksError` when it could not be.
  quirks::Record quirks;
  std::string quirksFile, quirksError;
  bool quirksRead = false;

  void dropLibrary() {
    {
      std::lock_guard<std::mutex> lock(poolMutex);
      pool.reset(); // the environment is read again
    }
    partitions.clear();
    devices.clear();
    optionsResolved = false; // the environment is read again
    quirksRead = false;
    library.reset();
    libraryTried = false;
    libraryReported = false;
    threadsCapReported = false;
    libraryStatus = NNAPI_RT_OK;
    libraryError.clear();
  }
};

/// The process's state (never destroyed: it outlives static destructors).
State &state();
/// NNAPI_MLIR_QUIET or nnapi_rt_set_quiet. Caller holds the mutex.
bool isQuiet(State &s);
/// A warning, where nnapi_rt_set_log_callback says (the app's callback;
/// else, unless quiet, logcat or stderr). Caller holds the mutex.
void warn(State &s, const std::string &message);
/// Now, on the steady clock, in nanoseconds.
int64_t steadyNowNs();
/// Runs the partition on the caller's buffers (int8 inputs and outputs
/// seen as the model's uint8 where it needs them).
int32_t runPartition(Partition &p, int64_t numInputs, void *const *inputs,
                     int64_t numOutputs, void *const *outputs);
/// Compiles the partition's model on the most preferred device that runs
/// all of it, or fails with every candidate's reason (Devices.cpp). Caller
/// holds the mutex.
int32_t compilePartition(State &s, Partition &p);
/// The model has tensors of unspecified dimensions (a dynamic partition).
bool isDynamicBlob(const blob::Model &model);
/// `generic` specialized to a call: its inputs get `dims` (every input's,
/// in order; `numDims` of them), every other unspecified dimension the spec
/// library's output-shape rules. False with `error` for dims that do not
/// fit the partition, or an operation whose shapes cannot be computed.
bool specializeBlob(const blob::Model &generic, const int64_t *dims,
                    size_t numDims, blob::Model &out, std::string &error);

/// "1x37x16,4": a specialization's input dims, by input.
std::string shapeText(const blob::Model &m);
/// Keeps at most kMaxShapesPerBlob specializations of the blob at `blob`
/// (`adding` one more): drops the least recently used. Caller holds the
/// mutex.
void evictShapes(State &s, const uint8_t *blob, size_t adding);

/// The cached partitions in the order they were first run.
std::vector<std::shared_ptr<Partition>> partitionsInOrder(State &s);

/// Copies `text` into a fixed-size field, cut to fit and terminated.
template <size_t N> void copyField(char (&field)[N], const std::string &text) {
  size_t n = std::min(text.size(), N - 1);
  std::memcpy(field, text.data(), n);
  field[n] = '\0';
}

/// Runs `body` on partition `index` (in the order of first run) for the C
/// API function `function` whose result goes to `info`, under the mutex; an
/// error status for a null `info` or an index out of range.
template <typename F>
int32_t withPartition(const char *function, int32_t index, const void *info,
                      F &&body) {
  return guarded(function, [&]() -> int32_t {
    State &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!info)
      return failWith(NNAPI_RT_INVALID_ARGUMENT, "info is null");
    std::vector<std::shared_ptr<Partition>> list = partitionsInOrder(s);
    if (index < 0 || size_t(index) >= list.size())
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "partition index " + std::to_string(index) +
                          " out of range (" + std::to_string(list.size()) +
                          " partitions)");
    return body(*list[size_t(index)]);
  });
}

//===----------------------------------------------------------------------===//
// Checks against the host copy (Checks.cpp)
//===----------------------------------------------------------------------===//

/// Why `device` must not run `p` in this process: it was excluded, or the
/// quirks record says it computes one of its operations (or the whole
/// partition) wrong; "" if neither. Caller holds the mutex.
std::string quirkRefusal(const State &s, const Partition &p,
                         const DeviceInfo &device);

/// Runs `p` on its device into the runtime's own buffers and keeps them for
/// nnapi_rt_verify on this thread: NNAPI_RT_VERIFY when it ran (the caller
/// then runs the host copy), else the failure's status.
int32_t runForCheck(State &s, const std::shared_ptr<Partition> &p,
                    const uint8_t *blob, int64_t numInputs, void *const *inputs,
                    int64_t numOutputs);

/// Stops `p` using its device in this process (`why` follows the device's
/// name); the next call builds it for another device or its host copy.
/// Caller holds the mutex.
void leaveDevice(State &s, Partition &p, const std::string &why);

} // namespace nnapi_mlir::runtime

#endif // NNAPI_MLIR_LIB_RUNTIME_STATE_H
