//===- Threads.h - The runtime's one pool of worker threads -----*- C++ -*-===//
//
// One pool per process, owned by the runtime: the compiled host code's
// parallel loops (nnapi_rt_parallel_for) and the host NNAPI device's
// operators (handed the pool when the runtime compiles a partition) share it,
// so that a model never runs more threads than the threads option says.
// Two kinds: pthreadpool's, which XNNPACK (the host device) can share, and
// the runtime's own, for builds without pthreadpool (an Android app's: the
// NDK has none) so that their host code still runs on every core.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_RUNTIME_THREADS_H
#define NNAPI_MLIR_LIB_RUNTIME_THREADS_H

#include "nnapi-mlir/Support/CPUs.h"

#include <atomic>
#include <cstdint>
#include <memory>

namespace nnapi_mlir::runtime {

using nnapi_mlir::availableCPUs;

/// Whether this runtime was built with pthreadpool.
bool havePthreadpool();

/// How many parallel loops ran (ThreadPool::parallelFor calls, any pool)
/// and how many of them had chunks on more than one thread, since the last
/// reset (nnapi_rt_get_parallel_stats).
void parallelStats(uint64_t &all, uint64_t &spread);
void resetParallelStats();

class BuiltinWorkers;

/// A pool of `threads` threads: the calling thread and threads - 1 workers,
/// the runtime's own with `builtin`, else pthreadpool's (a build without
/// pthreadpool has one thread then: Options' default asks for builtin). Immutable once made; the runtime replaces it when the
/// thread count or kind changes, and users hold it (shared_ptr) while they
/// use it.
class ThreadPool {
public:
  ThreadPool(unsigned threads, bool builtin);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  /// Threads it runs work on (1 if the workers could not be created).
  unsigned threads() const { return count; }
  /// Threads it was made for.
  unsigned requested() const { return asked; }
  /// Whether it is the runtime's own pool.
  bool builtin() const { return isBuiltin; }
  /// The pthreadpool_t, or null with one thread or the runtime's own pool
  /// (XNNPACK then runs on the calling thread).
  void *handle() const { return pool; }
  /// fn(context, begin, end) over [0, count) in chunks of at least `grain`
  /// iterations, at most kChunksPerThread per thread (Runtime.h).
  void parallelFor(void (*fn)(void *, int64_t, int64_t), void *context,
                   int64_t count, int64_t grain) const;

private:
  void *pool = nullptr;
  std::unique_ptr<BuiltinWorkers> own;
  bool isBuiltin;
  unsigned count = 1, asked;
  /// A parallel section is running on the pool.
  mutable std::atomic<bool> busy{false};
};

} // namespace nnapi_mlir::runtime

#endif // NNAPI_MLIR_LIB_RUNTIME_THREADS_H
