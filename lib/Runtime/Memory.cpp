//===- Memory.cpp - Buffers of compiled models, kept between calls --------===//
//
// A compiled model allocates its intermediate buffers through MLIR's generic
// allocation functions (finalize-memref-to-llvm use-generic-functions), which
// the runtime defines here. Large blocks are kept in a pool when freed and
// handed out again for a request of the same size, so a model that runs
// repeatedly stops paying for fresh pages (mmap, page faults, zeroing) on
// every call. Small blocks come from malloc (a thread keeps its last few,
// below). The pool is bounded; it is shared by every model in the process
// and safe to use from any thread.
//
// Small blocks a thread frees are kept for that thread's next request of
// the same size (a few, in a thread-local list): a model with dynamic
// dimensions allocates its arena at the call's size on every call, and
// glibc's aligned allocation of it (with the free that follows) cost a
// sixth of a call of a few microseconds.
//
// Large blocks are mapped from shared-memory files (SharedMemory.h), so that
// NNAPI can be handed them as memory instead of copying them. A block that
// NNAPI memory was made for stays pooled (never unmapped under a memory
// object a driver may hold) until nnapi_rt_trim_pool or the library's
// unloading frees its memories.
//
//===----------------------------------------------------------------------===//

#include "SharedMemory.h"

#include "nnapi-mlir/Runtime/Runtime.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#ifdef __ANDROID__
#include <dlfcn.h>
#endif

using namespace nnapi_mlir;

namespace {

/// Blocks from this size on are pooled (smaller ones are cheap to malloc)
/// and shared.
constexpr size_t kPoolMinBytes = runtime::kSharedMinBytes;
/// At most this many bytes wait in the pool; beyond, freed blocks are
/// returned to the system.
constexpr size_t kPoolMaxBytes = size_t(1) << 30;
constexpr size_t kMinAlignment = 64;

/// At most this many shared blocks at once (each holds a file descriptor);
/// beyond, large blocks come from the system allocator.
constexpr size_t kMaxSharedBlocks = 256;

/// Stored just before every block handed out.
struct Header {
  void *base;       ///< What the system allocator or mmap returned.
  size_t size;      ///< Usable bytes (rounded up).
  size_t alignment; ///< Alignment of the user pointer.
  size_t mapped;    ///< Bytes mapped from a shared file at base; 0: malloc.
};
static_assert(sizeof(Header) <= kMinAlignment, "header must fit the offset");

/// A block mapped from a shared-memory file, and the NNAPI memories made
/// over it (one per library).
struct SharedBlock {
  size_t bytes;
  int fd;
  std::vector<std::pair<const NNAPIFunctionTable *, ANeuralNetworksMemory *>>
      memories;
};

struct Pool {
  std::mutex mutex;
  std::map<std::pair<size_t, size_t>, std::vector<void *>> free; // (size, alignment)
  size_t cachedBytes = 0;
  uint64_t hits = 0, misses = 0;
  /// Every shared block, by its base address.
  std::map<const char *, SharedBlock> shared;
};
std::atomic<uint64_t> epoch{0};

Pool &pool() {
  static Pool *p = new Pool(); // never destroyed: models may free at exit
  return *p;
}

Header *headerOf(void *user) {
  return reinterpret_cast<Header *>(static_cast<char *>(user) - sizeof(Header));
}

/// A shared-memory file of `bytes` bytes, or -1.
int createSharedFile(size_t bytes) {
#ifdef __ANDROID__
  // ashmem, through libandroid (API 26), the memory NNAPI documents.
  using CreateFn = int (*)(const char *, size_t);
  static CreateFn create = reinterpret_cast<CreateFn>(
      dlsym(dlopen("libandroid.so", RTLD_NOW | RTLD_NOLOAD) ?: RTLD_DEFAULT,
            "ASharedMemory_create"));
  if (create)
    return create("nnapi-mlir", bytes);
#endif
#if defined(__linux__) && defined(SYS_memfd_create)
  int fd = int(syscall(SYS_memfd_create, "nnapi-mlir", 1u /*MFD_CLOEXEC*/));
  if (fd < 0)
    return -1;
  if (ftruncate(fd, off_t(bytes)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
#else
  (void)bytes;
  return -1;
#endif
}

/// A block of `bytes` (a multiple of the page size) mapped from a new
/// shared file and registered, or null. Caller holds the pool's mutex.
void *mapShared(Pool &p, size_t bytes) {
#ifdef __linux__
  if (p.shared.size() >= kMaxSharedBlocks)
    return nullptr;
  int fd = createSharedFile(bytes);
  if (fd < 0)
    return nullptr;
  void *base =
      mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) {
    close(fd);
    return nullptr;
  }
  p.shared[static_cast<const char *>(base)] = {bytes, fd, {}};
  return base;
#else
  (void)p;
  (void)bytes;
  return nullptr;
#endif
}

/// Frees `user`'s block to the system, with the NNAPI memories made over it.
/// Caller holds the pool's mutex.
void freeBlock(Pool &p, void *user) {
  Header h = *headerOf(user);
  if (!h.mapped) {
    std::free(h.base);
    return;
  }
#ifdef __linux__
  auto it = p.shared.find(static_cast<const char *>(h.base));
  if (it != p.shared.end()) {
    for (auto &[fn, memory] : it->second.memories)
      if (memory)
        fn->ANeuralNetworksMemory_free(memory);
    close(it->second.fd);
    p.shared.erase(it);
  }
  munmap(h.base, h.mapped);
#endif
}

/// The small blocks a thread freed last, for its next requests of their
/// sizes; freed to the system when the thread ends.
class SmallBlockCache {
public:
  SmallBlockCache() { state = State::Alive; }
  ~SmallBlockCache() {
    state = State::Destroyed;
    for (Entry &e : entries)
      if (e.user)
        std::free(headerOf(e.user)->base);
  }
  void *take(size_t size, size_t alignment) {
    for (Entry &e : entries)
      if (e.user && e.size == size && e.alignment == alignment)
        return std::exchange(e.user, nullptr);
    return nullptr;
  }
  /// Keeps `user`; returns the block it displaces (the one kept longest
  /// ago) when the cache is full, or null. The newest blocks stay: a model
  /// that ran at other sizes before (--shape-buckets at open, earlier
  /// calls) must not leave the cache full of sizes the next calls never ask
  /// for.
  void *keep(void *user, size_t size, size_t alignment) {
    for (Entry &e : entries)
      if (!e.user) {
        e = {user, size, alignment, ++clock};
        return nullptr;
      }
    Entry *oldest = &entries[0];
    for (Entry &e : entries)
      if (e.stamp < oldest->stamp)
        oldest = &e;
    void *displaced = oldest->user;
    *oldest = {user, size, alignment, ++clock};
    return displaced;
  }

  /// The thread's cache, or null once it was destroyed (a block freed
  /// during the thread's exit, after the cache's destructor, goes to the
  /// system). The state is trivially destructible, so it stays readable.
  static SmallBlockCache *get();

private:
  enum class State : uint8_t { Unborn, Alive, Destroyed };
  struct Entry {
    void *user = nullptr;
    size_t size = 0, alignment = 0;
    uint64_t stamp = 0;
  };
  Entry entries[8];
  uint64_t clock = 0;
  static thread_local State state;
};
thread_local SmallBlockCache::State SmallBlockCache::state =
    SmallBlockCache::State::Unborn;

SmallBlockCache *SmallBlockCache::get() {
  if (state == State::Destroyed)
    return nullptr;
  thread_local SmallBlockCache cache;
  return &cache;
}

void *allocate(size_t size, size_t alignment) {
  if (alignment < kMinAlignment)
    alignment = kMinAlignment;
  if (alignment & (alignment - 1))
    return nullptr;
  // A multiple of the alignment, as aligned_alloc requires of its size
  // (alignment + size); also the pool's size classes.
  if (alignment > SIZE_MAX / 4 || size > SIZE_MAX - 2 * alignment)
    return nullptr;
  size = (size + alignment - 1) / alignment * alignment;
  if (size < kPoolMinBytes)
    if (SmallBlockCache *cache = SmallBlockCache::get())
      if (void *user = cache->take(size, alignment))
        return user;
  if (size >= kPoolMinBytes) {
    Pool &p = pool();
    std::lock_guard<std::mutex> lock(p.mutex);
    auto it = p.free.find({size, alignment});
    if (it != p.free.end() && !it->second.empty()) {
      void *user = it->second.back();
      it->second.pop_back();
      p.cachedBytes -= size;
      ++p.hits;
      return user;
    }
    ++p.misses;
  }
  // The user pointer sits `alignment` bytes into the block, the header just
  // before it. A large block is mapped from a shared file when the
  // alignment is at most a page's (mmap's).
  size_t mapped = 0;
  void *base = nullptr;
#ifdef __linux__
  size_t page = size >= kPoolMinBytes ? size_t(sysconf(_SC_PAGESIZE)) : 0;
  if (size >= kPoolMinBytes && alignment <= page) {
    mapped = (alignment + size + page - 1) / page * page;
    Pool &p = pool();
    std::lock_guard<std::mutex> lock(p.mutex);
    base = mapShared(p, mapped);
    if (!base)
      mapped = 0;
  }
#endif
  if (!base)
    base = std::aligned_alloc(alignment, alignment + size);
  if (!base)
    return nullptr;
  void *user = static_cast<char *>(base) + alignment;
  *headerOf(user) = {base, size, alignment, mapped};
  return user;
}

void release(void *user) {
  if (!user)
    return;
  Header h = *headerOf(user);
  if (h.size >= kPoolMinBytes) {
    Pool &p = pool();
    std::lock_guard<std::mutex> lock(p.mutex);
    auto shared = h.mapped ? p.shared.find(static_cast<const char *>(h.base))
                           : p.shared.end();
    bool bound = shared != p.shared.end() && !shared->second.memories.empty();
    if (bound || p.cachedBytes + h.size <= kPoolMaxBytes) {
      p.free[{h.size, h.alignment}].push_back(user);
      p.cachedBytes += h.size;
      return;
    }
    freeBlock(p, user);
    return;
  }
  SmallBlockCache *cache = SmallBlockCache::get();
  if (!cache) {
    std::free(h.base);
    return;
  }
  if (void *displaced = cache->keep(user, h.size, h.alignment))
    std::free(headerOf(displaced)->base);
}

} // namespace

ANeuralNetworksMemory *runtime::sharedMemoryFor(const NNAPIFunctionTable &fn,
                                                const void *data, size_t bytes,
                                                size_t &offset) {
  if (!fn.ANeuralNetworksMemory_createFromFd || !fn.ANeuralNetworksMemory_free)
    return nullptr;
  const char *at = static_cast<const char *>(data);
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto it = p.shared.upper_bound(at);
  if (it == p.shared.begin())
    return nullptr;
  --it;
  SharedBlock &block = it->second;
  if (size_t(at - it->first) > block.bytes ||
      bytes > block.bytes - size_t(at - it->first))
    return nullptr;
  offset = size_t(at - it->first);
  for (auto &[owner, memory] : block.memories)
    if (owner == &fn)
      return memory; // null: the library refused this block before
  ANeuralNetworksMemory *memory = nullptr;
#ifdef __linux__
  if (fn.ANeuralNetworksMemory_createFromFd(block.bytes, PROT_READ | PROT_WRITE,
                                            block.fd, 0, &memory) !=
      ANEURALNETWORKS_NO_ERROR)
    memory = nullptr;
#endif
  block.memories.emplace_back(&fn, memory);
  return memory;
}

void runtime::releaseSharedMemories(const NNAPIFunctionTable &fn) {
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  for (auto &[base, block] : p.shared)
    for (size_t i = 0; i < block.memories.size();)
      if (block.memories[i].first == &fn) {
        if (block.memories[i].second)
          fn.ANeuralNetworksMemory_free(block.memories[i].second);
        block.memories.erase(block.memories.begin() + long(i));
      } else {
        ++i;
      }
}

uint64_t runtime::sharedMemoryEpoch() {
  return epoch.load(std::memory_order_acquire);
}

extern "C" {

void *nnapi_rt_alloc(uint64_t size, uint64_t alignment) {
  return allocate(size_t(size), size_t(alignment));
}

void nnapi_rt_free(void *ptr) { release(ptr); }

void nnapi_rt_get_pool_stats(uint64_t *cachedBytes, uint64_t *hits,
                             uint64_t *misses) {
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (cachedBytes)
    *cachedBytes = p.cachedBytes;
  if (hits)
    *hits = p.hits;
  if (misses)
    *misses = p.misses;
}

void nnapi_rt_trim_pool(void) {
  Pool &p = pool();
  std::lock_guard<std::mutex> lock(p.mutex);
  epoch.fetch_add(1, std::memory_order_release);
  for (auto &entry : p.free)
    for (void *user : entry.second)
      freeBlock(p, user);
  p.free.clear();
  p.cachedBytes = 0;
}

// MLIR's generic allocation functions, called by compiled models.
void *_mlir_memref_to_llvm_alloc(uint64_t size) {
  return allocate(size_t(size), kMinAlignment);
}

void *_mlir_memref_to_llvm_aligned_alloc(uint64_t alignment, uint64_t size) {
  return allocate(size_t(size), size_t(alignment));
}

void _mlir_memref_to_llvm_free(void *ptr) { release(ptr); }

} // extern "C"
