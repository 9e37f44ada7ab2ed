//===- Threads.cpp - The runtime's one pool of worker threads -------------===//

#include "Threads.h"

#include "nnapi-mlir/Support/ThreadSanitizer.h"

#include <algorithm>
#include <atomic>
#include <thread>

#ifdef __linux__
#include <sched.h>
#endif
#ifdef NNAPI_MLIR_HAVE_PTHREADPOOL
#include <pthreadpool.h>
#endif

namespace nnapi_mlir::runtime {

unsigned availableCPUs() {
#ifdef __linux__
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0)
      return unsigned(n);
  }
#endif
  return std::max(1u, std::thread::hardware_concurrency());
}

ThreadPool::ThreadPool(unsigned threads) : asked(threads) {
#ifdef NNAPI_MLIR_HAVE_PTHREADPOOL
  if (threads > 1) {
    pool = pthreadpool_create(threads);
    if (pool)
      count = unsigned(pthreadpool_get_threads_count(
          static_cast<pthreadpool_t>(pool)));
  }
#else
  (void)threads;
#endif
}

ThreadPool::~ThreadPool() {
#ifdef NNAPI_MLIR_HAVE_PTHREADPOOL
  if (pool)
    pthreadpool_destroy(static_cast<pthreadpool_t>(pool));
#endif
}

namespace {
struct Task {
  void (*fn)(void *, int64_t, int64_t);
  void *context;
  int64_t count;
  std::thread::id caller;
  /// A chunk ran on another thread than the caller's.
  std::atomic<bool> spread{false};
  char done; ///< ThreadSanitizer's address for "a chunk finished".
};

/// parallelFor's calls, and those whose chunks ran on several threads.
std::atomic<uint64_t> sections{0}, spreadSections{0};
} // namespace

void parallelStats(uint64_t &all, uint64_t &spread) {
  all = sections.load(std::memory_order_relaxed);
  spread = spreadSections.load(std::memory_order_relaxed);
}

void resetParallelStats() {
  sections = 0;
  spreadSections = 0;
}

void ThreadPool::parallelFor(void (*fn)(void *, int64_t, int64_t),
                             void *context, int64_t count,
                             int64_t grain) const {
  if (count <= 0)
    return;
  sections.fetch_add(1, std::memory_order_relaxed);
  // Enough chunks that the threads finish together (a thread that runs out
  // takes another's), few enough that each outweighs its hand-out (an
  // atomic on a line the threads share).
  constexpr int64_t kChunksPerThread = 8;
  int64_t chunks = kChunksPerThread * int64_t(threads());
  grain = std::max<int64_t>({grain, 1, (count + chunks - 1) / chunks});
#ifdef NNAPI_MLIR_HAVE_PTHREADPOOL
  // pthreadpool runs one parallel section at a time: a loop that finds the
  // pool busy (called from a chunk, where waiting would never end, or by
  // another model's thread) runs on its own thread instead. (A flag, not
  // a thread-local: CI's LeakSanitizer tracer crashed at exit in processes
  // with the thread-local version; docs/design.md.)
  if (pool && count > grain && !busy.exchange(true, std::memory_order_acquire)) {
    Task task{fn, context, count, std::this_thread::get_id()};
    NNAPI_TSAN_RELEASE(&task);
    pthreadpool_parallelize_1d_tile_1d(
        static_cast<pthreadpool_t>(pool),
        [](void *t, size_t begin, size_t tile) {
          NNAPI_TSAN_ACQUIRE(t);
          auto *task = static_cast<Task *>(t);
          int64_t b = int64_t(begin);
          task->fn(task->context, b, std::min(b + int64_t(tile), task->count));
          if (std::this_thread::get_id() != task->caller)
            task->spread.store(true, std::memory_order_relaxed);
          NNAPI_TSAN_RELEASE(&task->done);
        },
        &task, size_t(count), size_t(grain), /*flags=*/0);
    NNAPI_TSAN_ACQUIRE(&task.done);
    if (task.spread.load(std::memory_order_relaxed))
      spreadSections.fetch_add(1, std::memory_order_relaxed);
    busy.store(false, std::memory_order_release);
    return;
  }
#endif
  fn(context, 0, count);
}

} // namespace nnapi_mlir::runtime
