//===- Verify.cpp - Checking NNAPI results against the host copy ----------===//

#include "Verify.h"

#include "Internal.h"

#include "nnapi-mlir/Support/Half.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>

using namespace nnapi_mlir;
using namespace nnapi_mlir::runtime;

namespace {

/// Tolerances (docs/validation.md says why these).
constexpr double kFloat32Relative = 1e-4, kFloat32Absolute = 1e-6;
constexpr double kFloat16Relative = 2e-2, kFloat16Absolute = 1e-3;
constexpr double kQuanta = 2;

/// The 8-bit quantized types, compared in quanta: the data types, and the
/// symmetric one some operations output.
bool isQuant8(int32_t type) {
  return isQuant8DataType(type) || type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM;
}

/// Element `i` of a buffer of operand type `type` as a double; `isSigned`
/// for 8-bit types read as int8.
double element(const void *data, size_t i, int32_t type, bool isSigned) {
  const auto *bytes = static_cast<const uint8_t *>(data);
  switch (type) {
  case ANEURALNETWORKS_TENSOR_FLOAT32: {
    float f;
    std::memcpy(&f, bytes + 4 * i, 4);
    return f;
  }
  case ANEURALNETWORKS_TENSOR_FLOAT16: {
    uint16_t h;
    std::memcpy(&h, bytes + 2 * i, 2);
    return halfToFloat(h);
  }
  case ANEURALNETWORKS_TENSOR_INT32: {
    int32_t v;
    std::memcpy(&v, bytes + 4 * i, 4);
    return v;
  }
  case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM: {
    uint16_t v;
    std::memcpy(&v, bytes + 2 * i, 2);
    return v;
  }
  case ANEURALNETWORKS_TENSOR_QUANT16_SYMM: {
    int16_t v;
    std::memcpy(&v, bytes + 2 * i, 2);
    return v;
  }
  default:
    return isSigned ? double(int8_t(bytes[i])) : double(bytes[i]);
  }
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

/// Flips the top bit of every byte (int8 <-> uint8 with the zero point
/// moved by 128).
std::vector<uint8_t> flipped(const void *data, size_t bytes) {
  std::vector<uint8_t> out(static_cast<const uint8_t *>(data),
                           static_cast<const uint8_t *>(data) + bytes);
  for (uint8_t &b : out)
    b ^= 0x80;
  return out;
}

/// The caller's view of operand `idx` differs from NNAPI's.
bool callerFlips(const blob::Model &m, uint32_t idx) {
  return m.int8AsUint8 &&
         m.operands[idx].type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
}

uint64_t byteSize(const blob::Operand &operand) {
  uint64_t bytes = 0;
  blob::operandByteSize(operand, bytes);
  return bytes;
}

template <typename Call>
void computeOnce(const NNAPIFunctionTable &fn, const blob::Model &m,
                 ANeuralNetworksCompilation *compilation,
                 const std::vector<const void *> &inputs,
                 const std::vector<void *> &outputs, Call &call);

/// Builds `m`, compiles it for `device` alone and computes it on `inputs`
/// into `outputs` (NNAPI's view); "" or why it could not. With
/// `zerosFirst` it computes once on zeros before: a driver that hands back
/// an earlier computation's results then shows it.
std::string runOn(const NNAPIFunctionTable &fn, const blob::Model &m,
                  const DeviceInfo &device,
                  const std::vector<const void *> &inputs,
                  const std::vector<void *> &outputs, bool zerosFirst) {
  ANeuralNetworksModel *model = nullptr;
  std::vector<ANeuralNetworksModel *> referenced;
  ANeuralNetworksCompilation *compilation = nullptr;
  std::string why;
  auto call = [&](const char *name, int rc) {
    if (rc != ANEURALNETWORKS_NO_ERROR && why.empty())
      why = describeCall(fn, name, rc);
    return rc == ANEURALNETWORKS_NO_ERROR;
  };
  if (buildModel(fn, m, model, referenced) != NNAPI_RT_OK)
    why = nnapi_rt_last_error();
  else if (call("ANeuralNetworksCompilation_createForDevices",
                fn.ANeuralNetworksCompilation_createForDevices(
                    model, &device.handle, 1, &compilation)) &&
           call("ANeuralNetworksCompilation_finish",
                fn.ANeuralNetworksCompilation_finish(compilation))) {
    std::vector<std::vector<uint8_t>> zeros;
    std::vector<const void *> zeroPtrs;
    if (zerosFirst) {
      for (uint32_t idx : m.inputs) {
        zeros.emplace_back(std::max<uint64_t>(1, byteSize(m.operands[idx])));
        zeroPtrs.push_back(zeros.back().data());
      }
      computeOnce(fn, m, compilation, zeroPtrs, outputs, call);
    }
    if (why.empty())
      computeOnce(fn, m, compilation, inputs, outputs, call);
  }
  if (compilation)
    fn.ANeuralNetworksCompilation_free(compilation);
  if (model)
    fn.ANeuralNetworksModel_free(model);
  for (ANeuralNetworksModel *r : referenced)
    fn.ANeuralNetworksModel_free(r);
  return why;
}

/// One execution of `compilation` on the buffers; failures go to `call`.
template <typename Call>
void computeOnce(const NNAPIFunctionTable &fn, const blob::Model &m,
                 ANeuralNetworksCompilation *compilation,
                 const std::vector<const void *> &inputs,
                 const std::vector<void *> &outputs, Call &call) {
  ANeuralNetworksExecution *execution = nullptr;
  if (!call("ANeuralNetworksExecution_create",
            fn.ANeuralNetworksExecution_create(compilation, &execution)))
    return;
  {
    bool ok = true;
    for (size_t i = 0; ok && i < inputs.size(); ++i)
      ok = call("ANeuralNetworksExecution_setInput",
                fn.ANeuralNetworksExecution_setInput(
                    execution, int32_t(i), nullptr, inputs[i],
                    byteSize(m.operands[m.inputs[i]])));
    for (size_t i = 0; ok && i < outputs.size(); ++i)
      ok = call("ANeuralNetworksExecution_setOutput",
                fn.ANeuralNetworksExecution_setOutput(
                    execution, int32_t(i), nullptr, outputs[i],
                    byteSize(m.operands[m.outputs[i]])));
    if (ok && fn.ANeuralNetworksExecution_compute) {
      call("ANeuralNetworksExecution_compute",
           fn.ANeuralNetworksExecution_compute(execution));
    } else if (ok) {
      ANeuralNetworksEvent *event = nullptr;
      if (call("ANeuralNetworksExecution_startCompute",
               fn.ANeuralNetworksExecution_startCompute(execution, &event))) {
        call("ANeuralNetworksEvent_wait", fn.ANeuralNetworksEvent_wait(event));
        fn.ANeuralNetworksEvent_free(event);
      }
    }
  }
  fn.ANeuralNetworksExecution_free(execution);
}

/// `m` with every tensor an operation computes also a model output, after
/// the model's own outputs.
blob::Model exposeIntermediates(const blob::Model &m) {
  blob::Model exposed = m;
  for (const blob::Operation &op : m.operations)
    for (uint32_t idx : op.outputs) {
      blob::Operand &operand = exposed.operands[idx];
      if (operand.lifetime == blob::Lifetime::Temporary &&
          blob::isTensorType(operand.type) && byteSize(operand) > 0) {
        operand.lifetime = blob::Lifetime::ModelOutput;
        exposed.outputs.push_back(idx);
      }
    }
  return exposed;
}

/// Operation `index` of `m` alone: its constant operands kept, the others
/// inputs and outputs (in NNAPI's view: the caller's int8 view is not
/// used). `inputs` receives the operands of `m` its inputs stand for.
blob::Model unitOf(const blob::Model &m, size_t index,
                   std::vector<uint32_t> &inputs) {
  const blob::Operation &op = m.operations[index];
  blob::Model unit;
  unit.featureLevel = m.featureLevel;
  unit.relaxFloat32ToFloat16 = m.relaxFloat32ToFloat16;
  unit.subgraphs = m.subgraphs;
  std::map<uint32_t, uint32_t> renamed;
  auto copy = [&](uint32_t idx, blob::Lifetime lifetime) {
    auto [it, added] = renamed.try_emplace(idx, 0);
    if (!added)
      return it->second;
    const blob::Operand &from = m.operands[idx];
    uint32_t to;
    if (from.lifetime == blob::Lifetime::Constant) {
      to = unit.addConstant(from.type, from.dims,
                            m.data.data() + from.valueOffset, from.valueLength);
    } else {
      to = uint32_t(unit.operands.size());
      unit.operands.push_back(from);
      if (from.lifetime != blob::Lifetime::NoValue &&
          from.lifetime != blob::Lifetime::Subgraph)
        unit.operands[to].lifetime = lifetime;
    }
    blob::Operand &operand = unit.operands[to];
    operand.scale = from.scale;
    operand.zeroPoint = from.zeroPoint;
    operand.channelDim = from.channelDim;
    operand.channelScales = from.channelScales;
    operand.subgraph = from.subgraph;
    if (operand.lifetime == blob::Lifetime::ModelInput) {
      unit.inputs.push_back(to);
      inputs.push_back(idx);
    } else if (operand.lifetime == blob::Lifetime::ModelOutput) {
      unit.outputs.push_back(to);
    }
    it->second = to;
    return to;
  };
  blob::Operation single{op.opcode, {}, {}};
  for (uint32_t idx : op.inputs)
    single.inputs.push_back(copy(idx, blob::Lifetime::ModelInput));
  for (uint32_t idx : op.outputs)
    single.outputs.push_back(copy(idx, blob::Lifetime::ModelOutput));
  unit.operations.push_back(std::move(single));
  return unit;
}

/// The step of the quantized values a float operand was computed from: the
/// scale of the DEQUANTIZE that produced it or, for an operation on
/// dequantized values, the largest among its inputs'; 0 when no quantized
/// value went into it.
double quantumOf(const blob::Model &m, uint32_t operand,
                 std::map<uint32_t, double> &memo) {
  auto [it, added] = memo.try_emplace(operand, 0.0);
  if (!added)
    return it->second;
  double quantum = 0;
  for (const blob::Operation &op : m.operations) {
    if (std::find(op.outputs.begin(), op.outputs.end(), operand) ==
        op.outputs.end())
      continue;
    if (op.opcode == ANEURALNETWORKS_DEQUANTIZE && !op.inputs.empty()) {
      quantum = m.operands[op.inputs[0]].scale;
      for (float scale : m.operands[op.inputs[0]].channelScales)
        quantum = std::max<double>(quantum, scale);
    } else {
      for (uint32_t in : op.inputs)
        if (m.operands[in].lifetime != blob::Lifetime::Constant)
          quantum = std::max(quantum, quantumOf(m, in, memo));
    }
    break;
  }
  memo[operand] = quantum;
  return quantum;
}

} // namespace

double Check::ratio() const {
  if (error == 0)
    return 0;
  if (tolerance == 0 || std::isinf(error))
    return std::numeric_limits<double>::infinity();
  return error / tolerance;
}

std::string Check::describe() const {
  std::string text = "max error " + number(error) + " " + unit +
                     (pass ? " <= " : " > ") + "tolerance " +
                     number(tolerance) + " " + unit;
  if (error > 0)
    text += " at element " + std::to_string(element) + " (device " +
            number(deviceValue) + ", host " + number(hostValue) + ")";
  return text;
}

bool nnapi_mlir::runtime::worse(const Check &b, const Check &a) {
  if (b.pass != a.pass)
    return !b.pass;
  return b.ratio() > a.ratio();
}

Check nnapi_mlir::runtime::compareOperand(const blob::Model &m,
                                          uint32_t operand, const void *device,
                                          const void *host, bool callerView) {
  const blob::Operand &o = m.operands[operand];
  size_t elementBytes = blob::elementSize(o.type);
  size_t n = elementBytes ? size_t(byteSize(o) / elementBytes) : 0;
  bool isSigned = o.type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED ||
                  o.type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM ||
                  (callerView && callerFlips(m, operand));
  Check c;
  bool isFloat = o.type == ANEURALNETWORKS_TENSOR_FLOAT32 ||
                 o.type == ANEURALNETWORKS_TENSOR_FLOAT16;
  if (isFloat) {
    bool half =
        o.type == ANEURALNETWORKS_TENSOR_FLOAT16 || m.relaxFloat32ToFloat16;
    double largest = 0;
    for (size_t i = 0; i < n; ++i) {
      double h = element(host, i, o.type, false);
      if (std::isfinite(h))
        largest = std::max(largest, std::fabs(h));
    }
    c.unit = "abs";
    c.tolerance = half ? kFloat16Relative * largest + kFloat16Absolute
                       : kFloat32Relative * largest + kFloat32Absolute;
    // Dequantized values may differ as the quantized ones do.
    std::map<uint32_t, double> memo;
    c.tolerance += kQuanta * quantumOf(m, operand, memo);
  } else if (isQuant8(o.type)) {
    c.unit = "quanta";
    c.tolerance = kQuanta;
  }
  // Integers and booleans are exact: the error counts the elements that
  // differ, the first of them shown.
  bool exact = !isFloat && !isQuant8(o.type);
  for (size_t i = 0; i < n; ++i) {
    double d = element(device, i, o.type, isSigned);
    double h = element(host, i, o.type, isSigned);
    double error;
    if (std::isnan(d) || std::isnan(h))
      error = std::isnan(d) && std::isnan(h)
                  ? 0
                  : std::numeric_limits<double>::infinity();
    else if (std::isinf(d) || std::isinf(h))
      error = d == h ? 0 : std::numeric_limits<double>::infinity();
    else
      error = std::fabs(d - h);
    if (exact) {
      if (error != 0 && c.error++ == 0) {
        c.element = i;
        c.deviceValue = d;
        c.hostValue = h;
      }
      continue;
    }
    if (error > c.error) {
      c.error = error;
      c.element = i;
      c.deviceValue = d;
      c.hostValue = h;
    }
  }
  c.pass = c.error <= c.tolerance;
  return c;
}

Narrowing nnapi_mlir::runtime::narrowDown(
    const NNAPIFunctionTable &fn, const blob::Model &m,
    const DeviceInfo &suspect,
    const std::vector<const DeviceInfo *> &references,
    const std::vector<const void *> &inputs,
    const std::vector<const void *> &hostOutputs) {
  Narrowing result;
  // Everything in NNAPI's view from here on.
  std::map<uint32_t, std::vector<uint8_t>> values;
  std::vector<const void *> nnInputs;
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    uint32_t idx = m.inputs[i];
    size_t bytes = byteSize(m.operands[idx]);
    const auto *data = static_cast<const uint8_t *>(inputs[i]);
    values[idx] = callerFlips(m, idx)
                      ? flipped(data, bytes)
                      : std::vector<uint8_t>(data, data + bytes);
    nnInputs.push_back(values[idx].data());
  }
  blob::Model exposed = exposeIntermediates(m);
  std::string tried;
  for (const DeviceInfo *reference : references) {
    std::vector<std::vector<uint8_t>> computed(exposed.outputs.size());
    std::vector<void *> outs;
    for (size_t i = 0; i < exposed.outputs.size(); ++i) {
      computed[i].resize(std::max<uint64_t>(
          1, byteSize(exposed.operands[exposed.outputs[i]])));
      outs.push_back(computed[i].data());
    }
    std::string why = runOn(fn, exposed, *reference, nnInputs, outs,
                            /*zerosFirst=*/false);
    // The reference must agree with the host copy on the partition's own
    // outputs before its intermediate values are trusted.
    for (size_t i = 0; why.empty() && i < m.outputs.size(); ++i) {
      uint32_t idx = m.outputs[i];
      const void *host = hostOutputs[i];
      std::vector<uint8_t> hostView;
      if (callerFlips(m, idx)) {
        hostView = flipped(host, byteSize(m.operands[idx]));
        host = hostView.data();
      }
      Check c = compareOperand(m, idx, computed[i].data(), host,
                               /*callerView=*/false);
      if (!c.pass)
        why = "disagrees with the host copy on output " + std::to_string(i) +
              ": " + c.describe();
    }
    if (!why.empty()) {
      tried +=
          (tried.empty() ? "" : "; ") + ("'" + reference->name + "' ") + why;
      continue;
    }
    result.reference = reference->name;
    for (size_t i = 0; i < exposed.outputs.size(); ++i)
      values[exposed.outputs[i]] = std::move(computed[i]);
    break;
  }
  if (result.reference.empty()) {
    result.note = references.empty()
                      ? "no other device to compare operations with"
                      : "no device agrees with the host copy to compare "
                        "operations with (" +
                            tried + ")";
    return result;
  }
  std::string failedToRun;
  for (size_t k = 0; k < m.operations.size(); ++k) {
    std::vector<uint32_t> unitInputs;
    blob::Model unit = unitOf(m, k, unitInputs);
    std::vector<const void *> ins;
    bool known = true;
    for (uint32_t idx : unitInputs) {
      auto it = values.find(idx);
      known &= it != values.end();
      ins.push_back(known ? it->second.data() : nullptr);
    }
    if (!known)
      continue;
    std::vector<std::vector<uint8_t>> outs(unit.outputs.size());
    std::vector<void *> outPtrs;
    for (size_t i = 0; i < unit.outputs.size(); ++i) {
      outs[i].resize(
          std::max<uint64_t>(1, byteSize(unit.operands[unit.outputs[i]])));
      outPtrs.push_back(outs[i].data());
    }
    const blob::Operation &op = m.operations[k];
    std::string why = runOn(fn, unit, suspect, ins, outPtrs,
                            /*zerosFirst=*/true);
    if (!why.empty()) {
      failedToRun += (failedToRun.empty() ? "" : ", ") + std::to_string(k);
      continue;
    }
    WrongOperation wrong;
    wrong.index = uint32_t(k);
    bool bad = false;
    for (size_t i = 0; i < op.outputs.size(); ++i) {
      auto it = values.find(op.outputs[i]);
      if (it == values.end())
        continue;
      Check c = compareOperand(m, op.outputs[i], outs[i].data(),
                               it->second.data(), /*callerView=*/false);
      if (!c.pass && (!bad || worse(c, wrong.check))) {
        wrong.check = c;
        bad = true;
      }
    }
    if (!bad)
      continue;
    wrong.signature = blob::operationSignature(m, op);
    result.wrong.push_back(std::move(wrong));
  }
  if (!failedToRun.empty())
    result.note = "operations " + failedToRun + " did not run alone on '" +
                  suspect.name + "'";
  if (result.wrong.empty() && result.note.empty())
    result.note = "every operation is right alone on '" + suspect.name +
                  "': the error needs them together";
  return result;
}
