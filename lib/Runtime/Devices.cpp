//===- Devices.cpp - Runtime options and the choice of NNAPI device -------===//

#include "Devices.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <sys/stat.h>
#include <unistd.h>

namespace nnapi_mlir::runtime {

namespace {

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

bool typeOfName(const std::string &name, int32_t &type) {
  static const struct {
    const char *name;
    int32_t type;
  } kTypes[] = {{"accelerator", ANEURALNETWORKS_DEVICE_ACCELERATOR},
                {"gpu", ANEURALNETWORKS_DEVICE_GPU},
                {"cpu", ANEURALNETWORKS_DEVICE_CPU},
                {"other", ANEURALNETWORKS_DEVICE_OTHER}};
  for (const auto &t : kTypes)
    if (name == t.name) {
      type = t.type;
      return true;
    }
  return false;
}

bool parseDevices(Options &o, const std::string &value, std::string &error) {
  std::vector<DeviceTerm> terms;
  size_t start = 0;
  while (!value.empty() && start <= value.size()) {
    size_t comma = value.find(',', start);
    std::string text = trim(value.substr(
        start, comma == std::string::npos ? std::string::npos : comma - start));
    start = comma == std::string::npos ? value.size() + 1 : comma + 1;
    DeviceTerm term;
    if (!text.empty() && text[0] == '-') {
      term.exclude = true;
      text = trim(text.substr(1));
    }
    if (text.empty()) {
      error = "empty entry in '" + value +
              "' (expected device names or types: accelerator, gpu, cpu, "
              "other; '-' before one excludes it)";
      return false;
    }
    term.byType = typeOfName(text, term.type);
    term.name = text;
    terms.push_back(term);
  }
  o.devices = std::move(terms);
  o.devicesText = value;
  return true;
}

bool parseCacheDir(Options &o, const std::string &value, std::string &error) {
  struct stat st;
  if (!value.empty() &&
      (::stat(value.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))) {
    error = "'" + value + "' is not a directory";
    return false;
  }
  if (!value.empty() && ::access(value.c_str(), W_OK | X_OK) != 0) {
    error = "'" + value + "' is not writable";
    return false;
  }
  o.cacheDir = value;
  return true;
}

bool parsePreference(Options &o, const std::string &value,
                     std::string &error) {
  if (value == "fast-single-answer")
    o.preference = ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER;
  else if (value == "sustained-speed")
    o.preference = ANEURALNETWORKS_PREFER_SUSTAINED_SPEED;
  else if (value == "low-power")
    o.preference = ANEURALNETWORKS_PREFER_LOW_POWER;
  else {
    error = "'" + value +
            "' is not one of fast-single-answer, sustained-speed, low-power";
    return false;
  }
  return true;
}

bool parsePriority(Options &o, const std::string &value, std::string &error) {
  if (value == "low")
    o.priority = ANEURALNETWORKS_PRIORITY_LOW;
  else if (value == "medium")
    o.priority = ANEURALNETWORKS_PRIORITY_MEDIUM;
  else if (value == "high")
    o.priority = ANEURALNETWORKS_PRIORITY_HIGH;
  else {
    error = "'" + value + "' is not one of low, medium, high";
    return false;
  }
  return true;
}

bool parseFlag(bool &flag, const std::string &value, std::string &error) {
  if (value == "1" || value == "on" || value == "true")
    flag = true;
  else if (value == "0" || value == "off" || value == "false")
    flag = false;
  else {
    error = "'" + value + "' is not 1/on/true or 0/off/false";
    return false;
  }
  return true;
}

struct OptionSpec {
  const char *name;
  const char *env;
  const char *defaultValue;
  bool (*parse)(Options &, const std::string &, std::string &);
};

const OptionSpec kOptions[] = {
    {"devices", "NNAPI_MLIR_DEVICES", "", parseDevices},
    {"cache_dir", "NNAPI_MLIR_CACHE_DIR", "", parseCacheDir},
    {"preference", "NNAPI_MLIR_PREFERENCE", "fast-single-answer",
     parsePreference},
    {"priority", "NNAPI_MLIR_PRIORITY", "medium", parsePriority},
    {"bursts", "NNAPI_MLIR_BURSTS", "1",
     [](Options &o, const std::string &v, std::string &e) {
       return parseFlag(o.bursts, v, e);
     }},
    {"timing", "NNAPI_MLIR_TIMING", "0",
     [](Options &o, const std::string &v, std::string &e) {
       return parseFlag(o.timing, v, e);
     }},
};

const OptionSpec *findOption(const char *name) {
  for (const OptionSpec &o : kOptions)
    if (name && std::strcmp(name, o.name) == 0)
      return &o;
  return nullptr;
}

/// Feature level 1..8 of ANeuralNetworksDevice_getFeatureLevel's value.
unsigned levelOfCode(int64_t code) {
  if (code >= ANEURALNETWORKS_FEATURE_LEVEL_1 &&
      code <= ANEURALNETWORKS_FEATURE_LEVEL_5)
    return unsigned(code - ANEURALNETWORKS_FEATURE_LEVEL_1 + 1);
  if (code >= ANEURALNETWORKS_FEATURE_LEVEL_6 && code < 2000000)
    return unsigned(std::min<int64_t>(code - 1000000, 8));
  return 0;
}

/// Rank in the default order: accelerators, GPUs, others, CPUs.
int typeRank(int32_t type) {
  switch (type) {
  case ANEURALNETWORKS_DEVICE_ACCELERATOR:
    return 0;
  case ANEURALNETWORKS_DEVICE_GPU:
    return 1;
  case ANEURALNETWORKS_DEVICE_CPU:
    return 3;
  default:
    return 2;
  }
}

bool matches(const DeviceTerm &term, const DeviceInfo &d) {
  if (term.byType)
    return d.type == term.type && d.name != kReferenceDeviceName;
  return d.name == term.name;
}

} // namespace

bool isOption(const char *name) { return findOption(name) != nullptr; }

bool setOption(Options &options, const char *name, const char *value,
               std::string &error) {
  const OptionSpec *spec = findOption(name);
  if (!spec) {
    error = std::string("unknown runtime option '") + (name ? name : "") +
            "' (devices, cache_dir, preference, priority, bursts, timing)";
    return false;
  }
  Options changed = options;
  if (!spec->parse(changed, value ? value : spec->defaultValue, error)) {
    error = std::string("runtime option ") + spec->name + ": " + error;
    return false;
  }
  options = std::move(changed);
  return true;
}

bool applyEnvironment(Options &options,
                      const std::vector<std::string> &setByCaller,
                      std::string &error) {
  for (const OptionSpec &spec : kOptions) {
    if (std::find(setByCaller.begin(), setByCaller.end(), spec.name) !=
        setByCaller.end())
      continue;
    const char *value = std::getenv(spec.env);
    if (!value || !*value)
      continue;
    if (!spec.parse(options, value, error)) {
      error = std::string(spec.env) + ": " + error;
      return false;
    }
  }
  return true;
}

bool hasDeviceAPI(const NNAPIFunctionTable &fn) {
  return fn.ANeuralNetworks_getDeviceCount && fn.ANeuralNetworks_getDevice &&
         fn.ANeuralNetworksDevice_getName && fn.ANeuralNetworksDevice_getType &&
         fn.ANeuralNetworksDevice_getVersion &&
         fn.ANeuralNetworksDevice_getFeatureLevel &&
         fn.ANeuralNetworksModel_getSupportedOperationsForDevices &&
         fn.ANeuralNetworksCompilation_createForDevices;
}

bool enumerateDevices(const NNAPIFunctionTable &fn,
                      std::vector<DeviceInfo> &devices, std::string &error) {
  devices.clear();
  if (!hasDeviceAPI(fn))
    return true;
  uint32_t count = 0;
  if (int rc = fn.ANeuralNetworks_getDeviceCount(&count)) {
    error = "ANeuralNetworks_getDeviceCount failed with code " +
            std::to_string(rc);
    return false;
  }
  for (uint32_t i = 0; i < count; ++i) {
    DeviceInfo d;
    const char *name = nullptr, *version = nullptr;
    int64_t level = 0;
    int rc = fn.ANeuralNetworks_getDevice(i, &d.handle);
    if (!rc)
      rc = fn.ANeuralNetworksDevice_getName(d.handle, &name);
    if (!rc)
      rc = fn.ANeuralNetworksDevice_getType(d.handle, &d.type);
    if (!rc)
      rc = fn.ANeuralNetworksDevice_getVersion(d.handle, &version);
    if (!rc)
      rc = fn.ANeuralNetworksDevice_getFeatureLevel(d.handle, &level);
    if (rc) {
      error = "describing NNAPI device " + std::to_string(i) +
              " failed with code " + std::to_string(rc);
      return false;
    }
    d.name = name ? name : "";
    d.version = version ? version : "";
    d.featureLevel = levelOfCode(level);
    devices.push_back(std::move(d));
  }
  return true;
}

std::vector<size_t> candidateDevices(const std::vector<DeviceInfo> &devices,
                                     const Options &options) {
  auto excluded = [&](const DeviceInfo &d) {
    return std::any_of(options.devices.begin(), options.devices.end(),
                       [&](const DeviceTerm &t) {
                         return t.exclude && matches(t, d);
                       });
  };
  std::vector<size_t> order;
  bool anyInclude =
      std::any_of(options.devices.begin(), options.devices.end(),
                  [](const DeviceTerm &t) { return !t.exclude; });
  if (anyInclude) {
    for (const DeviceTerm &t : options.devices) {
      if (t.exclude)
        continue;
      for (size_t i = 0; i < devices.size(); ++i)
        if (matches(t, devices[i]) && !excluded(devices[i]) &&
            std::find(order.begin(), order.end(), i) == order.end())
          order.push_back(i);
    }
    return order;
  }
  for (size_t i = 0; i < devices.size(); ++i)
    if (devices[i].name != kReferenceDeviceName && !excluded(devices[i]))
      order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return typeRank(devices[a].type) < typeRank(devices[b].type);
  });
  return order;
}

const char *deviceTypeName(int32_t type) {
  switch (type) {
  case ANEURALNETWORKS_DEVICE_ACCELERATOR:
    return "accelerator";
  case ANEURALNETWORKS_DEVICE_GPU:
    return "gpu";
  case ANEURALNETWORKS_DEVICE_CPU:
    return "cpu";
  case ANEURALNETWORKS_DEVICE_OTHER:
    return "other";
  default:
    return "unknown";
  }
}

} // namespace nnapi_mlir::runtime
