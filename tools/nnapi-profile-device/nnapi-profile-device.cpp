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
//      replace the fits for exactly those ops;
//   5. the largest size of every probe again at N threads (--scaling-threads,
//      default the CPUs available): per side, the parallel fraction that
//      scales the one-thread costs to the thread count a model is placed
//      for (the profile's thread_scaling, nnapi-compile
//      --placement-threads).
//
//   nnapi-profile-device -o PROFILE.json [--ops A,B] [--types float32]
//                        [--sizes N] [--min-time-ms T] [--device SPEC]
//                        [--scaling-threads N]
//                        [--nnapi-library PATH] [--name NAME]
//                        [--samples FILE.json] [--model MODEL]... [--list]
//   nnapi-profile-device --from SAMPLES.json|DIR -o PROFILE.json
//   nnapi-profile-device --emit DIR [--mtriple T] [--feature-level N] ...
//
// --samples keeps the measurements and --from refits them; --emit compiles
// the models for another machine (a phone) with a run.sh that times them
// there, and --from DIR fits what it measured.
//
// This file holds the options and their checks. Measuring is Measure.h
// (compiling and timing one model: Profiler.h), the run and its samples
// file RunFile.h, the --emit directory EmitDirectory.h, the fit and the
// profile ProfileWriter.h.
//
// The device is the runtime's first candidate (--device chooses, as
// nnapi-run's does); on Linux that is the host NNAPI device. Everything but
// the numbers (the operations, types, sizes and keys, in a fixed order)
// depends on the arguments alone.
//
//===----------------------------------------------------------------------===//

#include "EmitDirectory.h"
#include "Measure.h"
#include "ProfileDevice.h"
#include "ProfileWriter.h"
#include "Probes.h"
#include "RunFile.h"

#include "nnapi-mlir/NNAPI/Operations.h"
#include "nnapi-mlir/Support/CPUs.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

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
static cl::opt<unsigned> scalingThreads(
    "scaling-threads", cl::init(0), cl::value_desc("N"),
    cl::desc("Time the largest size of every probe again at N threads, on "
             "both sides, for the profile's thread_scaling (0, the default: "
             "the CPUs this process may run on, if more than 1; 1: not)"),
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

/// The modes' arguments: --emit and --from alone, the target options only
/// with --emit, the measuring ones not with --from. 0, or the exit code
/// after an error.
int checkModes() {
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
      std::addressof(scalingThreads),
      std::addressof(deviceFlag), std::addressof(libraryFlag),
      std::addressof(samplesFile), std::addressof(listFlag),
      std::addressof(modelsFlag)};
  if (!fromFile.empty())
    for (cl::Option *o : measuring)
      if (o->getNumOccurrences())
        return fail("--" + o->ArgStr + " is for measuring; --from refits");
  return 0;
}

/// The probes of --ops (default: all), in the table's order. 0, or the exit
/// code after an error.
int chooseProbes(std::vector<const Probe *> &chosen) {
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
  return 0;
}

/// The types of --types (default: float32 and float16), sorted. 0, or the
/// exit code after an error.
int chooseTypes(std::vector<profile::DataType> &types) {
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
  return 0;
}

/// --sizes, --min-time-ms and --name. 0, or the exit code after an error.
int checkRanges() {
  if (sizesFlag < 1 || sizesFlag > kNumSizes)
    return fail("--sizes must be 1 to " + llvm::Twine(kNumSizes) + ", got " +
                llvm::Twine(unsigned(sizesFlag)));
  if (!(minTimeMs >= 0.01 && minTimeMs <= 10000))
    return fail("--min-time-ms must be 0.01 to 10000, got " +
                formatNumber(minTimeMs));
  if (scalingThreads > kMaxThreads)
    return fail("--scaling-threads must be 0 to " + llvm::Twine(kMaxThreads) +
                ", got " + llvm::Twine(unsigned(scalingThreads)));
  if (nameFlag.getNumOccurrences() &&
      (nameFlag.empty() || nameFlag.size() > 64))
    return fail("--name must be 1 to 64 characters");
  return 0;
}

/// --list: the models that would be measured.
void listModels(const std::vector<const Probe *> &chosen,
                const std::vector<profile::DataType> &types) {
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
}

/// What the options say about measuring.
MeasureOptions measureOptions() {
  MeasureOptions options;
  options.library = libraryFlag;
  options.devices = deviceFlag;
  options.sizes = sizesFlag;
  options.minTimeMs = minTimeMs;
  options.scalingThreads =
      scalingThreads ? unsigned(scalingThreads) : availableCPUs();
  options.featureLevel = featureLevelFlag;
  options.triple = mtriple;
  options.cpu = mcpu;
  options.features = mattr;
  options.models.assign(modelsFlag.begin(), modelsFlag.end());
  options.emitDir = emitDir;
  return options;
}

/// The run to fit: read back (--from a samples file or an --emit
/// directory) or measured here. 0, or the exit code after an error.
int obtainRun(const std::vector<const Probe *> &chosen,
              const std::vector<profile::DataType> &types, Run &run) {
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
  } else if (int rc = measure(chosen, types, measureOptions(), run)) {
    return rc;
  }
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
  std::vector<const Probe *> chosen;
  std::vector<profile::DataType> types;
  if (int rc = checkModes())
    return rc;
  if (int rc = chooseProbes(chosen))
    return rc;
  if (int rc = chooseTypes(types))
    return rc;
  if (int rc = checkRanges())
    return rc;

  if (listFlag) {
    listModels(chosen, types);
    return 0;
  }
  if (!emitDir.empty()) {
    if (!outputFile.empty() || !samplesFile.empty())
      return fail("--emit writes no profile: fit with --from after run.sh");
    Run run;
    return measure(chosen, types, measureOptions(), run);
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
  if (int rc = obtainRun(chosen, types, run))
    return rc;

  std::string error;
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
