/*===- HostExtensions.h - What libnnapi_host.so exports besides NNAPI -----===*
 *
 * The host NNAPI library is reached through the NNAPI C API like any driver;
 * these few functions, which no real NNAPI has, let tests and tools steer it
 * and read what it did. Look them up with dlsym: they are optional.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NNAPI_MLIR_HOSTDEVICE_HOSTEXTENSIONS_H
#define NNAPI_MLIR_HOSTDEVICE_HOSTEXTENSIONS_H

#include "nnapi-mlir/NNAPI/NeuralNetworks.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Why the last failing call of this thread failed ("" if none). */
typedef const char *(*NNAPIMLIRHost_lastError_fn)(void);

/* The thread pool (a pthreadpool_t; null: none) on which `compilation`
 * runs its operators once finished; call it before
 * ANeuralNetworksCompilation_finish. The caller keeps the pool alive until
 * the compilation is freed. The runtime passes its own (the threads option,
 * Runtime.h); a compilation given none runs every operator on the calling
 * thread. Per compilation, not per process: another user of the library in
 * the same process never runs on a pool it does not own. Returns
 * ANEURALNETWORKS_UNEXPECTED_NULL or BAD_STATE (already finished). */
typedef int (*NNAPIMLIRHost_setCompilationThreadPool_fn)(
    ANeuralNetworksCompilation *compilation, void *pool);

/* Replaces the devices the library enumerates: comma-separated entries, each
 * a device profile path (docs/device-profiles.md), "host" (the host device,
 * runs everything) or "reference" (NNAPI's CPU reference device,
 * "nnapi-reference"). Null or "": the host device alone. Returns
 * ANEURALNETWORKS_BAD_DATA, with the reason in NNAPIMLIRHost_lastError, if an
 * entry cannot be loaded. $NNAPI_MLIR_HOST_DEVICES sets the same on first
 * use. */
typedef int (*NNAPIMLIRHost_setDevices_fn)(const char *spec);

/* The same with one profile (null or "": the host device). */
typedef int (*NNAPIMLIRHost_setProfile_fn)(const char *path);

/* What a device did since the library was loaded. */
typedef struct NNAPIMLIRHostDeviceCounters {
  uint64_t compilations; /* compilations finished on it */
  /* Compilations given a cache directory and token (setCaching) whose entry
     was found valid, missing, or truncated, corrupted or another model's
     (and rewritten), and the entries written. The host device stores no
     compiled code (XNNPACK's operators cannot be serialized): it compiles
     either way, and the entries show what the runtime asked of it. */
  uint64_t cacheEntriesFound;
  uint64_t cacheEntriesMissing;
  uint64_t cacheEntriesRejected;
  uint64_t cacheEntriesWritten;
  uint64_t executions;      /* computations, bursts included */
  uint64_t burstExecutions; /* computations through a burst */
  uint64_t timedExecutions; /* computations that measured their duration */
  /* Bytes of inputs and outputs computations were given as pointers
     (setInput/setOutput: a device from a profile, standing for a driver in
     another process, copies them, as NNAPI does for such a driver) and in
     memory (setInputFromMemory/setOutputFromMemory: no copy). */
  uint64_t pointerArgumentBytes;
  uint64_t memoryArgumentBytes;
} NNAPIMLIRHostDeviceCounters;
typedef int (*NNAPIMLIRHost_getDeviceCounters_fn)(
    const ANeuralNetworksDevice *device, NNAPIMLIRHostDeviceCounters *counters);

/* What a finished compilation became: steps, how many run on XNNPACK, and
 * the bytes of its intermediate-tensor arena. */
typedef int (*NNAPIMLIRHost_getCompilationInfo_fn)(
    const ANeuralNetworksCompilation *compilation, uint32_t *steps,
    uint32_t *xnnpackSteps, uint64_t *arenaBytes);

/* The threads of the pool `compilation` runs its operators on: 1 without
 * one (NNAPIMLIRHost_setCompilationThreadPool). */
typedef int (*NNAPIMLIRHost_getCompilationThreads_fn)(
    const ANeuralNetworksCompilation *compilation, uint32_t *threads);

#ifdef __cplusplus
}
#endif

#endif /* NNAPI_MLIR_HOSTDEVICE_HOSTEXTENSIONS_H */
