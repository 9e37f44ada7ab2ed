//===- HostNNAPI.cpp - The NNAPI C API implemented on the CPU -------------===//
//
// A host implementation of the subset of NNAPI declared in NeuralNetworks.h,
// built as libnnapi_host.so so the runtime can dlopen it exactly like
// libneuralnetworks.so. It behaves as a CPU device: models are built and
// validated operation by operation with NNAPI's operand rules when they are
// finished (ModelApi.cpp, Validation.cpp); a compilation, when finished, becomes an Executor with
// one XNNPACK operator per operation (weights packed once) or a reference
// kernel, and a buffer plan for the intermediate tensors (Executor.cpp); an
// execution binds the caller's buffers and runs it.
//
// Environment, read when a compilation is finished:
//   NNAPI_MLIR_HOST_KERNELS=reference  reference kernels only (default:
//                                      XNNPACK where it has the operator)
//   NNAPI_MLIR_HOST_FAULT=initialize|create|run
//                                      simulate an XNNPACK failure (tests)
//   NNAPI_MLIR_HOST_LIE=DEVICE:OPERATION:MODE[,...]
//                                      the device computes the operation
//                                      wrong without an error (Lies.cpp;
//                                      MODE offset[=N], sign, nan, stale)
//
// Besides the NNAPI functions it exports NNAPIMLIRHost_lastError(), which the
// runtime looks up (optionally) to explain a failing call,
// NNAPIMLIRHost_setCompilationThreadPool(), with which the runtime hands a
// compilation its thread pool (without one, operators run on the calling
// thread),
// NNAPIMLIRHost_setProfile(), NNAPIMLIRHost_getCompilationInfo() and
// NNAPIMLIRHost_getCompilationThreads().
//
// It enumerates the devices of Devices.h (the host device by default; several
// from device profiles, and NNAPI's CPU reference device, with
// $NNAPI_MLIR_HOST_DEVICES), each rejecting what its profile does not run,
// both in getSupportedOperationsForDevices and when a compilation is
// finished, so partitioning, device selection and run-time fallback can be
// tested without the hardware. Compilations honour setCaching (Cache.h),
// setPriority and setPreference; executions run alone, reused, or through a
// burst, and measure their durations when asked.
//
//===----------------------------------------------------------------------===//

#include "CApi.h"
#include "Cache.h"
#include "Devices.h"
#include "Executor.h"
#include "HostModel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include <sys/mman.h>

#ifdef NNAPI_MLIR_HAVE_XNNPACK
#include <pthreadpool.h>
#endif

using namespace nnapi_mlir::host;

//===----------------------------------------------------------------------===//
// The C API's error state: the last failure's message, per thread
// (NNAPIMLIRHost_lastError). Validation, the executor and the XNNPACK steps
// report through fail().
//===----------------------------------------------------------------------===//

namespace {
thread_local std::string lastError;
} // namespace

int nnapi_mlir::host::fail(int code, std::string message) {
  lastError = std::move(message);
  return code;
}

const std::string &nnapi_mlir::host::lastErrorMessage() { return lastError; }




struct ANeuralNetworksCompilation {
  ANeuralNetworksModel *model;
  /// The devices it may use (Compilation_create: all of them), and the one
  /// chosen at finish: the first that runs every operation.
  std::vector<ANeuralNetworksDevice *> devices;
  ANeuralNetworksDevice *device = nullptr;
  bool forDevices = false; ///< Made by createForDevices.
  bool finished = false;
  std::string cacheDir;
  CacheToken token{};
  KernelMode kernels = KernelMode::XNNPACK; ///< The executor's.
  /// The pool its operators run on (NNAPIMLIRHost_setCompilationThreadPool;
  /// the caller keeps it alive as long as the compilation), or null.
  pthreadpool_t threadpool = nullptr;
  std::unique_ptr<Executor> executor;
};

struct ANeuralNetworksExecution {
  ANeuralNetworksCompilation *compilation;
  std::vector<const void *> inputs;
  std::vector<void *> outputs;
  /// Bound inside an ANeuralNetworksMemory (setInputFromMemory), not as a
  /// pointer to the caller's buffer.
  std::vector<bool> inputInMemory, outputInMemory;
  bool reusable = false;
  bool computed = false; ///< A reusable execution's bindings are frozen.
  bool measure = false;
  uint64_t loopTimeoutNs = kDefaultLoopTimeoutNs;
  /// Of the last computation, in nanoseconds (UINT64_MAX: not measured).
  uint64_t hardwareNs = UINT64_MAX, driverNs = UINT64_MAX;
};

struct ANeuralNetworksEvent {
  int status;
};

struct ANeuralNetworksBurst {
  ANeuralNetworksCompilation *compilation;
  /// A burst serves one computation at a time (NNAPI's rule).
  std::mutex busy;
};

namespace {

/// Executor options from the environment for a compilation on `device`; an
/// error for unknown values.
int executorOptions(const ANeuralNetworksDevice &device,
                    ExecutorOptions &options) {
  const char *kernels = std::getenv("NNAPI_MLIR_HOST_KERNELS");
  if (!kernels || !*kernels || std::strcmp(kernels, "xnnpack") == 0)
    options.kernels = KernelMode::XNNPACK;
  else if (std::strcmp(kernels, "reference") == 0)
    options.kernels = KernelMode::Reference;
  else
    return fail(ANEURALNETWORKS_BAD_STATE,
                std::string("NNAPI_MLIR_HOST_KERNELS must be 'xnnpack' or "
                            "'reference', got '") + kernels + "'");
  const char *fault = std::getenv("NNAPI_MLIR_HOST_FAULT");
  if (!fault || !*fault)
    options.fault = Fault::None;
  else if (std::strcmp(fault, "initialize") == 0)
    options.fault = Fault::Initialize;
  else if (std::strcmp(fault, "create") == 0)
    options.fault = Fault::Create;
  else if (std::strcmp(fault, "run") == 0)
    options.fault = Fault::Run;
  else
    return fail(ANEURALNETWORKS_BAD_STATE,
                std::string("NNAPI_MLIR_HOST_FAULT must be 'initialize', "
                            "'create' or 'run', got '") + fault + "'");
  if (const char *lie = std::getenv("NNAPI_MLIR_HOST_LIE"); lie && *lie) {
    std::string why;
    if (!parseLies(lie, device.name, options.lies, why))
      return fail(ANEURALNETWORKS_BAD_STATE,
                  std::string("NNAPI_MLIR_HOST_LIE: ") + why);
  }
  const char *trace = std::getenv("NNAPI_MLIR_HOST_TRACE");
  options.trace = trace && *trace && std::strcmp(trace, "0") != 0;
  return ANEURALNETWORKS_NO_ERROR;
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) const char *NNAPIMLIRHost_lastError(void) {
  return lastErrorMessage().c_str();
}

__attribute__((visibility("default"))) int
NNAPIMLIRHost_setCompilationThreadPool(ANeuralNetworksCompilation *c,
                                       void *pool) {
  if (!c)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "compilation is null");
  if (c->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "compilation already finished");
  c->threadpool = static_cast<pthreadpool_t>(pool);
  return ANEURALNETWORKS_NO_ERROR;
}

static int knownDevices(const ANeuralNetworksDevice *const *list, uint32_t n,
                        std::vector<ANeuralNetworksDevice *> &out) {
  if (!list || n == 0)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "no devices");
  for (uint32_t i = 0; i < n; ++i) {
    ANeuralNetworksDevice *d = knownDevice(list[i]);
    if (!d)
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "device " + std::to_string(i) + " is not one of this "
                  "library's devices");
    out.push_back(d);
  }
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksModel_getSupportedOperationsForDevices(
    const ANeuralNetworksModel *model,
    const ANeuralNetworksDevice *const *devices, uint32_t numDevices,
    bool *supportedOps) {
  return guarded(__func__, [&]() -> int {
    if (!model || !supportedOps)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    if (!model->finished)
      return fail(ANEURALNETWORKS_BAD_STATE, "model not finished");
    std::vector<ANeuralNetworksDevice *> set;
    if (int rc = knownDevices(devices, numDevices, set))
      return rc;
    // A finished model passed validation: an operation runs if one of the
    // devices accepts it. The reason for the first one that does not is left
    // in NNAPIMLIRHost_lastError (the call itself succeeds).
    std::string first;
    for (size_t i = 0; i < model->operations.size(); ++i) {
      std::string why;
      supportedOps[i] = std::any_of(set.begin(), set.end(), [&](auto *d) {
        std::string reason = deviceRejection(*d, *model, i);
        if (why.empty())
          why = reason;
        return reason.empty();
      });
      if (!supportedOps[i] && first.empty())
        first = why;
    }
    return fail(ANEURALNETWORKS_NO_ERROR, first);
  });
}

static int createCompilation(ANeuralNetworksModel *model,
                             std::vector<ANeuralNetworksDevice *> devices,
                             bool forDevices,
                             ANeuralNetworksCompilation **out) {
  if (!model || !out)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (!model->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "model not finished");
  auto *c = new (std::nothrow) ANeuralNetworksCompilation{model};
  if (!c)
    return ANEURALNETWORKS_OUT_OF_MEMORY;
  c->devices = std::move(devices);
  c->forDevices = forDevices;
  *out = c;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksCompilation_create(ANeuralNetworksModel *model,
                                      ANeuralNetworksCompilation **out) {
  return guarded(__func__, [&]() -> int {
    return createCompilation(model, currentDevices().devices, false, out);
  });
}

int ANeuralNetworksCompilation_createForDevices(
    ANeuralNetworksModel *model, const ANeuralNetworksDevice *const *devices,
    uint32_t numDevices, ANeuralNetworksCompilation **out) {
  return guarded(__func__, [&]() -> int {
    std::vector<ANeuralNetworksDevice *> set;
    if (int rc = knownDevices(devices, numDevices, set))
      return rc;
    return createCompilation(model, std::move(set), true, out);
  });
}

void ANeuralNetworksCompilation_free(ANeuralNetworksCompilation *c) { delete c; }

int ANeuralNetworksCompilation_setPriority(ANeuralNetworksCompilation *c,
                                           int priority) {
  return guarded(__func__, [&]() -> int {
    if (!c)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "compilation is null");
    if (c->finished)
      return fail(ANEURALNETWORKS_BAD_STATE, "compilation already finished");
    if (priority != ANEURALNETWORKS_PRIORITY_LOW &&
        priority != ANEURALNETWORKS_PRIORITY_MEDIUM &&
        priority != ANEURALNETWORKS_PRIORITY_HIGH)
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "invalid priority " + std::to_string(priority));
    return ANEURALNETWORKS_NO_ERROR; // one CPU: nothing to order
  });
}

int ANeuralNetworksCompilation_setCaching(ANeuralNetworksCompilation *c,
                                          const char *cacheDir,
                                          const uint8_t *token) {
  return guarded(__func__, [&]() -> int {
    if (!c || !cacheDir || !token)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    if (c->finished)
      return fail(ANEURALNETWORKS_BAD_STATE, "compilation already finished");
    c->cacheDir = cacheDir;
    std::copy(token, token + ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN,
              c->token.begin());
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksCompilation_setPreference(ANeuralNetworksCompilation *c,
                                             int32_t preference) {
  return guarded(__func__, [&]() -> int {
    if (!c)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "compilation is null");
    if (c->finished)
      return fail(ANEURALNETWORKS_BAD_STATE, "compilation already finished");
    if (preference < 0 || preference > 2)
      return fail(ANEURALNETWORKS_BAD_DATA, "invalid preference");
    return ANEURALNETWORKS_NO_ERROR;
  });
}

/// Reads the cache entry of `c` (compiled on its device), counts what it
/// found, and writes a new entry unless a valid one was there (the device
/// compiles either way: Cache.h).
static void useCache(ANeuralNetworksCompilation &c) {
  ANeuralNetworksDevice &d = *c.device;
  CacheEntry expected;
  expected.token = c.token;
  expected.fingerprint = fingerprintModel(
      *c.model, d.name, d.version + (c.kernels == KernelMode::Reference
                                          ? " reference kernels"
                                          : " XNNPACK"));
  expected.device = d.name;
  expected.steps = uint32_t(c.executor->stepCount());
  expected.xnnpackSteps = uint32_t(c.executor->xnnpackStepCount());
  expected.arenaBytes = c.executor->arenaBytes();
  std::string path = cacheFilePath(c.cacheDir, c.token), why;
  CacheEntry found;
  switch (readCacheEntry(path, expected, found, why)) {
  case CacheLookup::Found:
    ++d.counters.cacheEntriesFound;
    return;
  case CacheLookup::Missing:
    ++d.counters.cacheEntriesMissing;
    break;
  case CacheLookup::Rejected:
    ++d.counters.cacheEntriesRejected;
    break;
  }
  if (writeCacheEntry(path, expected))
    ++d.counters.cacheEntriesWritten;
}

int ANeuralNetworksCompilation_finish(ANeuralNetworksCompilation *c) {
  return guarded(__func__, [&]() -> int {
    if (!c)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "compilation is null");
    if (c->finished)
      return fail(ANEURALNETWORKS_BAD_STATE, "compilation already finished");
    const auto &ops = c->model->operations;
    // Every operation must run on one of the devices (NNAPI's rule); the
    // compilation runs on the first device that takes all of them, else on
    // the first one (the operations all run on this CPU either way).
    for (size_t i = 0; i < ops.size(); ++i) {
      std::string why;
      bool runs = false;
      for (ANeuralNetworksDevice *d : c->devices) {
        std::string reason = deviceRejection(*d, *c->model, i);
        runs |= reason.empty();
        if (why.empty())
          why = reason;
      }
      if (!runs)
        return fail(ANEURALNETWORKS_BAD_DATA,
                    "operation " + std::to_string(i) + ": " + why);
    }
    if (c->devices.empty())
      return fail(ANEURALNETWORKS_BAD_STATE, "no devices to compile for");
    c->device = c->devices.front();
    for (ANeuralNetworksDevice *d : c->devices) {
      bool all = true;
      for (size_t i = 0; i < ops.size() && all; ++i)
        all = deviceRejection(*d, *c->model, i).empty();
      if (all) {
        c->device = d;
        break;
      }
    }
    ExecutorOptions options;
    if (int rc = executorOptions(*c->device, options))
      return rc;
    if (c->device->reference)
      options.kernels = KernelMode::Reference;
    options.threadpool = c->threadpool;
    c->kernels = options.kernels;
    if (int rc = Executor::create(*c->model, options, c->executor))
      return rc;
    if (!c->cacheDir.empty())
      useCache(*c);
    ++c->device->counters.compilations;
    c->finished = true;
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksExecution_create(ANeuralNetworksCompilation *c,
                                    ANeuralNetworksExecution **out) {
  return guarded(__func__, [&]() -> int {
    if (!c || !out)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    if (!c->finished)
      return fail(ANEURALNETWORKS_BAD_STATE, "compilation not finished");
    auto *e = new (std::nothrow) ANeuralNetworksExecution();
    if (!e)
      return ANEURALNETWORKS_OUT_OF_MEMORY;
    e->compilation = c;
    e->inputs.assign(c->model->inputs.size(), nullptr);
    e->outputs.assign(c->model->outputs.size(), nullptr);
    e->inputInMemory.assign(e->inputs.size(), false);
    e->outputInMemory.assign(e->outputs.size(), false);
    *out = e;
    return ANEURALNETWORKS_NO_ERROR;
  });
}

void ANeuralNetworksExecution_free(ANeuralNetworksExecution *e) { delete e; }

static int checkIO(ANeuralNetworksExecution *e, int32_t index,
                   const ANeuralNetworksOperandType *type, const void *buffer,
                   size_t length, const std::vector<uint32_t> &list,
                   const char *what) {
  if (!e || !buffer)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (e->computed)
    return fail(ANEURALNETWORKS_BAD_STATE,
                std::string("the execution was computed; its ") + what +
                    "s cannot change");
  if (index < 0 || size_t(index) >= list.size())
    return fail(ANEURALNETWORKS_BAD_DATA,
                std::string(what) + " index " + std::to_string(index) +
                    " out of range");
  const Operand &op = e->compilation->model->operands[list[index]];
  if (type && (type->type != op.type ||
               Shape(type->dimensions, type->dimensions + type->dimensionCount) !=
                   op.dims))
    return fail(ANEURALNETWORKS_BAD_DATA,
                std::string(what) + " type does not match the model");
  if (length != operandBytes(op))
    return fail(ANEURALNETWORKS_BAD_DATA,
                std::string(what) + " " + std::to_string(index) + " has " +
                    std::to_string(length) + " bytes, the model needs " +
                    std::to_string(operandBytes(op)));
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksExecution_setInput(ANeuralNetworksExecution *e,
                                      int32_t index,
                                      const ANeuralNetworksOperandType *type,
                                      const void *buffer, size_t length) {
  return guarded(__func__, [&]() -> int {
    if (int rc = checkIO(e, index, type, buffer, length,
                         e ? e->compilation->model->inputs
                           : std::vector<uint32_t>(),
                         "input"))
      return rc;
    e->inputs[index] = buffer;
    e->inputInMemory[index] = false;
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksExecution_setOutput(ANeuralNetworksExecution *e,
                                       int32_t index,
                                       const ANeuralNetworksOperandType *type,
                                       void *buffer, size_t length) {
  return guarded(__func__, [&]() -> int {
    if (int rc = checkIO(e, index, type, buffer, length,
                         e ? e->compilation->model->outputs
                           : std::vector<uint32_t>(),
                         "output"))
      return rc;
    e->outputs[index] = buffer;
    e->outputInMemory[index] = false;
    return ANEURALNETWORKS_NO_ERROR;
  });
}

/// Binds input or output `index` of `e` to the bytes [offset, offset +
/// length) of `memory`: checkIO's checks, the range inside the memory, and
/// the protection the direction needs.
static int bindFromMemory(ANeuralNetworksExecution *e, int32_t index,
                          const ANeuralNetworksOperandType *type,
                          const ANeuralNetworksMemory *memory, size_t offset,
                          size_t length, bool output) {
  if (!memory)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "memory is null");
  const char *what = output ? "output" : "input";
  if (int rc = checkIO(e, index, type, memory->data, length,
                       e ? (output ? e->compilation->model->outputs
                                   : e->compilation->model->inputs)
                         : std::vector<uint32_t>(),
                       what))
    return rc;
  if (offset > memory->size || length > memory->size - offset)
    return fail(ANEURALNETWORKS_BAD_DATA,
                std::string(what) + " " + std::to_string(index) + ": bytes " +
                    std::to_string(offset) + ".." +
                    std::to_string(offset + length) +
                    " are outside the memory's " +
                    std::to_string(memory->size));
  if (output && !(memory->protect & PROT_WRITE))
    return fail(ANEURALNETWORKS_BAD_DATA,
                "output " + std::to_string(index) +
                    ": the memory is not writable (PROT_WRITE)");
  char *at = memory->data + offset;
  if (output) {
    e->outputs[index] = at;
    e->outputInMemory[index] = true;
  } else {
    e->inputs[index] = at;
    e->inputInMemory[index] = true;
  }
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksExecution_setInputFromMemory(
    ANeuralNetworksExecution *e, int32_t index,
    const ANeuralNetworksOperandType *type, const ANeuralNetworksMemory *memory,
    size_t offset, size_t length) {
  return guarded(__func__, [&]() -> int {
    return bindFromMemory(e, index, type, memory, offset, length, false);
  });
}

int ANeuralNetworksExecution_setOutputFromMemory(
    ANeuralNetworksExecution *e, int32_t index,
    const ANeuralNetworksOperandType *type, const ANeuralNetworksMemory *memory,
    size_t offset, size_t length) {
  return guarded(__func__, [&]() -> int {
    return bindFromMemory(e, index, type, memory, offset, length, true);
  });
}

/// Runs `e` (through `burst` when given), timing it when asked.
static int compute(ANeuralNetworksExecution *e, ANeuralNetworksBurst *burst) {
  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point t) {
    return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                        Clock::now() - t)
                        .count());
  };
  Clock::time_point entered = Clock::now();
  if (!e)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "execution is null");
  for (const void *p : e->inputs)
    if (!p)
      return fail(ANEURALNETWORKS_BAD_STATE, "an input is not set");
  for (void *p : e->outputs)
    if (!p)
      return fail(ANEURALNETWORKS_BAD_STATE, "an output is not set");
  if (e->computed && !e->reusable)
    return fail(ANEURALNETWORKS_BAD_STATE,
                "the execution was computed and is not reusable");
  e->computed = true;
  e->hardwareNs = e->driverNs = UINT64_MAX;
  Clock::time_point started = Clock::now();
  setLoopTimeoutForThisThread(e->loopTimeoutNs);
  ANeuralNetworksDevice::Counters &counters =
      e->compilation->device->counters;
  const HostModel &model = *e->compilation->model;
  // A device made from a profile stands for a driver in another process:
  // NNAPI copies the arguments given as pointers into memory the driver can
  // map, and the outputs back (memory bound with setInputFromMemory is
  // mapped by both already). It copies here too, so that the cost shows.
  bool copies = e->compilation->device->profile != nullptr;
  std::vector<std::vector<char>> staged;
  std::vector<const void *> inputs = e->inputs;
  std::vector<void *> outputs = e->outputs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    size_t bytes = operandBytes(model.operands[model.inputs[i]]);
    (e->inputInMemory[i] ? counters.memoryArgumentBytes
                         : counters.pointerArgumentBytes) += bytes;
    if (copies && !e->inputInMemory[i]) {
      const char *from = static_cast<const char *>(inputs[i]);
      inputs[i] = staged.emplace_back(from, from + bytes).data();
    }
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    size_t bytes = operandBytes(model.operands[model.outputs[i]]);
    (e->outputInMemory[i] ? counters.memoryArgumentBytes
                          : counters.pointerArgumentBytes) += bytes;
    if (copies && !e->outputInMemory[i])
      outputs[i] = staged.emplace_back(bytes).data();
  }
  int status = e->compilation->executor->run(inputs.data(), outputs.data());
  if (copies && status == ANEURALNETWORKS_NO_ERROR)
    for (size_t i = 0; i < outputs.size(); ++i)
      if (outputs[i] != e->outputs[i])
        std::memcpy(e->outputs[i], outputs[i],
                    operandBytes(model.operands[model.outputs[i]]));
  ++counters.executions;
  if (burst)
    ++counters.burstExecutions;
  if (e->measure && status == ANEURALNETWORKS_NO_ERROR) {
    e->hardwareNs = since(started);
    e->driverNs = since(entered);
    ++counters.timedExecutions;
  }
  return status;
}

int ANeuralNetworksExecution_compute(ANeuralNetworksExecution *e) {
  return guarded(__func__, [&]() -> int {
    return compute(e, nullptr);
  });
}

int ANeuralNetworksBurst_create(ANeuralNetworksCompilation *c,
                                ANeuralNetworksBurst **burst) {
  return guarded(__func__, [&]() -> int {
    if (!c || !burst)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    if (!c->finished)
      return fail(ANEURALNETWORKS_BAD_STATE, "compilation not finished");
    *burst = new (std::nothrow) ANeuralNetworksBurst();
    if (!*burst)
      return ANEURALNETWORKS_OUT_OF_MEMORY;
    (*burst)->compilation = c;
    return ANEURALNETWORKS_NO_ERROR;
  });
}

void ANeuralNetworksBurst_free(ANeuralNetworksBurst *burst) { delete burst; }

int ANeuralNetworksExecution_burstCompute(ANeuralNetworksExecution *e,
                                          ANeuralNetworksBurst *burst) {
  return guarded(__func__, [&]() -> int {
    if (!e || !burst)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    if (burst->compilation != e->compilation)
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "the burst belongs to another compilation");
    std::unique_lock<std::mutex> lock(burst->busy, std::try_to_lock);
    if (!lock.owns_lock())
      return fail(ANEURALNETWORKS_BAD_STATE,
                  "the burst is serving another computation");
    return compute(e, burst);
  });
}

/// The checks of a setting that must come before an execution's first
/// computation: `rule` is the message when it comes after.
static int beforeComputation(const ANeuralNetworksExecution *e,
                             const char *rule) {
  if (!e)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "execution is null");
  if (e->computed)
    return fail(ANEURALNETWORKS_BAD_STATE, rule);
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksExecution_setMeasureTiming(ANeuralNetworksExecution *e,
                                              bool measure) {
  return guarded(__func__, [&]() -> int {
    if (int rc = beforeComputation(
            e, "setMeasureTiming must come before the computation"))
      return rc;
    const ANeuralNetworksCompilation *c = e->compilation;
    if (measure && (!c->forDevices || c->devices.size() != 1))
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "timing needs a compilation for exactly one device "
                  "(createForDevices)");
    e->measure = measure;
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksExecution_getDuration(const ANeuralNetworksExecution *e,
                                         int32_t durationCode,
                                         uint64_t *duration) {
  return guarded(__func__, [&]() -> int {
    if (!e || !duration)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    if (!e->computed)
      return fail(ANEURALNETWORKS_BAD_STATE, "the execution was not computed");
    switch (durationCode) {
    case ANEURALNETWORKS_DURATION_ON_HARDWARE:
      *duration = e->hardwareNs;
      return ANEURALNETWORKS_NO_ERROR;
    case ANEURALNETWORKS_DURATION_IN_DRIVER:
      *duration = e->driverNs;
      return ANEURALNETWORKS_NO_ERROR;
    case ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE:
    case ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER:
      *duration = UINT64_MAX; // no fenced computations here
      return ANEURALNETWORKS_NO_ERROR;
    default:
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "invalid duration code " + std::to_string(durationCode));
    }
  });
}

int ANeuralNetworksExecution_setLoopTimeout(ANeuralNetworksExecution *e,
                                            uint64_t duration) {
  return guarded(__func__, [&]() -> int {
    if (int rc = beforeComputation(
            e, "setLoopTimeout must come before the computation"))
      return rc;
    // NNAPI clamps a longer timeout to its maximum.
    e->loopTimeoutNs = std::min(duration, kMaxLoopTimeoutNs);
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksExecution_setReusable(ANeuralNetworksExecution *e,
                                         bool reusable) {
  return guarded(__func__, [&]() -> int {
    if (int rc = beforeComputation(
            e, "setReusable must come before the first computation"))
      return rc;
    e->reusable = reusable;
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksExecution_startCompute(ANeuralNetworksExecution *e,
                                          ANeuralNetworksEvent **event) {
  return guarded(__func__, [&]() -> int {
    if (!event)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "event is null");
    int status = ANeuralNetworksExecution_compute(e);
    if (status != ANEURALNETWORKS_NO_ERROR)
      return status;
    *event = new (std::nothrow) ANeuralNetworksEvent{status};
    return *event ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
  });
}

int ANeuralNetworksEvent_wait(ANeuralNetworksEvent *event) {
  return guarded(__func__, [&]() -> int {
    if (!event)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "event is null");
    return event->status;
  });
}

void ANeuralNetworksEvent_free(ANeuralNetworksEvent *event) { delete event; }

int ANeuralNetworks_getDeviceCount(uint32_t *numDevices) {
  return guarded(__func__, [&]() -> int {
    if (!numDevices)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    DeviceList list = currentDevices();
    if (!list.error.empty())
      return fail(ANEURALNETWORKS_BAD_STATE, list.error);
    *numDevices = uint32_t(list.devices.size());
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworks_getDevice(uint32_t devIndex, ANeuralNetworksDevice **device) {
  return guarded(__func__, [&]() -> int {
    if (!device)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    DeviceList list = currentDevices();
    if (devIndex >= list.devices.size())
      return fail(ANEURALNETWORKS_BAD_DATA, "device index out of range");
    *device = list.devices[devIndex];
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksDevice_getName(const ANeuralNetworksDevice *device,
                                  const char **name) {
  return guarded(__func__, [&]() -> int {
    if (!device || !name)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    *name = device->name.c_str();
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksDevice_getType(const ANeuralNetworksDevice *device,
                                  int32_t *type) {
  return guarded(__func__, [&]() -> int {
    if (!device || !type)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    *type = device->type;
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksDevice_getVersion(const ANeuralNetworksDevice *device,
                                     const char **version) {
  return guarded(__func__, [&]() -> int {
    if (!device || !version)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    *version = device->version.c_str();
    return ANEURALNETWORKS_NO_ERROR;
  });
}

int ANeuralNetworksDevice_getFeatureLevel(const ANeuralNetworksDevice *device,
                                          int64_t *featureLevel) {
  return guarded(__func__, [&]() -> int {
    if (!device || !featureLevel)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    *featureLevel = nnapi_mlir_feature_level_code(device->featureLevel);
    return ANEURALNETWORKS_NO_ERROR;
  });
}

/// The highest level of the devices: what this NNAPI implementation offers.
int64_t ANeuralNetworks_getRuntimeFeatureLevel(void) {
  unsigned level = 1;
  guarded(__func__, [&]() -> int {
    for (const ANeuralNetworksDevice *d : currentDevices().devices)
      level = std::max(level, d->featureLevel);
    return ANEURALNETWORKS_NO_ERROR;
  });
  return nnapi_mlir_feature_level_code(level);
}

/// What a finished compilation became: its steps (operations that are not
/// views), how many run on XNNPACK, and the bytes of its intermediate-tensor
/// arena. For tests and tools; not part of NNAPI.
__attribute__((visibility("default"))) int
NNAPIMLIRHost_getCompilationInfo(const ANeuralNetworksCompilation *c,
                                 uint32_t *steps, uint32_t *xnnpackSteps,
                                 uint64_t *arenaBytes) {
  return guarded(__func__, [&]() -> int {
    if (!c || !steps || !xnnpackSteps || !arenaBytes)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    if (!c->finished)
      return fail(ANEURALNETWORKS_BAD_STATE, "compilation not finished");
    *steps = uint32_t(c->executor->stepCount());
    *xnnpackSteps = uint32_t(c->executor->xnnpackStepCount());
    *arenaBytes = c->executor->arenaBytes();
    return ANEURALNETWORKS_NO_ERROR;
  });
}

__attribute__((visibility("default"))) int
NNAPIMLIRHost_getCompilationThreads(const ANeuralNetworksCompilation *c,
                                    uint32_t *threads) {
  if (!c || !threads)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  *threads = 1;
#ifdef NNAPI_MLIR_HAVE_XNNPACK
  if (c->threadpool)
    *threads = uint32_t(pthreadpool_get_threads_count(c->threadpool));
#endif
  return ANEURALNETWORKS_NO_ERROR;
}

/// Replaces the devices (HostExtensions.h).
__attribute__((visibility("default"))) int
NNAPIMLIRHost_setDevices(const char *spec) {
  return guarded(__func__, [&]() -> int {
    return setDevices(spec);
  });
}

/// One device from the profile at `path` (nullptr or "": the host device).
__attribute__((visibility("default"))) int
NNAPIMLIRHost_setProfile(const char *path) {
  return guarded(__func__, [&]() -> int {
    if (path && std::strchr(path, ','))
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "a profile path cannot contain ','; use "
                  "NNAPIMLIRHost_setDevices");
    return setDevices(path);
  });
}

/// What `device` did (HostExtensions.h).
__attribute__((visibility("default"))) int
NNAPIMLIRHost_getDeviceCounters(const ANeuralNetworksDevice *device,
                                NNAPIMLIRHostDeviceCounters *out) {
  return guarded(__func__, [&]() -> int {
    if (!device || !out)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    const ANeuralNetworksDevice::Counters &c = device->counters;
    out->compilations = c.compilations;
    out->cacheEntriesFound = c.cacheEntriesFound;
    out->cacheEntriesMissing = c.cacheEntriesMissing;
    out->cacheEntriesRejected = c.cacheEntriesRejected;
    out->cacheEntriesWritten = c.cacheEntriesWritten;
    out->executions = c.executions;
    out->burstExecutions = c.burstExecutions;
    out->timedExecutions = c.timedExecutions;
    out->pointerArgumentBytes = c.pointerArgumentBytes;
    out->memoryArgumentBytes = c.memoryArgumentBytes;
    return ANEURALNETWORKS_NO_ERROR;
  });
}

} // extern "C"
