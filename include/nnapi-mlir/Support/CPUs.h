//===- CPUs.h - The CPUs this process may run on ----------------*- C++ -*-===//
//
// What the runtime's threads option defaults to, and what the partitioner
// prices placement at when no thread count is given: one definition for
// both.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_SUPPORT_CPUS_H
#define NNAPI_MLIR_SUPPORT_CPUS_H

namespace nnapi_mlir {

/// The most threads the runtime runs (its threads option, 1 to this).
constexpr unsigned kMaxThreads = 256;

/// The CPUs in this process's affinity mask (Linux), else the hardware's
/// threads; at least 1.
unsigned availableCPUs();

} // namespace nnapi_mlir

#endif // NNAPI_MLIR_SUPPORT_CPUS_H
