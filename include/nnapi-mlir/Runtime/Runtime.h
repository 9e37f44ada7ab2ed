/*===- Runtime.h - C ABI of the nnapi-mlir runtime ------------------------===*
 *
 * The compiled model calls nnapi_rt_execute() for each offloaded partition;
 * a non-zero status makes it run the partition's host copy instead. The
 * runtime builds and compiles each partition's NNAPI model once (on first
 * use), then creates one execution per call. It reaches NNAPI only through a
 * function table filled by dlopen/dlsym from:
 *   1. the path set with nnapi_rt_set_library_path(), else
 *   2. the NNAPI_MLIR_LIBRARY environment variable, else
 *   3. libneuralnetworks.so on Android, or libnnapi_host.so (our host
 *      implementation, looked up next to this runtime library) elsewhere.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NNAPI_MLIR_RUNTIME_RUNTIME_H
#define NNAPI_MLIR_RUNTIME_RUNTIME_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  NNAPI_RT_OK = 0,
  NNAPI_RT_INVALID_ARGUMENT = 1,   /* null pointers, wrong input/output count */
  NNAPI_RT_INVALID_BLOB = 2,       /* truncated, corrupted or unsupported blob */
  NNAPI_RT_LIBRARY_UNAVAILABLE = 3,/* the NNAPI library could not be loaded */
  NNAPI_RT_NNAPI_ERROR = 4,        /* an NNAPI call returned an error code */
  NNAPI_RT_DISABLED = 5,           /* host-only mode: NNAPI not attempted */
  NNAPI_RT_INVALID_MODEL = 6,      /* not a loadable nnapi-mlir model (Model.h) */
  NNAPI_RT_INTERNAL_ERROR = 7,     /* out of memory, or an unexpected C++
                                      exception inside the runtime or a
                                      library it calls (never thrown on) */
  NNAPI_RT_TIMEOUT = 8,            /* a loop ran longer than the loop timeout
                                      (loop_timeout_ms): not retried on the
                                      host, whose loops have the same bound */
  NNAPI_RT_VERIFY = 9,             /* nnapi_rt_execute_checked only: the
                                      partition ran on NNAPI into the
                                      runtime's buffers; run the host copy
                                      into the outputs, then call
                                      nnapi_rt_verify */
} nnapi_rt_status;

typedef enum {
  NNAPI_RT_MODE_AUTO = 0,      /* run partitions on NNAPI, fall back per region */
  NNAPI_RT_MODE_HOST_ONLY = 1, /* never call NNAPI: every region runs its host copy */
} nnapi_rt_mode;

/* Runs one partition. `inputs`/`outputs` point at dense buffers of the sizes
 * the blob declares. Returns an nnapi_rt_status; on error the message is
 * available from nnapi_rt_last_error() on the same thread. */
int32_t nnapi_rt_execute(const uint8_t *blob, int64_t blobSize,
                         int64_t numInputs, void *const *inputs,
                         int64_t numOutputs, void *const *outputs);

/* What compiled models call instead of nnapi_rt_execute (a library from
 * before it calls that): the same, with the partition's name (its function
 * in the compiled model, "main_nnapi_0"; may be null), except that when the
 * verify or validate option asks for a check it runs the partition on
 * NNAPI into buffers of its own and returns NNAPI_RT_VERIFY. The caller
 * then runs the host copy into `outputs`, as for any other non-zero status,
 * and passes them to nnapi_rt_verify(), which compares the two on this
 * thread. */
int32_t nnapi_rt_execute_checked(const uint8_t *blob, int64_t blobSize,
                                 const char *name, int64_t numInputs,
                                 void *const *inputs, int64_t numOutputs,
                                 void *const *outputs);
void nnapi_rt_verify(const uint8_t *blob, int64_t blobSize,
                     int64_t numOutputs, void *const *outputs);

/* A partition with dynamic dimensions (blob dims of 0) runs at the shapes of
 * each call. `inputDims` holds every input's dimensions in order
 * (`numDims` in all, static ones included). nnapi_rt_prepare_dims
 * specializes the partition to them (its unspecified dimensions computed by
 * the NNAPI spec's output-shape rules), compiles it, keeps it (at most 8
 * shapes per partition, the least recently used dropped) and writes every
 * output's dimensions into `outputDims`; the caller then allocates the
 * outputs and calls nnapi_rt_execute_dims, which behaves as
 * nnapi_rt_execute_checked. A failure of either means: run the host copy. A
 * dimension that contradicts the blob's, or a shape the rules refuse, is
 * NNAPI_RT_INVALID_ARGUMENT with the reason. */
int32_t nnapi_rt_prepare_dims(const uint8_t *blob, int64_t blobSize,
                              const char *name, int64_t numDims,
                              const int64_t *inputDims, int64_t numOutputs,
                              int64_t *outputDims);
int32_t nnapi_rt_execute_dims(const uint8_t *blob, int64_t blobSize,
                              const char *name, int64_t numDims,
                              const int64_t *inputDims, int64_t numInputs,
                              void *const *inputs, int64_t numOutputs,
                              void *const *outputs);

/* Message describing the last failure on this thread ("" if none). */
const char *nnapi_rt_last_error(void);

/* Name of a status code ("NNAPI_RT_INVALID_BLOB"). */
const char *nnapi_rt_status_name(int32_t status);

/* Name of an NNAPI ResultCode ("BAD_DATA"), or "UNKNOWN". */
const char *nnapi_rt_result_code_name(int32_t code);

/* Selects the mode (default: NNAPI_MLIR_MODE=host in the environment selects
 * host-only, anything else auto). Applies to later calls. */
void nnapi_rt_set_mode(int32_t mode);
int32_t nnapi_rt_get_mode(void);

/* Overrides the NNAPI library path. Drops every cached partition; safe while
 * other threads execute (they finish with the library they started with). */
void nnapi_rt_set_library_path(const char *path);

/* Counts of partition executions since the last reset: on NNAPI, and
 * returned with an error (the caller then ran the host copy). */
void nnapi_rt_get_stats(uint64_t *nnapiExecutions, uint64_t *failedExecutions);
/* Dynamic partitions since the last reset: specializations compiled (one
 * per new shape, or again after being dropped), calls that found theirs
 * compiled, and specializations dropped to keep 8 per partition. */
void nnapi_rt_get_shape_stats(uint64_t *specializations, uint64_t *hits,
                              uint64_t *evictions);
/* Bytes of partition inputs and outputs given to NNAPI since the last
 * reset: as memory (the bind_memory option: no copy) and as pointers. */
void nnapi_rt_get_binding_stats(uint64_t *memoryBytes, uint64_t *pointerBytes);
/* Resets those, the shape counts, the binding counts and the parallel
 * counts below. */
void nnapi_rt_reset_stats(void);
/* Parallel loops the runtime's pool ran since the last reset (the host
 * code's and the host device's), and how many of them ran chunks on more
 * than one thread: whether the threads option is doing anything. */
void nnapi_rt_get_parallel_stats(uint64_t *loops, uint64_t *onSeveralThreads);

/* Forgets every cached partition (models, compilations) and the library;
 * safe while other threads execute: what they use is freed, and the library
 * unloaded, when they return. */
void nnapi_rt_reset(void);

/* When set (NNAPI_MLIR_QUIET=1, or this call), fallbacks are not reported on
 * stderr. By default the first failure of each partition is reported once. */
void nnapi_rt_set_quiet(int32_t quiet);

/* Where the runtime's warnings go (fallback reasons, a device left, a
 * capped thread count): to the callback set here, if any (whatever the
 * quiet setting; it may be called from any thread that runs a model, and
 * must not call back into the runtime); else, unless quiet, to Android's
 * log (logcat, tag "nnapi-mlir", through liblog's __android_log_write,
 * looked up at run time) where the process has it, else to stderr. NULL
 * restores that default. */
typedef enum { NNAPI_RT_LOG_WARNING = 1 } nnapi_rt_log_level;
typedef void (*nnapi_rt_log_fn)(void *userData, int32_t level,
                                const char *message);
void nnapi_rt_set_log_callback(nnapi_rt_log_fn callback, void *userData);

/* Runtime options, by name. Each has an environment variable, which applies
 * to the options not given here; `value` NULL forgets the value given, so
 * the variable, or else the default, applies again. Setting one drops the
 * compiled partitions (not the library). Returns NNAPI_RT_OK, or
 * NNAPI_RT_INVALID_ARGUMENT with the reason in nnapi_rt_last_error() for an
 * unknown name or a bad value. A bad value in the environment makes every
 * partition run its host copy, with the variable named, until it is
 * overridden here. On a library without the device API (before feature
 * level 3) devices, cache_dir, bursts and timing do not apply.
 *
 *   devices     NNAPI_MLIR_DEVICES     which devices may run partitions, most
 *               preferred first: comma-separated device names or types
 *               (accelerator, gpu, cpu, other); "-" before one excludes it.
 *               Default (""): every device but NNAPI's CPU reference device
 *               "nnapi-reference" (the host copy is faster), accelerators,
 *               then GPUs, others, CPUs. "nnapi-reference" runs partitions
 *               only when named. A partition goes to the first candidate
 *               whose feature level suffices and that runs all its
 *               operations; if none does, to its host copy, with the reasons.
 *   cache_dir   NNAPI_MLIR_CACHE_DIR   an existing directory for the drivers'
 *               compilation caches (a driver that cannot write there
 *               compiles without caching) (ANeuralNetworksCompilation_-
 *               setCaching); the token is a SHA-256 of the blob, the device's
 *               name, version and level, the options and this runtime. "": none.
 *   preference  NNAPI_MLIR_PREFERENCE  fast-single-answer (default),
 *               sustained-speed or low-power
 *   priority    NNAPI_MLIR_PRIORITY    low, medium (default) or high (NNAPI
 *               libraries of feature level 4 and above)
 *   bursts      NNAPI_MLIR_BURSTS      1 (default): partitions on devices of
 *               feature level 3 and above compute through a burst; 0: not
 *   bind_memory NNAPI_MLIR_BIND_MEMORY 1 (default): a partition's input or
 *               output of 64 KiB or more that lies in a block of the
 *               runtime's allocator (the compiled code's buffers,
 *               nnapi_rt_alloc) is given to NNAPI as an ANeuralNetworksMemory
 *               over the block's shared-memory file, made once per block,
 *               instead of a pointer, which NNAPI copies for a driver in
 *               another process at every execution; 0: pointers only
 *   timing      NNAPI_MLIR_TIMING      0 (default); 1: every execution asks
 *               the driver for its durations (nnapi_rt_partition_info)
 *   threads     NNAPI_MLIR_THREADS     threads of the runtime's one pool, 1 to
 *               256 (default: the CPUs this process may run on). More than
 *               the CPUs this process may run on are capped there, with a
 *               message on stderr (unless quiet), since spinning workers
 *               without a CPU slow every parallel loop down. The host
 *               NNAPI device (libnnapi_host.so) runs its operators on this
 *               pool; 1 runs everything on the calling thread.
 *   threads_force NNAPI_MLIR_THREADS_FORCE  1: use the threads given even
 *               above the CPUs available; 0 (default): cap them.
 *   thread_pool NNAPI_MLIR_THREAD_POOL  whose workers the pool is:
 *               pthreadpool (the default where the runtime was built with
 *               it) or builtin (the runtime's own; the only one in a build
 *               without pthreadpool, such as an NDK build). The host NNAPI
 *               device's XNNPACK operators share a pthreadpool pool; with
 *               the builtin one they run on the calling thread.
 *   loop_timeout_ms NNAPI_MLIR_LOOP_TIMEOUT_MS  how long one loop (NNAPI's
 *               WHILE, and the compiled host code's run-time loops) may run,
 *               1 to 86400000 ms (default 2000, NNAPI's). NNAPI devices get
 *               it through ANeuralNetworksExecution_setLoopTimeout, capped at
 *               NNAPI's 15 s (feature level 4 libraries); host-code loops
 *               check it before every iteration. A loop that runs longer is
 *               stopped: the model's run fails with NNAPI_RT_TIMEOUT (its
 *               outputs undefined), and a partition whose WHILE timed out on
 *               NNAPI is not retried on the host.
 *   verify      NNAPI_MLIR_VERIFY      K: the 1st, (K+1)-th, (2K+1)-th...
 *               execution of each partition also runs its host copy, and
 *               the two results are compared (tolerance per type,
 *               docs/validation.md); the caller gets the host copy's. The
 *               first mismatch finds the operations the device computes
 *               wrong (against another device), records them in the quirks
 *               record, and the partition leaves that device for this
 *               process. 0 (default): never.
 *   validate    NNAPI_MLIR_VALIDATE    1: check every execution as verify
 *               does, without leaving devices (nnapi-run --validate);
 *               results in nnapi_rt_get_check_info. 0 (default).
 *   quirks      NNAPI_MLIR_QUIRKS      the quirks record (JSON, Quirks.h):
 *               a partition holding an operation it lists for a device
 *               does not go to that device (its partition line says why),
 *               and checks append what they find. Default: the file
 *               nnapi-mlir-quirks.json in cache_dir when that is set, else
 *               none; "" none. A record that cannot be read makes every
 *               partition run its host copy, with the reason.
 *   max_failures NNAPI_MLIR_MAX_FAILURES  after this many failed executions
 *               in a row (default 3), a partition leaves its device for
 *               this process: the next device, or its host copy. */
int32_t nnapi_rt_set_option(const char *name, const char *value);

/* The threads option as a number: nnapi_rt_set_threads(n) is
 * nnapi_rt_set_option("threads", "n") (NNAPI_RT_INVALID_ARGUMENT for 0, a
 * negative count or more than 256); nnapi_rt_get_threads() is the count in
 * force (given, else NNAPI_MLIR_THREADS, else the CPUs available). */
int32_t nnapi_rt_set_threads(int32_t threads);
int32_t nnapi_rt_get_threads(void);

/* Runs fn(context, begin, end) over [0, count) on the runtime's pool, split
 * into chunks of at least `grain` iterations (grain >= 1; the last chunk may
 * be shorter), and no more than about eight per thread (a chunk must
 * outweigh handing it out): chunks run in any order and concurrently, each
 * exactly once; returns when all are done. With one thread, or one chunk,
 * it calls fn(context, 0, count) on the calling thread; so does a call that
 * finds the pool running another loop (from inside a chunk, or from another
 * thread). */
void nnapi_rt_parallel_for(void (*fn)(void *context, int64_t begin,
                                      int64_t end),
                           void *context, int64_t count, int64_t grain);

/* Bounds on loops, called by compiled code (not meant for other callers).
 * Before a run-time loop of the host code, nnapi_rt_loop_deadline() gives
 * the time it must end by (steady clock, ns; already past once a loop of
 * this run timed out); before each iteration, nnapi_rt_loop_continue()
 * says whether it may run (0 once the deadline passed, which marks this
 * thread's run as timed out). A model's entry point calls
 * nnapi_rt_run_begin() first and returns nnapi_rt_run_end(): 0, or
 * NNAPI_MODEL_STATUS_LOOP_TIMEOUT (ModelABI.h) if a loop timed out. Within a
 * timed-out run, nnapi_rt_execute returns NNAPI_RT_TIMEOUT at once. */
int64_t nnapi_rt_loop_deadline(void);
int32_t nnapi_rt_loop_continue(int64_t deadline);
void nnapi_rt_run_begin(void);
int32_t nnapi_rt_run_end(void);

/* The NNAPI library's devices (loading it if needed). */
typedef struct {
  char name[128];
  char version[128];
  int32_t type;         /* ANEURALNETWORKS_DEVICE_*: 2 cpu, 3 gpu, 4 accelerator */
  int32_t featureLevel; /* 1..8 (0: a code this runtime does not know;
                           levels above 8 are reported as 8) */
  int32_t preference;   /* place among the candidates (0: first), -1: not one */
} nnapi_rt_device_info;
/* Number of devices, or minus an nnapi_rt_status if the library cannot be
 * loaded or cannot list them; 0 for a library without the device API
 * (before feature level 3). */
int32_t nnapi_rt_device_count(void);
int32_t nnapi_rt_get_device_info(int32_t index, nnapi_rt_device_info *info);
/* "accelerator", "gpu", "cpu", "other" or "unknown". */
const char *nnapi_rt_device_type_name(int32_t type);

/* What became of each partition run so far (in the order of their first
 * run), until the next reset, option change, library change, or the close
 * of the model that holds it. */
typedef struct {
  char device[128];       /* the device it was compiled for; "" if none */
  char error[512];        /* why it runs its host copy; "" if it does not */
  int32_t status;         /* NNAPI_RT_OK, or the status of `error` */
  int32_t featureLevel;   /* the feature level its blob needs */
  int32_t burst;          /* computes through a burst */
  int32_t cached;         /* compiled with a cache directory */
  uint64_t executions;    /* successful NNAPI executions */
  uint64_t failures;      /* executions that failed (the host copy ran) */
  char lastFailure[512];  /* why the last of them failed */
  uint64_t hardwareTimed, hardwareNs; /* durations on the hardware that the
                             driver measured (timing option): count, sum */
  uint64_t driverTimed, driverNs;     /* the same in the driver */
  char passedOver[512];   /* the more preferred devices it did not go to,
                             and why; "" if none */
  char name[128];         /* its function in the compiled model, "" if the
                             model did not say (nnapi_rt_execute) */
  int32_t operations;     /* NNAPI operations in its blob */
} nnapi_rt_partition_info;
/* What the checks of a partition (verify, validate) found, for the same
 * indices as nnapi_rt_get_partition_info. Errors are in `unit`: "abs"
 * (floats), "quanta" (8-bit quantized types) or "exact" (integers and
 * booleans: elements that differ). */
typedef struct {
  char device[128];       /* the device of the last check */
  uint64_t checks;        /* executions compared with the host copy */
  uint64_t mismatches;    /* of them, beyond the tolerance */
  double maxError, tolerance; /* the worst output's, over all checks */
  char unit[8];
  uint64_t deviceNs, hostNs; /* time on each side, summed over checks */
  char firstMismatch[512];   /* "" if none */
  char reference[128];    /* the device operations were compared with */
  char narrowNote[512];   /* why the search found nothing, if it did not */
  int32_t wrongOperations; /* found wrong alone on the device */
  char disabled[512];     /* why it left a device, "" if it did not */
} nnapi_rt_check_info;
int32_t nnapi_rt_get_check_info(int32_t index, nnapi_rt_check_info *info);
/* The k-th operation of partition `index` found wrong on its device. */
typedef struct {
  int32_t operation;      /* index in the partition */
  char signature[1024];   /* as in the quirks record */
  double error, tolerance;
  char unit[8];
  char description[512];
} nnapi_rt_wrong_operation;
int32_t nnapi_rt_get_wrong_operation(int32_t index, int32_t k,
                                     nnapi_rt_wrong_operation *info);

int32_t nnapi_rt_partition_count(void);
int32_t nnapi_rt_get_partition_info(int32_t index,
                                    nnapi_rt_partition_info *info);

/* Buffers of compiled models. Compiled code allocates every intermediate
 * buffer through MLIR's generic allocation functions
 * (_mlir_memref_to_llvm_alloc, _mlir_memref_to_llvm_aligned_alloc,
 * _mlir_memref_to_llvm_free), which the runtime defines on top of these:
 * blocks of 64 KiB and more are pooled when freed (up to 1 GiB in all) and
 * reused for the next request of the same size, so repeated runs do not pay
 * for fresh pages. Those blocks are mapped from shared-memory files (memfd;
 * ashmem on Android; at most 256 at once, then malloc's), so that NNAPI can
 * read and write them without a copy (the bind_memory option); a block NNAPI
 * memory was made for stays pooled until nnapi_rt_trim_pool. Alignment is at
 * least 64 bytes. Thread-safe. */
void *nnapi_rt_alloc(uint64_t size, uint64_t alignment);
void nnapi_rt_free(void *ptr);
/* Bytes waiting in the pool, and how many pooled-size requests it served
 * (hits) or had to allocate (misses). */
void nnapi_rt_get_pool_stats(uint64_t *cachedBytes, uint64_t *hits,
                             uint64_t *misses);
/* Returns every pooled block to the system, with the NNAPI memories made
 * over them (executions bound to those are not reused). */
void nnapi_rt_trim_pool(void);

#ifdef __cplusplus
}
#endif

#endif /* NNAPI_MLIR_RUNTIME_RUNTIME_H */
