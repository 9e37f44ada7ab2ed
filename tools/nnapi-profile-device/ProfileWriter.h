//===- ProfileWriter.h - A device profile fitted to a run -------*- C++ -*-===//
//
// From the medians of a run (RunFile.h): the partition boundary's costs, the
// cost model of every operation and type on each side (Fit.h), the
// operations the device did not run and the ops of --model by signature;
// written as a device profile (docs/device-profiles.md) that the compiler
// loads.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_TOOLS_PROFILE_DEVICE_PROFILEWRITER_H
#define NNAPI_MLIR_TOOLS_PROFILE_DEVICE_PROFILEWRITER_H

#include "RunFile.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

namespace nnapi_mlir::profiling {

/// Fits `run` and returns the profile's text (empty with `error`); the fit
/// table goes to `log`.
std::string fitProfile(const Run &run, const std::string &name,
                       llvm::raw_ostream &log, std::string &error);

} // namespace nnapi_mlir::profiling

#endif // NNAPI_MLIR_TOOLS_PROFILE_DEVICE_PROFILEWRITER_H
