/* Android's android_dlopen_ext, stood in for on Linux: the runtime looks it
 * up at run time (nnapi_rt_model_open_fd), so this program, which exports
 * one, takes the path an app on Android takes. The stand-in checks what the
 * runtime asks for (the library's descriptor and offset, by bionic's flags)
 * and loads that range from a copy, as bionic would map it.
 *   dlext-standin MODEL.so   (a stand-in model: y = x * k) */
#define _GNU_SOURCE
#include "nnapi-mlir/Runtime/Model.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
  uint64_t flags;
  void *reserved_addr;
  size_t reserved_size;
  int relro_fd;
  int library_fd;
  int64_t library_fd_offset;
  void *library_namespace;
} android_dlextinfo;

static int calls;
static int64_t seenOffset = -1;

void *android_dlopen_ext(const char *name, int flags,
                         const android_dlextinfo *info) {
  ++calls;
  (void)name;
  if (!info || info->flags != 0x30 /* USE_LIBRARY_FD | _FD_OFFSET */)
    return NULL;
  seenOffset = info->library_fd_offset;
  struct stat st;
  if (fstat(info->library_fd, &st) != 0)
    return NULL;
  size_t length = (size_t)(st.st_size - info->library_fd_offset);
  char *bytes = malloc(length);
  int copy = memfd_create("standin", MFD_CLOEXEC);
  if (!bytes || copy < 0 ||
      pread(info->library_fd, bytes, length, info->library_fd_offset) !=
          (ssize_t)length ||
      write(copy, bytes, length) != (ssize_t)length)
    return NULL;
  free(bytes);
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", copy);
  void *handle = dlopen(path, flags);
  close(copy);
  return handle;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  FILE *in = fopen(argv[1], "rb");
  char bundle[] = "/tmp/dlext-standin-XXXXXX";
  int fd = mkstemp(bundle);
  if (!in || fd < 0)
    return 2;
  unlink(bundle);
  /* 8192 bytes before the library, as an APK's zip headers. */
  char zeros[8192] = {0}, chunk[4096];
  int64_t length = 0;
  size_t n;
  if (write(fd, zeros, sizeof zeros) != (ssize_t)sizeof zeros)
    return 2;
  while ((n = fread(chunk, 1, sizeof chunk, in)) > 0) {
    if (write(fd, chunk, n) != (ssize_t)n)
      return 2;
    length += (int64_t)n;
  }
  fclose(in);
  nnapi_rt_model *model = NULL;
  if (nnapi_rt_model_open_fd(fd, 8192, length, &model) != NNAPI_RT_OK) {
    fprintf(stderr, "open: %s\n", nnapi_rt_last_error());
    return 1;
  }
  float x[6] = {1, 2, 3, 4, 5, 6}, y[6] = {0};
  int32_t k = 3;
  const void *inputs[2] = {x, &k};
  uint64_t inBytes[2] = {sizeof x, sizeof k};
  void *outputs[1] = {y};
  uint64_t outBytes[1] = {sizeof y};
  int32_t status = nnapi_rt_model_run(model, 2, inputs, inBytes, 1, outputs,
                                      outBytes);
  nnapi_rt_model_close(model);
  printf("android_dlopen_ext calls=%d offset=%lld status=%d y[5]=%g\n", calls,
         (long long)seenOffset, status, y[5]);
  return calls == 1 && seenOffset == 8192 && status == 0 && y[5] == 18 ? 0 : 1;
}
