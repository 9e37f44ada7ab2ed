//===- Sha256.h - SHA-256 for cache tokens ------------------------*- C++ -*-===//
//
// FIPS 180-4 SHA-256, incremental. The runtime derives NNAPI compilation
// cache tokens with it (a token that collides would load another model's
// compiled code), and the host NNAPI device checks its cache files with it.
// Plain C++: the runtime side links it without LLVM.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_SUPPORT_SHA256_H
#define NNAPI_MLIR_SUPPORT_SHA256_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace nnapi_mlir {

class Sha256 {
public:
  using Digest = std::array<uint8_t, 32>;
  Sha256();
  /// Adds `size` bytes.
  Sha256 &update(const void *data, size_t size);
  /// Adds a string and its terminating zero, so that ("ab", "c") and
  /// ("a", "bc") differ.
  Sha256 &update(const std::string &text);
  /// The digest of everything added; the object is spent afterwards.
  Digest finish();
  /// Lower-case hexadecimal of a digest.
  static std::string hex(const Digest &digest);

private:
  void block(const uint8_t *bytes);
  uint32_t state_[8];
  uint8_t buffer_[64];
  size_t buffered_ = 0;
  uint64_t length_ = 0;
};

} // namespace nnapi_mlir

#endif // NNAPI_MLIR_SUPPORT_SHA256_H
