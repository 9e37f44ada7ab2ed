/*===- ModelABI.h - C entry points of a compiled nnapi-mlir model ---------===*
 *
 * Every shared library produced by nnapi-compile exports:
 *
 *   int32_t nnapi_model_run(void *const *inputs, void *const *outputs);
 *     Runs the model once. inputs[i]/outputs[i] point at dense, row-major
 *     buffers of the i-th input/output, in the order of the signature below.
 *     Partitions run on NNAPI through the runtime; a partition that NNAPI
 *     rejects or fails runs its host copy. Returns 0, or 1 + i when input i
 *     is bound (below) and its buffer holds other bytes than the value the
 *     model was compiled for; then nothing ran. Returns
 *     NNAPI_MODEL_STATUS_LOOP_TIMEOUT (-1) when a loop ran longer than the
 *     runtime's loop timeout (Runtime.h, loop_timeout_ms): it was stopped,
 *     and the outputs are undefined.
 *
 *   A model with dynamic dimensions (signature version 5) exports instead:
 *   int32_t nnapi_model_run_dims(void *const *inputs,
 *                                const int64_t *const *inputDims,
 *                                void *const *outputs,
 *                                const int64_t *const *outputDims);
 *     As nnapi_model_run, with every tensor's dimensions (dims[i] points at
 *     tensor i's, rank many); the caller has checked them against the
 *     signature's ranges and sized the outputs by nnapi_model_output_dims.
 *   int32_t nnapi_model_output_dims(const int64_t *const *inputDims,
 *                                   int64_t *const *outputDims);
 *     Writes each output's dynamic dimensions (outputDims[i][d] for each
 *     dynamic d of output i) from the inputs' dimensions. Returns 0.
 *
 *   int32_t nnapi_model_placement_threads(void);     (optional)
 *     The thread count placement priced both sides at (nnapi-compile
 *     --placement-threads, default the compiling machine's CPUs). Absent from
 *     host-only models and from models of older compilers. The runtime warns
 *     once per model when its threads option differs.
 *
 *   const char *nnapi_model_signature(void);
 *     Text describing the model, one record per line:
 *       nnapi-mlir-model <version>   4, or 5 for a model with dynamic
 *                                    dimensions (the runtime also reads 3,
 *                                    whose names are not encoded, and
 *                                    refuses 1 and 2, from older compilers,
 *                                    which had no checksum)
 *       partitions <count>
 *       input <index> <name> <dtype> <dims> [bound]
 *                                             e.g. input 0 x f32 1x28x28x1
 *       output <index> <name> <dtype> <dims>
 *       bucket <dims>,<dims>...       (version 5) a typical shape of every
 *                                    input (nnapi-compile --shape-buckets),
 *                                    each within its ranges; opening the
 *                                    model runs it once at each
 *       checksum <sha256>            lower-case hex SHA-256 of every byte
 *                                    before this line; the last line, and
 *                                    required from version 3 on: the runtime
 *                                    refuses a damaged signature instead of
 *                                    trusting its sizes
 *     "bound": the model was compiled for one value of this input
 *     (nnapi-compile --input-value / --specialize-value, for inputs that
 *     decide shapes); nnapi_model_run checks it.
 *     dtype is f64, f32, f16, bf16, i1, i8..i64 or u8..u64 (unsigned);
 *     dims are 'x'-separated ("scalar" for rank 0); from version 5 a
 *     dimension may be dynamic: "[low..high]" (the sizes it may take, both
 *     included, 1 <= low <= high <= 2^31-1) or "?" ([1..2^31-1], and every
 *     dynamic output dimension); name is the function argument's name (the graph's) with
 *     every byte but letters, digits and "_.-:/" written %XX (version 4), so
 *     spaces, quotes, newlines and UTF-8 keep the line's fields apart.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NNAPI_MLIR_RUNTIME_MODELABI_H
#define NNAPI_MLIR_RUNTIME_MODELABI_H

#include <stdint.h>

#define NNAPI_MODEL_RUN_SYMBOL "nnapi_model_run"
#define NNAPI_MODEL_SIGNATURE_SYMBOL "nnapi_model_signature"
#define NNAPI_MODEL_RUN_DIMS_SYMBOL "nnapi_model_run_dims"
#define NNAPI_MODEL_OUTPUT_DIMS_SYMBOL "nnapi_model_output_dims"
#define NNAPI_MODEL_PLACEMENT_THREADS_SYMBOL "nnapi_model_placement_threads"
#define NNAPI_MODEL_STATUS_LOOP_TIMEOUT (-1)
/* The largest size of a dynamic dimension (2^31-1, NNAPI's dimensions are
 * 32-bit), and the upper end of an undeclared range ("?"). */
#define NNAPI_MODEL_MAX_DYNAMIC_DIM 2147483647

#ifdef __cplusplus
extern "C" {
#endif
typedef int32_t (*nnapi_model_run_fn)(void *const *inputs,
                                      void *const *outputs);
typedef const char *(*nnapi_model_signature_fn)(void);
typedef int32_t (*nnapi_model_run_dims_fn)(void *const *inputs,
                                           const int64_t *const *inputDims,
                                           void *const *outputs,
                                           const int64_t *const *outputDims);
typedef int32_t (*nnapi_model_output_dims_fn)(const int64_t *const *inputDims,
                                              int64_t *const *outputDims);
#ifdef __cplusplus
}
#endif

#endif /* NNAPI_MLIR_RUNTIME_MODELABI_H */
