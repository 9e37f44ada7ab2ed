/*===- stream_vad.c - Run a streaming model one step at a time from C -----===*
 *
 *   stream-vad VAD.so AUDIO.f32 RATE STEPS
 *
 * Runs the voice-activity detector of make_models.py (compiled by
 * nnapi-compile) over STEPS consecutive 512-sample chunks of AUDIO.f32 (raw
 * float32), feeding the LSTM state each step returns (hn, cn) back as the
 * next step's input (h, c), and prints each step's speech probability, then
 * how many partition executions ran on NNAPI. The state starts at zero. Links only the runtime (nnapi-mlir/Runtime/Model.h).
 *
 *===----------------------------------------------------------------------===*/
#include "nnapi-mlir/Runtime/Model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { AUDIO, RATE, H, C, INPUTS };
enum { PROB, HN, CN, OUTPUTS };

static int fail(const char *what, const char *detail) {
  fprintf(stderr, "stream-vad: %s: %s\n", what, detail);
  return 1;
}

/* The index of the tensor named `name` among the model's inputs (or
 * outputs), with its size in bytes; -1 if there is none. */
static int64_t find(nnapi_rt_model *model, int output, const char *name,
                    uint64_t *bytes) {
  int64_t n = output ? nnapi_rt_model_num_outputs(model)
                     : nnapi_rt_model_num_inputs(model);
  for (int64_t i = 0; i < n; ++i) {
    nnapi_rt_tensor_info info;
    if (output)
      nnapi_rt_model_output(model, i, &info);
    else
      nnapi_rt_model_input(model, i, &info);
    if (strcmp(info.name, name) == 0) {
      *bytes = info.bytes;
      return i;
    }
  }
  return -1;
}

int main(int argc, char **argv) {
  if (argc != 5)
    return fail("usage", "stream-vad VAD.so AUDIO.f32 RATE STEPS");
  long long rate = atoll(argv[3]);
  int steps = atoi(argv[4]);
  nnapi_rt_model *model;
  if (nnapi_rt_model_open(argv[1], &model) != NNAPI_RT_OK)
    return fail("cannot open the model", nnapi_rt_last_error());

  /* Where each tensor goes in the model's argument lists. */
  static const char *inNames[INPUTS] = {"audio", "sr", "h", "c"};
  static const char *outNames[OUTPUTS] = {"prob", "hn", "cn"};
  int64_t inAt[INPUTS], outAt[OUTPUTS];
  uint64_t inBytes[INPUTS], outBytes[OUTPUTS];
  int status = 0;
  for (int i = 0; i < INPUTS && !status; ++i)
    if ((inAt[i] = find(model, 0, inNames[i], &inBytes[i])) < 0)
      status = fail("the model has no input named", inNames[i]);
  for (int i = 0; i < OUTPUTS && !status; ++i)
    if ((outAt[i] = find(model, 1, outNames[i], &outBytes[i])) < 0)
      status = fail("the model has no output named", outNames[i]);
  if (!status && (nnapi_rt_model_num_inputs(model) != INPUTS ||
                  nnapi_rt_model_num_outputs(model) != OUTPUTS ||
                  inBytes[RATE] != sizeof(long long) ||
                  inBytes[H] != outBytes[HN] || inBytes[C] != outBytes[CN] ||
                  outBytes[PROB] != sizeof(float)))
    status = fail("unexpected model", "not make_models.py's vad");
  if (status) {
    nnapi_rt_model_close(model);
    return status;
  }

  size_t chunk = inBytes[AUDIO];
  char *audio = malloc(chunk * (size_t)steps);
  FILE *f = fopen(argv[2], "rb");
  if (!f || fread(audio, chunk, (size_t)steps, f) != (size_t)steps)
    status = fail(argv[2], "missing, or shorter than STEPS chunks");
  if (f)
    fclose(f);

  /* The state lives in the output buffers: after each run, hn and cn are
   * the next run's h and c, so the input pointers simply point at them. */
  float *hn = calloc(1, outBytes[HN]), *cn = calloc(1, outBytes[CN]);
  float *h = calloc(1, inBytes[H]), *c = calloc(1, inBytes[C]);
  float prob = 0;
  for (int k = 0; k < steps && !status; ++k) {
    const void *in[INPUTS];
    uint64_t inSizes[INPUTS];
    void *out[OUTPUTS];
    uint64_t outSizes[OUTPUTS];
    const void *byRole[INPUTS] = {audio + chunk * (size_t)k, &rate, h, c};
    void *outByRole[OUTPUTS] = {&prob, hn, cn};
    for (int i = 0; i < INPUTS; ++i) {
      in[inAt[i]] = byRole[i];
      inSizes[inAt[i]] = inBytes[i];
    }
    for (int i = 0; i < OUTPUTS; ++i) {
      out[outAt[i]] = outByRole[i];
      outSizes[outAt[i]] = outBytes[i];
    }
    if (nnapi_rt_model_run(model, INPUTS, in, inSizes, OUTPUTS, out,
                           outSizes) != NNAPI_RT_OK) {
      status = fail("run failed", nnapi_rt_last_error());
      break;
    }
    printf("step %d prob %.7g\n", k, prob);
    /* Feed the state back: swap the buffers (no copy). */
    float *t = h;
    h = hn;
    hn = t;
    t = c;
    c = cn;
    cn = t;
  }
  uint64_t onNNAPI = 0, fallbacks = 0;
  nnapi_rt_get_stats(&onNNAPI, &fallbacks);
  printf("partitions=%lld nnapi_executions=%llu host_fallbacks=%llu\n",
         (long long)nnapi_rt_model_num_partitions(model),
         (unsigned long long)onNNAPI, (unsigned long long)fallbacks);
  free(audio);
  free(h);
  free(c);
  free(hn);
  free(cn);
  nnapi_rt_model_close(model);
  return status;
}
