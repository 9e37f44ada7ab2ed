//===- Execution.cpp - Run a built partition on its NNAPI device ----------===//
//
// One call of a partition: its buffers bound to an execution (large ones in
// the allocator's shared blocks as NNAPI memory, SharedMemory.h), computed
// through its burst or alone, a reusable execution run again when a call
// passes the same buffers, and int8 data flipped to the uint8 a level-3
// model holds.
//
//===----------------------------------------------------------------------===//

#include "SharedMemory.h"
#include "State.h"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

using namespace nnapi_mlir;
using namespace nnapi_mlir::runtime;

namespace {

/// Binds the buffers of one call to a new execution: those in the
/// allocator's shared blocks as NNAPI memory (bind_memory), the others as
/// pointers.
int32_t bindExecution(const NNAPIFunctionTable &fn, Partition &p,
                      ANeuralNetworksExecution *exec, void *const *inputs,
                      void *const *outputs) {
  State &s = state();
  bool memoryCalls = p.bindMemory &&
                     fn.ANeuralNetworksExecution_setInputFromMemory &&
                     fn.ANeuralNetworksExecution_setOutputFromMemory;
  auto bind = [&](bool output, size_t i, void *buffer,
                  size_t bytes) -> int32_t {
    size_t offset = 0;
    ANeuralNetworksMemory *memory =
        memoryCalls && bytes >= runtime::kSharedMinBytes
            ? runtime::sharedMemoryFor(fn, buffer, bytes, offset)
            : nullptr;
    int rc;
    const char *call;
    if (memory) {
      call = output ? "ANeuralNetworksExecution_setOutputFromMemory"
                    : "ANeuralNetworksExecution_setInputFromMemory";
      rc = output ? fn.ANeuralNetworksExecution_setOutputFromMemory(
                        exec, int32_t(i), nullptr, memory, offset, bytes)
                  : fn.ANeuralNetworksExecution_setInputFromMemory(
                        exec, int32_t(i), nullptr, memory, offset, bytes);
      s.memoryBoundBytes += bytes;
    } else {
      call = output ? "ANeuralNetworksExecution_setOutput"
                    : "ANeuralNetworksExecution_setInput";
      rc = output ? fn.ANeuralNetworksExecution_setOutput(exec, int32_t(i),
                                                          nullptr, buffer,
                                                          bytes)
                  : fn.ANeuralNetworksExecution_setInput(exec, int32_t(i),
                                                         nullptr, buffer,
                                                         bytes);
      s.pointerBoundBytes += bytes;
    }
    if (rc == ANEURALNETWORKS_NO_ERROR)
      return NNAPI_RT_OK;
    return failWith(NNAPI_RT_NNAPI_ERROR,
                    describeCall(fn, call, rc) + " for " +
                        (output ? "output " : "input ") + std::to_string(i));
  };
  for (size_t i = 0; i < p.inputBytes.size(); ++i)
    if (int32_t status = bind(false, i, inputs[i], p.inputBytes[i]))
      return status;
  for (size_t i = 0; i < p.outputBytes.size(); ++i)
    if (int32_t status = bind(true, i, outputs[i], p.outputBytes[i]))
      return status;
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
  // A duration the driver measured (UINT64_MAX: it did not), added up.
  auto add = [&](int32_t code, std::atomic<uint64_t> &timed,
                 std::atomic<uint64_t> &total) {
    uint64_t ns = UINT64_MAX;
    if (fn.ANeuralNetworksExecution_getDuration(exec, code, &ns) ==
            ANEURALNETWORKS_NO_ERROR &&
        ns != UINT64_MAX) {
      ++timed;
      total += ns;
    }
  };
  add(ANEURALNETWORKS_DURATION_ON_HARDWARE, p.hardwareTimed, p.hardwareNs);
  add(ANEURALNETWORKS_DURATION_IN_DRIVER, p.driverTimed, p.driverNs);
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

} // namespace

int32_t nnapi_mlir::runtime::runPartition(Partition &p, int64_t numInputs,
                                          void *const *inputs,
                                          int64_t numOutputs,
                                          void *const *outputs) {
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

namespace {

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
  // The execution's memories may be gone (nnapi_rt_trim_pool) even where
  // new blocks took the old addresses.
  uint64_t epoch = runtime::sharedMemoryEpoch();
  if (reuse && p.reusable && p.boundEpoch == epoch &&
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
  p.boundEpoch = epoch;
  p.boundInputs.assign(inputs, inputs + numInputs);
  p.boundOutputs.assign(outputs, outputs + numOutputs);
  return NNAPI_RT_OK;
}


} // namespace
