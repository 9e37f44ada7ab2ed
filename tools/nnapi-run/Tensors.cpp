//===- Tensors.cpp - nnapi-run's view of a model's inputs and outputs -----===//

#include "Tensors.h"

#include "nnapi-mlir/Support/Half.h"

#include <cstdio>
#include <cstring>

using namespace nnapi_mlir;

namespace nnapi_run {

int usageError(const std::string &msg) {
  std::fprintf(stderr, "nnapi-run: error: %s\n", msg.c_str());
  return 2;
}

/// The model's signature (Model.h) as nnapi-run's specs.
Signature signatureOf(const nnapi_rt_model *model) {
  Signature sig;
  sig.partitions = int(nnapi_rt_model_num_partitions(model));
  auto spec = [](const nnapi_rt_tensor_info &info) {
    TensorSpec t;
    t.name = info.name;
    t.dtype = info.dtype;
    t.dims.assign(info.dims, info.dims + info.rank);
    t.elementSize = size_t(info.elementBytes);
    t.byteSize = size_t(info.bytes);
    return t;
  };
  nnapi_rt_tensor_info info;
  for (int64_t i = 0; i < nnapi_rt_model_num_inputs(model); ++i)
    if (nnapi_rt_model_input(model, i, &info) == NNAPI_RT_OK)
      sig.inputs.push_back(spec(info));
  for (int64_t i = 0; i < nnapi_rt_model_num_outputs(model); ++i)
    if (nnapi_rt_model_output(model, i, &info) == NNAPI_RT_OK)
      sig.outputs.push_back(spec(info));
  return sig;
}

std::string shapeString(const std::vector<int64_t> &dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? "," : "") + (dims[i] < 0 ? "?" : std::to_string(dims[i]));
  return s + "]";
}

double toDouble(const TensorSpec &t, const uint8_t *p) {
  if (t.dtype == "f64") {
    double d;
    std::memcpy(&d, p, 8);
    return d;
  }
  if (t.dtype == "f32") {
    float f;
    std::memcpy(&f, p, 4);
    return f;
  }
  if (t.dtype == "f16" || t.dtype == "bf16") {
    uint16_t h;
    std::memcpy(&h, p, 2);
    return t.dtype == "f16" ? halfToFloat(h) : bfloat16ToFloat(h);
  }
  if (t.dtype == "i64") {
    int64_t i;
    std::memcpy(&i, p, 8);
    return double(i);
  }
  if (t.dtype == "i32") {
    int32_t i;
    std::memcpy(&i, p, 4);
    return double(i);
  }
  if (t.dtype == "i16") {
    int16_t i;
    std::memcpy(&i, p, 2);
    return double(i);
  }
  if (t.dtype == "i1")
    return *p ? 1.0 : 0.0;
  if (t.dtype[0] == 'u') {
    uint64_t u = 0;
    std::memcpy(&u, p, t.elementBytes()); // little-endian
    return double(u);
  }
  return double(int8_t(*p));
}

/// A tensor's name for a message or an output line: control characters
/// escaped (\n, \t, \xHH), so that any name stays on its line.
std::string printable(const std::string &name) {
  std::string out;
  for (unsigned char c : name) {
    if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out;
}

/// A tensor of `spec` with floats drawn uniformly from [-1, 1) (other
/// types zero).
std::vector<uint8_t> randomTensor(const TensorSpec &spec,
                                  std::mt19937_64 &rng) {
  std::vector<uint8_t> data(spec.bytes());
  size_t n = spec.bytes() / spec.elementBytes();
  for (size_t k = 0; k < n; ++k) {
    // Portable: the top 24 bits of a mt19937_64 draw, mapped to [-1, 1).
    float f = float(rng() >> 40) / float(1 << 24) * 2.0f - 1.0f;
    if (spec.dtype == "f32")
      std::memcpy(&data[4 * k], &f, 4);
    else if (spec.dtype == "f64") {
      double d = f;
      std::memcpy(&data[8 * k], &d, 8);
    } else if (spec.dtype == "f16" || spec.dtype == "bf16") {
      uint16_t h = spec.dtype == "f16" ? floatToHalf(f) : floatToBFloat16(f);
      std::memcpy(&data[2 * k], &h, 2);
    }
  }
  return data;
}

} // namespace nnapi_run
