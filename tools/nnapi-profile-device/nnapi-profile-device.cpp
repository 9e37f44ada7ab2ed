//===- nnapi-profile-device.cpp - Measure a device, write its profile -----===//
//
// Measures what the partitioner needs to know about an NNAPI device and the
// host code beside it, and writes a device profile (docs/device-profiles.md):
//
//   1. a partition boundary: three float32 chains of adds (Probes.h), forced
//      onto one partition, at four sizes, give the cost of one partition
//      call and of moving a tensor across (fixed + per byte);
//   2. every probe (an NNAPI operation) at several sizes and types, compiled
//      twice: forced onto NNAPI (one partition, run by the device through the
//      runtime) and host-only (the LLVM-compiled host code); each timed in
//      this process through the runtime's model API;
//   3. per side, operation and type, the cost model fitted to the medians
//      (Fit.h); the device's samples first lose the boundary cost measured
//      in 1, which the partitioner charges separately, the host's the cost
//      of calling compiled code;
//   4. with --model, every op of those models at its own shapes, on both
//      sides: kept by signature (the partitioner's unitSignature), they
//      replace the fits for exactly those ops.
//
//   nnapi-profile-device -o PROFILE.json [--ops A,B] [--types float32]
//                        [--sizes N] [--min-time-ms T] [--device SPEC]
//                        [--nnapi-library PATH] [--name NAME]
//                        [--samples FILE.json] [--model MODEL]... [--list]
//   nnapi-profile-device --from SAMPLES.json|DIR -o PROFILE.json
//   nnapi-profile-device --emit DIR [--mtriple T] [--feature-level N] ...
//
// --samples keeps the measurements and --from refits them; --emit compiles
// the models for another machine (a phone) with a run.sh that times them
// there, and --from DIR fits what it measured.
//
// The device is the runtime's first candidate (--device chooses, as
// nnapi-run's does); on Linux that is the host NNAPI device. Everything but
// the numbers (the operations, types, sizes and keys, in a fixed order)
// depends on the arguments alone.
//
//===----------------------------------------------------------------------===//

#include "Fit.h"
#include "Probes.h"

#include "nnapi-mlir/Compiler/Compiler.h"
#include "nnapi-mlir/NNAPI/DeviceProfile.h"
#include "nnapi-mlir/NNAPI/Operations.h"
#include "nnapi-mlir/Partition/CostModel.h"
#include "nnapi-mlir/Pipelines/Registration.h"
#include "nnapi-mlir/Runtime/Model.h"
#include "nnapi-mlir/Runtime/Runtime.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>

using namespace mlir;
using namespace nnapi_mlir;
using namespace nnapi_mlir::profiling;
namespace cl = llvm::cl;

static cl::OptionCategory category("nnapi-profile-device options");

static cl::opt<std::string> outputFile("o", cl::desc("Profile to write"),
                                       cl::value_desc("PROFILE.json"),
                                       cl::cat(category));
static cl::list<std::string>
    opsFlag("ops", cl::CommaSeparated, cl::value_desc("OP,..."),
            cl::desc("NNAPI operations to measure (default: every one with a "
                     "probe; --list shows them)"),
            cl::cat(category));
static cl::list<std::string>
    typesFlag("types", cl::CommaSeparated, cl::value_desc("TYPE,..."),
              cl::desc("Tensor types to measure: float32, float16 (default: "
                       "both)"),
              cl::cat(category));
static cl::opt<unsigned>
    sizesFlag("sizes", cl::init(kNumSizes),
              cl::desc("Sizes per operation, smallest first (1 to 4)"),
              cl::cat(category));
static cl::opt<double> minTimeMs("min-time-ms", cl::init(20.0),
                                 cl::desc("Time each model at least this "
                                          "long (0.01 to 10000 ms)"),
                                 cl::cat(category));
static cl::opt<std::string>
    deviceFlag("device", cl::value_desc("SPEC"),
               cl::desc("Devices that may run partitions, the runtime's "
                        "'devices' option (Runtime.h); the first candidate "
                        "is measured"),
               cl::cat(category));
static cl::opt<std::string> libraryFlag("nnapi-library", cl::value_desc("PATH"),
                                        cl::desc("NNAPI library to load"),
                                        cl::cat(category));
static cl::opt<std::string>
    nameFlag("name", cl::desc("The profile's name (default: the device's)"),
             cl::cat(category));
static cl::opt<std::string>
    samplesFile("samples", cl::value_desc("FILE.json"),
                cl::desc("Also write every measurement"), cl::cat(category));
static cl::opt<std::string>
    fromFile("from", cl::value_desc("SAMPLES.json"),
             cl::desc("Fit the samples an earlier run wrote (--samples), "
                      "or an --emit directory after its run.sh, instead of "
                      "measuring"),
             cl::cat(category));
static cl::opt<std::string>
    emitDir("emit", cl::value_desc("DIR"),
            cl::desc("Compile the models into DIR with a script that times "
                     "them on another machine (a phone), instead of "
                     "measuring here"),
            cl::cat(category));
static cl::opt<std::string> mtriple("mtriple",
                                    cl::desc("With --emit: the target triple"),
                                    cl::cat(category));
static cl::opt<std::string> mcpu("mcpu", cl::desc("With --emit: the target CPU"),
                                 cl::cat(category));
static cl::opt<std::string>
    mattr("mattr", cl::desc("With --emit: target features (+a,-b)"),
          cl::cat(category));
static cl::opt<unsigned> featureLevelFlag(
    "feature-level", cl::init(7),
    cl::desc("With --emit: the NNAPI feature level the models may use (1 to "
             "8; measuring here takes the device's)"),
    cl::cat(category));
static cl::list<std::string>
    modelsFlag("model", cl::value_desc("MODEL"),
               cl::desc("Also measure every op of MODEL (ONNX or TOSA) at its "
                        "own shapes, on both sides; the profile keeps them by "
                        "signature and the partitioner prefers them to the "
                        "fitted tables (repeatable)"),
               cl::cat(category));
static cl::opt<bool> listFlag("list",
                              cl::desc("Print the models that would be "
                                       "measured and exit"),
                              cl::cat(category));

namespace {

int fail(const llvm::Twine &message) {
  llvm::errs() << "nnapi-profile-device: error: " << message << "\n";
  return 1;
}

const char *typeName(profile::DataType type) {
  return profile::dataTypeName(type);
}

/// lscpu's "Model name": /proc/cpuinfo's "model name", else "unknown CPU".
std::string cpuModelName() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos)
        return llvm::StringRef(line).substr(colon + 1).trim().str();
    }
  return "unknown CPU";
}

/// A profile's number: four significant digits.
std::string formatNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

/// A sample's number, exact for what is stored (integers of work,
/// latencies rounded to the nanosecond), so that --from refits the same
/// numbers.
std::string formatExact(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", v);
  return text;
}

/// The operation of a measurement of one op of a --model.
constexpr const char *kUnitRecord = "unit";
/// The model of the "boundary" record of the host code's call.
constexpr const char *kHostCallRecord = "host_call";

/// One measured model.
struct Measurement {
  std::string operation; ///< NNAPI operation, or "boundary".
  profile::DataType type = profile::DataType::Float32;
  unsigned size = 0;
  std::string side; ///< "nnapi" or "host".
  double macs = 0, elements = 0;
  uint64_t ioBytes[2] = {0, 0}; ///< Graph inputs, outputs.
  unsigned ioCount[2] = {0, 0};
  double us = 0;                ///< Median latency.
  unsigned runs = 0;
  std::string model;   ///< For boundary records: single, chain, two_inputs.
  /// For an op of a --model ("unit" records): its unitSignature().
  std::string signature;
  std::string file;    ///< The compiled model's file name (--emit).
  std::string failure; ///< Why the device did not run it ("": it did).
};

/// A tensor's buffer from nnapi_rt_alloc.
struct Buffer {
  explicit Buffer(uint64_t bytes)
      : data(static_cast<uint8_t *>(nnapi_rt_alloc(bytes ? bytes : 1, 64))) {}
  Buffer(Buffer &&other) : data(other.data) { other.data = nullptr; }
  Buffer(const Buffer &) = delete;
  ~Buffer() { nnapi_rt_free(data); }
  uint8_t *data;
};

/// Compiles models and times them through the runtime.
class Profiler {
public:
  Profiler(MLIRContext &context, std::string dir)
      : context(context), dir(std::move(dir)) {}

  /// Compiles `text` to `name`.so for the target of `output` (`name` in
  /// messages) and records its inputs and outputs in `m`. With
  /// `forceOperation`, every op of that NNAPI operation is forced onto NNAPI
  /// and the placement must have put the whole model into one partition;
  /// the report's work for the op goes to `m` too. Empty path on failure
  /// (`error`).
  std::string compile(const std::string &text, const std::string &name,
                      const std::string &forceOperation, unsigned featureLevel,
                      const nnapi::CompileOutput &target, Measurement &m,
                      std::string &error) {
    std::string path = dir + "/" + name + ".so";
    m.file = name + ".so";
    std::string diagnostics;
    llvm::raw_string_ostream diagStream(diagnostics);
    ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
      if (d.getSeverity() == DiagnosticSeverity::Error ||
          d.getSeverity() == DiagnosticSeverity::Warning)
        diagStream << "\n  " << d.str();
      return success();
    });
    auto module = nnapi::loadModel(text, name, &context);
    if (!module) {
      error = llvm::toString(module.takeError()) + diagnostics;
      return "";
    }
    // The graph's inputs and outputs, from the entry's signature (a model
    // built for another machine cannot be opened here to ask).
    if (auto main = (*module)->lookupSymbol<func::FuncOp>("main")) {
      auto bytesOf = [](Type t) -> uint64_t {
        auto shaped = cast<ShapedType>(t);
        unsigned bits = shaped.getElementTypeBitWidth();
        return uint64_t(shaped.getNumElements()) * (bits < 8 ? 1 : bits / 8);
      };
      m.ioCount[0] = main.getNumArguments();
      m.ioCount[1] = main.getNumResults();
      m.ioBytes[0] = m.ioBytes[1] = 0;
      for (Type t : main.getArgumentTypes())
        m.ioBytes[0] += bytesOf(t);
      for (Type t : main.getResultTypes())
        m.ioBytes[1] += bytesOf(t);
    }
    nnapi::CompilePipelineOptions options;
    options.featureLevel = featureLevel;
    // The placement override is a file; a temporary one, so that an --emit
    // directory holds the models and nothing else.
    llvm::SmallString<128> placement;
    llvm::FileRemover removePlacement;
    if (forceOperation.empty()) {
      options.hostOnly = true;
    } else {
      int fd;
      if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
              "nnapi-profile-placement", "json", fd, placement)) {
        error = "cannot create a temporary file: " + ec.message();
        return "";
      }
      removePlacement.setFile(placement);
      llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
      os << "{\"nnapi\": [\"" << forceOperation << "\"]}\n";
      os.close();
      options.placement = placement.str().str();
    }
    nnapi::CompileOutput output = target;
    output.path = path;
    nnapi::CompileSummary summary;
    if (llvm::Error err = nnapi::compileModule(**module, options, output,
                                               &summary)) {
      error = llvm::toString(std::move(err)) + diagnostics;
      return "";
    }
    if (forceOperation.empty())
      return path;
    // The forced model must be one partition holding every op.
    const auto &functions = summary.report.functions;
    if (functions.size() != 1) {
      error = "no placement report";
      return "";
    }
    m.macs = m.elements = 0;
    for (const nnapi::ReportOp &op : functions[0].ops) {
      if (op.partition < 0) {
        error = op.type + " stays on the host: " + op.reason;
        return "";
      }
      if (op.nnapi == forceOperation || op.name == forceOperation) {
        m.macs += op.macs;
        m.elements += op.elements;
      }
    }
    if (functions[0].partitions.size() != 1) {
      error = "the model became " +
              std::to_string(functions[0].partitions.size()) + " partitions";
      return "";
    }
    if (m.elements == 0) {
      error = "no op became " + forceOperation + " (" +
              (functions[0].ops.empty() ? std::string("none")
                                        : functions[0].ops[0].nnapi) +
              ")";
      return "";
    }
    return path;
  }

  /// Opens and times the model at `path`: two warm-up runs, then runs until
  /// `minTimeMs` have passed (at least 5), each timed; the median. With
  /// `expectNNAPI`, every partition must have run on NNAPI.
  bool time(const std::string &path, bool expectNNAPI, Measurement &m,
            std::string &error) {
    nnapi_rt_model *model = nullptr;
    if (nnapi_rt_model_open(path.c_str(), &model) != NNAPI_RT_OK) {
      error = nnapi_rt_last_error();
      return false;
    }
    std::unique_ptr<nnapi_rt_model, void (*)(nnapi_rt_model *)> closer(
        model, nnapi_rt_model_close);
    // Buffers come from the runtime's allocator, as the compiled code's
    // intermediate tensors do (64-byte aligned): a device that binds them
    // in place is measured binding them.
    std::vector<Buffer> in, out;
    std::vector<const void *> inPtr;
    std::vector<void *> outPtr;
    std::vector<uint64_t> inBytes, outBytes;
    for (int64_t i = 0; i < nnapi_rt_model_num_inputs(model); ++i) {
      nnapi_rt_tensor_info info;
      nnapi_rt_model_input(model, i, &info);
      in.emplace_back(info.bytes);
      if (!in.back().data) {
        error = "cannot allocate " + std::to_string(info.bytes) + " bytes";
        return false;
      }
      randomData(info, in.back().data);
      inPtr.push_back(in.back().data);
      inBytes.push_back(info.bytes);
    }
    for (int64_t i = 0; i < nnapi_rt_model_num_outputs(model); ++i) {
      nnapi_rt_tensor_info info;
      nnapi_rt_model_output(model, i, &info);
      out.emplace_back(info.bytes);
      if (!out.back().data) {
        error = "cannot allocate " + std::to_string(info.bytes) + " bytes";
        return false;
      }
      outPtr.push_back(out.back().data);
      outBytes.push_back(info.bytes);
    }
    auto run = [&]() {
      return nnapi_rt_model_run(model, int64_t(inPtr.size()), inPtr.data(),
                                inBytes.data(), int64_t(outPtr.size()),
                                outPtr.data(), outBytes.data()) == NNAPI_RT_OK;
    };
    using clock = std::chrono::steady_clock;
    auto timed = [&](double &us) {
      auto start = clock::now();
      bool ok = run();
      us = std::chrono::duration<double, std::micro>(clock::now() - start)
               .count();
      return ok;
    };
    double first = 0;
    if (!run() || !run() || !timed(first)) {
      error = nnapi_rt_last_error();
      return false;
    }
    if (expectNNAPI && !ranOnNNAPI(error))
      return false;
    unsigned runs = unsigned(std::min(
        100000.0, std::max(5.0, std::ceil(minTimeMs * 1000.0 /
                                          std::max(first, 0.01)))));
    std::vector<double> times(runs);
    for (double &t : times)
      if (!timed(t)) {
        error = nnapi_rt_last_error();
        return false;
      }
    if (expectNNAPI && !ranOnNNAPI(error))
      return false;
    m.us = std::round(median(times) * 1000.0) / 1000.0;
    m.runs = runs;
    return true;
  }

private:
  /// Random inputs: floats in [0.1, 1) (positive for log, pow and sqrt),
  /// booleans 0 or 1, integers 0.
  void randomData(const nnapi_rt_tensor_info &info, uint8_t *data) {
    std::memset(data, 0, info.bytes);
    std::uniform_real_distribution<float> uniform(0.1f, 1.0f);
    std::string dtype = info.dtype;
    uint64_t n = info.elementBytes ? info.bytes / info.elementBytes : 0;
    for (uint64_t i = 0; i < n; ++i) {
      if (dtype == "f32") {
        float v = uniform(rng);
        std::memcpy(&data[i * 4], &v, 4);
      } else if (dtype == "f16") {
        // A value in [0.5, 1): exponent 14, a random 10-bit mantissa.
        uint16_t v = uint16_t(0x3800 | (rng() & 0x3ff));
        std::memcpy(&data[i * 2], &v, 2);
      } else if (dtype == "i1") {
        data[i] = uint8_t(rng() & 1);
      }
    }
  }

  /// False (with the reason) when a partition ran its host copy.
  bool ranOnNNAPI(std::string &error) {
    int32_t count = nnapi_rt_partition_count();
    if (count <= 0) {
      error = "no partition ran on NNAPI";
      return false;
    }
    for (int32_t i = 0; i < count; ++i) {
      nnapi_rt_partition_info info;
      if (nnapi_rt_get_partition_info(i, &info) != NNAPI_RT_OK)
        continue;
      if (info.error[0] || info.failures) {
        error = std::string("the partition ran its host copy: ") +
                (info.error[0] ? info.error : info.lastFailure);
        return false;
      }
    }
    return true;
  }

  MLIRContext &context;
  std::string dir;
  std::mt19937 rng{5};
};

/// Everything one measurement run found: the device, the machine and each
/// model's median. Written by --samples, read back by --from.
struct Run {
  std::string device, version, deviceType = "other", cpu, date;
  unsigned featureLevel = 7, sizes = 0;
  std::vector<profile::DataType> types;
  std::vector<std::string> operations; ///< In the probe table's order.
  std::vector<Measurement> measurements;
};

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20)
      out += c;
  }
  return out + "\"";
}

std::string runToJSON(const Run &run) {
  std::string s = "{\n  \"format\": \"nnapi-profile-device-samples-1\",\n";
  s += "  \"device\": " + jsonString(run.device) +
       ",\n  \"version\": " + jsonString(run.version) +
       ",\n  \"device_type\": " + jsonString(run.deviceType) +
       ",\n  \"feature_level\": " + std::to_string(run.featureLevel) +
       ",\n  \"cpu\": " + jsonString(run.cpu) +
       ",\n  \"date\": " + jsonString(run.date) +
       ",\n  \"sizes\": " + std::to_string(run.sizes) + ",\n  \"types\": [";
  for (size_t i = 0; i < run.types.size(); ++i)
    s += std::string(i ? ", " : "") + "\"" + typeName(run.types[i]) + "\"";
  s += "],\n  \"operations\": [";
  for (size_t i = 0; i < run.operations.size(); ++i)
    s += std::string(i ? ", " : "") + "\"" + run.operations[i] + "\"";
  s += "],\n  \"measurements\": [\n";
  for (size_t i = 0; i < run.measurements.size(); ++i) {
    const Measurement &m = run.measurements[i];
    s += "    {\"operation\": \"" + m.operation + "\", \"type\": \"" +
         typeName(m.type) + "\", \"size\": " + std::to_string(m.size) +
         ", \"side\": \"" + m.side + "\"";
    if (!m.model.empty())
      s += ", \"model\": \"" + m.model + "\"";
    if (!m.signature.empty())
      s += ", \"signature\": " + jsonString(m.signature);
    if (!m.file.empty())
      s += ", \"file\": " + jsonString(m.file);
    if (!m.failure.empty())
      s += ", \"failure\": " + jsonString(m.failure);
    s += ", \"macs\": " + formatExact(m.macs) +
         ", \"elements\": " + formatExact(m.elements) +
         ", \"inputs\": " + std::to_string(m.ioCount[0]) +
         ", \"input_bytes\": " + std::to_string(m.ioBytes[0]) +
         ", \"outputs\": " + std::to_string(m.ioCount[1]) +
         ", \"output_bytes\": " + std::to_string(m.ioBytes[1]) +
         ", \"us\": " + formatExact(m.us) +
         ", \"runs\": " + std::to_string(m.runs) + "}" +
         (i + 1 < run.measurements.size() ? "," : "") + "\n";
  }
  return s + "  ]\n}\n";
}

/// Reads what runToJSON wrote; false with a message naming the place.
bool runFromJSON(llvm::StringRef text, Run &run, std::string &error) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed) {
    error = "invalid JSON: " + llvm::toString(parsed.takeError());
    return false;
  }
  const llvm::json::Object *root = parsed->getAsObject();
  auto str = [&](const llvm::json::Object *o, llvm::StringRef key,
                 std::string &out, const std::string &where) {
    std::optional<llvm::StringRef> v = o ? o->getString(key) : std::nullopt;
    if (!v) {
      error = where + "'" + key.str() + "' must be a string";
      return false;
    }
    out = v->str();
    return true;
  };
  auto num = [&](const llvm::json::Object *o, llvm::StringRef key, double &out,
                 const std::string &where) {
    std::optional<double> v = o ? o->getNumber(key) : std::nullopt;
    if (!v || !std::isfinite(*v) || *v < 0) {
      error = where + "'" + key.str() + "' must be a non-negative number";
      return false;
    }
    out = *v;
    return true;
  };
  std::string format;
  if (!str(root, "format", format, "") ||
      format != "nnapi-profile-device-samples-1") {
    error = "not nnapi-profile-device samples ('format' must be "
            "\"nnapi-profile-device-samples-1\")";
    return false;
  }
  double level = 0, sizes = 0;
  if (!str(root, "device", run.device, "") ||
      !str(root, "version", run.version, "") ||
      !str(root, "device_type", run.deviceType, "") ||
      !str(root, "cpu", run.cpu, "") || !str(root, "date", run.date, "") ||
      !num(root, "feature_level", level, "") || !num(root, "sizes", sizes, ""))
    return false;
  if (level < 1 || level > 8 || sizes < 1 || sizes > kNumSizes) {
    error = "'feature_level' must be 1 to 8 and 'sizes' 1 to " +
            std::to_string(kNumSizes);
    return false;
  }
  run.featureLevel = unsigned(level);
  run.sizes = unsigned(sizes);
  auto typeOf = [](llvm::StringRef name, profile::DataType &type) {
    for (unsigned t = 0; t < profile::kNumDataTypes; ++t)
      if (name == typeName(profile::DataType(t))) {
        type = profile::DataType(t);
        return true;
      }
    return false;
  };
  const llvm::json::Array *types = root->getArray("types");
  const llvm::json::Array *ops = root->getArray("operations");
  const llvm::json::Array *list = root->getArray("measurements");
  if (!types || !ops || !list) {
    error = "'types', 'operations' and 'measurements' must be arrays";
    return false;
  }
  for (const llvm::json::Value &v : *types) {
    profile::DataType type;
    std::optional<llvm::StringRef> name = v.getAsString();
    if (!name || !typeOf(*name, type)) {
      error = "'types' holds an unknown type";
      return false;
    }
    run.types.push_back(type);
  }
  for (const llvm::json::Value &v : *ops) {
    std::optional<llvm::StringRef> name = v.getAsString();
    if (!name || nnapi_mlir::operationCode(*name) < 0) {
      error = "'operations' holds an unknown NNAPI operation";
      return false;
    }
    run.operations.push_back(name->str());
  }
  if (run.types.empty()) {
    error = "'types' is empty";
    return false;
  }
  for (size_t i = 0; i < list->size(); ++i) {
    const llvm::json::Object *o = (*list)[i].getAsObject();
    std::string where = "measurements[" + std::to_string(i) + "]: ";
    Measurement m;
    std::string type;
    double size, inputs, inBytes, outputs, outBytes, runs;
    if (!str(o, "operation", m.operation, where) ||
        !str(o, "type", type, where) || !num(o, "size", size, where) ||
        !str(o, "side", m.side, where) || !num(o, "macs", m.macs, where) ||
        !num(o, "elements", m.elements, where) ||
        !num(o, "inputs", inputs, where) ||
        !num(o, "input_bytes", inBytes, where) ||
        !num(o, "outputs", outputs, where) ||
        !num(o, "output_bytes", outBytes, where) ||
        !num(o, "us", m.us, where) || !num(o, "runs", runs, where))
      return false;
    if (!typeOf(type, m.type) || (m.side != "nnapi" && m.side != "host") ||
        size >= run.sizes) {
      error = where + "unknown type, side or size";
      return false;
    }
    if (std::optional<llvm::StringRef> model = o->getString("model"))
      m.model = model->str();
    if (std::optional<llvm::StringRef> signature = o->getString("signature"))
      m.signature = signature->str();
    if ((m.operation == kUnitRecord) == m.signature.empty()) {
      error = where + "a '" + kUnitRecord +
              "' record needs a signature, and only it";
      return false;
    }
    if (std::optional<llvm::StringRef> file = o->getString("file"))
      m.file = file->str();
    if (std::optional<llvm::StringRef> failure = o->getString("failure"))
      m.failure = failure->str();
    m.size = unsigned(size);
    m.ioCount[0] = unsigned(inputs);
    m.ioCount[1] = unsigned(outputs);
    m.ioBytes[0] = uint64_t(inBytes);
    m.ioBytes[1] = uint64_t(outBytes);
    m.runs = unsigned(runs);
    run.measurements.push_back(m);
  }
  return true;
}

/// The boundary costs the partitioner charges (docs/device-profiles.md).
struct Boundary {
  double partitionUs = 0, transferFixedUs = 0, transferNsPerByte = 0;
  double transferUs(unsigned tensors, uint64_t bytes) const {
    return transferFixedUs * tensors + double(bytes) * transferNsPerByte * 1e-3;
  }
};

/// From the boundary models (Probes.h): 2 single - chain is one call plus
/// one transfer in and one out at every size, its growth with the bytes the
/// per-byte cost; its value at the smallest size is the fixed part, which
/// two_inputs - single there (one more small input) splits.
bool boundaryOf(const Run &run, Boundary &b, std::string &error) {
  std::vector<double> bytes, callPlusTwo;
  double oneMoreInput = 0;
  for (unsigned size = 0; size < run.sizes; ++size) {
    double us[kNumBoundaryModels] = {-1, -1, -1};
    for (const Measurement &m : run.measurements)
      for (unsigned k = 0; k < kNumBoundaryModels; ++k)
        if (m.operation == "boundary" && m.size == size &&
            m.model == boundaryModelName(BoundaryModel(k))) {
          if (!m.failure.empty()) {
            error = "boundary model " + m.model + " of size " +
                    std::to_string(size) + " did not run on the device: " +
                    m.failure;
            return false;
          }
          us[k] = m.us;
        }
    if (us[0] < 0 || us[1] < 0 || us[2] < 0) {
      error = "no boundary measurements of size " + std::to_string(size);
      return false;
    }
    bytes.push_back(double(boundaryElements(size)) * 4);
    callPlusTwo.push_back(2 * us[0] - us[1]);
    if (size == 0)
      oneMoreInput = us[2] - us[0];
  }
  double slope = fitLine(bytes, callPlusTwo).slope;
  double fixed = std::max(0.0, callPlusTwo[0] - slope * bytes[0]);
  b.transferNsPerByte = slope / 2 * 1000.0;
  b.transferFixedUs =
      std::clamp(oneMoreInput - slope / 2 * bytes[0], 0.0, fixed / 2);
  b.partitionUs = fixed - 2 * b.transferFixedUs;
  return true;
}

std::string costJSON(const profile::CostModel &c) {
  return "{\"fixed_us\": " + formatNumber(c.fixedUs) +
         ", \"ns_per_mac\": " + formatNumber(c.nsPerMac) +
         ", \"ns_per_element\": " + formatNumber(c.nsPerElement) + "}";
}

using Costs =
    std::map<std::string, std::map<profile::DataType, profile::CostModel>>;

/// A cost table: `default` for all three types, then each operation's.
std::string tableJSON(
    const std::array<profile::CostModel, profile::kNumDataTypes> &defaults,
    const Costs &perOperation, const std::vector<std::string> &order) {
  std::string s = "{\n    \"default\": {";
  for (unsigned t = 0; t < profile::kNumDataTypes; ++t)
    s += std::string(t ? ", " : "") + "\"" +
         typeName(profile::DataType(t)) + "\": " + costJSON(defaults[t]);
  s += "}";
  for (const std::string &op : order) {
    auto it = perOperation.find(op);
    if (it == perOperation.end())
      continue;
    s += ",\n    \"" + op + "\": {";
    bool first = true;
    for (auto &[type, cost] : it->second) {
      s += std::string(first ? "" : ", ") + "\"" + typeName(type) +
           "\": " + costJSON(cost);
      first = false;
    }
    s += "}";
  }
  return s + "\n  }";
}

/// Element-wise operations whose samples price operations without a probe.
bool isDefaultSample(const std::string &op) {
  return op == "ADD" || op == "SUB" || op == "MUL" || op == "LOGISTIC" ||
         op == "TANH" || op == "EXP";
}

/// Fits `run` and returns the profile's text (empty with `error`); the fit
/// table goes to `log`.
std::string fitProfile(const Run &run, const std::string &name,
                       llvm::raw_ostream &log, std::string &error) {
  Boundary boundary;
  if (!boundaryOf(run, boundary, error))
    return "";
  log << "boundary: " << formatNumber(boundary.partitionUs)
      << " us per partition call, transfers "
      << formatNumber(boundary.transferFixedUs) << " us + "
      << formatNumber(boundary.transferNsPerByte) << " ns/byte\n";
  // Every one-op host model pays one call of the compiled code, which a
  // whole model pays once: not a cost of the op (0 in samples without it).
  double hostCallUs = 0;
  for (const Measurement &m : run.measurements)
    if (m.operation == "boundary" && m.model == kHostCallRecord &&
        m.failure.empty())
      hostCallUs = m.us;
  log << "host code call: " << formatNumber(hostCallUs) << " us\n";
  // What a measurement says of the op alone: the device's without the
  // partition call and transfers (the partitioner charges them apart), the
  // host's without the call of compiled code.
  auto opAlone = [&](const Measurement &m) {
    double alone = m.side == "host"
                       ? m.us - hostCallUs
                       : m.us - boundary.partitionUs -
                             boundary.transferUs(m.ioCount[0], m.ioBytes[0]) -
                             boundary.transferUs(m.ioCount[1], m.ioBytes[1]);
    return std::max(0.01 * m.us, alone);
  };
  Costs costs[2]; // nnapi, host
  std::array<profile::CostModel, profile::kNumDataTypes> defaults[2];
  log << "fits (fixed us, ns/MAC, ns/element; worst error relative to the "
         "one-op model's latency, over the sizes):\n";
  for (int side = 0; side < 2; ++side) {
    const char *sideName = side == 0 ? "nnapi" : "host";
    for (profile::DataType type : run.types) {
      auto sample = [&](const Measurement &m) {
        return Sample{m.macs, m.elements, opAlone(m), m.us};
      };
      std::vector<Sample> elementwise, all;
      for (const std::string &op : run.operations) {
        std::vector<Sample> samples;
        for (const Measurement &m : run.measurements)
          if (m.operation == op && m.side == sideName && m.type == type &&
              m.failure.empty())
            samples.push_back(sample(m));
        std::optional<CostFit> fit = fitCost(samples);
        if (!fit)
          continue;
        costs[side][op][type] = fit->cost;
        log << llvm::format("  %-5s %-7s %-24s %8.3f %9.4g %9.4g  %3.0f%%\n",
                            sideName, typeName(type), op.c_str(),
                            fit->cost.fixedUs, fit->cost.nsPerMac,
                            fit->cost.nsPerElement,
                            100 * fit->worstRelativeError);
        llvm::append_range(all, samples);
        if (isDefaultSample(op))
          llvm::append_range(elementwise, samples);
      }
      // Operations without a probe are priced like element-wise ones, at the
      // per-MAC cost of FULLY_CONNECTED when it was measured.
      std::optional<CostFit> fit =
          fitCost(elementwise.empty() ? all : elementwise);
      profile::CostModel d = fit ? fit->cost : profile::CostModel{};
      auto fc = costs[side].find("FULLY_CONNECTED");
      if (fc != costs[side].end() && fc->second.count(type))
        d.nsPerMac = fc->second[type].nsPerMac;
      defaults[side][unsigned(type)] = d;
    }
    // Types not measured cost what the first measured one does (the file
    // must price all three; `operations` does not claim them).
    for (unsigned t = 0; t < profile::kNumDataTypes; ++t)
      if (!llvm::is_contained(run.types, profile::DataType(t)))
        defaults[side][t] = defaults[side][unsigned(run.types.front())];
  }

  // What the device runs: every measured type, but for the operations
  // whose probe it failed on some type (one entry each, with the types
  // left).
  auto typeList = [](const std::vector<profile::DataType> &types) {
    std::string list;
    for (profile::DataType type : types)
      list += std::string(list.empty() ? "" : ", ") + "\"" + typeName(type) +
              "\"";
    return "[" + list + "]";
  };
  std::string operations = "{\"*\": " + typeList(run.types);
  for (const std::string &op : run.operations) {
    std::vector<profile::DataType> runs;
    for (profile::DataType type : run.types) {
      auto failed = llvm::find_if(run.measurements, [&](const Measurement &m) {
        return m.operation == op && m.type == type && m.side == "nnapi" &&
               !m.failure.empty();
      });
      if (failed == run.measurements.end())
        runs.push_back(type);
      else
        log << "  " << op << " " << typeName(type)
            << ": the device did not run it: " << failed->failure << "\n";
    }
    if (runs.size() != run.types.size())
      operations += ", \"" + op + "\": " + typeList(runs);
  }
  operations += "}";
  // The ops of --model, by signature, in signature order.
  std::map<std::string, std::pair<std::string, std::string>> units;
  for (const Measurement &m : run.measurements) {
    if (m.operation != kUnitRecord || !m.failure.empty())
      continue;
    std::string &slot = m.side == "host" ? units[m.signature].first
                                         : units[m.signature].second;
    slot = formatNumber(opAlone(m));
  }
  std::string measured;
  for (auto &[signature, times] : units) {
    std::string entry;
    if (!times.first.empty())
      entry += "\"host_us\": " + times.first;
    if (!times.second.empty())
      entry += std::string(entry.empty() ? "" : ", ") +
               "\"device_us\": " + times.second;
    measured += std::string(measured.empty() ? "" : ",\n") + "    " +
                jsonString(signature) + ": {" + entry + "}";
  }
  if (!units.empty())
    log << "measured " << units.size() << " ops of the given models\n";
  std::string json =
      "{\n  \"format\": \"nnapi-mlir-device-profile-1\",\n  \"name\": " +
      jsonString(name) + ",\n  \"description\": " +
      jsonString("Measured by nnapi-profile-device on " + run.date +
                 ": device '" + run.device + "' (" + run.version +
                 ") and the host code on " + run.cpu + ", " +
                 std::to_string(run.sizes) + " sizes per operation.") +
      ",\n  \"feature_level\": " + std::to_string(run.featureLevel) +
      ",\n  \"device_type\": " + jsonString(run.deviceType) +
      ",\n  \"operations\": " + operations + ",\n  \"device_cost\": " +
      tableJSON(defaults[0], costs[0], run.operations) +
      ",\n  \"host_cost\": " +
      tableJSON(defaults[1], costs[1], run.operations) +
      ",\n  \"transfer\": {\"fixed_us\": " +
      formatNumber(boundary.transferFixedUs) +
      ", \"ns_per_byte\": " + formatNumber(boundary.transferNsPerByte) +
      "},\n  \"partition_overhead_us\": " + formatNumber(boundary.partitionUs) +
      (measured.empty() ? "" : ",\n  \"measured\": {\n" + measured + "\n  }") +
      "\n}\n";
  profile::DeviceProfile check;
  if (!profile::parseDeviceProfile(json, check, error)) {
    error = "the profile would not load: " + error;
    return "";
  }
  return json;
}

std::string today() {
  std::time_t now = std::time(nullptr);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
  return text;
}

/// run.sh of an --emit directory: POSIX sh, for Android's shell too.
const char *kRunScript = R"SH(#!/bin/sh
# Times the models nnapi-profile-device --emit wrote into this directory on
# this machine's NNAPI device and host code (docs/device-profiles.md):
#   sh run.sh [nnapi-run flags, e.g. --device NAME]
# with nnapi-run on PATH, or NNAPI_RUN=/path/to/nnapi-run. Writes devices.txt
# (nnapi-run --list-devices) and times.txt, one "FILE MEDIAN_MS" line per
# model ("FILE -" when it did not run: on the NNAPI side, when a partition
# ran its host copy). Then, where nnapi-profile-device is:
#   nnapi-profile-device --from DIR -o PROFILE.json
cd "$(dirname "$0")" || exit 1
run=${NNAPI_RUN:-nnapi-run}
"$run" --list-devices "$@" > devices.txt || exit 1
: > times.txt
while read -r file side; do
  expect=
  [ "$side" = nnapi ] && expect=--expect-nnapi
  ms=
  if out=$("$run" "./$file" --bench 100 --threads 1 $expect "$@" 2>&1); then
    ms=$(printf '%s\n' "$out" |
         sed -n 's/^bench: runs=[0-9]* median_ms=\([0-9.]*\).*/\1/p')
  fi
  echo "$file ${ms:--}" >> times.txt
done < models.txt
echo "wrote $(pwd)/times.txt"
)SH";

/// Reads an --emit directory after run.sh: the plan, times.txt and the
/// device run.sh's nnapi-run chose (devices.txt's "candidate 0").
bool runFromDirectory(const std::string &dir, Run &run, std::string &error) {
  auto read = [&](const std::string &file, std::string &text) {
    auto buffer = llvm::MemoryBuffer::getFile(dir + "/" + file);
    if (!buffer) {
      error = "cannot read " + dir + "/" + file + ": " +
              buffer.getError().message() +
              (file == "plan.json" ? "" : " (run run.sh there first)");
      return false;
    }
    text = (*buffer)->getBuffer().str();
    return true;
  };
  std::string plan, times, devices;
  if (!read("plan.json", plan) || !read("times.txt", times) ||
      !read("devices.txt", devices))
    return false;
  if (!runFromJSON(plan, run, error)) {
    error = dir + "/plan.json: " + error;
    return false;
  }
  // device 0: 'NAME' TYPE feature_level=N version='VERSION' (candidate 0)
  bool found = false;
  llvm::SmallVector<llvm::StringRef> lines;
  llvm::StringRef(devices).split(lines, '\n');
  for (llvm::StringRef line : lines) {
    if (!line.ends_with("(candidate 0)"))
      continue;
    size_t a = line.find('\''), b = line.find('\'', a + 1);
    size_t level = line.find(" feature_level=");
    size_t v = line.find(" version='"), ve = line.rfind("' (");
    if (a == llvm::StringRef::npos || b == llvm::StringRef::npos ||
        level == llvm::StringRef::npos || v == llvm::StringRef::npos ||
        ve == llvm::StringRef::npos || ve < v)
      break;
    run.device = line.substr(a + 1, b - a - 1).str();
    run.deviceType = line.substr(b + 1, level - b - 1).trim().str();
    unsigned n = 0;
    if (line.substr(level + 15).consumeInteger(10, n) || n < 1 || n > 8)
      break;
    run.featureLevel = std::min(run.featureLevel, n);
    run.version = line.substr(v + 10, ve - v - 10).str();
    found = true;
  }
  if (!found) {
    error = dir + "/devices.txt names no device that ran the models "
                  "('(candidate 0)')";
    return false;
  }
  run.cpu = "the machine run.sh ran on";
  std::map<std::string, std::string> medians;
  lines.clear();
  llvm::StringRef(times).split(lines, '\n', -1, false);
  for (llvm::StringRef line : lines) {
    auto [file, ms] = line.trim().split(' ');
    medians[file.str()] = ms.trim().str();
  }
  for (Measurement &m : run.measurements) {
    auto it = medians.find(m.file);
    double ms = 0;
    if (it == medians.end() || it->second == "-" ||
        llvm::StringRef(it->second).getAsDouble(ms) || !(ms > 0)) {
      if (m.side == "host") {
        error = dir + "/times.txt: no time for " + m.file +
                " (the host code must run everywhere)";
        return false;
      }
      m.failure = it == medians.end() ? "not timed" : "did not run on NNAPI";
      continue;
    }
    m.us = std::round(ms * 1e6) / 1000.0;
  }
  return true;
}

/// The runtime's first candidate device; 0, or the exit code after an
/// error.
int chooseDevice(nnapi_rt_device_info &device) {
  if (!libraryFlag.empty())
    nnapi_rt_set_library_path(libraryFlag.c_str());
  // Costs are one thread's: the host code and the host device alike.
  if (nnapi_rt_set_threads(1) != NNAPI_RT_OK)
    return fail(llvm::Twine("cannot set one thread: ") + nnapi_rt_last_error());
  if (!deviceFlag.empty() &&
      nnapi_rt_set_option("devices", deviceFlag.c_str()) != NNAPI_RT_OK)
    return fail(llvm::Twine("--device: ") + nnapi_rt_last_error());
  int32_t count = nnapi_rt_device_count();
  if (count < 0)
    return fail(llvm::Twine("cannot list the NNAPI devices: ") +
                nnapi_rt_last_error());
  bool found = false;
  std::string known;
  for (int32_t i = 0; i < count; ++i) {
    nnapi_rt_device_info info;
    if (nnapi_rt_get_device_info(i, &info) != NNAPI_RT_OK)
      continue;
    known += std::string(known.empty() ? "" : ", ") + info.name;
    if (info.preference == 0) {
      device = info;
      found = true;
    }
  }
  if (!found)
    return fail("no NNAPI device to measure" +
                (deviceFlag.empty() ? std::string()
                                    : " matches --device '" + deviceFlag + "'") +
                " (devices: " + (known.empty() ? "none" : known) + ")");
  return 0;
}

/// One op of a --model, alone.
struct UnitModel {
  std::string signature, text;
};

/// Collects, before nnapi-partition runs, one model per distinct signature
/// of the ops it will place: the IR the partitioner prices, so the
/// signatures are the ones it will look up.
class UnitCollector : public PassInstrumentation {
public:
  UnitCollector(std::vector<UnitModel> &units, std::set<std::string> &seen)
      : units(units), seen(seen) {}
  void runBeforePass(Pass *pass, Operation *anchor) override {
    if (pass->getArgument() != "nnapi-partition")
      return;
    std::lock_guard<std::mutex> lock(mutex);
    anchor->walk([&](func::FuncOp f) {
      if (f.isExternal())
        return;
      for (Operation &op : f.getBody().front().without_terminator()) {
        if (matchPattern(&op, m_Constant()))
          continue;
        std::string signature = nnapi::unitSignature(&op);
        if (!seen.insert(signature).second)
          continue;
        OwningOpRef<ModuleOp> model =
            nnapi::extractUnitModel(&op, kUnitName);
        if (!model)
          continue;
        std::string text;
        llvm::raw_string_ostream os(text);
        model->print(os, OpPrintingFlags().enableDebugInfo());
        units.push_back({signature, text});
      }
    });
  }
  /// The name the placement override forces the extracted op by.
  static constexpr const char *kUnitName = "profiled-op";

private:
  std::vector<UnitModel> &units;
  std::set<std::string> &seen;
  std::mutex mutex;
};

/// The ops of the model at `path` not yet in `seen`, one model each.
bool collectUnits(MLIRContext &context, const std::string &path,
                  unsigned featureLevel, std::vector<UnitModel> &units,
                  std::set<std::string> &seen, std::string &error) {
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error)
      diagStream << "\n  " << d.str();
    return success();
  });
  auto module = nnapi::loadModelFile(path, &context);
  if (!module) {
    error = llvm::toString(module.takeError()) + diagnostics;
    return false;
  }
  nnapi::CompilePipelineOptions options;
  options.featureLevel = featureLevel;
  std::string sink;
  nnapi::CompileOutput output;
  output.emit = nnapi::EmitKind::MLIR;
  output.buffer = &sink;
  output.configurePassManager = [&](PassManager &pm, llvm::StringRef stage) {
    if (stage == "partition")
      pm.addInstrumentation(std::make_unique<UnitCollector>(units, seen));
    return success();
  };
  if (llvm::Error err = nnapi::compileModule(**module, options, output)) {
    error = llvm::toString(std::move(err)) + diagnostics;
    return false;
  }
  return true;
}

/// Compiles the boundary models and every chosen probe on both sides and,
/// unless `emitDir` is given, times them here on the runtime's first device
/// and on the host code. With `emitDir`, the models (for --mtriple) stay
/// there with the plan and run.sh, for timing on another machine. 0, or
/// the exit code after an error.
int measure(const std::vector<const Probe *> &chosen,
            const std::vector<profile::DataType> &types,
            const std::string &emitDir, Run &run) {
  bool timeHere = emitDir.empty();
  nnapi_rt_device_info device{};
  unsigned featureLevel = featureLevelFlag;
  if (timeHere) {
    if (int rc = chooseDevice(device))
      return rc;
    featureLevel = unsigned(std::max(1, std::min(8, device.featureLevel)));
    run.device = device.name;
    run.version = device.version;
    run.deviceType = nnapi_rt_device_type_name(device.type);
    run.cpu = cpuModelName();
    llvm::errs() << "measuring device '" << device.name << "' ("
                 << run.deviceType << ", feature level " << featureLevel
                 << ") and the host code on " << run.cpu << "\n";
  }
  run.featureLevel = featureLevel;
  run.date = today();
  run.sizes = sizesFlag;
  run.types = types;
  for (const Probe *p : chosen)
    run.operations.push_back(p->operation);

  llvm::SmallString<128> dir(emitDir);
  if (timeHere) {
    if (std::error_code ec =
            llvm::sys::fs::createUniqueDirectory("nnapi-profile", dir))
      return fail("cannot create a temporary directory: " + ec.message());
  } else if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
    return fail("cannot create " + emitDir + ": " + ec.message());
  }
  auto cleanup = llvm::make_scope_exit([&] {
    if (timeHere)
      llvm::sys::fs::remove_directories(dir);
  });
  nnapi::CompileOutput target;
  target.triple = mtriple;
  target.cpu = mcpu;
  target.features = mattr;

  DialectRegistry registry;
  nnapi::registerCompilerDialects(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  Profiler profiler(context, dir.str().str());
  std::string error;
  // Compiles `text` as `name` (forced onto NNAPI by `force`, host-only when
  // empty) and, measuring here, times it; a run that fails is recorded in
  // m.failure. False with `error` if it did not compile.
  auto measureSide = [&](const std::string &text, const std::string &name,
                         const std::string &force, Measurement &m) {
    std::string path =
        profiler.compile(text, name, force, featureLevel, target, m, error);
    if (path.empty())
      return false;
    if (timeHere && !profiler.time(path, !force.empty(), m, error))
      m.failure = error;
    return true;
  };

  // The ops of the given models first: a model that does not compile is
  // refused before anything is measured.
  std::set<std::string> seen;
  std::vector<std::vector<UnitModel>> unitsOf(modelsFlag.size());
  for (size_t i = 0; i < modelsFlag.size(); ++i)
    if (!collectUnits(context, modelsFlag[i], featureLevel, unitsOf[i], seen,
                      error))
      return fail("--model " + modelsFlag[i] + ": " + error);

  // 1. The boundary models, on the device alone: it must run them.
  for (unsigned size = 0; size < sizesFlag; ++size)
    for (unsigned k = 0; k < kNumBoundaryModels; ++k) {
      Measurement m;
      m.operation = "boundary";
      m.size = size;
      m.side = "nnapi";
      m.model = boundaryModelName(BoundaryModel(k));
      std::string name = "boundary-" + m.model + "-" + std::to_string(size);
      std::string path =
          profiler.compile(boundaryModel(BoundaryModel(k), size), name, "ADD",
                           featureLevel, target, m, error);
      if (path.empty() || (timeHere && !profiler.time(path, true, m, error)))
        return fail("boundary model " + name + ": " + error);
      run.measurements.push_back(m);
    }

  // The host code's call, which the fit takes out of every host sample.
  {
    Measurement m;
    m.operation = "boundary";
    m.side = "host";
    m.model = kHostCallRecord;
    std::string path = profiler.compile(hostCallModel(), "host-call", "",
                                        featureLevel, target, m, error);
    if (path.empty() || (timeHere && !profiler.time(path, false, m, error)))
      return fail("host call model: " + error);
    run.measurements.push_back(m);
  }

  // 2. Every probe, on both sides. A device that does not run an operation
  // is a finding (the profile says so), not an error.
  for (const Probe *p : chosen) {
    for (profile::DataType type : types) {
      for (unsigned size = 0; size < sizesFlag; ++size) {
        std::string text = probeModel(*p, size, type);
        std::string base = std::string(p->operation) + "-" + typeName(type) +
                           "-" + std::to_string(size);
        Measurement device;
        device.operation = p->operation;
        device.type = type;
        device.size = size;
        device.side = "nnapi";
        if (!measureSide(text, base + "-nnapi", p->operation, device))
          return fail(base + " on NNAPI: " + error);
        Measurement host = device;
        host.side = "host";
        host.failure.clear();
        if (!measureSide(text, base + "-host", "", host) ||
            !host.failure.empty())
          return fail(base + " on the host: " + error);
        run.measurements.push_back(device);
        run.measurements.push_back(host);
      }
    }
    llvm::errs() << (timeHere ? "measured " : "compiled ") << p->operation
                 << "\n";
  }
  // 3. Every op of the given models at its own shapes, on both sides; what
  // does not compile or run on a side is recorded, not fatal.
  for (size_t k = 0; k < modelsFlag.size(); ++k) {
    const std::string &modelPath = modelsFlag[k];
    const std::vector<UnitModel> &units = unitsOf[k];
    unsigned failures = 0;
    for (size_t i = 0; i < units.size(); ++i) {
      const UnitModel &u = units[i];
      std::string base = "unit-" + std::to_string(run.measurements.size());
      Measurement device;
      device.operation = kUnitRecord;
      device.signature = u.signature;
      device.side = "nnapi";
      if (!measureSide(u.text, base + "-nnapi", UnitCollector::kUnitName,
                       device))
        device.failure = error;
      Measurement host = device;
      host.side = "host";
      host.failure.clear();
      if (!measureSide(u.text, base + "-host", "", host))
        host.failure = error;
      failures += !host.failure.empty();
      run.measurements.push_back(device);
      run.measurements.push_back(host);
    }
    llvm::errs() << (timeHere ? "measured " : "compiled ") << units.size()
                 << " distinct ops of " << modelPath;
    if (failures)
      llvm::errs() << " (" << failures << " not on the host)";
    llvm::errs() << "\n";
  }
  if (timeHere)
    return 0;

  // The plan, the list run.sh walks, and run.sh.
  auto write = [&](const std::string &file, const std::string &text) {
    std::error_code ec;
    llvm::raw_fd_ostream os(emitDir + "/" + file, ec);
    if (!ec)
      os << text;
    if (ec || os.has_error()) {
      error = "cannot write " + emitDir + "/" + file;
      return false;
    }
    return true;
  };
  std::string models;
  for (const Measurement &m : run.measurements)
    models += m.file + " " + m.side + "\n";
  if (!write("plan.json", runToJSON(run)) || !write("models.txt", models) ||
      !write("run.sh", kRunScript))
    return fail(error);
  llvm::sys::fs::setPermissions(emitDir + "/run.sh",
                                llvm::sys::fs::perms(0755));
  llvm::outs() << "wrote " << run.measurements.size() << " models, "
               << emitDir << "/plan.json and " << emitDir
               << "/run.sh (docs/device-profiles.md: on a phone)\n";
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "nnapi-mlir device profiler: measures an NNAPI device and the host "
      "code, writes a device profile\n");

  // Arguments, all checked before anything is measured.
  // (cl::list overloads &: std::addressof.)
  if (!emitDir.empty() && !fromFile.empty())
    return fail("--emit compiles, --from fits: one at a time");
  if (emitDir.empty())
    for (cl::Option *o : {static_cast<cl::Option *>(&mtriple),
                          static_cast<cl::Option *>(&mcpu),
                          static_cast<cl::Option *>(&mattr),
                          static_cast<cl::Option *>(&featureLevelFlag)})
      if (o->getNumOccurrences())
        return fail("--" + o->ArgStr + " goes with --emit");
  if (featureLevelFlag < 1 || featureLevelFlag > 8)
    return fail("--feature-level must be 1 to 8, got " +
                llvm::Twine(unsigned(featureLevelFlag)));
  cl::Option *measuring[] = {
      std::addressof(opsFlag),    std::addressof(typesFlag),
      std::addressof(sizesFlag),  std::addressof(minTimeMs),
      std::addressof(deviceFlag), std::addressof(libraryFlag),
      std::addressof(samplesFile), std::addressof(listFlag),
      std::addressof(modelsFlag)};
  if (!fromFile.empty())
    for (cl::Option *o : measuring)
      if (o->getNumOccurrences())
        return fail("--" + o->ArgStr + " is for measuring; --from refits");
  std::vector<const Probe *> chosen;
  for (const std::string &op : opsFlag) {
    if (nnapi_mlir::operationCode(op) < 0)
      return fail("--ops: '" + op + "' is not an NNAPI operation");
    auto it = llvm::find_if(probes(), [&](const Probe &p) {
      return op == p.operation;
    });
    if (it == probes().end())
      return fail("--ops: no probe measures " + op +
                  " (nnapi-profile-device --list shows the ones that exist)");
    if (!llvm::is_contained(chosen, &*it))
      chosen.push_back(&*it);
  }
  if (opsFlag.empty())
    for (const Probe &p : probes())
      chosen.push_back(&p);
  // Table order, whatever the order given.
  llvm::sort(chosen, [](const Probe *a, const Probe *b) { return a < b; });
  std::vector<profile::DataType> types;
  for (const std::string &t : typesFlag) {
    profile::DataType type;
    if (t == "float32")
      type = profile::DataType::Float32;
    else if (t == "float16")
      type = profile::DataType::Float16;
    else if (t == "int8")
      return fail("--types: int8 has no probes yet (quantized models are not "
                  "compiled yet)");
    else
      return fail("--types: unknown type '" + t +
                  "' (float32 or float16)");
    if (!llvm::is_contained(types, type))
      types.push_back(type);
  }
  if (types.empty())
    types = {profile::DataType::Float32, profile::DataType::Float16};
  llvm::sort(types);
  if (sizesFlag < 1 || sizesFlag > kNumSizes)
    return fail("--sizes must be 1 to " + llvm::Twine(kNumSizes) + ", got " +
                llvm::Twine(unsigned(sizesFlag)));
  if (!(minTimeMs >= 0.01 && minTimeMs <= 10000))
    return fail("--min-time-ms must be 0.01 to 10000, got " +
                formatNumber(minTimeMs));
  if (nameFlag.getNumOccurrences() &&
      (nameFlag.empty() || nameFlag.size() > 64))
    return fail("--name must be 1 to 64 characters");

  if (listFlag) {
    for (const Probe *p : chosen)
      for (profile::DataType type : types)
        for (unsigned size = 0; size < sizesFlag; ++size) {
          std::string text = probeModel(*p, size, type);
          llvm::outs() << p->operation << " " << typeName(type) << " size "
                       << size << ": "
                       << llvm::StringRef(text).split('\n').first << "\n";
        }
    for (unsigned size = 0; size < sizesFlag; ++size)
      llvm::outs() << "boundary float32 size " << size << ": "
                   << boundaryElements(size) << " elements\n";
    return 0;
  }
  if (!emitDir.empty()) {
    if (!outputFile.empty() || !samplesFile.empty())
      return fail("--emit writes no profile: fit with --from after run.sh");
    Run run;
    return measure(chosen, types, emitDir, run);
  }
  if (outputFile.empty())
    return fail("no output profile (-o PROFILE.json)");

  // Open the outputs first: a long measurement must not end in a path error.
  std::error_code ec;
  llvm::ToolOutputFile out(outputFile, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return fail("cannot write " + outputFile + ": " + ec.message());
  std::unique_ptr<llvm::ToolOutputFile> samplesOut;
  if (!samplesFile.empty()) {
    samplesOut = std::make_unique<llvm::ToolOutputFile>(
        samplesFile, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return fail("cannot write " + samplesFile + ": " + ec.message());
  }

  Run run;
  std::string error;
  if (!fromFile.empty() && llvm::sys::fs::is_directory(fromFile)) {
    if (!runFromDirectory(fromFile, run, error))
      return fail(error);
  } else if (!fromFile.empty()) {
    auto buffer = llvm::MemoryBuffer::getFile(fromFile);
    if (!buffer)
      return fail("cannot read " + fromFile + ": " +
                  buffer.getError().message());
    if (!runFromJSON((*buffer)->getBuffer(), run, error))
      return fail(fromFile + ": " + error);
  } else if (int rc = measure(chosen, types, "", run)) {
    return rc;
  }

  std::string name = nameFlag.empty() ? run.device.substr(0, 64) : nameFlag;
  std::string json = fitProfile(run, name, llvm::outs(), error);
  if (json.empty())
    return fail(error);
  out.os() << json;
  out.keep();
  if (samplesOut) {
    samplesOut->os() << runToJSON(run);
    samplesOut->keep();
  }
  llvm::outs() << "wrote " << outputFile << "\n";
  return 0;
}
