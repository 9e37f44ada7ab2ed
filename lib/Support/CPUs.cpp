//===- CPUs.cpp - The CPUs this process may run on ------------------------===//

#include "nnapi-mlir/Support/CPUs.h"

#include <algorithm>
#include <thread>

#ifdef __linux__
#include <sched.h>
#endif

unsigned nnapi_mlir::availableCPUs() {
#ifdef __linux__
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0)
      return unsigned(n);
  }
#endif
  return std::max(1u, std::thread::hardware_concurrency());
}
