//===- Devices.cpp - Runtime options and the choice of NNAPI device -------===//

#include "Devices.h"
#include "State.h"
#include "nnapi-mlir/Support/Sha256.h"
#include "nnapi-mlir/NNAPI/Quirks.h"
#include "Internal.h"
#include "Threads.h"

#include "nnapi-mlir/Support/CommaList.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <sys/stat.h>

namespace nnapi_mlir::runtime {

namespace {

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
  std::vector<std::string> entries;
  std::vector<DeviceTerm> terms;
  bool ok = splitCommaList(value, entries);
  for (std::string &text : entries) {
    DeviceTerm term;
    if (text[0] == '-') {
      term.exclude = true;
      size_t name = text.find_first_not_of(" \t", 1);
      text = name == std::string::npos ? "" : text.substr(name);
    }
    ok &= !text.empty();
    term.byType = typeOfName(text, term.type);
    term.name = text;
    terms.push_back(term);
  }
  if (!ok) {
    error = "empty entry in '" + value +
            "' (expected device names or types: accelerator, gpu, cpu, "
            "other; '-' before one excludes it)";
    return false;
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

bool parseThreads(Options &o, const std::string &value, std::string &error) {
  if (value.empty()) {
    o.threads = 0;
    return true;
  }
  char *end = nullptr;
  errno = 0;
  long n = std::strtol(value.c_str(), &end, 10);
  if (*end != '\0' || errno || n < 1 || n > long(kMaxThreads)) {
    error = "'" + value + "' is not a thread count from 1 to " +
            std::to_string(kMaxThreads);
    return false;
  }
  o.threads = unsigned(n);
  return true;
}

bool parseThreadPool(Options &o, const std::string &value,
                     std::string &error) {
  if (value.empty() || value == "builtin" ||
      (value == "pthreadpool" && runtime::havePthreadpool())) {
    // Empty: the default, pthreadpool's where the runtime has it.
    o.builtinPool = value == "builtin" || !runtime::havePthreadpool();
    return true;
  }
  error = value == "pthreadpool"
              ? "this runtime was built without pthreadpool; 'builtin' is "
                "its pool"
              : "'" + value + "' is not pthreadpool or builtin";
  return false;
}

bool parseLoopTimeout(Options &o, const std::string &value,
                      std::string &error) {
  char *end = nullptr;
  errno = 0;
  unsigned long long ms = std::strtoull(value.c_str(), &end, 10);
  if (value.empty() || value[0] == '-' || *end != '\0' || errno || ms < 1 ||
      ms > kMaxLoopTimeoutMs) {
    error = "'" + value + "' is not a loop timeout from 1 to " +
            std::to_string(kMaxLoopTimeoutMs) + " ms";
    return false;
  }
  o.loopTimeoutNs = uint64_t(ms) * 1000000ull;
  return true;
}

/// A count from `lo` to `hi` into `out`.
bool parseCountIn(uint64_t &out, const std::string &value, uint64_t lo,
                  uint64_t hi, const char *what, std::string &error) {
  char *end = nullptr;
  errno = 0;
  unsigned long long n = std::strtoull(value.c_str(), &end, 10);
  if (value.empty() || value[0] == '-' || *end != '\0' || errno || n < lo ||
      n > hi) {
    error = "'" + value + "' is not " + what + " from " + std::to_string(lo) +
            " to " + std::to_string(hi);
    return false;
  }
  out = n;
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
    {"bind_memory", "NNAPI_MLIR_BIND_MEMORY", "1",
     [](Options &o, const std::string &v, std::string &e) {
       return parseFlag(o.bindMemory, v, e);
     }},
    {"timing", "NNAPI_MLIR_TIMING", "0",
     [](Options &o, const std::string &v, std::string &e) {
       return parseFlag(o.timing, v, e);
     }},
    {"threads", "NNAPI_MLIR_THREADS", "", parseThreads},
    {"threads_force", "NNAPI_MLIR_THREADS_FORCE", "0",
     [](Options &o, const std::string &v, std::string &e) {
       return parseFlag(o.threadsForce, v, e);
     }},
    {"thread_pool", "NNAPI_MLIR_THREAD_POOL", "", parseThreadPool},
    {"loop_timeout_ms", "NNAPI_MLIR_LOOP_TIMEOUT_MS", "2000",
     parseLoopTimeout},
    {"verify", "NNAPI_MLIR_VERIFY", "0",
     [](Options &o, const std::string &v, std::string &e) {
       return parseCountIn(o.verifyEvery, v, 0, kMaxVerifyEvery,
                           "an execution count", e);
     }},
    {"validate", "NNAPI_MLIR_VALIDATE", "0",
     [](Options &o, const std::string &v, std::string &e) {
       return parseFlag(o.validate, v, e);
     }},
    {"quirks", "NNAPI_MLIR_QUIRKS", "",
     [](Options &o, const std::string &v, std::string &) {
       o.quirksPath = v;
       o.quirksGiven = true;
       return true;
     }},
    {"max_failures", "NNAPI_MLIR_MAX_FAILURES", "3",
     [](Options &o, const std::string &v, std::string &e) {
       return parseCountIn(o.maxFailures, v, 1, kMaxFailuresInARow,
                           "a failure count", e);
     }},
};

const OptionSpec *findOption(const char *name) {
  for (const OptionSpec &o : kOptions)
    if (name && std::strcmp(name, o.name) == 0)
      return &o;
  return nullptr;
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

bool checkOption(const char *name, const char *value, std::string &error) {
  const OptionSpec *spec = findOption(name);
  if (!spec) {
    error = std::string("unknown runtime option '") + (name ? name : "") +
            "' (";
    for (const OptionSpec &o : kOptions)
      error += std::string(&o == kOptions ? "" : ", ") + o.name;
    error += ")";
    return false;
  }
  Options scratch;
  if (value && !spec->parse(scratch, value, error)) {
    error = std::string("runtime option ") + spec->name + ": " + error;
    return false;
  }
  return true;
}

bool resolveOptions(const std::map<std::string, std::string> &given,
                    Options &options, std::string &error) {
  options = Options();
  error.clear();
  for (const OptionSpec &spec : kOptions) {
    auto it = given.find(spec.name);
    if (it != given.end()) {
      std::string ignored; // checked by checkOption when it was set
      spec.parse(options, it->second, ignored);
      continue;
    }
    const char *value = std::getenv(spec.env);
    std::string why;
    if (value && *value && !spec.parse(options, value, why) && error.empty())
      error = std::string(spec.env) + ": " + why;
  }
  return error.empty();
}

std::string Options::quirksFile() const {
  if (quirksGiven)
    return quirksPath;
  if (cacheDir.empty())
    return "";
  return cacheDir + "/" + quirks::kDefaultFileName;
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
    error = describeCall(fn, "ANeuralNetworks_getDeviceCount", rc);
    return false;
  }
  for (uint32_t i = 0; i < count; ++i) {
    DeviceInfo d;
    const char *name = nullptr, *version = nullptr;
    int64_t level = 0;
    const char *call = "ANeuralNetworks_getDevice";
    int rc = fn.ANeuralNetworks_getDevice(i, &d.handle);
    if (!rc && (call = "ANeuralNetworksDevice_getName"))
      rc = fn.ANeuralNetworksDevice_getName(d.handle, &name);
    if (!rc && (call = "ANeuralNetworksDevice_getType"))
      rc = fn.ANeuralNetworksDevice_getType(d.handle, &d.type);
    if (!rc && (call = "ANeuralNetworksDevice_getVersion"))
      rc = fn.ANeuralNetworksDevice_getVersion(d.handle, &version);
    if (!rc && (call = "ANeuralNetworksDevice_getFeatureLevel"))
      rc = fn.ANeuralNetworksDevice_getFeatureLevel(d.handle, &level);
    if (rc) {
      error = "describing NNAPI device " + std::to_string(i) + ": " +
              describeCall(fn, call, rc);
      return false;
    }
    d.name = name ? name : "";
    d.version = version ? version : "";
    d.featureLevelCode = level;
    d.featureLevel = nnapi_mlir_feature_level_of_code(level);
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


//===----------------------------------------------------------------------===//
// Compiling a partition for a device
//===----------------------------------------------------------------------===//

namespace {

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
    h.update(p.shape); // a dynamic partition's specialization
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

} // namespace

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
  p.bindMemory = o.bindMemory;
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

} // namespace nnapi_mlir::runtime
