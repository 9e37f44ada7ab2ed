//===- Measure.h - Measure a device and the host code -----------*- C++ -*-===//
//
// The measuring half of nnapi-profile-device: the runtime's first candidate
// device chosen, the boundary models, every chosen probe and every op of the
// given models compiled on both sides (Probes.h, Profiler.h) and, unless
// they are emitted for another machine (EmitDirectory.h), timed here.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_TOOLS_PROFILE_DEVICE_MEASURE_H
#define NNAPI_MLIR_TOOLS_PROFILE_DEVICE_MEASURE_H

#include "Probes.h"
#include "RunFile.h"

#include <string>
#include <vector>

namespace nnapi_mlir::profiling {

/// What the command line says about measuring.
struct MeasureOptions {
  std::string library; ///< The NNAPI library to load ("": the default).
  std::string devices; ///< The runtime's "devices" option ("": unset).
  unsigned sizes = kNumSizes; ///< Sizes per probe, smallest first.
  double minTimeMs = 20;      ///< How long each model is timed at least.
  /// The largest size of every probe is timed again at this many threads
  /// (the profile's thread_scaling); 1: not.
  unsigned scalingThreads = 1;
  /// The feature level the models may use when they are emitted (measuring
  /// here takes the device's).
  unsigned featureLevel = 7;
  std::string triple, cpu, features; ///< The target of emitted models.
  std::vector<std::string> models;   ///< --model: ops measured at their shapes.
  /// Compile the models into this directory with run.sh instead of timing
  /// them here ("": time them here).
  std::string emitDir;
};

/// Compiles the boundary models and every chosen probe on both sides and,
/// unless `options.emitDir` is given, times them here on the runtime's first
/// device and on the host code. With `emitDir`, the models (for its target)
/// stay there with the plan and run.sh, for timing on another machine. 0,
/// or the exit code after an error.
int measure(const std::vector<const Probe *> &chosen,
            const std::vector<profile::DataType> &types,
            const MeasureOptions &options, Run &run);

} // namespace nnapi_mlir::profiling

#endif // NNAPI_MLIR_TOOLS_PROFILE_DEVICE_MEASURE_H
