//===- Memory.cpp - Buffers of compiled models, kept between calls --------===//
//
// A compiled model allocates its intermediate buffers through MLIR's generic
// allocation functions (finalize-memref-to-llvm use-generic-functions), which
// the runtime defines here. Large blocks are kept in a pool when freed and
// handed out again for a request of the same size, so a model that runs
// repeatedly stops paying for fresh pages (mmap, page faults, zeroing) on
// every call. Small blocks go straight to malloc. The pool is bounded; it is
// shared by every model in the process and safe to use from any thread.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Runtime/Runtime.h"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <vector>

namespace {

/// Blocks from this size on are pooled (smaller ones are cheap to malloc).
constexpr size_t kPoolMinBytes = 64 * 1024;
/// At most this many bytes wait in the pool; beyond, freed blocks are
/// returned to the system.
constexpr size_t kPoolMaxBytes = size_t(1) << 30;
constexpr size_t kMinAlignment = 64;

/// Stored just before every block handed out.
struct Header {
  void *base;       ///< What the system allocator returned.
  size_t size;      ///< Usable bytes (rounded up).
  size_t alignment; ///< Alignment of the user pointer.
  size_t pad;
};
static_assert(sizeof(Header) <= kMinAlignment, "header must fit the offset");

struct Pool {
  std::mutex mutex;
  std::map<std::pair<size_t, size_t>, std::vector<void *>> free; // (size, alignment)
  size_t cachedBytes = 0;
  uint64_t hits = 0, misses = 0;
};

Pool &pool() {
  static Pool *p = new Pool(); // never destroyed: models may free at exit
  return *p;
}

Header *headerOf(void *user) {
  return reinterpret_cast<Header *>(static_cast<char *>(user) - sizeof(Header));
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
  // before it.
  void *base = std::aligned_alloc(alignment, alignment + size);
  if (!base)
    return nullptr;
  void *user = static_cast<char *>(base) + alignment;
  *headerOf(user) = {base, size, alignment, 0};
  return user;
}

void release(void *user) {
  if (!user)
    return;
  Header h = *headerOf(user);
  if (h.size >= kPoolMinBytes) {
    Pool &p = pool();
    std::lock_guard<std::mutex> lock(p.mutex);
    if (p.cachedBytes + h.size <= kPoolMaxBytes) {
      p.free[{h.size, h.alignment}].push_back(user);
      p.cachedBytes += h.size;
      return;
    }
  }
  std::free(h.base);
}

} // namespace

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
  for (auto &entry : p.free)
    for (void *user : entry.second)
      std::free(headerOf(user)->base);
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
