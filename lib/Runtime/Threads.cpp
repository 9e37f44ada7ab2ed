//===- Threads.cpp - The runtime's one pool of worker threads -------------===//

#include "Threads.h"

#include "nnapi-mlir/Support/CPUs.h"
#include "nnapi-mlir/Support/ThreadSanitizer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#ifdef NNAPI_MLIR_HAVE_PTHREADPOOL
#include <pthreadpool.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace nnapi_mlir::runtime {

bool havePthreadpool() {
#ifdef NNAPI_MLIR_HAVE_PTHREADPOOL
  return true;
#else
  return false;
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

  void runChunk(int64_t begin, int64_t end) {
    fn(context, begin, std::min(end, count));
    if (std::this_thread::get_id() != caller)
      spread.store(true, std::memory_order_relaxed);
  }
};

/// parallelFor's calls, and those whose chunks ran on several threads.
std::atomic<uint64_t> sections{0}, spreadSections{0};

/// A hint to the CPU that this thread is spinning.
inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}
} // namespace

/// The runtime's own workers. A section is published by bumping
/// `generation`; each worker takes chunks from `next` until none is left
/// and then decrements `running`, which the caller waits to see at 0.
/// Compiled host code runs many short loops back to back (a MobileNetV2 has
/// 31), so a worker spins a while before it sleeps: waking a sleeping thread
/// costs more than most loops.
class BuiltinWorkers {
public:
  explicit BuiltinWorkers(unsigned workers) {
    threads.reserve(workers);
    for (unsigned i = 0; i < workers; ++i)
      threads.emplace_back([this] { work(); });
  }

  ~BuiltinWorkers() {
    {
      std::lock_guard<std::mutex> lock(mutex);
      stopping.store(true, std::memory_order_relaxed);
      generation.fetch_add(1, std::memory_order_release);
    }
    wake.notify_all();
    for (std::thread &t : threads)
      t.join();
  }

  /// Runs `task` in chunks of `grain` on the workers and the calling thread.
  void run(Task &task, int64_t grain) {
    current = &task;
    chunk = grain;
    next.store(0, std::memory_order_relaxed);
    running.store(unsigned(threads.size()), std::memory_order_relaxed);
    {
      // Under the lock, so that a worker about to sleep sees the new
      // generation or is woken.
      std::lock_guard<std::mutex> lock(mutex);
      generation.fetch_add(1, std::memory_order_release);
    }
    wake.notify_all();
    takeChunks();
    while (running.load(std::memory_order_acquire) != 0)
      relax();
  }

private:
  void takeChunks() {
    Task &task = *current;
    for (int64_t begin = next.fetch_add(chunk, std::memory_order_relaxed);
         begin < task.count;
         begin = next.fetch_add(chunk, std::memory_order_relaxed))
      task.runChunk(begin, begin + chunk);
  }

  void work() {
    uint64_t seen = 0;
    for (;;) {
      // Spin about 50 microseconds for the next section, then sleep.
      auto until = std::chrono::steady_clock::now() +
                   std::chrono::microseconds(50);
      for (unsigned i = 1;
           generation.load(std::memory_order_acquire) == seen; ++i) {
        relax();
        if (i % 256 == 0 && std::chrono::steady_clock::now() > until) {
          std::unique_lock<std::mutex> lock(mutex);
          wake.wait(lock, [&] {
            return generation.load(std::memory_order_acquire) != seen;
          });
          break;
        }
      }
      seen = generation.load(std::memory_order_acquire);
      if (stopping.load(std::memory_order_relaxed))
        return;
      takeChunks();
      running.fetch_sub(1, std::memory_order_release);
    }
  }

  std::vector<std::thread> threads;
  std::mutex mutex;
  std::condition_variable wake;
  std::atomic<uint64_t> generation{0};
  std::atomic<bool> stopping{false}; ///< Set before the last bump.
  // The section in progress: written by the caller before the generation
  // bump that publishes it.
  Task *current = nullptr;
  int64_t chunk = 1;
  std::atomic<int64_t> next{0};
  std::atomic<unsigned> running{0};
};

ThreadPool::ThreadPool(unsigned threads, bool builtin)
    : isBuiltin(builtin), asked(threads) {
  if (threads <= 1)
    return;
  if (isBuiltin) {
    own = std::make_unique<BuiltinWorkers>(threads - 1);
    count = threads;
    return;
  }
#ifdef NNAPI_MLIR_HAVE_PTHREADPOOL
  pool = pthreadpool_create(threads);
  if (pool)
    count = unsigned(
        pthreadpool_get_threads_count(static_cast<pthreadpool_t>(pool)));
#endif
}

ThreadPool::~ThreadPool() {
#ifdef NNAPI_MLIR_HAVE_PTHREADPOOL
  if (pool)
    pthreadpool_destroy(static_cast<pthreadpool_t>(pool));
#endif
}

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
  // Either pool runs one parallel section at a time: a loop that finds it
  // busy (called from a chunk, where waiting would never end, or by another
  // model's thread) runs on its own thread instead. (A flag, not a
  // thread-local: CI's LeakSanitizer tracer crashed at exit in processes
  // with the thread-local version; docs/design.md.)
  if ((pool || own) && count > grain &&
      !busy.exchange(true, std::memory_order_acquire)) {
    Task task{fn, context, count, std::this_thread::get_id()};
    if (own) {
      own->run(task, grain);
    } else {
#ifdef NNAPI_MLIR_HAVE_PTHREADPOOL
      // pthreadpool is not instrumented: tell ThreadSanitizer what it
      // guarantees.
      NNAPI_TSAN_RELEASE(&task);
      pthreadpool_parallelize_1d_tile_1d(
          static_cast<pthreadpool_t>(pool),
          [](void *t, size_t begin, size_t tile) {
            NNAPI_TSAN_ACQUIRE(t);
            auto *task = static_cast<Task *>(t);
            task->runChunk(int64_t(begin), int64_t(begin + tile));
            NNAPI_TSAN_RELEASE(&task->done);
          },
          &task, size_t(count), size_t(grain), /*flags=*/0);
      NNAPI_TSAN_ACQUIRE(&task.done);
#endif
    }
    if (task.spread.load(std::memory_order_relaxed))
      spreadSections.fetch_add(1, std::memory_order_relaxed);
    busy.store(false, std::memory_order_release);
    return;
  }
  fn(context, 0, count);
}

} // namespace nnapi_mlir::runtime
