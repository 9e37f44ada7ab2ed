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
  /// On 8-bit data: the level from which the output may be quantized unlike
  /// the inputs (0: never).
  unsigned requantizingLevel;
  /// N when NNAPI fixes the 8-bit output's scale at 1/N (0: not fixed), and
  /// the zero point of TENSOR_QUANT8_ASYMM data then.
  unsigned fixedScaleDenominator;
  int32_t fixedZeroPoint;
};

inline constexpr OperationInfo kOperations[] = {
#define NNAPI_OPERATION(NAME, CODE, LEVEL, FLOAT32, FLOAT16, QUANT8, QUANT8S, \
                        FUSES, REQUANT, FIXED_SCALE, FIXED_ZERO)            \
  {#NAME,   CODE,        LEVEL,      FLOAT32,     FLOAT16, QUANT8,            \
   QUANT8S, FUSES != 0,  REQUANT,    FIXED_SCALE, FIXED_ZERO},
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
  /// 0: no quantization; 1: a scale and a zero point in [minZeroPoint,
  /// maxZeroPoint]; 2: per-channel scales.
  unsigned quantization;
  int32_t minZeroPoint, maxZeroPoint;
  bool quant8Data; ///< An 8-bit quantized data type (QUANT8/QUANT8S).
};

inline constexpr OperandTypeInfo kOperandTypes[] = {
#define NNAPI_OPERAND_TYPE(NAME, CODE, BYTES, TENSOR, LEVEL, QUANT, ZERO_MIN,  \
                           ZERO_MAX, DATA8)                                    \
  {#NAME, CODE, BYTES, TENSOR != 0, LEVEL, QUANT, ZERO_MIN, ZERO_MAX, DATA8 != 0},
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

/// The rule of operand type `code`: its QUANT, ZERO_MIN and ZERO_MAX columns
/// in OperandTypes.def; other types (float, int32, bool) carry no
/// quantization and are not checked here (NNAPI lets an int32 bias carry
/// its scale).
constexpr QuantizationRule quantizationRule(int32_t code) {
  const OperandTypeInfo *info = lookupOperandType(code);
  if (!info || info->quantization == 0)
    return {};
  return {info->quantization == 1, info->quantization == 2,
          info->minZeroPoint, info->maxZeroPoint};
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
  const OperandTypeInfo *info = lookupOperandType(type);
  return info && info->quant8Data;
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
/// quantize its output with other parameters than its (data) inputs: its
/// REQUANT column in Operations.def (0: never).
constexpr unsigned requantizingLevel(std::string_view operation) {
  const OperationInfo *info = lookupOperation(operation);
  return info ? info->requantizingLevel : 0;
}

/// The output scale and zero point NNAPI fixes for `operation` on 8-bit
/// data (`isSigned`: TENSOR_QUANT8_ASYMM_SIGNED), if it fixes them: its
/// FIXED_SCALE and FIXED_ZERO columns in Operations.def (LOGISTIC and
/// SOFTMAX 1/256, TANH 1/128).
struct FixedQuantization {
  float scale;
  int32_t zeroPoint;
};
constexpr std::optional<FixedQuantization>
fixedOutputQuantization(std::string_view operation, bool isSigned) {
  const OperationInfo *info = lookupOperation(operation);
  if (!info || !info->fixedScaleDenominator)
    return std::nullopt;
  return FixedQuantization{1.0f / float(info->fixedScaleDenominator),
                           info->fixedZeroPoint - (isSigned ? 128 : 0)};
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
