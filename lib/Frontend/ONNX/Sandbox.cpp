//===- Sandbox.cpp - libonnx's checker, inference and converter, isolated --===//

#include "Sandbox.h"

#include "onnx/defs/schema.h"

#include <chrono>
#include <cstdlib>
#include <map>
#include <cstring>
#include <mutex>
#include <vector>

#if defined(__unix__)
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#define NNAPI_MLIR_SANDBOX 1
#endif

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NNAPI_MLIR_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||     \
    __has_feature(memory_sanitizer)
#define NNAPI_MLIR_SANITIZED 1
#endif
#endif

namespace nnapi_mlir::onnx_frontend {

namespace {

/// What the innermost inference function running in the child infers.
struct Breadcrumb {
  uint32_t active; ///< An inference function is running.
  char op[64], domain[64];
  int32_t version;
  int32_t inputs;
  int32_t ranks[16]; ///< -1: unknown.
};

/// The child's breadcrumbs (shared with its parent); null in the parent and
/// outside sandboxes.
Breadcrumb *gCrumb = nullptr;

void copyName(char (&to)[64], const std::string &from) {
  size_t n = std::min(from.size(), sizeof to - 1);
  std::memcpy(to, from.data(), n);
  to[n] = '\0';
}

/// Restores the enclosing function's breadcrumbs when a nested one returns
/// or throws (inference errors are exceptions).
struct Restore {
  Breadcrumb saved;
  ~Restore() {
    if (gCrumb)
      *gCrumb = saved;
  }
};

std::string signalName(int sig) {
  switch (sig) {
  case SIGSEGV: return "SIGSEGV";
  case SIGBUS: return "SIGBUS";
  case SIGABRT: return "SIGABRT";
  case SIGFPE: return "SIGFPE";
  case SIGILL: return "SIGILL";
  case SIGKILL: return "SIGKILL";
  default: return "signal " + std::to_string(sig);
  }
}

/// The ranks `graph` declares or infers for its values.
std::map<std::string, int> knownRanks(const onnx::GraphProto &graph) {
  std::map<std::string, int> ranks;
  auto record = [&](const onnx::ValueInfoProto &v) {
    if (v.type().has_tensor_type() && v.type().tensor_type().has_shape())
      ranks[v.name()] = v.type().tensor_type().shape().dim_size();
  };
  for (const auto &v : graph.input())
    record(v);
  for (const auto &v : graph.value_info())
    record(v);
  for (const auto &v : graph.output())
    record(v);
  for (const auto &t : graph.initializer())
    ranks[t.name()] = t.dims_size();
  return ranks;
}

/// The node of `graph` the breadcrumbs describe: of their operator, with
/// the input ranks they recorded where the graph knows them; the first of
/// the operator if none matches that closely; null if none.
const onnx::NodeProto *nodeOf(const onnx::GraphProto &graph,
                              const Breadcrumb &crumb) {
  std::map<std::string, int> ranks = knownRanks(graph);
  const onnx::NodeProto *first = nullptr;
  for (const onnx::NodeProto &node : graph.node()) {
    std::string domain = node.domain() == "ai.onnx" ? "" : node.domain();
    if (node.op_type() != crumb.op || domain != crumb.domain)
      continue;
    if (!first)
      first = &node;
    bool same = true;
    for (int i = 0; i < node.input_size() && i < crumb.inputs && i < 16; ++i) {
      auto it = ranks.find(node.input(i));
      if (it != ranks.end() && crumb.ranks[i] >= 0 &&
          it->second != crumb.ranks[i])
        same = false;
    }
    if (same)
      return &node;
  }
  return first;
}

#ifdef NNAPI_MLIR_SANDBOX
/// Writes all of `bytes`; false on error.
bool writeAll(int fd, const void *data, size_t size) {
  const char *p = static_cast<const char *>(data);
  while (size) {
    ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    p += n;
    size -= size_t(n);
  }
  return true;
}
#endif

} // namespace

bool inSandboxChild() { return gCrumb != nullptr; }

void instrumentInferenceFunctions() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const onnx::OpSchema &copy :
         onnx::OpSchemaRegistry::get_all_schemas_with_history()) {
      // The registry's own schema (get_all_schemas_with_history copies).
      const onnx::OpSchema *schema = onnx::OpSchemaRegistry::Schema(
          copy.Name(), copy.SinceVersion(), copy.domain());
      // Operators inferred through their function body have no function to
      // wrap; the body's operators have theirs.
      if (!schema || schema->SinceVersion() != copy.SinceVersion() ||
          !schema->has_type_and_shape_inference_function())
        continue;
      onnx::InferenceFunction original =
          schema->GetTypeAndShapeInferenceFunction();
      std::string op = schema->Name(), domain = schema->domain();
      int version = schema->SinceVersion();
      // libonnx's own failures are InferenceErrors, which its inference
      // loop reports with the node's name; anything else a buggy function
      // throws (STFT-17 on rank-0 inputs sometimes throws length_error
      // from a string it builds out of garbage) becomes one too.
      auto guarded = [original, op, version](onnx::InferenceContext &ctx) {
        try {
          original(ctx);
        } catch (const onnx::InferenceError &) {
          throw;
        } catch (const std::exception &e) {
          fail_shape_inference("libonnx's inference of ", op, "-", version,
                               " failed: ", e.what());
        }
      };
      // The registry's schemas are built at run time; changing one's
      // inference function is what registering it with one would do.
      const_cast<onnx::OpSchema *>(schema)->TypeAndShapeInferenceFunction(
          [original = guarded, op, domain,
           version](onnx::InferenceContext &ctx) {
            Breadcrumb *crumb = gCrumb;
            if (!crumb) {
              original(ctx);
              return;
            }
            Restore restore{*crumb};
            crumb->active = 1;
            copyName(crumb->op, op);
            copyName(crumb->domain, domain == "ai.onnx" ? "" : domain);
            crumb->version = version;
            crumb->inputs = int32_t(ctx.getNumInputs());
            for (size_t i = 0; i < 16; ++i) {
              const onnx::TypeProto *type =
                  i < ctx.getNumInputs() ? ctx.getInputType(i) : nullptr;
              crumb->ranks[i] = type && type->has_tensor_type() &&
                                        type->tensor_type().has_shape()
                                    ? type->tensor_type().shape().dim_size()
                                    : -1;
            }
            original(ctx);
          });
    }
  });
}

bool runInSandbox(const char *what, const onnx::GraphProto &graph,
                  const std::function<bool(std::string &, std::string &)> &work,
                  std::string &result, std::string &error,
                  const onnx::NodeProto **crashNode, unsigned seconds) {
  if (crashNode)
    *crashNode = nullptr;
  instrumentInferenceFunctions();
#ifdef NNAPI_MLIR_SANDBOX
  // NNAPI_MLIR_ONNX_SANDBOX=0 runs the work in this process (to debug
  // libonnx, or to measure what isolation costs).
  static const bool isolate = [] {
    const char *v = std::getenv("NNAPI_MLIR_ONNX_SANDBOX");
    return !v || std::strcmp(v, "0") != 0;
  }();
#else
  const bool isolate = false;
#endif
  if (!isolate) {
    try {
      return work(result, error);
    } catch (const std::exception &e) {
      error = e.what();
      return false;
    }
  }
#ifdef NNAPI_MLIR_SANDBOX
  void *shared = ::mmap(nullptr, sizeof(Breadcrumb), PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) {
    error = std::string("cannot isolate ") + what + ": " + std::strerror(errno);
    return false;
  }
  auto *crumb = new (shared) Breadcrumb();
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    error = std::string("cannot isolate ") + what + ": " + std::strerror(errno);
    ::munmap(shared, sizeof(Breadcrumb));
    return false;
  }
  pid_t pid = ::fork();
  if (pid < 0) {
    error = std::string("cannot isolate ") + what + ": " + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    ::munmap(shared, sizeof(Breadcrumb));
    return false;
  }
  if (pid == 0) {
    // The child: die quietly on a crash (the parent reports it, not the
    // handlers of the tool or fuzzer that forked it), under a memory limit.
    ::close(fds[0]);
    for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT})
      std::signal(sig, SIG_DFL);
#ifndef NNAPI_MLIR_SANITIZED
    struct rlimit limit;
    limit.rlim_cur = limit.rlim_max = rlim_t(16) << 30;
    ::setrlimit(RLIMIT_AS, &limit);
#endif
    gCrumb = crumb;
    std::string out, why;
    bool ok = false;
    try {
      ok = work(out, why);
    } catch (const std::bad_alloc &) {
      why = "out of memory";
    } catch (const std::exception &e) {
      why = e.what();
    } catch (...) {
      why = "an unknown exception";
    }
    const std::string &payload = ok ? out : why;
    uint8_t status = ok ? 0 : 1;
    uint64_t length = payload.size();
    bool sent = writeAll(fds[1], &status, 1) &&
                writeAll(fds[1], &length, sizeof length) &&
                writeAll(fds[1], payload.data(), payload.size());
    ::_exit(sent ? 0 : 3);
  }
  ::close(fds[1]);
  std::string bytes;
  auto deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  bool timedOut = false;
  char buffer[1 << 16];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      timedOut = true;
      break;
    }
    struct pollfd p = {fds[0], POLLIN, 0};
    int ready = ::poll(&p, 1, int(std::min<long long>(left, 1000)));
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready <= 0)
      continue;
    ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    bytes.append(buffer, size_t(n));
  }
  ::close(fds[0]);
  if (timedOut)
    ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  Breadcrumb last = *crumb;
  ::munmap(shared, sizeof(Breadcrumb));

  uint64_t length = 0;
  bool complete = !timedOut && bytes.size() >= 1 + sizeof length &&
                  WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (complete) {
    std::memcpy(&length, bytes.data() + 1, sizeof length);
    complete = bytes.size() == 1 + sizeof length + length;
  }
  if (complete) {
    std::string payload = bytes.substr(1 + sizeof length);
    if (bytes[0] == 0) {
      result = std::move(payload);
      return true;
    }
    error = std::move(payload);
    return false;
  }
  // The child died: say how, and where if the breadcrumbs tell.
  std::string how =
      timedOut ? "took longer than " + std::to_string(seconds) + " s"
      : WIFSIGNALED(status)
          ? "crashed (" + signalName(WTERMSIG(status)) + ")"
          : "failed (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
  error = std::string("libonnx's ") + what + " " + how;
  if (last.active) {
    error += " in the inference of " + std::string(last.op);
    if (last.domain[0])
      error += " (domain " + std::string(last.domain) + ")";
    error += "-" + std::to_string(last.version) + " with input ranks [";
    for (int i = 0; i < last.inputs && i < 16; ++i)
      error += (i ? ", " : "") + (last.ranks[i] < 0
                                      ? std::string("?")
                                      : std::to_string(last.ranks[i]));
    error += "]";
    if (crashNode)
      *crashNode = nodeOf(graph, last);
  }
  return false;
#endif
}

} // namespace nnapi_mlir::onnx_frontend
