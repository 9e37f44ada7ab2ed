//===- EmitDirectory.h - Models timed on another machine --------*- C++ -*-===//
//
// nnapi-profile-device --emit DIR compiles the models for another machine (a
// phone) and leaves them in DIR with the plan (the run not timed yet,
// RunFile.h), the list of models and run.sh, which times them there with
// nnapi-run; --from DIR then reads the times back into the run.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_TOOLS_PROFILE_DEVICE_EMITDIRECTORY_H
#define NNAPI_MLIR_TOOLS_PROFILE_DEVICE_EMITDIRECTORY_H

#include "RunFile.h"

#include <string>

namespace nnapi_mlir::profiling {

/// Writes plan.json (`run`), models.txt (each measurement's file and side)
/// and run.sh into `dir`, beside the compiled models; false with `error`.
bool writeEmitDirectory(const std::string &dir, const Run &run,
                        std::string &error);

/// Reads an --emit directory after run.sh: the plan, times.txt and the
/// device run.sh's nnapi-run chose (devices.txt's "candidate 0").
bool runFromDirectory(const std::string &dir, Run &run, std::string &error);

} // namespace nnapi_mlir::profiling

#endif // NNAPI_MLIR_TOOLS_PROFILE_DEVICE_EMITDIRECTORY_H
