//===- Runtime.cpp - Build, compile and execute NNAPI partitions ----------===//

#include "nnapi-mlir/Runtime/Runtime.h"
#include "nnapi-mlir/NNAPI/BlobFormat.h"
#include "nnapi-mlir/Runtime/ModelABI.h"
#include "nnapi-mlir/Runtime/NNAPILoader.h"
#include "nnapi-mlir/Support/Sha256.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <dlfcn.h>

#include "Devices.h"
#include "Internal.h"
#include "Threads.h"
#include "Verify.h"
#include "nnapi-mlir/NNAPI/Quirks.h"

using namespace nnapi_mlir;
using namespace nnapi_mlir::runtime;

namespace {
thread_local std::string lastError;
} // namespace

int32_t nnapi_mlir::runtime::failWith(int32_t status, std::string message) {
  lastError = std::move(message);
  return status;
}
using nnapi_mlir::runtime::failWith;

int32_t nnapi_mlir::runtime::exceptionStatus(const char *function,
                                             const char *what) noexcept {
  try {
    return failWith(NNAPI_RT_INTERNAL_ERROR,
                    std::string(function) + ": " + what);
  } catch (...) {
    return NNAPI_RT_INTERNAL_ERROR; // no memory even for the message
  }
}

std::string nnapi_mlir::runtime::describeCall(const NNAPIFunctionTable &fn, const char *function,
                         int code) {
  std::string text = std::string(function) + " failed with " +
                     nnapi_rt_result_code_name(code) + " (" +
                     std::to_string(code) + ")";
  // The host implementation says why; a real driver only logs it.
  if (fn.hostLastError)
    if (const char *why = fn.hostLastError(); why && *why)
      text += ": " + std::string(why);
  return text;
}

namespace {

/// This thread's model run (nnapi_rt_run_begin .. nnapi_rt_run_end): whether
/// one is in progress, whether a loop of it timed out, why, and the timeout
/// of the loops it runs.
thread_local bool inRun = false;
thread_local bool loopTimedOut = false;
thread_local std::string loopTimeoutWhy;
thread_local uint64_t loopTimeoutNs = 0; ///< Of the last deadline given.

int64_t steadyNowNs() {
  return int64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                     std::chrono::steady_clock::now().time_since_epoch())
                     .count());
}

/// Records that a loop ran past its timeout; returns NNAPI_RT_TIMEOUT.
int32_t noteLoopTimeout(std::string why) {
  loopTimedOut = true;
  loopTimeoutWhy = why;
  return failWith(NNAPI_RT_TIMEOUT, std::move(why));
}

/// Whether `m` or a model it references has a WHILE.
bool holdsWhile(const blob::Model &m) {
  for (const blob::Operation &op : m.operations)
    if (op.opcode == ANEURALNETWORKS_WHILE)
      return true;
  for (const blob::Model &sub : m.subgraphs)
    if (holdsWhile(sub))
      return true;
  return false;
}

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

  /// Its key in State::partitions (the blob's address).
  const uint8_t *key = nullptr;
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
    Check worst;        ///< The worst output seen.
    bool any = false;
    std::string firstMismatch;
    bool narrowed = false;
    Narrowing narrowing;
  };
  std::mutex checksMutex;
  Checks checks;

  static constexpr size_t kHeadBytes = 128;
  bool holds(const uint8_t *bytes, int64_t bytesSize) const {
    return bytesSize == size && std::memcmp(bytes, head.data(), head.size()) == 0;
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

struct State {
  std::mutex mutex;
  /// By blob address. Executions hold their partition, so dropping one
  /// here frees it only when the last execution using it is done.
  std::map<const uint8_t *, std::shared_ptr<Partition>> partitions;
  std::shared_ptr<Library> library; ///< Null until loaded or injected.
  const NNAPIFunctionTable *injected = nullptr;
  bool libraryTried = false;
  bool libraryReported = false;
  int32_t libraryStatus = NNAPI_RT_OK;
  std::string libraryError;
  std::string libraryPath;
  int32_t mode = -1;
  int32_t quiet = -1;
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
    libraryStatus = NNAPI_RT_OK;
    libraryError.clear();
  }
};

State &state() {
  static State *s = new State(); // never destroyed: outlives static dtors
  return *s;
}

/// Resolves the options (given, environment, defaults) if they were not.
/// Caller holds the mutex.
void ensureOptions(State &s) {
  if (s.optionsResolved)
    return;
  resolveOptions(s.givenOptions, s.options, s.optionsError);
  s.optionsResolved = true;
  s.quirksRead = false;
}

/// Reads the quirks record in force if it was not. Caller holds the mutex.
void ensureQuirks(State &s) {
  if (s.quirksRead)
    return;
  s.quirksRead = true;
  s.quirks = quirks::Record();
  s.quirksError.clear();
  s.quirksFile = s.options.quirksFile();
  if (!s.quirksFile.empty() &&
      !quirks::load(s.quirksFile, s.quirks, s.quirksError))
    s.quirksError = "quirks: " + s.quirksError;
}


/// How blobs become NNAPI models (buildPartition): part of every cache
/// token. Bump it whenever that changes, so drivers do not reuse
/// compilations of models built the old way.
constexpr uint32_t kModelBuildVersion = 1;

/// Compiles `p.nnModel` for `device` (null: the library's own choice,
/// ANeuralNetworksCompilation_create) with the options; on failure `why`
/// says which call failed and nothing is kept.
int32_t compileFor(const NNAPIFunctionTable &fn, const Options &o,
                   Partition &p, const DeviceInfo *device, std::string &why) {
  ANeuralNetworksCompilation *c = nullptr;
  int rc = device ? fn.ANeuralNetworksCompilation_createForDevices(
                        p.nnModel, &device->handle, 1, &c)
                  : fn.ANeuralNetworksCompilation_create(p.nnModel, &c);
  if (rc != ANEURALNETWORKS_NO_ERROR) {
    why = describeCall(fn,
                       device ? "ANeuralNetworksCompilation_createForDevices"
                              : "ANeuralNetworksCompilation_create",
                       rc);
    return NNAPI_RT_NNAPI_ERROR;
  }
  const char *call = "ANeuralNetworksCompilation_setPreference";
  rc = fn.ANeuralNetworksCompilation_setPreference(c, o.preference);
  // Priorities came with the feature level 4 library (Android 11).
  if (rc == ANEURALNETWORKS_NO_ERROR &&
      fn.ANeuralNetworksCompilation_setPriority) {
    call = "ANeuralNetworksCompilation_setPriority";
    rc = fn.ANeuralNetworksCompilation_setPriority(c, o.priority);
  }
  bool cached = rc == ANEURALNETWORKS_NO_ERROR && device &&
                !o.cacheDir.empty() && fn.ANeuralNetworksCompilation_setCaching;
  if (cached) {
    // The token covers everything that shapes the compiled model: the blob
    // (operands, values, operations, relaxation), the device and its driver
    // version, the options, and this runtime's way of building models.
    Sha256 h;
    h.update(p.buildBytes, p.size);
    h.update(device->name).update(device->version);
    int32_t knobs[] = {int32_t(device->featureLevel), o.preference,
                       o.priority};
    h.update(knobs, sizeof knobs);
    h.update(std::string("nnapi-mlir runtime " NNAPI_MLIR_RUNTIME_VERSION));
    h.update(&kModelBuildVersion, sizeof kModelBuildVersion);
    Sha256::Digest token = h.finish();
    call = "ANeuralNetworksCompilation_setCaching";
    rc = fn.ANeuralNetworksCompilation_setCaching(c, o.cacheDir.c_str(),
                                                  token.data());
  }
  // The host device runs this compilation's operators on our pool, which
  // the partition keeps alive for as long as the compilation (p.pool).
  if (rc == ANEURALNETWORKS_NO_ERROR && fn.hostSetCompilationThreadPool &&
      p.pool && p.pool->handle()) {
    call = "NNAPIMLIRHost_setCompilationThreadPool";
    rc = fn.hostSetCompilationThreadPool(c, p.pool->handle());
  }
  if (rc == ANEURALNETWORKS_NO_ERROR) {
    call = "ANeuralNetworksCompilation_finish";
    rc = fn.ANeuralNetworksCompilation_finish(c);
  }
  if (rc != ANEURALNETWORKS_NO_ERROR) {
    why = describeCall(fn, call, rc);
    fn.ANeuralNetworksCompilation_free(c);
    return NNAPI_RT_NNAPI_ERROR;
  }
  p.compilation = c;
  p.cached = cached;
  if (device) {
    p.device = device->name;
    p.deviceLevel = device->featureLevel;
  }
  return NNAPI_RT_OK;
}

/// Why `device` cannot take `p`, or "" if it may: its feature level, or an
/// operation it does not run.
std::string deviceRefusal(const NNAPIFunctionTable &fn, const Partition &p,
                          const DeviceInfo &device) {
  std::string who = "device '" + device.name + "'";
  if (device.featureLevel == 0)
    return who + " reports a feature level this runtime does not know (" +
           std::to_string(device.featureLevelCode) + ")";
  if (device.featureLevel < p.model.featureLevel)
    return who + " has feature level " + std::to_string(device.featureLevel) +
           ", the partition needs " + std::to_string(p.model.featureLevel);
  size_t n = p.model.operations.size();
  std::unique_ptr<bool[]> supported(new bool[n ? n : 1]());
  int rc = fn.ANeuralNetworksModel_getSupportedOperationsForDevices(
      p.nnModel, &device.handle, 1, supported.get());
  if (rc != ANEURALNETWORKS_NO_ERROR)
    return who + ": " +
           describeCall(fn, "ANeuralNetworksModel_getSupportedOperationsForDevices",
                        rc);
  size_t missing = 0, first = n;
  for (size_t i = 0; i < n; ++i)
    if (!supported[i]) {
      ++missing;
      first = std::min(first, i);
    }
  if (!missing)
    return "";
  const blob::Operation &op = p.model.operations[first];
  const char *name = nnapi_mlir::operationName(op.opcode);
  std::string on;
  if (!op.inputs.empty())
    if (const char *type =
            blob::operandTypeName(p.model.operands[op.inputs[0]].type))
      on = std::string(" on ") + type;
  std::string text =
      who + " does not run operation " + std::to_string(first) + " (" +
      (name ? name : "?") + on + ")" +
      (missing > 1 ? " and " + std::to_string(missing - 1) + " more" : "");
  // The host NNAPI library says why (a real driver only logs it).
  if (fn.hostLastError)
    if (const char *why = fn.hostLastError(); why && *why)
      text += std::string(": ") + why;
  return text;
}

/// "partition sha256:<hex>" of a blob (Quirks.h).
std::string partitionSignature(const uint8_t *bytes, int64_t size) {
  return std::string(quirks::kPartitionPrefix) +
         Sha256::hex(Sha256().update(bytes, size_t(size)).finish());
}

/// Why `device` must not run `p` in this process: it was excluded, or the
/// quirks record says it computes one of its operations (or the whole
/// partition) wrong; "" if neither.
std::string quirkRefusal(const State &s, const Partition &p,
                         const DeviceInfo &device) {
  for (const auto &[name, why] : p.excluded)
    if (name == device.name)
      return "device '" + name + "' " + why;
  // validate checks every device, known quirks or not.
  if (s.quirks.devices.empty() || s.options.validate)
    return "";
  bool partitionQuirks = false;
  for (const quirks::DeviceQuirks &d : s.quirks.devices)
    if (d.name == device.name && d.version == device.version)
      for (const quirks::Quirk &q : d.quirks)
        partitionQuirks |= q.signature.rfind(quirks::kPartitionPrefix, 0) == 0;
  auto refuse = [&](const std::string &what, const quirks::Quirk &q) {
    return "device '" + device.name + "' computes " + what +
           " wrong (quirks record " + s.quirksFile +
           (q.error.empty() ? "" : ": " + q.error) + ")";
  };
  for (size_t i = 0; i < p.model.operations.size(); ++i) {
    const blob::Operation &op = p.model.operations[i];
    if (const quirks::Quirk *q = s.quirks.find(
            device.name, device.version,
            blob::operationSignature(p.model, op))) {
      const char *name = nnapi_mlir::operationName(op.opcode);
      return refuse("operation " + std::to_string(i) + " (" +
                        (name ? name : "?") + ")",
                    *q);
    }
  }
  if (partitionQuirks && p.buildBytes)
    if (const quirks::Quirk *q =
            s.quirks.find(device.name, device.version,
                          partitionSignature(p.buildBytes, p.size)))
      return refuse("this partition", *q);
  return "";
}

/// Compiles the partition's model on the most preferred device that runs
/// all of it, or fails with every candidate's reason.
int32_t compilePartition(State &s, Partition &p) {
  const NNAPIFunctionTable &fn = p.library->functions();
  const Options &o = s.options;
  std::string why;
  if (!hasDeviceAPI(fn)) {
    if (!o.devices.empty())
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "devices '" + o.devicesText +
                          "' cannot be chosen: this NNAPI library has no "
                          "device API (it predates feature level 3)");
    if (compileFor(fn, o, p, nullptr, why))
      return failWith(NNAPI_RT_NNAPI_ERROR, why);
    return NNAPI_RT_OK;
  }
  std::vector<size_t> order = candidateDevices(s.devices, o);
  if (order.empty()) {
    std::string list;
    for (const DeviceInfo &d : s.devices)
      list += (list.empty() ? "" : ", ") + d.name + " (" +
              deviceTypeName(d.type) + ")";
    return failWith(NNAPI_RT_NNAPI_ERROR,
                    "no NNAPI device may run partitions (devices: " + list +
                        (o.devices.empty()
                             ? "; nnapi-reference only when named"
                             : "; chosen by '" + o.devicesText + "'") +
                        ")");
  }
  std::string reasons;
  for (size_t index : order) {
    const DeviceInfo &d = s.devices[index];
    std::string refusal = quirkRefusal(s, p, d);
    if (refusal.empty())
      refusal = deviceRefusal(fn, p, d);
    if (refusal.empty() && compileFor(fn, o, p, &d, why) == NNAPI_RT_OK)
      break;
    reasons += (reasons.empty() ? "" : "; ") +
               (refusal.empty() ? "device '" + d.name + "': " + why : refusal);
  }
  if (!p.compilation)
    return failWith(NNAPI_RT_NNAPI_ERROR,
                    "no NNAPI device runs this partition: " + reasons);
  p.passedOver = reasons;
  p.hasWhile = holdsWhile(p.model);
  p.loopTimeoutNs = std::min(o.loopTimeoutNs, kMaxNNAPILoopTimeoutNs);
  // Durations are measured on one-device compilations only (NNAPI's rule).
  p.timing = o.timing && fn.ANeuralNetworksExecution_setMeasureTiming &&
             fn.ANeuralNetworksExecution_getDuration;
  // Bursts (feature level 3) keep a driver's per-call state warm across
  // calls; without one (refused, or an older device) executions run alone.
  if (o.bursts && p.deviceLevel >= 3 && fn.ANeuralNetworksBurst_create &&
      fn.ANeuralNetworksBurst_free && fn.ANeuralNetworksExecution_burstCompute &&
      fn.ANeuralNetworksBurst_create(p.compilation, &p.burst) !=
          ANEURALNETWORKS_NO_ERROR)
    p.burst = nullptr;
  return NNAPI_RT_OK;
}

/// Builds and compiles the NNAPI model of a parsed blob.
int32_t buildPartition(State &s, Partition &p) {
  const NNAPIFunctionTable &fn = p.library->functions();
  const blob::Model &m = p.model;
  if (int32_t status = buildModel(fn, m, p.nnModel, p.referenced))
    return status;
  if (int32_t status = compilePartition(s, p))
    return status;
  auto flipped = [&](uint32_t idx) {
    return m.int8AsUint8 &&
           m.operands[idx].type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
  };
  for (uint32_t idx : m.inputs) {
    uint64_t bytes = 0;
    blob::operandByteSize(m.operands[idx], bytes);
    p.inputBytes.push_back(bytes);
    p.flipInputs.push_back(flipped(idx));
  }
  for (uint32_t idx : m.outputs) {
    uint64_t bytes = 0;
    blob::operandByteSize(m.operands[idx], bytes);
    p.outputBytes.push_back(bytes);
    p.flipOutputs.push_back(flipped(idx));
  }
  return NNAPI_RT_OK;
}

int32_t ensureLibrary(State &s) {
  ensureOptions(s);
  if (!s.libraryTried) {
    s.libraryTried = true;
    auto library = std::make_shared<Library>();
    if (s.injected) {
      library->injected = s.injected;
    } else {
      std::string path = s.libraryPath;
      if (path.empty()) {
        const char *env = std::getenv("NNAPI_MLIR_LIBRARY");
        path = env && *env ? env : defaultNNAPILibraryPath();
      }
      if (!loadNNAPILibrary(path, library->table, s.libraryError))
        s.libraryStatus = NNAPI_RT_LIBRARY_UNAVAILABLE;
    }
    if (s.libraryStatus == NNAPI_RT_OK &&
        !enumerateDevices(library->functions(), s.devices, s.libraryError))
      s.libraryStatus = NNAPI_RT_NNAPI_ERROR;
    if (s.libraryStatus == NNAPI_RT_OK)
      s.library = std::move(library);
  }
  if (s.libraryStatus != NNAPI_RT_OK)
    return failWith(s.libraryStatus, s.libraryError);
  ensureQuirks(s);
  return NNAPI_RT_OK;
}

bool isQuiet(State &s);

/// The pool for the threads option in force, made (or replaced, when the
/// count changed) on demand. Caller holds `s.mutex`.
std::shared_ptr<runtime::ThreadPool> currentPool(State &s) {
  ensureOptions(s);
  unsigned cpus = std::min(runtime::availableCPUs(), kMaxThreads);
  unsigned want = s.options.threads ? s.options.threads : cpus;
  // More spinning workers than CPUs make every parallel loop wait for
  // descheduled threads (256 on 2 CPUs: 0.1 s became 20 s).
  if (want > cpus && !s.options.threadsForce) {
    if (!s.threadsCapReported && !isQuiet(s))
      std::fprintf(stderr,
                   "nnapi-mlir: threads %u is more than the %u CPUs this "
                   "process may run on; using %u (threads_force=1 uses them "
                   "all)\n",
                   want, cpus, cpus);
    s.threadsCapReported = true;
    want = cpus;
  }
  std::lock_guard<std::mutex> lock(s.poolMutex);
  if (!s.pool || s.pool->requested() != want)
    s.pool = std::make_shared<runtime::ThreadPool>(want);
  return s.pool;
}

/// Finds or creates the partition of a blob. Caller holds the mutex.
int32_t getPartition(State &s, const uint8_t *blobBytes, int64_t blobSize,
                     std::shared_ptr<Partition> &out) {
  std::shared_ptr<Partition> &slot = s.partitions[blobBytes];
  bool same = slot && slot->holds(blobBytes, blobSize);
  if (!same || slot->retired) {
    auto p = std::make_shared<Partition>();
    p->library = s.library;
    p->pool = currentPool(s);
    p->size = blobSize;
    p->key = blobBytes;
    p->head.assign(blobBytes,
                   blobBytes + std::min<int64_t>(blobSize, Partition::kHeadBytes));
    if (same) {
      // It left its device: what it learnt and counted carries over.
      Partition &old = *slot;
      p->sequence = old.sequence;
      p->name = old.name;
      p->excluded = old.excluded;
      p->executions = old.executions.load();
      p->failures = old.failures.load();
      p->calls = old.calls.load();
      {
        std::lock_guard<std::mutex> lock(old.failureMutex);
        p->lastFailure = old.lastFailure;
      }
      std::lock_guard<std::mutex> lock(old.checksMutex);
      p->checks = old.checks;
    } else {
      p->sequence = s.nextSequence++;
    }
    std::string error;
    if (!blob::read(blobBytes, static_cast<size_t>(blobSize), p->model,
                    error)) {
      p->setupStatus = NNAPI_RT_INVALID_BLOB;
      p->setupError = "invalid NNAPI model blob: " + error;
    } else {
      p->buildBytes = blobBytes;
      if (int32_t st = buildPartition(s, *p)) {
        p->setupStatus = st;
        p->setupError = lastError;
      }
      p->buildBytes = nullptr;
    }
    slot = std::move(p);
  }
  out = slot;
  if (out->setupStatus != NNAPI_RT_OK)
    return failWith(out->setupStatus, out->setupError);
  return NNAPI_RT_OK;
}

/// Binds the buffers of one call to a new execution.
int32_t bindExecution(const NNAPIFunctionTable &fn, Partition &p,
                      ANeuralNetworksExecution *exec, void *const *inputs,
                      void *const *outputs) {
  for (size_t i = 0; i < p.inputBytes.size(); ++i) {
    int rc = fn.ANeuralNetworksExecution_setInput(
        exec, static_cast<int32_t>(i), nullptr, inputs[i], p.inputBytes[i]);
    if (rc != ANEURALNETWORKS_NO_ERROR)
      return failWith(NNAPI_RT_NNAPI_ERROR,
                      describeCall(fn, "ANeuralNetworksExecution_setInput", rc) +
                          " for input " + std::to_string(i));
  }
  for (size_t i = 0; i < p.outputBytes.size(); ++i) {
    int rc = fn.ANeuralNetworksExecution_setOutput(
        exec, static_cast<int32_t>(i), nullptr, outputs[i], p.outputBytes[i]);
    if (rc != ANEURALNETWORKS_NO_ERROR)
      return failWith(NNAPI_RT_NNAPI_ERROR,
                      describeCall(fn, "ANeuralNetworksExecution_setOutput", rc) +
                          " for output " + std::to_string(i));
  }
  return NNAPI_RT_OK;
}

/// The status of a computation `call` that returned `rc`. A missed deadline
/// of a partition with a WHILE is its loop timeout (the runtime sets no
/// other deadline): not a device failure, and not worth retrying on the
/// host, whose loops have the same bound.
int32_t computeStatus(const NNAPIFunctionTable &fn, const Partition &p,
                      const char *call, int rc) {
  if (rc == ANEURALNETWORKS_NO_ERROR)
    return NNAPI_RT_OK;
  if (p.hasWhile && (rc == ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT ||
                     rc == ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT))
    return noteLoopTimeout(
        "a WHILE loop ran longer than the loop timeout of " +
        std::to_string(p.loopTimeoutNs / 1000000) +
        " ms on NNAPI device '" + p.device + "' (the loop_timeout_ms option): " +
        describeCall(fn, call, rc));
  return failWith(NNAPI_RT_NNAPI_ERROR, describeCall(fn, call, rc));
}

/// Computes a bound execution once (see computeExecution).
int32_t computeOnce(const NNAPIFunctionTable &fn, Partition &p,
                    ANeuralNetworksExecution *exec) {
  if (p.burst) {
    std::unique_lock<std::mutex> lock(p.burstMutex, std::try_to_lock);
    if (lock.owns_lock())
      return computeStatus(fn, p, "ANeuralNetworksExecution_burstCompute",
                           fn.ANeuralNetworksExecution_burstCompute(exec,
                                                                   p.burst));
  }
  if (fn.ANeuralNetworksExecution_compute)
    return computeStatus(fn, p, "ANeuralNetworksExecution_compute",
                         fn.ANeuralNetworksExecution_compute(exec));
  ANeuralNetworksEvent *event = nullptr;
  int rc = fn.ANeuralNetworksExecution_startCompute(exec, &event);
  if (rc != ANEURALNETWORKS_NO_ERROR)
    return computeStatus(fn, p, "ANeuralNetworksExecution_startCompute", rc);
  rc = fn.ANeuralNetworksEvent_wait(event);
  fn.ANeuralNetworksEvent_free(event);
  return computeStatus(fn, p, "ANeuralNetworksEvent_wait", rc);
}

/// Computes a bound execution: through the partition's burst when it has
/// one that is free, else synchronously where the library can. Adds the
/// durations the driver measured to the partition's.
int32_t computeExecution(const NNAPIFunctionTable &fn, Partition &p,
                         ANeuralNetworksExecution *exec) {
  int32_t status = computeOnce(fn, p, exec);
  if (status != NNAPI_RT_OK || !p.timing)
    return status;
  uint64_t hardware = UINT64_MAX, driver = UINT64_MAX;
  if (fn.ANeuralNetworksExecution_getDuration(
          exec, ANEURALNETWORKS_DURATION_ON_HARDWARE, &hardware) ==
          ANEURALNETWORKS_NO_ERROR &&
      hardware != UINT64_MAX) {
    ++p.hardwareTimed;
    p.hardwareNs += hardware;
  }
  if (fn.ANeuralNetworksExecution_getDuration(
          exec, ANEURALNETWORKS_DURATION_IN_DRIVER, &driver) ==
          ANEURALNETWORKS_NO_ERROR &&
      driver != UINT64_MAX) {
    ++p.driverTimed;
    p.driverNs += driver;
  }
  return status;
}


int32_t runBound(Partition &p, int64_t numInputs, void *const *inputs,
                 int64_t numOutputs, void *const *outputs);

/// Flips the top bit of `bytes` bytes at `data` (int8 <-> uint8 with zero
/// point + 128).
void flipTopBits(uint8_t *data, uint64_t bytes) {
  for (uint64_t i = 0; i < bytes; ++i)
    data[i] ^= 0x80;
}

int32_t runPartition(Partition &p, int64_t numInputs, void *const *inputs,
                     int64_t numOutputs, void *const *outputs) {
  bool flips = std::find(p.flipInputs.begin(), p.flipInputs.end(), true) !=
                   p.flipInputs.end() ||
               std::find(p.flipOutputs.begin(), p.flipOutputs.end(), true) !=
                   p.flipOutputs.end();
  if (!flips || numInputs != int64_t(p.inputBytes.size()) ||
      numOutputs != int64_t(p.outputBytes.size()))
    return runBound(p, numInputs, inputs, numOutputs, outputs);
  // The caller's int8 inputs as the model's uint8 (copies: the caller's
  // buffers are not ours to change), its int8 outputs back in place.
  std::vector<std::vector<uint8_t>> staged(static_cast<size_t>(numInputs));
  std::vector<void *> in(inputs, inputs + numInputs);
  for (int64_t i = 0; i < numInputs; ++i)
    if (p.flipInputs[size_t(i)] && inputs[i]) {
      const auto *from = static_cast<const uint8_t *>(inputs[i]);
      staged[size_t(i)].assign(from, from + p.inputBytes[size_t(i)]);
      flipTopBits(staged[size_t(i)].data(), p.inputBytes[size_t(i)]);
      in[size_t(i)] = staged[size_t(i)].data();
    }
  int32_t status = runBound(p, numInputs, in.data(), numOutputs, outputs);
  if (status == NNAPI_RT_OK)
    for (int64_t i = 0; i < numOutputs; ++i)
      if (p.flipOutputs[size_t(i)])
        flipTopBits(static_cast<uint8_t *>(outputs[i]),
                    p.outputBytes[size_t(i)]);
  return status;
}

/// Runs the partition on the buffers as they are.
int32_t runBound(Partition &p, int64_t numInputs, void *const *inputs,
                 int64_t numOutputs, void *const *outputs) {
  const NNAPIFunctionTable &fn = p.library->functions();
  if (numInputs != static_cast<int64_t>(p.inputBytes.size()) ||
      numOutputs != static_cast<int64_t>(p.outputBytes.size()))
    return failWith(NNAPI_RT_INVALID_ARGUMENT,
                    "partition expects " + std::to_string(p.inputBytes.size()) +
                        " inputs and " + std::to_string(p.outputBytes.size()) +
                        " outputs, got " + std::to_string(numInputs) + " and " +
                        std::to_string(numOutputs));
  for (int64_t i = 0; i < numInputs; ++i)
    if (!inputs[i])
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "input " + std::to_string(i) + " is null");
  for (int64_t i = 0; i < numOutputs; ++i)
    if (!outputs[i])
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "output " + std::to_string(i) + " is null");

  // Same buffers as the reusable execution's: compute it again.
  std::unique_lock<std::mutex> lock(p.execMutex, std::try_to_lock);
  bool reuse = lock.owns_lock() && fn.ANeuralNetworksExecution_setReusable;
  if (reuse && p.reusable &&
      std::equal(p.boundInputs.begin(), p.boundInputs.end(), inputs) &&
      std::equal(p.boundOutputs.begin(), p.boundOutputs.end(), outputs)) {
    int32_t status = computeExecution(fn, p, p.reusable);
    if (status != NNAPI_RT_OK) {
      fn.ANeuralNetworksExecution_free(p.reusable);
      p.reusable = nullptr;
    }
    return status;
  }

  ANeuralNetworksExecution *exec = nullptr;
  int rc = fn.ANeuralNetworksExecution_create(p.compilation, &exec);
  if (rc != ANEURALNETWORKS_NO_ERROR)
    return failWith(NNAPI_RT_NNAPI_ERROR,
                    describeCall(fn, "ANeuralNetworksExecution_create", rc));
  // A new reusable execution replaces the old one; if the library refuses
  // reuse the execution is used once, like any other.
  bool keep = reuse && fn.ANeuralNetworksExecution_setReusable(exec, true) ==
                           ANEURALNETWORKS_NO_ERROR;
  int32_t status = bindExecution(fn, p, exec, inputs, outputs);
  // The loop timeout came with feature level 4 (as WHILE did).
  if (status == NNAPI_RT_OK && p.hasWhile &&
      fn.ANeuralNetworksExecution_setLoopTimeout) {
    rc = fn.ANeuralNetworksExecution_setLoopTimeout(exec, p.loopTimeoutNs);
    if (rc != ANEURALNETWORKS_NO_ERROR)
      status = failWith(
          NNAPI_RT_NNAPI_ERROR,
          describeCall(fn, "ANeuralNetworksExecution_setLoopTimeout", rc));
  }
  if (status == NNAPI_RT_OK && p.timing) {
    rc = fn.ANeuralNetworksExecution_setMeasureTiming(exec, true);
    if (rc != ANEURALNETWORKS_NO_ERROR)
      status = failWith(
          NNAPI_RT_NNAPI_ERROR,
          describeCall(fn, "ANeuralNetworksExecution_setMeasureTiming", rc));
  }
  if (status == NNAPI_RT_OK)
    status = computeExecution(fn, p, exec);
  if (!keep || status != NNAPI_RT_OK) {
    fn.ANeuralNetworksExecution_free(exec);
    return status;
  }
  if (p.reusable)
    fn.ANeuralNetworksExecution_free(p.reusable);
  p.reusable = exec;
  p.boundInputs.assign(inputs, inputs + numInputs);
  p.boundOutputs.assign(outputs, outputs + numOutputs);
  return NNAPI_RT_OK;
}

bool isQuiet(State &s) {
  if (s.quiet < 0) {
    const char *env = std::getenv("NNAPI_MLIR_QUIET");
    s.quiet = env && *env && std::strcmp(env, "0") != 0;
  }
  return s.quiet;
}

/// Copies `text` into a fixed-size field, cut to fit and terminated.
template <size_t N>
void copyField(char (&field)[N], const std::string &text) {
  size_t n = std::min(text.size(), N - 1);
  std::memcpy(field, text.data(), n);
  field[n] = '\0';
}

/// The cached partitions in the order they were first run.
std::vector<std::shared_ptr<Partition>> partitionsInOrder(State &s) {
  std::vector<std::shared_ptr<Partition>> list;
  for (const auto &entry : s.partitions)
    list.push_back(entry.second);
  std::sort(list.begin(), list.end(), [](const auto &a, const auto &b) {
    return a->sequence < b->sequence;
  });
  return list;
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

/// A partition that ran on its device into the runtime's buffers and waits
/// for the caller to run its host copy (nnapi_rt_execute_checked returned
/// NNAPI_RT_VERIFY; nnapi_rt_verify compares).
struct PendingCheck {
  const uint8_t *blob = nullptr;
  std::shared_ptr<Partition> partition;
  std::vector<std::vector<uint8_t>> device; ///< Its outputs, caller's view.
  std::vector<const void *> inputs;
  int64_t deviceNs = 0, hostStart = 0;
};
thread_local std::vector<PendingCheck> pendingChecks;
/// Output buffers of finished checks, reused by the next (at most
/// kMaxSpareBuffers: enough for every output of a model's partitions).
thread_local std::vector<std::vector<uint8_t>> spareBuffers;
constexpr size_t kMaxSpareBuffers = 64;

/// A buffer of `bytes` bytes, from the spares when one fits.
std::vector<uint8_t> checkBuffer(uint64_t bytes) {
  for (size_t i = 0; i < spareBuffers.size(); ++i)
    if (spareBuffers[i].size() == std::max<uint64_t>(bytes, 1)) {
      std::vector<uint8_t> b = std::move(spareBuffers[i]);
      spareBuffers.erase(spareBuffers.begin() + long(i));
      return b;
    }
  return std::vector<uint8_t>(std::max<uint64_t>(bytes, 1));
}

/// Stops `p` using its device in this process (`why` follows the device's
/// name); the next call builds it for another device or its host copy.
/// Caller holds the mutex.
void leaveDevice(State &s, Partition &p, const std::string &why) {
  if (p.device.empty() || p.retired)
    return;
  p.excluded.emplace_back(p.device, why);
  p.retired = true;
  if (!isQuiet(s))
    std::fprintf(stderr, "nnapi-mlir: partition %s leaves device '%s': it %s\n",
                 p.name.empty() ? "(unnamed)" : ("'" + p.name + "'").c_str(),
                 p.device.c_str(), why.c_str());
}

/// The device called `name`, or null.
const DeviceInfo *findDevice(const State &s, const std::string &name) {
  for (const DeviceInfo &d : s.devices)
    if (d.name == name)
      return &d;
  return nullptr;
}

/// Records a quirk in memory and, when there is a record file, in it
/// (failures to write are reported on stderr: the run goes on). Caller holds
/// the mutex.
void recordQuirk(State &s, const DeviceInfo &device, quirks::Quirk quirk) {
  if (!s.quirks.add(device.name, device.version, quirk) || s.quirksFile.empty())
    return;
  std::string error;
  if (!quirks::append(s.quirksFile, device.name, device.version, quirk,
                      error) &&
      !isQuiet(s))
    std::fprintf(stderr, "nnapi-mlir: %s\n", error.c_str());
}

int32_t execute(const uint8_t *blobBytes, int64_t blobSize, const char *name,
                int64_t numInputs, void *const *inputs, int64_t numOutputs,
                void *const *outputs, bool checkable) {
  State &s = state();
  // The rest of a run whose loop timed out is not worth computing.
  if (inRun && loopTimedOut)
    return failWith(NNAPI_RT_TIMEOUT, loopTimeoutWhy);
  if (nnapi_rt_get_mode() == NNAPI_RT_MODE_HOST_ONLY)
    return failWith(NNAPI_RT_DISABLED, "host-only mode");
  int32_t status;
  std::shared_ptr<Partition> p;
  uint64_t verifyEvery = 0, maxFailures = 0;
  bool validate = false;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!blobBytes || blobSize <= 0 || numInputs < 0 || numOutputs < 0 ||
        (numInputs && !inputs) || (numOutputs && !outputs))
      status = failWith(NNAPI_RT_INVALID_ARGUMENT,
                        "nnapi_rt_execute: null or negative argument");
    else if ((status = ensureLibrary(s)) == NNAPI_RT_OK &&
             (status = !s.optionsError.empty()
                           ? failWith(NNAPI_RT_INVALID_ARGUMENT, s.optionsError)
                       : !s.quirksError.empty()
                           ? failWith(NNAPI_RT_INVALID_ARGUMENT, s.quirksError)
                           : NNAPI_RT_OK) == NNAPI_RT_OK)
      status = getPartition(s, blobBytes, blobSize, p);
    if (p && name && p->name.empty())
      p->name.assign(name, strnlen(name, 256));
    verifyEvery = s.options.verifyEvery;
    validate = s.options.validate;
    maxFailures = s.options.maxFailures;
  }
  if (status == NNAPI_RT_OK) {
    uint64_t call = p->calls++;
    bool check = checkable && (validate || (verifyEvery &&
                                            call % verifyEvery == 0));
    if (!check) {
      status = runPartition(*p, numInputs, inputs, numOutputs, outputs);
    } else if (numOutputs != int64_t(p->outputBytes.size())) {
      status = runPartition(*p, numInputs, inputs, numOutputs, outputs);
      check = false; // it fails on the count
    } else {
      // Into our buffers; the caller runs the host copy into its own.
      PendingCheck pending;
      pending.blob = blobBytes;
      pending.partition = p;
      std::vector<void *> into;
      for (uint64_t bytes : p->outputBytes) {
        pending.device.push_back(checkBuffer(bytes));
        into.push_back(pending.device.back().data());
      }
      pending.inputs.assign(inputs, inputs + numInputs);
      int64_t start = steadyNowNs();
      status = runPartition(*p, numInputs, inputs, numOutputs, into.data());
      pending.hostStart = steadyNowNs();
      pending.deviceNs = pending.hostStart - start;
      if (status == NNAPI_RT_OK) {
        ++p->executions;
        ++s.nnapiExecutions;
        p->failuresInRow = 0;
        // A check of this blob left unanswered before (a caller that
        // never called nnapi_rt_verify) can no longer be answered.
        pendingChecks.erase(
            std::remove_if(pendingChecks.begin(), pendingChecks.end(),
                           [&](const PendingCheck &c) {
                             return c.blob == blobBytes;
                           }),
            pendingChecks.end());
        pendingChecks.push_back(std::move(pending));
        return failWith(NNAPI_RT_VERIFY,
                        "ran on NNAPI; the host copy runs to compare");
      }
    }
  }
  if (status == NNAPI_RT_OK) {
    ++p->executions;
    ++s.nnapiExecutions;
    p->failuresInRow = 0;
    return status;
  }
  if (status == NNAPI_RT_TIMEOUT)
    return status; // the model's run fails; nothing falls back
  ++s.failedExecutions;
  std::string why = lastError;
  if (p && p->setupStatus == NNAPI_RT_OK) {
    ++p->failures;
    std::lock_guard<std::mutex> lock(p->failureMutex);
    p->lastFailure = why;
  }
  std::lock_guard<std::mutex> lock(s.mutex);
  // Report the first failure of each partition (or of the library) once.
  bool &reported = p ? p->reported : s.libraryReported;
  if (!reported && !isQuiet(s))
    std::fprintf(stderr,
                 "nnapi-mlir: NNAPI partition failed (%s: %s); running its "
                 "host copy\n",
                 nnapi_rt_status_name(status), why.c_str());
  reported = true;
  // A device that keeps failing is not tried on every call.
  if (p && p->setupStatus == NNAPI_RT_OK && !validate &&
      status == NNAPI_RT_NNAPI_ERROR && ++p->failuresInRow >= maxFailures)
    leaveDevice(s, *p,
                "failed " + std::to_string(p->failuresInRow.load()) +
                    " executions in a row (the max_failures option; the "
                    "last: " + why + ")");
  return failWith(status, why);
}

/// Compares a pending check's device outputs with the host copy's in
/// `outputs`, and acts on a mismatch.
void finishCheck(PendingCheck &pending, int64_t numOutputs,
                 void *const *outputs) {
  State &s = state();
  Partition &p = *pending.partition;
  int64_t hostNs = steadyNowNs() - pending.hostStart;
  const blob::Model &m = p.model;
  Check worst;
  size_t worstOutput = 0;
  bool pass = true, first = true;
  for (size_t i = 0; i < m.outputs.size() && int64_t(i) < numOutputs; ++i) {
    Check c = compareOperand(m, m.outputs[i], pending.device[i].data(),
                             outputs[i], /*callerView=*/true);
    pass &= c.pass;
    if (first || worse(c, worst)) {
      worst = c;
      worstOutput = i;
      first = false;
    }
  }
  bool narrow = false;
  {
    std::lock_guard<std::mutex> lock(p.checksMutex);
    Partition::Checks &c = p.checks;
    ++c.count;
    c.deviceNs += uint64_t(pending.deviceNs);
    c.hostNs += uint64_t(std::max<int64_t>(hostNs, 0));
    c.device = p.device;
    if (!c.any || worse(worst, c.worst))
      c.worst = worst;
    c.any = true;
    if (!pass) {
      ++c.mismatches;
      if (c.firstMismatch.empty())
        c.firstMismatch =
            "output " + std::to_string(worstOutput) + ": " + worst.describe();
      narrow = !c.narrowed;
      c.narrowed = true;
    }
  }
  if (pass)
    return;
  std::lock_guard<std::mutex> lock(s.mutex);
  const DeviceInfo *suspect = findDevice(s, p.device);
  if (narrow && suspect) {
    // Every other device may serve as the reference; NNAPI's own CPU
    // implementation first.
    std::vector<const DeviceInfo *> references;
    if (const DeviceInfo *r = findDevice(s, kReferenceDeviceName);
        r && r != suspect)
      references.push_back(r);
    for (const DeviceInfo &d : s.devices)
      if (&d != suspect && d.name != kReferenceDeviceName)
        references.push_back(&d);
    std::vector<const void *> hostOutputs(outputs, outputs + numOutputs);
    Narrowing found = narrowDown(p.library->functions(), m, *suspect,
                                 references, pending.inputs, hostOutputs);
    const char *by = s.options.validate ? "validate" : "verify";
    for (const WrongOperation &w : found.wrong)
      recordQuirk(s, *suspect, {w.signature, w.check.describe(), by});
    if (found.wrong.empty())
      recordQuirk(s, *suspect,
                  {partitionSignature(pending.blob, p.size),
                   "output " + std::to_string(worstOutput) + ": " +
                       worst.describe(),
                   by});
    std::lock_guard<std::mutex> checksLock(p.checksMutex);
    p.checks.narrowing = std::move(found);
  }
  if (!s.options.validate)
    leaveDevice(s, p,
                "computed wrong values (output " + std::to_string(worstOutput) +
                    ": " + worst.describe() + ")");
}

} // namespace

extern "C" {

int32_t nnapi_rt_execute(const uint8_t *blobBytes, int64_t blobSize,
                         int64_t numInputs, void *const *inputs,
                         int64_t numOutputs, void *const *outputs) {
  return guarded(__func__, [&]() -> int32_t {
    return execute(blobBytes, blobSize, /*name=*/nullptr, numInputs, inputs,
                   numOutputs, outputs, /*checkable=*/false);
  });
}

int32_t nnapi_rt_execute_checked(const uint8_t *blobBytes, int64_t blobSize,
                                 const char *name, int64_t numInputs,
                                 void *const *inputs, int64_t numOutputs,
                                 void *const *outputs) {
  return guarded(__func__, [&]() -> int32_t {
    return execute(blobBytes, blobSize, name, numInputs, inputs, numOutputs,
                   outputs, /*checkable=*/true);
  });
}

void nnapi_rt_verify(const uint8_t *blobBytes, int64_t blobSize,
                     int64_t numOutputs, void *const *outputs) {
  (void)blobSize;
  guarded(__func__, [&]() -> int32_t {
    for (size_t i = pendingChecks.size(); i-- > 0;)
      if (pendingChecks[i].blob == blobBytes) {
        PendingCheck pending = std::move(pendingChecks[i]);
        pendingChecks.erase(pendingChecks.begin() + long(i));
        if (outputs && numOutputs >= 0)
          finishCheck(pending, numOutputs, outputs);
        for (std::vector<uint8_t> &b : pending.device)
          if (spareBuffers.size() < kMaxSpareBuffers)
            spareBuffers.push_back(std::move(b));
        break;
      }
    return NNAPI_RT_OK;
  });
}

int64_t nnapi_rt_loop_deadline(void) {
  if (loopTimedOut && inRun)
    return 0; // past: the run is over
  uint64_t timeout = kDefaultLoopTimeoutNs;
  guarded(__func__, [&]() -> int32_t {
    State &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    ensureOptions(s);
    timeout = s.options.loopTimeoutNs;
    return NNAPI_RT_OK;
  });
  loopTimeoutNs = timeout;
  return steadyNowNs() + int64_t(timeout);
}

int32_t nnapi_rt_loop_continue(int64_t deadline) {
  if (loopTimedOut && inRun)
    return 0;
  if (steadyNowNs() <= deadline)
    return 1;
  guarded(__func__, [&]() -> int32_t {
    return noteLoopTimeout("a loop of the host code ran longer than the loop "
                           "timeout of " +
                           std::to_string(loopTimeoutNs / 1000000) +
                           " ms (the loop_timeout_ms option)");
  });
  loopTimedOut = true;
  return 0;
}

void nnapi_rt_run_begin(void) {
  inRun = true;
  loopTimedOut = false;
}

int32_t nnapi_rt_run_end(void) {
  inRun = false;
  return loopTimedOut ? NNAPI_MODEL_STATUS_LOOP_TIMEOUT : 0;
}

const char *nnapi_rt_last_error(void) { return lastError.c_str(); }

const char *nnapi_rt_status_name(int32_t status) {
  switch (status) {
  case NNAPI_RT_OK: return "NNAPI_RT_OK";
  case NNAPI_RT_INVALID_ARGUMENT: return "NNAPI_RT_INVALID_ARGUMENT";
  case NNAPI_RT_INVALID_BLOB: return "NNAPI_RT_INVALID_BLOB";
  case NNAPI_RT_LIBRARY_UNAVAILABLE: return "NNAPI_RT_LIBRARY_UNAVAILABLE";
  case NNAPI_RT_NNAPI_ERROR: return "NNAPI_RT_NNAPI_ERROR";
  case NNAPI_RT_DISABLED: return "NNAPI_RT_DISABLED";
  case NNAPI_RT_INVALID_MODEL: return "NNAPI_RT_INVALID_MODEL";
  case NNAPI_RT_INTERNAL_ERROR: return "NNAPI_RT_INTERNAL_ERROR";
  case NNAPI_RT_TIMEOUT: return "NNAPI_RT_TIMEOUT";
  case NNAPI_RT_VERIFY: return "NNAPI_RT_VERIFY";
  default: return "NNAPI_RT_UNKNOWN_STATUS";
  }
}

const char *nnapi_rt_result_code_name(int32_t code) {
  static const char *const names[] = {
      "NO_ERROR",          "OUT_OF_MEMORY",
      "INCOMPLETE",        "UNEXPECTED_NULL",
      "BAD_DATA",          "OP_FAILED",
      "BAD_STATE",         "UNMAPPABLE",
      "OUTPUT_INSUFFICIENT_SIZE", "UNAVAILABLE_DEVICE",
      "MISSED_DEADLINE_TRANSIENT", "MISSED_DEADLINE_PERSISTENT",
      "RESOURCE_EXHAUSTED_TRANSIENT", "RESOURCE_EXHAUSTED_PERSISTENT",
      "DEAD_OBJECT"};
  if (code < 0 || code >= static_cast<int32_t>(sizeof(names) / sizeof(*names)))
    return "UNKNOWN";
  return names[code];
}

void nnapi_rt_set_mode(int32_t mode) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().mode = mode;
}

int32_t nnapi_rt_get_mode(void) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.mode < 0) {
    const char *env = std::getenv("NNAPI_MLIR_MODE");
    s.mode = env && std::strcmp(env, "host") == 0 ? NNAPI_RT_MODE_HOST_ONLY
                                                  : NNAPI_RT_MODE_AUTO;
  }
  return s.mode;
}

void nnapi_rt_set_library_path(const char *path) {
  guarded(__func__, [&]() -> int32_t {
    State &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.dropLibrary();
    s.libraryPath = path ? path : "";
    return NNAPI_RT_OK;
  });
}

void nnapi_rt_get_stats(uint64_t *nnapiExecutions, uint64_t *failedExecutions) {
  if (nnapiExecutions)
    *nnapiExecutions = state().nnapiExecutions;
  if (failedExecutions)
    *failedExecutions = state().failedExecutions;
}

void nnapi_rt_reset_stats(void) {
  state().nnapiExecutions = 0;
  state().failedExecutions = 0;
}

void nnapi_rt_reset(void) {
  guarded(__func__, [&]() -> int32_t {
    State &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.dropLibrary();
    return NNAPI_RT_OK;
  });
}

void nnapi_rt_set_quiet(int32_t quiet) {
  std::lock_guard<std::mutex> lock(state().mutex);
  state().quiet = quiet ? 1 : 0;
}

int32_t nnapi_rt_set_option(const char *name, const char *value) {
  return guarded(__func__, [&]() -> int32_t {
    State &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    std::string error;
    if (!checkOption(name, value, error))
      return failWith(NNAPI_RT_INVALID_ARGUMENT, error);
    if (value)
      s.givenOptions[name] = value;
    else
      s.givenOptions.erase(name);
    resolveOptions(s.givenOptions, s.options, s.optionsError);
    s.optionsResolved = true;
    s.quirksRead = false;
    // Partitions were compiled with the old value; the library stays. The
    // pool is made again, for the new count, when next needed.
    s.partitions.clear();
    if (std::strcmp(name, "threads") == 0) {
      std::lock_guard<std::mutex> lock(s.poolMutex);
      s.pool.reset();
    }
    return NNAPI_RT_OK;
  });
}

int32_t nnapi_rt_set_threads(int32_t threads) {
  return nnapi_rt_set_option("threads", std::to_string(threads).c_str());
}

int32_t nnapi_rt_get_threads(void) {
  State &s = state();
  int32_t threads = 1; // if the pool cannot be made, the count is 1
  guarded(__func__, [&]() -> int32_t {
    std::lock_guard<std::mutex> lock(s.mutex);
    threads = int32_t(currentPool(s)->threads());
    return NNAPI_RT_OK;
  });
  return threads;
}

void nnapi_rt_parallel_for(void (*fn)(void *, int64_t, int64_t), void *context,
                           int64_t count, int64_t grain) {
  State &s = state();
  std::shared_ptr<runtime::ThreadPool> pool;
  {
    std::lock_guard<std::mutex> lock(s.poolMutex);
    pool = s.pool;
  }
  if (!pool)
    guarded(__func__, [&]() -> int32_t {
      std::lock_guard<std::mutex> lock(s.mutex);
      pool = currentPool(s);
      return NNAPI_RT_OK;
    });
  if (!pool) { // out of memory for a pool: the calling thread does it all
    if (count > 0)
      fn(context, 0, count);
    return;
  }
  pool->parallelFor(fn, context, count, grain);
}

const char *nnapi_rt_device_type_name(int32_t type) {
  return deviceTypeName(type);
}

int32_t nnapi_rt_device_count(void) {
  State &s = state();
  int32_t count = 0;
  int32_t status = guarded(__func__, [&]() -> int32_t {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (int32_t status = ensureLibrary(s))
      return status;
    count = int32_t(s.devices.size());
    return NNAPI_RT_OK;
  });
  return status ? -status : count;
}

int32_t nnapi_rt_get_device_info(int32_t index, nnapi_rt_device_info *info) {
  return guarded(__func__, [&]() -> int32_t {
    State &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!info)
      return failWith(NNAPI_RT_INVALID_ARGUMENT, "info is null");
    if (int32_t status = ensureLibrary(s))
      return status;
    if (index < 0 || size_t(index) >= s.devices.size())
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "device index " + std::to_string(index) + " out of range (" +
                          std::to_string(s.devices.size()) + " devices)");
    const DeviceInfo &d = s.devices[size_t(index)];
    copyField(info->name, d.name);
    copyField(info->version, d.version);
    info->type = d.type;
    info->featureLevel = int32_t(d.featureLevel);
    std::vector<size_t> order = candidateDevices(s.devices, s.options);
    auto it = std::find(order.begin(), order.end(), size_t(index));
    info->preference = it == order.end() ? -1 : int32_t(it - order.begin());
    return NNAPI_RT_OK;
  });
}

int32_t nnapi_rt_partition_count(void) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  return int32_t(s.partitions.size());
}

int32_t nnapi_rt_get_partition_info(int32_t index,
                                    nnapi_rt_partition_info *info) {
  return withPartition(__func__, index, info, [&](Partition &p) -> int32_t {
    copyField(info->device, p.device);
    copyField(info->error, p.setupError);
    info->status = p.setupStatus;
    info->featureLevel = int32_t(p.model.featureLevel);
    info->burst = p.burst != nullptr;
    info->cached = p.cached;
    info->executions = p.executions;
    info->failures = p.failures;
    {
      std::lock_guard<std::mutex> failureLock(p.failureMutex);
      copyField(info->lastFailure, p.lastFailure);
    }
    info->hardwareTimed = p.hardwareTimed;
    info->hardwareNs = p.hardwareNs;
    info->driverTimed = p.driverTimed;
    info->driverNs = p.driverNs;
    copyField(info->passedOver, p.passedOver);
    copyField(info->name, p.name);
    info->operations = int32_t(p.model.operations.size());
    return NNAPI_RT_OK;
  });
}

int32_t nnapi_rt_get_check_info(int32_t index, nnapi_rt_check_info *info) {
  return withPartition(__func__, index, info, [&](Partition &p) -> int32_t {
    std::lock_guard<std::mutex> checksLock(p.checksMutex);
    const Partition::Checks &c = p.checks;
    *info = nnapi_rt_check_info();
    copyField(info->device, c.device);
    info->checks = c.count;
    info->mismatches = c.mismatches;
    info->maxError = c.worst.error;
    info->tolerance = c.worst.tolerance;
    copyField(info->unit, c.any ? c.worst.unit : "");
    info->deviceNs = c.deviceNs;
    info->hostNs = c.hostNs;
    copyField(info->firstMismatch, c.firstMismatch);
    copyField(info->reference, c.narrowing.reference);
    copyField(info->narrowNote, c.narrowing.note);
    info->wrongOperations = int32_t(c.narrowing.wrong.size());
    std::string disabled;
    for (const auto &[name, why] : p.excluded)
      disabled += (disabled.empty() ? "" : "; ") + ("'" + name + "' " + why);
    copyField(info->disabled, disabled);
    return NNAPI_RT_OK;
  });
}

int32_t nnapi_rt_get_wrong_operation(int32_t index, int32_t k,
                                     nnapi_rt_wrong_operation *info) {
  return withPartition(__func__, index, info, [&](Partition &p) -> int32_t {
    std::lock_guard<std::mutex> checksLock(p.checksMutex);
    const std::vector<WrongOperation> &wrong = p.checks.narrowing.wrong;
    if (k < 0 || size_t(k) >= wrong.size())
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "wrong operation index " + std::to_string(k) +
                          " out of range (" + std::to_string(wrong.size()) +
                          ")");
    const WrongOperation &w = wrong[size_t(k)];
    *info = nnapi_rt_wrong_operation();
    info->operation = int32_t(w.index);
    copyField(info->signature, w.signature);
    info->error = w.check.error;
    info->tolerance = w.check.tolerance;
    copyField(info->unit, w.check.unit);
    copyField(info->description, w.check.describe());
    return NNAPI_RT_OK;
  });
}

} // extern "C"

const std::string &nnapi_mlir::runtime::loopTimeoutMessage() {
  return loopTimeoutWhy;
}

void nnapi_mlir::runtime::forgetPartitionsOf(const void *addressInObject) {
  Dl_info object;
  if (!dladdr(addressInObject, &object) || !object.dli_fbase)
    return;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  for (auto it = s.partitions.begin(); it != s.partitions.end();) {
    Dl_info blob;
    if (dladdr(it->first, &blob) && blob.dli_fbase == object.dli_fbase)
      it = s.partitions.erase(it);
    else
      ++it;
  }
}

namespace nnapi_mlir {
void setNNAPIFunctionTableForTesting(const NNAPIFunctionTable *table) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.dropLibrary();
  s.injected = table;
}
} // namespace nnapi_mlir
