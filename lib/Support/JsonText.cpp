//===- JsonText.cpp - Writing JSON values as text -------------------------===//

#include "nnapi-mlir/Support/JsonText.h"

#include <cmath>
#include <cstdio>

std::string nnapi_mlir::jsonQuoted(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

std::string nnapi_mlir::jsonNumber(double value) {
  if (!std::isfinite(value))
    return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", value);
  return buf;
}
