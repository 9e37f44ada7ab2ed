/*===- Model.h - Loading and running compiled models (C API) --------------===*
 *
 * What an app links to run a model nnapi-compile produced, without knowing
 * its entry points: part of libnnapi_runtime. The model is a shared library
 * (ModelABI.h); nnapi_rt_model_open() loads it, checks it is an nnapi-mlir
 * model and reads its signature; nnapi_rt_model_run() checks every buffer's
 * size against that signature before running it.
 *
 *   nnapi_rt_model *model;
 *   if (nnapi_rt_model_open("model.so", &model) != NNAPI_RT_OK) {
 *     fprintf(stderr, "%s\n", nnapi_rt_last_error());
 *     return 1;
 *   }
 *   const void *in[1] = {input};  uint64_t inBytes[1] = {sizeof input};
 *   void *out[1] = {output};      uint64_t outBytes[1] = {sizeof output};
 *   int32_t status = nnapi_rt_model_run(model, 1, in, inBytes, 1, out,
 *                                       outBytes);
 *   nnapi_rt_model_close(model);
 *
 * Every function returns an nnapi_rt_status (Runtime.h); on error the
 * message is available from nnapi_rt_last_error() on the same thread.
 * A model may run on several threads at once.
 *
 *===----------------------------------------------------------------------===*/
#ifndef NNAPI_MLIR_RUNTIME_MODEL_H
#define NNAPI_MLIR_RUNTIME_MODEL_H

#include "nnapi-mlir/Runtime/Runtime.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nnapi_rt_model nnapi_rt_model;

/* One input or output of a model. Strings and dims stay valid until the
 * model is closed. */
typedef struct {
  const char *name;  /* the graph's name, or "-" */
  const char *dtype; /* "f32", "f16", "bf16", "f64", "i1", "i8".."i64",
                        "u8".."u64" */
  int64_t rank;
  const int64_t *dims;   /* -1 for a dynamic dimension */
  uint64_t elementBytes; /* 1 for i1 (one byte per boolean) */
  uint64_t bytes;        /* of the whole dense, row-major tensor; 0 when
                            it has dynamic dimensions */
} nnapi_rt_tensor_info;

/* Loads the compiled model at `path`. NNAPI_RT_INVALID_ARGUMENT for a null
 * argument, NNAPI_RT_INVALID_MODEL when the file is missing, not a loadable
 * shared library, or lacks the model entry points or a valid signature. */
int32_t nnapi_rt_model_open(const char *path, nnapi_rt_model **model);
/* Opens a model this process has loaded already (System.loadLibrary, a
 * DT_NEEDED entry) by the name the dynamic loader knows it under
 * ("libmodel.so"). NNAPI_RT_INVALID_MODEL when no such library is loaded or
 * it is not a model. Closing the model drops the reference this took. */
int32_t nnapi_rt_model_open_loaded(const char *soname, nnapi_rt_model **model);
/* Opens the model stored at [offset, offset + length) of the regular file
 * open as `fd`: an uncompressed library inside an APK, as Android's
 * AssetFileDescriptor gives it. Through android_dlopen_ext where the process
 * has it (looked up at run time), else from a copy of those bytes. The ELF
 * headers are checked first, as for a path. The caller keeps `fd`.
 * NNAPI_RT_INVALID_ARGUMENT when the range is not inside the file. */
int32_t nnapi_rt_model_open_fd(int fd, int64_t offset, int64_t length,
                               nnapi_rt_model **model);
/* Unloads the model (null is allowed) and frees the NNAPI models and
 * compilations the runtime built for it, after the runs other threads have
 * in progress return; runs that begin while it waits are refused
 * (NNAPI_RT_INVALID_ARGUMENT). The model must not be used once this
 * returns. */
void nnapi_rt_model_close(nnapi_rt_model *model);

int64_t nnapi_rt_model_num_inputs(const nnapi_rt_model *model);
int64_t nnapi_rt_model_num_outputs(const nnapi_rt_model *model);
/* NNAPI_RT_INVALID_ARGUMENT when `index` is out of range. */
int32_t nnapi_rt_model_input(const nnapi_rt_model *model, int64_t index,
                             nnapi_rt_tensor_info *info);
int32_t nnapi_rt_model_output(const nnapi_rt_model *model, int64_t index,
                              nnapi_rt_tensor_info *info);
/* 1 when input `index` was compiled for one value ("bound" in the
 * signature: --input-value, --specialize-value), which every run must pass
 * and nnapi_rt_model_run checks; 0 otherwise or when out of range. */
int32_t nnapi_rt_model_input_is_bound(const nnapi_rt_model *model,
                                      int64_t index);
/* NNAPI partitions in the model. */
int64_t nnapi_rt_model_num_partitions(const nnapi_rt_model *model);
/* The model's signature text (ModelABI.h). */
const char *nnapi_rt_model_signature(const nnapi_rt_model *model);

/* Dynamic dimensions (nnapi-compile --input-shape NAME=1x?x[16..2048]).
 * 1 when some input or output has one; such a model runs through
 * nnapi_rt_model_run_dims, not nnapi_rt_model_run. */
int32_t nnapi_rt_model_is_dynamic(const nnapi_rt_model *model);
/* The sizes each dimension of input (`input` 1) or output (0) `index` may
 * take: low[d]..high[d] inclusive, both arrays of the tensor's rank; equal
 * for a static dimension, 1..2^31-1 for an undeclared range, and for an
 * output the range is not known (1..2^31-1) where it is dynamic. */
int32_t nnapi_rt_model_dims_range(const nnapi_rt_model *model, int32_t input,
                                  int64_t index, int64_t *low, int64_t *high);
/* Every output's dimensions for inputs of dimensions `inputDims`
 * (inputDims[i] points at input i's, rank many; outputDims[o] receives
 * output o's). NNAPI_RT_INVALID_ARGUMENT names the first input dimension
 * outside the range the model was compiled for. */
int32_t nnapi_rt_model_output_dims(const nnapi_rt_model *model,
                                   int64_t numInputs,
                                   const int64_t *const *inputDims,
                                   int64_t numOutputs,
                                   int64_t *const *outputDims);
/* Runs the model once on inputs of dimensions `inputDims` (as above), into
 * outputs sized for the dimensions nnapi_rt_model_output_dims gives: every
 * size must equal the dense tensor's bytes at those dimensions. Works for
 * static models too (their dimensions must be the compiled ones). */
int32_t nnapi_rt_model_run_dims(nnapi_rt_model *model, int64_t numInputs,
                                const void *const *inputs,
                                const uint64_t *inputBytes,
                                const int64_t *const *inputDims,
                                int64_t numOutputs, void *const *outputs,
                                const uint64_t *outputBytes);

/* Runs the model once. The counts must equal the model's, every pointer be
 * non-null and every size equal the tensor's `bytes`; otherwise nothing
 * runs and NNAPI_RT_INVALID_ARGUMENT names the first mismatch. So it does
 * when an input the model was compiled for one value of ("bound" in the
 * signature: --input-value, --specialize-value) holds another. */
int32_t nnapi_rt_model_run(nnapi_rt_model *model, int64_t numInputs,
                           const void *const *inputs,
                           const uint64_t *inputBytes, int64_t numOutputs,
                           void *const *outputs, const uint64_t *outputBytes);

#ifdef __cplusplus
}
#endif

#endif /* NNAPI_MLIR_RUNTIME_MODEL_H */
