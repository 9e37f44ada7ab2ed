//===- ParseCount.h - Strict parsing of non-negative integers ---*- C++ -*-===//
#ifndef NNAPI_MLIR_SUPPORT_PARSECOUNT_H
#define NNAPI_MLIR_SUPPORT_PARSECOUNT_H

#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace nnapi_mlir {

/// Parses all of `text` as a non-negative decimal integer; false on anything
/// else ("abc", "1x", "-1", "", out of range).
inline bool parseCount(const std::string &text, uint64_t &out) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])))
    return false;
  char *end = nullptr;
  errno = 0;
  out = std::strtoull(text.c_str(), &end, 10);
  return errno == 0 && *end == '\0';
}

} // namespace nnapi_mlir

#endif // NNAPI_MLIR_SUPPORT_PARSECOUNT_H
