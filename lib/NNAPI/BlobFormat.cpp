//===- BlobFormat.cpp - Versioned NNAPI model blob: writer and reader -----===//

#include "nnapi-mlir/NNAPI/BlobFormat.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"
#include "nnapi-mlir/NNAPI/Operations.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

namespace nnapi_mlir::blob {
namespace {

size_t alignTo(size_t value, size_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

class Writer {
public:
  explicit Writer(std::vector<uint8_t> &out) : out(out) {}
  template <typename T> void put(T value) {
    uint8_t raw[sizeof(T)];
    std::memcpy(raw, &value, sizeof(T));
    out.insert(out.end(), raw, raw + sizeof(T));
  }
  void padTo(size_t alignment) { out.resize(alignTo(out.size(), alignment), 0); }

private:
  std::vector<uint8_t> &out;
};

class Reader {
public:
  Reader(const uint8_t *bytes, size_t size) : bytes(bytes), size(size) {}
  template <typename T> T get(size_t offset) const {
    T value;
    std::memcpy(&value, bytes + offset, sizeof(T));
    return value;
  }

private:
  const uint8_t *bytes;
  size_t size;
};

// Layout of the sections after the header, derived from the counts alone.
struct Layout {
  uint64_t operandsOffset, operationsOffset, inputsOffset, outputsOffset,
      poolOffset, dataOffset;
};

Layout computeLayout(uint64_t numOperands, uint64_t numOperations,
                     uint64_t numInputs, uint64_t numOutputs,
                     uint64_t poolCount) {
  Layout l;
  l.operandsOffset = kHeaderSize;
  l.operationsOffset = l.operandsOffset + numOperands * kOperandRecordSize;
  l.inputsOffset = l.operationsOffset + numOperations * kOperationRecordSize;
  l.outputsOffset = l.inputsOffset + numInputs * 4;
  l.poolOffset = l.outputsOffset + numOutputs * 4;
  l.dataOffset = alignTo(l.poolOffset + poolCount * 4, kDataAlignment);
  return l;
}

constexpr size_t kChecksumOffset = 64;

// CRC-32 of the whole blob with the checksum field itself read as zero.
uint32_t blobChecksum(const uint8_t *bytes, size_t size);

} // namespace

size_t elementSize(int32_t t) { return operandTypeBytes(t); }

bool isTensorType(int32_t t) { return isTensorOperandType(t); }

const char *operandTypeName(int32_t t) { return nnapi_mlir::operandTypeName(t); }

bool operandByteSize(const Operand &operand, uint64_t &size) {
  uint64_t n = elementSize(operand.type);
  if (n == 0)
    return false;
  if (!isTensorType(operand.type)) {
    size = n;
    return operand.dims.empty();
  }
  for (uint32_t d : operand.dims) {
    if (d != 0 && n > UINT64_MAX / d)
      return false;
    n *= d;
  }
  size = n;
  return true;
}

uint32_t crc32Update(uint32_t previous, const uint8_t *bytes, size_t size) {
  static uint32_t table[256];
  static bool ready = [] {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k)
        c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      table[i] = c;
    }
    return true;
  }();
  (void)ready;
  uint32_t crc = previous ^ 0xFFFFFFFFu;
  for (size_t i = 0; i < size; ++i)
    crc = table[(crc ^ bytes[i]) & 0xFF] ^ (crc >> 8);
  return crc ^ 0xFFFFFFFFu;
}

uint32_t crc32(const uint8_t *bytes, size_t size) {
  return crc32Update(0, bytes, size);
}

namespace {
uint32_t blobChecksum(const uint8_t *bytes, size_t size) {
  const uint8_t zero[4] = {0, 0, 0, 0};
  uint32_t crc = crc32Update(0, bytes, kChecksumOffset);
  crc = crc32Update(crc, zero, 4);
  return crc32Update(crc, bytes + kChecksumOffset + 4,
                     size - kChecksumOffset - 4);
}
} // namespace

uint32_t Model::addConstant(int32_t type, std::vector<uint32_t> dims,
                            const void *bytes, size_t length) {
  Operand op;
  op.type = type;
  op.dims = std::move(dims);
  op.lifetime = Lifetime::Constant;
  data.resize(alignTo(data.size(), kValueAlignment), 0);
  op.valueOffset = data.size();
  op.valueLength = length;
  const auto *raw = static_cast<const uint8_t *>(bytes);
  data.insert(data.end(), raw, raw + length);
  operands.push_back(std::move(op));
  return static_cast<uint32_t>(operands.size() - 1);
}

uint32_t Model::addOperand(int32_t type, std::vector<uint32_t> dims,
                           Lifetime lifetime) {
  Operand op;
  op.type = type;
  op.dims = std::move(dims);
  op.lifetime = lifetime;
  operands.push_back(std::move(op));
  return static_cast<uint32_t>(operands.size() - 1);
}

uint32_t Model::addInt32(int32_t value) {
  return addConstant(ANEURALNETWORKS_INT32, {}, &value, sizeof(value));
}
uint32_t Model::addFloat32(float value) {
  return addConstant(ANEURALNETWORKS_FLOAT32, {}, &value, sizeof(value));
}
uint32_t Model::addBool(bool value) {
  uint8_t byte = value ? 1 : 0;
  return addConstant(ANEURALNETWORKS_BOOL, {}, &byte, 1);
}
uint32_t Model::addNoValue(int32_t type) {
  return addOperand(type, {}, Lifetime::NoValue);
}

uint32_t Model::addSubgraph(Model model) {
  Operand op;
  op.type = ANEURALNETWORKS_MODEL;
  op.lifetime = Lifetime::Subgraph;
  op.subgraph = static_cast<uint32_t>(subgraphs.size());
  subgraphs.push_back(std::move(model));
  operands.push_back(std::move(op));
  return static_cast<uint32_t>(operands.size() - 1);
}

std::vector<uint8_t> write(const Model &model) {
  // Referenced models are whole blobs after the constants, each
  // kDataAlignment-aligned inside the data section.
  std::vector<std::vector<uint8_t>> nested;
  std::vector<uint64_t> nestedOffset;
  uint64_t dataSize = model.data.size();
  for (const Model &sub : model.subgraphs) {
    nested.push_back(write(sub));
    nestedOffset.push_back(alignTo(dataSize, kDataAlignment));
    dataSize = nestedOffset.back() + nested.back().size();
  }
  std::vector<uint32_t> pool;
  std::vector<uint32_t> dimsStart, operandsStart;
  for (const Operand &op : model.operands) {
    dimsStart.push_back(static_cast<uint32_t>(pool.size()));
    pool.insert(pool.end(), op.dims.begin(), op.dims.end());
    // Per-channel scales follow the dimensions, as float32 bit patterns.
    for (float scale : op.channelScales) {
      uint32_t bits;
      std::memcpy(&bits, &scale, 4);
      pool.push_back(bits);
    }
  }
  for (const Operation &op : model.operations) {
    operandsStart.push_back(static_cast<uint32_t>(pool.size()));
    pool.insert(pool.end(), op.inputs.begin(), op.inputs.end());
    pool.insert(pool.end(), op.outputs.begin(), op.outputs.end());
  }
  Layout l = computeLayout(model.operands.size(), model.operations.size(),
                           model.inputs.size(), model.outputs.size(),
                           pool.size());
  // The magic first, then room for the rest (inserting it into the empty,
  // reserved vector made GCC 12 see a write past a 7-byte region).
  std::vector<uint8_t> out(kMagic, kMagic + 8);
  out.reserve(l.dataOffset + dataSize);
  Writer w(out);
  w.put<uint32_t>(kFormatVersion);
  w.put<uint32_t>(model.featureLevel);
  w.put<uint32_t>(model.operands.size());
  w.put<uint32_t>(model.operations.size());
  w.put<uint32_t>(model.inputs.size());
  w.put<uint32_t>(model.outputs.size());
  w.put<uint32_t>(pool.size());
  w.put<uint32_t>((model.relaxFloat32ToFloat16 ? 1u : 0u) |
                  (model.int8AsUint8 ? 2u : 0u));
  w.put<uint64_t>(l.dataOffset);
  w.put<uint64_t>(dataSize);
  w.put<uint64_t>(l.dataOffset + dataSize);
  w.put<uint32_t>(0); // checksum, patched below
  w.put<uint32_t>(0); // reserved
  for (size_t i = 0; i < model.operands.size(); ++i) {
    const Operand &op = model.operands[i];
    w.put<int32_t>(op.type);
    w.put<uint32_t>(op.dims.size());
    w.put<uint32_t>(dimsStart[i]);
    w.put<float>(op.scale);
    // A per-channel operand's zero point is 0: the field holds its channel
    // dimension.
    w.put<int32_t>(op.type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL
                       ? int32_t(op.channelDim)
                       : op.zeroPoint);
    w.put<uint32_t>(static_cast<uint32_t>(op.lifetime));
    bool sub = op.lifetime == Lifetime::Subgraph;
    w.put<uint64_t>(sub ? nestedOffset[op.subgraph] : op.valueOffset);
    w.put<uint64_t>(sub ? nested[op.subgraph].size() : op.valueLength);
  }
  for (size_t i = 0; i < model.operations.size(); ++i) {
    const Operation &op = model.operations[i];
    w.put<int32_t>(op.opcode);
    w.put<uint32_t>(op.inputs.size());
    w.put<uint32_t>(op.outputs.size());
    w.put<uint32_t>(operandsStart[i]);
  }
  for (uint32_t v : model.inputs)
    w.put<uint32_t>(v);
  for (uint32_t v : model.outputs)
    w.put<uint32_t>(v);
  for (uint32_t v : pool)
    w.put<uint32_t>(v);
  w.padTo(kDataAlignment);
  out.insert(out.end(), model.data.begin(), model.data.end());
  for (size_t k = 0; k < nested.size(); ++k) {
    out.resize(l.dataOffset + nestedOffset[k], 0);
    out.insert(out.end(), nested[k].begin(), nested[k].end());
  }
  sealChecksum(out.data(), out.size());
  return out;
}

void sealChecksum(uint8_t *bytes, size_t size) {
  if (size < kHeaderSize)
    return;
  uint32_t crc = blobChecksum(bytes, size);
  std::memcpy(bytes + kChecksumOffset, &crc, 4);
}

namespace {
bool readModel(const uint8_t *bytes, size_t size, Model &model,
               std::string &error, unsigned depth);
} // namespace

bool read(const uint8_t *bytes, size_t size, Model &model,
          std::string &error) {
  return readModel(bytes, size, model, error, 0);
}

namespace {
bool readModel(const uint8_t *bytes, size_t size, Model &model,
               std::string &error, unsigned depth) {
  auto fail = [&](const std::string &msg) {
    error = msg;
    return false;
  };
  if (!bytes)
    return fail("blob pointer is null");
  if (size < kHeaderSize)
    return fail("blob is truncated: " + std::to_string(size) +
                " bytes, the header alone needs " +
                std::to_string(kHeaderSize));
  if (std::memcmp(bytes, kMagic, 8) != 0)
    return fail("not an NNAPI model blob (bad magic)");
  Reader r(bytes, size);
  uint32_t version = r.get<uint32_t>(8);
  if (version < kOldestReadableVersion || version > kFormatVersion)
    return fail("unsupported blob format version " + std::to_string(version) +
                " (this runtime reads versions " +
                std::to_string(kOldestReadableVersion) + " to " +
                std::to_string(kFormatVersion) + ")");
  uint32_t featureLevel = r.get<uint32_t>(12);
  uint64_t numOperands = r.get<uint32_t>(16);
  uint64_t numOperations = r.get<uint32_t>(20);
  uint64_t numInputs = r.get<uint32_t>(24);
  uint64_t numOutputs = r.get<uint32_t>(28);
  uint64_t poolCount = r.get<uint32_t>(32);
  uint32_t flags = r.get<uint32_t>(36);
  uint64_t dataOffset = r.get<uint64_t>(40);
  uint64_t dataSize = r.get<uint64_t>(48);
  uint64_t totalSize = r.get<uint64_t>(56);
  uint32_t checksum = r.get<uint32_t>(64);
  if (totalSize != size)
    return fail("blob size mismatch: header says " + std::to_string(totalSize) +
                " bytes, got " + std::to_string(size) + " (truncated?)");
  if (blobChecksum(bytes, size) != checksum)
    return fail("blob checksum mismatch: the blob is corrupted");
  if (featureLevel < 1 || featureLevel > 8)
    return fail("invalid feature level " + std::to_string(featureLevel));
  if (flags > 3)
    return fail("unknown blob flags " + std::to_string(flags));
  if ((flags & 2) && version < 5)
    return fail("the int8-as-uint8 flag in a version " +
                std::to_string(version) + " blob");
  Layout l = computeLayout(numOperands, numOperations, numInputs, numOutputs,
                           poolCount);
  if (l.dataOffset != dataOffset || dataOffset > size ||
      dataSize != size - dataOffset)
    return fail("blob section table is inconsistent with its counts");

  model = Model();
  model.featureLevel = featureLevel;
  model.relaxFloat32ToFloat16 = flags & 1;
  model.int8AsUint8 = flags & 2;
  auto poolAt = [&](uint64_t i) { return r.get<uint32_t>(l.poolOffset + 4 * i); };
  model.operands.resize(numOperands);
  for (uint64_t i = 0; i < numOperands; ++i) {
    size_t base = l.operandsOffset + i * kOperandRecordSize;
    Operand &op = model.operands[i];
    std::string where = "operand " + std::to_string(i) + ": ";
    op.type = r.get<int32_t>(base);
    uint32_t rank = r.get<uint32_t>(base + 4);
    uint32_t dimsStart = r.get<uint32_t>(base + 8);
    op.scale = r.get<float>(base + 12);
    op.zeroPoint = r.get<int32_t>(base + 16);
    uint32_t lifetime = r.get<uint32_t>(base + 20);
    op.valueOffset = r.get<uint64_t>(base + 24);
    op.valueLength = r.get<uint64_t>(base + 32);
    bool isModel = op.type == ANEURALNETWORKS_MODEL;
    if (elementSize(op.type) == 0 && !isModel)
      return fail(where + "unknown operand type " + std::to_string(op.type));
    if (rank > kMaxRank || (!isTensorType(op.type) && rank != 0))
      return fail(where + "invalid rank " + std::to_string(rank));
    if (uint64_t(dimsStart) + rank > poolCount)
      return fail(where + "dimensions out of range");
    for (uint32_t d = 0; d < rank; ++d)
      op.dims.push_back(poolAt(dimsStart + d));
    if (op.type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL) {
      if (version < 4)
        return fail(where + "per-channel quantization in a version " +
                    std::to_string(version) + " blob");
      op.channelDim = uint32_t(op.zeroPoint);
      op.zeroPoint = 0;
      if (op.scale != 0 || op.channelDim >= rank)
        return fail(where + "per-channel quantization along dimension " +
                    std::to_string(op.channelDim) + " of a rank-" +
                    std::to_string(rank) +
                    " operand (its scale field must be 0)");
      uint64_t count = op.dims[op.channelDim];
      if (uint64_t(dimsStart) + rank + count > poolCount)
        return fail(where + "channel scales out of range");
      for (uint64_t k = 0; k < count; ++k) {
        uint32_t bits = poolAt(dimsStart + rank + k);
        float scale;
        std::memcpy(&scale, &bits, 4);
        if (!(scale > 0) || !std::isfinite(scale))
          return fail(where + "channel scale " + std::to_string(k) +
                      " is not a positive finite number");
        op.channelScales.push_back(scale);
      }
    }
    // Operands without a value came with version 2, referenced models with
    // version 3.
    uint32_t maxLifetime = version >= 3 ? 5 : version >= 2 ? 4 : 3;
    if (lifetime > maxLifetime)
      return fail(where + "invalid lifetime " + std::to_string(lifetime) +
                  (lifetime == 4   ? " (no value) in a version 1 blob"
                   : lifetime == 5 ? " (referenced model) in a version " +
                                         std::to_string(version) + " blob"
                                   : ""));
    op.lifetime = static_cast<Lifetime>(lifetime);
    if (isModel != (op.lifetime == Lifetime::Subgraph))
      return fail(where + (isModel ? "a MODEL operand must reference a model"
                                   : "only a MODEL operand references a "
                                     "model"));
    if (op.lifetime == Lifetime::Subgraph) {
      if (op.valueOffset % kDataAlignment ||
          op.valueOffset > dataSize ||
          op.valueLength > dataSize - op.valueOffset)
        return fail(where + "referenced model out of range or misaligned");
    } else if (op.lifetime == Lifetime::Constant) {
      uint64_t expected;
      if (!operandByteSize(op, expected))
        return fail(where + "size overflows");
      if (op.valueLength != expected)
        return fail(where + "constant has " + std::to_string(op.valueLength) +
                    " bytes, its type needs " + std::to_string(expected));
      if (op.valueOffset > dataSize || op.valueLength > dataSize - op.valueOffset)
        return fail(where + "constant data out of range");
    } else if (op.valueOffset != 0 || op.valueLength != 0) {
      return fail(where + "non-constant operand carries a value");
    }
  }
  model.operations.resize(numOperations);
  for (uint64_t i = 0; i < numOperations; ++i) {
    size_t base = l.operationsOffset + i * kOperationRecordSize;
    Operation &op = model.operations[i];
    std::string where = "operation " + std::to_string(i) + ": ";
    op.opcode = r.get<int32_t>(base);
    uint64_t nIn = r.get<uint32_t>(base + 4);
    uint64_t nOut = r.get<uint32_t>(base + 8);
    uint64_t start = r.get<uint32_t>(base + 12);
    if (start + nIn + nOut > poolCount)
      return fail(where + "operand list out of range");
    for (uint64_t k = 0; k < nIn + nOut; ++k) {
      uint32_t idx = poolAt(start + k);
      if (idx >= numOperands)
        return fail(where + "operand index " + std::to_string(idx) +
                    " out of range");
      (k < nIn ? op.inputs : op.outputs).push_back(idx);
    }
  }
  auto readList = [&](uint64_t offset, uint64_t count, Lifetime expected,
                      std::vector<uint32_t> &list, const char *what) {
    for (uint64_t i = 0; i < count; ++i) {
      uint32_t idx = r.get<uint32_t>(offset + 4 * i);
      if (idx >= numOperands || model.operands[idx].lifetime != expected)
        return fail(std::string("model ") + what + " " + std::to_string(i) +
                    " names operand " + std::to_string(idx) +
                    ", which is not a model " + what);
      list.push_back(idx);
    }
    return true;
  };
  if (!readList(l.inputsOffset, numInputs, Lifetime::ModelInput, model.inputs,
                "input") ||
      !readList(l.outputsOffset, numOutputs, Lifetime::ModelOutput,
                model.outputs, "output"))
    return false;
  // Referenced models: each a blob of its own after the constants, read
  // once however many operands name it.
  uint64_t constantsEnd = 0, nestedBegin = dataSize;
  std::vector<uint64_t> nestedOffsets;
  for (uint64_t i = 0; i < numOperands; ++i) {
    Operand &op = model.operands[i];
    if (op.lifetime == Lifetime::Constant)
      constantsEnd = std::max(constantsEnd, op.valueOffset + op.valueLength);
    if (op.lifetime != Lifetime::Subgraph)
      continue;
    std::string where = "operand " + std::to_string(i) + ": ";
    nestedBegin = std::min(nestedBegin, op.valueOffset);
    auto seen = std::find(nestedOffsets.begin(), nestedOffsets.end(),
                          op.valueOffset);
    op.subgraph = uint32_t(seen - nestedOffsets.begin());
    if (seen != nestedOffsets.end())
      continue;
    if (depth + 1 > kMaxSubgraphDepth)
      return fail(where + "referenced models nest deeper than " +
                  std::to_string(kMaxSubgraphDepth));
    if (featureLevel < 4)
      return fail(where + "a referenced model needs feature level 4, the "
                          "blob claims " + std::to_string(featureLevel));
    Model sub;
    std::string why;
    if (!readModel(bytes + dataOffset + op.valueOffset, op.valueLength, sub,
                   why, depth + 1))
      return fail(where + "referenced model: " + why);
    if (sub.featureLevel > featureLevel)
      return fail(where + "referenced model needs feature level " +
                  std::to_string(sub.featureLevel) + ", the blob claims " +
                  std::to_string(featureLevel));
    if (sub.relaxFloat32ToFloat16 != model.relaxFloat32ToFloat16)
      return fail(where + "referenced model relaxes float32 differently");
    if (sub.int8AsUint8 != model.int8AsUint8)
      return fail(where + "referenced model writes int8 differently");
    nestedOffsets.push_back(op.valueOffset);
    model.subgraphs.push_back(std::move(sub));
  }
  if (constantsEnd > nestedBegin)
    return fail("constant data overlaps a referenced model");
  model.data.assign(bytes + dataOffset, bytes + dataOffset + nestedBegin);
  return true;
}
} // namespace

namespace {
/// An operand's type as dump() and operationSignature() print it: code,
/// dimensions, quantization.
void printType(std::ostream &os, const Operand &op) {
  os << operandTypeName(op.type);
  if (isTensorType(op.type)) {
    os << " [";
    for (size_t d = 0; d < op.dims.size(); ++d)
      os << (d ? "," : "") << op.dims[d];
    os << "]";
  }
  if (!op.channelScales.empty()) {
    os << " scales(dim " << op.channelDim << ":";
    for (float scale : op.channelScales)
      os << " " << scale;
    os << ")";
  } else if (op.scale != 0 || op.zeroPoint != 0) {
    os << " scale " << op.scale << " zero_point " << op.zeroPoint;
  }
}

/// A scalar constant's value (" = 3"); nothing for other operands.
void printScalarValue(std::ostream &os, const Model &model, const Operand &op) {
  if (op.lifetime != Lifetime::Constant || isTensorType(op.type))
    return;
  const uint8_t *p = model.data.data() + op.valueOffset;
  if (op.type == ANEURALNETWORKS_INT32) {
    int32_t v; std::memcpy(&v, p, 4); os << " = " << v;
  } else if (op.type == ANEURALNETWORKS_FLOAT32) {
    float v; std::memcpy(&v, p, 4); os << " = " << v;
  } else if (op.type == ANEURALNETWORKS_BOOL) {
    os << " = " << (*p ? "true" : "false");
  }
}
} // namespace

std::string operationSignature(const Model &model, const Operation &op) {
  std::ostringstream os;
  if (const char *name = operationName(op.opcode))
    os << name;
  else
    os << "OP_" << op.opcode;
  auto list = [&](const std::vector<uint32_t> &operands) {
    os << "(";
    for (size_t k = 0; k < operands.size(); ++k) {
      const Operand &operand = model.operands[operands[k]];
      os << (k ? ", " : "");
      printType(os, operand);
      if (operand.lifetime == Lifetime::Constant && isTensorType(operand.type))
        os << " const";
      else if (operand.lifetime == Lifetime::NoValue)
        os << " no value";
      else if (operand.lifetime == Lifetime::Subgraph)
        os << " model";
      printScalarValue(os, model, operand);
    }
    os << ")";
  };
  list(op.inputs);
  os << " -> ";
  list(op.outputs);
  return os.str();
}

std::string dump(const Model &model) {
  std::ostringstream os;
  os << "nnapi-blob version " << kFormatVersion << " feature_level "
     << model.featureLevel << (model.relaxFloat32ToFloat16 ? " relaxed" : "")
     << (model.int8AsUint8 ? " int8_as_uint8" : "") << "\n";
  os << "operands " << model.operands.size() << "\n";
  for (size_t i = 0; i < model.operands.size(); ++i) {
    const Operand &op = model.operands[i];
    os << "  %" << i << " ";
    printType(os, op);
    switch (op.lifetime) {
    case Lifetime::Temporary: break;
    case Lifetime::ModelInput: os << " input"; break;
    case Lifetime::ModelOutput: os << " output"; break;
    case Lifetime::NoValue: os << " no value"; break;
    case Lifetime::Subgraph: os << " model #" << op.subgraph; break;
    case Lifetime::Constant:
      if (isTensorType(op.type))
        os << " const(" << op.valueLength << " bytes @" << op.valueOffset << ")";
      else
        printScalarValue(os, model, op);
      break;
    }
    os << "\n";
  }
  os << "operations " << model.operations.size() << "\n";
  for (const Operation &op : model.operations) {
    const char *name = operationName(op.opcode);
    os << "  ";
    for (size_t k = 0; k < op.outputs.size(); ++k)
      os << (k ? ", " : "") << "%" << op.outputs[k];
    os << " = ";
    if (name)
      os << name;
    else
      os << "OP_" << op.opcode;
    os << "(";
    for (size_t k = 0; k < op.inputs.size(); ++k)
      os << (k ? ", " : "") << "%" << op.inputs[k];
    os << ")\n";
  }
  auto list = [&](const char *what, const std::vector<uint32_t> &v) {
    os << what;
    for (uint32_t i : v)
      os << " %" << i;
    os << "\n";
  };
  list("inputs", model.inputs);
  list("outputs", model.outputs);
  os << "data " << model.data.size() << " bytes\n";
  for (size_t k = 0; k < model.subgraphs.size(); ++k) {
    os << "model #" << k << ":\n";
    std::istringstream lines(dump(model.subgraphs[k]));
    for (std::string line; std::getline(lines, line);)
      os << "  " << line << "\n";
  }
  return os.str();
}

} // namespace nnapi_mlir::blob
