//===- ProfileDevice.h - Shared by nnapi-profile-device ---------*- C++ -*-===//
//
// nnapi-profile-device's error message, the names of a profile's types and
// how numbers and strings are written into the JSON it produces (samples,
// plans and profiles).
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_TOOLS_PROFILE_DEVICE_PROFILEDEVICE_H
#define NNAPI_MLIR_TOOLS_PROFILE_DEVICE_PROFILEDEVICE_H

#include "nnapi-mlir/NNAPI/DeviceProfile.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <string>

namespace nnapi_mlir::profiling {

/// Prints `message` as nnapi-profile-device's error; 1, its exit code.
inline int fail(const llvm::Twine &message) {
  llvm::errs() << "nnapi-profile-device: error: " << message << "\n";
  return 1;
}

inline const char *typeName(profile::DataType type) {
  return profile::dataTypeName(type);
}

/// A profile's number: four significant digits.
inline std::string formatNumber(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

/// A sample's number, exact for what is stored (integers of work,
/// latencies rounded to the nanosecond), so that --from refits the same
/// numbers.
inline std::string formatExact(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", v);
  return text;
}

/// `s` as a JSON string: quotes and backslashes escaped, control characters
/// dropped.
inline std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20)
      out += c;
  }
  return out + "\"";
}

} // namespace nnapi_mlir::profiling

#endif // NNAPI_MLIR_TOOLS_PROFILE_DEVICE_PROFILEDEVICE_H
