//===- FaultyNNAPI.cpp - An NNAPI library that fails on request -----------===//
//
// A test double with the NNAPI C API. Every call goes to the host device
// (libnnapi_host.so next to this library, or $NNAPI_MLIR_FAULT_TARGET),
// except those $NNAPI_MLIR_FAULT selects, which fail. The variable holds
// comma-separated rules:
//
//   FUNCTION@N        fail the N-th call of FUNCTION (counting from 1)
//   FUNCTION%N        fail every N-th call of FUNCTION
//   *@N, *%N          the same, counting calls of every function that returns
//                     a result code (the free functions cannot fail)
//   RULE=CODE         fail with result code CODE (default 5, OP_FAILED)
//   RULE=corrupt      for ANeuralNetworksExecution_compute,
//                     ANeuralNetworksExecution_burstCompute and
//                     ANeuralNetworksEvent_wait: run the call, then overwrite
//                     every output of the execution with 0xFF bytes (NaN)
//                     and fail with OP_FAILED, as a driver that dies midway
//
// $NNAPI_MLIR_FAULT_LOG, if set, names a file that gets one line per call
// that could fail: "<count of such calls so far> <function>", so that a test
// can fail each of them in turn. NNAPIMLIRHost_lastError explains injected
// failures; NNAPIMLIRHost_setCompilationThreadPool reaches the host device.
// Thread-safe: counters are atomic, the bookkeeping is locked.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Runtime/NNAPILoader.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <dlfcn.h>

using namespace nnapi_mlir;

namespace {

enum FunctionId : int {
#define NNAPI_FAULTY_ID(name, ret, params, args) kId_##name,
  NNAPI_MLIR_FOR_EACH_FUNCTION(NNAPI_FAULTY_ID)
      NNAPI_MLIR_FOR_EACH_OPTIONAL_FUNCTION(NNAPI_FAULTY_ID)
#undef NNAPI_FAULTY_ID
          kFunctionCount
};

const char *const kFunctionNames[] = {
#define NNAPI_FAULTY_NAME(name, ret, params, args) #name,
    NNAPI_MLIR_FOR_EACH_FUNCTION(NNAPI_FAULTY_NAME)
        NNAPI_MLIR_FOR_EACH_OPTIONAL_FUNCTION(NNAPI_FAULTY_NAME)
#undef NNAPI_FAULTY_NAME
};

struct Rule {
  int function = -1; ///< -1: any function that returns a result code
  bool every = false;
  uint64_t n = 0;
  bool corrupt = false;
  int code = ANEURALNETWORKS_OP_FAILED;
};

struct Faults {
  NNAPIFunctionTable real;
  std::string loadError;
  std::vector<Rule> rules;
  std::atomic<uint64_t> calls[kFunctionCount] = {};
  std::atomic<uint64_t> anyCalls{0};
  std::mutex mutex; ///< Guards the maps and the log.
  std::map<ANeuralNetworksExecution *, std::vector<std::pair<void *, size_t>>>
      outputs;
  std::map<ANeuralNetworksEvent *, ANeuralNetworksExecution *> events;
  FILE *log = nullptr;

  Faults() {
    std::string target;
    if (const char *t = std::getenv("NNAPI_MLIR_FAULT_TARGET"); t && *t) {
      target = t;
    } else {
      Dl_info info;
      if (dladdr(kFunctionNames[0], &info) && info.dli_fname) {
        target = info.dli_fname;
        target = target.substr(0, target.rfind('/') + 1);
      }
      target += "libnnapi_host.so";
    }
    if (!loadNNAPILibrary(target, real, loadError))
      std::fprintf(stderr, "nnapi_faulty: %s\n", loadError.c_str());
    if (const char *spec = std::getenv("NNAPI_MLIR_FAULT"))
      parse(spec);
    if (const char *path = std::getenv("NNAPI_MLIR_FAULT_LOG"); path && *path)
      log = std::fopen(path, "w");
  }

  void parse(std::string spec) {
    size_t start = 0;
    while (start <= spec.size()) {
      size_t comma = spec.find(',', start);
      std::string text =
          spec.substr(start, comma == std::string::npos ? std::string::npos
                                                        : comma - start);
      start = comma == std::string::npos ? spec.size() + 1 : comma + 1;
      if (text.empty())
        continue;
      Rule rule;
      if (size_t eq = text.find('='); eq != std::string::npos) {
        std::string action = text.substr(eq + 1);
        rule.corrupt = action == "corrupt";
        if (!rule.corrupt)
          rule.code = std::atoi(action.c_str());
        text.resize(eq);
      }
      size_t at = text.find_first_of("@%");
      if (at == std::string::npos) {
        std::fprintf(stderr, "nnapi_faulty: ignoring rule '%s'\n",
                     text.c_str());
        continue;
      }
      rule.every = text[at] == '%';
      rule.n = std::strtoull(text.c_str() + at + 1, nullptr, 10);
      std::string function = text.substr(0, at);
      if (function != "*") {
        for (int i = 0; i < kFunctionCount; ++i)
          if (function == kFunctionNames[i])
            rule.function = i;
        if (rule.function < 0) {
          std::fprintf(stderr, "nnapi_faulty: unknown function '%s'\n",
                       function.c_str());
          continue;
        }
      }
      if (rule.n > 0)
        rules.push_back(rule);
    }
  }

  /// Counts a call that could fail; returns the rule that fails it, if any.
  const Rule *count(int id) {
    uint64_t mine = ++calls[id];
    uint64_t any = ++anyCalls;
    if (log) {
      std::lock_guard<std::mutex> lock(mutex);
      std::fprintf(log, "%llu %s\n", (unsigned long long)any,
                   kFunctionNames[id]);
      std::fflush(log);
    }
    for (const Rule &rule : rules) {
      uint64_t k = rule.function < 0 ? any : rule.function == id ? mine : 0;
      if (k && (rule.every ? k % rule.n == 0 : k == rule.n))
        return &rule;
    }
    return nullptr;
  }
};

Faults &faults() {
  static Faults *f = new Faults(); // never destroyed: outlives static dtors
  return *f;
}

thread_local std::string injected; ///< Why the last call on this thread failed.

/// Bookkeeping for corrupt rules: which buffers an execution writes.
template <typename... A> void observe(int, const std::tuple<A...> &) {}
void observe(
    int id,
    const std::tuple<ANeuralNetworksExecution *, int32_t,
                     const ANeuralNetworksOperandType *, void *, size_t> &a) {
  if (id != kId_ANeuralNetworksExecution_setOutput)
    return;
  std::lock_guard<std::mutex> lock(faults().mutex);
  faults().outputs[std::get<0>(a)].emplace_back(std::get<3>(a), std::get<4>(a));
}
void observe(
    int id,
    const std::tuple<ANeuralNetworksExecution *, ANeuralNetworksEvent **> &a) {
  if (id != kId_ANeuralNetworksExecution_startCompute || !*std::get<1>(a))
    return;
  std::lock_guard<std::mutex> lock(faults().mutex);
  faults().events[*std::get<1>(a)] = std::get<0>(a);
}
void observe(int id, const std::tuple<ANeuralNetworksExecution *> &a) {
  if (id != kId_ANeuralNetworksExecution_free)
    return;
  std::lock_guard<std::mutex> lock(faults().mutex);
  faults().outputs.erase(std::get<0>(a));
}
void observe(int id, const std::tuple<ANeuralNetworksEvent *> &a) {
  if (id != kId_ANeuralNetworksEvent_free)
    return;
  std::lock_guard<std::mutex> lock(faults().mutex);
  faults().events.erase(std::get<0>(a));
}

/// Overwrites the outputs of the execution a compute or wait call finished.
template <typename... A> void corrupt(int id, const std::tuple<A...> &a) {
  std::lock_guard<std::mutex> lock(faults().mutex);
  ANeuralNetworksExecution *execution = nullptr;
  if constexpr (std::is_same_v<std::tuple<A...>,
                               std::tuple<ANeuralNetworksExecution *>> ||
                std::is_same_v<std::tuple<A...>,
                               std::tuple<ANeuralNetworksExecution *,
                                          ANeuralNetworksBurst *>>)
    execution = std::get<0>(a);
  if constexpr (std::is_same_v<std::tuple<A...>,
                               std::tuple<ANeuralNetworksEvent *>>) {
    auto it = faults().events.find(std::get<0>(a));
    if (it != faults().events.end())
      execution = it->second;
  }
  for (auto [buffer, length] : faults().outputs[execution])
    if (buffer)
      std::memset(buffer, 0xFF, length);
}

/// Calls `real` through `call` unless a rule fails the call. `args` are the
/// call's arguments, for the bookkeeping of corrupt rules.
template <typename R, typename Fn, typename Call, typename... A>
R forward(int id, Fn *real, Call call, const std::tuple<A...> &args) {
  Faults &f = faults();
  if constexpr (std::is_same_v<R, int>) {
    if (!real) {
      injected = "nnapi_faulty: " + f.loadError;
      return ANEURALNETWORKS_OP_FAILED;
    }
    injected.clear();
    const Rule *rule = f.count(id);
    if (rule && !rule->corrupt) {
      injected = std::string("nnapi_faulty: injected failure of ") +
                 kFunctionNames[id];
      return rule->code;
    }
    int rc = call();
    observe(id, args);
    if (rule && rc == ANEURALNETWORKS_NO_ERROR &&
        (id == kId_ANeuralNetworksExecution_compute ||
         id == kId_ANeuralNetworksExecution_burstCompute ||
         id == kId_ANeuralNetworksEvent_wait)) {
      corrupt(id, args);
      injected = std::string("nnapi_faulty: outputs corrupted, then ") +
                 kFunctionNames[id] + " failed";
      return ANEURALNETWORKS_OP_FAILED;
    }
    if (rule) {
      injected = std::string("nnapi_faulty: injected failure of ") +
                 kFunctionNames[id];
      return ANEURALNETWORKS_OP_FAILED;
    }
    return rc;
  } else {
    observe(id, args);
    if (!real) {
      if constexpr (std::is_void_v<R>)
        return;
      else
        return R();
    }
    return call();
  }
}

} // namespace

extern "C" {

#define NNAPI_FAULTY_DEFINE(name, ret, params, args)                           \
  __attribute__((visibility("default"))) ret name params {                     \
    return forward<ret>(                                                       \
        kId_##name, faults().real.name,                                        \
        [&] { return faults().real.name args; }, std::make_tuple args);        \
  }
NNAPI_MLIR_FOR_EACH_FUNCTION(NNAPI_FAULTY_DEFINE)
NNAPI_MLIR_FOR_EACH_OPTIONAL_FUNCTION(NNAPI_FAULTY_DEFINE)
#undef NNAPI_FAULTY_DEFINE

/// The host device's explanation, or the injected failure's.
__attribute__((visibility("default"))) const char *NNAPIMLIRHost_lastError() {
  if (!injected.empty())
    return injected.c_str();
  if (faults().real.hostLastError)
    return faults().real.hostLastError();
  return "";
}

/// Passes the runtime's thread pool on to the host device.
__attribute__((visibility("default"))) int
NNAPIMLIRHost_setCompilationThreadPool(ANeuralNetworksCompilation *c,
                                       void *pool) {
  if (faults().real.hostSetCompilationThreadPool)
    return faults().real.hostSetCompilationThreadPool(c, pool);
  return ANEURALNETWORKS_NO_ERROR;
}

} // extern "C"
