//===- Devices.h - Runtime options and the choice of NNAPI device -*- C++ -*-===//
//
// A phone's NNAPI enumerates several devices: an NPU, a GPU, a DSP and
// NNAPI's own CPU reference implementation ("nnapi-reference"), which is
// slower than the model's compiled host copy. The runtime therefore never
// lets the driver pick (ANeuralNetworksCompilation_create): for each
// partition it tries the candidate devices in order of preference, asks each
// whether it runs every operation (getSupportedOperationsForDevices), and
// compiles for the first that does (createForDevices), falling back to the
// host copy with every device's reason when none does.
//
// The options that shape this (Runtime.h, nnapi_rt_set_option) are declared
// once, in kOptions (Devices.cpp): name, environment variable, parser.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_RUNTIME_DEVICES_H
#define NNAPI_MLIR_LIB_RUNTIME_DEVICES_H

#include "nnapi-mlir/Runtime/NNAPILoader.h"

#include "Threads.h"
#include "nnapi-mlir/Support/CPUs.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nnapi_mlir::runtime {

/// One entry of the `devices` option: a device name or type, preferred, or
/// excluded with a leading '-'.
struct DeviceTerm {
  bool exclude = false;
  bool byType = false;
  int32_t type = 0; ///< ANEURALNETWORKS_DEVICE_* when byType.
  std::string name;
};

/// NNAPI's default loop timeout (2 s), the longest it allows (15 s), and
/// the longest the loop_timeout_ms option takes (a day).
constexpr uint64_t kDefaultLoopTimeoutNs = 2000000000ull;
constexpr uint64_t kMaxNNAPILoopTimeoutNs = 15000000000ull;
constexpr uint64_t kMaxLoopTimeoutMs = 86400000ull;

/// The runtime's options (Runtime.h documents each).
struct Options {
  std::vector<DeviceTerm> devices;
  std::string devicesText; ///< As given, for messages.
  std::string cacheDir;
  int32_t preference = ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER;
  int32_t priority = ANEURALNETWORKS_PRIORITY_DEFAULT;
  bool bursts = true;
  /// Give NNAPI inputs and outputs in shared blocks as memory (bind_memory).
  bool bindMemory = true;
  bool timing = false;
  unsigned threads = 0; ///< 0: the CPUs the process may run on.
  /// Use `threads` even when it is more than the CPUs the process may run
  /// on (otherwise capped there, with a message).
  bool threadsForce = false;
  /// Run parallel loops on the runtime's own workers, not pthreadpool's
  /// (thread_pool=builtin; the only choice in a build without pthreadpool).
  bool builtinPool = !havePthreadpool();
  /// How long one loop may run (loop_timeout_ms), in nanoseconds.
  uint64_t loopTimeoutNs = kDefaultLoopTimeoutNs;
  /// Compare every verifyEvery-th execution of each partition with its
  /// host copy (verify); 0: never.
  uint64_t verifyEvery = 0;
  /// Compare every execution, disable nothing, narrow mismatches down to
  /// operations (validate).
  bool validate = false;
  /// The quirks record (quirks); when not given, the cache directory's.
  std::string quirksPath;
  bool quirksGiven = false;
  /// Failed executions in a row after which a partition leaves its device
  /// (max_failures).
  uint64_t maxFailures = 3;

  /// The quirks record in force: the one given, else the cache
  /// directory's, else none ("").
  std::string quirksFile() const;
};

constexpr uint64_t kMaxVerifyEvery = 1000000000ull;
constexpr uint64_t kMaxFailuresInARow = 1000000ull;

/// The largest thread count the threads option takes.
using nnapi_mlir::kMaxThreads;

/// Checks `value` for option `name`; false with `error` if the name is
/// unknown or the value invalid. Null (the default) is valid.
bool checkOption(const char *name, const char *value, std::string &error);

/// The options in force: each one's value from `given` (set by the caller,
/// by name), else from its environment variable, else its default. A bad
/// environment value leaves that option at its default and `error` naming
/// the variable (false); the others still apply.
bool resolveOptions(const std::map<std::string, std::string> &given,
                    Options &options, std::string &error);

/// A device as the library describes it.
struct DeviceInfo {
  ANeuralNetworksDevice *handle = nullptr;
  std::string name, version;
  int32_t type = 0;
  unsigned featureLevel = 0; ///< 1..8; 0 for a code this runtime does not know.
  int64_t featureLevelCode = 0; ///< As the library said it.
};

/// True if the library has the device API (feature level 3): enumeration,
/// getSupportedOperationsForDevices and createForDevices.
bool hasDeviceAPI(const NNAPIFunctionTable &fn);

/// The library's devices (none without the device API); false with `error`
/// (the call, its result code and the library's explanation) if it failed
/// to list them.
bool enumerateDevices(const NNAPIFunctionTable &fn,
                      std::vector<DeviceInfo> &devices, std::string &error);

/// Indices of the devices that may run partitions, most preferred first.
std::vector<size_t> candidateDevices(const std::vector<DeviceInfo> &devices,
                                     const Options &options);

/// "accelerator", "gpu", "cpu", "other" or "unknown".
const char *deviceTypeName(int32_t type);

/// Name of NNAPI's CPU reference device, never a candidate unless named.
constexpr const char *kReferenceDeviceName = "nnapi-reference";

} // namespace nnapi_mlir::runtime

#endif // NNAPI_MLIR_LIB_RUNTIME_DEVICES_H
