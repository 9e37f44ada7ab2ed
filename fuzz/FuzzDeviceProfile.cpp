//===- FuzzDeviceProfile.cpp - Fuzz the device-profile JSON reader --------===//

#include "nnapi-mlir/NNAPI/DeviceProfile.h"

#include <cstdio>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  nnapi_mlir::profile::DeviceProfile profile;
  std::string error;
  std::string_view json(reinterpret_cast<const char *>(data), size);
  if (!nnapi_mlir::profile::parseDeviceProfile(json, profile, error) &&
      error.empty()) {
    std::fprintf(stderr, "profile refused without a message\n");
    std::abort();
  }
  return 0;
}
