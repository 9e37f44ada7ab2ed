//===- Devices.cpp - The devices the host NNAPI library enumerates --------===//

#include "Devices.h"

#include "nnapi-mlir/Support/CommaList.h"

#include <cstdlib>
#include <mutex>

namespace nnapi_mlir::host {

namespace {

struct Registry {
  std::mutex mutex;
  bool initialized = false;
  DeviceList current;
  /// Every device ever made: compilations keep pointers to theirs, so a
  /// device outlives its list.
  std::vector<std::unique_ptr<ANeuralNetworksDevice>> all;
};

Registry &registry() {
  static Registry *r = new Registry(); // outlives static destructors
  return *r;
}

constexpr const char *kHostVersion =
    "nnapi-mlir-host-2 (XNNPACK and reference kernels)";

std::unique_ptr<ANeuralNetworksDevice> hostDevice() {
  auto d = std::make_unique<ANeuralNetworksDevice>();
  d->name = "nnapi-mlir-host";
  d->version = kHostVersion;
  return d;
}

/// Makes the devices of `spec`, or returns false with `error` set.
bool parseSpec(const std::string &spec,
               std::vector<std::unique_ptr<ANeuralNetworksDevice>> &out,
               std::string &error) {
  std::vector<std::string> entries;
  if (!splitCommaList(spec, entries)) {
    error = "empty entry in the device list '" + spec + "'";
    return false;
  }
  for (const std::string &entry : entries) {
    std::unique_ptr<ANeuralNetworksDevice> d;
    if (entry == "host") {
      d = hostDevice();
    } else if (entry == "reference") {
      d = std::make_unique<ANeuralNetworksDevice>();
      d->name = "nnapi-reference";
      d->version = "nnapi-mlir-host-2 reference kernels";
      d->reference = true;
    } else {
      d = std::make_unique<ANeuralNetworksDevice>();
      d->profile = std::make_unique<profile::DeviceProfile>();
      if (!profile::loadDeviceProfile(entry, *d->profile, error))
        return false;
      d->name = d->profile->name;
      d->type = d->profile->deviceType;
      d->featureLevel = d->profile->featureLevel;
      d->version = kHostVersion;
    }
    for (const auto &other : out)
      if (other->name == d->name) {
        error = "two devices named '" + d->name + "' in '" + spec + "'";
        return false;
      }
    out.push_back(std::move(d));
  }
  return true;
}

/// Installs the devices of `spec`. Caller holds the registry's mutex.
bool install(Registry &r, const std::string &spec, std::string &error) {
  std::vector<std::unique_ptr<ANeuralNetworksDevice>> made;
  if (spec.empty())
    made.push_back(hostDevice());
  else if (!parseSpec(spec, made, error))
    return false;
  r.current = DeviceList();
  for (auto &d : made) {
    r.current.devices.push_back(d.get());
    r.all.push_back(std::move(d));
  }
  return true;
}

} // namespace

DeviceList currentDevices() {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (!r.initialized) {
    r.initialized = true;
    const char *list = std::getenv("NNAPI_MLIR_HOST_DEVICES");
    const char *profile = std::getenv("NNAPI_MLIR_HOST_PROFILE");
    const char *var = list && *list ? "NNAPI_MLIR_HOST_DEVICES"
                                    : "NNAPI_MLIR_HOST_PROFILE";
    std::string spec = list && *list ? list : profile ? profile : "";
    std::string error;
    if (!install(r, spec, error)) {
      r.current = DeviceList();
      r.current.error = std::string(var) + ": " + error;
    }
  }
  return r.current;
}

int setDevices(const char *spec) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::string error;
  if (!install(r, spec ? spec : "", error))
    return fail(ANEURALNETWORKS_BAD_DATA, error);
  r.initialized = true;
  return ANEURALNETWORKS_NO_ERROR;
}

ANeuralNetworksDevice *knownDevice(const ANeuralNetworksDevice *device) {
  Registry &r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const auto &d : r.all)
    if (d.get() == device)
      return d.get();
  return nullptr;
}

std::string deviceRejection(const ANeuralNetworksDevice &device,
                            const HostModel &m, size_t index) {
  using namespace nnapi_mlir::profile;
  const Operation &op = m.operations[index];
  const char *name = operationName(op.opcode);
  std::string opName =
      name ? name : "operation code " + std::to_string(op.opcode);
  // The level this use of the operation needs, by the NNAPI spec: the
  // operation's, its data type's, its operands' (ranks, optional groups).
  const spec::Match &use = m.layouts[index];
  if (use.level > device.featureLevel)
    return "device '" + device.name + "' (feature level " +
           std::to_string(device.featureLevel) + ") cannot run " + opName +
           ": needs feature level " + std::to_string(use.level) + " (" +
           use.why + ")";
  // IF and WHILE run where every operation of their models runs.
  for (uint32_t idx : op.inputs)
    if (const HostModel *part = m.operands[idx].model)
      for (size_t k = 0; k < part->operations.size(); ++k) {
        std::string inner = deviceRejection(device, *part, k);
        if (!inner.empty())
          return "in a model " + opName + " references: " + inner;
      }
  const DeviceProfile *p = device.profile.get();
  if (!p)
    return "";
  DataType dataType = profile::dataTypeOfOperandCode(use.dataType);
  bool ok = p->supports(op.opcode, dataType) ||
            (dataType == DataType::Float32 && m.relaxed &&
             p->supports(op.opcode, DataType::Float16));
  if (ok)
    return "";
  return "device '" + p->name + "' does not support " + opName + " on " +
         dataTypeName(dataType) +
         (dataType == DataType::Float32 && !m.relaxed &&
                  p->supports(op.opcode, DataType::Float16)
              ? " (it would with float32 relaxed to float16)"
              : "");
}

} // namespace nnapi_mlir::host
