//===- Measure.cpp - Measure a device and the host code -------------------===//

#include "Measure.h"

#include "EmitDirectory.h"
#include "ProfileDevice.h"
#include "Profiler.h"

#include "nnapi-mlir/Compiler/Compiler.h"
#include "nnapi-mlir/Partition/CostModel.h"
#include "nnapi-mlir/Pipelines/Registration.h"
#include "nnapi-mlir/Runtime/Runtime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <ctime>
#include <fstream>
#include <mutex>
#include <set>

using namespace mlir;

namespace nnapi_mlir::profiling {

namespace {

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

std::string today() {
  std::time_t now = std::time(nullptr);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
  return text;
}

/// The runtime's first candidate device; 0, or the exit code after an
/// error.
int chooseDevice(const MeasureOptions &options, nnapi_rt_device_info &device) {
  if (!options.library.empty())
    nnapi_rt_set_library_path(options.library.c_str());
  // Costs are one thread's: the host code and the host device alike.
  if (nnapi_rt_set_threads(1) != NNAPI_RT_OK)
    return fail(llvm::Twine("cannot set one thread: ") + nnapi_rt_last_error());
  if (!options.devices.empty() &&
      nnapi_rt_set_option("devices", options.devices.c_str()) != NNAPI_RT_OK)
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
                (options.devices.empty()
                     ? std::string()
                     : " matches --device '" + options.devices + "'") +
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

/// What every step of measuring shares.
struct Session {
  Profiler &profiler;
  unsigned featureLevel;
  const nnapi::CompileOutput &target;
  bool timeHere; ///< False with --emit: compiled, not timed.
  std::string error;

  /// Compiles `text` as `name` (forced onto NNAPI by `force`, host-only when
  /// empty) and, measuring here, times it; a run that fails is recorded in
  /// m.failure. False with `error` if it did not compile.
  bool measureSide(const std::string &text, const std::string &name,
                   const std::string &force, Measurement &m) {
    std::string path =
        profiler.compile(text, name, force, featureLevel, target, m, error);
    if (path.empty())
      return false;
    if (timeHere && !profiler.time(path, !force.empty(), m, error))
      m.failure = error;
    return true;
  }
};

/// The boundary models at every size, on the device alone (it must run
/// them), and the host code's call. 0, or the exit code after an error.
int measureBoundaries(Session &s, unsigned sizes, Run &run) {
  for (unsigned size = 0; size < sizes; ++size)
    for (unsigned k = 0; k < kNumBoundaryModels; ++k) {
      Measurement m;
      m.operation = "boundary";
      m.size = size;
      m.side = "nnapi";
      m.model = boundaryModelName(BoundaryModel(k));
      std::string name = "boundary-" + m.model + "-" + std::to_string(size);
      std::string path = s.profiler.compile(
          boundaryModel(BoundaryModel(k), size), name, "ADD", s.featureLevel,
          s.target, m, s.error);
      if (path.empty() ||
          (s.timeHere && !s.profiler.time(path, true, m, s.error)))
        return fail("boundary model " + name + ": " + s.error);
      run.measurements.push_back(m);
    }

  // The host code's call, which the fit takes out of every host sample.
  {
    Measurement m;
    m.operation = "boundary";
    m.side = "host";
    m.model = kHostCallRecord;
    std::string path = s.profiler.compile(hostCallModel(), "host-call", "",
                                          s.featureLevel, s.target, m, s.error);
    if (path.empty() ||
        (s.timeHere && !s.profiler.time(path, false, m, s.error)))
      return fail("host call model: " + s.error);
    run.measurements.push_back(m);
  }
  return 0;
}

/// Every probe of `chosen`, at every type and size, on both sides. A device
/// that does not run an operation is a finding (the profile says so), not
/// an error. 0, or the exit code after an error.
int measureProbes(Session &s, const std::vector<const Probe *> &chosen,
                  const std::vector<profile::DataType> &types, unsigned sizes,
                  Run &run) {
  for (const Probe *p : chosen) {
    for (profile::DataType type : types) {
      for (unsigned size = 0; size < sizes; ++size) {
        std::string text = probeModel(*p, size, type);
        std::string base = std::string(p->operation) + "-" + typeName(type) +
                           "-" + std::to_string(size);
        Measurement device;
        device.operation = p->operation;
        device.type = type;
        device.size = size;
        device.side = "nnapi";
        if (!s.measureSide(text, base + "-nnapi", p->operation, device))
          return fail(base + " on NNAPI: " + s.error);
        Measurement host = device;
        host.side = "host";
        host.failure.clear();
        if (!s.measureSide(text, base + "-host", "", host) ||
            !host.failure.empty())
          return fail(base + " on the host: " + s.error);
        run.measurements.push_back(device);
        run.measurements.push_back(host);
      }
    }
    llvm::errs() << (s.timeHere ? "measured " : "compiled ") << p->operation
                 << "\n";
  }
  return 0;
}

/// The largest size of every probe measured, on both sides, timed again
/// with the runtime at `threads` threads: the records the profile's
/// thread_scaling is fitted from. 0, or the exit code after an error.
int measureScaling(Session &s, unsigned threads, Run &run) {
  if (nnapi_rt_set_option("threads_force", "1") != NNAPI_RT_OK ||
      nnapi_rt_set_threads(int32_t(threads)) != NNAPI_RT_OK)
    return fail(llvm::Twine("cannot set ") + llvm::Twine(threads) +
                " threads: " + nnapi_rt_last_error());
  size_t measured = run.measurements.size();
  for (size_t i = 0; i < measured; ++i) {
    const Measurement &one = run.measurements[i];
    if (one.operation == "boundary" || one.operation == kUnitRecord ||
        one.size + 1 != run.sizes || !one.failure.empty())
      continue;
    Measurement m = one;
    m.threads = threads;
    if (!s.profiler.time(s.profiler.directory() + "/" + one.file,
                         one.side == "nnapi", m, s.error))
      m.failure = s.error;
    run.measurements.push_back(m);
  }
  llvm::errs() << "measured " << run.measurements.size() - measured
               << " models again at " << threads << " threads\n";
  if (nnapi_rt_set_threads(1) != NNAPI_RT_OK ||
      nnapi_rt_set_option("threads_force", nullptr) != NNAPI_RT_OK)
    return fail(llvm::Twine("cannot set one thread: ") + nnapi_rt_last_error());
  return 0;
}

/// Every op of the given models (`unitsOf` each) at its own shapes, on both
/// sides; what does not compile or run on a side is recorded, not fatal.
void measureUnits(Session &s, const std::vector<std::string> &models,
                  const std::vector<std::vector<UnitModel>> &unitsOf,
                  Run &run) {
  for (size_t k = 0; k < models.size(); ++k) {
    const std::string &modelPath = models[k];
    const std::vector<UnitModel> &units = unitsOf[k];
    unsigned failures = 0;
    for (size_t i = 0; i < units.size(); ++i) {
      const UnitModel &u = units[i];
      std::string base = "unit-" + std::to_string(run.measurements.size());
      Measurement device;
      device.operation = kUnitRecord;
      device.signature = u.signature;
      device.side = "nnapi";
      if (!s.measureSide(u.text, base + "-nnapi", UnitCollector::kUnitName,
                         device))
        device.failure = s.error;
      Measurement host = device;
      host.side = "host";
      host.failure.clear();
      if (!s.measureSide(u.text, base + "-host", "", host))
        host.failure = s.error;
      failures += !host.failure.empty();
      run.measurements.push_back(device);
      run.measurements.push_back(host);
    }
    llvm::errs() << (s.timeHere ? "measured " : "compiled ") << units.size()
                 << " distinct ops of " << modelPath;
    if (failures)
      llvm::errs() << " (" << failures << " not on the host)";
    llvm::errs() << "\n";
  }
}

} // namespace

int measure(const std::vector<const Probe *> &chosen,
            const std::vector<profile::DataType> &types,
            const MeasureOptions &options, Run &run) {
  const std::string &emitDir = options.emitDir;
  bool timeHere = emitDir.empty();
  nnapi_rt_device_info device{};
  unsigned featureLevel = options.featureLevel;
  if (timeHere) {
    if (int rc = chooseDevice(options, device))
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
  run.sizes = options.sizes;
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
  target.triple = options.triple;
  target.cpu = options.cpu;
  target.features = options.features;

  DialectRegistry registry;
  nnapi::registerCompilerDialects(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  Profiler profiler(context, dir.str().str(), options.minTimeMs);
  Session session{profiler, featureLevel, target, timeHere};

  // The ops of the given models first: a model that does not compile is
  // refused before anything is measured.
  const std::vector<std::string> &models = options.models;
  std::set<std::string> seen;
  std::vector<std::vector<UnitModel>> unitsOf(models.size());
  for (size_t i = 0; i < models.size(); ++i)
    if (!collectUnits(context, models[i], featureLevel, unitsOf[i], seen,
                      session.error))
      return fail("--model " + models[i] + ": " + session.error);

  if (int rc = measureBoundaries(session, options.sizes, run))
    return rc;
  if (int rc = measureProbes(session, chosen, types, options.sizes, run))
    return rc;
  measureUnits(session, models, unitsOf, run);
  if (timeHere && options.scalingThreads > 1)
    if (int rc = measureScaling(session, options.scalingThreads, run))
      return rc;
  if (timeHere)
    return 0;

  if (!writeEmitDirectory(emitDir, run, session.error))
    return fail(session.error);
  llvm::outs() << "wrote " << run.measurements.size() << " models, "
               << emitDir << "/plan.json and " << emitDir
               << "/run.sh (docs/device-profiles.md: on a phone)\n";
  return 0;
}

} // namespace nnapi_mlir::profiling
