//===- BlobFormat.h - Versioned NNAPI model blob: model, writer, reader ---===//
//
// The on-disk form of one NNAPI model, shared by the compiler (which writes
// it) and the runtime (which reads it). Plain C++17: no LLVM, no MLIR. The
// byte layout is specified in docs/blob-format.md.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_NNAPI_BLOBFORMAT_H
#define NNAPI_MLIR_NNAPI_BLOBFORMAT_H

#include "nnapi-mlir/NNAPI/Operations.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace nnapi_mlir::blob {

/// Magic bytes at offset 0 of every blob.
constexpr char kMagic[8] = {'N', 'N', 'A', 'P', 'I', 'M', 'L', 'B'};
/// The format version this code writes. Version 2 added operands without a
/// value (Lifetime::NoValue), version 3 referenced models
/// (Lifetime::Subgraph), version 4 per-channel quantization
/// (Operand::channelScales), version 5 the int8-as-uint8 flag
/// (Model::int8AsUint8); the reader accepts versions
/// kOldestReadableVersion to kFormatVersion.
constexpr uint32_t kFormatVersion = 5;
constexpr uint32_t kOldestReadableVersion = 1;
constexpr size_t kHeaderSize = 72;
constexpr size_t kOperandRecordSize = 40;
constexpr size_t kOperationRecordSize = 16;
/// Alignment of the constant data section and of each value inside it.
constexpr size_t kDataAlignment = 64;
constexpr size_t kValueAlignment = 16;
constexpr uint32_t kMaxRank = 8;
/// How deep referenced models may nest (a model referencing a model that
/// references one is depth 2).
constexpr unsigned kMaxSubgraphDepth = 8;

enum class Lifetime : uint32_t {
  Temporary = 0,
  ModelInput = 1,
  ModelOutput = 2,
  Constant = 3,
  /// An optional operand given without a value (version 2): NNAPI's
  /// ANeuralNetworksModel_setOperandValue with no buffer.
  NoValue = 4,
  /// An operand of type MODEL whose value is a referenced model (version 3):
  /// IF's branches, WHILE's condition and body. NNAPI's
  /// ANeuralNetworksModel_setOperandValueFromModel.
  Subgraph = 5,
};

struct Operand {
  int32_t type = 0; ///< An ANEURALNETWORKS_* operand code.
  std::vector<uint32_t> dims;
  float scale = 0.0f;
  int32_t zeroPoint = 0;
  Lifetime lifetime = Lifetime::Temporary;
  uint64_t valueOffset = 0; ///< Into Model::data, for constants.
  uint64_t valueLength = 0;
  /// For Lifetime::Subgraph: the index in Model::subgraphs.
  uint32_t subgraph = 0;
  /// TENSOR_QUANT8_SYMM_PER_CHANNEL (version 4): the dimension the scales
  /// run along and one scale per index of it (scale and zeroPoint are 0).
  uint32_t channelDim = 0;
  std::vector<float> channelScales;
};

struct Operation {
  int32_t opcode = 0; ///< An ANEURALNETWORKS_* operation code.
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
};

struct Model {
  uint32_t featureLevel = 1; ///< NNAPI feature level 1..8 the model needs.
  bool relaxFloat32ToFloat16 = false;
  /// The model's int8 data is written as TENSOR_QUANT8_ASYMM (zero point +
  /// 128) for drivers below feature level 4: the caller's int8 inputs and
  /// outputs of that type differ from the model's by the top bit, which the
  /// runtime flips on the way in and out (header flag bit 1, version 5).
  bool int8AsUint8 = false;
  std::vector<Operand> operands;
  std::vector<Operation> operations;
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
  std::vector<uint8_t> data; ///< Constant values, each kValueAlignment-aligned.
  /// The models its MODEL operands reference. Each is written as a whole
  /// blob of its own inside the data section, after the constants.
  std::vector<Model> subgraphs;

  /// Appends a constant operand holding `length` bytes from `bytes`.
  uint32_t addConstant(int32_t type, std::vector<uint32_t> dims,
                       const void *bytes, size_t length);
  /// Appends a non-constant operand.
  uint32_t addOperand(int32_t type, std::vector<uint32_t> dims,
                      Lifetime lifetime = Lifetime::Temporary);
  uint32_t addInt32(int32_t value);
  uint32_t addFloat32(float value);
  uint32_t addBool(bool value);
  /// Appends an operand of `type` (rank 0) that has no value.
  uint32_t addNoValue(int32_t type);
  /// Appends a MODEL operand referencing `model`, which becomes one of
  /// `subgraphs`.
  uint32_t addSubgraph(Model model);
};

/// Size in bytes of one element of an operand code, or 0 if unknown.
size_t elementSize(int32_t operandType);
/// True for operand codes that name a tensor (as opposed to a scalar).
bool isTensorType(int32_t operandType);
/// Short name of an operand code ("TENSOR_FLOAT32"), or "?" if unknown.
const char *operandTypeName(int32_t operandType);
/// Byte size of a value of the operand; false on overflow or unknown type.
bool operandByteSize(const Operand &operand, uint64_t &size);

/// Serializes `model`. Recomputes layout, counts and checksum.
std::vector<uint8_t> write(const Model &model);

/// Parses and validates a blob: header, version, checksum, every count,
/// offset and size, operand indices and constant lengths. On failure returns
/// false and sets `error` to a message naming the first problem.
bool read(const uint8_t *bytes, size_t size, Model &model, std::string &error);

/// Stores the checksum of a blob of `size` bytes in its header, so that a
/// blob edited in place (by a test or a fuzzer) passes the checksum test and
/// reaches the checks behind it. Does nothing to fewer than kHeaderSize bytes.
void sealChecksum(uint8_t *bytes, size_t size);

/// What identifies one operation of `model` wherever it occurs: its name,
/// then each input's and output's type, dimensions and quantization, with
/// scalar constants' values and "const" on constant tensors (not their
/// values), e.g. "ADD(TENSOR_FLOAT32 [1,4], TENSOR_FLOAT32 [1,4] const,
/// INT32 = 0) -> (TENSOR_FLOAT32 [1,4])". Device quirks name operations by
/// it (docs/validation.md), so it must not change between releases without
/// a new quirks format.
std::string operationSignature(const Model &model, const Operation &op);

/// Human-readable listing of a model, for `nnapi-translate --dump-nnapi-blob`.
std::string dump(const Model &model);

/// CRC-32 (IEEE 802.3 polynomial) of a byte range.
uint32_t crc32(const uint8_t *bytes, size_t size);
/// Continues a CRC-32 over another range: crc32Update(crc32(a), b) == crc32(ab).
uint32_t crc32Update(uint32_t previous, const uint8_t *bytes, size_t size);

} // namespace nnapi_mlir::blob

#endif // NNAPI_MLIR_NNAPI_BLOBFORMAT_H
