//===- CommaList.h - Split "a,b,c" option values ------------------*- C++ -*-===//
//
// One splitter for the comma-separated lists of the runtime's devices
// option, the host NNAPI library's device list and nnapi-run's flags, so
// that they agree on what an empty entry is. Plain C++, header-only.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_SUPPORT_COMMALIST_H
#define NNAPI_MLIR_SUPPORT_COMMALIST_H

#include <string>
#include <vector>

namespace nnapi_mlir {

/// Splits `text` at commas, trimming spaces and tabs around each entry.
/// "" is the empty list; false (with `items` partial) if an entry is empty
/// ("a,,b", "a,", ",").
inline bool splitCommaList(const std::string &text,
                           std::vector<std::string> &items) {
  items.clear();
  if (text.empty())
    return true;
  size_t start = 0;
  while (true) {
    size_t comma = text.find(',', start);
    std::string item = text.substr(
        start, comma == std::string::npos ? std::string::npos : comma - start);
    size_t b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    if (b == std::string::npos)
      return false;
    items.push_back(item.substr(b, e - b + 1));
    if (comma == std::string::npos)
      return true;
    start = comma + 1;
  }
}

} // namespace nnapi_mlir

#endif // NNAPI_MLIR_SUPPORT_COMMALIST_H
