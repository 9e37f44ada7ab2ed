//===- CApi.h - The host device's C API objects, internal -------*- C++ -*-===//
//
// What the files implementing the NNAPI C API on the host share: the model
// object (ModelApi.cpp builds and finishes it, HostNNAPI.cpp compiles and
// runs it) and how an exported function turns a C++ exception into a result
// code.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_HOSTDEVICE_CAPI_H
#define NNAPI_MLIR_LIB_HOSTDEVICE_CAPI_H

#include "HostModel.h"

#include <exception>
#include <new>
#include <string>

struct ANeuralNetworksModel : nnapi_mlir::host::HostModel {
  bool finished = false;
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
