//===- Devices.h - The devices the host NNAPI library enumerates ----------===//
//
// libnnapi_host.so stands in for a phone's NNAPI, which enumerates several
// devices (an NPU, a GPU, NNAPI's CPU reference device). Each device here is
// made from a device profile (name, type, feature level, the operations and
// data types it runs) or is one of two built-ins:
//   host       "nnapi-mlir-host", CPU, level 7: runs every operation, on
//              XNNPACK where it can (the default when nothing is set)
//   reference  "nnapi-reference", CPU, level 7: NNAPI's slow CPU reference
//              path, played by the reference kernels
// The list comes from NNAPIMLIRHost_setDevices(), else $NNAPI_MLIR_HOST_DEVICES
// (comma-separated: profile paths, "host", "reference"), else
// $NNAPI_MLIR_HOST_PROFILE (one profile), read on first use. All devices run
// on this CPU; what differs is what they accept, their names and levels, and
// their counters (NNAPIMLIRHost_getDeviceCounters), so that device selection,
// caching, bursts and fallback are testable without the hardware.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_HOSTDEVICE_DEVICES_H
#define NNAPI_MLIR_LIB_HOSTDEVICE_DEVICES_H

#include "HostModel.h"

#include "nnapi-mlir/NNAPI/DeviceProfile.h"
#include "nnapi-mlir/HostDevice/HostExtensions.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

struct ANeuralNetworksDevice {
  std::string name;
  std::string version;
  int32_t type = ANEURALNETWORKS_DEVICE_CPU;
  unsigned featureLevel = 7;
  /// What it runs; null: every operation the host implementation validates.
  std::unique_ptr<nnapi_mlir::profile::DeviceProfile> profile;
  /// Runs the reference kernels whatever $NNAPI_MLIR_HOST_KERNELS says.
  bool reference = false;
  struct Counters {
    std::atomic<uint64_t> compilations{0}, cacheEntriesFound{0},
        cacheEntriesMissing{0}, cacheEntriesRejected{0}, cacheEntriesWritten{0},
        executions{0}, burstExecutions{0}, timedExecutions{0},
        pointerArgumentBytes{0}, memoryArgumentBytes{0};
  } counters;
};

namespace nnapi_mlir::host {

/// The devices in enumeration order, loading the environment's list on first
/// use. `error` is set (and the list empty) when that list could not be
/// loaded; every model then fails with it.
struct DeviceList {
  std::vector<ANeuralNetworksDevice *> devices;
  std::string error;
};
DeviceList currentDevices();

/// Replaces the list with the one `spec` describes (null or "": the host
/// device alone). Devices of the old list stay valid for the compilations
/// that use them. Returns an error code with fail() called if an entry cannot
/// be loaded; the list is then unchanged.
int setDevices(const char *spec);

/// `device` if this library made it (in any list, current or replaced),
/// else null.
ANeuralNetworksDevice *knownDevice(const ANeuralNetworksDevice *device);

/// Why `device` would not run operation `index` of `model` (validated), or
/// "" if it would: its feature level is below the one this use of the
/// operation needs, or its profile lacks the operation. Float32 operations
/// of a model relaxed to float16 run on a device that supports float16.
std::string deviceRejection(const ANeuralNetworksDevice &device,
                            const HostModel &model, size_t index);

} // namespace nnapi_mlir::host

#endif // NNAPI_MLIR_LIB_HOSTDEVICE_DEVICES_H
