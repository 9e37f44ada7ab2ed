/* A hand-made "compiled model" whose signature lies, for nnapi-run's error
 * tests: -DFORGE=1 returns no signature, 2 a negative dimension, 3 a tensor
 * of 1e8 x 1e8 elements, 4 an unknown element type, 5 version 3 without its
 * checksum, 6 a line after a right checksum. */
#include <stddef.h>
#include <stdint.h>

int32_t nnapi_model_run(void *const *inputs, void *const *outputs) {
  (void)inputs;
  (void)outputs;
  return 0;
}

const char *nnapi_model_signature(void) {
#if FORGE == 1
  return NULL;
#elif FORGE == 2
  return "nnapi-mlir-model 1\npartitions 0\ninput 0 x f32 2x-3\n"
         "output 0 y f32 2x3\n";
#elif FORGE == 3
  return "nnapi-mlir-model 1\npartitions 0\ninput 0 x f32 100000000x100000000\n"
         "output 0 y f32 1\n";
#elif FORGE == 5
  return "nnapi-mlir-model 3\npartitions 0\ninput 0 x f32 2\noutput 0 y f32 2\n";
#elif FORGE == 6
  return "nnapi-mlir-model 3\npartitions 0\ninput 0 x f32 2\noutput 0 y f32 2\n"
         "checksum 4b246259e5c8767b77c9602952bda0a15894ba6e7d2d98bb353ee8d9d4907538\n"
         "output 1 z f32 2\n";
#else
  return "nnapi-mlir-model 1\npartitions 0\ninput 0 x q7 2\noutput 0 y f32 2\n";
#endif
}
