//===- FuzzCacheEntry.cpp - Plant anything in the host device's cache ------===//
//
// A cache directory may be shared, and whoever can write it can put
// anything under an entry's name. The first input byte chooses what is
// planted where the compilation of a small model will look for its entry:
// the rest of the input as the entry's bytes (a corrupted, truncated or
// forged entry), a directory, a FIFO, a link to /dev/zero, or a link to a
// file outside the directory. The compilation must then succeed (an entry is
// only ever a hint), compute the right values, leave the linked-to file as
// it was, and finish without blocking; a bad entry must be counted as
// rejected, and whatever the compilation wrote must be a regular file.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/HostDevice/HostExtensions.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"
#include "nnapi-mlir/Runtime/NNAPILoader.h"
#include "nnapi-mlir/Support/Sha256.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace nnapi_mlir;

namespace {

[[noreturn]] void die(const char *what) {
  std::fprintf(stderr, "fuzz-cache-entry: %s\n", what);
  std::abort();
}

const NNAPIFunctionTable &library() {
  static NNAPIFunctionTable table = [] {
    NNAPIFunctionTable t;
    std::string error;
    if (!loadNNAPILibrary(NNAPI_HOST_LIBRARY, t, error))
      die(error.c_str());
    return t;
  }();
  return table;
}

/// y = x + x on 4 floats, finished.
ANeuralNetworksModel *addModel() {
  const NNAPIFunctionTable &fn = library();
  ANeuralNetworksModel *m = nullptr;
  uint32_t dims[] = {4};
  ANeuralNetworksOperandType tensor{ANEURALNETWORKS_TENSOR_FLOAT32, 1, dims,
                                    0.0f, 0};
  ANeuralNetworksOperandType scalar{ANEURALNETWORKS_INT32, 0, nullptr, 0.0f,
                                    0};
  int32_t none = ANEURALNETWORKS_FUSED_NONE;
  uint32_t in[] = {0, 0, 1}, out[] = {2}, x[] = {0};
  if (fn.ANeuralNetworksModel_create(&m) ||
      fn.ANeuralNetworksModel_addOperand(m, &tensor) ||
      fn.ANeuralNetworksModel_addOperand(m, &scalar) ||
      fn.ANeuralNetworksModel_addOperand(m, &tensor) ||
      fn.ANeuralNetworksModel_setOperandValue(m, 1, &none, sizeof none) ||
      fn.ANeuralNetworksModel_addOperation(m, ANEURALNETWORKS_ADD, 3, in, 1,
                                           out) ||
      fn.ANeuralNetworksModel_identifyInputsAndOutputs(m, 1, x, 1, out) ||
      fn.ANeuralNetworksModel_finish(m))
    die("cannot build the model");
  return m;
}

struct Workspace {
  std::string dir, entry, outside;
  uint8_t token[32];
  Workspace() {
    char pattern[] = "/tmp/fuzz-cache-entry-XXXXXX";
    if (!mkdtemp(pattern))
      die("cannot make a directory");
    dir = pattern;
    outside = dir + ".outside";
    Sha256::Digest digest = Sha256().update(std::string("token")).finish();
    std::memcpy(token, digest.data(), 32);
    // The host device's entry name (lib/HostDevice/Cache.h).
    entry = dir + "/" + Sha256::hex(digest) + ".nnapi-host-cache";
  }
  ~Workspace() {
    std::string command = "rm -rf '" + dir + "' '" + outside + "'";
    if (std::system(command.c_str()) != 0)
      std::fprintf(stderr, "fuzz-cache-entry: cannot remove %s\n",
                   dir.c_str());
  }
  /// Removes whatever is at the entry's name, and stray temporary files.
  void clear() {
    std::string command = "rm -rf '" + dir + "'/* '" + outside + "'";
    if (std::system(command.c_str()) != 0)
      die("cannot clear the directory");
  }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static Workspace w;
  const NNAPIFunctionTable &fn = library();
  w.clear();
  const char *outsideText = "a file outside the cache directory";
  if (FILE *f = std::fopen(w.outside.c_str(), "w")) {
    std::fputs(outsideText, f);
    std::fclose(f);
  }
  uint8_t kind = size ? data[0] % 5 : 0;
  const uint8_t *bytes = size ? data + 1 : data;
  size_t count = size ? size - 1 : 0;
  bool planted = true;
  switch (kind) {
  case 0:
    if (FILE *f = std::fopen(w.entry.c_str(), "wb")) {
      if (count)
        std::fwrite(bytes, 1, count, f);
      std::fclose(f);
    }
    break;
  case 1:
    planted = mkdir(w.entry.c_str(), 0700) == 0;
    break;
  case 2:
    planted = mkfifo(w.entry.c_str(), 0600) == 0;
    break;
  case 3:
    planted = symlink("/dev/zero", w.entry.c_str()) == 0;
    break;
  case 4:
    planted = symlink(w.outside.c_str(), w.entry.c_str()) == 0;
    break;
  }
  if (!planted)
    die("cannot plant the entry");

  ANeuralNetworksModel *model = addModel();
  ANeuralNetworksDevice *device = nullptr;
  if (fn.ANeuralNetworks_getDevice(0, &device))
    die("no device");
  auto counters = reinterpret_cast<NNAPIMLIRHost_getDeviceCounters_fn>(
      dlsym(library().handle, "NNAPIMLIRHost_getDeviceCounters"));
  NNAPIMLIRHostDeviceCounters before{}, after{};
  counters(device, &before);
  ANeuralNetworksCompilation *c = nullptr;
  if (fn.ANeuralNetworksCompilation_createForDevices(model, &device, 1, &c) ||
      fn.ANeuralNetworksCompilation_setCaching(c, w.dir.c_str(), w.token) ||
      fn.ANeuralNetworksCompilation_finish(c))
    die("the compilation failed because of its cache entry");
  counters(device, &after);
  if (kind != 0 &&
      after.cacheEntriesRejected != before.cacheEntriesRejected + 1)
    die("a planted non-entry was not counted as rejected");

  float x[4] = {1, -2, 0.5f, 3}, y[4] = {};
  ANeuralNetworksExecution *e = nullptr;
  if (fn.ANeuralNetworksExecution_create(c, &e) ||
      fn.ANeuralNetworksExecution_setInput(e, 0, nullptr, x, sizeof x) ||
      fn.ANeuralNetworksExecution_setOutput(e, 0, nullptr, y, sizeof y) ||
      fn.ANeuralNetworksExecution_compute(e))
    die("the execution failed");
  for (int i = 0; i < 4; ++i)
    if (y[i] != 2 * x[i])
      die("wrong result");
  fn.ANeuralNetworksExecution_free(e);
  fn.ANeuralNetworksCompilation_free(c);
  fn.ANeuralNetworksModel_free(model);

  // The file outside is untouched; what is at the entry's name now is the
  // device's own regular file or what was planted, never written through.
  std::string text;
  if (FILE *f = std::fopen(w.outside.c_str(), "r")) {
    char buffer[128];
    size_t n = std::fread(buffer, 1, sizeof buffer, f);
    text.assign(buffer, n);
    std::fclose(f);
  }
  if (text != outsideText)
    die("the file a planted link named was changed");
  struct stat st;
  if (after.cacheEntriesWritten != before.cacheEntriesWritten &&
      (lstat(w.entry.c_str(), &st) != 0 || !S_ISREG(st.st_mode)))
    die("a written entry is not a regular file");
  return 0;
}
