//===- KernelsBenchmark.cpp - Host kernel and blob reader throughput ------===//
//
// Results and the command that produced them: docs/benchmarks.md.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/NNAPI/BlobFormat.h"
#include "nnapi-mlir/HostDevice/Kernels.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"

#include <benchmark/benchmark.h>

using namespace nnapi_mlir;

static void BM_Conv2D(benchmark::State &state) {
  const uint32_t size = static_cast<uint32_t>(state.range(0)), c = 16;
  host::Shape in{1, size, size, c}, filter{c, 3, 3, c}, out{1, size, size, c};
  std::vector<float> x(host::numElements(in), 0.5f),
      w(host::numElements(filter), 0.25f), b(c, 0.1f),
      y(host::numElements(out));
  host::Window win;
  win.padLeft = win.padRight = win.padTop = win.padBottom = 1;
  for (auto _ : state) {
    host::conv2d(x.data(), in, w.data(), filter, b.data(), y.data(), out, win);
    benchmark::DoNotOptimize(y.data());
  }
  state.counters["MAC/s"] = benchmark::Counter(
      double(host::numElements(out)) * 9 * c * state.iterations(),
      benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Conv2D)->Arg(14)->Arg(28)->Arg(56);

static void BM_BlobRead(benchmark::State &state) {
  blob::Model model;
  std::vector<float> weights(state.range(0), 1.0f);
  uint32_t in = model.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 4},
                                 blob::Lifetime::ModelInput);
  uint32_t w = model.addConstant(ANEURALNETWORKS_TENSOR_FLOAT32,
                                 {uint32_t(weights.size())}, weights.data(),
                                 weights.size() * 4);
  uint32_t out = model.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, 4},
                                  blob::Lifetime::ModelOutput);
  model.operations.push_back({ANEURALNETWORKS_ADD, {in, w, model.addInt32(0)},
                              {out}});
  model.inputs = {in};
  model.outputs = {out};
  std::vector<uint8_t> bytes = blob::write(model);
  for (auto _ : state) {
    blob::Model parsed;
    std::string error;
    benchmark::DoNotOptimize(blob::read(bytes.data(), bytes.size(), parsed, error));
  }
  state.SetBytesProcessed(int64_t(bytes.size()) * state.iterations());
}
BENCHMARK(BM_BlobRead)->Arg(1 << 10)->Arg(1 << 16);
