//===- Operations.h - Lookups in the NNAPI operation table -----*- C++ -*-===//
//
// The tables of Operations.def and OperandTypes.def as constexpr data, for
// C++ code on both sides: the compiler (dialect, partitioner, docs) and the
// runtime (blob, device profiles, host NNAPI device), which never links MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_NNAPI_OPERATIONS_H
#define NNAPI_MLIR_NNAPI_OPERATIONS_H

#include <cstdint>
#include <string_view>

namespace nnapi_mlir {

/// One row of NNAPI/Operations.def.
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
#include "nnapi-mlir/NNAPI/Operations.def"
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
              "NNAPI/Operations.def lists the operations in code order");

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

/// One row of OperandTypes.def.
struct OperandTypeInfo {
  const char *name; ///< "TENSOR_FLOAT32" (no ANEURALNETWORKS_ prefix)
  int32_t code;     ///< ANEURALNETWORKS_TENSOR_FLOAT32
  unsigned bytes;   ///< Size of one element; 0 for MODEL.
  bool tensor;      ///< A tensor type (else a scalar or MODEL).
  unsigned level;   ///< Feature level that introduced the type.
};

inline constexpr OperandTypeInfo kOperandTypes[] = {
#define NNAPI_OPERAND_TYPE(NAME, CODE, BYTES, TENSOR, LEVEL)                    \
  {#NAME, CODE, BYTES, TENSOR != 0, LEVEL},
#include "nnapi-mlir/NNAPI/OperandTypes.def"
};

inline constexpr int32_t kNumOperandTypes =
    int32_t(sizeof(kOperandTypes) / sizeof(kOperandTypes[0]));

/// The row of operand type `code`, or nullptr.
constexpr const OperandTypeInfo *lookupOperandType(int32_t code) {
  return code >= 0 && code < kNumOperandTypes ? &kOperandTypes[code]
                                              : nullptr;
}

/// Bytes of one element of operand type `code`; 0 for an unknown code or
/// one that holds no data (MODEL).
constexpr unsigned operandTypeBytes(int32_t code) {
  const OperandTypeInfo *info = lookupOperandType(code);
  return info ? info->bytes : 0;
}

/// True for the tensor operand types.
constexpr bool isTensorOperandType(int32_t code) {
  const OperandTypeInfo *info = lookupOperandType(code);
  return info && info->tensor;
}

/// "TENSOR_FLOAT32", or "?" for an unknown code.
constexpr const char *operandTypeName(int32_t code) {
  const OperandTypeInfo *info = lookupOperandType(code);
  return info ? info->name : "?";
}

} // namespace nnapi_mlir

#endif // NNAPI_MLIR_NNAPI_OPERATIONS_H
