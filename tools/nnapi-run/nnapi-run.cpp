//===- nnapi-run.cpp - Load a compiled model, feed it, compare, time ------===//
//
// Usage: nnapi-run MODEL.so|MODEL.onnx|MODEL.tflite|MODEL.mlir [options]
//   (an .onnx, .tflite or .mlir model is first compiled with the nnapi-compile next to
//    this program, into a temporary directory)
//   --compile-arg ARG     pass ARG to that nnapi-compile (repeatable)
//   --test-data DIR       ONNX test directory: inputs from input_<i>.pb,
//                         outputs compared with output_<i>.pb (floats
//                         within rtol 1e-3, atol 1e-5 unless --rtol/--atol;
//                         integers and booleans exactly); exit 0 only if
//                         every output matches; an .onnx model with
//                         symbolic dimensions is compiled for the inputs'
//                         shapes (--input-shape NAME=DIMS from each named
//                         input_<i>.pb), and inputs that decide shapes for
//                         their values (--specialize-value NAME=FILE.pb)
//   --input FILE          .npy input, repeatable, in argument order
//   --seed N              generate inputs uniformly in [-1, 1) from seed N
//                         (for inputs not given with --input; default 0)
//   --output-dir DIR      write output<i>.npy files into DIR
//   --host-only           run every partition's host copy (no NNAPI)
//   --compare-host        run with NNAPI, then host-only; print the errors
//   --rtol X --atol Y     tolerance of --compare-host (|a-b| <= atol+rtol*|b|)
//   --compare-float64     (.onnx) also compile a float64 copy of the model
//                         (nnapi-compile --float64, host code, exact) and
//                         print, per float output, how far our outputs and
//                         --test-data's expected ones are from it
//   --normwise            compare outputs (--compare-host, --test-data)
//                         relative to each output's largest magnitude:
//                         |a-b| <= atol + rtol * max|b| (deep float
//                         networks; element-wise is the default)
//   --expect-nnapi        fail unless every partition execution ran on NNAPI
//   --nnapi-library PATH  NNAPI library to dlopen instead of the default
//   --device-profile PATH make the host NNAPI implementation impersonate the
//                         device of this profile (NNAPI_MLIR_HOST_PROFILE)
//   --host-devices LIST   the devices the host NNAPI implementation
//                         enumerates: comma-separated profile paths, "host",
//                         "reference" (NNAPI_MLIR_HOST_DEVICES)
//   --device SPEC         devices that may run partitions, most preferred
//                         first (the runtime's devices option: names or
//                         types, "-" excludes; Runtime.h)
//   --cache-dir DIR       compilation cache directory (cache_dir option)
//   --preference P        fast-single-answer, sustained-speed, low-power
//   --priority P          low, medium, high
//   --no-bursts           compute without bursts (bursts option)
//   --threads N           threads of the runtime's pool, 1 to 256 (threads
//                         option; default: the CPUs this process may use;
//                         more are capped there with a message); prints how
//                         many parallel loops ran on several threads
//   --threads-force       use --threads N even above the CPUs available
//   --thread-pool P       pthreadpool or builtin: whose workers the pool is
//   --bind-memory 0|1     give NNAPI large buffers as memory (bind_memory
//                         option; default 1); prints the bytes given each way
//   --loop-timeout-ms MS  how long one loop may run, on NNAPI and in the
//                         host code (loop_timeout_ms option; default 2000)
//   --profile             ask drivers for execution durations; prints them
//                         per partition at the end
//   --validate[=N]        for every device that may run partitions, run
//                         the model on it on the inputs and N more seeded
//                         random sets (default 2), compare every
//                         partition with its host copy, and name the
//                         operations a device computes wrong (validate
//                         option); prints one line per partition and
//                         device, records what is wrong in the quirks
//                         record, exits 1 if anything is
//   --validation-out FILE write --validate's results as JSON (for
//                         nnapi-compile --validation: the placement report)
//   --verify K            compare every K-th execution of each partition
//                         with its host copy (verify option)
//   --quirks PATH         the quirks record (quirks option)
//   --max-failures M      failed executions in a row after which a
//                         partition leaves its device (max_failures option)
//   --host-lie SPEC       make the host NNAPI implementation compute an
//                         operation wrong: DEVICE:OPERATION:MODE[,...],
//                         MODE offset[=N], sign, nan or stale
//                         (NNAPI_MLIR_HOST_LIE; tests)
//   --list-devices        print the NNAPI library's devices and exit
//   --bench N             N timed runs after one warm-up; prints median_ms=
//                         and min_ms=
//
// After the first run, one line per partition says which device ran it, or
// why it ran its host copy.
//
// This file parses the options and runs the steps; a source model is
// compiled by Compile.cpp, the inputs and expected outputs are gathered by
// Inputs.cpp (both declared in Steps.h), and outputs are checked by
// Checks.cpp.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"
#include "Steps.h"
#include "Tensors.h"
#include "TensorProto.h"
#include "nnapi-mlir/NNAPI/DeviceProfile.h"
#include "nnapi-mlir/Runtime/Model.h"
#include "nnapi-mlir/Runtime/Runtime.h"
#include "nnapi-mlir/Support/CommaList.h"
#include "nnapi-mlir/Support/ParseCount.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <sys/stat.h>

using namespace nnapi_mlir;
using namespace nnapi_run;

namespace {

bool parseTolerance(const std::string &text, double &out) {
  char *end = nullptr;
  errno = 0;
  out = std::strtod(text.c_str(), &end);
  return !text.empty() && errno == 0 && *end == '\0' && out >= 0 &&
         std::isfinite(out);
}

/// --help.
void printUsage() {
  std::printf("usage: nnapi-run MODEL.so [--input FILE]... [--seed N] "
              "[--output-dir DIR] [--host-only] [--compare-host] "
              "[--rtol X] [--atol Y] [--normwise] [--compare-float64] [--expect-nnapi] "
              "[--nnapi-library PATH] [--device-profile PATH] "
              "[--host-devices LIST] [--device SPEC] [--cache-dir DIR] "
              "[--preference P] [--priority P] [--no-bursts] [--threads N] [--threads-force] [--thread-pool P] [--bind-memory 0|1] [--loop-timeout-ms MS] "
              "[--profile] [--validate[=N]] [--validation-out FILE] [--verify K] [--quirks PATH] "
              "[--max-failures M] [--host-lie SPEC] "
              "[--list-devices] [--test-data DIR] [--compile-arg ARG]... "
              "[--bench N]\n");
}

/// --device-profile PATH, for the host device. 0, or the exit status.
int useDeviceProfile(const std::string &v) {
  // Read it here as nnapi-compile does: a profile the host device could
  // not load would silently leave every partition to the host.
  profile::DeviceProfile parsed;
  std::string why;
  if (!profile::loadDeviceProfile(v, parsed, why))
    return usageError("--device-profile: " + why);
  setenv("NNAPI_MLIR_HOST_PROFILE", v.c_str(), 1);
  return 0;
}

/// --host-devices LIST, for the host device. 0, or the exit status.
int useHostDevices(const std::string &v) {
  // Profiles are read here too, for the same reason as --device-profile.
  std::vector<std::string> entries;
  if (!splitCommaList(v, entries) || entries.empty())
    return usageError("--host-devices: empty entry in '" + v + "'");
  for (const std::string &entry : entries) {
    profile::DeviceProfile parsed;
    std::string why;
    if (entry != "host" && entry != "reference" &&
        !profile::loadDeviceProfile(entry, parsed, why))
      return usageError("--host-devices: " + why);
  }
  setenv("NNAPI_MLIR_HOST_DEVICES", v.c_str(), 1);
  return 0;
}

/// The command line into `o`; the exit status when nnapi-run stops there
/// (--help, or an error), nothing to go on.
std::optional<int> parseArguments(int argc, char **argv, RunOptions &o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&](std::string &out) {
      if (i + 1 >= argc)
        return false;
      out = argv[++i];
      return true;
    };
    std::string v;
    if (a == "--input" && value(v))
      o.inputFiles.push_back(v);
    else if (a == "--output-dir" && value(v))
      o.outputDir = v;
    else if (a == "--seed" && value(v)) {
      if (!parseCount(v, o.seed))
        return usageError("--seed needs a non-negative integer, got '" + v +
                          "'");
    } else if (a == "--nnapi-library" && value(v))
      o.library = v;
    else if (a == "--device-profile" && value(v)) {
      if (int status = useDeviceProfile(v))
        return status;
    } else if ((a == "--rtol" || a == "--atol") && value(v)) {
      if (!parseTolerance(v, a == "--rtol" ? o.tolerance.rtol
                                            : o.tolerance.atol))
        return usageError(a + " needs a non-negative number, got '" + v + "'");
      o.toleranceGiven = true;
    } else if (a == "--test-data" && value(v))
      o.testData = v;
    else if (a == "--compile-arg" && value(v))
      o.compileArgs.push_back(v);
    else if (a == "--bench" && value(v)) {
      uint64_t n = 0;
      if (!parseCount(v, n) || n == 0 || n > 1000000)
        return usageError("--bench needs a count from 1 to 1000000, got '" + v +
                          "'");
      o.bench = int(n);
    } else if (a == "--host-devices" && value(v)) {
      if (int status = useHostDevices(v))
        return status;
    } else if (a == "--device" && value(v))
      o.runtimeOptions.emplace_back("devices", v);
    else if (a == "--cache-dir" && value(v))
      o.runtimeOptions.emplace_back("cache_dir", v);
    else if (a == "--preference" && value(v))
      o.runtimeOptions.emplace_back("preference", v);
    else if (a == "--priority" && value(v))
      o.runtimeOptions.emplace_back("priority", v);
    else if (a == "--no-bursts")
      o.runtimeOptions.emplace_back("bursts", "0");
    else if (a == "--threads" && value(v))
      o.runtimeOptions.emplace_back("threads", v);
    else if (a == "--threads-force")
      o.runtimeOptions.emplace_back("threads_force", "1");
    else if (a == "--thread-pool" && value(v))
      o.runtimeOptions.emplace_back("thread_pool", v);
    else if (a == "--bind-memory" && value(v))
      o.runtimeOptions.emplace_back("bind_memory", v);
    else if (a == "--loop-timeout-ms" && value(v))
      o.runtimeOptions.emplace_back("loop_timeout_ms", v);
    else if (a == "--verify" && value(v))
      o.runtimeOptions.emplace_back("verify", v);
    else if (a == "--quirks" && value(v))
      o.runtimeOptions.emplace_back("quirks", v);
    else if (a == "--max-failures" && value(v))
      o.runtimeOptions.emplace_back("max_failures", v);
    else if (a == "--validation-out" && value(v))
      o.validationOut = v;
    else if (a == "--host-lie" && value(v))
      setenv("NNAPI_MLIR_HOST_LIE", v.c_str(), 1);
    else if (a == "--validate" || a.rfind("--validate=", 0) == 0) {
      uint64_t n = 2;
      if (a.size() > 10 && (!parseCount(a.substr(11), n) || n > 1000))
        return usageError("--validate=N needs a count from 0 to 1000, got '" +
                          a.substr(11) + "'");
      o.validateSets = int(n);
    }
    else if (a == "--profile") {
      o.runtimeOptions.emplace_back("timing", "1");
      o.profileRuns = true;
    } else if (a == "--list-devices")
      o.listDevices = true;
    else if (a == "--host-only")
      o.hostOnly = true;
    else if (a == "--compare-host")
      o.compareHost = true;
    else if (a == "--normwise")
      o.tolerance.normwise = true;
    else if (a == "--compare-float64")
      o.compareFloat64 = true;
    else if (a == "--expect-nnapi")
      o.expectNNAPI = true;
    else if (a == "-h" || a == "--help") {
      printUsage();
      return 0;
    } else if (!a.empty() && a[0] != '-' && o.modelPath.empty())
      o.modelPath = a;
    else
      return usageError("unknown or incomplete argument '" + a + "'");
  }
  return std::nullopt;
}

} // namespace

/// This process's peak resident set (VmHWM), in MiB, or -1 if unknown.
/// (getrusage's ru_maxrss would also count the parent's pages that a fork
/// shared before exec.)
static double peakResidentMiB() {
  FILE *f = std::fopen("/proc/self/status", "r");
  if (!f)
    return -1;
  char line[256];
  double kib = -1;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "VmHWM: %lf kB", &kib) == 1)
      break;
  std::fclose(f);
  return kib < 0 ? -1 : kib / 1024.0;
}

/// --list-devices: the NNAPI library's devices, and whether each may run
/// partitions (the devices option).
static int printDevices() {
  int32_t count = nnapi_rt_device_count();
  if (count < 0)
    return usageError(nnapi_rt_last_error());
  std::printf("devices=%d\n", count);
  for (int32_t i = 0; i < count; ++i) {
    nnapi_rt_device_info d;
    if (nnapi_rt_get_device_info(i, &d) != NNAPI_RT_OK)
      return usageError(nnapi_rt_last_error());
    std::string use = d.preference < 0
                          ? "not a candidate"
                          : "candidate " + std::to_string(d.preference);
    std::printf("device %d: '%s' %s feature_level=%d version='%s' (%s)\n", i,
                d.name, nnapi_rt_device_type_name(d.type),
                d.featureLevel, d.version, use.c_str());
  }
  return 0;
}

/// One line per partition run so far: its device (and how it runs there),
/// or why it ran its host copy; with `timings`, the durations the driver
/// measured, per execution.
static void printPartitions(bool timings) {
  for (int32_t i = 0, n = nnapi_rt_partition_count(); i < n; ++i) {
    nnapi_rt_partition_info p;
    if (nnapi_rt_get_partition_info(i, &p) != NNAPI_RT_OK)
      continue;
    nnapi_rt_check_info c;
    bool checked = nnapi_rt_get_check_info(i, &c) == NNAPI_RT_OK;
    if (timings && checked && c.checks)
      std::printf("check partition %d: device '%s' checks=%llu "
                  "mismatches=%llu max_error=%g %s tolerance=%g %s "
                  "device_ms=%.3f host_ms=%.3f%s%s\n",
                  i, c.device, (unsigned long long)c.checks,
                  (unsigned long long)c.mismatches, c.maxError, c.unit,
                  c.tolerance, c.unit, double(c.deviceNs) / 1e6 / double(c.checks),
                  double(c.hostNs) / 1e6 / double(c.checks),
                  c.disabled[0] ? " left " : "", c.disabled);
    if (p.status != NNAPI_RT_OK) {
      std::printf("partition %d: host copy (%s)\n", i, p.error);
      continue;
    }
    if (!timings) {
      std::printf("partition %d: device '%s'%s%s", i, p.device,
                  p.burst ? " burst" : "", p.cached ? " cached" : "");
      if (p.failures)
        std::printf("; %llu execution(s) failed and ran the host copy "
                    "(last: %s)",
                    (unsigned long long)p.failures, p.lastFailure);
      if (p.passedOver[0])
        std::printf("; not on %s", p.passedOver);
      else if (checked && c.disabled[0])
        std::printf("; left %s", c.disabled);
      std::printf("\n");
      continue;
    }
    auto perRun = [](uint64_t ns, uint64_t runs) {
      return runs ? std::to_string(double(ns) / double(runs) / 1e6)
                  : std::string("n/a");
    };
    std::printf("profile partition %d: device '%s' executions=%llu "
                "hardware_ms=%s (%llu timed) driver_ms=%s (%llu timed)\n",
                i, p.device, (unsigned long long)p.executions,
                perRun(p.hardwareNs, p.hardwareTimed).c_str(),
                (unsigned long long)p.hardwareTimed,
                perRun(p.driverNs, p.driverTimed).c_str(),
                (unsigned long long)p.driverTimed);
  }
}

namespace {

/// The opened model, its signature and the sizes of its tensors.
struct LoadedModel {
  // Closed on every return (LeakSanitizer checks the fault sweep's runs).
  std::unique_ptr<nnapi_rt_model, void (*)(nnapi_rt_model *)> model{
      nullptr, nnapi_rt_model_close};
  Signature sig;
  // Sizes come from the same signature the buffers are made from (for a
  // model with dynamic dimensions, once the inputs give them: resolveDims).
  std::vector<uint64_t> inBytes, outBytes;
  std::vector<const int64_t *> inDims;

  /// Opens the model at `path` (loading, checking and the signature are the
  /// runtime's, Model.h), then removes `tempDir`. 0, or the exit status.
  int open(const std::string &path, const std::string &tempDir) {
    nnapi_rt_model *opened = nullptr;
    int32_t status = nnapi_rt_model_open(path.c_str(), &opened);
    removeTempDir(tempDir); // the mapping stays valid
    if (status != NNAPI_RT_OK)
      return usageError(nnapi_rt_last_error());
    model.reset(opened);
    sig = signatureOf(opened);
    return 0;
  }

  /// Runs the model; exits with status 2 after an error.
  void run(void *const *in, void *const *out) {
    if (nnapi_rt_model_run_dims(model.get(), int64_t(sig.inputs.size()), in,
                                inBytes.data(), inDims.data(),
                                int64_t(sig.outputs.size()), out,
                                outBytes.data()) != NNAPI_RT_OK) {
      std::fprintf(stderr, "nnapi-run: error: %s\n", nnapi_rt_last_error());
      model.reset();
      std::exit(2);
    }
  }

  /// The inputs' dimensions as given (`dims`), the outputs' from the model;
  /// then every byte size. 0, or the exit status.
  int resolveDims(const std::vector<std::vector<int64_t>> &dims) {
    for (size_t i = 0; i < sig.inputs.size(); ++i) {
      TensorSpec &t = sig.inputs[i];
      t.dims = dims[i];
      t.byteSize = t.elementSize;
      for (int64_t d : t.dims)
        t.byteSize *= size_t(d);
      inBytes.push_back(t.bytes());
      inDims.push_back(sig.inputs[i].dims.data());
    }
    std::vector<int64_t *> outDims;
    for (TensorSpec &t : sig.outputs)
      outDims.push_back(t.dims.data());
    if (nnapi_rt_model_output_dims(model.get(), int64_t(sig.inputs.size()),
                                   inDims.data(), int64_t(sig.outputs.size()),
                                   outDims.data()) != NNAPI_RT_OK)
      return usageError(nnapi_rt_last_error());
    for (TensorSpec &t : sig.outputs) {
      t.byteSize = t.elementSize;
      for (int64_t d : t.dims)
        t.byteSize *= size_t(d);
      outBytes.push_back(t.bytes());
    }
    return 0;
  }
};

/// The buffers the model runs on: the inputs' copies and the outputs, from
/// the runtime's allocator (nnapi_rt_alloc), as an app gives them so that
/// NNAPI reads and writes large ones without a copy (the bind_memory
/// option). Zero-size tensors still get an address: the model copies 0
/// bytes from or to it, and copying from NULL is undefined.
struct ModelBuffers {
  std::vector<void *> inputs, outputs;
  std::vector<size_t> outputBytes;
  ModelBuffers() = default;
  ModelBuffers(const ModelBuffers &) = delete;
  ModelBuffers &operator=(const ModelBuffers &) = delete;
  ~ModelBuffers() {
    for (void *p : inputs)
      nnapi_rt_free(p);
    for (void *p : outputs)
      nnapi_rt_free(p);
  }
  static void *allocate(size_t bytes) {
    void *p = nnapi_rt_alloc(std::max<size_t>(bytes, 1), 64);
    if (!p)
      throw std::bad_alloc();
    return p;
  }
  /// Copies of `inputs`, and zeroed outputs for `sig`.
  void allocate(const Signature &sig,
                const std::vector<std::vector<uint8_t>> &in) {
    for (const auto &b : in) {
      inputs.push_back(allocate(b.size()));
      if (!b.empty())
        std::memcpy(inputs.back(), b.data(), b.size());
    }
    for (const TensorSpec &t : sig.outputs) {
      outputs.push_back(allocate(t.bytes()));
      outputBytes.push_back(t.bytes());
      std::memset(outputs.back(), 0, std::max<size_t>(t.bytes(), 1));
    }
  }
  /// The outputs' values, in `out`.
  void copyOutputs(std::vector<std::vector<uint8_t>> &out) const {
    out.resize(outputs.size());
    for (size_t i = 0; i < outputs.size(); ++i) {
      const auto *p = static_cast<const uint8_t *>(outputs[i]);
      out[i].assign(p, p + outputBytes[i]);
    }
  }
};

/// --validate: the model on every device that may run partitions, each
/// partition compared with its host copy (Checks.cpp). The exit status.
int validate(const RunOptions &o, LoadedModel &lm,
             const std::vector<std::vector<uint8_t>> &inputs,
             void *const *outputs) {
  const Signature &sig = lm.sig;
  if (o.hostOnly)
    return usageError("--validate compares NNAPI devices with the host "
                      "copy: it cannot run host-only");
  // The inputs as given, then sets drawn from the following seeds (the
  // inputs compiled for one value keep it).
  std::vector<std::vector<std::vector<uint8_t>>> sets = {inputs};
  for (int k = 1; k <= o.validateSets; ++k) {
    std::mt19937_64 more(o.seed + uint64_t(k));
    sets.push_back(inputs);
    for (size_t i = 0; i < sig.inputs.size(); ++i)
      if (!nnapi_rt_model_input_is_bound(lm.model.get(), int64_t(i)))
        sets.back()[i] = randomTensor(sig.inputs[i], more);
  }
  std::string devicesGiven;
  for (const auto &[name, given] : o.runtimeOptions)
    if (name == "devices")
      devicesGiven = given;
  nnapi_rt_set_mode(NNAPI_RT_MODE_AUTO);
  int wrong = validateDevices(
      [&](void *const *in, void *const *out) { lm.run(in, out); }, sets,
      outputs, devicesGiven, o.validationOut);
  return wrong < 0 ? 2 : wrong > 0 ? 1 : 0;
}

/// The first run: the partitions' and the pool's statistics, and where each
/// partition ran. 1 when --expect-nnapi is not met, else 0.
int firstRun(const RunOptions &o, LoadedModel &lm, void *const *inputs,
             void *const *outputs) {
  nnapi_rt_set_mode(o.hostOnly ? NNAPI_RT_MODE_HOST_ONLY : NNAPI_RT_MODE_AUTO);
  nnapi_rt_reset_stats();
  lm.run(inputs, outputs);
  uint64_t onNNAPI = 0, failed = 0;
  nnapi_rt_get_stats(&onNNAPI, &failed);
  std::printf("partitions=%d nnapi_executions=%llu host_fallbacks=%llu\n",
              lm.sig.partitions, (unsigned long long)onNNAPI,
              (unsigned long long)(o.hostOnly ? 0 : failed));
  // Partitions with dynamic dimensions: specialized to this run's shapes.
  uint64_t shapesBuilt = 0, shapeHits = 0;
  nnapi_rt_get_shape_stats(&shapesBuilt, &shapeHits, nullptr);
  if (shapesBuilt || shapeHits)
    std::printf("shape_specializations=%llu shape_hits=%llu\n",
                (unsigned long long)shapesBuilt, (unsigned long long)shapeHits);
  // With --threads: whether the pool split any work.
  for (const auto &[name, given] : o.runtimeOptions)
    if (name == "threads") {
      uint64_t loops = 0, spread = 0;
      nnapi_rt_get_parallel_stats(&loops, &spread);
      std::printf("threads=%d parallel_loops=%llu on_several_threads=%llu\n",
                  nnapi_rt_get_threads(), (unsigned long long)loops,
                  (unsigned long long)spread);
    } else if (name == "bind_memory") {
      // With --bind-memory: how the partitions' buffers reached NNAPI.
      uint64_t memory = 0, pointer = 0;
      nnapi_rt_get_binding_stats(&memory, &pointer);
      std::printf("bind_memory=%s memory_bytes=%llu pointer_bytes=%llu\n",
                  given.c_str(), (unsigned long long)memory,
                  (unsigned long long)pointer);
    }
  if (!o.hostOnly)
    printPartitions(/*timings=*/false);
  int status = 0;
  if (o.expectNNAPI && o.hostOnly) {
    std::fprintf(stderr, "nnapi-run: error: --expect-nnapi: the run is "
                         "host-only (--host-only or NNAPI_MLIR_MODE=host)\n");
    status = 1;
  } else if (o.expectNNAPI && failed != 0) {
    std::fprintf(stderr,
                 "nnapi-run: error: --expect-nnapi: %llu partition "
                 "executions did not run on NNAPI\n",
                 (unsigned long long)failed);
    status = 1;
  }
  return status;
}

/// Each output's first values, and with --output-dir its .npy file. 0, or
/// the exit status after an error.
int printOutputs(const std::string &outputDir, const Signature &sig,
                 const std::vector<std::vector<uint8_t>> &outputs) {
  std::string error;
  for (size_t i = 0; i < sig.outputs.size(); ++i) {
    const TensorSpec &spec = sig.outputs[i];
    size_t n = spec.bytes() / spec.elementBytes();
    std::printf("output %zu '%s' %s %s:", i, printable(spec.name).c_str(),
                spec.dtype.c_str(), shapeString(spec.dims).c_str());
    for (size_t k = 0; k < std::min<size_t>(n, 8); ++k)
      std::printf(" %.6g",
                  toDouble(spec, &outputs[i][k * spec.elementBytes()]));
    std::printf(n > 8 ? " ...\n" : "\n");
    if (!outputDir.empty()) {
      mkdir(outputDir.c_str(), 0755);
      NpyArray array{spec.npyDtype(), spec.dims, outputs[i]};
      if (!writeNpy(outputDir + "/output" + std::to_string(i) + ".npy", array,
                    error))
        return usageError(error);
    }
  }
  return 0;
}

/// --bench: `runs` timed runs after one warm-up.
void benchmark(LoadedModel &lm, void *const *inputs, void *const *outputs,
               int runs) {
  lm.run(inputs, outputs); // warm-up
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    lm.run(inputs, outputs);
    auto t1 = std::chrono::steady_clock::now();
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  double median = ms.size() % 2
                      ? ms[ms.size() / 2]
                      : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
  std::printf("bench: runs=%d median_ms=%.6f min_ms=%.6f peak_rss_mb=%.1f "
              "threads=%d\n",
              runs, median, ms.front(), peakResidentMiB(),
              nnapi_rt_get_threads());
}

} // namespace

int runMain(int argc, char **argv) {
  RunOptions o;
  if (std::optional<int> status = parseArguments(argc, argv, o))
    return *status;
  if (!o.library.empty())
    nnapi_rt_set_library_path(o.library.c_str());
  for (const auto &[name, given] : o.runtimeOptions)
    if (nnapi_rt_set_option(name.c_str(), given.c_str()) != NNAPI_RT_OK)
      return usageError(nnapi_rt_last_error());
  if (o.listDevices)
    return printDevices();
  if (o.modelPath.empty())
    return usageError("no model given (nnapi-run MODEL.so ...)");
  CompiledModels compiled;
  if (int status = compileSources(o, compiled))
    return status;
  if (o.modelPath.find('/') == std::string::npos)
    o.modelPath = "./" + o.modelPath;
  if (!o.testData.empty() && !o.toleranceGiven) {
    o.tolerance.rtol = 1e-3;
    o.tolerance.atol = 1e-5;
  }

  LoadedModel lm;
  if (int status = lm.open(o.modelPath, compiled.tempDir))
    return status;
  const Signature &sig = lm.sig;
  std::vector<ProtoTensor> testInputs, testOutputs;
  if (!o.testData.empty())
    if (int status = readTestData(o.testData, sig, testInputs, testOutputs))
      return status;
  std::vector<std::vector<uint8_t>> inputs;
  std::vector<std::vector<int64_t>> inputDims;
  if (int status = prepareInputs(o, lm.model.get(), sig, testInputs, inputs,
                                 inputDims))
    return status;
  if (int status = lm.resolveDims(inputDims))
    return status;
  if (int status = checkTestOutputShapes(o.testData, sig, testOutputs))
    return status;
  ModelBuffers buffers;
  buffers.allocate(sig, inputs);
  std::vector<std::vector<uint8_t>> outputs;
  buffers.copyOutputs(outputs);
  const std::vector<void *> &inPtrs = buffers.inputs, &outPtrs = buffers.outputs;

  // NNAPI_MLIR_MODE=host in the environment means --host-only.
  if (nnapi_rt_get_mode() == NNAPI_RT_MODE_HOST_ONLY)
    o.hostOnly = true;
  if (o.validateSets >= 0)
    return validate(o, lm, inputs, outPtrs.data());
  int status = firstRun(o, lm, inPtrs.data(), outPtrs.data());
  buffers.copyOutputs(outputs);
  if (int failed = printOutputs(o.outputDir, sig, outputs))
    return failed;
  auto run = [&](void *const *in, void *const *out) { lm.run(in, out); };
  if (o.compareHost &&
      !compareWithHost(run, sig, inPtrs.data(), outputs, o.hostOnly,
                       o.tolerance))
    status = 1;
  if (!o.testData.empty() &&
      !checkTestData(sig, outputs, testOutputs, o.tolerance))
    status = 1;
  if (!compiled.float64Path.empty()) {
    std::string why;
    int rc = compareWithFloat64(compiled.float64Path, sig, inputs, outputs,
                                o.testData.empty() ? nullptr : &testOutputs,
                                why);
    removeTempDir(compiled.float64Dir);
    if (rc)
      return usageError(why);
  }
  if (o.bench > 0)
    benchmark(lm, inPtrs.data(), outPtrs.data(), o.bench);
  if (o.profileRuns && !o.hostOnly)
    printPartitions(/*timings=*/true);
  return status;
}

int main(int argc, char **argv) {
  try {
    return runMain(argc, argv);
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "nnapi-run: error: out of memory (the model's "
                         "tensors do not fit)\n");
  } catch (const std::exception &e) {
    std::fprintf(stderr, "nnapi-run: error: %s\n", e.what());
  }
  return 2;
}
