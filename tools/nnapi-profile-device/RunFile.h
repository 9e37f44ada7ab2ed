//===- RunFile.h - A measurement run and its samples file -------*- C++ -*-===//
//
// What one run of nnapi-profile-device found: the device, the machine and
// each model's median latency. --samples writes it as JSON and --from reads
// it back; an --emit directory's plan.json is one not timed yet
// (EmitDirectory.h).
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_TOOLS_PROFILE_DEVICE_RUNFILE_H
#define NNAPI_MLIR_TOOLS_PROFILE_DEVICE_RUNFILE_H

#include "nnapi-mlir/NNAPI/DeviceProfile.h"

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nnapi_mlir::profiling {

/// The operation of a measurement of one op of a --model.
constexpr const char *kUnitRecord = "unit";
/// The model of the "boundary" record of the host code's call.
constexpr const char *kHostCallRecord = "host_call";

/// One measured model.
struct Measurement {
  std::string operation; ///< NNAPI operation, or "boundary".
  profile::DataType type = profile::DataType::Float32;
  unsigned size = 0;
  std::string side; ///< "nnapi" or "host".
  double macs = 0, elements = 0;
  uint64_t ioBytes[2] = {0, 0}; ///< Graph inputs, outputs.
  unsigned ioCount[2] = {0, 0};
  double us = 0;                ///< Median latency.
  unsigned runs = 0;
  std::string model;   ///< For boundary records: single, chain, two_inputs.
  /// For an op of a --model ("unit" records): its unitSignature().
  std::string signature;
  std::string file;    ///< The compiled model's file name.
  /// The runtime's threads when it was timed: 1, or N for the records the
  /// profile's thread_scaling is fitted from (--scaling-threads).
  unsigned threads = 1;
  std::string failure; ///< Why the device did not run it ("": it did).
};

/// Everything one measurement run found: the device, the machine and each
/// model's median. Written by --samples, read back by --from.
struct Run {
  std::string device, version, deviceType = "other", cpu, date;
  unsigned featureLevel = 7, sizes = 0;
  std::vector<profile::DataType> types;
  std::vector<std::string> operations; ///< In the probe table's order.
  std::vector<Measurement> measurements;
};

/// `run` as a samples file ("nnapi-profile-device-samples-1").
std::string runToJSON(const Run &run);

/// Reads what runToJSON wrote; false with a message naming the place.
bool runFromJSON(llvm::StringRef text, Run &run, std::string &error);

} // namespace nnapi_mlir::profiling

#endif // NNAPI_MLIR_TOOLS_PROFILE_DEVICE_RUNFILE_H
