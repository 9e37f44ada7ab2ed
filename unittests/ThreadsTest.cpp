//===- ThreadsTest.cpp - The runtime's thread pool and its setting --------===//

#include "nnapi-mlir/Runtime/Runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <sched.h>

namespace {

/// Every test runs on both pools (the thread_pool option): pthreadpool's
/// and the runtime's own, which builds without pthreadpool (the NDK's) use.
class Threads : public ::testing::TestWithParam<const char *> {
protected:
  // The pool's behaviour at 3 to 5 threads, even on a 2-CPU machine, where
  // the count would otherwise be capped.
  void SetUp() override {
    nnapi_rt_set_option("threads_force", "1");
    ASSERT_EQ(nnapi_rt_set_option("thread_pool", GetParam()), NNAPI_RT_OK)
        << nnapi_rt_last_error();
  }
  void TearDown() override {
    unsetenv("NNAPI_MLIR_THREADS");
    nnapi_rt_set_option("threads", nullptr);
    nnapi_rt_set_option("threads_force", nullptr);
    nnapi_rt_set_option("thread_pool", nullptr);
  }
};

struct Coverage {
  std::vector<std::atomic<int>> hits;
  std::mutex mutex;
  std::set<std::thread::id> threads;
  std::vector<std::pair<int64_t, int64_t>> chunks;
  /// When set, the calling thread's chunks wait (up to 10 s) until another
  /// thread has run one: on a loaded machine the caller could otherwise
  /// finish every chunk before the workers wake.
  bool waitForWorkers = false;
  std::atomic<bool> workerRan{false};
  const std::thread::id caller = std::this_thread::get_id();
  explicit Coverage(size_t n) : hits(n) {}
};

void record(void *context, int64_t begin, int64_t end) {
  auto *c = static_cast<Coverage *>(context);
  if (std::this_thread::get_id() != c->caller)
    c->workerRan = true;
  else if (c->waitForWorkers)
    for (int i = 0; i < 10000 && !c->workerRan; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  for (int64_t i = begin; i < end; ++i)
    ++c->hits[size_t(i)];
  std::lock_guard<std::mutex> lock(c->mutex);
  c->threads.insert(std::this_thread::get_id());
  c->chunks.emplace_back(begin, end);
}

TEST_P(Threads, ParallelForRunsEveryIndexOnceOnThePool) {
  ASSERT_EQ(nnapi_rt_set_threads(3), NNAPI_RT_OK) << nnapi_rt_last_error();
  EXPECT_EQ(nnapi_rt_get_threads(), 3);
  nnapi_rt_reset_stats();
  Coverage c(1000);
  c.waitForWorkers = true;
  nnapi_rt_parallel_for(record, &c, 1000, 7);
  // The runtime counts the loop, and that it ran on several threads.
  uint64_t loops = 0, spread = 0;
  nnapi_rt_get_parallel_stats(&loops, &spread);
  EXPECT_EQ(loops, 1u);
  EXPECT_EQ(spread, 1u);
  for (size_t i = 0; i < c.hits.size(); ++i)
    ASSERT_EQ(c.hits[i].load(), 1) << i;
  // Eight chunks per thread: of ceil(1000 / 24) = 42 iterations (more than
  // the grain), the last one short.
  EXPECT_EQ(c.chunks.size(), 24u);
  for (auto [begin, end] : c.chunks)
    EXPECT_TRUE(end - begin == 42 || (begin == 966 && end == 1000))
        << begin << ".." << end;
  // The workers took part. (The caller may have run none of the chunks: on
  // a loaded machine the workers can take all of them before it starts.)
  EXPECT_TRUE(c.workerRan);
  EXPECT_TRUE(std::any_of(c.threads.begin(), c.threads.end(),
                          [&](std::thread::id id) { return id != c.caller; }));

  // A grain above that holds.
  Coverage coarse(1000);
  nnapi_rt_parallel_for(record, &coarse, 1000, 300);
  std::sort(coarse.chunks.begin(), coarse.chunks.end());
  std::vector<std::pair<int64_t, int64_t>> grains = {
      {0, 300}, {300, 600}, {600, 900}, {900, 1000}};
  EXPECT_EQ(coarse.chunks, grains);
}

TEST_P(Threads, OneThreadOrOneChunkRunsOnTheCaller) {
  ASSERT_EQ(nnapi_rt_set_threads(1), NNAPI_RT_OK);
  nnapi_rt_reset_stats();
  Coverage c(10);
  nnapi_rt_parallel_for(record, &c, 10, 3);
  ASSERT_EQ(c.threads.size(), 1u);
  uint64_t loops = 0, spread = 0;
  nnapi_rt_get_parallel_stats(&loops, &spread);
  EXPECT_EQ(loops, 1u);
  EXPECT_EQ(spread, 0u);
  EXPECT_EQ(*c.threads.begin(), std::this_thread::get_id());
  std::vector<std::pair<int64_t, int64_t>> whole = {{0, 10}};
  EXPECT_EQ(c.chunks, whole);

  ASSERT_EQ(nnapi_rt_set_threads(4), NNAPI_RT_OK);
  Coverage one(5);
  nnapi_rt_parallel_for(record, &one, 5, 8);
  ASSERT_EQ(one.threads.size(), 1u);
  EXPECT_EQ(*one.threads.begin(), std::this_thread::get_id());
  // Nothing to do, and a grain below 1 taken as 1.
  Coverage none(1);
  nnapi_rt_parallel_for(record, &none, 0, 4);
  EXPECT_TRUE(none.chunks.empty());
  Coverage fine(64);
  nnapi_rt_parallel_for(record, &fine, 64, 0);
  EXPECT_EQ(fine.chunks.size(), 32u); // 8 per thread, of 2 iterations
  for (size_t i = 0; i < fine.hits.size(); ++i)
    ASSERT_EQ(fine.hits[i].load(), 1) << i;
}

struct Nested {
  std::atomic<int> inner{0};
  std::mutex mutex;
  std::set<std::thread::id> innerThreads;
  bool innerOnChunkThread = true;
};

void innerChunk(void *context, int64_t begin, int64_t end) {
  auto *n = static_cast<Nested *>(context);
  n->inner += int(end - begin);
  std::lock_guard<std::mutex> lock(n->mutex);
  n->innerThreads.insert(std::this_thread::get_id());
}

void outerChunk(void *context, int64_t begin, int64_t end) {
  auto *n = static_cast<Nested *>(context);
  for (int64_t i = begin; i < end; ++i) {
    Nested inner;
    nnapi_rt_parallel_for(innerChunk, &inner, 50, 1);
    n->inner += inner.inner;
    // Each nested loop ran on the thread that runs this chunk.
    if (inner.innerThreads.size() != 1 ||
        *inner.innerThreads.begin() != std::this_thread::get_id())
      n->innerOnChunkThread = false;
  }
}

TEST_P(Threads, ALoopInsideAChunkRunsOnItsThread) {
  // pthreadpool runs one parallel section at a time: a nested one must not
  // wait for it (a deadlock), and runs where it is called instead.
  ASSERT_EQ(nnapi_rt_set_threads(3), NNAPI_RT_OK);
  Nested n;
  nnapi_rt_parallel_for(outerChunk, &n, 40, 1);
  EXPECT_EQ(n.inner.load(), 40 * 50);
  EXPECT_TRUE(n.innerOnChunkThread);
}

TEST_P(Threads, CountsAreCheckedAndARefusalChangesNothing) {
  ASSERT_EQ(nnapi_rt_set_threads(2), NNAPI_RT_OK);
  for (int32_t bad : {0, -1, 257, 1 << 30}) {
    EXPECT_EQ(nnapi_rt_set_threads(bad), NNAPI_RT_INVALID_ARGUMENT) << bad;
    EXPECT_EQ(std::string(nnapi_rt_last_error()),
              "runtime option threads: '" + std::to_string(bad) +
                  "' is not a thread count from 1 to 256");
    EXPECT_EQ(nnapi_rt_get_threads(), 2);
  }
  EXPECT_EQ(nnapi_rt_set_threads(5), NNAPI_RT_OK);
  EXPECT_EQ(nnapi_rt_get_threads(), 5);
}

// 256 spinning workers on 2 CPUs made a 0.1 s inference take 20 s: a count
// above the CPUs available is capped there, unless forced.
TEST_P(Threads, MoreThreadsThanCPUsAreCappedUnlessForced) {
  cpu_set_t set;
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  int cpus = CPU_COUNT(&set);
  if (cpus >= 256)
    GTEST_SKIP() << "no count above this machine's CPUs to try";
  nnapi_rt_set_quiet(1);
  ASSERT_EQ(nnapi_rt_set_option("threads_force", nullptr), NNAPI_RT_OK);
  ASSERT_EQ(nnapi_rt_set_threads(256), NNAPI_RT_OK);
  EXPECT_EQ(nnapi_rt_get_threads(), cpus);
  ASSERT_EQ(nnapi_rt_set_threads(cpus), NNAPI_RT_OK);
  EXPECT_EQ(nnapi_rt_get_threads(), cpus);
  ASSERT_EQ(nnapi_rt_set_option("threads_force", "1"), NNAPI_RT_OK);
  ASSERT_EQ(nnapi_rt_set_threads(cpus + 1), NNAPI_RT_OK);
  EXPECT_EQ(nnapi_rt_get_threads(), cpus + 1);
  nnapi_rt_set_quiet(0);
}

TEST_P(Threads, DefaultIsTheCPUsAvailableAndTheVariableOverridesIt) {
  cpu_set_t set;
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  ASSERT_EQ(nnapi_rt_set_option("threads", nullptr), NNAPI_RT_OK);
  EXPECT_EQ(nnapi_rt_get_threads(), CPU_COUNT(&set));
  setenv("NNAPI_MLIR_THREADS", "3", 1);
  nnapi_rt_reset(); // the environment is read again
  EXPECT_EQ(nnapi_rt_get_threads(), 3);
  // A value given wins over the variable.
  ASSERT_EQ(nnapi_rt_set_threads(2), NNAPI_RT_OK);
  EXPECT_EQ(nnapi_rt_get_threads(), 2);
}

TEST_P(Threads, ManyShortLoopsInARow) {
  // Compiled host code runs loops back to back; the workers must be ready
  // for each (the builtin pool's spin, then sleep, then wake).
  ASSERT_EQ(nnapi_rt_set_threads(2), NNAPI_RT_OK);
  for (int round = 0; round < 2000; ++round) {
    Coverage c(48);
    nnapi_rt_parallel_for(record, &c, 48, 1);
    for (size_t i = 0; i < c.hits.size(); ++i)
      ASSERT_EQ(c.hits[i].load(), 1) << "round " << round << " index " << i;
    if (round == 1000) // a pause long enough for the workers to sleep
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

TEST(ThreadPoolOption, NamesAreChecked) {
  EXPECT_EQ(nnapi_rt_set_option("thread_pool", "openmp"),
            NNAPI_RT_INVALID_ARGUMENT);
  EXPECT_EQ(std::string(nnapi_rt_last_error()),
            "runtime option thread_pool: 'openmp' is not pthreadpool or "
            "builtin");
  EXPECT_EQ(nnapi_rt_set_option("thread_pool", "builtin"), NNAPI_RT_OK);
  EXPECT_EQ(nnapi_rt_set_option("thread_pool", nullptr), NNAPI_RT_OK);
}

INSTANTIATE_TEST_SUITE_P(Pools, Threads,
                         ::testing::Values("pthreadpool", "builtin"),
                         [](const auto &info) {
                           return std::string(info.param);
                         });

} // namespace
