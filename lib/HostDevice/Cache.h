//===- Cache.h - The host NNAPI device's compilation cache ----------------===//
//
// ANeuralNetworksCompilation_setCaching gives a directory and a 32-byte token
// that the caller derived from everything that shapes the compilation. A
// driver keeps its compiled model there under the token and, next time,
// loads it instead of compiling. The host device follows the protocol but
// stores no compiled code: its compilation is XNNPACK operators with packed
// weights, which this XNNPACK cannot serialize, and takes 0.5-6 ms on the
// benchmark models (docs/design.md), so it compiles every time. Its entry
// holds what identifies and summarizes the compilation: the token, a
// SHA-256 fingerprint of the model and device, the plan's step counts and
// arena size, and a SHA-256 of the whole file. A finish reads the entry,
// counts it found only if every byte checks out and it belongs to this model
// and plan, and otherwise (missing, truncated, corrupted, another model's)
// writes it anew, atomically (a temporary file renamed into place). What the
// counters show is the runtime's side of the protocol: that it passes a
// directory and a token, the same token for the same partition and another
// for anything that changes it.
//
// File "<dir>/<hex token>.nnapi-host-cache", little-endian:
//   "NNHC" | u32 version (1) | token[32] | fingerprint[32] | u32 steps |
//   u32 xnnpackSteps | u64 arenaBytes | u32 nameLength | name |
//   SHA-256 of all the preceding bytes [32]
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_HOSTDEVICE_CACHE_H
#define NNAPI_MLIR_LIB_HOSTDEVICE_CACHE_H

#include "HostModel.h"

#include "nnapi-mlir/Support/Sha256.h"

#include <array>
#include <string>

namespace nnapi_mlir::host {

using CacheToken = std::array<uint8_t, 32>;

/// What a cache entry records of a compilation.
struct CacheEntry {
  CacheToken token{};
  Sha256::Digest fingerprint{};
  uint32_t steps = 0, xnnpackSteps = 0;
  uint64_t arenaBytes = 0;
  std::string device;
};

/// SHA-256 of everything that decides the compilation of `model` on the
/// device named `device` (version `version`): operands with their types,
/// shapes and constant values, operations, inputs, outputs, relaxation.
Sha256::Digest fingerprintModel(const HostModel &model,
                                const std::string &device,
                                const std::string &version);

/// The entry's file in `dir`.
std::string cacheFilePath(const std::string &dir, const CacheToken &token);

enum class CacheLookup { Found, Missing, Rejected };

/// Reads the entry at `path` and checks it against `expected` (token,
/// fingerprint, device, plan). `why` says what was wrong when Rejected.
CacheLookup readCacheEntry(const std::string &path,
                           const CacheEntry &expected, CacheEntry &found,
                           std::string &why);

/// Writes `entry` to `path` through a temporary file; false if the directory
/// cannot be written (the compilation still succeeds, uncached).
bool writeCacheEntry(const std::string &path, const CacheEntry &entry);

} // namespace nnapi_mlir::host

#endif // NNAPI_MLIR_LIB_HOSTDEVICE_CACHE_H
