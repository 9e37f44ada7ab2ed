//===- Internal.h - Shared by the runtime's sources -------------*- C++ -*-===//
#ifndef NNAPI_MLIR_LIB_RUNTIME_INTERNAL_H
#define NNAPI_MLIR_LIB_RUNTIME_INTERNAL_H

#include "nnapi-mlir/Runtime/NNAPILoader.h"

#include <cstdint>
#include <string>

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
} // namespace nnapi_mlir::runtime

#endif
