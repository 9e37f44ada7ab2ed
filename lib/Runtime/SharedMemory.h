//===- SharedMemory.h - Buffers NNAPI can map without a copy ----*- C++ -*-===//
//
// The runtime's allocator (Memory.cpp) takes its large blocks from
// shared-memory files (memfd; ashmem on Android), so that a partition's input
// or output in such a block is given to NNAPI as an ANeuralNetworksMemory
// over the same file, made once per block and library, instead of a pointer,
// which NNAPI copies for a driver in another process on every execution.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_RUNTIME_SHAREDMEMORY_H
#define NNAPI_MLIR_LIB_RUNTIME_SHAREDMEMORY_H

#include "nnapi-mlir/Runtime/NNAPILoader.h"

#include <cstddef>
#include <cstdint>

namespace nnapi_mlir::runtime {

/// Buffers smaller than this are passed as pointers (NNAPI's copy of them
/// costs less than a memory object); also the size from which the allocator
/// pools and shares blocks.
constexpr size_t kSharedMinBytes = 64 * 1024;

/// The NNAPI memory of `fn`'s library over the shared block holding
/// [data, data + bytes), made on first use, with the range's offset in it;
/// null when the range is not in one block, or the library has no memory
/// calls, or refused the block.
ANeuralNetworksMemory *sharedMemoryFor(const NNAPIFunctionTable &fn,
                                       const void *data, size_t bytes,
                                       size_t &offset);

/// Frees every memory made with `fn` (its library is being unloaded).
void releaseSharedMemories(const NNAPIFunctionTable &fn);

/// Changes whenever memories of blocks returned to the system were freed
/// (nnapi_rt_trim_pool): an execution bound before must not run again,
/// even if new blocks have the old addresses.
uint64_t sharedMemoryEpoch();

} // namespace nnapi_mlir::runtime

#endif // NNAPI_MLIR_LIB_RUNTIME_SHAREDMEMORY_H
