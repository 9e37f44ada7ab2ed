/* Stand-ins for compiled models (ModelABI.h), for ModelTest.cpp: the
 * entry points by hand, one variant per macro. y = x * k. */
#include <stdint.h>
#if defined(SLOW)
#include <unistd.h>
#endif

#ifndef NO_RUN
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
const char *nnapi_model_signature(void) {
#if defined(BAD_VERSION)
  return "nnapi-mlir-model 4\n";
#elif defined(BOUND)
  return "nnapi-mlir-model 2\npartitions 0\ninput 0 x f32 2x3\n"
         "input 1 k i32 scalar bound\noutput 0 y f32 2x3\n";
#elif defined(BOUND_OUTPUT)
  return "nnapi-mlir-model 2\npartitions 0\ninput 0 x f32 2x3\n"
         "input 1 k i32 scalar\noutput 0 y f32 2x3 bound\n";
#elif defined(BAD_TYPE)
  return "nnapi-mlir-model 1\ninput 0 x q7 2x3\n";
#elif defined(HUGE_SHAPE)
  return "nnapi-mlir-model 1\ninput 0 x f32 1099511627776x2\n";
#elif defined(NULL_SIGNATURE)
  return 0;
#else
  return "nnapi-mlir-model 1\npartitions 0\ninput 0 x f32 2x3\n"
         "input 1 k i32 scalar\noutput 0 y f32 2x3\n";
#endif
}
#endif
