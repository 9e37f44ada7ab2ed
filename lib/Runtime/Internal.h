//===- Internal.h - Shared by the runtime's sources -------------*- C++ -*-===//
#ifndef NNAPI_MLIR_LIB_RUNTIME_INTERNAL_H
#define NNAPI_MLIR_LIB_RUNTIME_INTERNAL_H

#include "nnapi-mlir/Runtime/NNAPILoader.h"

#include "nnapi-mlir/Runtime/Runtime.h"

#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <vector>

namespace nnapi_mlir::blob {
struct Model;
}

namespace nnapi_mlir::runtime {
/// Sets this thread's nnapi_rt_last_error() message and returns `status`.
int32_t failWith(int32_t status, std::string message);
/// "<function> failed with <RESULT_CODE> (<code>)", with the host NNAPI
/// library's explanation when the library has one.
std::string describeCall(const NNAPIFunctionTable &fn, const char *function,
                         int code);
/// Drops the cached partitions whose blobs lie in the shared object that
/// holds `addressInObject` (a model about to be unloaded): their NNAPI
/// models and compilations are freed (when no execution holds them) instead
/// of outliving the memory they were built from.
void forgetPartitionsOf(const void *addressInObject);

/// Warns when the thread count in force is not `placementThreads`, the one
/// model `what`'s placement was priced at (unless host-only: placement is
/// moot there).
void checkPlacementThreads(const std::string &what, int32_t placementThreads);

/// Builds and finishes the NNAPI model of `m` in `out`, the models it
/// references first (appended to `referenced`, which the caller frees, as
/// it frees `out` when set, even on failure).
int32_t buildModel(const NNAPIFunctionTable &fn, const blob::Model &m,
                   ANeuralNetworksModel *&out,
                   std::vector<ANeuralNetworksModel *> &referenced);

/// Records that a loop ran past its timeout (`why`, this thread's
/// loopTimeoutMessage); returns NNAPI_RT_TIMEOUT.
int32_t noteLoopTimeout(std::string why);

/// Why this thread's last run timed out (nnapi_rt_run_end).
const std::string &loopTimeoutMessage();

/// Records that `function` ended with a C++ exception (`what`) and returns
/// NNAPI_RT_INTERNAL_ERROR; never throws, even out of memory.
int32_t exceptionStatus(const char *function, const char *what) noexcept;

/// Runs the body of a C API function. A C++ exception escaping it (out of
/// memory, or one a library throws) becomes NNAPI_RT_INTERNAL_ERROR with its
/// reason: nothing may unwind into a C caller, or through compiled model
/// code, which has no unwind tables.
template <typename F> int32_t guarded(const char *function, F &&body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc &) {
    return exceptionStatus(function, "out of memory");
  } catch (const std::exception &e) {
    return exceptionStatus(function, e.what());
  } catch (...) {
    return exceptionStatus(function, "an unknown exception");
  }
}
} // namespace nnapi_mlir::runtime

#endif
