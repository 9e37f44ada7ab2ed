/* Stand-ins for compiled models (ModelABI.h), for ModelTest.cpp: the
 * entry points by hand, one variant per macro. y = x * k. */
#include <stdint.h>
#if defined(SLOW)
#include <unistd.h>
#endif

#if defined(DYNAMIC) || defined(BAD_RANGE) || defined(BUCKETS) || \
    defined(BAD_BUCKET)
/* Version 5, dynamic dimensions: x is 2 x [1..4], y = x * k. BUCKETS: with
 * two shape buckets, which opening the model runs (counted here). */
int32_t fake_model_runs = 0;
int32_t nnapi_model_output_dims(const int64_t *const *inputDims,
                                int64_t *const *outputDims) {
  outputDims[0][1] = inputDims[0][1];
  return 0;
}
int32_t nnapi_model_run_dims(void *const *inputs,
                             const int64_t *const *inputDims,
                             void *const *outputs,
                             const int64_t *const *outputDims) {
  const float *x = (const float *)inputs[0];
  int32_t k = *(const int32_t *)inputs[1];
  float *y = (float *)outputs[0];
  ++fake_model_runs;
  if (outputDims[0][1] != inputDims[0][1])
    return 9;
  for (int64_t i = 0; i < 2 * inputDims[0][1]; ++i)
    y[i] = x[i] * (float)k;
  return 0;
}
#elif !defined(NO_RUN)
int32_t nnapi_model_run(void *const *inputs, void *const *outputs) {
  const float *x = (const float *)inputs[0];
  int32_t k = *(const int32_t *)inputs[1];
  float *y = (float *)outputs[0];
#if defined(BOUND)
  if (k != 3)
    return 2; /* as the generated check of a bound input 1 */
#elif defined(BAD_STATUS)
  return 7;
#endif
  for (int i = 0; i < 6; ++i)
    y[i] = x[i] * (float)k;
#if defined(SLOW)
  usleep((useconds_t)k * 1000); /* k ms after the result is written */
#endif
  return 0;
}
#endif

#ifndef NO_SIGNATURE
/* Version 3 signatures end with the SHA-256 of the text before their
 * checksum line (python3 -c "import hashlib;
 * print(hashlib.sha256(TEXT.encode()).hexdigest())"), so that the check
 * each variant is made for is reached. */
const char *nnapi_model_signature(void) {
#if defined(BAD_VERSION)
  return "nnapi-mlir-model 6\n";
#elif defined(DOWNGRADED)
  /* OK's signature with its header edited to version 2, which had no
   * checksum, and the checksum line renamed. */
  return "nnapi-mlir-model 2\n"
         "partitions 0\n"
         "input 0 x f32 2x3\n"
         "input 1 k i32 scalar\n"
         "output 0 y f32 2x3\n"
         "comment 897221aedbe8d59a9271fd5742e65ef103d8d0a05bebb41a681695b2bdc56061\n";
#elif defined(UNKNOWN_LINE)
  return "nnapi-mlir-model 3\n"
         "partitions 0\n"
         "input 0 x f32 2x3\n"
         "input 1 k i32 scalar\n"
         "output 0 y f32 2x3\n"
         "output-bytes 0 24\n"
         "checksum d3164b51b31792e4d08318b33bdda7e482351c0eccef7ccadca5ad8d3b5977af\n";
#elif defined(BOUND)
  return "nnapi-mlir-model 3\n"
         "partitions 0\n"
         "input 0 x f32 2x3\n"
         "input 1 k i32 scalar bound\n"
         "output 0 y f32 2x3\n"
         "checksum b842cc863a2a352a659873510ac1c2b49bbcdd8ec70f951b9705f9ba391e439f\n";
#elif defined(BOUND_OUTPUT)
  return "nnapi-mlir-model 3\n"
         "partitions 0\n"
         "input 0 x f32 2x3\n"
         "input 1 k i32 scalar\n"
         "output 0 y f32 2x3 bound\n"
         "checksum d2d2a4f656c315844ed0963fe10f98e008defd57fd34e9c923178009d1ac52c5\n";
#elif defined(BAD_TYPE)
  return "nnapi-mlir-model 3\n"
         "input 0 x q7 2x3\n"
         "checksum 66c4445ea7f29deef0a9844943576e1f9d522bdc670090c351a15517471ce04e\n";
#elif defined(HUGE_SHAPE)
  return "nnapi-mlir-model 3\n"
         "input 0 x f32 1099511627776x2\n"
         "checksum ea5d66b81f9415aeba2b576b6b69cfe4a115e8e59649bd3469963bb7977dba32\n";
#elif defined(ENCODED_NAMES)
  /* Version 4: names percent-encoded ("x y\n\u00e9" and "\"y\""). */
  return "nnapi-mlir-model 4\n"
         "partitions 0\n"
         "input 0 x%20y%0A%C3%A9 f32 2x3\n"
         "input 1 k i32 scalar\n"
         "output 0 %22y%22 f32 2x3\n"
         "checksum c52d6952872ff38002c08e28a3ad6a84a9f24fd5b89539d3c976a55ed82f5ef9\n";
#elif defined(BAD_ESCAPE)
  return "nnapi-mlir-model 4\n"
         "partitions 0\n"
         "input 0 x%2 f32 2x3\n"
         "checksum 25cd0f11a54e61b9a3759db01de75b1b142a127d8ce051d87000b8de312cc3ee\n";
#elif defined(DYNAMIC)
  return "nnapi-mlir-model 5\n"
         "partitions 0\n"
         "input 0 x f32 2x[1..4]\n"
         "input 1 k i32 scalar\n"
         "output 0 y f32 2x?\n"
         "checksum b660e8e3ba3a7f78913ece316b17f28c27bae301068a4f2e53c91cbcff6f0a6a\n";
#elif defined(BUCKETS)
  return
         "nnapi-mlir-model 5\n"
         "partitions 0\n"
         "input 0 x f32 2x[1..4]\n"
         "input 1 k i32 scalar\n"
         "output 0 y f32 2x?\n"
         "bucket 2x3,scalar\n"
         "bucket 2x1,scalar\n"
         "checksum 61c729cbd707ceb1246fe1816ac286dbabed061b84e0148475f37d343193cf93\n";
#elif defined(BAD_BUCKET)
  return
         "nnapi-mlir-model 5\n"
         "partitions 0\n"
         "input 0 x f32 2x[1..4]\n"
         "input 1 k i32 scalar\n"
         "output 0 y f32 2x?\n"
         "bucket 2x5,scalar\n"
         "checksum 9eb07556250dc14745f4c6fb68d0c2d828db86fe1225d705c1b8bb6de77c81a9\n";
#elif defined(BAD_RANGE)
  return "nnapi-mlir-model 5\n"
         "partitions 0\n"
         "input 0 x f32 2x[4..1]\n"
         "checksum 586cdd0df61f2e48e13ee1246393b7986c3a8b10828619ede363ec329bd31019\n";
#elif defined(NULL_SIGNATURE)
  return 0;
#else
  return "nnapi-mlir-model 3\n"
         "partitions 0\n"
         "input 0 x f32 2x3\n"
         "input 1 k i32 scalar\n"
         "output 0 y f32 2x3\n"
         "checksum 897221aedbe8d59a9271fd5742e65ef103d8d0a05bebb41a681695b2bdc56061\n";
#endif
}
#endif
