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
//===----------------------------------------------------------------------===//

#include "Npy.h"
#include "Tensors.h"
#include "TensorProto.h"
#include "nnapi-mlir/NNAPI/DeviceProfile.h"
#include "nnapi-mlir/Runtime/Model.h"
#include "nnapi-mlir/Runtime/Runtime.h"
#include "nnapi-mlir/Support/CommaList.h"
#include "nnapi-mlir/Support/Half.h"
#include "nnapi-mlir/Support/JsonText.h"
#include "nnapi-mlir/Support/ParseCount.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <new>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

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

/// Compiles an .onnx, .tflite or .mlir model with the nnapi-compile installed next to
/// this program; returns the shared library's path or "" after an error.
std::string compileModel(const std::string &model,
                         const std::vector<std::string> &extraArgs,
                         std::string &tempDir) {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) {
    std::fprintf(stderr, "nnapi-run: error: cannot locate nnapi-compile\n");
    return "";
  }
  self[n] = 0;
  std::string dir(self);
  dir = dir.substr(0, dir.rfind('/'));
  std::string compiler = dir + "/nnapi-compile";
  char pattern[] = "/tmp/nnapi-run-XXXXXX";
  if (!mkdtemp(pattern)) {
    std::fprintf(stderr, "nnapi-run: error: cannot create a temporary "
                         "directory\n");
    return "";
  }
  tempDir = pattern;
  std::string output = tempDir + "/model.so";
  std::vector<std::string> args = {compiler, model, "-o", output};
  args.insert(args.end(), extraArgs.begin(), extraArgs.end());
  std::vector<char *> argv;
  for (std::string &a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid;
  if (posix_spawn(&pid, compiler.c_str(), nullptr, nullptr, argv.data(),
                  environ) != 0) {
    std::fprintf(stderr, "nnapi-run: error: cannot run '%s'\n",
                 compiler.c_str());
    return "";
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "nnapi-run: error: compiling '%s' failed\n",
                 model.c_str());
    return "";
  }
  return output;
}

/// The values given to `option` ("--input-shape", ...) in `compileArgs`,
/// as "--option=VALUE" or "--option VALUE".
std::vector<std::string>
compileArgValues(const std::vector<std::string> &compileArgs,
                 const std::string &option) {
  std::vector<std::string> values;
  for (size_t k = 0; k < compileArgs.size(); ++k) {
    const std::string &a = compileArgs[k];
    if (a.rfind(option + "=", 0) == 0)
      values.push_back(a.substr(option.size() + 1));
    else if (a == option && k + 1 < compileArgs.size())
      values.push_back(compileArgs[++k]);
  }
  return values;
}

/// Whether one of `specs` ("NAME=...") names `name`.
bool namesInput(const std::vector<std::string> &specs,
                const std::string &name) {
  for (const std::string &spec : specs)
    if (spec.rfind(name + "=", 0) == 0)
      return true;
  return false;
}

/// For each input_<i>.pb in `testData` that names its input and is not
/// already given in `compileArgs`: `--input-shape NAME=DIMS`, so an ONNX
/// model with symbolic dimensions is compiled for the test's shapes (a
/// static input whose shape differs is then nnapi-compile's clear error),
/// and `--specialize-value NAME=FILE`, so an input that decides a shape
/// (a Reshape's shape, TopK's K) is compiled for the test's value; the
/// compiled model checks it on every run. A file that cannot be read is
/// left for the checks after loading to report.
std::vector<std::string>
testDataCompileArgs(const std::string &testData,
                    const std::vector<std::string> &compileArgs) {
  std::vector<std::string> shaped =
      compileArgValues(compileArgs, "--input-shape");
  std::vector<std::string> bound =
      compileArgValues(compileArgs, "--input-value");
  for (std::string &v : compileArgValues(compileArgs, "--specialize-value"))
    bound.push_back(std::move(v));
  std::vector<std::string> args;
  for (size_t i = 0;; ++i) {
    std::string path = testData + "/input_" + std::to_string(i) + ".pb";
    struct stat st;
    if (stat(path.c_str(), &st) != 0)
      break;
    ProtoTensor t;
    std::string error;
    if (!readTensorProto(path, t, error) || t.name.empty())
      continue;
    if (!namesInput(shaped, t.name) && !namesInput(bound, t.name)) {
      std::string dims;
      for (size_t d = 0; d < t.dims.size(); ++d)
        dims += (d ? "x" : "") + std::to_string(t.dims[d]);
      args.push_back("--input-shape=" + t.name + "=" + dims);
    }
    if (!namesInput(bound, t.name))
      args.push_back("--specialize-value=" + t.name + "=" + path);
  }
  return args;
}

void removeTempDir(const std::string &dir) {
  if (dir.empty())
    return;
  unlink((dir + "/model.so").c_str());
  rmdir(dir.c_str());
}

/// Largest absolute and relative differences and the number of elements
/// outside atol + rtol * |expected|.
struct Comparison {
  double maxAbs = 0, maxRel = 0;
  size_t mismatches = 0, count = 0;
};

/// Compares an output with its reference: floats within atol + rtol * |b|
/// element by element, or with `normwise` within atol + rtol * max |b| (the
/// reference's largest finite magnitude: deep networks' rounding is
/// relative to the tensor, not to each element, and elements near zero
/// after cancellation fail element-wise tests between any two runtimes);
/// NaN matches NaN. Integers and booleans exactly (their element bytes; a
/// tolerance would let 1000 pass for 1001, and doubles cannot tell int64
/// values apart above 2^53).
Comparison compare(const TensorSpec &spec, const uint8_t *actual,
                   const uint8_t *expected, double rtol, double atol,
                   bool normwise) {
  Comparison c;
  size_t width = spec.elementBytes();
  c.count = spec.bytes() / width;
  bool exact = spec.dtype[0] != 'f';
  double largest = 0;
  if (normwise && !exact)
    for (size_t k = 0; k < c.count; ++k) {
      double b = toDouble(spec, expected + k * width);
      if (std::isfinite(b))
        largest = std::max(largest, std::fabs(b));
    }
  for (size_t k = 0; k < c.count; ++k) {
    double a = toDouble(spec, actual + k * width);
    double b = toDouble(spec, expected + k * width);
    if (exact) {
      if (std::memcmp(actual + k * width, expected + k * width, width) == 0)
        continue;
      // At least one unit: int64 neighbours may round to the same double.
      double diff = std::max(std::fabs(a - b), 1.0);
      c.maxAbs = std::max(c.maxAbs, diff);
      if (b != 0)
        c.maxRel = std::max(c.maxRel, diff / std::fabs(b));
      ++c.mismatches;
      continue;
    }
    double diff = std::fabs(a - b);
    if (std::isnan(a) && std::isnan(b))
      diff = 0;
    else if (std::isnan(a) || std::isnan(b))
      diff = INFINITY;
    else if (std::isinf(a) && a == b)
      diff = 0;
    c.maxAbs = std::max(c.maxAbs, diff);
    if (b != 0 && std::isfinite(b))
      c.maxRel = std::max(c.maxRel, diff / std::fabs(b));
    // (NaN where the reference has NaN matches: |b| must not make the
    // tolerance NaN.)
    double tolerance =
        atol + (normwise ? rtol * largest
                         : std::isnan(b) ? 0 : rtol * std::fabs(b));
    if (!(diff <= tolerance))
      ++c.mismatches;
  }
  return c;
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

int runMain(int argc, char **argv) {
  std::string modelPath, outputDir, library, testData;
  std::vector<std::string> inputFiles, compileArgs;
  bool toleranceGiven = false;
  uint64_t seed = 0;
  bool hostOnly = false, compareHost = false, expectNNAPI = false;
  bool normwise = false, compareFloat64 = false;
  double rtol = 1e-5, atol = 1e-6;
  int bench = 0;
  bool profileRuns = false, listDevices = false;
  int validateSets = -1; // --validate: extra random input sets
  std::string validationOut;
  // Runtime options (Runtime.h), applied in this order once parsed.
  std::vector<std::pair<std::string, std::string>> options;
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
      inputFiles.push_back(v);
    else if (a == "--output-dir" && value(v))
      outputDir = v;
    else if (a == "--seed" && value(v)) {
      if (!parseCount(v, seed))
        return usageError("--seed needs a non-negative integer, got '" + v +
                          "'");
    } else if (a == "--nnapi-library" && value(v))
      library = v;
    else if (a == "--device-profile" && value(v)) {
      // Read it here as nnapi-compile does: a profile the host device could
      // not load would silently leave every partition to the host.
      profile::DeviceProfile parsed;
      std::string why;
      if (!profile::loadDeviceProfile(v, parsed, why))
        return usageError("--device-profile: " + why);
      setenv("NNAPI_MLIR_HOST_PROFILE", v.c_str(), 1);
    } else if ((a == "--rtol" || a == "--atol") && value(v)) {
      if (!parseTolerance(v, a == "--rtol" ? rtol : atol))
        return usageError(a + " needs a non-negative number, got '" + v + "'");
      toleranceGiven = true;
    } else if (a == "--test-data" && value(v))
      testData = v;
    else if (a == "--compile-arg" && value(v))
      compileArgs.push_back(v);
    else if (a == "--bench" && value(v)) {
      uint64_t n = 0;
      if (!parseCount(v, n) || n == 0 || n > 1000000)
        return usageError("--bench needs a count from 1 to 1000000, got '" + v +
                          "'");
      bench = int(n);
    } else if (a == "--host-devices" && value(v)) {
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
    } else if (a == "--device" && value(v))
      options.emplace_back("devices", v);
    else if (a == "--cache-dir" && value(v))
      options.emplace_back("cache_dir", v);
    else if (a == "--preference" && value(v))
      options.emplace_back("preference", v);
    else if (a == "--priority" && value(v))
      options.emplace_back("priority", v);
    else if (a == "--no-bursts")
      options.emplace_back("bursts", "0");
    else if (a == "--threads" && value(v))
      options.emplace_back("threads", v);
    else if (a == "--threads-force")
      options.emplace_back("threads_force", "1");
    else if (a == "--loop-timeout-ms" && value(v))
      options.emplace_back("loop_timeout_ms", v);
    else if (a == "--verify" && value(v))
      options.emplace_back("verify", v);
    else if (a == "--quirks" && value(v))
      options.emplace_back("quirks", v);
    else if (a == "--max-failures" && value(v))
      options.emplace_back("max_failures", v);
    else if (a == "--validation-out" && value(v))
      validationOut = v;
    else if (a == "--host-lie" && value(v))
      setenv("NNAPI_MLIR_HOST_LIE", v.c_str(), 1);
    else if (a == "--validate" || a.rfind("--validate=", 0) == 0) {
      uint64_t n = 2;
      if (a.size() > 10 && (!parseCount(a.substr(11), n) || n > 1000))
        return usageError("--validate=N needs a count from 0 to 1000, got '" +
                          a.substr(11) + "'");
      validateSets = int(n);
    }
    else if (a == "--profile") {
      options.emplace_back("timing", "1");
      profileRuns = true;
    } else if (a == "--list-devices")
      listDevices = true;
    else if (a == "--host-only")
      hostOnly = true;
    else if (a == "--compare-host")
      compareHost = true;
    else if (a == "--normwise")
      normwise = true;
    else if (a == "--compare-float64")
      compareFloat64 = true;
    else if (a == "--expect-nnapi")
      expectNNAPI = true;
    else if (a == "-h" || a == "--help") {
      std::printf("usage: nnapi-run MODEL.so [--input FILE]... [--seed N] "
                  "[--output-dir DIR] [--host-only] [--compare-host] "
                  "[--rtol X] [--atol Y] [--normwise] [--compare-float64] [--expect-nnapi] "
                  "[--nnapi-library PATH] [--device-profile PATH] "
                  "[--host-devices LIST] [--device SPEC] [--cache-dir DIR] "
                  "[--preference P] [--priority P] [--no-bursts] [--threads N] [--threads-force] [--loop-timeout-ms MS] "
                  "[--profile] [--validate[=N]] [--validation-out FILE] [--verify K] [--quirks PATH] "
                  "[--max-failures M] [--host-lie SPEC] "
                  "[--list-devices] [--test-data DIR] [--compile-arg ARG]... "
                  "[--bench N]\n");
      return 0;
    } else if (!a.empty() && a[0] != '-' && modelPath.empty())
      modelPath = a;
    else
      return usageError("unknown or incomplete argument '" + a + "'");
  }
  if (!library.empty())
    nnapi_rt_set_library_path(library.c_str());
  for (const auto &[name, given] : options)
    if (nnapi_rt_set_option(name.c_str(), given.c_str()) != NNAPI_RT_OK)
      return usageError(nnapi_rt_last_error());
  if (listDevices)
    return printDevices();
  if (modelPath.empty())
    return usageError("no model given (nnapi-run MODEL.so ...)");
  auto endsWith = [](const std::string &s, const char *suffix) {
    size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
  };
  std::string tempDir, float64Dir, float64Path;
  if (endsWith(modelPath, ".onnx") || endsWith(modelPath, ".mlir") ||
      endsWith(modelPath, ".tflite")) {
    if (endsWith(modelPath, ".onnx") && !testData.empty())
      for (std::string &a : testDataCompileArgs(testData, compileArgs))
        compileArgs.push_back(std::move(a));
    std::string source = modelPath;
    modelPath = compileModel(source, compileArgs, tempDir);
    if (modelPath.empty()) {
      removeTempDir(tempDir);
      return 2;
    }
    if (compareFloat64 && endsWith(source, ".onnx")) {
      std::vector<std::string> args = compileArgs;
      args.push_back("--float64");
      args.push_back("--host-only");
      float64Path = compileModel(source, args, float64Dir);
      if (float64Path.empty()) {
        removeTempDir(tempDir);
        removeTempDir(float64Dir);
        return 2;
      }
    }
  }
  if (compareFloat64 && float64Path.empty())
    return usageError("--compare-float64 needs an .onnx model: nnapi-run "
                      "compiles a float64 copy of it");
  if (modelPath.find('/') == std::string::npos)
    modelPath = "./" + modelPath;
  if (!testData.empty() && !toleranceGiven) {
    rtol = 1e-3;
    atol = 1e-5;
  }

  // Loading, checking and the signature are the runtime's (Model.h).
  nnapi_rt_model *model = nullptr;
  int32_t opened = nnapi_rt_model_open(modelPath.c_str(), &model);
  removeTempDir(tempDir); // the mapping stays valid
  if (opened != NNAPI_RT_OK)
    return usageError(nnapi_rt_last_error());
  // Closed on every return (LeakSanitizer checks the fault sweep's runs).
  std::unique_ptr<nnapi_rt_model, void (*)(nnapi_rt_model *)> modelCloser(
      model, nnapi_rt_model_close);
  Signature sig = signatureOf(model);
  std::string error;
  // Sizes come from the same signature the buffers are made from (for a
  // model with dynamic dimensions, once the inputs give them: resolveDims).
  std::vector<uint64_t> inBytes, outBytes;
  std::vector<const int64_t *> inDims;
  auto run = [&](void *const *in, void *const *out) {
    if (nnapi_rt_model_run_dims(model, int64_t(sig.inputs.size()), in,
                                inBytes.data(), inDims.data(),
                                int64_t(sig.outputs.size()), out,
                                outBytes.data()) != NNAPI_RT_OK) {
      std::fprintf(stderr, "nnapi-run: error: %s\n", nnapi_rt_last_error());
      modelCloser.reset();
      std::exit(2);
    }
  };
  // A dynamic dimension (-1 in the signature) matches any size; the
  // runtime checks it against the model's range.
  auto dimsMatch = [](const std::vector<int64_t> &spec,
                      const std::vector<int64_t> &given) {
    if (spec.size() != given.size())
      return false;
    for (size_t d = 0; d < spec.size(); ++d)
      if (spec[d] >= 0 && spec[d] != given[d])
        return false;
    return true;
  };
  // The inputs' dimensions as given (`dims`), the outputs' from the model;
  // then every byte size.
  auto resolveDims = [&](const std::vector<std::vector<int64_t>> &dims) {
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
    if (nnapi_rt_model_output_dims(model, int64_t(sig.inputs.size()),
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
  };

  // --test-data: inputs from input_<i>.pb, expected outputs from output_<i>.pb,
  // each checked against the model's signature.
  std::vector<ProtoTensor> testInputs, testOutputs;
  if (!testData.empty()) {
    auto read = [&](const char *kind, size_t i, ProtoTensor &t) {
      return readTensorProto(
          testData + "/" + kind + "_" + std::to_string(i) + ".pb", t, error);
    };
    auto check = [&](const char *kind, size_t i, size_t specIndex,
                     const TensorSpec &spec, ProtoTensor &t) {
      // ONNX 1.12's test data stores bfloat16 tensors as uint16: the same
      // bit patterns.
      if (spec.dtype == "bf16" && t.dtype == "u16")
        t.dtype = "bf16";
      if (t.dtype == spec.dtype && dimsMatch(spec.dims, t.dims))
        return true;
      error = testData + "/" + kind + "_" + std::to_string(i) + ".pb holds " +
              t.dtype + " " + shapeString(t.dims) + ", " + kind + " " +
              std::to_string(specIndex) + " ('" + printable(spec.name) + "') is " +
              spec.dtype + " " + shapeString(spec.dims);
      return false;
    };
    auto load = [&](const char *kind, size_t i, const TensorSpec &spec,
                    std::vector<ProtoTensor> &into) {
      ProtoTensor t;
      if (!read(kind, i, t) || !check(kind, i, i, spec, t))
        return false;
      into.push_back(std::move(t));
      return true;
    };
    auto exists = [&](size_t i) {
      struct stat st;
      std::string path = testData + "/input_" + std::to_string(i) + ".pb";
      return stat(path.c_str(), &st) == 0;
    };
    size_t given = 0;
    for (; exists(given); ++given) {
      ProtoTensor t;
      if (!read("input", given, t))
        return usageError(error);
      if (given < sig.inputs.size() &&
          !check("input", given, given, sig.inputs[given], t))
        return usageError(error);
      testInputs.push_back(std::move(t));
    }
    if (given != sig.inputs.size())
      return usageError("'" + testData + "' has " + std::to_string(given) +
                        " inputs, the model " +
                        std::to_string(sig.inputs.size()));
    for (size_t i = 0; i < sig.outputs.size(); ++i)
      if (!load("output", i, sig.outputs[i], testOutputs))
        return usageError(error);
  }
  if (inputFiles.size() > sig.inputs.size())
    return usageError("model has " + std::to_string(sig.inputs.size()) +
                      " inputs, got " + std::to_string(inputFiles.size()) +
                      " --input files");
  std::vector<std::vector<uint8_t>> inputs(sig.inputs.size());
  std::vector<std::vector<int64_t>> inputDims(sig.inputs.size());
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < sig.inputs.size(); ++i) {
    const TensorSpec &spec = sig.inputs[i];
    inputDims[i] = spec.dims;
    if (!testData.empty()) {
      inputs[i] = testInputs[i].data;
      inputDims[i] = testInputs[i].dims;
      continue;
    }
    if (i < inputFiles.size()) {
      NpyArray array;
      if (!readNpy(inputFiles[i], array, error))
        return usageError(error);
      if (array.dtype != spec.npyDtype() || !dimsMatch(spec.dims, array.shape))
        return usageError("input " + std::to_string(i) + " ('" +
                          printable(spec.name) +
                          "') must be " + spec.dtype + " " +
                          shapeString(spec.dims) + ", '" + inputFiles[i] +
                          "' holds " + TensorSpec::dtypeOfNpy(array.dtype) +
                          " " + shapeString(array.shape));
      inputs[i] = std::move(array.data);
      inputDims[i] = array.shape;
      continue;
    }
    if (std::count(spec.dims.begin(), spec.dims.end(), -1))
      return usageError("input " + std::to_string(i) + " ('" +
                        printable(spec.name) + "') has dynamic dimensions " +
                        shapeString(spec.dims) +
                        ": give it with --input FILE.npy or --test-data");
    // Random data would only meet the model's check.
    if (nnapi_rt_model_input_is_bound(model, int64_t(i)))
      return usageError("input " + std::to_string(i) + " ('" +
                        printable(spec.name) +
                        "') was compiled for one value (--input-value or "
                        "--specialize-value); give it with --input FILE.npy");
    inputs[i] = randomTensor(spec, rng);
  }
  if (int status = resolveDims(inputDims))
    return status;
  for (size_t i = 0; i < testOutputs.size(); ++i)
    if (testOutputs[i].dims != sig.outputs[i].dims)
      return usageError(testData + "/output_" + std::to_string(i) +
                        ".pb holds " + shapeString(testOutputs[i].dims) +
                        ", the model computes output " + std::to_string(i) +
                        " ('" + printable(sig.outputs[i].name) + "') as " +
                        shapeString(sig.outputs[i].dims) +
                        " for these inputs");
  // Buffers of zero-size tensors still get an address (reserve): the model
  // copies 0 bytes from or to it, and copying from NULL is undefined.
  std::vector<std::vector<uint8_t>> outputs(sig.outputs.size());
  std::vector<void *> inPtrs, outPtrs;
  for (auto &b : inputs) {
    b.reserve(1);
    inPtrs.push_back(b.data());
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    outputs[i].reserve(1);
    outputs[i].assign(sig.outputs[i].bytes(), 0);
    outPtrs.push_back(outputs[i].data());
  }

  // NNAPI_MLIR_MODE=host in the environment means --host-only.
  if (nnapi_rt_get_mode() == NNAPI_RT_MODE_HOST_ONLY)
    hostOnly = true;
  if (validateSets >= 0) {
    if (hostOnly)
      return usageError("--validate compares NNAPI devices with the host "
                        "copy: it cannot run host-only");
    // The inputs as given, then sets drawn from the following seeds (the
    // inputs compiled for one value keep it).
    std::vector<std::vector<std::vector<uint8_t>>> sets = {inputs};
    for (int k = 1; k <= validateSets; ++k) {
      std::mt19937_64 more(seed + uint64_t(k));
      sets.push_back(inputs);
      for (size_t i = 0; i < sig.inputs.size(); ++i)
        if (!nnapi_rt_model_input_is_bound(model, int64_t(i)))
          sets.back()[i] = randomTensor(sig.inputs[i], more);
    }
    std::string devicesGiven;
    for (const auto &[name, given] : options)
      if (name == "devices")
        devicesGiven = given;
    nnapi_rt_set_mode(NNAPI_RT_MODE_AUTO);
    int wrong = validateDevices(run, sets, outPtrs.data(), devicesGiven,
                                validationOut);
    return wrong < 0 ? 2 : wrong > 0 ? 1 : 0;
  }
  nnapi_rt_set_mode(hostOnly ? NNAPI_RT_MODE_HOST_ONLY : NNAPI_RT_MODE_AUTO);
  nnapi_rt_reset_stats();
  run(inPtrs.data(), outPtrs.data());
  uint64_t onNNAPI = 0, failed = 0;
  nnapi_rt_get_stats(&onNNAPI, &failed);
  std::printf("partitions=%d nnapi_executions=%llu host_fallbacks=%llu\n",
              sig.partitions, (unsigned long long)onNNAPI,
              (unsigned long long)(hostOnly ? 0 : failed));
  // Partitions with dynamic dimensions: specialized to this run's shapes.
  uint64_t shapesBuilt = 0, shapeHits = 0;
  nnapi_rt_get_shape_stats(&shapesBuilt, &shapeHits, nullptr);
  if (shapesBuilt || shapeHits)
    std::printf("shape_specializations=%llu shape_hits=%llu\n",
                (unsigned long long)shapesBuilt, (unsigned long long)shapeHits);
  // With --threads: whether the pool split any work.
  for (const auto &[name, given] : options)
    if (name == "threads") {
      uint64_t loops = 0, spread = 0;
      nnapi_rt_get_parallel_stats(&loops, &spread);
      std::printf("threads=%d parallel_loops=%llu on_several_threads=%llu\n",
                  nnapi_rt_get_threads(), (unsigned long long)loops,
                  (unsigned long long)spread);
    }
  if (!hostOnly)
    printPartitions(/*timings=*/false);
  int status = 0;
  if (expectNNAPI && hostOnly) {
    std::fprintf(stderr, "nnapi-run: error: --expect-nnapi: the run is "
                         "host-only (--host-only or NNAPI_MLIR_MODE=host)\n");
    status = 1;
  } else if (expectNNAPI && failed != 0) {
    std::fprintf(stderr,
                 "nnapi-run: error: --expect-nnapi: %llu partition "
                 "executions did not run on NNAPI\n",
                 (unsigned long long)failed);
    status = 1;
  }

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

  if (compareHost) {
    std::vector<std::vector<uint8_t>> reference(outputs.size());
    std::vector<void *> refPtrs;
    for (size_t i = 0; i < outputs.size(); ++i) {
      reference[i].reserve(1);
      reference[i].assign(outputs[i].size(), 0);
      refPtrs.push_back(reference[i].data());
    }
    nnapi_rt_set_mode(NNAPI_RT_MODE_HOST_ONLY);
    run(inPtrs.data(), refPtrs.data());
    nnapi_rt_set_mode(hostOnly ? NNAPI_RT_MODE_HOST_ONLY : NNAPI_RT_MODE_AUTO);
    double maxAbs = 0, maxRel = 0;
    size_t mismatches = 0;
    for (size_t i = 0; i < outputs.size(); ++i) {
      Comparison c = compare(sig.outputs[i], outputs[i].data(),
                             reference[i].data(), rtol, atol, normwise);
      maxAbs = std::max(maxAbs, c.maxAbs);
      maxRel = std::max(maxRel, c.maxRel);
      mismatches += c.mismatches;
    }
    std::printf("compare-host: max_abs_err=%.3g max_rel_err=%.3g "
                "mismatches=%zu (%srtol=%g atol=%g)\n",
                maxAbs, maxRel, mismatches, normwise ? "normwise, " : "", rtol,
                atol);
    if (mismatches)
      status = 1;
  }

  if (!testData.empty()) {
    size_t failing = 0;
    for (size_t i = 0; i < sig.outputs.size(); ++i) {
      const ProtoTensor &want = testOutputs[i];
      Comparison c = compare(sig.outputs[i], outputs[i].data(),
                             want.data.data(), rtol, atol, normwise);
      std::printf("test-data output %zu '%s': max_abs_err=%.3g "
                  "max_rel_err=%.3g mismatches=%zu/%zu\n",
                  i, printable(sig.outputs[i].name).c_str(), c.maxAbs, c.maxRel,
                  c.mismatches, c.count);
      failing += c.mismatches != 0;
    }
    std::printf("test-data: %s (%zu of %zu outputs match, %srtol=%g "
                "atol=%g)\n",
                failing ? "FAIL" : "PASS", sig.outputs.size() - failing,
                sig.outputs.size(), normwise ? "normwise, " : "", rtol, atol);
    if (failing)
      status = 1;
  }

  if (!float64Path.empty()) {
    std::string why;
    int rc = compareWithFloat64(float64Path, sig, inputs, outputs,
                                testData.empty() ? nullptr : &testOutputs,
                                why);
    removeTempDir(float64Dir);
    if (rc)
      return usageError(why);
  }

  if (bench > 0) {
    run(inPtrs.data(), outPtrs.data()); // warm-up
    std::vector<double> ms;
    for (int i = 0; i < bench; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      run(inPtrs.data(), outPtrs.data());
      auto t1 = std::chrono::steady_clock::now();
      ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    double median = ms.size() % 2
                        ? ms[ms.size() / 2]
                        : (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]) / 2;
    std::printf("bench: runs=%d median_ms=%.6f min_ms=%.6f peak_rss_mb=%.1f "
                "threads=%d\n",
                bench, median, ms.front(), peakResidentMiB(),
                nnapi_rt_get_threads());
  }
  if (profileRuns && !hostOnly)
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
