//===- NNAPILoader.cpp - Fill the NNAPI function table with dlsym ---------===//

#include "nnapi-mlir/Runtime/NNAPILoader.h"
#include "nnapi-mlir/Runtime/ElfCheck.h"

#include <dlfcn.h>
#include <sys/stat.h>

namespace nnapi_mlir {

std::string defaultNNAPILibraryPath() {
#ifdef __ANDROID__
  return "libneuralnetworks.so";
#else
  Dl_info info;
  if (dladdr(reinterpret_cast<void *>(&defaultNNAPILibraryPath), &info) &&
      info.dli_fname) {
    std::string self = info.dli_fname;
    size_t slash = self.rfind('/');
    if (slash != std::string::npos) {
      std::string candidate = self.substr(0, slash + 1) + "libnnapi_host.so";
      struct stat st;
      if (stat(candidate.c_str(), &st) == 0)
        return candidate;
    }
  }
  return "libnnapi_host.so";
#endif
}

bool loadNNAPILibrary(const std::string &path, NNAPIFunctionTable &table,
                      std::string &error) {
  table = NNAPIFunctionTable();
  std::string why;
  if (!checkSharedObject(path, why)) {
    error = "cannot load NNAPI library '" + path + "': " + why;
    return false;
  }
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *reason = dlerror();
    error =
        "cannot load NNAPI library '" + path + "': " + (reason ? reason : "?");
    return false;
  }
#define NNAPI_MLIR_RESOLVE(name, ret, params, args)                            \
  table.name = reinterpret_cast<ret(*) params>(dlsym(handle, #name));          \
  if (!table.name) {                                                           \
    error = "NNAPI library '" + path + "' lacks required function " #name;     \
    dlclose(handle);                                                           \
    table = NNAPIFunctionTable();                                              \
    return false;                                                              \
  }
  NNAPI_MLIR_FOR_EACH_FUNCTION(NNAPI_MLIR_RESOLVE)
#undef NNAPI_MLIR_RESOLVE
#define NNAPI_MLIR_RESOLVE_OPTIONAL(name, ret, params, args)                   \
  table.name = reinterpret_cast<ret(*) params>(dlsym(handle, #name));
  NNAPI_MLIR_FOR_EACH_OPTIONAL_FUNCTION(NNAPI_MLIR_RESOLVE_OPTIONAL)
#undef NNAPI_MLIR_RESOLVE_OPTIONAL
  table.hostLastError = reinterpret_cast<const char *(*)()>(
      dlsym(handle, "NNAPIMLIRHost_lastError"));
  table.hostSetCompilationThreadPool =
      reinterpret_cast<int (*)(ANeuralNetworksCompilation *, void *)>(
          dlsym(handle, "NNAPIMLIRHost_setCompilationThreadPool"));
  table.handle = handle;
  return true;
}

} // namespace nnapi_mlir
