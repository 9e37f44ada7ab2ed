//===- JsonText.h - Writing JSON values as text -----------------*- C++ -*-===//
//
// For the plain C++ side (runtime, tools) that writes JSON without LLVM's
// writer: quirks records, nnapi-run's validation results.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_SUPPORT_JSONTEXT_H
#define NNAPI_MLIR_SUPPORT_JSONTEXT_H

#include <string>
#include <string_view>

namespace nnapi_mlir {

/// `text` as a JSON string literal: quotes, backslashes and control
/// characters escaped; other bytes (UTF-8) as they are.
std::string jsonQuoted(std::string_view text);

/// A number as JSON: shortest round-tripping form for finite values, null
/// for NaN and infinities (JSON has neither).
std::string jsonNumber(double value);

} // namespace nnapi_mlir

#endif // NNAPI_MLIR_SUPPORT_JSONTEXT_H
