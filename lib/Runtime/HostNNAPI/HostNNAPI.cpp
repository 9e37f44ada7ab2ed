//===- HostNNAPI.cpp - The NNAPI C API implemented on the CPU -------------===//
//
// A host implementation of the subset of NNAPI declared in NeuralNetworks.h,
// built as libnnapi_host.so so the runtime can dlopen it exactly like
// libneuralnetworks.so. It behaves as a CPU device: models are validated
// operation by operation with NNAPI's operand rules when they are finished
// (Validation.cpp); a compilation, when finished, becomes an Executor with
// one XNNPACK operator per operation (weights packed once) or a reference
// kernel, and a buffer plan for the intermediate tensors (Executor.cpp); an
// execution binds the caller's buffers and runs it.
//
// Environment, read when a compilation is finished:
//   NNAPI_MLIR_HOST_KERNELS=reference  reference kernels only (default:
//                                      XNNPACK where it has the operator)
//   NNAPI_MLIR_HOST_THREADS=N          threads of the pool the device's
//                                      compilations share (default 1)
//   NNAPI_MLIR_HOST_FAULT=initialize|create|run
//                                      simulate an XNNPACK failure (tests)
//
// Besides the NNAPI functions it exports NNAPIMLIRHost_lastError(), which the
// runtime looks up (optionally) to explain a failing call,
// NNAPIMLIRHost_setProfile() and NNAPIMLIRHost_getCompilationInfo().
//
// With a device profile (NNAPIMLIRHost_setProfile, or the path in
// $NNAPI_MLIR_HOST_PROFILE read on first use) the library impersonates that
// device: it enumerates it under the profile's name, type and feature level,
// and rejects the operations the profile does not run, both in
// getSupportedOperationsForDevices and when a compilation is finished, so
// partitioning and run-time fallback can be tested without the hardware.
//
//===----------------------------------------------------------------------===//

#include "Executor.h"
#include "HostModel.h"

#include "nnapi-mlir/Runtime/DeviceProfile.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#ifdef NNAPI_MLIR_HAVE_XNNPACK
#include <pthreadpool.h>
#endif

using namespace nnapi_mlir::host;


struct ANeuralNetworksModel : HostModel {
  bool finished = false;
};

struct ANeuralNetworksCompilation {
  ANeuralNetworksModel *model;
  bool finished = false;
  std::unique_ptr<Executor> executor;
};

struct ANeuralNetworksExecution {
  ANeuralNetworksCompilation *compilation;
  std::vector<const void *> inputs;
  std::vector<void *> outputs;
  bool reusable = false;
  bool computed = false; ///< A reusable execution's bindings are frozen.
};

struct ANeuralNetworksEvent {
  int status;
};

struct ANeuralNetworksDevice {
  const char *name;
};

namespace {

ANeuralNetworksDevice hostDevice{"nnapi-mlir-host"};

/// The impersonated device, if any. `profileError` is set when the profile
/// named by the environment could not be loaded; every model then fails.
struct ProfileState {
  std::mutex mutex;
  bool initialized = false;
  std::unique_ptr<nnapi_mlir::profile::DeviceProfile> profile;
  std::string profileError;
};

ProfileState &profileState() {
  static ProfileState state;
  return state;
}

/// Loads $NNAPI_MLIR_HOST_PROFILE once, unless a profile was set explicitly.
ProfileState &currentProfile() {
  ProfileState &state = profileState();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (!state.initialized) {
    state.initialized = true;
    const char *path = std::getenv("NNAPI_MLIR_HOST_PROFILE");
    if (path && *path) {
      auto profile = std::make_unique<nnapi_mlir::profile::DeviceProfile>();
      std::string error;
      if (nnapi_mlir::profile::loadDeviceProfile(path, *profile, error)) {
        state.profile = std::move(profile);
        hostDevice.name = state.profile->name.c_str();
      } else {
        state.profileError = "NNAPI_MLIR_HOST_PROFILE: " + error;
      }
    }
  }
  return state;
}

const nnapi_mlir::profile::DeviceProfile *activeProfile() {
  return currentProfile().profile.get();
}

int64_t featureLevelCode(unsigned level) {
  static const int64_t kCodes[] = {
      ANEURALNETWORKS_FEATURE_LEVEL_1, ANEURALNETWORKS_FEATURE_LEVEL_2,
      ANEURALNETWORKS_FEATURE_LEVEL_3, ANEURALNETWORKS_FEATURE_LEVEL_4,
      ANEURALNETWORKS_FEATURE_LEVEL_5, ANEURALNETWORKS_FEATURE_LEVEL_6,
      ANEURALNETWORKS_FEATURE_LEVEL_7, ANEURALNETWORKS_FEATURE_LEVEL_8};
  return kCodes[level - 1];
}

unsigned deviceFeatureLevel() {
  const nnapi_mlir::profile::DeviceProfile *p = activeProfile();
  return p ? p->featureLevel : 7;
}


/// Positive integer from the environment, or `fallback`.
unsigned envCount(const char *name, unsigned fallback) {
  const char *v = std::getenv(name);
  if (!v || !*v)
    return fallback;
  char *end = nullptr;
  long n = std::strtol(v, &end, 10);
  return *end == '\0' && n >= 1 && n <= 1024 ? unsigned(n) : fallback;
}

/// The pool shared by every compilation, created with the first one that
/// needs it ($NNAPI_MLIR_HOST_THREADS > 1).
pthreadpool_t sharedThreadpool() {
  static std::once_flag once;
  static pthreadpool_t pool = nullptr;
  std::call_once(once, [] {
#ifdef NNAPI_MLIR_HAVE_XNNPACK
    unsigned threads = envCount("NNAPI_MLIR_HOST_THREADS", 1);
    if (threads > 1)
      pool = pthreadpool_create(threads);
#endif
  });
  return pool;
}

/// Executor options from the environment; an error for unknown values.
int executorOptions(ExecutorOptions &options) {
  const char *kernels = std::getenv("NNAPI_MLIR_HOST_KERNELS");
  if (!kernels || !*kernels || std::strcmp(kernels, "xnnpack") == 0)
    options.kernels = KernelMode::XNNPACK;
  else if (std::strcmp(kernels, "reference") == 0)
    options.kernels = KernelMode::Reference;
  else
    return fail(ANEURALNETWORKS_BAD_STATE,
                std::string("NNAPI_MLIR_HOST_KERNELS must be 'xnnpack' or "
                            "'reference', got '") + kernels + "'");
  const char *fault = std::getenv("NNAPI_MLIR_HOST_FAULT");
  if (!fault || !*fault)
    options.fault = Fault::None;
  else if (std::strcmp(fault, "initialize") == 0)
    options.fault = Fault::Initialize;
  else if (std::strcmp(fault, "create") == 0)
    options.fault = Fault::Create;
  else if (std::strcmp(fault, "run") == 0)
    options.fault = Fault::Run;
  else
    return fail(ANEURALNETWORKS_BAD_STATE,
                std::string("NNAPI_MLIR_HOST_FAULT must be 'initialize', "
                            "'create' or 'run', got '") + fault + "'");
  options.threadpool = sharedThreadpool();
  return ANEURALNETWORKS_NO_ERROR;
}

/// Why the impersonated device would not run `op`, or "" if it would (or no
/// profile is active). Float32 operations of a model relaxed to float16 run
/// on a device that supports float16.
std::string profileRejection(const HostModel &m, const Operation &op) {
  using namespace nnapi_mlir;
  using namespace nnapi_mlir::profile;
  const DeviceProfile *p = activeProfile();
  if (!p)
    return "";
  const char *name = operationName(op.opcode);
  std::string opName = name ? name : "operation code " + std::to_string(op.opcode);
  const OperationInfo *info = lookupOperation(op.opcode);
  unsigned level = info ? info->level : 0;
  if (level == 0 || level > p->featureLevel)
    return "device '" + p->name + "' (feature level " +
           std::to_string(p->featureLevel) + ") does not have " + opName;
  int32_t type = op.inputs.empty() ? -1 : m.operands[op.inputs[0]].type;
  DataType dataType = DataType::Float32;
  if (type == ANEURALNETWORKS_TENSOR_FLOAT16)
    dataType = DataType::Float16;
  else if (type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM)
    dataType = DataType::Int8;
  bool ok = p->supports(op.opcode, dataType) ||
            (dataType == DataType::Float32 && m.relaxed &&
             p->supports(op.opcode, DataType::Float16));
  if (ok)
    return "";
  return "device '" + p->name + "' does not support " + opName + " on " +
         dataTypeName(dataType) +
         (dataType == DataType::Float32 && !m.relaxed &&
                  p->supports(op.opcode, DataType::Float16)
              ? " (it would with float32 relaxed to float16)"
              : "");
}


} // namespace

extern "C" {

__attribute__((visibility("default"))) const char *NNAPIMLIRHost_lastError(void) {
  return lastErrorMessage().c_str();
}

int ANeuralNetworksModel_create(ANeuralNetworksModel **model) {
  if (!model)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "model is null");
  if (!currentProfile().profileError.empty())
    return fail(ANEURALNETWORKS_BAD_STATE, currentProfile().profileError);
  *model = new (std::nothrow) ANeuralNetworksModel();
  return *model ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
}

void ANeuralNetworksModel_free(ANeuralNetworksModel *model) { delete model; }

int ANeuralNetworksModel_addOperand(ANeuralNetworksModel *model,
                                    const ANeuralNetworksOperandType *type) {
  if (!model || !type)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (model->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
  if (elementBytes(type->type) == 0)
    return fail(ANEURALNETWORKS_BAD_DATA,
                "operand type " + std::to_string(type->type) +
                    " is not supported by the host implementation");
  if (isScalar(type->type) && type->dimensionCount != 0)
    return fail(ANEURALNETWORKS_BAD_DATA, "scalar operand with dimensions");
  if (type->dimensionCount && !type->dimensions)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "dimensions are null");
  uint64_t elements = 1;
  for (uint32_t i = 0; i < type->dimensionCount; ++i) {
    elements *= std::max<uint32_t>(type->dimensions[i], 1);
    if (elements > (uint64_t(1) << 32))
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "operand has more than 2^32 elements");
  }
  Operand op;
  op.type = type->type;
  op.dims.assign(type->dimensions, type->dimensions + type->dimensionCount);
  op.scale = type->scale;
  op.zeroPoint = type->zeroPoint;
  model->operands.push_back(std::move(op));
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksModel_setOperandValue(ANeuralNetworksModel *model,
                                         int32_t index, const void *buffer,
                                         size_t length) {
  if (!model || !buffer)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (model->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
  if (index < 0 || size_t(index) >= model->operands.size())
    return fail(ANEURALNETWORKS_BAD_DATA, "operand index out of range");
  Operand &op = model->operands[index];
  if (op.kind == Kind::Input || op.kind == Kind::Output)
    return fail(ANEURALNETWORKS_BAD_DATA,
                "operand " + std::to_string(index) +
                    " is a model input or output and cannot have a value");
  if (length != operandBytes(op))
    return fail(ANEURALNETWORKS_BAD_DATA,
                "value of operand " + std::to_string(index) + " has " +
                    std::to_string(length) + " bytes, its type needs " +
                    std::to_string(operandBytes(op)));
  const auto *bytes = static_cast<const uint8_t *>(buffer);
  if (length <= ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES) {
    op.copy.assign(bytes, bytes + length);
    op.value = op.copy.data();
  } else {
    op.copy.clear();
    op.value = bytes; // the caller keeps it alive, as NNAPI specifies
  }
  op.kind = Kind::Constant;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksModel_addOperation(ANeuralNetworksModel *model,
                                      int32_t type, uint32_t inputCount,
                                      const uint32_t *inputs,
                                      uint32_t outputCount,
                                      const uint32_t *outputs) {
  if (!model || (inputCount && !inputs) || (outputCount && !outputs))
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (model->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
  if (outputCount == 0)
    return fail(ANEURALNETWORKS_BAD_DATA, "operation without outputs");
  Operation op;
  op.opcode = type;
  op.inputs.assign(inputs, inputs + inputCount);
  op.outputs.assign(outputs, outputs + outputCount);
  for (uint32_t idx : op.inputs)
    if (idx >= model->operands.size())
      return fail(ANEURALNETWORKS_BAD_DATA, "input operand out of range");
  for (uint32_t idx : op.outputs)
    if (idx >= model->operands.size())
      return fail(ANEURALNETWORKS_BAD_DATA, "output operand out of range");
  model->operations.push_back(std::move(op));
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksModel_identifyInputsAndOutputs(ANeuralNetworksModel *model,
                                                  uint32_t inputCount,
                                                  const uint32_t *inputs,
                                                  uint32_t outputCount,
                                                  const uint32_t *outputs) {
  if (!model || (inputCount && !inputs) || (outputCount && !outputs))
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (model->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
  for (uint32_t i = 0; i < inputCount + outputCount; ++i) {
    uint32_t idx = i < inputCount ? inputs[i] : outputs[i - inputCount];
    if (idx >= model->operands.size())
      return fail(ANEURALNETWORKS_BAD_DATA, "operand index out of range");
    Operand &op = model->operands[idx];
    if (op.kind != Kind::Temporary)
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "operand " + std::to_string(idx) +
                      " is already a constant, input or output");
    if (!isFloatTensor(op.type) && op.type != ANEURALNETWORKS_TENSOR_BOOL8 &&
        op.type != ANEURALNETWORKS_TENSOR_INT32)
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "model inputs and outputs must be float, int32 or bool "
                  "tensors here");
    op.kind = i < inputCount ? Kind::Input : Kind::Output;
  }
  model->inputs.assign(inputs, inputs + inputCount);
  model->outputs.assign(outputs, outputs + outputCount);
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksModel_relaxComputationFloat32toFloat16(
    ANeuralNetworksModel *model, bool allow) {
  if (!model)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "model is null");
  if (model->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
  model->relaxed = allow; // float32 stays exact on the host: allowed, unused
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksModel_finish(ANeuralNetworksModel *model) {
  if (!model)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "model is null");
  if (model->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "model already finished");
  if (int rc = validateModel(*model))
    return rc;
  model->finished = true;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksModel_getSupportedOperationsForDevices(
    const ANeuralNetworksModel *model,
    const ANeuralNetworksDevice *const *devices, uint32_t numDevices,
    bool *supportedOps) {
  if (!model || !devices || !supportedOps || numDevices == 0)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (!model->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "model not finished");
  // A finished model passed validation: every operation runs here unless
  // the impersonated device lacks it.
  for (size_t i = 0; i < model->operations.size(); ++i)
    supportedOps[i] = profileRejection(*model, model->operations[i]).empty();
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksCompilation_create(ANeuralNetworksModel *model,
                                      ANeuralNetworksCompilation **out) {
  if (!model || !out)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (!model->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "model not finished");
  *out = new (std::nothrow) ANeuralNetworksCompilation{model};
  return *out ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
}

int ANeuralNetworksCompilation_createForDevices(
    ANeuralNetworksModel *model, const ANeuralNetworksDevice *const *devices,
    uint32_t numDevices, ANeuralNetworksCompilation **out) {
  if (!devices || numDevices == 0)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "no devices");
  for (uint32_t i = 0; i < numDevices; ++i)
    if (devices[i] != &hostDevice)
      return fail(ANEURALNETWORKS_BAD_DATA, "unknown device");
  return ANeuralNetworksCompilation_create(model, out);
}

void ANeuralNetworksCompilation_free(ANeuralNetworksCompilation *c) { delete c; }

int ANeuralNetworksCompilation_setPreference(ANeuralNetworksCompilation *c,
                                             int32_t preference) {
  if (!c)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "compilation is null");
  if (c->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "compilation already finished");
  if (preference < 0 || preference > 2)
    return fail(ANEURALNETWORKS_BAD_DATA, "invalid preference");
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksCompilation_finish(ANeuralNetworksCompilation *c) {
  if (!c)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "compilation is null");
  if (c->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "compilation already finished");
  for (size_t i = 0; i < c->model->operations.size(); ++i) {
    std::string why = profileRejection(*c->model, c->model->operations[i]);
    if (!why.empty())
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "operation " + std::to_string(i) + ": " + why);
  }
  ExecutorOptions options;
  if (int rc = executorOptions(options))
    return rc;
  if (int rc = Executor::create(*c->model, options, c->executor))
    return rc;
  c->finished = true;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksExecution_create(ANeuralNetworksCompilation *c,
                                    ANeuralNetworksExecution **out) {
  if (!c || !out)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (!c->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "compilation not finished");
  auto *e = new (std::nothrow) ANeuralNetworksExecution();
  if (!e)
    return ANEURALNETWORKS_OUT_OF_MEMORY;
  e->compilation = c;
  e->inputs.assign(c->model->inputs.size(), nullptr);
  e->outputs.assign(c->model->outputs.size(), nullptr);
  *out = e;
  return ANEURALNETWORKS_NO_ERROR;
}

void ANeuralNetworksExecution_free(ANeuralNetworksExecution *e) { delete e; }

static int checkIO(ANeuralNetworksExecution *e, int32_t index,
                   const ANeuralNetworksOperandType *type, const void *buffer,
                   size_t length, const std::vector<uint32_t> &list,
                   const char *what) {
  if (!e || !buffer)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (e->computed)
    return fail(ANEURALNETWORKS_BAD_STATE,
                std::string("the execution was computed; its ") + what +
                    "s cannot change");
  if (index < 0 || size_t(index) >= list.size())
    return fail(ANEURALNETWORKS_BAD_DATA,
                std::string(what) + " index " + std::to_string(index) +
                    " out of range");
  const Operand &op = e->compilation->model->operands[list[index]];
  if (type && (type->type != op.type ||
               Shape(type->dimensions, type->dimensions + type->dimensionCount) !=
                   op.dims))
    return fail(ANEURALNETWORKS_BAD_DATA,
                std::string(what) + " type does not match the model");
  if (length != operandBytes(op))
    return fail(ANEURALNETWORKS_BAD_DATA,
                std::string(what) + " " + std::to_string(index) + " has " +
                    std::to_string(length) + " bytes, the model needs " +
                    std::to_string(operandBytes(op)));
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksExecution_setInput(ANeuralNetworksExecution *e,
                                      int32_t index,
                                      const ANeuralNetworksOperandType *type,
                                      const void *buffer, size_t length) {
  if (int rc = checkIO(e, index, type, buffer, length,
                       e ? e->compilation->model->inputs
                         : std::vector<uint32_t>(),
                       "input"))
    return rc;
  e->inputs[index] = buffer;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksExecution_setOutput(ANeuralNetworksExecution *e,
                                       int32_t index,
                                       const ANeuralNetworksOperandType *type,
                                       void *buffer, size_t length) {
  if (int rc = checkIO(e, index, type, buffer, length,
                       e ? e->compilation->model->outputs
                         : std::vector<uint32_t>(),
                       "output"))
    return rc;
  e->outputs[index] = buffer;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksExecution_compute(ANeuralNetworksExecution *e) {
  if (!e)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "execution is null");
  for (const void *p : e->inputs)
    if (!p)
      return fail(ANEURALNETWORKS_BAD_STATE, "an input is not set");
  for (void *p : e->outputs)
    if (!p)
      return fail(ANEURALNETWORKS_BAD_STATE, "an output is not set");
  if (e->computed && !e->reusable)
    return fail(ANEURALNETWORKS_BAD_STATE,
                "the execution was computed and is not reusable");
  e->computed = true;
  return e->compilation->executor->run(e->inputs.data(), e->outputs.data());
}

int ANeuralNetworksExecution_setReusable(ANeuralNetworksExecution *e,
                                         bool reusable) {
  if (!e)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "execution is null");
  if (e->computed)
    return fail(ANEURALNETWORKS_BAD_STATE,
                "setReusable must come before the first computation");
  e->reusable = reusable;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksExecution_startCompute(ANeuralNetworksExecution *e,
                                          ANeuralNetworksEvent **event) {
  if (!event)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "event is null");
  int status = ANeuralNetworksExecution_compute(e);
  if (status != ANEURALNETWORKS_NO_ERROR)
    return status;
  *event = new (std::nothrow) ANeuralNetworksEvent{status};
  return *event ? ANEURALNETWORKS_NO_ERROR : ANEURALNETWORKS_OUT_OF_MEMORY;
}

int ANeuralNetworksEvent_wait(ANeuralNetworksEvent *event) {
  if (!event)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "event is null");
  return event->status;
}

void ANeuralNetworksEvent_free(ANeuralNetworksEvent *event) { delete event; }

int ANeuralNetworks_getDeviceCount(uint32_t *numDevices) {
  if (!numDevices)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  *numDevices = 1;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworks_getDevice(uint32_t devIndex, ANeuralNetworksDevice **device) {
  if (!device)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (devIndex != 0)
    return fail(ANEURALNETWORKS_BAD_DATA, "device index out of range");
  *device = &hostDevice;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_getName(const ANeuralNetworksDevice *device,
                                  const char **name) {
  if (!device || !name)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  *name = device->name;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_getType(const ANeuralNetworksDevice *device,
                                  int32_t *type) {
  if (!device || !type)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  const nnapi_mlir::profile::DeviceProfile *p = activeProfile();
  *type = p ? p->deviceType : ANEURALNETWORKS_DEVICE_CPU;
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_getVersion(const ANeuralNetworksDevice *device,
                                     const char **version) {
  if (!device || !version)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  *version = "nnapi-mlir-host-2 (XNNPACK and reference kernels)";
  return ANEURALNETWORKS_NO_ERROR;
}

int ANeuralNetworksDevice_getFeatureLevel(const ANeuralNetworksDevice *device,
                                          int64_t *featureLevel) {
  if (!device || !featureLevel)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  *featureLevel = featureLevelCode(deviceFeatureLevel());
  return ANEURALNETWORKS_NO_ERROR;
}

int64_t ANeuralNetworks_getRuntimeFeatureLevel(void) {
  return featureLevelCode(deviceFeatureLevel());
}

/// What a finished compilation became: its steps (operations that are not
/// views), how many run on XNNPACK, and the bytes of its intermediate-tensor
/// arena. For tests and tools; not part of NNAPI.
__attribute__((visibility("default"))) int
NNAPIMLIRHost_getCompilationInfo(const ANeuralNetworksCompilation *c,
                                 uint32_t *steps, uint32_t *xnnpackSteps,
                                 uint64_t *arenaBytes) {
  if (!c || !steps || !xnnpackSteps || !arenaBytes)
    return fail(ANEURALNETWORKS_UNEXPECTED_NULL, "null argument");
  if (!c->finished)
    return fail(ANEURALNETWORKS_BAD_STATE, "compilation not finished");
  *steps = uint32_t(c->executor->stepCount());
  *xnnpackSteps = uint32_t(c->executor->xnnpackStepCount());
  *arenaBytes = c->executor->arenaBytes();
  return ANEURALNETWORKS_NO_ERROR;
}

/// Impersonates the device described by the profile at `path` (nullptr or
/// "" goes back to the plain host device). Returns ANEURALNETWORKS_BAD_DATA
/// with NNAPIMLIRHost_lastError() set if the profile cannot be loaded.
__attribute__((visibility("default"))) int
NNAPIMLIRHost_setProfile(const char *path) {
  ProfileState &state = profileState();
  std::lock_guard<std::mutex> lock(state.mutex);
  state.initialized = true;
  state.profileError.clear();
  if (!path || !*path) {
    state.profile.reset();
    hostDevice.name = "nnapi-mlir-host";
    return ANEURALNETWORKS_NO_ERROR;
  }
  auto profile = std::make_unique<nnapi_mlir::profile::DeviceProfile>();
  std::string error;
  if (!nnapi_mlir::profile::loadDeviceProfile(path, *profile, error))
    return fail(ANEURALNETWORKS_BAD_DATA, error);
  state.profile = std::move(profile);
  hostDevice.name = state.profile->name.c_str();
  return ANEURALNETWORKS_NO_ERROR;
}

} // extern "C"
