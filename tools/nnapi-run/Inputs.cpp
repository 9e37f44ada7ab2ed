//===- Inputs.cpp - nnapi-run's inputs and expected outputs ---------------===//
//
// The tensors a run is fed: --test-data's input_<i>.pb files (with the
// expected output_<i>.pb), --input .npy files, or random ones from --seed;
// each checked against the model's signature.
//
//===----------------------------------------------------------------------===//

#include "Steps.h"

#include "Npy.h"
#include "TensorProto.h"

#include <algorithm>
#include <random>

#include <sys/stat.h>

using namespace nnapi_mlir;

namespace nnapi_run {

namespace {

/// A dynamic dimension (-1 in the signature) matches any size; the
/// runtime checks it against the model's range.
bool dimsMatch(const std::vector<int64_t> &spec,
               const std::vector<int64_t> &given) {
  if (spec.size() != given.size())
    return false;
  for (size_t d = 0; d < spec.size(); ++d)
    if (spec[d] >= 0 && spec[d] != given[d])
      return false;
  return true;
}

} // namespace

int readTestData(const std::string &testData, const Signature &sig,
                 std::vector<ProtoTensor> &testInputs,
                 std::vector<ProtoTensor> &testOutputs) {
  std::string error;
  auto read = [&](const char *kind, size_t i, ProtoTensor &t) {
    return readTensorProto(
        testData + "/" + kind + "_" + std::to_string(i) + ".pb", t, error);
  };
  auto check = [&](const char *kind, size_t i, size_t specIndex,
                   const TensorSpec &spec, ProtoTensor &t) {
    // ONNX 1.12's test data stores bfloat16 tensors as uint16: the same
    // bit patterns.
    if (spec.dtype == "bf16" && t.dtype == "u16")
      t.dtype = "bf16";
    if (t.dtype == spec.dtype && dimsMatch(spec.dims, t.dims))
      return true;
    error = testData + "/" + kind + "_" + std::to_string(i) + ".pb holds " +
            t.dtype + " " + shapeString(t.dims) + ", " + kind + " " +
            std::to_string(specIndex) + " ('" + printable(spec.name) +
            "') is " + spec.dtype + " " + shapeString(spec.dims);
    return false;
  };
  auto load = [&](const char *kind, size_t i, const TensorSpec &spec,
                  std::vector<ProtoTensor> &into) {
    ProtoTensor t;
    if (!read(kind, i, t) || !check(kind, i, i, spec, t))
      return false;
    into.push_back(std::move(t));
    return true;
  };
  auto exists = [&](size_t i) {
    struct stat st;
    std::string path = testData + "/input_" + std::to_string(i) + ".pb";
    return stat(path.c_str(), &st) == 0;
  };
  size_t given = 0;
  for (; exists(given); ++given) {
    ProtoTensor t;
    if (!read("input", given, t))
      return usageError(error);
    if (given < sig.inputs.size() &&
        !check("input", given, given, sig.inputs[given], t))
      return usageError(error);
    testInputs.push_back(std::move(t));
  }
  if (given != sig.inputs.size())
    return usageError("'" + testData + "' has " + std::to_string(given) +
                      " inputs, the model " +
                      std::to_string(sig.inputs.size()));
  for (size_t i = 0; i < sig.outputs.size(); ++i)
    if (!load("output", i, sig.outputs[i], testOutputs))
      return usageError(error);
  return 0;
}

int prepareInputs(const RunOptions &o, const nnapi_rt_model *model,
                  const Signature &sig,
                  const std::vector<ProtoTensor> &testInputs,
                  std::vector<std::vector<uint8_t>> &inputs,
                  std::vector<std::vector<int64_t>> &inputDims) {
  std::string error;
  if (o.inputFiles.size() > sig.inputs.size())
    return usageError("model has " + std::to_string(sig.inputs.size()) +
                      " inputs, got " + std::to_string(o.inputFiles.size()) +
                      " --input files");
  inputs.resize(sig.inputs.size());
  inputDims.resize(sig.inputs.size());
  std::mt19937_64 rng(o.seed);
  for (size_t i = 0; i < sig.inputs.size(); ++i) {
    const TensorSpec &spec = sig.inputs[i];
    inputDims[i] = spec.dims;
    if (!o.testData.empty()) {
      inputs[i] = testInputs[i].data;
      inputDims[i] = testInputs[i].dims;
      continue;
    }
    if (i < o.inputFiles.size()) {
      NpyArray array;
      if (!readNpy(o.inputFiles[i], array, error))
        return usageError(error);
      if (array.dtype != spec.npyDtype() || !dimsMatch(spec.dims, array.shape))
        return usageError("input " + std::to_string(i) + " ('" +
                          printable(spec.name) +
                          "') must be " + spec.dtype + " " +
                          shapeString(spec.dims) + ", '" + o.inputFiles[i] +
                          "' holds " + TensorSpec::dtypeOfNpy(array.dtype) +
                          " " + shapeString(array.shape));
      inputs[i] = std::move(array.data);
      inputDims[i] = array.shape;
      continue;
    }
    if (std::count(spec.dims.begin(), spec.dims.end(), -1))
      return usageError("input " + std::to_string(i) + " ('" +
                        printable(spec.name) + "') has dynamic dimensions " +
                        shapeString(spec.dims) +
                        ": give it with --input FILE.npy or --test-data");
    // Random data would only meet the model's check.
    if (nnapi_rt_model_input_is_bound(model, int64_t(i)))
      return usageError("input " + std::to_string(i) + " ('" +
                        printable(spec.name) +
                        "') was compiled for one value (--input-value or "
                        "--specialize-value); give it with --input FILE.npy");
    inputs[i] = randomTensor(spec, rng);
  }
  return 0;
}

int checkTestOutputShapes(const std::string &testData, const Signature &sig,
                          const std::vector<ProtoTensor> &expected) {
  for (size_t i = 0; i < expected.size(); ++i)
    if (expected[i].dims != sig.outputs[i].dims)
      return usageError(testData + "/output_" + std::to_string(i) +
                        ".pb holds " + shapeString(expected[i].dims) +
                        ", the model computes output " + std::to_string(i) +
                        " ('" + printable(sig.outputs[i].name) + "') as " +
                        shapeString(sig.outputs[i].dims) +
                        " for these inputs");
  return 0;
}

} // namespace nnapi_run
