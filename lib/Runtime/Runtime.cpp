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

#include "State.h"

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

} // namespace

int32_t nnapi_mlir::runtime::noteLoopTimeout(std::string why) {
  loopTimedOut = true;
  loopTimeoutWhy = why;
  return failWith(NNAPI_RT_TIMEOUT, std::move(why));
}

int64_t nnapi_mlir::runtime::steadyNowNs() {
  return int64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                     std::chrono::steady_clock::now().time_since_epoch())
                     .count());
}

namespace {

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


/// The pool for the threads option in force, made (or replaced, when the
/// count changed) on demand. Caller holds `s.mutex`.
std::shared_ptr<runtime::ThreadPool> currentPool(State &s) {
  ensureOptions(s);
  unsigned cpus = std::min(runtime::availableCPUs(), kMaxThreads);
  unsigned want = s.options.threads ? s.options.threads : cpus;
  // More spinning workers than CPUs make every parallel loop wait for
  // descheduled threads (256 on 2 CPUs: 0.1 s became 20 s).
  if (want > cpus && !s.options.threadsForce) {
    if (!s.threadsCapReported)
      warn(s, "threads " + std::to_string(want) + " is more than the " +
                  std::to_string(cpus) +
                  " CPUs this process may run on; using " +
                  std::to_string(cpus) + " (threads_force=1 uses them all)");
    s.threadsCapReported = true;
    want = cpus;
  }
  std::lock_guard<std::mutex> lock(s.poolMutex);
  bool builtin = s.options.builtinPool;
  if (!s.pool || s.pool->requested() != want || s.pool->builtin() != builtin)
    s.pool = std::make_shared<runtime::ThreadPool>(want, builtin);
  return s.pool;
}

/// Finds or creates the partition of a blob, for a dynamic partition its
/// specialization to `numDims` input `dims` (null for a static partition).
/// Caller holds the mutex.
int32_t getPartition(State &s, const uint8_t *blobBytes, int64_t blobSize,
                     const int64_t *dims, int64_t numDims,
                     std::shared_ptr<Partition> &out, bool *built = nullptr) {
  PartitionKey key{blobBytes, {}};
  if (dims)
    key.second.assign(dims, dims + numDims);
  auto found = s.partitions.find(key);
  if (dims && found == s.partitions.end())
    evictShapes(s, blobBytes, 1);
  std::shared_ptr<Partition> &slot = s.partitions[key];
  bool same = slot && slot->holds(blobBytes, blobSize);
  if (built)
    *built = !same || slot->retired;
  if (!same || slot->retired) {
    auto p = std::make_shared<Partition>();
    p->library = s.library;
    p->pool = currentPool(s);
    p->size = blobSize;
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
    blob::Model generic;
    if (!blob::read(blobBytes, static_cast<size_t>(blobSize),
                    dims ? generic : p->model, error)) {
      p->setupStatus = NNAPI_RT_INVALID_BLOB;
      p->setupError = "invalid NNAPI model blob: " + error;
    } else if (!dims && isDynamicBlob(p->model)) {
      p->setupStatus = NNAPI_RT_INVALID_ARGUMENT;
      p->setupError = "the partition has dynamic dimensions: it runs through "
                      "nnapi_rt_execute_dims";
    } else if (dims && !specializeBlob(generic, dims, size_t(numDims),
                                       p->model, error)) {
      p->setupStatus = NNAPI_RT_INVALID_ARGUMENT;
      p->setupError = "cannot specialize the dynamic partition: " + error;
    } else {
      if (dims) {
        p->shape = shapeText(p->model);
        ++s.shapesBuilt;
      }
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

/// Runs a partition (`dims`: a dynamic one at a call's input dims). With
/// null `outputs` (and no inputs), only finds or builds it: `outputDims`,
/// when given, gets every output's dims.
int32_t execute(const uint8_t *blobBytes, int64_t blobSize, const char *name,
                int64_t numInputs, void *const *inputs, int64_t numOutputs,
                void *const *outputs, bool checkable,
                const int64_t *dims = nullptr, int64_t numDims = 0,
                int64_t *outputDims = nullptr) {
  State &s = state();
  // The rest of a run whose loop timed out is not worth computing.
  if (inRun && loopTimedOut)
    return failWith(NNAPI_RT_TIMEOUT, loopTimeoutWhy);
  if (nnapi_rt_get_mode() == NNAPI_RT_MODE_HOST_ONLY)
    return failWith(NNAPI_RT_DISABLED, "host-only mode");
  int32_t status;
  std::shared_ptr<Partition> p;
  uint64_t verifyEvery = 0, maxFailures = 0;
  bool validate = false, built = false;
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!blobBytes || blobSize <= 0 || numInputs < 0 || numOutputs < 0 ||
        (numInputs && !inputs && !outputDims) ||
        (numOutputs && !outputs && !outputDims) || numDims < 0 ||
        (numDims && !dims))
      status = failWith(NNAPI_RT_INVALID_ARGUMENT,
                        "nnapi_rt_execute: null or negative argument");
    else if ((status = ensureLibrary(s)) == NNAPI_RT_OK &&
             (status = !s.optionsError.empty()
                           ? failWith(NNAPI_RT_INVALID_ARGUMENT, s.optionsError)
                       : !s.quirksError.empty()
                           ? failWith(NNAPI_RT_INVALID_ARGUMENT, s.quirksError)
                           : NNAPI_RT_OK) == NNAPI_RT_OK)
      status = getPartition(s, blobBytes, blobSize, dims, numDims, p, &built);
    if (p && name && p->name.empty())
      p->name.assign(name, strnlen(name, 256));
    if (p && dims)
      p->lastUse = ++s.useClock;
    verifyEvery = s.options.verifyEvery;
    validate = s.options.validate;
    maxFailures = s.options.maxFailures;
  }
  if (status == NNAPI_RT_OK && outputDims) {
    // Preparing: the outputs' dims, for the caller's buffers.
    if (!built)
      ++s.shapeHits;
    if (numOutputs != int64_t(p->model.outputs.size()))
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "partition has " +
                          std::to_string(p->model.outputs.size()) +
                          " outputs, the call gave " +
                          std::to_string(numOutputs));
    for (uint32_t idx : p->model.outputs)
      for (uint32_t d : p->model.operands[idx].dims)
        *outputDims++ = d;
    return NNAPI_RT_OK;
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
      status = runForCheck(s, p, blobBytes, numInputs, inputs, numOutputs);
      if (status == NNAPI_RT_VERIFY)
        return status;
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
  if (!reported)
    warn(s, std::string("NNAPI partition failed (") +
                nnapi_rt_status_name(status) + ": " + why +
                "); running its host copy");
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

} // namespace

State &nnapi_mlir::runtime::state() {
  static State *s = new State(); // never destroyed: outlives static dtors
  return *s;
}

bool nnapi_mlir::runtime::isQuiet(State &s) {
  if (s.quiet < 0) {
    const char *env = std::getenv("NNAPI_MLIR_QUIET");
    s.quiet = env && *env && std::strcmp(env, "0") != 0;
  }
  return s.quiet;
}

void nnapi_mlir::runtime::warn(State &s, const std::string &message) {
  if (s.logCallback) {
    s.logCallback(s.logUserData, NNAPI_RT_LOG_WARNING, message.c_str());
    return;
  }
  if (isQuiet(s))
    return;
  // logcat where the process has liblog (an app always does); not linked,
  // so that the runtime loads on Linux and before liblog alike.
  using LogWrite = int (*)(int priority, const char *tag, const char *text);
  static LogWrite logWrite = reinterpret_cast<LogWrite>(
      dlsym(RTLD_DEFAULT, "__android_log_write"));
  constexpr int kAndroidLogWarn = 5;
  if (logWrite)
    logWrite(kAndroidLogWarn, "nnapi-mlir", message.c_str());
  else
    std::fprintf(stderr, "nnapi-mlir: %s\n", message.c_str());
}

std::vector<std::shared_ptr<Partition>>
nnapi_mlir::runtime::partitionsInOrder(State &s) {
  std::vector<std::shared_ptr<Partition>> list;
  for (const auto &entry : s.partitions)
    list.push_back(entry.second);
  std::sort(list.begin(), list.end(), [](const auto &a, const auto &b) {
    return a->sequence < b->sequence;
  });
  return list;
}

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

int32_t nnapi_rt_prepare_dims(const uint8_t *blobBytes, int64_t blobSize,
                              const char *name, int64_t numDims,
                              const int64_t *inputDims, int64_t numOutputs,
                              int64_t *outputDims) {
  return guarded(__func__, [&]() -> int32_t {
    if (!outputDims || !inputDims)
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "nnapi_rt_prepare_dims: null dims");
    return execute(blobBytes, blobSize, name, 0, nullptr, numOutputs, nullptr,
                   /*checkable=*/false, inputDims, numDims, outputDims);
  });
}

int32_t nnapi_rt_execute_dims(const uint8_t *blobBytes, int64_t blobSize,
                              const char *name, int64_t numDims,
                              const int64_t *inputDims, int64_t numInputs,
                              void *const *inputs, int64_t numOutputs,
                              void *const *outputs) {
  return guarded(__func__, [&]() -> int32_t {
    if (!inputDims)
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "nnapi_rt_execute_dims: null dims");
    return execute(blobBytes, blobSize, name, numInputs, inputs, numOutputs,
                   outputs, /*checkable=*/true, inputDims, numDims);
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
  state().memoryBoundBytes = 0;
  state().pointerBoundBytes = 0;
  state().nnapiExecutions = 0;
  state().failedExecutions = 0;
  state().shapesBuilt = 0;
  state().shapeHits = 0;
  state().shapesEvicted = 0;
  runtime::resetParallelStats();
}

void nnapi_rt_get_binding_stats(uint64_t *memoryBytes, uint64_t *pointerBytes) {
  if (memoryBytes)
    *memoryBytes = state().memoryBoundBytes;
  if (pointerBytes)
    *pointerBytes = state().pointerBoundBytes;
}

void nnapi_rt_get_parallel_stats(uint64_t *loops, uint64_t *onSeveralThreads) {
  uint64_t all = 0, spread = 0;
  runtime::parallelStats(all, spread);
  if (loops)
    *loops = all;
  if (onSeveralThreads)
    *onSeveralThreads = spread;
}

void nnapi_rt_reset(void) {
  guarded(__func__, [&]() -> int32_t {
    State &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    s.dropLibrary();
    return NNAPI_RT_OK;
  });
}

void nnapi_rt_set_log_callback(nnapi_rt_log_fn callback, void *userData) {
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.logCallback = callback;
  s.logUserData = userData;
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
    copyField(info->name, p.shape.empty() ? p.name : p.name + " at " + p.shape);
    info->operations = int32_t(p.model.operations.size());
    return NNAPI_RT_OK;
  });
}

} // extern "C"

const std::string &nnapi_mlir::runtime::loopTimeoutMessage() {
  return loopTimeoutWhy;
}

void nnapi_mlir::runtime::checkPlacementThreads(const std::string &what,
                                                int32_t placementThreads) {
  if (nnapi_rt_get_mode() == NNAPI_RT_MODE_HOST_ONLY)
    return;
  guarded(__func__, [&]() -> int32_t {
    State &s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    unsigned threads = currentPool(s)->requested();
    if (threads != unsigned(placementThreads))
      warn(s, "model " + what + " was placed for " +
                  std::to_string(placementThreads) +
                  " threads (nnapi-compile --placement-threads); the runtime runs " +
                  std::to_string(threads) +
                  ": its partitions may not be where they run fastest at " +
                  std::to_string(threads) + " (compile it with --placement-threads " +
                  std::to_string(threads) + ")");
    return NNAPI_RT_OK;
  });
}

void nnapi_mlir::runtime::forgetPartitionsOf(const void *addressInObject) {
  Dl_info object;
  if (!dladdr(addressInObject, &object) || !object.dli_fbase)
    return;
  State &s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  for (auto it = s.partitions.begin(); it != s.partitions.end();) {
    Dl_info blob;
    if (dladdr(it->first.first, &blob) && blob.dli_fbase == object.dli_fbase)
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
