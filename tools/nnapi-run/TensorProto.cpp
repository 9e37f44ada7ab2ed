//===- TensorProto.cpp - Read ONNX TensorProto files ----------------------===//

#include "TensorProto.h"
#include "Npy.h"

#include <cstring>

namespace nnapi_mlir {
namespace {

class Reader {
public:
  Reader(const uint8_t *p, size_t n) : p(p), end(p + n) {}
  bool done() const { return p == end; }
  bool varint(uint64_t &v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p == end)
        return false;
      uint8_t b = *p++;
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80))
        return true;
    }
    return false;
  }
  bool bytes(size_t n, const uint8_t *&out) {
    if (size_t(end - p) < n)
      return false;
    out = p;
    p += n;
    return true;
  }
  bool skip(uint32_t wire) {
    uint64_t v;
    const uint8_t *ignored;
    switch (wire) {
    case 0:
      return varint(v);
    case 1:
      return bytes(8, ignored);
    case 2:
      return varint(v) && bytes(v, ignored);
    case 5:
      return bytes(4, ignored);
    default:
      return false;
    }
  }

private:
  const uint8_t *p, *end;
};

/// Reads a repeated scalar field, packed (wire type 2) or not.
template <typename F>
bool repeated(Reader &r, uint32_t wire, uint32_t scalarWire, F &&onValue) {
  auto one = [&](Reader &in) -> bool {
    if (scalarWire == 0) {
      uint64_t v;
      return in.varint(v) && (onValue(v), true);
    }
    const uint8_t *b;
    size_t n = scalarWire == 5 ? 4 : 8;
    if (!in.bytes(n, b))
      return false;
    uint64_t v = 0;
    std::memcpy(&v, b, n);
    onValue(v);
    return true;
  };
  if (wire == scalarWire)
    return one(r);
  if (wire != 2)
    return false;
  uint64_t len;
  const uint8_t *b;
  if (!r.varint(len) || !r.bytes(len, b))
    return false;
  Reader packed(b, len);
  while (!packed.done())
    if (!one(packed))
      return false;
  return true;
}

} // namespace

bool parseTensorProto(const std::vector<uint8_t> &bytes, ProtoTensor &t,
                      std::string &error) {
  Reader r(bytes.data(), bytes.size());
  int64_t dataType = 0;
  std::vector<uint64_t> ints;   // int32_data / int64_data / uint64_data
  std::vector<uint32_t> floats; // float_data bits
  std::vector<uint64_t> doubles;
  std::vector<uint8_t> raw;
  bool hasRaw = false;
  while (!r.done()) {
    uint64_t key;
    if (!r.varint(key)) {
      error = "truncated TensorProto";
      return false;
    }
    uint32_t field = uint32_t(key >> 3), wire = uint32_t(key & 7);
    bool ok = true;
    switch (field) {
    case 1:
      ok = repeated(r, wire, 0,
                    [&](uint64_t v) { t.dims.push_back(int64_t(v)); });
      break;
    case 2: {
      uint64_t v;
      ok = wire == 0 && r.varint(v);
      dataType = int64_t(v);
      break;
    }
    case 4:
      ok = repeated(r, wire, 5,
                    [&](uint64_t v) { floats.push_back(uint32_t(v)); });
      break;
    case 5:
    case 7:
    case 11:
      ok = repeated(r, wire, 0, [&](uint64_t v) { ints.push_back(v); });
      break;
    case 10:
      ok = repeated(r, wire, 1, [&](uint64_t v) { doubles.push_back(v); });
      break;
    case 8:
    case 9: {
      uint64_t len;
      const uint8_t *b;
      ok = wire == 2 && r.varint(len) && r.bytes(len, b);
      if (ok && field == 8)
        t.name.assign(reinterpret_cast<const char *>(b), len);
      if (ok && field == 9) {
        raw.assign(b, b + len);
        hasRaw = true;
      }
      break;
    }
    case 14: {
      uint64_t v;
      ok = wire == 0 && r.varint(v);
      if (ok && v == 1) {
        error = "tensor data is stored externally, which is not supported";
        return false;
      }
      break;
    }
    default:
      ok = r.skip(wire);
    }
    if (!ok) {
      error = "malformed or truncated TensorProto (field " +
              std::to_string(field) + ")";
      return false;
    }
  }
  // ONNX element type code -> the model ABI's name and width.
  static constexpr struct {
    int64_t code;
    const char *dtype;
    size_t width;
  } kTypes[] = {{1, "f32", 4}, {10, "f16", 2}, {3, "i8", 1},   {5, "i16", 2},
                {6, "i32", 4}, {7, "i64", 8},  {9, "i1", 1},   {11, "f64", 8},
                {2, "u8", 1},  {4, "u16", 2},  {12, "u32", 4}, {13, "u64", 8},
                {16, "bf16", 2}};
  size_t width = 0;
  for (const auto &type : kTypes)
    if (type.code == dataType) {
      t.dtype = type.dtype;
      width = type.width;
    }
  if (!width) {
    error = "TensorProto element type " + std::to_string(dataType) +
            " is not supported";
    return false;
  }
  size_t count = 1;
  for (int64_t d : t.dims) {
    if (d < 0 || (d > 0 && count > (size_t(1) << 40) / size_t(d))) {
      error = "TensorProto has an invalid shape";
      return false;
    }
    count *= size_t(d);
  }
  // The payload must match the shape before anything the shape sizes is
  // allocated: a few bytes can claim 2^36 elements.
  const char *field = nullptr;
  size_t have = 0, want = count;
  if (hasRaw) {
    field = "raw_data";
    have = raw.size();
    want = count * width;
  } else if (dataType == 11) {
    field = "double_data";
    have = doubles.size();
  } else if (dataType == 1) {
    field = "float_data";
    have = floats.size();
  } else {
    field = "integer data";
    have = ints.size();
  }
  if (have != want) {
    error =
        std::string("TensorProto ") + field + " size does not match its shape";
    return false;
  }
  t.data.assign(count * width, 0);
  if (count == 0)
    return true;
  if (dataType == 11 && !hasRaw) {
    std::memcpy(t.data.data(), doubles.data(), count * 8);
  } else if (hasRaw) {
    t.data = raw;
  } else if (dataType == 1) {
    std::memcpy(t.data.data(), floats.data(), count * 4);
  } else {
    for (size_t i = 0; i < count; ++i)
      std::memcpy(&t.data[i * width], &ints[i], width); // little-endian
  }
  return true;
}

bool readTensorProto(const std::string &path, ProtoTensor &t,
                     std::string &error) {
  std::vector<uint8_t> bytes;
  if (!readBinaryFile(path, bytes, error))
    return false;
  if (!parseTensorProto(bytes, t, error)) {
    error = path + ": " + error;
    return false;
  }
  return true;
}

} // namespace nnapi_mlir
