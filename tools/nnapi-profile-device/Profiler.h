//===- Profiler.h - Compile a model and time it -----------------*- C++ -*-===//
//
// nnapi-profile-device's two actions on one model: compile it in process
// (the compiler library), forced onto NNAPI or host-only, checking that the
// placement did what was asked; and time it here through the runtime's
// model API (Model.h).
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_TOOLS_PROFILE_DEVICE_PROFILER_H
#define NNAPI_MLIR_TOOLS_PROFILE_DEVICE_PROFILER_H

#include "RunFile.h"

#include "nnapi-mlir/Compiler/Compiler.h"
#include "nnapi-mlir/Runtime/Model.h"

#include "mlir/IR/MLIRContext.h"

#include <random>
#include <string>
#include <utility>

namespace nnapi_mlir::profiling {

/// Compiles models into a directory and times them through the runtime.
class Profiler {
public:
  /// Models go to `dir`; time() runs each for at least `minTimeMs`.
  Profiler(mlir::MLIRContext &context, std::string dir, double minTimeMs)
      : context(context), dir(std::move(dir)), minTimeMs(minTimeMs) {}

  /// Compiles `text` to `name`.so for the target of `output` (`name` in
  /// messages) and records its inputs and outputs in `m`. With
  /// `forceOperation`, every op of that NNAPI operation is forced onto NNAPI
  /// and the placement must have put the whole model into one partition;
  /// the report's work for the op goes to `m` too. Empty path on failure
  /// (`error`).
  std::string compile(const std::string &text, const std::string &name,
                      const std::string &forceOperation, unsigned featureLevel,
                      const mlir::nnapi::CompileOutput &target, Measurement &m,
                      std::string &error);

  /// The directory the models are compiled into.
  const std::string &directory() const { return dir; }

  /// Opens and times the model at `path`: two warm-up runs, then runs until
  /// `minTimeMs` have passed (at least 5), each timed; the median. With
  /// `expectNNAPI`, every partition must have run on NNAPI.
  bool time(const std::string &path, bool expectNNAPI, Measurement &m,
            std::string &error);

private:
  /// Random inputs: floats in [0.1, 1) (positive for log, pow and sqrt),
  /// booleans 0 or 1, integers 0.
  void randomData(const nnapi_rt_tensor_info &info, uint8_t *data);

  /// False (with the reason) when a partition ran its host copy.
  bool ranOnNNAPI(std::string &error);

  mlir::MLIRContext &context;
  std::string dir;
  double minTimeMs;
  std::mt19937 rng{5};
};

} // namespace nnapi_mlir::profiling

#endif // NNAPI_MLIR_TOOLS_PROFILE_DEVICE_PROFILER_H
