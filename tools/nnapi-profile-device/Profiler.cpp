//===- Profiler.cpp - Compile a model and time it -------------------------===//

#include "Profiler.h"

#include "Fit.h"

#include "nnapi-mlir/Runtime/Runtime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>

using namespace mlir;

namespace nnapi_mlir::profiling {

namespace {

/// A tensor's buffer from nnapi_rt_alloc.
struct Buffer {
  explicit Buffer(uint64_t bytes)
      : data(static_cast<uint8_t *>(nnapi_rt_alloc(bytes ? bytes : 1, 64))) {}
  Buffer(Buffer &&other) : data(other.data) { other.data = nullptr; }
  Buffer(const Buffer &) = delete;
  ~Buffer() { nnapi_rt_free(data); }
  uint8_t *data;
};

} // namespace

std::string Profiler::compile(const std::string &text,
                              const std::string &name,
                              const std::string &forceOperation,
                              unsigned featureLevel,
                              const nnapi::CompileOutput &target,
                              Measurement &m, std::string &error) {
  std::string path = dir + "/" + name + ".so";
  m.file = name + ".so";
  std::string diagnostics;
  llvm::raw_string_ostream diagStream(diagnostics);
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Error ||
        d.getSeverity() == DiagnosticSeverity::Warning)
      diagStream << "\n  " << d.str();
    return success();
  });
  auto module = nnapi::loadModel(text, name, &context);
  if (!module) {
    error = llvm::toString(module.takeError()) + diagnostics;
    return "";
  }
  // The graph's inputs and outputs, from the entry's signature (a model
  // built for another machine cannot be opened here to ask).
  if (auto main = (*module)->lookupSymbol<func::FuncOp>("main")) {
    auto bytesOf = [](Type t) -> uint64_t {
      auto shaped = cast<ShapedType>(t);
      unsigned bits = shaped.getElementTypeBitWidth();
      return uint64_t(shaped.getNumElements()) * (bits < 8 ? 1 : bits / 8);
    };
    m.ioCount[0] = main.getNumArguments();
    m.ioCount[1] = main.getNumResults();
    m.ioBytes[0] = m.ioBytes[1] = 0;
    for (Type t : main.getArgumentTypes())
      m.ioBytes[0] += bytesOf(t);
    for (Type t : main.getResultTypes())
      m.ioBytes[1] += bytesOf(t);
  }
  nnapi::CompilePipelineOptions options;
  options.featureLevel = featureLevel;
  // The placement override is a file; a temporary one, so that an --emit
  // directory holds the models and nothing else.
  llvm::SmallString<128> placement;
  llvm::FileRemover removePlacement;
  if (forceOperation.empty()) {
    options.hostOnly = true;
  } else {
    int fd;
    if (std::error_code ec = llvm::sys::fs::createTemporaryFile(
            "nnapi-profile-placement", "json", fd, placement)) {
      error = "cannot create a temporary file: " + ec.message();
      return "";
    }
    removePlacement.setFile(placement);
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << "{\"nnapi\": [\"" << forceOperation << "\"]}\n";
    os.close();
    options.placement = placement.str().str();
  }
  nnapi::CompileOutput output = target;
  output.path = path;
  nnapi::CompileSummary summary;
  if (llvm::Error err = nnapi::compileModule(**module, options, output,
                                             &summary)) {
    error = llvm::toString(std::move(err)) + diagnostics;
    return "";
  }
  if (forceOperation.empty())
    return path;
  // The forced model must be one partition holding every op.
  const auto &functions = summary.report.functions;
  if (functions.size() != 1) {
    error = "no placement report";
    return "";
  }
  m.macs = m.elements = 0;
  for (const nnapi::ReportOp &op : functions[0].ops) {
    if (op.partition < 0) {
      error = op.type + " stays on the host: " + op.reason;
      return "";
    }
    if (op.nnapi == forceOperation || op.name == forceOperation) {
      m.macs += op.macs;
      m.elements += op.elements;
    }
  }
  if (functions[0].partitions.size() != 1) {
    error = "the model became " +
            std::to_string(functions[0].partitions.size()) + " partitions";
    return "";
  }
  if (m.elements == 0) {
    error = "no op became " + forceOperation + " (" +
            (functions[0].ops.empty() ? std::string("none")
                                      : functions[0].ops[0].nnapi) +
            ")";
    return "";
  }
  return path;
}

bool Profiler::time(const std::string &path, bool expectNNAPI, Measurement &m,
                    std::string &error) {
  nnapi_rt_model *model = nullptr;
  if (nnapi_rt_model_open(path.c_str(), &model) != NNAPI_RT_OK) {
    error = nnapi_rt_last_error();
    return false;
  }
  std::unique_ptr<nnapi_rt_model, void (*)(nnapi_rt_model *)> closer(
      model, nnapi_rt_model_close);
  // Buffers come from the runtime's allocator, as the compiled code's
  // intermediate tensors do (64-byte aligned): a device that binds them
  // in place is measured binding them.
  std::vector<Buffer> in, out;
  std::vector<const void *> inPtr;
  std::vector<void *> outPtr;
  std::vector<uint64_t> inBytes, outBytes;
  for (int64_t i = 0; i < nnapi_rt_model_num_inputs(model); ++i) {
    nnapi_rt_tensor_info info;
    nnapi_rt_model_input(model, i, &info);
    in.emplace_back(info.bytes);
    if (!in.back().data) {
      error = "cannot allocate " + std::to_string(info.bytes) + " bytes";
      return false;
    }
    randomData(info, in.back().data);
    inPtr.push_back(in.back().data);
    inBytes.push_back(info.bytes);
  }
  for (int64_t i = 0; i < nnapi_rt_model_num_outputs(model); ++i) {
    nnapi_rt_tensor_info info;
    nnapi_rt_model_output(model, i, &info);
    out.emplace_back(info.bytes);
    if (!out.back().data) {
      error = "cannot allocate " + std::to_string(info.bytes) + " bytes";
      return false;
    }
    outPtr.push_back(out.back().data);
    outBytes.push_back(info.bytes);
  }
  auto run = [&]() {
    return nnapi_rt_model_run(model, int64_t(inPtr.size()), inPtr.data(),
                              inBytes.data(), int64_t(outPtr.size()),
                              outPtr.data(), outBytes.data()) == NNAPI_RT_OK;
  };
  using clock = std::chrono::steady_clock;
  auto timed = [&](double &us) {
    auto start = clock::now();
    bool ok = run();
    us = std::chrono::duration<double, std::micro>(clock::now() - start)
             .count();
    return ok;
  };
  double first = 0;
  if (!run() || !run() || !timed(first)) {
    error = nnapi_rt_last_error();
    return false;
  }
  if (expectNNAPI && !ranOnNNAPI(error))
    return false;
  unsigned runs = unsigned(std::min(
      100000.0, std::max(5.0, std::ceil(minTimeMs * 1000.0 /
                                        std::max(first, 0.01)))));
  std::vector<double> times(runs);
  for (double &t : times)
    if (!timed(t)) {
      error = nnapi_rt_last_error();
      return false;
    }
  if (expectNNAPI && !ranOnNNAPI(error))
    return false;
  m.us = std::round(median(times) * 1000.0) / 1000.0;
  m.runs = runs;
  return true;
}

void Profiler::randomData(const nnapi_rt_tensor_info &info, uint8_t *data) {
  std::memset(data, 0, info.bytes);
  std::uniform_real_distribution<float> uniform(0.1f, 1.0f);
  std::string dtype = info.dtype;
  uint64_t n = info.elementBytes ? info.bytes / info.elementBytes : 0;
  for (uint64_t i = 0; i < n; ++i) {
    if (dtype == "f32") {
      float v = uniform(rng);
      std::memcpy(&data[i * 4], &v, 4);
    } else if (dtype == "f16") {
      // A value in [0.5, 1): exponent 14, a random 10-bit mantissa.
      uint16_t v = uint16_t(0x3800 | (rng() & 0x3ff));
      std::memcpy(&data[i * 2], &v, 2);
    } else if (dtype == "i1") {
      data[i] = uint8_t(rng() & 1);
    }
  }
}

bool Profiler::ranOnNNAPI(std::string &error) {
  int32_t count = nnapi_rt_partition_count();
  if (count <= 0) {
    error = "no partition ran on NNAPI";
    return false;
  }
  for (int32_t i = 0; i < count; ++i) {
    nnapi_rt_partition_info info;
    if (nnapi_rt_get_partition_info(i, &info) != NNAPI_RT_OK)
      continue;
    if (info.error[0] || info.failures) {
      error = std::string("the partition ran its host copy: ") +
              (info.error[0] ? info.error : info.lastFailure);
      return false;
    }
  }
  return true;
}

} // namespace nnapi_mlir::profiling
