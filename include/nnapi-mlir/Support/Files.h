//===- Files.h - Reading and writing files that others may control -*- C++ -*-===//
//
// Every file the runtime side reads (device profiles, cache entries) may be
// something other than it claims: a directory, a FIFO that blocks forever,
// /dev/zero that never ends, a symbolic link planted in a shared cache
// directory. These functions read only regular files, up to a size the
// caller states, without following a link where asked, and never throw;
// writes go through a fresh temporary file (O_EXCL, O_NOFOLLOW, an
// unpredictable name) renamed into place. docs/reliability.md has the trust
// model they serve.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_SUPPORT_FILES_H
#define NNAPI_MLIR_SUPPORT_FILES_H

#include <cstdint>
#include <string>
#include <vector>

namespace nnapi_mlir {

enum class ReadStatus {
  Ok,
  Missing, ///< No file at the path.
  Refused, ///< Not a regular file, too large, a link where none is allowed,
           ///< or unreadable: `error` says which.
};

struct ReadOptions {
  /// Larger files are refused without being read.
  uint64_t maxBytes = 16u << 20;
  /// Refuse a symbolic link as the last component of the path (a cache
  /// entry); a user's own path (a profile) may be one.
  bool followSymlinks = true;
};

/// Reads the regular file at `path` into `bytes`. On Refused, `error` says
/// why (without the path: the caller names the file).
ReadStatus readFile(const std::string &path, const ReadOptions &options,
                    std::vector<uint8_t> &bytes, std::string &error);

/// The same into a string (text files).
ReadStatus readFile(const std::string &path, const ReadOptions &options,
                    std::string &text, std::string &error);

/// Writes `size` bytes to `path` atomically: into a new file next to it
/// (created with O_EXCL | O_NOFOLLOW, mode 0600, a random name), then
/// renamed over `path` (which replaces a link there rather than writing
/// through it). False with `error` if anything fails; nothing is left
/// behind then.
bool writeFileAtomically(const std::string &path, const void *data,
                         size_t size, std::string &error);

} // namespace nnapi_mlir

#endif // NNAPI_MLIR_SUPPORT_FILES_H
