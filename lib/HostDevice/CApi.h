//===- CApi.h - The host device's C API objects, internal -------*- C++ -*-===//
//
// What the files implementing the NNAPI C API on the host share: the model
// object (ModelApi.cpp builds and finishes it, HostNNAPI.cpp compiles and
// runs it), the memory object (MemoryApi.cpp maps it, HostNNAPI.cpp binds
// executions to it) and how an exported function turns a C++ exception into
// a result code.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_HOSTDEVICE_CAPI_H
#define NNAPI_MLIR_LIB_HOSTDEVICE_CAPI_H

#include "HostModel.h"

#include <cstddef>
#include <exception>
#include <new>
#include <string>

struct ANeuralNetworksModel : nnapi_mlir::host::HostModel {
  bool finished = false;
};

/// A file descriptor's range mapped into this process
/// (ANeuralNetworksMemory_createFromFd): shared with whoever else maps the
/// file, as a driver in another process would be.
struct ANeuralNetworksMemory {
  void *mapping = nullptr; ///< What mmap returned (page-aligned).
  size_t mappingBytes = 0;
  char *data = nullptr; ///< The range's first byte, inside the mapping.
  size_t size = 0;
  int protect = 0; ///< PROT_READ and/or PROT_WRITE.
  ~ANeuralNetworksMemory();
};

namespace nnapi_mlir::host {
/// Runs the body of an exported function. A C++ exception (out of memory,
/// or one a library throws: libstdc++'s file streams throw on read errors
/// whatever their exception mask) becomes a result code with its reason,
/// since nothing may unwind into a C caller.
template <typename F> int guarded(const char *function, F &&body) noexcept {
  int code = ANEURALNETWORKS_OP_FAILED;
  const char *what = "an unknown exception";
  try {
    return body();
  } catch (const std::bad_alloc &) {
    code = ANEURALNETWORKS_OUT_OF_MEMORY;
    what = "out of memory";
  } catch (const std::exception &e) {
    what = e.what();
  } catch (...) {
  }
  try {
    return fail(code, std::string(function) + ": " + what);
  } catch (...) {
    return code; // no memory even for the message
  }
}
} // namespace nnapi_mlir::host

#endif // NNAPI_MLIR_LIB_HOSTDEVICE_CAPI_H
