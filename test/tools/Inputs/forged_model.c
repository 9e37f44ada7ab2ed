/* A hand-made "compiled model" whose signature lies, for nnapi-run's error
 * tests: -DFORGE=1 returns no signature, 2 a negative dimension, 3 a tensor
 * of 1e8 x 1e8 elements, 4 an unknown element type, 5 version 3 without its
 * checksum, 6 a line after a right checksum. Checksums are SHA-256 of the
 * text before their line, so that the check each variant is made for is
 * reached. */
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
  return "nnapi-mlir-model 3\n"
         "partitions 0\n"
         "input 0 x f32 2x-3\n"
         "output 0 y f32 2x3\n"
         "checksum a6776c8c4636efc2370486c435152c1070b5eb255ab6d08f0bdb876ffba11d34\n";
#elif FORGE == 3
  return "nnapi-mlir-model 3\n"
         "partitions 0\n"
         "input 0 x f32 100000000x100000000\n"
         "output 0 y f32 1\n"
         "checksum 3c28fd9ace02d689694c62037db5a914f51b487815728587593a258906de432e\n";
#elif FORGE == 5
  return "nnapi-mlir-model 3\npartitions 0\ninput 0 x f32 2\noutput 0 y f32 2\n";
#elif FORGE == 6
  return "nnapi-mlir-model 3\npartitions 0\ninput 0 x f32 2\noutput 0 y f32 2\n"
         "checksum 4b246259e5c8767b77c9602952bda0a15894ba6e7d2d98bb353ee8d9d4907538\n"
         "output 1 z f32 2\n";
#else
  return "nnapi-mlir-model 3\n"
         "partitions 0\n"
         "input 0 x q7 2\n"
         "output 0 y f32 2\n"
         "checksum 55d979fef1781427a92bfcf0131d4ab3bc2f25e5ac13e38776f7c724d1a98dda\n";
#endif
}
