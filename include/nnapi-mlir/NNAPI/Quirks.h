//===- Quirks.h - Operations a device is known to compute wrong ----------===//
//
// A quirks record (JSON, format in docs/validation.md) lists, per NNAPI
// device name and driver version, the operations whose results the device
// got wrong when checked against the model's host copy (nnapi-run
// --validate, or the runtime's verify option). An operation is named by its
// operationSignature() (BlobFormat.h), which the runtime computes from a
// partition's blob and the compiler from a unit it would offload, so both
// can route around the quirk without the other. A device profile may carry
// the same entries ("quirks"), for one device whatever its version.
//
// Plain C++ (no LLVM): the runtime reads and appends records.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_NNAPI_QUIRKS_H
#define NNAPI_MLIR_NNAPI_QUIRKS_H

#include <string>
#include <string_view>
#include <vector>

namespace nnapi_mlir::quirks {

/// The format line of a quirks record.
constexpr const char *kFormat = "nnapi-mlir-quirks-1";
/// The file a runtime with a cache directory reads and appends to.
constexpr const char *kDefaultFileName = "nnapi-mlir-quirks.json";
/// Prefix of a signature naming a whole partition (its blob's SHA-256),
/// recorded when no single operation was found wrong.
constexpr const char *kPartitionPrefix = "partition sha256:";

/// One wrong operation (or partition).
struct Quirk {
  std::string signature; ///< operationSignature(), or kPartitionPrefix + hex
  std::string error;     ///< What was seen ("max error 12 quanta, ...").
  std::string foundBy;   ///< "validate" or "verify".
};

struct DeviceQuirks {
  std::string name, version;
  std::vector<Quirk> quirks;
};

struct Record {
  std::vector<DeviceQuirks> devices;

  /// The quirk of device `name` (driver `version`) for `signature`, or null.
  const Quirk *find(std::string_view name, std::string_view version,
                    std::string_view signature) const;
  /// Adds `quirk` for the device unless its signature is already there;
  /// true if it was added.
  bool add(const std::string &name, const std::string &version, Quirk quirk);
};

/// Parses a record; false with `error` naming the line and key.
bool parse(std::string_view json, Record &record, std::string &error);
/// Reads `path`; a missing file is an empty record. Errors start with the
/// path.
bool load(const std::string &path, Record &record, std::string &error);
/// The record as JSON text (devices and quirks in the order added).
std::string write(const Record &record);
/// Writes `record` to `path` (through a temporary file renamed into place,
/// so a reader never sees half a file); false with `error`.
bool save(const std::string &path, const Record &record, std::string &error);
/// Loads `path`, adds `quirk` for the device and saves it again when it
/// was new; false with `error` if the file could not be read or written.
bool append(const std::string &path, const std::string &name,
            const std::string &version, const Quirk &quirk,
            std::string &error);

} // namespace nnapi_mlir::quirks

#endif // NNAPI_MLIR_NNAPI_QUIRKS_H
