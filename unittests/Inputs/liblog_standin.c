/* Android's liblog, stood in for on Linux: the runtime looks up
 * __android_log_write at run time, so in this program, which exports one,
 * its warnings go to "logcat" (here: counted and checked) and not to
 * stderr. The warning: a thread count above the CPUs, capped. */
#include "nnapi-mlir/Runtime/Runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int calls, priority;
static char tag[64], text[512];

int __android_log_write(int prio, const char *t, const char *message) {
  ++calls;
  priority = prio;
  snprintf(tag, sizeof tag, "%s", t);
  snprintf(text, sizeof text, "%s", message);
  return 1;
}

int main(void) {
  char path[] = "/tmp/liblog-standin-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0 || !freopen(path, "w", stderr))
    return 2;
  unlink(path);
  nnapi_rt_set_quiet(0);
  if (nnapi_rt_set_option("threads", "256") != NNAPI_RT_OK)
    return 2;
  nnapi_rt_get_threads(); /* capped to the CPUs: a warning */
  fflush(stderr);
  long written = ftell(stderr);
  printf("logcat calls=%d priority=%d tag=%s stderr_bytes=%ld text=%s\n", calls,
         priority, tag, written, text);
  return calls == 1 && priority == 5 && strcmp(tag, "nnapi-mlir") == 0 &&
                 written == 0 && strstr(text, "threads 256 is more than")
             ? 0
             : 1;
}
