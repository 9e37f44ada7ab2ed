//===- NNAPILoader.h - NNAPI function table loaded with dlopen ------------===//
//
// The runtime never calls an NNAPI symbol directly: it calls through this
// table, which is filled from a shared library with dlsym (or by a test that
// wants to inject failures).
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_RUNTIME_NNAPILOADER_H
#define NNAPI_MLIR_RUNTIME_NNAPILOADER_H

#include "nnapi-mlir/NNAPI/NeuralNetworks.h"

#include <string>

namespace nnapi_mlir {

struct NNAPIFunctionTable {
#define NNAPI_MLIR_MEMBER(name, ret, params, args) ret(*name) params = nullptr;
  NNAPI_MLIR_FOR_EACH_FUNCTION(NNAPI_MLIR_MEMBER)
  NNAPI_MLIR_FOR_EACH_OPTIONAL_FUNCTION(NNAPI_MLIR_MEMBER)
#undef NNAPI_MLIR_MEMBER
  /// NNAPIMLIRHost_lastError of the host implementation (not part of NNAPI):
  /// explains the last failing call. Null for other libraries.
  const char *(*hostLastError)() = nullptr;
  /// NNAPIMLIRHost_setCompilationThreadPool of the host implementation: the
  /// pool (pthreadpool_t) a compilation, once finished, runs its operators
  /// on; the caller keeps it alive as long as the compilation. Null for
  /// other libraries.
  int (*hostSetCompilationThreadPool)(ANeuralNetworksCompilation *,
                                      void *pool) = nullptr;
  void *handle = nullptr; ///< dlopen handle, or null for injected tables.
};

/// Default library: libneuralnetworks.so on Android; elsewhere
/// libnnapi_host.so next to the library containing this code, if present.
std::string defaultNNAPILibraryPath();

/// dlopens `path` and resolves every required function. On failure returns
/// false with a message naming the library and the missing symbol.
bool loadNNAPILibrary(const std::string &path, NNAPIFunctionTable &table,
                      std::string &error);

/// Installs a table for the runtime to use instead of loading a library
/// (tests inject failing functions this way). Null restores loading.
void setNNAPIFunctionTableForTesting(const NNAPIFunctionTable *table);

} // namespace nnapi_mlir

#endif // NNAPI_MLIR_RUNTIME_NNAPILOADER_H
