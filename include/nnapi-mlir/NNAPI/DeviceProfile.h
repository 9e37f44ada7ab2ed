//===- DeviceProfile.h - What an NNAPI device runs and what it costs -----===//
//
// A device profile (JSON, format in docs/device-profiles.md) describes one
// NNAPI device: its feature level, the operations and operand types it
// accepts, how long operations take on it and on the host CPU, and what
// moving a tensor between the two and invoking a partition costs.
//
// The compiler's partitioner reads profiles to decide placement; the host
// NNAPI implementation reads the same file to impersonate the device. Plain
// C++ (no LLVM), so both sides share one parser and one set of rules.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_NNAPI_DEVICEPROFILE_H
#define NNAPI_MLIR_NNAPI_DEVICEPROFILE_H

#include "nnapi-mlir/NNAPI/Operations.h"
#include "nnapi-mlir/NNAPI/Quirks.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nnapi_mlir::profile {

/// Element types the cost model distinguishes.
enum class DataType : unsigned { Float32 = 0, Float16 = 1, Int8 = 2 };
constexpr unsigned kNumDataTypes = 3;
const char *dataTypeName(DataType type);
/// The profile's data type of an NNAPI operand type (OperandCode): float16
/// for the float16 types, int8 for every 8-bit quantized one (asymmetric,
/// signed, symmetric, per channel), float32 otherwise. The one mapping the
/// host device's profile checks use.
DataType dataTypeOfOperandCode(int32_t code);

/// Latency of one operation: fixed + per multiply-accumulate + per element
/// (elements of all tensor operands and results, a memory-traffic proxy).
struct CostModel {
  double fixedUs = 0;
  double nsPerMac = 0;
  double nsPerElement = 0;
  double estimateUs(double macs, double elements) const {
    return fixedUs + (macs * nsPerMac + elements * nsPerElement) * 1e-3;
  }
};

/// Costs for every type, with optional per-operation overrides.
struct CostTable {
  std::array<CostModel, kNumDataTypes> defaults;
  std::map<int32_t, std::array<std::optional<CostModel>, kNumDataTypes>>
      perOperation;
  const CostModel &lookup(int32_t opcode, DataType type) const;
};

/// Latencies measured for one op at the exact shapes of a model
/// (nnapi-profile-device --model): the host code's, and the device's without
/// the partition call and transfers. Either may be missing (the device did
/// not run it).
struct MeasuredUnit {
  std::optional<double> hostUs, deviceUs;
};

/// How a side's latency changes with the runtime's thread count, by
/// Amdahl's law: at t threads it is the one-thread latency times
/// (1 - p) + p / t, p the side's parallel fraction, per operation where it
/// was measured (a convolution splits over threads, a driver's serial
/// kernel does not), else the side's. nnapi-profile-device fits p from one
/// thread and `measuredThreads`; a profile without it (p = 0 on both sides)
/// prices every count like one thread.
struct ThreadScaling {
  struct Parallel {
    double host = 0, device = 0;
  };
  Parallel defaults;
  std::map<int32_t, Parallel> perOperation; ///< By NNAPI operation code.
  unsigned measuredThreads = 0; ///< The N it was fitted at; 0: not measured.

  static double factor(double parallel, unsigned threads) {
    return threads <= 1 ? 1 : (1 - parallel) + parallel / threads;
  }
  /// The fractions for `opcode` (-1, or one not measured: the side's).
  const Parallel &of(int32_t opcode) const {
    auto it = perOperation.find(opcode);
    return it == perOperation.end() ? defaults : it->second;
  }
  double hostFactor(unsigned threads, int32_t opcode = -1) const {
    return factor(of(opcode).host, threads);
  }
  double deviceFactor(unsigned threads, int32_t opcode = -1) const {
    return factor(of(opcode).device, threads);
  }
  /// The parallel fraction that makes `threads` threads take `ratio` of one
  /// thread's time, in [0, 1].
  static double fit(double ratio, unsigned threads);
};

struct DeviceProfile {
  std::string name;
  std::string description;
  unsigned featureLevel = 7;
  int32_t deviceType = 1; ///< ANEURALNETWORKS_DEVICE_*: 1 other, 2 cpu, 3 gpu, 4 accelerator
  /// Supported operand types per operation (bit per DataType); the entry for
  /// -1 (written "*") applies to every operation not listed.
  std::map<int32_t, unsigned> operations;
  CostTable device;
  CostTable host;
  double transferFixedUs = 0;
  double transferNsPerByte = 0;
  double partitionOverheadUs = 0;
  ThreadScaling threadScaling;
  /// Measured latencies by unit signature (the partitioner's
  /// unitSignature()); they take precedence over the cost tables.
  std::map<std::string, MeasuredUnit, std::less<>> measured;
  /// Operations the device computes wrong (Quirks.h), whatever its driver
  /// version: the partitioner keeps them on the host.
  std::vector<quirks::Quirk> quirks;

  /// True if the device runs `opcode` on tensors of `type`.
  bool supports(int32_t opcode, DataType type) const;
  double transferUs(uint64_t bytes) const {
    return transferFixedUs + double(bytes) * transferNsPerByte * 1e-3;
  }
};

/// Parses and validates a profile. On failure returns false and sets `error`
/// to one line naming the position (line:column) or the offending key path.
bool parseDeviceProfile(std::string_view json, DeviceProfile &profile,
                        std::string &error);
/// Reads `path` and parses it; errors start with the path.
bool loadDeviceProfile(const std::string &path, DeviceProfile &profile,
                       std::string &error);


} // namespace nnapi_mlir::profile

#endif // NNAPI_MLIR_NNAPI_DEVICEPROFILE_H
