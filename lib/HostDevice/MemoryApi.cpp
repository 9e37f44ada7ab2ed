//===- MemoryApi.cpp - ANeuralNetworksMemory_* on the host ----------------===//
//
// Memory made from a file descriptor: the range is mapped (MAP_SHARED), so
// what the caller writes through its own mapping of the file is what the
// execution reads, without a copy; executions bind it in HostNNAPI.cpp.
//
//===----------------------------------------------------------------------===//

#include "CApi.h"

#include <cstdint>
#include <memory>
#include <string>

#include <sys/mman.h>
#include <unistd.h>

using namespace nnapi_mlir::host;

ANeuralNetworksMemory::~ANeuralNetworksMemory() {
  if (mapping)
    munmap(mapping, mappingBytes);
}

extern "C" {

int ANeuralNetworksMemory_createFromFd(size_t size, int protect, int fd,
                                       size_t offset,
                                       ANeuralNetworksMemory **memory) {
  return guarded(__func__, [&]() -> int {
    if (!memory)
      return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
    *memory = nullptr;
    if (fd < 0)
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "invalid file descriptor " + std::to_string(fd));
    if (size == 0)
      return fail(ANEURALNETWORKS_BAD_DATA, "memory of 0 bytes");
    if (protect & ~(PROT_READ | PROT_WRITE) || !(protect & PROT_READ))
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "protection " + std::to_string(protect) +
                      " is not PROT_READ, with or without PROT_WRITE");
    // mmap takes a page-aligned offset: map from the page holding `offset`.
    size_t page = size_t(sysconf(_SC_PAGESIZE));
    size_t start = offset / page * page;
    size_t lead = offset - start;
    if (size > SIZE_MAX - lead || offset > size_t(INT64_MAX))
      return fail(ANEURALNETWORKS_BAD_DATA, "memory range overflows");
    auto m = std::make_unique<ANeuralNetworksMemory>();
    void *mapped = mmap(nullptr, lead + size, protect, MAP_SHARED, fd,
                        off_t(start));
    if (mapped == MAP_FAILED)
      return fail(ANEURALNETWORKS_UNMAPPABLE,
                  "cannot map " + std::to_string(size) +
                      " bytes of file descriptor " + std::to_string(fd) +
                      " at offset " + std::to_string(offset));
    m->mapping = mapped;
    m->mappingBytes = lead + size;
    m->data = static_cast<char *>(mapped) + lead;
    m->size = size;
    m->protect = protect;
    *memory = m.release();
    return ANEURALNETWORKS_NO_ERROR;
  });
}

void ANeuralNetworksMemory_free(ANeuralNetworksMemory *memory) {
  delete memory;
}

} // extern "C"
