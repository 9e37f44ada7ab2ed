//===- HostDeviceBenchmark.cpp - The host NNAPI device, op by op ----------===//
//
// Each operation of the list through the host library's NNAPI C API,
// compiled with XNNPACK or the blocked kernels (the default) and with the
// reference kernels
// (NNAPI_MLIR_HOST_KERNELS=reference), reporting GFLOP/s (2 x MACs for
// convolutions and fully connected, one FLOP per output element otherwise).
// Then the per-call cost of a one-ADD model at each layer of the runtime
// path: the XNNPACK kernel alone, an NNAPI execution of the host library, the
// runtime's nnapi_rt_execute, and a compiled model's nnapi_model_run.
//
// Results and the command that produced them: docs/benchmarks.md.
//
//===----------------------------------------------------------------------===//

#include "HostModelBuilder.h"

#include "nnapi-mlir/NNAPI/BlobFormat.h"
#include "nnapi-mlir/Runtime/ModelABI.h"
#include "nnapi-mlir/Runtime/Runtime.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <functional>
#include <memory>

#ifdef NNAPI_MLIR_HAVE_XNNPACK
#include <xnnpack.h>
#endif

using namespace nnapi_mlir;
using nnapi_mlir::test::HostModelBuilder;

namespace {

const NNAPIFunctionTable &hostLibrary() {
  static NNAPIFunctionTable table;
  static bool loaded = [] {
    std::string error;
    bool ok = loadNNAPILibrary(NNAPI_HOST_LIBRARY, table, error);
    if (!ok)
      std::fprintf(stderr, "%s\n", error.c_str());
    return ok;
  }();
  if (!loaded)
    std::abort();
  return table;
}

/// Compiles the model `build` makes with `kernels` and times one reusable
/// execution; `flops` per run gives the GFLOP/s counter.
void timeModel(benchmark::State &state, const char *kernels, double flops,
               const std::function<void(HostModelBuilder &)> &build) {
  const NNAPIFunctionTable &fn = hostLibrary();
  HostModelBuilder b(fn);
  build(b);
  ANeuralNetworksCompilation *c = b.compile(kernels);
  if (!c) {
    state.SkipWithError(b.error().c_str());
    return;
  }
  std::vector<std::vector<float>> in, out;
  ANeuralNetworksExecution *e = nullptr;
  fn.ANeuralNetworksExecution_create(c, &e);
  fn.ANeuralNetworksExecution_setReusable(e, true);
  for (size_t k = 0; k < b.inputCount(); ++k) {
    in.emplace_back(b.inputElements(k), 0.5f);
    fn.ANeuralNetworksExecution_setInput(e, int32_t(k), nullptr, in[k].data(),
                                         in[k].size() * 4);
  }
  for (size_t k = 0; k < b.outputCount(); ++k) {
    out.emplace_back(b.outputElements(k));
    fn.ANeuralNetworksExecution_setOutput(e, int32_t(k), nullptr,
                                          out[k].data(), out[k].size() * 4);
  }
  for (auto _ : state)
    if (fn.ANeuralNetworksExecution_compute(e) != ANEURALNETWORKS_NO_ERROR) {
      state.SkipWithError("compute failed");
      break;
    }
  fn.ANeuralNetworksExecution_free(e);
  state.counters["GFLOP/s"] = benchmark::Counter(
      flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

/// CONV_2D or DEPTHWISE_CONV_2D, SAME padding, on [1, size, size, c].
void conv(HostModelBuilder &b, bool depthwise, uint32_t size, uint32_t c,
          uint32_t outC, uint32_t k, int32_t stride) {
  uint32_t outSize = (size + stride - 1) / stride;
  uint32_t in = b.input({1, size, size, c});
  uint32_t filter = depthwise ? b.constant({1, k, k, outC})
                              : b.constant({outC, k, k, c});
  uint32_t bias = b.constant({outC});
  uint32_t out = b.output({1, outSize, outSize, outC});
  std::vector<uint32_t> ins = {in, filter, bias,
                               b.i32(ANEURALNETWORKS_PADDING_SAME),
                               b.i32(stride), b.i32(stride)};
  if (depthwise)
    ins.push_back(b.i32(int32_t(outC / c)));
  ins.push_back(b.i32(ANEURALNETWORKS_FUSED_RELU));
  b.operation(depthwise ? ANEURALNETWORKS_DEPTHWISE_CONV_2D
                        : ANEURALNETWORKS_CONV_2D,
              ins, {out});
}

const char *modeName(int64_t mode) { return mode ? "reference" : nullptr; }

void BM_Conv3x3_64to64_56(benchmark::State &state) {
  timeModel(state, modeName(state.range(0)), 2.0 * 56 * 56 * 64 * 64 * 9,
            [](HostModelBuilder &b) { conv(b, false, 56, 64, 64, 3, 1); });
}
void BM_Conv1x1_64to256_56(benchmark::State &state) {
  timeModel(state, modeName(state.range(0)), 2.0 * 56 * 56 * 64 * 256,
            [](HostModelBuilder &b) { conv(b, false, 56, 64, 256, 1, 1); });
}
void BM_Depthwise3x3_56x56x144(benchmark::State &state) {
  timeModel(state, modeName(state.range(0)), 2.0 * 56 * 56 * 144 * 9,
            [](HostModelBuilder &b) { conv(b, true, 56, 144, 144, 3, 1); });
}
void fullyConnected(benchmark::State &state, uint32_t batch) {
  timeModel(state, modeName(state.range(0)), 2.0 * batch * 1024 * 1024,
            [batch](HostModelBuilder &b) {
              uint32_t in = b.input({batch, 1024});
              uint32_t out = b.output({batch, 1024});
              b.operation(ANEURALNETWORKS_FULLY_CONNECTED,
                          {in, b.constant({1024, 1024}), b.constant({1024}),
                           b.i32(0)},
                          {out});
            });
}
void BM_FullyConnected_1x1024x1024(benchmark::State &state) {
  fullyConnected(state, 1);
}
void BM_FullyConnected_64x1024x1024(benchmark::State &state) {
  fullyConnected(state, 64);
}
/// 3x3 stride-2 pooling with SAME padding on [1, 112, 112, 64].
void pool(benchmark::State &state, int32_t code) {
  timeModel(state, modeName(state.range(0)), 56.0 * 56 * 64 * 9,
            [code](HostModelBuilder &b) {
              uint32_t in = b.input({1, 112, 112, 64});
              uint32_t out = b.output({1, 56, 56, 64});
              b.operation(code,
                          {in, b.i32(ANEURALNETWORKS_PADDING_SAME), b.i32(2),
                           b.i32(2), b.i32(3), b.i32(3), b.i32(0)},
                          {out});
            });
}
void BM_AveragePool3x3s2_112x112x64(benchmark::State &state) {
  pool(state, ANEURALNETWORKS_AVERAGE_POOL_2D);
}
void BM_MaxPool3x3s2_112x112x64(benchmark::State &state) {
  pool(state, ANEURALNETWORKS_MAX_POOL_2D);
}
void BM_AddBroadcast_56x56x64_plus_64(benchmark::State &state) {
  timeModel(state, modeName(state.range(0)), 56.0 * 56 * 64,
            [](HostModelBuilder &b) {
              uint32_t x = b.input({1, 56, 56, 64});
              uint32_t out = b.output({1, 56, 56, 64});
              b.operation(ANEURALNETWORKS_ADD,
                          {x, b.constant({1, 1, 1, 64}), b.i32(0)}, {out});
            });
}

// Operations XNNPACK 2022 has no operator for: blocked kernels against the
// reference ones (one FLOP per element moved or read).
void BM_Transpose_NHWC_to_NCHW_56x56x64(benchmark::State &state) {
  timeModel(state, modeName(state.range(0)), 56.0 * 56 * 64,
            [](HostModelBuilder &b) {
              const int32_t perm[] = {0, 3, 1, 2};
              uint32_t x = b.input({1, 56, 56, 64});
              uint32_t out = b.output({1, 64, 56, 56});
              b.operation(ANEURALNETWORKS_TRANSPOSE,
                          {x, b.tensorI32({4}, perm)}, {out});
            });
}
void BM_Mean_HW_56x56x64(benchmark::State &state) {
  timeModel(state, modeName(state.range(0)), 56.0 * 56 * 64,
            [](HostModelBuilder &b) {
              const int32_t axes[] = {1, 2};
              uint32_t x = b.input({1, 56, 56, 64});
              uint32_t out = b.output({1, 1, 1, 64});
              b.operation(ANEURALNETWORKS_MEAN,
                          {x, b.tensorI32({2}, axes), b.i32(1)}, {out});
            });
}
void BM_BatchMatmul_QKt_12x128x64(benchmark::State &state) {
  timeModel(state, modeName(state.range(0)), 2.0 * 12 * 128 * 128 * 64,
            [](HostModelBuilder &b) {
              uint32_t q = b.input({12, 128, 64});
              uint32_t k = b.input({12, 128, 64});
              uint32_t out = b.output({12, 128, 128});
              b.operation(ANEURALNETWORKS_BATCH_MATMUL,
                          {q, k, b.boolean(false), b.boolean(true)}, {out});
            });
}

#define KERNEL_BENCHMARK(name)                                                 \
  BENCHMARK(name)->ArgName("reference")->Arg(0)->Arg(1)->Unit(                \
      benchmark::kMicrosecond)
KERNEL_BENCHMARK(BM_Conv3x3_64to64_56);
KERNEL_BENCHMARK(BM_Conv1x1_64to256_56);
KERNEL_BENCHMARK(BM_Depthwise3x3_56x56x144);
KERNEL_BENCHMARK(BM_FullyConnected_1x1024x1024);
KERNEL_BENCHMARK(BM_FullyConnected_64x1024x1024);
KERNEL_BENCHMARK(BM_AveragePool3x3s2_112x112x64);
KERNEL_BENCHMARK(BM_MaxPool3x3s2_112x112x64);
KERNEL_BENCHMARK(BM_AddBroadcast_56x56x64_plus_64);
KERNEL_BENCHMARK(BM_Transpose_NHWC_to_NCHW_56x56x64);
KERNEL_BENCHMARK(BM_Mean_HW_56x56x64);
KERNEL_BENCHMARK(BM_BatchMatmul_QKt_12x128x64);

// --- Per-call cost of a one-ADD model: [1, 256] + [1, 256] -------------------

constexpr uint32_t kAddSize = 256;

#ifdef NNAPI_MLIR_HAVE_XNNPACK
/// The XNNPACK operator alone: setup + run, as one step of an execution.
void BM_OneAdd_1_XnnpackKernel(benchmark::State &state) {
  xnn_initialize(nullptr);
  xnn_operator_t op = nullptr;
  xnn_create_add_nd_f32(-INFINITY, INFINITY, 0, &op);
  std::vector<float> a(kAddSize + 4, 1), b(kAddSize + 4, 2), y(kAddSize);
  size_t shape[2] = {1, kAddSize};
  for (auto _ : state) {
    xnn_setup_add_nd_f32(op, 2, shape, 2, shape, a.data(), b.data(), y.data(),
                         nullptr);
    xnn_run_operator(op, nullptr);
  }
  xnn_delete_operator(op);
}
BENCHMARK(BM_OneAdd_1_XnnpackKernel);
#endif

blob::Model oneAddBlob() {
  blob::Model m;
  uint32_t a = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, kAddSize},
                            blob::Lifetime::ModelInput);
  uint32_t b = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, kAddSize},
                            blob::Lifetime::ModelInput);
  uint32_t out = m.addOperand(ANEURALNETWORKS_TENSOR_FLOAT32, {1, kAddSize},
                              blob::Lifetime::ModelOutput);
  m.operations.push_back({ANEURALNETWORKS_ADD, {a, b, m.addInt32(0)}, {out}});
  m.inputs = {a, b};
  m.outputs = {out};
  return m;
}

/// A fresh NNAPI execution of the host library per call: create, bind,
/// compute, free.
void BM_OneAdd_2_HostExecution(benchmark::State &state) {
  const NNAPIFunctionTable &fn = hostLibrary();
  HostModelBuilder b(fn);
  uint32_t x = b.input({1, kAddSize}), y = b.input({1, kAddSize});
  uint32_t out = b.output({1, kAddSize});
  b.operation(ANEURALNETWORKS_ADD, {x, y, b.i32(0)}, {out});
  ANeuralNetworksCompilation *c = b.compile(nullptr);
  std::vector<float> in0(kAddSize, 1), in1(kAddSize, 2), result(kAddSize);
  for (auto _ : state) {
    ANeuralNetworksExecution *e = nullptr;
    fn.ANeuralNetworksExecution_create(c, &e);
    fn.ANeuralNetworksExecution_setInput(e, 0, nullptr, in0.data(), 4 * kAddSize);
    fn.ANeuralNetworksExecution_setInput(e, 1, nullptr, in1.data(), 4 * kAddSize);
    fn.ANeuralNetworksExecution_setOutput(e, 0, nullptr, result.data(),
                                          4 * kAddSize);
    fn.ANeuralNetworksExecution_compute(e);
    fn.ANeuralNetworksExecution_free(e);
  }
}
BENCHMARK(BM_OneAdd_2_HostExecution);

/// The runtime's entry point for one partition (blob already parsed and
/// compiled by the first call).
void BM_OneAdd_3_RuntimeExecute(benchmark::State &state) {
  std::vector<uint8_t> bytes = blob::write(oneAddBlob());
  std::vector<float> in0(kAddSize, 1), in1(kAddSize, 2), result(kAddSize);
  void *inputs[2] = {in0.data(), in1.data()};
  void *outputs[1] = {result.data()};
  for (auto _ : state)
    if (nnapi_rt_execute(bytes.data(), int64_t(bytes.size()), 2, inputs, 1,
                         outputs) != NNAPI_RT_OK) {
      state.SkipWithError(nnapi_rt_last_error());
      break;
    }
}
BENCHMARK(BM_OneAdd_3_RuntimeExecute);

#ifdef NNAPI_ONE_ADD_MODEL
/// The compiled model's C entry point: host code, runtime, NNAPI, results.
void BM_OneAdd_4_CompiledModel(benchmark::State &state) {
  void *handle = dlopen(NNAPI_ONE_ADD_MODEL, RTLD_NOW | RTLD_LOCAL);
  auto run = handle ? reinterpret_cast<nnapi_model_run_fn>(
                          dlsym(handle, NNAPI_MODEL_RUN_SYMBOL))
                    : nullptr;
  if (!run) {
    state.SkipWithError("cannot load " NNAPI_ONE_ADD_MODEL);
    return;
  }
  std::vector<float> in0(kAddSize, 1), in1(kAddSize, 2), result(kAddSize);
  void *inputs[2] = {in0.data(), in1.data()};
  void *outputs[1] = {result.data()};
  uint64_t before = 0, after = 0, failed = 0;
  nnapi_rt_get_stats(&before, &failed);
  for (auto _ : state)
    run(inputs, outputs);
  nnapi_rt_get_stats(&after, &failed);
  if (int64_t(after - before) != int64_t(state.iterations()) ||
      result[0] != 3.0f)
    state.SkipWithError("the ADD did not run on NNAPI");
}
BENCHMARK(BM_OneAdd_4_CompiledModel);
#endif

} // namespace
