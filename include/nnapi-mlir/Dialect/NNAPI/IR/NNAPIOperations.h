//===- NNAPIOperations.h - Lookups in the NNAPI operation table -*- C++ -*-===//
//
// The table of NNAPIOperations.def as constexpr data, for C++ code on both
// sides: the compiler (dialect, partitioner, docs) and the runtime (blob,
// device profiles, host NNAPI device), which never links MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_DIALECT_NNAPI_IR_NNAPIOPERATIONS_H
#define NNAPI_MLIR_DIALECT_NNAPI_IR_NNAPIOPERATIONS_H

#include <cstdint>
#include <string_view>

namespace nnapi_mlir {

/// One row of NNAPIOperations.def.
struct OperationInfo {
  const char *name;      ///< "CONV_2D" (no ANEURALNETWORKS_ prefix)
  int32_t code;          ///< ANEURALNETWORKS_CONV_2D
  unsigned level;        ///< Feature level that introduced the operation.
  unsigned float32Level; ///< From which level TENSOR_FLOAT32 is accepted; 0: never.
  unsigned float16Level; ///< From which level TENSOR_FLOAT16 is accepted; 0: never.
  bool fuses; ///< Takes a FuseCode operand applied to its output.
};

inline constexpr OperationInfo kOperations[] = {
#define NNAPI_OPERATION(NAME, CODE, LEVEL, FLOAT32, FLOAT16, FUSES)            \
  {#NAME, CODE, LEVEL, FLOAT32, FLOAT16, FUSES != 0},
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIOperations.def"
};

inline constexpr int32_t kNumOperations =
    int32_t(sizeof(kOperations) / sizeof(kOperations[0]));

namespace detail {
constexpr bool codesAreIndices() {
  for (int32_t i = 0; i < kNumOperations; ++i)
    if (kOperations[i].code != i)
      return false;
  return true;
}
} // namespace detail
static_assert(detail::codesAreIndices(),
              "NNAPIOperations.def lists the operations in code order");

/// The row of `code`, or nullptr if NNAPI has no such operation.
constexpr const OperationInfo *lookupOperation(int32_t code) {
  return code >= 0 && code < kNumOperations ? &kOperations[code] : nullptr;
}

/// The row named `name` ("CONV_2D"), or nullptr.
constexpr const OperationInfo *lookupOperation(std::string_view name) {
  for (const OperationInfo &info : kOperations)
    if (name == info.name)
      return &info;
  return nullptr;
}

/// The operation's name, or nullptr for an unknown code.
constexpr const char *operationName(int32_t code) {
  const OperationInfo *info = lookupOperation(code);
  return info ? info->name : nullptr;
}

/// True if `code` takes a FuseCode operand applied to its output.
constexpr bool hasFusedActivationOperand(int32_t code) {
  const OperationInfo *info = lookupOperation(code);
  return info && info->fuses;
}

/// The operation code named `name`, or -1.
constexpr int32_t operationCode(std::string_view name) {
  const OperationInfo *info = lookupOperation(name);
  return info ? info->code : -1;
}

} // namespace nnapi_mlir

#endif // NNAPI_MLIR_DIALECT_NNAPI_IR_NNAPIOPERATIONS_H
