/*===- NeuralNetworks.h - The subset of the NNAPI C API we use -----------===*
 *
 * Our own declaration of the part of Android's Neural Networks API that the
 * runtime calls, written from the public enum values and signatures (see
 * shared/nnapi/REFERENCE.md). The host implementation (lib/HostDevice)
 * defines these symbols; the runtime only ever reaches them through
 * NNAPIFunctionTable, filled with dlsym.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NNAPI_MLIR_NNAPI_NEURALNETWORKS_H
#define NNAPI_MLIR_NNAPI_NEURALNETWORKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Operand types, all of them, from the one table. */
enum {
#define NNAPI_OPERAND_TYPE(NAME, CODE, BYTES, TENSOR, LEVEL, QUANT, ZERO_MIN,  \
                           ZERO_MAX, DATA8)                                    \
  ANEURALNETWORKS_##NAME = CODE,
#include "nnapi-mlir/NNAPI/OperandTypes.def"
};

/* Operation codes, all of them, from the one table. */
enum {
#define NNAPI_OPERATION(NAME, CODE, LEVEL, FLOAT32, FLOAT16, QUANT8, QUANT8S, \
                        FUSES, REQUANT, FIXED_SCALE, FIXED_ZERO)            \
  ANEURALNETWORKS_##NAME = CODE,
#include "nnapi-mlir/NNAPI/Operations.def"
};

enum {
  ANEURALNETWORKS_FUSED_NONE = 0,
  ANEURALNETWORKS_FUSED_RELU = 1,
  ANEURALNETWORKS_FUSED_RELU1 = 2,
  ANEURALNETWORKS_FUSED_RELU6 = 3,
};

enum {
  ANEURALNETWORKS_PADDING_SAME = 1,
  ANEURALNETWORKS_PADDING_VALID = 2,
};

enum {
  ANEURALNETWORKS_PREFER_LOW_POWER = 0,
  ANEURALNETWORKS_PREFER_FAST_SINGLE_ANSWER = 1,
  ANEURALNETWORKS_PREFER_SUSTAINED_SPEED = 2,
};

enum {
  ANEURALNETWORKS_DEVICE_UNKNOWN = 0,
  ANEURALNETWORKS_DEVICE_OTHER = 1,
  ANEURALNETWORKS_DEVICE_CPU = 2,
  ANEURALNETWORKS_DEVICE_GPU = 3,
  ANEURALNETWORKS_DEVICE_ACCELERATOR = 4,
};

enum {
  ANEURALNETWORKS_NO_ERROR = 0,
  ANEURALNETWORKS_OUT_OF_MEMORY = 1,
  ANEURALNETWORKS_INCOMPLETE = 2,
  ANEURALNETWORKS_UNEXPECTED_NULL = 3,
  ANEURALNETWORKS_BAD_DATA = 4,
  ANEURALNETWORKS_OP_FAILED = 5,
  ANEURALNETWORKS_BAD_STATE = 6,
  ANEURALNETWORKS_UNMAPPABLE = 7,
  ANEURALNETWORKS_OUTPUT_INSUFFICIENT_SIZE = 8,
  ANEURALNETWORKS_UNAVAILABLE_DEVICE = 9,
  ANEURALNETWORKS_MISSED_DEADLINE_TRANSIENT = 10,
  ANEURALNETWORKS_MISSED_DEADLINE_PERSISTENT = 11,
  ANEURALNETWORKS_RESOURCE_EXHAUSTED_TRANSIENT = 12,
  ANEURALNETWORKS_RESOURCE_EXHAUSTED_PERSISTENT = 13,
  ANEURALNETWORKS_DEAD_OBJECT = 14,
};

enum {
  ANEURALNETWORKS_MAX_SIZE_OF_IMMEDIATELY_COPIED_VALUES = 128,
  ANEURALNETWORKS_BYTE_SIZE_OF_CACHE_TOKEN = 32,
};

enum {
  ANEURALNETWORKS_PRIORITY_LOW = 90,
  ANEURALNETWORKS_PRIORITY_MEDIUM = 100,
  ANEURALNETWORKS_PRIORITY_HIGH = 110,
  ANEURALNETWORKS_PRIORITY_DEFAULT = ANEURALNETWORKS_PRIORITY_MEDIUM,
};

enum {
  ANEURALNETWORKS_DURATION_ON_HARDWARE = 0,
  ANEURALNETWORKS_DURATION_IN_DRIVER = 1,
  ANEURALNETWORKS_FENCED_DURATION_ON_HARDWARE = 2,
  ANEURALNETWORKS_FENCED_DURATION_IN_DRIVER = 3,
};

/* Values returned by ANeuralNetworksDevice_getFeatureLevel per feature level. */
enum {
  ANEURALNETWORKS_FEATURE_LEVEL_1 = 27,
  ANEURALNETWORKS_FEATURE_LEVEL_2 = 28,
  ANEURALNETWORKS_FEATURE_LEVEL_3 = 29,
  ANEURALNETWORKS_FEATURE_LEVEL_4 = 30,
  ANEURALNETWORKS_FEATURE_LEVEL_5 = 31,
  ANEURALNETWORKS_FEATURE_LEVEL_6 = 1000006,
  ANEURALNETWORKS_FEATURE_LEVEL_7 = 1000007,
  ANEURALNETWORKS_FEATURE_LEVEL_8 = 1000008,
};

/* Not NNAPI: feature level 1..8 <-> ANeuralNetworksDevice_getFeatureLevel's
 * value, one table for the runtime and the host implementation. A code this
 * header does not know gives 0; a level-9-or-later code (1000009...) gives 8,
 * since such a device has everything a level-8 blob needs. */
static inline int64_t nnapi_mlir_feature_level_code(unsigned level) {
  return level <= 5 ? (int64_t)(ANEURALNETWORKS_FEATURE_LEVEL_1 + level - 1)
                    : (int64_t)(1000000 + level);
}
static inline unsigned nnapi_mlir_feature_level_of_code(int64_t code) {
  if (code >= ANEURALNETWORKS_FEATURE_LEVEL_1 &&
      code <= ANEURALNETWORKS_FEATURE_LEVEL_5)
    return (unsigned)(code - ANEURALNETWORKS_FEATURE_LEVEL_1 + 1);
  if (code >= ANEURALNETWORKS_FEATURE_LEVEL_6 && code < 2000000)
    return code - 1000000 > 8 ? 8u : (unsigned)(code - 1000000);
  return 0;
}

typedef struct ANeuralNetworksOperandType {
  int32_t type;
  uint32_t dimensionCount;
  const uint32_t *dimensions;
  float scale;
  int32_t zeroPoint;
} ANeuralNetworksOperandType;

/* Per-channel quantization of a TENSOR_QUANT8_SYMM_PER_CHANNEL operand
 * (ANeuralNetworksModel_setOperandSymmPerChannelQuantParams, level 3). */
typedef struct ANeuralNetworksSymmPerChannelQuantParams {
  uint32_t channelDim;
  uint32_t scaleCount;
  const float *scales;
} ANeuralNetworksSymmPerChannelQuantParams;

typedef struct ANeuralNetworksModel ANeuralNetworksModel;
typedef struct ANeuralNetworksCompilation ANeuralNetworksCompilation;
typedef struct ANeuralNetworksExecution ANeuralNetworksExecution;
typedef struct ANeuralNetworksEvent ANeuralNetworksEvent;
typedef struct ANeuralNetworksDevice ANeuralNetworksDevice;
typedef struct ANeuralNetworksBurst ANeuralNetworksBurst;
typedef struct ANeuralNetworksMemory ANeuralNetworksMemory;

/* X(name, return type, parameter list, argument list): every function the
   runtime loads; the argument list forwards a call (test doubles wrap them). */
#define NNAPI_MLIR_FOR_EACH_FUNCTION(X)                                        \
  X(ANeuralNetworksModel_create, int, (ANeuralNetworksModel * *model),         \
    (model))                                                                   \
  X(ANeuralNetworksModel_free, void, (ANeuralNetworksModel * model), (model))  \
  X(ANeuralNetworksModel_finish, int, (ANeuralNetworksModel * model), (model)) \
  X(ANeuralNetworksModel_addOperand, int,                                      \
    (ANeuralNetworksModel * model, const ANeuralNetworksOperandType *type),    \
    (model, type))                                                             \
  X(ANeuralNetworksModel_setOperandValue, int,                                 \
    (ANeuralNetworksModel * model, int32_t index, const void *buffer,          \
     size_t length),                                                           \
    (model, index, buffer, length))                                            \
  X(ANeuralNetworksModel_addOperation, int,                                    \
    (ANeuralNetworksModel * model, int32_t type, uint32_t inputCount,          \
     const uint32_t *inputs, uint32_t outputCount, const uint32_t *outputs),   \
    (model, type, inputCount, inputs, outputCount, outputs))                   \
  X(ANeuralNetworksModel_identifyInputsAndOutputs, int,                        \
    (ANeuralNetworksModel * model, uint32_t inputCount,                        \
     const uint32_t *inputs, uint32_t outputCount, const uint32_t *outputs),   \
    (model, inputCount, inputs, outputCount, outputs))                         \
  X(ANeuralNetworksModel_relaxComputationFloat32toFloat16, int,                \
    (ANeuralNetworksModel * model, bool allow), (model, allow))                \
  X(ANeuralNetworksCompilation_create, int,                                    \
    (ANeuralNetworksModel * model, ANeuralNetworksCompilation * *compilation), \
    (model, compilation))                                                      \
  X(ANeuralNetworksCompilation_free, void,                                     \
    (ANeuralNetworksCompilation * compilation), (compilation))                 \
  X(ANeuralNetworksCompilation_setPreference, int,                             \
    (ANeuralNetworksCompilation * compilation, int32_t preference),            \
    (compilation, preference))                                                 \
  X(ANeuralNetworksCompilation_finish, int,                                    \
    (ANeuralNetworksCompilation * compilation), (compilation))                 \
  X(ANeuralNetworksExecution_create, int,                                      \
    (ANeuralNetworksCompilation * compilation,                                 \
     ANeuralNetworksExecution * *execution),                                   \
    (compilation, execution))                                                  \
  X(ANeuralNetworksExecution_free, void,                                       \
    (ANeuralNetworksExecution * execution), (execution))                       \
  X(ANeuralNetworksExecution_setInput, int,                                    \
    (ANeuralNetworksExecution * execution, int32_t index,                      \
     const ANeuralNetworksOperandType *type, const void *buffer,               \
     size_t length),                                                           \
    (execution, index, type, buffer, length))                                  \
  X(ANeuralNetworksExecution_setOutput, int,                                   \
    (ANeuralNetworksExecution * execution, int32_t index,                      \
     const ANeuralNetworksOperandType *type, void *buffer, size_t length),     \
    (execution, index, type, buffer, length))                                  \
  X(ANeuralNetworksExecution_startCompute, int,                                \
    (ANeuralNetworksExecution * execution, ANeuralNetworksEvent * *event),     \
    (execution, event))                                                        \
  X(ANeuralNetworksEvent_wait, int, (ANeuralNetworksEvent * event), (event))   \
  X(ANeuralNetworksEvent_free, void, (ANeuralNetworksEvent * event), (event))

/* Functions the runtime uses when present: introduced after feature level 1,
   or (the memory calls) ones it can do without. */
#define NNAPI_MLIR_FOR_EACH_OPTIONAL_FUNCTION(X)                               \
  X(ANeuralNetworksExecution_compute, int,                                     \
    (ANeuralNetworksExecution * execution), (execution))                       \
  X(ANeuralNetworks_getDeviceCount, int, (uint32_t * numDevices),              \
    (numDevices))                                                              \
  X(ANeuralNetworks_getDevice, int,                                            \
    (uint32_t devIndex, ANeuralNetworksDevice * *device), (devIndex, device))  \
  X(ANeuralNetworksDevice_getName, int,                                        \
    (const ANeuralNetworksDevice *device, const char **name), (device, name))  \
  X(ANeuralNetworksDevice_getType, int,                                        \
    (const ANeuralNetworksDevice *device, int32_t *type), (device, type))      \
  X(ANeuralNetworksDevice_getVersion, int,                                     \
    (const ANeuralNetworksDevice *device, const char **version),               \
    (device, version))                                                         \
  X(ANeuralNetworksDevice_getFeatureLevel, int,                                \
    (const ANeuralNetworksDevice *device, int64_t *featureLevel),              \
    (device, featureLevel))                                                    \
  X(ANeuralNetworksModel_getSupportedOperationsForDevices, int,                \
    (const ANeuralNetworksModel *model,                                        \
     const ANeuralNetworksDevice *const *devices, uint32_t numDevices,         \
     bool *supportedOps),                                                      \
    (model, devices, numDevices, supportedOps))                                \
  X(ANeuralNetworksCompilation_createForDevices, int,                          \
    (ANeuralNetworksModel * model,                                             \
     const ANeuralNetworksDevice *const *devices, uint32_t numDevices,         \
     ANeuralNetworksCompilation **compilation),                                \
    (model, devices, numDevices, compilation))                                 \
  X(ANeuralNetworks_getRuntimeFeatureLevel, int64_t, (void), ())               \
  X(ANeuralNetworksExecution_setReusable, int,                                 \
    (ANeuralNetworksExecution * execution, bool reusable),                     \
    (execution, reusable))                                                     \
  X(ANeuralNetworksCompilation_setCaching, int,                                \
    (ANeuralNetworksCompilation * compilation, const char *cacheDir,           \
     const uint8_t *token),                                                    \
    (compilation, cacheDir, token))                                            \
  X(ANeuralNetworksCompilation_setPriority, int,                               \
    (ANeuralNetworksCompilation * compilation, int priority),                  \
    (compilation, priority))                                                   \
  X(ANeuralNetworksBurst_create, int,                                          \
    (ANeuralNetworksCompilation * compilation, ANeuralNetworksBurst * *burst), \
    (compilation, burst))                                                      \
  X(ANeuralNetworksBurst_free, void, (ANeuralNetworksBurst * burst), (burst))  \
  X(ANeuralNetworksExecution_burstCompute, int,                                \
    (ANeuralNetworksExecution * execution, ANeuralNetworksBurst * burst),      \
    (execution, burst))                                                        \
  X(ANeuralNetworksExecution_setMeasureTiming, int,                            \
    (ANeuralNetworksExecution * execution, bool measure),                      \
    (execution, measure))                                                      \
  X(ANeuralNetworksExecution_getDuration, int,                                 \
    (const ANeuralNetworksExecution *execution, int32_t durationCode,          \
     uint64_t *duration),                                                      \
    (execution, durationCode, duration))                                       \
  X(ANeuralNetworksModel_setOperandValueFromModel, int,                        \
    (ANeuralNetworksModel * model, int32_t index,                              \
     const ANeuralNetworksModel *value),                                       \
    (model, index, value))                                                     \
  X(ANeuralNetworksExecution_setLoopTimeout, int,                              \
    (ANeuralNetworksExecution * execution, uint64_t duration),                 \
    (execution, duration))                                                     \
  X(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams, int,             \
    (ANeuralNetworksModel * model, int32_t index,                              \
     const ANeuralNetworksSymmPerChannelQuantParams *channelQuant),            \
    (model, index, channelQuant))                                              \
  X(ANeuralNetworksMemory_createFromFd, int,                                   \
    (size_t size, int protect, int fd, size_t offset,                          \
     ANeuralNetworksMemory **memory),                                          \
    (size, protect, fd, offset, memory))                                       \
  X(ANeuralNetworksMemory_free, void, (ANeuralNetworksMemory * memory),        \
    (memory))                                                                  \
  X(ANeuralNetworksExecution_setInputFromMemory, int,                          \
    (ANeuralNetworksExecution * execution, int32_t index,                      \
     const ANeuralNetworksOperandType *type,                                   \
     const ANeuralNetworksMemory *memory, size_t offset, size_t length),       \
    (execution, index, type, memory, offset, length))                          \
  X(ANeuralNetworksExecution_setOutputFromMemory, int,                         \
    (ANeuralNetworksExecution * execution, int32_t index,                      \
     const ANeuralNetworksOperandType *type,                                   \
     const ANeuralNetworksMemory *memory, size_t offset, size_t length),       \
    (execution, index, type, memory, offset, length))

#define NNAPI_MLIR_DECLARE(name, ret, params, args) ret name params;
NNAPI_MLIR_FOR_EACH_FUNCTION(NNAPI_MLIR_DECLARE)
NNAPI_MLIR_FOR_EACH_OPTIONAL_FUNCTION(NNAPI_MLIR_DECLARE)
#undef NNAPI_MLIR_DECLARE

#ifdef __cplusplus
}
#endif

#endif /* NNAPI_MLIR_NNAPI_NEURALNETWORKS_H */
