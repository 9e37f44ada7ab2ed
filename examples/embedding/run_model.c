/*===- run_model.c - Run a compiled model from C, with the runtime only ---===*
 *
 *   run-model MODEL.so INPUT.bin... OUTPUT.bin...
 *
 * Opens the model with the runtime's model API (nnapi-mlir/Runtime/Model.h),
 * reads each input from a raw file of exactly the input's size, runs the
 * model once and writes each output raw. Links only nnapi-mlir::runtime.
 *
 *===----------------------------------------------------------------------===*/
#include "nnapi-mlir/Runtime/Model.h"

#include <stdio.h>
#include <stdlib.h>

static int fail(const char *what, const char *detail) {
  fprintf(stderr, "run-model: %s: %s\n", what, detail);
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return fail("usage", "run-model MODEL.so INPUT.bin... OUTPUT.bin...");
  nnapi_rt_model *model;
  if (nnapi_rt_model_open(argv[1], &model) != NNAPI_RT_OK)
    return fail("cannot open the model", nnapi_rt_last_error());
  int64_t ni = nnapi_rt_model_num_inputs(model);
  int64_t no = nnapi_rt_model_num_outputs(model);
  if (argc != 2 + ni + no) {
    nnapi_rt_model_close(model);
    return fail("usage", "give one file per input and per output");
  }
  void **buffers = calloc((size_t)(ni + no), sizeof(void *));
  uint64_t *sizes = calloc((size_t)(ni + no), sizeof(uint64_t));
  int status = 0;
  for (int64_t i = 0; i < ni + no && !status; ++i) {
    nnapi_rt_tensor_info info;
    if (i < ni)
      nnapi_rt_model_input(model, i, &info);
    else
      nnapi_rt_model_output(model, i - ni, &info);
    sizes[i] = info.bytes;
    buffers[i] = malloc(info.bytes ? info.bytes : 1);
    printf("%s %lld '%s' %s, %llu bytes\n", i < ni ? "input" : "output",
           (long long)(i < ni ? i : i - ni), info.name, info.dtype,
           (unsigned long long)info.bytes);
    if (i >= ni)
      continue;
    FILE *f = fopen(argv[2 + i], "rb");
    size_t got = f ? fread(buffers[i], 1, info.bytes, f) : 0;
    if (!f || got != info.bytes || fgetc(f) != EOF)
      status = fail(argv[2 + i], "missing, or not exactly the input's size");
    if (f)
      fclose(f);
  }
  if (!status &&
      nnapi_rt_model_run(model, ni, (const void *const *)buffers, sizes, no,
                         buffers + ni, sizes + ni) != NNAPI_RT_OK)
    status = fail("run failed", nnapi_rt_last_error());
  for (int64_t i = ni; i < ni + no && !status; ++i) {
    FILE *f = fopen(argv[2 + i], "wb");
    if (!f || fwrite(buffers[i], 1, sizes[i], f) != sizes[i])
      status = fail(argv[2 + i], "cannot write");
    if (f)
      fclose(f);
  }
  uint64_t onNNAPI = 0, failed = 0;
  nnapi_rt_get_stats(&onNNAPI, &failed);
  printf("partitions=%lld nnapi_executions=%llu host_fallbacks=%llu\n",
         (long long)nnapi_rt_model_num_partitions(model),
         (unsigned long long)onNNAPI, (unsigned long long)failed);
  for (int64_t i = 0; i < ni + no; ++i)
    free(buffers[i]);
  free(buffers);
  free(sizes);
  nnapi_rt_model_close(model);
  return status;
}
