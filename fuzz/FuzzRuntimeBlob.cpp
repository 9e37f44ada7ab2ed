//===- FuzzRuntimeBlob.cpp - Run mutated blobs through the runtime --------===//
//
// The whole path a blob takes at run time: the runtime reads it, builds the
// NNAPI model on the host device (which validates every operation) and runs
// it on inputs of the sizes the blob declares. The checksum is sealed first,
// since a mutated blob would otherwise die at the checksum test. Every call
// must return a status; a blob that runs must not read or write outside the
// buffers it declared (AddressSanitizer checks that). Blobs whose operands
// would need more than 16 MiB, or whose operations would take long, are not
// run. Loops (WHILE) run with a loop timeout of 10 ms, so that a mutated
// condition that never turns false costs little.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/NNAPI/BlobFormat.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"
#include "nnapi-mlir/Runtime/NNAPILoader.h"
#include "nnapi-mlir/Runtime/Runtime.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace nnapi_mlir;

namespace {
NNAPIFunctionTable &hostDevice() {
  static NNAPIFunctionTable table = [] {
    NNAPIFunctionTable t;
    std::string error;
    if (!loadNNAPILibrary(NNAPI_HOST_LIBRARY, t, error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      std::abort();
    }
    return t;
  }();
  return table;
}
} // namespace

/// Whether `model` and the models it references stay within the limits:
/// 16 MiB of operands, and a bounded amount of work per iteration (a
/// convolution of large operands is slow, not wrong).
static bool withinLimits(const blob::Model &model, uint64_t &total,
                         double &work) {
  std::vector<uint64_t> bytesOf;
  for (const blob::Operand &operand : model.operands) {
    uint64_t n = 0;
    if (operand.lifetime != blob::Lifetime::Subgraph &&
        (!blob::operandByteSize(operand, n) || n > (16u << 20) ||
         (total += n) > (16u << 20)))
      return false;
    bytesOf.push_back(n);
  }
  for (const blob::Operation &op : model.operations) {
    uint64_t in = 0, out = 0;
    for (uint32_t i : op.inputs)
      in = std::max(in, bytesOf[i]);
    for (uint32_t o : op.outputs)
      out += bytesOf[o];
    work += double(in) * double(out);
  }
  for (const blob::Model &sub : model.subgraphs)
    if (!withinLimits(sub, total, work))
      return false;
  return work <= double(1u << 30);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  blob::sealChecksum(bytes.data(), bytes.size());
  // A fresh runtime each time: nothing cached from the previous input.
  setNNAPIFunctionTableForTesting(&hostDevice());
  nnapi_rt_set_quiet(1);
  nnapi_rt_set_mode(NNAPI_RT_MODE_AUTO);
  static const bool loopTimeout =
      nnapi_rt_set_option("loop_timeout_ms", "10") == NNAPI_RT_OK;
  if (!loopTimeout)
    std::abort();

  blob::Model model;
  std::string error;
  std::vector<std::vector<uint8_t>> buffers;
  std::vector<void *> inputs, outputs;
  bool readable = blob::read(bytes.data(), bytes.size(), model, error);
  if (readable) {
    uint64_t total = 0;
    double work = 0;
    if (!withinLimits(model, total, work))
      return 0;
    auto allocate = [&](const std::vector<uint32_t> &indices,
                        std::vector<void *> &pointers, uint8_t fill) {
      for (uint32_t index : indices) {
        uint64_t n = 0;
        blob::operandByteSize(model.operands[index], n);
        buffers.emplace_back(n, fill);
        buffers.back().reserve(1); // an address even for 0 bytes
        pointers.push_back(buffers.back().data());
      }
    };
    buffers.reserve(model.inputs.size() + model.outputs.size());
    allocate(model.inputs, inputs, 0x3c); // 1.0 as float16 pairs, ~0.0115 f32
    allocate(model.outputs, outputs, 0);
  }
  int32_t status = nnapi_rt_execute(bytes.data(), int64_t(bytes.size()),
                                    int64_t(inputs.size()), inputs.data(),
                                    int64_t(outputs.size()), outputs.data());
  static const bool verbose = std::getenv("NNAPI_MLIR_FUZZ_VERBOSE");
  if (verbose)
    std::fprintf(stderr, "%zu bytes, %s: %s %s\n", size,
                 readable ? "read" : error.c_str(),
                 nnapi_rt_status_name(status), nnapi_rt_last_error());
  if (status != NNAPI_RT_OK && !*nnapi_rt_last_error()) {
    std::fprintf(stderr, "status %d without a message\n", status);
    std::abort();
  }
  if (!readable && status == NNAPI_RT_OK) {
    std::fprintf(stderr, "an unreadable blob ran\n");
    std::abort();
  }
  setNNAPIFunctionTableForTesting(&hostDevice()); // frees the partition
  return 0;
}
