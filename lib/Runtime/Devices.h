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

#include <cstdint>
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

/// The runtime's options (Runtime.h documents each).
struct Options {
  std::vector<DeviceTerm> devices;
  std::string devicesText; ///< As given, for messages.
  std::string cacheDir;
  int32_t preference = ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER;
  int32_t priority = ANEURALNETWORKS_PRIORITY_DEFAULT;
  bool bursts = true;
  bool timing = false;
};

/// Parses `value` into option `name`; false with `error` set if the name is
/// unknown or the value invalid. A null value restores the default.
bool setOption(Options &options, const char *name, const char *value,
               std::string &error);
/// Applies the environment variables of the options not in `setByCaller`
/// (names); false with `error` naming the variable on an invalid value.
bool applyEnvironment(Options &options,
                      const std::vector<std::string> &setByCaller,
                      std::string &error);
/// True if `name` is an option.
bool isOption(const char *name);

/// A device as the library describes it.
struct DeviceInfo {
  ANeuralNetworksDevice *handle = nullptr;
  std::string name, version;
  int32_t type = 0;
  unsigned featureLevel = 0; ///< 1..8; 0 if the library said something else.
};

/// True if the library has the device API (feature level 3): enumeration,
/// getSupportedOperationsForDevices and createForDevices.
bool hasDeviceAPI(const NNAPIFunctionTable &fn);

/// The library's devices (none without the device API); false with `error`
/// if it failed to list them.
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
