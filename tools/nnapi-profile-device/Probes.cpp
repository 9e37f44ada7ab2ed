//===- Probes.cpp - One-operation models that measure a device -----------===//

#include "Probes.h"

#include "llvm/ADT/APFloat.h"

#include <cfloat>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>

using namespace nnapi_mlir;
using namespace nnapi_mlir::profiling;

namespace nnapi_mlir::profiling {

using Shape = std::vector<int64_t>;

/// A TOSA function @main under construction: inputs, random constants and
/// ops, each value's type remembered so that ops are written from their
/// operands' names alone.
class ModelText {
public:
  explicit ModelText(profile::DataType type)
      : elem(type == profile::DataType::Float16 ? "f16" : "f32") {}

  /// tensor<AxBxE>, E the model's float type unless given.
  std::string type(const Shape &shape, const std::string &e = "") const {
    std::string s = "tensor<";
    for (int64_t d : shape)
      s += std::to_string(d) + "x";
    return s + (e.empty() ? elem : e) + ">";
  }

  std::string input(const Shape &shape, const std::string &e = "") {
    std::string name = "%a" + std::to_string(args.size());
    args.push_back(name + ": " + type(shape, e));
    types[name] = type(shape, e);
    return name;
  }

  /// Random normal values * `scale` + `offset` in the model's float type.
  std::string constant(const Shape &shape, double scale = 0.5,
                       double offset = 0) {
    std::normal_distribution<double> normal;
    int64_t count = 1;
    for (int64_t d : shape)
      count *= d;
    std::string hex = "0x";
    char digits[16];
    for (int64_t i = 0; i < count; ++i) {
      double v = normal(rng) * scale + offset;
      if (elem == "f16") {
        bool lost;
        llvm::APFloat f(v);
        f.convert(llvm::APFloat::IEEEhalf(),
                  llvm::APFloat::rmNearestTiesToEven, &lost);
        uint16_t bits = uint16_t(f.bitcastToAPInt().getZExtValue());
        std::snprintf(digits, sizeof digits, "%02X%02X", bits & 0xff,
                      bits >> 8);
      } else {
        float f = float(v);
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        std::snprintf(digits, sizeof digits, "%02X%02X%02X%02X", bits & 0xff,
                      (bits >> 8) & 0xff, (bits >> 16) & 0xff, bits >> 24);
      }
      hex += digits;
    }
    return constOp("dense<\"" + hex + "\">", type(shape));
  }

  /// A constant holding one value everywhere.
  std::string splat(const Shape &shape, double value) {
    char text[64];
    std::snprintf(text, sizeof text, "dense<%.9e>", value);
    return constOp(text, type(shape));
  }

  /// An integer constant of `values` (row-major) with element type `e`.
  std::string ints(const Shape &shape, const std::string &e,
                   const std::vector<int64_t> &values) {
    // A bracketed list per row of the last dimension, nested once more for
    // a matrix.
    int64_t cols = shape.back();
    std::string rows;
    for (int64_t r = 0; r * cols < int64_t(values.size()); ++r) {
      rows += r ? ", [" : "[";
      for (int64_t c = 0; c < cols; ++c)
        rows += (c ? ", " : "") + std::to_string(values[r * cols + c]);
      rows += "]";
    }
    if (shape.size() == 2)
      rows = "[" + rows + "]";
    return constOp("dense<" + rows + ">", type(shape, e));
  }

  /// `%v = name operands {attrs} : (operand types) -> result`.
  std::string op(const std::string &name,
                 const std::vector<std::string> &operands,
                 const std::string &attrs, const std::string &result) {
    std::string v = "%v" + std::to_string(next++);
    std::string line = "  " + v + " = " + name;
    std::string sig;
    for (size_t i = 0; i < operands.size(); ++i) {
      line += (i ? ", " : " ") + operands[i];
      sig += (i ? ", " : "") + types.at(operands[i]);
    }
    if (!attrs.empty())
      line += " {" + attrs + "}";
    body += line + " : (" + sig + ") -> " + result + "\n";
    types[v] = result;
    results = {v};
    return v;
  }

  void returns(const std::vector<std::string> &values) { results = values; }

  std::string text() const {
    std::string s = "func.func @main(";
    for (size_t i = 0; i < args.size(); ++i)
      s += (i ? ", " : "") + args[i];
    s += ") -> (";
    std::string ret = "  return";
    for (size_t i = 0; i < results.size(); ++i) {
      s += (i ? ", " : "") + types.at(results[i]);
      ret += (i ? ", " : " ") + results[i];
    }
    ret += " : ";
    for (size_t i = 0; i < results.size(); ++i)
      ret += (i ? ", " : "") + types.at(results[i]);
    return s + ") {\n" + body + ret + "\n}\n";
  }

  const std::string elem;

private:
  std::string constOp(const std::string &value, const std::string &t) {
    std::string v = "%v" + std::to_string(next++);
    body += "  " + v + " = \"tosa.const\"() {value = " + value + " : " + t +
            "} : () -> " + t + "\n";
    types[v] = t;
    return v;
  }

  std::vector<std::string> args;
  std::map<std::string, std::string> types;
  std::string body;
  std::vector<std::string> results;
  unsigned next = 0;
  std::mt19937_64 rng{7};
};

} // namespace nnapi_mlir::profiling

namespace {

/// Feature maps [1, H, W, C] of 256, 8192, 65536 and 262144 elements.
Shape featureMap(unsigned size) {
  static const Shape ladder[kNumSizes] = {
      {1, 4, 4, 16}, {1, 16, 16, 32}, {1, 32, 32, 64}, {1, 64, 64, 64}};
  return ladder[size];
}

std::string attrArray(const Shape &values) {
  std::string s = "array<i64: ";
  for (size_t i = 0; i < values.size(); ++i)
    s += (i ? ", " : "") + std::to_string(values[i]);
  return s + ">";
}

const char *kClampMax = "3.40282347e+38 : f32";

void unary(ModelText &m, unsigned size, const char *name) {
  Shape s = featureMap(size);
  m.op(name, {m.input(s)}, "", m.type(s));
}

void binary(ModelText &m, unsigned size, const char *name,
            const std::string &attrs = "") {
  Shape s = featureMap(size);
  m.op(name, {m.input(s), m.input(s)}, attrs, m.type(s));
}

void compare(ModelText &m, unsigned size, const char *name) {
  Shape s = featureMap(size);
  m.op(name, {m.input(s), m.input(s)}, "", m.type(s, "i1"));
}

std::string clamp(ModelText &m, const std::string &x, const Shape &s,
                  const std::string &lo, const std::string &hi) {
  return m.op("tosa.clamp", {x},
              "min_fp = " + lo + ", max_fp = " + hi +
                  ", min_int = -2147483648 : i64, max_int = 2147483647 : i64",
              m.type(s));
}

void clampProbe(ModelText &m, unsigned size, const char *lo, const char *hi) {
  Shape s = featureMap(size);
  clamp(m, m.input(s), s, lo, hi);
}

std::string mul(ModelText &m, const std::string &a, const std::string &b,
                const Shape &s) {
  return m.op("tosa.mul", {a, b}, "shift = 0 : i8", m.type(s));
}

/// Reduces axis 2 of a feature map.
void reduce(ModelText &m, unsigned size, const char *name) {
  Shape s = featureMap(size), r = s;
  r[2] = 1;
  m.op(name, {m.input(s)}, "axis = 2 : i32", m.type(r));
}

void conv(ModelText &m, unsigned size) {
  // (H, C, K): the MACs per element vary (few channels over a large map,
  // a pointwise convolution, many channels), so the fit can tell them apart.
  static const int64_t ladder[kNumSizes][3] = {
      {4, 8, 3}, {32, 8, 3}, {16, 32, 1}, {28, 64, 3}};
  auto [h, c, k] = ladder[size];
  Shape s{1, h, h, c};
  std::string w = m.constant({c, k, k, c}, 0.1), b = m.constant({c}, 0.1);
  int64_t p = k / 2;
  m.op("tosa.conv2d", {m.input(s), w, b},
       "dilation = array<i64: 1, 1>, pad = " + attrArray({p, p, p, p}) +
           ", stride = array<i64: 1, 1>",
       m.type(s));
}

void depthwise(ModelText &m, unsigned size) {
  Shape s = featureMap(size);
  int64_t c = s[3];
  std::string w = m.constant({3, 3, c, 1}, 0.1), b = m.constant({c}, 0.1);
  m.op("tosa.depthwise_conv2d", {m.input(s), w, b},
       "dilation = array<i64: 1, 1>, pad = array<i64: 1, 1, 1, 1>, stride = "
       "array<i64: 1, 1>",
       m.type(s));
}

void transposeConv(ModelText &m, unsigned size) {
  static const int64_t ladder[kNumSizes][2] = {
      {4, 8}, {8, 16}, {16, 32}, {28, 32}};
  auto [h, c] = ladder[size];
  Shape out{1, 2 * h, 2 * h, c};
  std::string w = m.constant({c, 2, 2, c}, 0.1), b = m.constant({c}, 0.1);
  m.op("tosa.transpose_conv2d", {m.input({1, h, h, c}), w, b},
       "out_pad = array<i64: 0, 0, 0, 0>, out_shape = " + attrArray(out) +
           ", stride = array<i64: 2, 2>",
       m.type(out));
}

void fullyConnected(ModelText &m, unsigned size) {
  static const int64_t ladder[kNumSizes][3] = {
      {1, 64, 64}, {8, 256, 256}, {1, 1024, 1024}, {64, 512, 512}};
  auto [rows, k, n] = ladder[size];
  std::string w = m.constant({n, k}, 0.05), b = m.constant({n}, 0.1);
  m.op("tosa.fully_connected", {m.input({rows, k}), w, b}, "",
       m.type({rows, n}));
}

void batchMatmul(ModelText &m, unsigned size) {
  static const int64_t ladder[kNumSizes][4] = {
      {1, 8, 32, 32}, {2, 16, 64, 64}, {4, 64, 64, 64}, {1, 128, 256, 128}};
  auto [b, rows, k, n] = ladder[size];
  m.op("tosa.matmul", {m.input({b, rows, k}), m.input({b, k, n})}, "",
       m.type({b, rows, n}));
}

void pool(ModelText &m, unsigned size, bool average) {
  Shape s = featureMap(size), r = s;
  r[1] = (s[1] + 1) / 2;
  r[2] = (s[2] + 1) / 2;
  std::string attrs = "kernel = array<i64: 3, 3>, pad = array<i64: 1, 1, 1, "
                      "1>, stride = array<i64: 2, 2>";
  m.op(average ? "tosa.avg_pool2d" : "tosa.max_pool2d", {m.input(s)},
       average ? "acc_type = f32, " + attrs : attrs, m.type(r));
}

/// 2x upsampling, asymmetric sampling (NNAPI's default).
void resize(ModelText &m, unsigned size, bool bilinear) {
  Shape s = featureMap(size > 0 ? size - 1 : 0), r = s;
  r[1] *= 2;
  r[2] *= 2;
  // TOSA rounds nearest-neighbour coordinates, NNAPI truncates: the same
  // sampling needs a half-pixel offset.
  m.op("tosa.resize", {m.input(s)},
       bilinear ? "scale = array<i64: 2, 1, 2, 1>, offset = array<i64: 0, 0>, "
                  "border = array<i64: 1, 1>, mode = \"BILINEAR\""
                : "scale = array<i64: 4, 2, 4, 2>, offset = array<i64: -2, "
                  "-2>, border = array<i64: 0, 0>, mode = \"NEAREST_NEIGHBOR\"",
       m.type(r));
}

void softmax(ModelText &m, unsigned size) {
  static const int64_t ladder[kNumSizes][2] = {
      {2, 128}, {16, 512}, {64, 1024}, {256, 1024}};
  auto [rows, cols] = ladder[size];
  Shape s{rows, cols}, r{rows, 1};
  std::string x = m.input(s);
  std::string mx = m.op("tosa.reduce_max", {x}, "axis = 1 : i32", m.type(r));
  std::string d = m.op("tosa.sub", {x, mx}, "", m.type(s));
  std::string e = m.op("tosa.exp", {d}, "", m.type(s));
  std::string sum = m.op("tosa.reduce_sum", {e}, "axis = 1 : i32", m.type(r));
  std::string inv = m.op("tosa.reciprocal", {sum}, "", m.type(r));
  mul(m, e, inv, s);
}

/// The spatial mean of a feature map.
void mean(ModelText &m, unsigned size) {
  Shape s = featureMap(size), r1 = s, r2 = s;
  r1[1] = 1;
  r2[1] = r2[2] = 1;
  std::string scale =
      m.splat({1, 1, 1, 1}, 1.0 / double(s[1] * s[2]));
  std::string a = m.op("tosa.reduce_sum", {m.input(s)}, "axis = 1 : i32",
                       m.type(r1));
  std::string b = m.op("tosa.reduce_sum", {a}, "axis = 2 : i32", m.type(r2));
  mul(m, b, scale, r2);
}

void hardSwish(ModelText &m, unsigned size) {
  Shape s = featureMap(size);
  std::string x = m.input(s);
  std::string sixth = m.splat({1, 1, 1, 1}, 1.0 / 6.0);
  std::string half = m.splat({1, 1, 1, 1}, 0.5);
  std::string a = mul(m, x, sixth, s);
  std::string b = m.op("tosa.add", {a, half}, "", m.type(s));
  std::string c = clamp(m, b, s, "0.0 : f32", "1.0 : f32");
  mul(m, x, c, s);
}

void elu(ModelText &m, unsigned size) {
  Shape s = featureMap(size);
  std::string x = m.input(s);
  std::string one = m.splat({1, 1, 1, 1}, 1.0);
  std::string alpha = m.splat({1, 1, 1, 1}, 1.0);
  std::string pos = clamp(m, x, s, "0.0 : f32", kClampMax);
  std::string neg = clamp(m, x, s, "-3.40282347e+38 : f32", "0.0 : f32");
  std::string e = m.op("tosa.exp", {neg}, "", m.type(s));
  std::string d = m.op("tosa.sub", {e, one}, "", m.type(s));
  std::string scaled = mul(m, d, alpha, s);
  m.op("tosa.add", {pos, scaled}, "", m.type(s));
}

void prelu(ModelText &m, unsigned size) {
  Shape s = featureMap(size);
  std::string x = m.input(s);
  std::string slope = m.constant({1, 1, 1, s[3]}, 0.1, 0.2);
  std::string pos = clamp(m, x, s, "0.0 : f32", kClampMax);
  std::string neg = clamp(m, x, s, "-3.40282347e+38 : f32", "0.0 : f32");
  std::string scaled = mul(m, neg, slope, s);
  m.op("tosa.add", {pos, scaled}, "", m.type(s));
}

void transpose(ModelText &m, unsigned size) {
  Shape s = featureMap(size);
  std::string perm = m.ints({4}, "i32", {0, 3, 1, 2});
  m.op("tosa.transpose", {m.input(s), perm}, "",
       m.type({s[0], s[3], s[1], s[2]}));
}

void reshape(ModelText &m, unsigned size) {
  Shape s = featureMap(size);
  Shape r{1, s[1] * s[2], s[3]};
  m.op("tosa.reshape", {m.input(s)}, "new_shape = " + attrArray(r), m.type(r));
}

void concat(ModelText &m, unsigned size) {
  Shape s = featureMap(size), r = s;
  r[3] *= 2;
  m.op("tosa.concat", {m.input(s), m.input(s)}, "axis = 3 : i32", m.type(r));
}

void pad(ModelText &m, unsigned size) {
  Shape s = featureMap(size), r = s;
  r[1] += 2;
  r[2] += 2;
  std::string pads = m.ints({4, 2}, "i64", {0, 0, 1, 1, 1, 1, 0, 0});
  m.op("tosa.pad", {m.input(s), pads}, "", m.type(r));
}

void slice(ModelText &m, unsigned size) {
  Shape s = featureMap(size), r = s;
  r[1] = s[1] / 2;
  m.op("tosa.slice", {m.input(s)},
       "start = " + attrArray({0, s[1] / 4, 0, 0}) + ", size = " + attrArray(r),
       m.type(r));
}

void tile(ModelText &m, unsigned size) {
  Shape s = featureMap(size), r = s;
  r[3] *= 2;
  m.op("tosa.tile", {m.input(s)}, "multiples = array<i64: 1, 1, 1, 2>",
       m.type(r));
}

void reverse(ModelText &m, unsigned size) {
  Shape s = featureMap(size);
  m.op("tosa.reverse", {m.input(s)}, "axis = 2 : i32", m.type(s));
}

void gather(ModelText &m, unsigned size) {
  // (K rows of C values, W gathered): an embedding lookup.
  static const int64_t ladder[kNumSizes][3] = {
      {16, 16, 8}, {64, 64, 64}, {256, 128, 256}, {1024, 128, 1024}};
  auto [k, c, w] = ladder[size];
  std::vector<int64_t> ids(w);
  for (int64_t i = 0; i < w; ++i)
    ids[i] = (i * 7919) % k;
  std::string idx = m.ints({1, w}, "i32", ids);
  m.op("tosa.gather", {m.input({1, k, c}), idx}, "", m.type({1, w, c}));
}

void argmax(ModelText &m, unsigned size) {
  Shape s = featureMap(size), r{s[0], s[1], s[2]};
  m.op("tosa.argmax", {m.input(s)}, "axis = 3 : i32", m.type(r, "i32"));
}

/// float32 <-> float16.
void cast(ModelText &m, unsigned size) {
  Shape s = featureMap(size);
  m.op("tosa.cast", {m.input(s)}, "", m.type(s, m.elem == "f16" ? "f32" : "f16"));
}

void select(ModelText &m, unsigned size) {
  Shape s = featureMap(size);
  std::string c = m.input(s, "i1");
  m.op("tosa.select", {c, m.input(s), m.input(s)}, "", m.type(s));
}

/// x ^ 0.5 becomes SQRT.
void sqrtProbe(ModelText &m, unsigned size) {
  Shape s = featureMap(size);
  std::string x = m.input(s);
  m.op("tosa.pow", {x, m.splat({1, 1, 1, 1}, 0.5)}, "", m.type(s));
}

#define UNARY(NAME, TOSA)                                                      \
  {NAME, [](ModelText &m, unsigned s) { unary(m, s, TOSA); }}
#define BINARY(NAME, TOSA)                                                     \
  {NAME, [](ModelText &m, unsigned s) { binary(m, s, TOSA); }}
#define COMPARE(NAME, TOSA)                                                    \
  {NAME, [](ModelText &m, unsigned s) { compare(m, s, TOSA); }}
#define REDUCE(NAME, TOSA)                                                     \
  {NAME, [](ModelText &m, unsigned s) { reduce(m, s, TOSA); }}

} // namespace

const std::vector<Probe> &nnapi_mlir::profiling::probes() {
  static const std::vector<Probe> table = {
      BINARY("ADD", "tosa.add"),
      {"AVERAGE_POOL_2D", [](ModelText &m, unsigned s) { pool(m, s, true); }},
      {"CONCATENATION", concat},
      {"CONV_2D", conv},
      {"DEPTHWISE_CONV_2D", depthwise},
      UNARY("FLOOR", "tosa.floor"),
      {"FULLY_CONNECTED", fullyConnected},
      UNARY("LOGISTIC", "tosa.sigmoid"),
      {"MAX_POOL_2D", [](ModelText &m, unsigned s) { pool(m, s, false); }},
      {"MUL", [](ModelText &m, unsigned s) { binary(m, s, "tosa.mul",
                                                    "shift = 0 : i8"); }},
      {"RELU",
       [](ModelText &m, unsigned s) { clampProbe(m, s, "0.0 : f32", kClampMax); }},
      {"RELU1", [](ModelText &m, unsigned s) {
         clampProbe(m, s, "-1.0 : f32", "1.0 : f32"); }},
      {"RELU6", [](ModelText &m, unsigned s) {
         clampProbe(m, s, "0.0 : f32", "6.0 : f32"); }},
      {"RESHAPE", reshape},
      {"RESIZE_BILINEAR", [](ModelText &m, unsigned s) { resize(m, s, true); }},
      {"SOFTMAX", softmax},
      UNARY("TANH", "tosa.tanh"),
      UNARY("DIV", "tosa.reciprocal"),
      {"MEAN", mean},
      {"PAD", pad},
      BINARY("SUB", "tosa.sub"),
      {"TRANSPOSE", transpose},
      UNARY("ABS", "tosa.abs"),
      {"ARGMAX", argmax},
      {"CAST", cast},
      COMPARE("EQUAL", "tosa.equal"),
      UNARY("EXP", "tosa.exp"),
      {"GATHER", gather},
      COMPARE("GREATER", "tosa.greater"),
      COMPARE("GREATER_EQUAL", "tosa.greater_equal"),
      UNARY("LOG", "tosa.log"),
      BINARY("MAXIMUM", "tosa.maximum"),
      BINARY("MINIMUM", "tosa.minimum"),
      UNARY("NEG", "tosa.negate"),
      BINARY("POW", "tosa.pow"),
      {"PRELU", prelu},
      REDUCE("REDUCE_MAX", "tosa.reduce_max"),
      REDUCE("REDUCE_MIN", "tosa.reduce_min"),
      REDUCE("REDUCE_PROD", "tosa.reduce_prod"),
      REDUCE("REDUCE_SUM", "tosa.reduce_sum"),
      UNARY("RSQRT", "tosa.rsqrt"),
      {"SELECT", select},
      UNARY("SIN", "tosa.sin"),
      {"SLICE", slice},
      {"SQRT", sqrtProbe},
      {"TILE", tile},
      {"TRANSPOSE_CONV_2D", transposeConv},
      {"RESIZE_NEAREST_NEIGHBOR",
       [](ModelText &m, unsigned s) { resize(m, s, false); }},
      {"ELU", elu},
      {"HARD_SWISH", hardSwish},
      {"BATCH_MATMUL", batchMatmul},
      {"REVERSE", reverse},
  };
  return table;
}

std::string nnapi_mlir::profiling::probeModel(const Probe &probe,
                                              unsigned size,
                                              profile::DataType type) {
  ModelText model(type);
  probe.build(model, size);
  return model.text();
}

int64_t nnapi_mlir::profiling::boundaryElements(unsigned size) {
  int64_t n = 1;
  for (int64_t d : featureMap(size))
    n *= d;
  return n;
}

const char *nnapi_mlir::profiling::boundaryModelName(BoundaryModel which) {
  switch (which) {
  case BoundaryModel::Single:
    return "single";
  case BoundaryModel::Chain:
    return "chain";
  case BoundaryModel::TwoInputs:
    return "two_inputs";
  }
  return "";
}

std::string nnapi_mlir::profiling::boundaryModel(BoundaryModel which,
                                                 unsigned size) {
  ModelText m(profile::DataType::Float32);
  Shape s = featureMap(size);
  std::string x = m.input(s);
  std::string a = m.op(
      "tosa.add", {x, which == BoundaryModel::TwoInputs ? m.input(s) : x}, "",
      m.type(s));
  if (which == BoundaryModel::Chain)
    m.op("tosa.add", {a, a}, "", m.type(s));
  return m.text();
}

std::string nnapi_mlir::profiling::hostCallModel() {
  ModelText m(profile::DataType::Float32);
  std::string x = m.input({1});
  m.op("tosa.add", {x, x}, "", m.type({1}));
  return m.text();
}
