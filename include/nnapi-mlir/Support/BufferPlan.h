//===- BufferPlan.h - Place buffers in an arena by lifetime -----*- C++ -*-===//
//
// One placement algorithm for the two places that plan memory: the host
// NNAPI device (intermediate tensors of a compilation) and the compiler's
// nnapi-plan-buffers pass (intermediate buffers of a compiled function).
// Plain C++: the runtime side links it without LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_SUPPORT_BUFFERPLAN_H
#define NNAPI_MLIR_SUPPORT_BUFFERPLAN_H

#include <cstddef>
#include <vector>

namespace nnapi_mlir {

/// A buffer of `bytes` alive from step `first` to step `last` (inclusive).
struct BufferRequest {
  size_t bytes = 0;
  size_t first = 0, last = 0;
};

/// Greedy-by-size placement: largest buffer first (ties by first use), each
/// at the lowest offset that overlaps no placed buffer whose lifetime
/// intersects its own. Offsets and sizes are rounded up to `alignment` (a
/// power of two). Returns the arena size; `offsets[i]` is request i's.
size_t planBuffers(const std::vector<BufferRequest> &requests,
                   size_t alignment, std::vector<size_t> &offsets);

} // namespace nnapi_mlir

#endif // NNAPI_MLIR_SUPPORT_BUFFERPLAN_H
