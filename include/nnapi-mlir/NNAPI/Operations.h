//===- Operations.h - Lookups in the NNAPI operation table -----*- C++ -*-===//
//
// The tables of Operations.def and OperandTypes.def as constexpr data, for
// C++ code on both sides: the compiler (dialect, partitioner, docs) and the
// runtime (blob, device profiles, host NNAPI device), which never links MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_NNAPI_OPERATIONS_H
#define NNAPI_MLIR_NNAPI_OPERATIONS_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace nnapi_mlir {

/// One row of NNAPI/Operations.def.
struct OperationInfo {
  const char *name;      ///< "CONV_2D" (no ANEURALNETWORKS_ prefix)
  int32_t code;          ///< ANEURALNETWORKS_CONV_2D
  unsigned level;        ///< Feature level that introduced the operation.
  unsigned float32Level; ///< From which level TENSOR_FLOAT32 is accepted; 0: never.
  unsigned float16Level; ///< From which level TENSOR_FLOAT16 is accepted; 0: never.
  unsigned quant8Level;  ///< TENSOR_QUANT8_ASYMM data, likewise.
  unsigned quant8SignedLevel; ///< TENSOR_QUANT8_ASYMM_SIGNED data, likewise.
  bool fuses; ///< Takes a FuseCode operand applied to its output.
};

inline constexpr OperationInfo kOperations[] = {
#define NNAPI_OPERATION(NAME, CODE, LEVEL, FLOAT32, FLOAT16, QUANT8, QUANT8S, \
                        FUSES)                                              \
  {#NAME, CODE, LEVEL, FLOAT32, FLOAT16, QUANT8, QUANT8S, FUSES != 0},
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

/// What NNAPI requires of an operand type's scale and zero point.
struct QuantizationRule {
  bool quantized = false;  ///< scale > 0 (finite); else scale and zero point 0
  bool perChannel = false; ///< scale and zero point 0, per-channel scales
  int32_t minZeroPoint = 0, maxZeroPoint = 0;
};

/// The rule of operand type `code`: the quantized types' zero point ranges
/// from NNAPI's documentation; other types (float, int32, bool) carry no
/// quantization and are not checked here (NNAPI lets an int32 bias carry
/// its scale).
constexpr QuantizationRule quantizationRule(int32_t code) {
  std::string_view name = operandTypeName(code);
  if (name == "TENSOR_QUANT8_ASYMM")
    return {true, false, 0, 255};
  if (name == "TENSOR_QUANT8_ASYMM_SIGNED")
    return {true, false, -128, 127};
  if (name == "TENSOR_QUANT8_SYMM" || name == "TENSOR_QUANT16_SYMM")
    return {true, false, 0, 0};
  if (name == "TENSOR_QUANT16_ASYMM")
    return {true, false, 0, 65535};
  if (name == "TENSOR_QUANT8_SYMM_PER_CHANNEL")
    return {false, true, 0, 0};
  return {};
}

/// Why `scale` and `zeroPoint` are invalid for operand type `code` (""
/// when they are valid, or the type carries no quantization).
inline std::string quantizationError(int32_t code, float scale,
                                     int32_t zeroPoint) {
  QuantizationRule rule = quantizationRule(code);
  std::string type = operandTypeName(code);
  if (rule.perChannel) {
    if (scale != 0 || zeroPoint != 0)
      return type + " takes per-channel scales: its scale and zero point "
                    "must be 0";
    return "";
  }
  if (!rule.quantized)
    return "";
  if (!(scale > 0) || !std::isfinite(scale))
    return type + " needs a positive finite scale, got " +
           std::to_string(scale);
  if (zeroPoint < rule.minZeroPoint || zeroPoint > rule.maxZeroPoint)
    return type + " needs a zero point in [" +
           std::to_string(rule.minZeroPoint) + ", " +
           std::to_string(rule.maxZeroPoint) + "], got " +
           std::to_string(zeroPoint);
  return "";
}

/// TENSOR_QUANT8_ASYMM or TENSOR_QUANT8_ASYMM_SIGNED: the 8-bit quantized
/// data types of Operations.def's QUANT8 and QUANT8S columns.
constexpr bool isQuant8DataType(int32_t type) {
  std::string_view name = operandTypeName(type);
  return name == "TENSOR_QUANT8_ASYMM" || name == "TENSOR_QUANT8_ASYMM_SIGNED";
}

/// The feature level from which `info` accepts data of tensor type `type`
/// (its float or 8-bit quantized columns), 0 when it never does.
constexpr unsigned dataTypeLevel(const OperationInfo &info, int32_t type) {
  std::string_view name = operandTypeName(type);
  if (name == "TENSOR_FLOAT32")
    return info.float32Level;
  if (name == "TENSOR_FLOAT16")
    return info.float16Level;
  if (name == "TENSOR_QUANT8_ASYMM")
    return info.quant8Level;
  if (name == "TENSOR_QUANT8_ASYMM_SIGNED")
    return info.quant8SignedLevel;
  return 0;
}

/// The feature level from which `operation` on 8-bit quantized data may
/// quantize its output with other parameters than its (data) inputs, from
/// NNAPI's documentation of each operation: 0 when it never may (operations
/// that move or select values -- MAX_POOL_2D, RESHAPE, TRANSPOSE,
/// RESIZE_* -- and AVERAGE_POOL_2D keep their input's scale and zero
/// point), 3 for CONCATENATION (its inputs must match the output below
/// level 3), 1 for the others (convolutions, FULLY_CONNECTED, ADD, MUL,
/// HARD_SWISH requantize; LOGISTIC, TANH and SOFTMAX have fixed output
/// parameters, fixedOutputQuantization).
constexpr unsigned requantizingLevel(std::string_view operation) {
  if (operation == "MAX_POOL_2D" || operation == "AVERAGE_POOL_2D" ||
      operation == "RESHAPE" || operation == "TRANSPOSE" ||
      operation == "RESIZE_BILINEAR" ||
      operation == "RESIZE_NEAREST_NEIGHBOR")
    return 0;
  if (operation == "CONCATENATION")
    return 3;
  return 1;
}

/// The output scale and zero point NNAPI fixes for `operation` on 8-bit
/// data (`isSigned`: TENSOR_QUANT8_ASYMM_SIGNED), if it fixes them:
/// LOGISTIC and SOFTMAX 1/256 (zero point 0, signed -128), TANH 1/128
/// (zero point 128, signed 0).
struct FixedQuantization {
  float scale;
  int32_t zeroPoint;
};
constexpr std::optional<FixedQuantization>
fixedOutputQuantization(std::string_view operation, bool isSigned) {
  if (operation == "LOGISTIC" || operation == "SOFTMAX")
    return FixedQuantization{1.0f / 256, isSigned ? -128 : 0};
  if (operation == "TANH")
    return FixedQuantization{1.0f / 128, isSigned ? 0 : 128};
  return std::nullopt;
}

/// Why `operation` on 8-bit data (`isSigned` as above) cannot give an
/// output quantized with (outputScale, outputZeroPoint) from an input
/// with (inputScale, inputZeroPoint) ("" when it can, at
/// requantizingLevel).
inline std::string quantizedOutputError(std::string_view operation,
                                        bool isSigned, float inputScale,
                                        int32_t inputZeroPoint,
                                        float outputScale,
                                        int32_t outputZeroPoint) {
  auto pair = [](float scale, int32_t zeroPoint) {
    return std::to_string(scale) + ", " + std::to_string(zeroPoint);
  };
  if (std::optional<FixedQuantization> fixed =
          fixedOutputQuantization(operation, isSigned)) {
    if (outputScale == fixed->scale && outputZeroPoint == fixed->zeroPoint)
      return "";
    return std::string(operation) + " on " +
           (isSigned ? "TENSOR_QUANT8_ASYMM_SIGNED" : "TENSOR_QUANT8_ASYMM") +
           " data needs output scale and zero point " +
           pair(fixed->scale, fixed->zeroPoint) + ", got " +
           pair(outputScale, outputZeroPoint);
  }
  if (requantizingLevel(operation) != 0 ||
      (inputScale == outputScale && inputZeroPoint == outputZeroPoint))
    return "";
  return std::string(operation) +
         " keeps its input's scale and zero point (input " +
         pair(inputScale, inputZeroPoint) + "; output " +
         pair(outputScale, outputZeroPoint) + ")";
}

/// Why a quantized convolution's or fully connected operation's bias scale
/// is wrong ("" when right): NNAPI requires input scale x filter scale (the
/// float32 product; a relative difference of 1e-6 is tolerated, as
/// rounding in another order gives), or 0 with per-channel filters.
inline std::string biasScaleError(float inputScale, float filterScale,
                                  float biasScale, bool perChannel) {
  if (perChannel)
    return biasScale == 0 ? ""
                          : "with per-channel filter scales the bias scale "
                            "must be 0, got " +
                                std::to_string(biasScale);
  float expected = inputScale * filterScale;
  if (std::fabs(biasScale - expected) <= 1e-6f * expected)
    return "";
  return "the bias scale must be input scale x filter scale (" +
         std::to_string(expected) + "), got " + std::to_string(biasScale);
}

/// The stored values [lo, hi] an 8-bit result (`isSigned`: int8, else
/// uint8) with (scale, zeroPoint) is clamped to by fused activation
/// `fuseCode` (0 none, 1 RELU: from the zero point, 2 RELU1: +-1, 3 RELU6:
/// 0 to 6; each bound zero point + round(bound / scale), within the type),
/// as NNAPI's CPU implementation computes it.
inline void quantizedActivationRange(int32_t fuseCode, float scale,
                                     int32_t zeroPoint, bool isSigned,
                                     int32_t &lo, int32_t &hi) {
  lo = isSigned ? -128 : 0;
  hi = isSigned ? 127 : 255;
  auto q = [&](float v) { return zeroPoint + int32_t(std::round(v / scale)); };
  if (fuseCode == 1 || fuseCode == 3)
    lo = std::max(lo, q(0.0f));
  if (fuseCode == 2) {
    lo = std::max(lo, q(-1.0f));
    hi = std::min(hi, q(1.0f));
  }
  if (fuseCode == 3)
    hi = std::min(hi, q(6.0f));
}

} // namespace nnapi_mlir

#endif // NNAPI_MLIR_NNAPI_OPERATIONS_H
