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
#include <array>
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
  /// -1 for a dynamic dimension, whose sizes are [low[d], high[d]] (for a
  /// static one low[d] == high[d] == dims[d]).
  std::vector<int64_t> dims, low, high;
  /// bytes is 0 for a tensor with dynamic dimensions.
  uint64_t elementBytes = 0, bytes = 0;
  bool dynamic = false;
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
  /// A model with dynamic dimensions (signature version 5) has these
  /// instead of `run`.
  nnapi_model_run_dims_fn runDims = nullptr;
  nnapi_model_output_dims_fn outputDims = nullptr;
  bool dynamic = false;
  std::string signature;
  /// How messages name it ("'libcnn.so'").
  std::string what;
  /// The thread count its placement assumed (nnapi_model_placement_threads;
  /// 0: not recorded), compared with the runtime's at its first run.
  int32_t placementThreads = 0;
  std::once_flag threadsChecked;
  int64_t partitions = 0;
  std::vector<Tensor> inputs, outputs;
  /// The typical shapes it was compiled with (--shape-buckets): one dims
  /// vector per input each; opening the model runs it at each (warmUp).
  std::vector<std::vector<std::vector<int64_t>>> buckets;
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
    {
      std::lock_guard<std::mutex> lock(model.mutex);
      entered = !model.closing;
      if (entered)
        ++model.running;
    }
    if (entered && model.placementThreads > 0)
      std::call_once(model.threadsChecked, [&] {
        nnapi_mlir::runtime::checkPlacementThreads(model.what,
                                                   model.placementThreads);
      });
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
/// Version 5 adds dynamic dimensions ("?", "[low..high]").
constexpr int kSignatureVersion = 5;
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

/// A 'bucket' line's shapes ("1x1x32x100,scalar"): one per input (declared
/// before it), each dimension within the input's range.
static bool parseBucket(const std::string &text, nnapi_rt_model &model) {
  std::vector<std::vector<int64_t>> shapes;
  std::istringstream in(text + ",");
  std::string shape;
  while (std::getline(in, shape, ',')) {
    size_t i = shapes.size();
    if (i >= model.inputs.size())
      return false;
    const Tensor &t = model.inputs[i];
    std::vector<int64_t> dims;
    if (shape == "scalar" && t.low.empty()) {
      shapes.push_back(dims);
      continue;
    }
    std::istringstream ds(shape + "x");
    std::string d;
    uint64_t v;
    while (std::getline(ds, d, 'x')) {
      size_t k = dims.size();
      if (!parseCount(d, v) || k >= t.low.size() || int64_t(v) < t.low[k] ||
          int64_t(v) > t.high[k])
        return false;
      dims.push_back(int64_t(v));
    }
    if (dims.size() != t.low.size())
      return false;
    shapes.push_back(std::move(dims));
  }
  if (shapes.size() != model.inputs.size())
    return false;
  model.buckets.push_back(std::move(shapes));
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
  int version = 0;
  {
    std::istringstream first(sig.substr(0, sig.find('\n')));
    std::string kind;
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
          uint64_t v = 0, low = 0, high = 0;
          size_t dots = d.find("..");
          bool isDynamic =
              version >= 5 && !d.empty() && (d == "?" || d.front() == '[');
          if (isDynamic && d == "?") {
            low = 1;
            high = uint64_t(NNAPI_MODEL_MAX_DYNAMIC_DIM);
          } else if (isDynamic) {
            if (d.size() < 6 || d.back() != ']' || dots == std::string::npos ||
                !parseCount(d.substr(1, dots - 1), low) ||
                !parseCount(d.substr(dots + 2, d.size() - dots - 3), high) ||
                low < 1 || low > high || high > uint64_t(NNAPI_MODEL_MAX_DYNAMIC_DIM)) {
              error = "signature line '" + line +
                      "' has a malformed dimension range '" + d + "'";
              return false;
            }
          } else if (!parseCount(d, v) ||
                     (v != 0 && bytes > kMaxTensorBytes / v)) {
            error = "signature line '" + line +
                    "' has a malformed, negative or too large shape";
            return false;
          } else {
            low = high = v;
          }
          t.dynamic |= isDynamic;
          if (!isDynamic)
            bytes *= v;
          t.dims.push_back(isDynamic ? -1 : int64_t(v));
          t.low.push_back(int64_t(low));
          t.high.push_back(int64_t(high));
        }
      }
      if (t.dynamic) {
        if (t.bound) {
          error = "signature line '" + line +
                  "' binds an input with dynamic dimensions";
          return false;
        }
        bytes = 0;
        model.dynamic = true;
      }
      t.bytes = bytes;
      (kind == "input" ? model.inputs : model.outputs).push_back(t);
    } else if (kind == "bucket" && version >= 5) {
      std::string text;
      if (!(ls >> text) || !parseBucket(text, model)) {
        error = "malformed signature line '" + line + "'";
        return false;
      }
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

/// Runs the model once at each of its shape buckets (zeros in, results
/// dropped), so that the runtime has its dynamic partitions specialized and
/// compiled for those shapes before the first call. Nothing to do in
/// host-only mode; a failure is no error (the call would meet it anyway).
void warmUp(nnapi_rt_model &m) {
  if (m.buckets.empty() || nnapi_rt_get_mode() == NNAPI_RT_MODE_HOST_ONLY)
    return;
  auto bytesOf = [](const Tensor &t, const std::vector<int64_t> &dims) {
    uint64_t n = t.elementBytes;
    for (int64_t d : dims)
      n *= uint64_t(d);
    return n;
  };
  for (const std::vector<std::vector<int64_t>> &bucket : m.buckets) {
    std::vector<const int64_t *> inDims;
    for (const std::vector<int64_t> &dims : bucket)
      inDims.push_back(dims.data());
    std::vector<std::vector<int64_t>> outShapes;
    std::vector<int64_t *> outDims;
    for (const Tensor &t : m.outputs)
      outShapes.emplace_back(t.low.size());
    for (std::vector<int64_t> &dims : outShapes)
      outDims.push_back(dims.data());
    if (nnapi_rt_model_output_dims(&m, int64_t(bucket.size()), inDims.data(),
                                   int64_t(outDims.size()),
                                   outDims.data()) != NNAPI_RT_OK)
      continue;
    std::vector<std::vector<uint8_t>> buffers;
    std::vector<const void *> inputs;
    std::vector<void *> outputs;
    std::vector<uint64_t> inBytes, outBytes;
    for (size_t i = 0; i < bucket.size(); ++i) {
      inBytes.push_back(bytesOf(m.inputs[i], bucket[i]));
      buffers.emplace_back(size_t(std::max<uint64_t>(inBytes.back(), 1)));
      inputs.push_back(buffers.back().data());
    }
    for (size_t i = 0; i < outShapes.size(); ++i) {
      outBytes.push_back(bytesOf(m.outputs[i], outShapes[i]));
      buffers.emplace_back(size_t(std::max<uint64_t>(outBytes.back(), 1)));
      outputs.push_back(buffers.back().data());
    }
    nnapi_rt_model_run_dims(&m, int64_t(inputs.size()), inputs.data(),
                            inBytes.data(), inDims.data(),
                            int64_t(outputs.size()), outputs.data(),
                            outBytes.data());
  }
}

/// The model loaded as `handle` (whose reference the model takes over):
/// checks its entry points and signature; `what` names it in messages.
int32_t adoptModel(void *handle, const std::string &what,
                   nnapi_rt_model **model) {
  auto signature = reinterpret_cast<nnapi_model_signature_fn>(
      dlsym(handle, NNAPI_MODEL_SIGNATURE_SYMBOL));
  // Closed (and unloaded) on every way out but success.
  std::unique_ptr<nnapi_rt_model, void (*)(nnapi_rt_model *)> m(
      new nnapi_rt_model, nnapi_rt_model_close);
  m->handle = handle;
  std::string error;
  if (signature && !parseSignature(signature(), *m, error))
    return failWith(NNAPI_RT_INVALID_MODEL, error);
  if (m->dynamic) {
    m->runDims = reinterpret_cast<nnapi_model_run_dims_fn>(
        dlsym(handle, NNAPI_MODEL_RUN_DIMS_SYMBOL));
    m->outputDims = reinterpret_cast<nnapi_model_output_dims_fn>(
        dlsym(handle, NNAPI_MODEL_OUTPUT_DIMS_SYMBOL));
  } else {
    m->run = reinterpret_cast<nnapi_model_run_fn>(
        dlsym(handle, NNAPI_MODEL_RUN_SYMBOL));
  }
  if (!signature || (m->dynamic ? !m->runDims || !m->outputDims : !m->run))
    return failWith(
        NNAPI_RT_INVALID_MODEL,
        what + " is not an nnapi-mlir model (missing " +
            NNAPI_MODEL_SIGNATURE_SYMBOL + " or " +
            (signature && m->dynamic
                 ? std::string(NNAPI_MODEL_RUN_DIMS_SYMBOL) + "/" +
                       NNAPI_MODEL_OUTPUT_DIMS_SYMBOL
                 : std::string(NNAPI_MODEL_RUN_SYMBOL)) +
            ")");
  m->what = what;
  if (auto threads = reinterpret_cast<int32_t (*)()>(
          dlsym(handle, NNAPI_MODEL_PLACEMENT_THREADS_SYMBOL)))
    m->placementThreads = threads();
  warmUp(*m);
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
    if (!handle) {
      std::string why = dlerror();
      // A model compiled with nnapi-compile --sanitize=thread calls
      // ThreadSanitizer's runtime, which only such a process has.
      if (why.find("undefined symbol: __tsan_") != std::string::npos)
        why += " (the model was compiled with --sanitize=thread: it loads "
               "only into a process built with -fsanitize=thread)";
      return failWith(NNAPI_RT_INVALID_MODEL, "cannot load model: " + why);
    }
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
      model->run ? reinterpret_cast<const void *>(model->run)
                 : reinterpret_cast<const void *>(model->runDims));
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

/// What a model's run function returned, as a runtime status.
static int32_t runStatus(const nnapi_rt_model &model, int32_t status,
                         const char *symbol) {
  if (status > 0 && size_t(status) <= model.inputs.size() &&
      model.inputs[status - 1].bound)
    return failWith(NNAPI_RT_INVALID_ARGUMENT,
                    "input " + std::to_string(status - 1) + " ('" +
                        model.inputs[status - 1].name +
                        "') does not hold the value the model was compiled "
                        "for (--input-value or --specialize-value decided "
                        "shapes or branches with it); nothing ran");
  if (status == NNAPI_MODEL_STATUS_LOOP_TIMEOUT)
    return failWith(NNAPI_RT_TIMEOUT,
                    "the run was stopped, its outputs are undefined: " +
                        nnapi_mlir::runtime::loopTimeoutMessage());
  if (status != 0)
    return failWith(NNAPI_RT_INVALID_MODEL,
                    "the model's " + std::string(symbol) +
                        " returned unknown status " + std::to_string(status));
  return NNAPI_RT_OK;
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
    if (model->dynamic)
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "the model has dynamic dimensions: run it with "
                      "nnapi_rt_model_run_dims, which takes the inputs' "
                      "dimensions");
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
    return runStatus(*model, status, NNAPI_MODEL_RUN_SYMBOL);
  });
}

int32_t nnapi_rt_model_dims_range(const nnapi_rt_model *model, int32_t input,
                                  int64_t index, int64_t *low, int64_t *high) {
  if (!model)
    return failWith(NNAPI_RT_INVALID_ARGUMENT,
                    "nnapi_rt_model_dims_range: no model");
  const std::vector<Tensor> &tensors = input ? model->inputs : model->outputs;
  if (index < 0 || index >= int64_t(tensors.size()))
    return failWith(NNAPI_RT_INVALID_ARGUMENT,
                    "nnapi_rt_model_dims_range: index " +
                        std::to_string(index) + " is out of range");
  const Tensor &t = tensors[index];
  if (!t.dims.empty() && (!low || !high))
    return failWith(NNAPI_RT_INVALID_ARGUMENT,
                    "nnapi_rt_model_dims_range: null argument");
  std::copy(t.low.begin(), t.low.end(), low);
  std::copy(t.high.begin(), t.high.end(), high);
  return NNAPI_RT_OK;
}

int32_t nnapi_rt_model_is_dynamic(const nnapi_rt_model *model) {
  return model && model->dynamic;
}

} // extern "C"

namespace {

/// Checks `dims` (one array per input) against the model's inputs' ranges;
/// the message names the first input and dimension outside.
int32_t checkInputDims(const nnapi_rt_model &model, int64_t numInputs,
                       const int64_t *const *dims) {
  if (numInputs != int64_t(model.inputs.size()))
    return failWith(NNAPI_RT_INVALID_ARGUMENT,
                    "the model takes " + std::to_string(model.inputs.size()) +
                        " inputs, got " + std::to_string(numInputs));
  if (numInputs && !dims)
    return failWith(NNAPI_RT_INVALID_ARGUMENT, "null input dimensions array");
  for (int64_t i = 0; i < numInputs; ++i) {
    const Tensor &t = model.inputs[i];
    if (!dims[i] && !t.dims.empty())
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "input " + std::to_string(i) + " ('" + t.name +
                          "') has null dimensions");
    for (size_t d = 0; d < t.dims.size(); ++d)
      if (dims[i][d] < t.low[d] || dims[i][d] > t.high[d])
        return failWith(
            NNAPI_RT_INVALID_ARGUMENT,
            "input " + std::to_string(i) + " ('" + t.name + "') dimension " +
                std::to_string(d) + " is " + std::to_string(dims[i][d]) +
                (t.dims[d] < 0
                     ? ", outside the range the model was compiled for [" +
                           std::to_string(t.low[d]) + ".." +
                           std::to_string(t.high[d]) + "]"
                     : ", the model was compiled for " +
                           std::to_string(t.dims[d])));
  }
  return NNAPI_RT_OK;
}

/// Bytes of a dense tensor of `t`'s element type and dimensions `dims`;
/// false when that exceeds the largest tensor a model may have.
bool denseBytes(const Tensor &t, const int64_t *dims, uint64_t &bytes) {
  bytes = t.elementBytes;
  for (size_t d = 0; d < t.dims.size(); ++d) {
    uint64_t v = uint64_t(dims[d]);
    if (v && bytes > kMaxTensorBytes / v)
      return false;
    bytes *= v;
  }
  return true;
}

/// Every output's dimensions for inputs of dimensions `inputDims`
/// (checked). This runs twice on every call of a dynamic model (the caller
/// sizes the outputs, the run checks them): up to 64 dimensions in all
/// need no heap allocation.
class OutputDims {
public:
  int32_t compute(const nnapi_rt_model &model,
                  const int64_t *const *inputDims) {
    size_t total = 0;
    for (const Tensor &t : model.outputs)
      total += t.dims.size();
    int64_t *flat = inlineDims.data();
    if (total > inlineDims.size()) {
      heapDims.resize(total);
      flat = heapDims.data();
    }
    if (model.outputs.size() > inlinePointers.size())
      heapPointers.resize(model.outputs.size());
    pointers = model.outputs.size() > inlinePointers.size()
                   ? heapPointers.data()
                   : inlinePointers.data();
    for (size_t o = 0; o < model.outputs.size(); ++o) {
      const std::vector<int64_t> &dims = model.outputs[o].dims;
      pointers[o] = flat;
      flat = std::copy(dims.begin(), dims.end(), flat);
    }
    if (model.dynamic && model.outputDims(inputDims, pointers) != 0)
      return failWith(NNAPI_RT_INVALID_MODEL,
                      std::string("the model's ") +
                          NNAPI_MODEL_OUTPUT_DIMS_SYMBOL + " failed");
    for (size_t o = 0; o < model.outputs.size(); ++o)
      for (size_t d = 0; d < model.outputs[o].dims.size(); ++d)
        if (pointers[o][d] < 0)
          return failWith(NNAPI_RT_INVALID_MODEL,
                          "the model computed dimension " + std::to_string(d) +
                              " of output " + std::to_string(o) + " as " +
                              std::to_string(pointers[o][d]));
    return NNAPI_RT_OK;
  }
  /// Output `o`'s dimensions (after compute).
  const int64_t *operator[](size_t o) const { return pointers[o]; }
  const int64_t *const *all() const { return pointers; }

private:
  std::array<int64_t, 64> inlineDims;
  std::array<int64_t *, 16> inlinePointers;
  std::vector<int64_t> heapDims;
  std::vector<int64_t *> heapPointers;
  int64_t **pointers = nullptr;
};

} // namespace

extern "C" {

int32_t nnapi_rt_model_output_dims(const nnapi_rt_model *model,
                                   int64_t numInputs,
                                   const int64_t *const *inputDims,
                                   int64_t numOutputs,
                                   int64_t *const *outputDims) {
  return guarded(__func__, [&]() -> int32_t {
    if (!model)
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "nnapi_rt_model_output_dims: no model");
    if (int32_t s = checkInputDims(*model, numInputs, inputDims))
      return s;
    if (numOutputs != int64_t(model->outputs.size()) ||
        (numOutputs && !outputDims))
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "the model has " + std::to_string(model->outputs.size()) +
                          " outputs, got " + std::to_string(numOutputs) +
                          (outputDims ? "" : " (null array)"));
    OutputDims dims;
    if (int32_t s = dims.compute(*model, inputDims))
      return s;
    for (int64_t o = 0; o < numOutputs; ++o) {
      size_t rank = model->outputs[o].dims.size();
      if (!outputDims[o] && rank)
        return failWith(NNAPI_RT_INVALID_ARGUMENT,
                        "output " + std::to_string(o) + " has null dimensions");
      std::copy(dims[o], dims[o] + rank, outputDims[o]);
    }
    return NNAPI_RT_OK;
  });
}

int32_t nnapi_rt_model_run_dims(nnapi_rt_model *model, int64_t numInputs,
                                const void *const *inputs,
                                const uint64_t *inputBytes,
                                const int64_t *const *inputDims,
                                int64_t numOutputs, void *const *outputs,
                                const uint64_t *outputBytes) {
  return guarded(__func__, [&]() -> int32_t {
    if (!model)
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "nnapi_rt_model_run_dims: no model");
    if (int32_t s = checkInputDims(*model, numInputs, inputDims))
      return s;
    // A static model: its entry, once the dimensions are checked.
    if (!model->dynamic)
      return nnapi_rt_model_run(model, numInputs, inputs, inputBytes,
                                numOutputs, outputs, outputBytes);
    if (numOutputs != int64_t(model->outputs.size()))
      return failWith(NNAPI_RT_INVALID_ARGUMENT,
                      "the model has " + std::to_string(model->outputs.size()) +
                          " outputs, got " + std::to_string(numOutputs));
    if ((numInputs && (!inputs || !inputBytes)) ||
        (numOutputs && (!outputs || !outputBytes)))
      return failWith(NNAPI_RT_INVALID_ARGUMENT, "null input or output array");
    OutputDims outDims;
    if (int32_t s = outDims.compute(*model, inputDims))
      return s;
    auto check = [&](const char *kind, int64_t i, const Tensor &t,
                     const int64_t *dims, const void *pointer,
                     uint64_t given) -> int32_t {
      // (The message is built only for a failure: this runs on every call.)
      auto what = [&] {
        return std::string(kind) + " " + std::to_string(i) + " ('" + t.name +
               "'";
      };
      uint64_t bytes = 0;
      if (!denseBytes(t, dims, bytes))
        return failWith(NNAPI_RT_INVALID_ARGUMENT,
                        what() + ") would be larger than 2^40 bytes");
      if (!pointer && bytes)
        return failWith(NNAPI_RT_INVALID_ARGUMENT,
                        what() + ") is a null pointer");
      if (given != bytes)
        return failWith(NNAPI_RT_INVALID_ARGUMENT,
                        what() + ", " + t.dtype + ") needs " +
                            std::to_string(bytes) +
                            " bytes at these dimensions, got " +
                            std::to_string(given));
      return NNAPI_RT_OK;
    };
    for (int64_t i = 0; i < numInputs; ++i)
      if (int32_t s = check("input", i, model->inputs[i], inputDims[i],
                            inputs[i], inputBytes[i]))
        return s;
    for (int64_t o = 0; o < numOutputs; ++o)
      if (int32_t s = check("output", o, model->outputs[o], outDims[o],
                            outputs[o], outputBytes[o]))
        return s;
    int32_t status;
    {
      RunScope scope(*model);
      if (!scope.entered)
        return failWith(NNAPI_RT_INVALID_ARGUMENT,
                        "nnapi_rt_model_run_dims: the model is being closed");
      // The model's ABI takes non-const pointers; it never writes its inputs.
      status = model->runDims(const_cast<void *const *>(inputs), inputDims,
                              outputs, outDims.all());
    }
    return runStatus(*model, status, NNAPI_MODEL_RUN_DIMS_SYMBOL);
  });
}

} // extern "C"
