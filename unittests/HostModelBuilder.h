//===- HostModelBuilder.h - Build and run NNAPI models in unit tests ------===//
//
// Builds a model through an NNAPI function table (the host library loaded
// with dlopen), with random inputs and constants, and compiles and runs it
// with a chosen kernel mode ($NNAPI_MLIR_HOST_KERNELS).
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_UNITTESTS_HOSTMODELBUILDER_H
#define NNAPI_MLIR_UNITTESTS_HOSTMODELBUILDER_H

#include "nnapi-mlir/HostDevice/Kernels.h"
#include "nnapi-mlir/NNAPI/Operations.h"
#include "nnapi-mlir/Runtime/NNAPILoader.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace nnapi_mlir::test {

class HostModelBuilder {
public:
  /// Tensors are TENSOR_FLOAT32 or TENSOR_FLOAT16 (`floatType`).
  explicit HostModelBuilder(const NNAPIFunctionTable &fn,
                            int32_t floatType = ANEURALNETWORKS_TENSOR_FLOAT32)
      : fn(fn), floatType(floatType), rng(1234) {
    lastError = reinterpret_cast<const char *(*)()>(
        dlsym(fn.handle, "NNAPIMLIRHost_lastError"));
    info = reinterpret_cast<decltype(info)>(
        dlsym(fn.handle, "NNAPIMLIRHost_getCompilationInfo"));
    if (fn.ANeuralNetworksModel_create(&model) != ANEURALNETWORKS_NO_ERROR)
      model = nullptr;
  }
  ~HostModelBuilder() {
    for (ANeuralNetworksCompilation *c : compilations)
      fn.ANeuralNetworksCompilation_free(c);
    if (model)
      fn.ANeuralNetworksModel_free(model);
  }

  /// A model input filled with uniform values in [lo, hi).
  uint32_t input(std::vector<uint32_t> dims, float lo = -1, float hi = 1) {
    uint32_t idx = operand(floatType, dims);
    inputs.push_back(idx);
    inputData.push_back(random(dims, lo, hi));
    int32Inputs.push_back(false);
    return idx;
  }
  /// A TENSOR_INT32 input (zeros); setInput gives its values as floats.
  uint32_t int32Input(std::vector<uint32_t> dims) {
    uint32_t idx = operand(ANEURALNETWORKS_TENSOR_INT32, dims);
    inputs.push_back(idx);
    inputData.emplace_back(host::numElements(dims), 0.0f);
    int32Inputs.push_back(true);
    return idx;
  }
  uint32_t output(std::vector<uint32_t> dims) { return addOutput(dims, false); }
  /// A TENSOR_INT32 output; compileAndRun returns its values as floats.
  uint32_t int32Output(std::vector<uint32_t> dims) {
    return addOutput(dims, true);
  }
  uint32_t temporary(std::vector<uint32_t> dims) {
    return operand(floatType, dims);
  }
  /// A constant tensor of uniform values in [lo, hi).
  uint32_t constant(std::vector<uint32_t> dims, float lo = -1, float hi = 1) {
    return constantOf(dims, random(dims, lo, hi));
  }
  /// A constant tensor of the given values.
  uint32_t constantOf(std::vector<uint32_t> dims, std::vector<float> given) {
    uint32_t idx = operand(floatType, dims);
    if (given.size() != host::numElements(dims))
      failure = "constant: wrong element count";
    std::vector<float> &values = constantValues[idx];
    values = std::move(given);
    std::vector<uint8_t> &bytes = keep(encode(values));
    check(fn.ANeuralNetworksModel_setOperandValue(model, int32_t(idx),
                                                  bytes.data(), bytes.size()));
    return idx;
  }
  uint32_t tensorI32(std::vector<uint32_t> dims, const int32_t *values) {
    uint32_t idx = operand(ANEURALNETWORKS_TENSOR_INT32, dims);
    size_t n = host::numElements(dims) * 4;
    std::vector<uint8_t> &bytes = keep(std::vector<uint8_t>(n));
    std::memcpy(bytes.data(), values, n);
    check(fn.ANeuralNetworksModel_setOperandValue(model, int32_t(idx),
                                                  bytes.data(), n));
    return idx;
  }
  /// A TENSOR_BOOL8 temporary, and a TENSOR_BOOL8 constant (one byte per
  /// element).
  uint32_t boolTemporary(std::vector<uint32_t> dims) {
    return temporaryOf(ANEURALNETWORKS_TENSOR_BOOL8, dims);
  }
  /// A temporary of any tensor operand type.
  uint32_t temporaryOf(int32_t type, std::vector<uint32_t> dims) {
    return operand(type, dims);
  }
  /// A constant of quantized type `type` (int8 bytes, or int32 values as
  /// bytes for TENSOR_INT32) with its scale and zero point.
  uint32_t quantizedConstant(int32_t type, std::vector<uint32_t> dims,
                             std::vector<uint8_t> bytes, float scale,
                             int32_t zeroPoint) {
    uint32_t idx = operand(type, dims, scale, zeroPoint);
    std::vector<uint8_t> &kept = keep(std::move(bytes));
    check(fn.ANeuralNetworksModel_setOperandValue(model, int32_t(idx),
                                                  kept.data(), kept.size()));
    return idx;
  }
  /// A TENSOR_QUANT8_ASYMM_SIGNED temporary with its scale and zero point.
  uint32_t int8Temporary(std::vector<uint32_t> dims, float scale,
                         int32_t zeroPoint) {
    return operand(ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, dims, scale,
                   zeroPoint);
  }
  uint32_t tensorBool8(std::vector<uint32_t> dims, std::vector<uint8_t> values) {
    uint32_t idx = operand(ANEURALNETWORKS_TENSOR_BOOL8, dims);
    std::vector<uint8_t> &bytes = keep(std::move(values));
    check(fn.ANeuralNetworksModel_setOperandValue(model, int32_t(idx),
                                                  bytes.data(), bytes.size()));
    return idx;
  }
  /// An optional operand left out: no buffer, as NNAPI specifies.
  uint32_t omitted() {
    uint32_t idx = operand(floatType, {});
    check(fn.ANeuralNetworksModel_setOperandValue(model, int32_t(idx), nullptr,
                                                  0));
    return idx;
  }
  uint32_t i32(int32_t v) { return scalar(ANEURALNETWORKS_INT32, &v, 4); }
  uint32_t boolean(bool v) {
    uint8_t b = v;
    return scalar(ANEURALNETWORKS_BOOL, &b, 1);
  }
  /// A FLOAT32 scalar, or FLOAT16 in a float16 model.
  uint32_t f32(float v) {
    if (floatType == ANEURALNETWORKS_TENSOR_FLOAT16) {
      uint16_t h = host::floatToHalf(v);
      return scalar(ANEURALNETWORKS_FLOAT16, &h, 2);
    }
    return scalar(ANEURALNETWORKS_FLOAT32, &v, 4);
  }
  void operation(int32_t code, std::vector<uint32_t> ins,
                 std::vector<uint32_t> outs) {
    check(fn.ANeuralNetworksModel_addOperation(
        model, code, uint32_t(ins.size()), ins.data(), uint32_t(outs.size()),
        outs.data()));
  }

  /// The model, for calls the builder does not make.
  ANeuralNetworksModel *nnapiModel() const { return model; }

  /// Finishes the model (once) and compiles it with NNAPI_MLIR_HOST_KERNELS
  /// set to `kernels` (unset if null). Null on failure; see error(). The
  /// builder frees its compilations.
  ANeuralNetworksCompilation *compile(const char *kernels) {
    if (!finished) {
      finished = true;
      check(fn.ANeuralNetworksModel_identifyInputsAndOutputs(
          model, uint32_t(inputs.size()), inputs.data(),
          uint32_t(outputs.size()), outputs.data()));
      check(fn.ANeuralNetworksModel_finish(model));
    }
    if (!failure.empty())
      return nullptr;
    if (kernels)
      setenv("NNAPI_MLIR_HOST_KERNELS", kernels, 1);
    else
      unsetenv("NNAPI_MLIR_HOST_KERNELS");
    ANeuralNetworksCompilation *c = nullptr;
    bool ok = check(fn.ANeuralNetworksCompilation_create(model, &c)) &&
              check(fn.ANeuralNetworksCompilation_finish(c));
    unsetenv("NNAPI_MLIR_HOST_KERNELS");
    if (c)
      compilations.push_back(c);
    return ok ? c : nullptr;
  }

  /// Compiles with `kernels`, runs once on the inputs, and returns the
  /// outputs as float32. `steps`/`xnnpack` receive the compilation's counts.
  bool compileAndRun(const char *kernels,
                     std::vector<std::vector<float>> &results,
                     uint32_t *steps = nullptr, uint32_t *xnnpack = nullptr) {
    ANeuralNetworksCompilation *c = compile(kernels);
    if (!c)
      return false;
    uint32_t s = 0, x = 0;
    uint64_t arena = 0;
    if (info && info(c, &s, &x, &arena) == ANEURALNETWORKS_NO_ERROR) {
      if (steps)
        *steps = s;
      if (xnnpack)
        *xnnpack = x;
    }
    ANeuralNetworksExecution *e = nullptr;
    if (!check(fn.ANeuralNetworksExecution_create(c, &e)))
      return false;
    std::vector<std::vector<uint8_t>> in, out;
    for (size_t k = 0; k < inputs.size(); ++k) {
      in.push_back(int32Inputs[k] ? encodeInt32(inputData[k])
                                  : encode(inputData[k]));
      check(fn.ANeuralNetworksExecution_setInput(e, int32_t(k), nullptr,
                                                 in.back().data(),
                                                 in.back().size()));
    }
    for (size_t k = 0; k < outputs.size(); ++k) {
      out.emplace_back(host::numElements(outputDims[k]) *
                       (int32Outputs[k] ? 4 : elementBytes()));
      check(fn.ANeuralNetworksExecution_setOutput(e, int32_t(k), nullptr,
                                                  out.back().data(),
                                                  out.back().size()));
    }
    bool ok = check(fn.ANeuralNetworksExecution_compute(e));
    fn.ANeuralNetworksExecution_free(e);
    results.clear();
    for (size_t k = 0; k < out.size(); ++k) {
      if (!int32Outputs[k]) {
        results.push_back(decode(out[k]));
        continue;
      }
      std::vector<float> values(out[k].size() / 4);
      for (size_t i = 0; i < values.size(); ++i) {
        int32_t v;
        std::memcpy(&v, &out[k][4 * i], 4);
        values[i] = float(v);
      }
      results.push_back(values);
    }
    return ok && failure.empty();
  }

  /// Replaces the random values of input `k` (same element count).
  void setInput(size_t k, std::vector<float> values) {
    if (values.size() != inputData.at(k).size())
      failure = "setInput: wrong element count";
    inputData[k] = std::move(values);
  }

  /// The values given to constant `idx` and to input `k` (exactly
  /// representable in the model's float type).
  const std::vector<float> &constantValue(uint32_t idx) const {
    return constantValues.at(idx);
  }
  const std::vector<float> &inputValue(size_t k) const { return inputData[k]; }
  size_t inputCount() const { return inputs.size(); }
  size_t outputCount() const { return outputs.size(); }
  size_t inputElements(size_t k) const { return inputData[k].size(); }
  size_t outputElements(size_t k) const {
    return host::numElements(outputDims[k]);
  }

  /// The first failure (NNAPI call and the library's message), or "".
  const std::string &error() const { return failure; }

private:
  uint32_t addOutput(const std::vector<uint32_t> &dims, bool int32) {
    uint32_t idx = operand(int32 ? ANEURALNETWORKS_TENSOR_INT32 : floatType, dims);
    outputs.push_back(idx);
    outputDims.push_back(dims);
    int32Outputs.push_back(int32);
    return idx;
  }
  uint32_t operand(int32_t type, const std::vector<uint32_t> &dims,
                   float scale = -1, int32_t zeroPoint = 0) {
    // A quantized type needs a positive scale (NNAPI's rule).
    if (scale < 0)
      scale = nnapi_mlir::quantizationRule(type).quantized ? 1.0f : 0.0f;
    ANeuralNetworksOperandType t{type, uint32_t(dims.size()),
                                 dims.empty() ? nullptr : dims.data(), scale,
                                 zeroPoint};
    check(fn.ANeuralNetworksModel_addOperand(model, &t));
    return next++;
  }
  uint32_t scalar(int32_t type, const void *value, size_t bytes) {
    uint32_t idx = operand(type, {});
    check(fn.ANeuralNetworksModel_setOperandValue(model, int32_t(idx), value,
                                                  bytes));
    return idx;
  }
  bool check(int rc) {
    if (rc != ANEURALNETWORKS_NO_ERROR && failure.empty())
      failure = "NNAPI call returned " + std::to_string(rc) + ": " +
                (lastError ? lastError() : "");
    return rc == ANEURALNETWORKS_NO_ERROR;
  }
  std::vector<float> random(const std::vector<uint32_t> &dims, float lo,
                            float hi) {
    std::uniform_real_distribution<float> dist(lo, hi);
    std::vector<float> v(host::numElements(dims));
    for (float &x : v)
      x = dist(rng);
    if (floatType == ANEURALNETWORKS_TENSOR_FLOAT16) // representable values
      for (float &x : v)
        x = host::halfToFloat(host::floatToHalf(x));
    return v;
  }
  size_t elementBytes() const {
    return floatType == ANEURALNETWORKS_TENSOR_FLOAT16 ? 2 : 4;
  }
  static std::vector<uint8_t> encodeInt32(const std::vector<float> &values) {
    std::vector<uint8_t> bytes(values.size() * 4);
    for (size_t i = 0; i < values.size(); ++i) {
      int32_t v = int32_t(values[i]);
      std::memcpy(&bytes[4 * i], &v, 4);
    }
    return bytes;
  }
  std::vector<uint8_t> encode(const std::vector<float> &values) const {
    std::vector<uint8_t> bytes(values.size() * elementBytes());
    for (size_t i = 0; i < values.size(); ++i) {
      if (floatType == ANEURALNETWORKS_TENSOR_FLOAT16) {
        uint16_t h = host::floatToHalf(values[i]);
        std::memcpy(&bytes[2 * i], &h, 2);
      } else {
        std::memcpy(&bytes[4 * i], &values[i], 4);
      }
    }
    return bytes;
  }
  std::vector<float> decode(const std::vector<uint8_t> &bytes) const {
    std::vector<float> values(bytes.size() / elementBytes());
    for (size_t i = 0; i < values.size(); ++i) {
      if (floatType == ANEURALNETWORKS_TENSOR_FLOAT16) {
        uint16_t h;
        std::memcpy(&h, &bytes[2 * i], 2);
        values[i] = host::halfToFloat(h);
      } else {
        std::memcpy(&values[i], &bytes[4 * i], 4);
      }
    }
    return values;
  }
  /// Keeps constant storage alive: values over 128 bytes are referenced.
  std::vector<uint8_t> &keep(std::vector<uint8_t> bytes) {
    storage.push_back(std::make_unique<std::vector<uint8_t>>(std::move(bytes)));
    return *storage.back();
  }

  const NNAPIFunctionTable &fn;
  int32_t floatType;
  std::mt19937 rng;
  ANeuralNetworksModel *model = nullptr;
  std::vector<ANeuralNetworksCompilation *> compilations;
  uint32_t next = 0;
  bool finished = false;
  std::vector<uint32_t> inputs, outputs;
  std::vector<std::vector<float>> inputData;
  std::map<uint32_t, std::vector<float>> constantValues;
  std::vector<std::vector<uint32_t>> outputDims;
  std::vector<bool> int32Inputs, int32Outputs;
  std::vector<std::unique_ptr<std::vector<uint8_t>>> storage;
  std::string failure;
  const char *(*lastError)() = nullptr;
  int (*info)(const ANeuralNetworksCompilation *, uint32_t *, uint32_t *,
              uint64_t *) = nullptr;
};

} // namespace nnapi_mlir::test

#endif // NNAPI_MLIR_UNITTESTS_HOSTMODELBUILDER_H
