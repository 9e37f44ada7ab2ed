//===- Model.cpp - Loading and running compiled models --------------------===//
//
// Model.h's C API: dlopen a model, check it (ELF headers before dlopen, the
// entry points, the signature), and run it with sizes checked.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Runtime/Model.h"
#include "nnapi-mlir/Runtime/ElfCheck.h"
#include "nnapi-mlir/Runtime/ModelABI.h"
#include "nnapi-mlir/Support/ParseCount.h"
#include "nnapi-mlir/Support/Sha256.h"

#include "Internal.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

using nnapi_mlir::parseCount;
using nnapi_mlir::runtime::failWith;
using nnapi_mlir::runtime::guarded;

namespace {

struct Tensor {
  std::string name, dtype;
  std::vector<int64_t> dims;
  uint64_t elementBytes = 0, bytes = 0;
  /// Compiled for one value, which every run checks (ModelABI.h).
  bool bound = false;
};

/// The largest tensor a signature may declare (bytes); a model claiming more
/// is malformed rather than something to allocate.
constexpr uint64_t kMaxTensorBytes = uint64_t(1) << 40;

/// Bytes per element of a signature dtype, 0 if it is not one.
uint64_t elementBytesOf(const std::string &dtype) {
  static const char *const kTypes[] = {"f64", "f32", "f16", "i1",
                                       "i8",  "i16", "i32", "i64",
                                       "u8",  "u16", "u32", "u64"};
  if (dtype == "bf16")
    return 2;
  for (const char *t : kTypes)
    if (dtype == t)
      return dtype == "i1" ? 1 : uint64_t(std::atoi(t + 1)) / 8;
  return 0;
}

} // namespace

struct nnapi_rt_model {
  void *handle = nullptr;
  nnapi_model_run_fn run = nullptr;
  std::string signature;
  int64_t partitions = 0;
  std::vector<Tensor> inputs, outputs;
  /// Runs in progress, which nnapi_rt_model_close waits for; once it has
  /// begun, new runs are refused.
  std::mutex mutex;
  std::condition_variable idle;
  int64_t running = 0;
  bool closing = false;
};

/// A run of `model` in progress, for as long as it is in scope (so that no
/// path out of a run, an exception included, leaves the count raised and
/// nnapi_rt_model_close waiting forever). `entered` is false if the model is
/// being closed: the run must not start.
struct RunScope {
  nnapi_rt_model &model;
  bool entered;
  explicit RunScope(nnapi_rt_model &m) : model(m) {
    std::lock_guard<std::mutex> lock(model.mutex);
    entered = !model.closing;
    if (entered)
      ++model.running;
  }
  ~RunScope() {
    if (!entered)
      return;
    std::lock_guard<std::mutex> lock(model.mutex);
    if (--model.running == 0)
      model.idle.notify_all();
  }
  RunScope(const RunScope &) = delete;
  RunScope &operator=(const RunScope &) = delete;
};

/// The signature versions this runtime reads: the one the compiler writes
/// (4: names percent-encoded) and the one before (3: names as they were,
/// without spaces). Older versions had no checksum, so accepting them would
/// let an edit of the header turn the check off.
constexpr int kSignatureVersion = 4;
constexpr int kOldestSignatureVersion = 3;

/// A name of a version-4 signature, %XX decoded; false for a malformed
/// escape.
static bool decodeName(const std::string &encoded, std::string &name) {
  name.clear();
  for (size_t i = 0; i < encoded.size(); ++i) {
    if (encoded[i] != '%') {
      name.push_back(encoded[i]);
      continue;
    }
    auto hex = [](char c) {
      return c >= '0' && c <= '9'   ? c - '0'
             : c >= 'A' && c <= 'F' ? c - 'A' + 10
             : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                    : -1;
    };
    if (i + 2 >= encoded.size())
      return false;
    int hi = hex(encoded[i + 1]), lo = hex(encoded[i + 2]);
    if (hi < 0 || lo < 0)
      return false;
    name.push_back(char(hi * 16 + lo));
    i += 2;
  }
  return true;
}

/// Reads ModelABI.h's signature text into `model`; false with `error`. The
/// text is "nnapi-mlir-model 4", then `partitions`, `input` and `output`
/// lines, then "checksum <SHA-256 of everything before it>" last; the
/// checksum is checked before any other line is read.
static bool parseSignature(const char *text, nnapi_rt_model &model,
                           std::string &error) {
  if (!text) {
    error = "the model's signature is missing (" +
            std::string(NNAPI_MODEL_SIGNATURE_SYMBOL) + " returned NULL)";
    return false;
  }
  model.signature = text;
  const std::string &sig = model.signature;
  bool encodedNames = false;
  {
    std::istringstream first(sig.substr(0, sig.find('\n')));
    std::string kind;
    int version = 0;
    if (!(first >> kind >> version) || kind != "nnapi-mlir-model") {
      error = "model signature lacks its header line";
      return false;
    }
    if (version < kOldestSignatureVersion || version > kSignatureVersion) {
      error = "unsupported model signature version " +
              std::to_string(version) + " (this runtime reads versions " +
              std::to_string(kOldestSignatureVersion) + " to " +
              std::to_string(kSignatureVersion) +
              "; compile the model again)";
      return false;
    }
    encodedNames = version >= 4;
  }
  size_t end = sig.find("\nchecksum ");
  if (end == std::string::npos) {
    error = "the model's signature lacks its checksum (it is damaged)";
    return false;
  }
  size_t after = sig.find('\n', end + 1);
  if (after != std::string::npos && after + 1 < sig.size()) {
    error = "the model's signature has text after its checksum";
    return false;
  }
  std::string given = sig.substr(end + 10, after == std::string::npos
                                                ? std::string::npos
                                                : after - end - 10);
  std::string want = nnapi_mlir::Sha256::hex(
      nnapi_mlir::Sha256().update(sig.data(), end + 1).finish());
  if (given != want) {
    error = "the model's signature is damaged (its checksum does not "
            "match); compile the model again";
    return false;
  }
  std::istringstream in(sig.substr(0, end + 1));
  std::string line;
  std::getline(in, line); // the header, read above
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string kind;
    ls >> kind;
    if (kind == "partitions") {
      if (!(ls >> model.partitions) || model.partitions < 0) {
        error = "malformed signature line '" + line + "'";
        return false;
      }
    } else if (kind == "input" || kind == "output") {
      Tensor t;
      size_t index;
      std::string dims;
      std::string flag;
      std::string name;
      if (!(ls >> index >> name >> t.dtype >> dims) ||
          (ls >> flag && (flag != "bound" || kind != "input")) ||
          (encodedNames ? !decodeName(name, t.name)
                        : (t.name = name, false))) {
        error = "malformed signature line '" + line + "'";
        return false;
      }
      t.bound = flag == "bound";
      t.elementBytes = elementBytesOf(t.dtype);
      if (!t.elementBytes) {
        error = "signature line '" + line + "' has an unknown element type";
        return false;
      }
      uint64_t bytes = t.elementBytes;
      if (dims != "scalar") {
        // The extra 'x' makes a trailing one ("2x") an empty, refused item.
        std::istringstream ds(dims + "x");
        std::string d;
        while (std::getline(ds, d, 'x')) {
          uint64_t v = 0;
          if (!parseCount(d, v) || (v != 0 && bytes > kMaxTensorBytes / v)) {
            error = "signature line '" + line +
                    "' has a malformed, negative or too large shape";
            return false;
          }
          bytes *= v;
          t.dims.push_back(int64_t(v));
        }
      }
      t.bytes = bytes;
      (kind == "input" ? model.inputs : model.outputs).push_back(t);
    } else {
      error = "unknown model signature line '" + line + "'";
      return false;
    }
  }
  return true;
}

extern "C" {

} // extern "C"

namespace {

/// The model loaded as `handle` (whose reference the model takes over):
/// checks its entry points and signature; `what` names it in messages.
int32_t adoptModel(void *handle, const std::string &what,
                   nnapi_rt_model **model) {
  auto run = reinterpret_cast<nnapi_model_run_fn>(
      dlsym(handle, NNAPI_MODEL_RUN_SYMBOL));
  auto signature = reinterpret_cast<nnapi_model_signature_fn>(
      dlsym(handle, NNAPI_MODEL_SIGNATURE_SYMBOL));
  if (!run || !signature) {
    dlclose(handle);
    return failWith(NNAPI_RT_INVALID_MODEL,
                    what + " is not an nnapi-mlir model (missing " +
                        NNAPI_MODEL_RUN_SYMBOL + "/" +
                        NNAPI_MODEL_SIGNATURE_SYMBOL + ")");
  }
  // Closed (and unloaded) on every way out but success.
  std::unique_ptr<nnapi_rt_model, void (*)(nnapi_rt_model *)> m(
      new nnapi_rt_model, nnapi_rt_model_close);
  m->handle = handle;
  m->run = run;
  std::string error;
  if (!parseSignature(signature(), *m, error))
    return failWith(NNAPI_RT_INVALID_MODEL, error);
  *model = m.release();
  return NNAPI_RT_OK;
}

/// Android's loader entry for a library inside another file (bionic's
/// <android/dlext.h>: the layout and flags are the platform's ABI).
struct AndroidDlextInfo {
  uint64_t flags;
  void *reservedAddr;
  size_t reservedSize;
  int relroFd;
  int libraryFd;
  int64_t libraryFdOffset;
  void *libraryNamespace;
};
constexpr uint64_t kDlextUseLibraryFd = 0x10;
constexpr uint64_t kDlextUseLibraryFdOffset = 0x20;
using AndroidDlopenExt = void *(*)(const char *, int, const AndroidDlextInfo *);

/// dlopen of the library at [offset, offset + length) of `fd`: Android's
/// android_dlopen_ext where the process has it (looked up, not linked),
/// else a copy of those bytes in an anonymous file, loaded by its
/// /proc/self/fd path. Null with `error` on failure.
void *dlopenRange(int fd, int64_t offset, int64_t length, std::string &error) {
  if (auto ext = reinterpret_cast<AndroidDlopenExt>(
          dlsym(RTLD_DEFAULT, "android_dlopen_ext"))) {
    AndroidDlextInfo info{};
    info.flags = kDlextUseLibraryFd | kDlextUseLibraryFdOffset;
    info.libraryFd = fd;
    info.libraryFdOffset = offset;
    std::string name = "nnapi-model@" + std::to_string(fd) + ":" +
                       std::to_string(offset);
    void *handle = ext(name.c_str(), RTLD_NOW | RTLD_LOCAL, &info);
    if (!handle)
      error = dlerror();
    return handle;
  }
  int copy = int(syscall(SYS_memfd_create, "nnapi-model", MFD_CLOEXEC));
  if (copy < 0) {
    error = std::string("memfd_create: ") + std::strerror(errno);
    return nullptr;
  }
  std::vector<char> chunk(1 << 20);
  for (int64_t done = 0; done < length;) {
    size_t want = size_t(std::min<int64_t>(int64_t(chunk.size()), length - done));
    ssize_t n = ::pread(fd, chunk.data(), want, offset + done);
    if (n <= 0 || ::write(copy, chunk.data(), size_t(n)) != n) {
      error = n == 0 ? "the file ends before the library does"
                     : std::string("copying the library: ") +
                           std::strerror(errno);
      ::close(copy);
      return nullptr;
    }
    done += n;
  }
  // The loader knows a library by the name it was opened with and returns
  // the one already loaded for a name it has seen: a /proc/self/fd path
  // must not be one a library still loaded (another model's copy, whose
  // descriptor was closed and reused) was opened under.
  std::set<std::string> loaded;
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *names) {
        if (info->dlpi_name)
          static_cast<std::set<std::string> *>(names)->insert(info->dlpi_name);
        return 0;
      },
      &loaded);
  auto pathOf = [](int n) { return "/proc/self/fd/" + std::to_string(n); };
  for (int next = copy; loaded.count(pathOf(copy));) {
    int other = ::fcntl(copy, F_DUPFD_CLOEXEC, next + 1);
    ::close(copy);
    if (other < 0) {
      error = std::string("no file descriptor for the copy: ") +
              std::strerror(errno);
      return nullptr;
    }
    copy = next = other;
  }
  void *handle = dlopen(pathOf(copy).c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    error = dlerror();
  ::close(copy); // the mapping keeps what it needs
  return handle;
}

} // namespace

extern "C" {

int32_t nnapi_rt_model_open(const char *path, nnapi_rt_model **model) {
  return guarded(__func__, [&]() -> int32_t {
    if (!path || !model)
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "nnapi_rt_model_open: null argument");
    *model = nullptr;
    std::string error;
    if (!nnapi_mlir::checkSharedObject(path, error))
      return failWith(NNAPI_RT_INVALID_MODEL,
                      "cannot load model '" + std::string(path) + "': " + error);
    // dlopen searches the library path for a bare name; a model is a file.
    std::string file = std::strchr(path, '/') ? path : "./" + std::string(path);
    void *handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      return failWith(NNAPI_RT_INVALID_MODEL,
                      std::string("cannot load model: ") + dlerror());
    return adoptModel(handle, "'" + std::string(path) + "'", model);
  });
}

int32_t nnapi_rt_model_open_loaded(const char *soname,
                                   nnapi_rt_model **model) {
  return guarded(__func__, [&]() -> int32_t {
    if (!soname || !model)
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "nnapi_rt_model_open_loaded: null argument");
    *model = nullptr;
    // RTLD_NOLOAD: a reference to the library already loaded, or nothing.
    void *handle = dlopen(soname, RTLD_NOW | RTLD_NOLOAD);
    if (!handle)
      return failWith(NNAPI_RT_INVALID_MODEL,
                      "no library '" + std::string(soname) +
                          "' is loaded in this process (load it first, e.g. "
                          "System.loadLibrary)");
    return adoptModel(handle, "'" + std::string(soname) + "'", model);
  });
}

int32_t nnapi_rt_model_open_fd(int fd, int64_t offset, int64_t length,
                               nnapi_rt_model **model) {
  return guarded(__func__, [&]() -> int32_t {
    if (!model)
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "nnapi_rt_model_open_fd: null argument");
    *model = nullptr;
    std::string where = "file descriptor " + std::to_string(fd) + " at " +
                        std::to_string(offset) + " (" +
                        std::to_string(length) + " bytes)";
    struct stat st;
    if (fd < 0 || ::fstat(fd, &st) != 0)
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "nnapi_rt_model_open_fd: " + std::to_string(fd) +
                          " is not an open file descriptor");
    if (offset < 0 || length <= 0 || !S_ISREG(st.st_mode) ||
        offset > st.st_size || length > st.st_size - offset)
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "nnapi_rt_model_open_fd: " + where +
                          " is not inside the file (" +
                          std::to_string(int64_t(st.st_size)) + " bytes)");
    // The same check as for a path, on the range's own bytes.
    std::string head(size_t(std::min<int64_t>(length, 64 * 1024)), '\0');
    ssize_t n = ::pread(fd, head.data(), head.size(), offset);
    std::string error;
    if (n < 0 || !nnapi_mlir::checkElfImage(
                     reinterpret_cast<const uint8_t *>(head.data()),
                     uint64_t(n), uint64_t(length), error))
      return failWith(NNAPI_RT_INVALID_MODEL,
                      "cannot load model from " + where + ": " +
                          (n < 0 ? std::string("cannot read it") : error));
    void *handle = dlopenRange(fd, offset, length, error);
    if (!handle)
      return failWith(NNAPI_RT_INVALID_MODEL,
                      "cannot load model from " + where + ": " + error);
    return adoptModel(handle, where, model);
  });
}

void nnapi_rt_model_close(nnapi_rt_model *model) {
  if (!model)
    return;
  {
    std::unique_lock<std::mutex> lock(model->mutex);
    model->closing = true;
    model->idle.wait(lock, [&] { return model->running == 0; });
  }
  nnapi_mlir::runtime::forgetPartitionsOf(
      reinterpret_cast<const void *>(model->run));
  dlclose(model->handle);
  delete model;
}

int64_t nnapi_rt_model_num_inputs(const nnapi_rt_model *model) {
  return model ? int64_t(model->inputs.size()) : 0;
}
int64_t nnapi_rt_model_num_outputs(const nnapi_rt_model *model) {
  return model ? int64_t(model->outputs.size()) : 0;
}
int64_t nnapi_rt_model_num_partitions(const nnapi_rt_model *model) {
  return model ? model->partitions : 0;
}
const char *nnapi_rt_model_signature(const nnapi_rt_model *model) {
  return model ? model->signature.c_str() : "";
}

static int32_t tensorInfo(const nnapi_rt_model *model, bool input,
                          int64_t index, nnapi_rt_tensor_info *info) {
  const char *kind = input ? "input" : "output";
  if (!model || !info)
    return failWith(NNAPI_RT_INVALID_ARGUMENT,
                    std::string("nnapi_rt_model_") + kind + ": null argument");
  const std::vector<Tensor> &tensors = input ? model->inputs : model->outputs;
  if (index < 0 || index >= int64_t(tensors.size()))
    return failWith(NNAPI_RT_INVALID_ARGUMENT,
                    std::string(kind) + " index " + std::to_string(index) +
                        " is out of range: the model has " +
                        std::to_string(tensors.size()) + " " + kind + "s");
  const Tensor &t = tensors[index];
  info->name = t.name.c_str();
  info->dtype = t.dtype.c_str();
  info->rank = int64_t(t.dims.size());
  info->dims = t.dims.data();
  info->elementBytes = t.elementBytes;
  info->bytes = t.bytes;
  return NNAPI_RT_OK;
}

int32_t nnapi_rt_model_input(const nnapi_rt_model *model, int64_t index,
                             nnapi_rt_tensor_info *info) {
  return tensorInfo(model, true, index, info);
}
int32_t nnapi_rt_model_output(const nnapi_rt_model *model, int64_t index,
                              nnapi_rt_tensor_info *info) {
  return tensorInfo(model, false, index, info);
}
int32_t nnapi_rt_model_input_is_bound(const nnapi_rt_model *model,
                                      int64_t index) {
  return model && index >= 0 && size_t(index) < model->inputs.size() &&
         model->inputs[index].bound;
}

int32_t nnapi_rt_model_run(nnapi_rt_model *model, int64_t numInputs,
                           const void *const *inputs,
                           const uint64_t *inputBytes, int64_t numOutputs,
                           void *const *outputs, const uint64_t *outputBytes) {
  return guarded(__func__, [&]() -> int32_t {
    if (!model)
      return failWith(NNAPI_RT_INVALID_ARGUMENT, "nnapi_rt_model_run: no model");
    auto check = [&](const char *kind, int64_t count, const void *pointers,
                     const uint64_t *sizes, const std::vector<Tensor> &tensors,
                     auto pointerAt) -> int32_t {
      if (count != int64_t(tensors.size()))
        return failWith(NNAPI_RT_INVALID_ARGUMENT,
                        "the model takes " + std::to_string(tensors.size()) +
                            " " + kind + "s, got " + std::to_string(count));
      if (count && (!pointers || !sizes))
        return failWith(NNAPI_RT_INVALID_ARGUMENT,
                        std::string("null ") + kind + " array");
      for (int64_t i = 0; i < count; ++i) {
        if (!pointerAt(i) && tensors[i].bytes)
          return failWith(NNAPI_RT_INVALID_ARGUMENT,
                          std::string(kind) + " " + std::to_string(i) + " ('" +
                              tensors[i].name + "') is a null pointer");
        if (sizes[i] != tensors[i].bytes)
          return failWith(NNAPI_RT_INVALID_ARGUMENT,
                          std::string(kind) + " " + std::to_string(i) + " ('" +
                              tensors[i].name + "', " + tensors[i].dtype +
                              ") needs " + std::to_string(tensors[i].bytes) +
                              " bytes, got " + std::to_string(sizes[i]));
      }
      return NNAPI_RT_OK;
    };
    if (int32_t s = check("input", numInputs, inputs, inputBytes, model->inputs,
                          [&](int64_t i) { return inputs[i]; }))
      return s;
    if (int32_t s = check("output", numOutputs, outputs, outputBytes,
                          model->outputs, [&](int64_t i) { return outputs[i]; }))
      return s;
    int32_t status;
    {
      RunScope scope(*model);
      if (!scope.entered)
        return failWith(NNAPI_RT_INVALID_ARGUMENT,
                        "nnapi_rt_model_run: the model is being closed");
      // The model's ABI takes non-const pointers; it never writes its inputs.
      status = model->run(const_cast<void *const *>(inputs), outputs);
    }
    if (status > 0 && size_t(status) <= model->inputs.size() &&
        model->inputs[status - 1].bound)
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "input " + std::to_string(status - 1) + " ('" +
                          model->inputs[status - 1].name +
                          "') does not hold the value the model was compiled "
                          "for (--input-value or --specialize-value decided "
                          "shapes or branches with it); nothing ran");
    if (status == NNAPI_MODEL_STATUS_LOOP_TIMEOUT)
      return failWith(NNAPI_RT_TIMEOUT,
                      "the run was stopped, its outputs are undefined: " +
                          nnapi_mlir::runtime::loopTimeoutMessage());
    if (status != 0)
      return failWith(NNAPI_RT_INVALID_MODEL,
                      "the model's " + std::string(NNAPI_MODEL_RUN_SYMBOL) +
                          " returned unknown status " + std::to_string(status));
    return NNAPI_RT_OK;
  });
}

} // extern "C"
