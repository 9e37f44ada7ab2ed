//===- ConcurrentRuns.cpp - One compiled model from many threads ----------===//
//
// Usage: nnapi-concurrent-runs MODEL.so INPUT.npy EXPECTED.npy THREADS RUNS
//                               [MODEL.so INPUT.npy EXPECTED.npy]...
//
// Runs each model once on NNAPI and once host-only, single-threaded, for the
// two reference results (each checked against EXPECTED.npy, an independent
// reference of the first output); then THREADS threads, taking the models in
// turn, run theirs RUNS times each, every thread with its own buffers, with
// NNAPI allowed (and, through libnnapi_faulty.so and $NNAPI_MLIR_FAULT,
// failing some of the calls), all on the runtime's one thread pool. A
// one-partition model's result comes either from NNAPI or from its host copy,
// so every run must equal one of its two references bit for bit. Prints the
// counts and 'N passed, M failed' (N and M in runs).
//
//===----------------------------------------------------------------------===//

#include "Npy.h"
#include "nnapi-mlir/Runtime/ModelABI.h"
#include "nnapi-mlir/Runtime/Runtime.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <dlfcn.h>

using namespace nnapi_mlir;

namespace {
/// Byte size of each output, from the signature's "output" lines.
bool outputSizes(const char *signature, std::vector<size_t> &sizes) {
  std::istringstream in(signature ? signature : "");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string kind, name, dtype, dims;
    size_t index;
    if (!(ls >> kind) || kind != "output")
      continue;
    if (!(ls >> index >> name >> dtype >> dims) || dtype != "f32")
      return false;
    size_t n = 4;
    std::istringstream ds(dims);
    std::string d;
    while (dims != "scalar" && std::getline(ds, d, 'x'))
      n *= std::strtoull(d.c_str(), nullptr, 10);
    sizes.push_back(n);
  }
  return !sizes.empty();
}
} // namespace

namespace {
/// One model under test: its entry points, input and two references.
struct Subject {
  nnapi_model_run_fn run = nullptr;
  std::vector<size_t> sizes;
  NpyArray input;
  std::vector<std::vector<uint8_t>> onNNAPI, onHost;

  void runOnce(const std::vector<uint8_t> &in,
               std::vector<std::vector<uint8_t>> &out) const {
    out.assign(sizes.size(), {});
    std::vector<void *> outs;
    for (size_t i = 0; i < sizes.size(); ++i) {
      out[i].assign(sizes[i], 0);
      outs.push_back(out[i].data());
    }
    void *ins[] = {const_cast<uint8_t *>(in.data())};
    run(ins, outs.data());
  }
};

/// Loads `path` and makes its references; false with a message otherwise.
bool prepare(const char *path, const char *inputPath, const char *expectedPath,
             Subject &s) {
  void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    std::fprintf(stderr, "cannot load model: %s\n", dlerror());
    return false;
  }
  s.run = reinterpret_cast<nnapi_model_run_fn>(
      dlsym(handle, NNAPI_MODEL_RUN_SYMBOL));
  auto signature = reinterpret_cast<nnapi_model_signature_fn>(
      dlsym(handle, NNAPI_MODEL_SIGNATURE_SYMBOL));
  NpyArray expected;
  std::string error;
  if (!s.run || !signature || !outputSizes(signature(), s.sizes) ||
      !readNpy(inputPath, s.input, error) ||
      !readNpy(expectedPath, expected, error) || expected.dtype != "f4" ||
      expected.data.size() != s.sizes[0]) {
    std::fprintf(stderr, "%s: not a one-input float32 model and input: %s\n",
                 path, error.c_str());
    return false;
  }
  nnapi_rt_set_mode(NNAPI_RT_MODE_HOST_ONLY);
  s.runOnce(s.input.data, s.onHost);
  nnapi_rt_set_mode(NNAPI_RT_MODE_AUTO);
  nnapi_rt_reset_stats();
  s.runOnce(s.input.data, s.onNNAPI);
  uint64_t ok = 0, failed = 0;
  nnapi_rt_get_stats(&ok, &failed);
  if (ok != 1) {
    std::fprintf(stderr, "%s: the reference run did not run on NNAPI\n", path);
    return false;
  }
  // Both references against numpy's (rtol 1e-4, atol 1e-5).
  for (const auto *reference : {&s.onNNAPI, &s.onHost}) {
    const float *got = reinterpret_cast<const float *>((*reference)[0].data());
    const float *want = reinterpret_cast<const float *>(expected.data.data());
    for (size_t k = 0; k < s.sizes[0] / 4; ++k)
      if (!(std::fabs(got[k] - want[k]) <=
            1e-5f + 1e-4f * std::fabs(want[k]))) {
        std::fprintf(stderr,
                     "%s: the %s reference differs from EXPECTED.npy at "
                     "%zu: %g vs %g\n",
                     path, reference == &s.onNNAPI ? "NNAPI" : "host-only", k,
                     got[k], want[k]);
        return false;
      }
  }
  return true;
}
} // namespace

int main(int argc, char **argv) {
  if (argc < 6 || (argc - 6) % 3 != 0) {
    std::fprintf(stderr,
                 "usage: %s MODEL.so INPUT.npy EXPECTED.npy THREADS RUNS "
                 "[MODEL.so INPUT.npy EXPECTED.npy]...\n",
                 argv[0]);
    return 2;
  }
  int threads = std::atoi(argv[4]), runs = std::atoi(argv[5]);
  std::vector<Subject> subjects(1 + (argc - 6) / 3);
  if (!prepare(argv[1], argv[2], argv[3], subjects[0]))
    return 2;
  for (size_t m = 1; m < subjects.size(); ++m)
    if (!prepare(argv[6 + 3 * (m - 1)], argv[7 + 3 * (m - 1)],
                 argv[8 + 3 * (m - 1)], subjects[m]))
      return 2;

  std::atomic<uint64_t> wrong{0}, matchedNNAPI{0}, matchedHost{0};
  nnapi_rt_reset_stats();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      const Subject &s = subjects[size_t(t) % subjects.size()];
      std::vector<uint8_t> in = s.input.data; // this thread's own buffers
      std::vector<std::vector<uint8_t>> out;
      for (int r = 0; r < runs; ++r) {
        s.runOnce(in, out);
        if (out == s.onNNAPI)
          ++matchedNNAPI;
        else if (out == s.onHost)
          ++matchedHost;
        else
          ++wrong;
      }
    });
  for (std::thread &t : pool)
    t.join();
  uint64_t ok = 0, failed = 0;
  nnapi_rt_get_stats(&ok, &failed);
  std::printf("%d threads x %d runs of %zu models on %d pool threads: %llu "
              "on NNAPI, %llu fell back (%llu results equal NNAPI's, %llu "
              "the host copy's)\n",
              threads, runs, subjects.size(), nnapi_rt_get_threads(),
              (unsigned long long)ok, (unsigned long long)failed,
              (unsigned long long)matchedNNAPI.load(),
              (unsigned long long)matchedHost.load());
  uint64_t total = uint64_t(threads) * uint64_t(runs);
  std::printf("%llu passed, %llu failed\n", (unsigned long long)(total - wrong),
              (unsigned long long)wrong.load());
  return wrong ? 1 : 0;
}
