//===- DeviceProfile.cpp - Device profile JSON parser and validation ------===//
//
// A small strict JSON reader (RFC 8259 values, nesting limited so a hostile
// file cannot exhaust the stack) followed by schema checks. Every error names
// a line:column or the key path, e.g. "device_cost.CONV_2D.float32.ns_per_mac".
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/NNAPI/DeviceProfile.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"
#include "nnapi-mlir/NNAPI/Quirks.h"
#include "nnapi-mlir/Support/Files.h"
#include "nnapi-mlir/Support/JsonText.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <utility>
#include <vector>

using namespace nnapi_mlir::profile;
namespace quirks = nnapi_mlir::quirks;

namespace {



//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

struct Json {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Json> array;
  std::vector<std::pair<std::string, Json>> object; ///< In file order.
  int line = 0, column = 0;

  const Json *find(std::string_view key) const {
    for (const auto &[k, v] : object)
      if (k == key)
        return &v;
    return nullptr;
  }
};

class JsonParser {
public:
  explicit JsonParser(std::string_view text) : text(text) {}

  bool parse(Json &out, std::string &error) {
    skipSpace();
    if (!value(out, 0)) {
      error = message;
      return false;
    }
    skipSpace();
    if (pos != text.size()) {
      fail("unexpected text after the JSON value");
      error = message;
      return false;
    }
    return true;
  }

private:
  static constexpr int kMaxDepth = 64;

  bool fail(const std::string &what) {
    if (message.empty()) {
      int line = 1, column = 1;
      for (size_t i = 0; i < pos && i < text.size(); ++i) {
        if (text[i] == '\n') {
          ++line;
          column = 1;
        } else {
          ++column;
        }
      }
      message = "line " + std::to_string(line) + ", column " +
                std::to_string(column) + ": " + what;
    }
    return false;
  }

  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  void position(Json &v) {
    v.line = 1;
    v.column = 1;
    for (size_t i = 0; i < pos; ++i) {
      if (text[i] == '\n') {
        ++v.line;
        v.column = 1;
      } else {
        ++v.column;
      }
    }
  }

  bool literal(std::string_view word) {
    if (text.substr(pos, word.size()) != word)
      return fail("invalid literal");
    pos += word.size();
    return true;
  }

  bool value(Json &v, int depth) {
    if (depth > kMaxDepth)
      return fail("nesting deeper than " + std::to_string(kMaxDepth));
    if (pos >= text.size())
      return fail("unexpected end of input");
    position(v);
    char c = text[pos];
    if (c == '{')
      return object(v, depth);
    if (c == '[')
      return array(v, depth);
    if (c == '"') {
      v.kind = Json::String;
      return string(v.string);
    }
    if (c == 't') {
      v.kind = Json::Bool;
      v.boolean = true;
      return literal("true");
    }
    if (c == 'f') {
      v.kind = Json::Bool;
      return literal("false");
    }
    if (c == 'n')
      return literal("null");
    if (c == '-' || (c >= '0' && c <= '9'))
      return number(v);
    return fail(std::string("unexpected character '") + c + "'");
  }

  bool number(Json &v) {
    size_t start = pos;
    if (text[pos] == '-')
      ++pos;
    auto digits = [&] {
      size_t from = pos;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
        ++pos;
      return pos > from;
    };
    if (pos < text.size() && text[pos] == '0')
      ++pos;
    else if (!digits())
      return fail("invalid number");
    if (pos < text.size() && text[pos] == '.') {
      ++pos;
      if (!digits())
        return fail("invalid number");
    }
    if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
      ++pos;
      if (pos < text.size() && (text[pos] == '+' || text[pos] == '-'))
        ++pos;
      if (!digits())
        return fail("invalid number");
    }
    std::string copy(text.substr(start, pos - start));
    v.kind = Json::Number;
    v.number = std::strtod(copy.c_str(), nullptr);
    if (!std::isfinite(v.number))
      return fail("number out of range");
    return true;
  }

  static void appendUtf8(std::string &s, uint32_t cp) {
    if (cp < 0x80) {
      s += char(cp);
    } else if (cp < 0x800) {
      s += char(0xC0 | (cp >> 6));
      s += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      s += char(0xE0 | (cp >> 12));
      s += char(0x80 | ((cp >> 6) & 0x3F));
      s += char(0x80 | (cp & 0x3F));
    } else {
      s += char(0xF0 | (cp >> 18));
      s += char(0x80 | ((cp >> 12) & 0x3F));
      s += char(0x80 | ((cp >> 6) & 0x3F));
      s += char(0x80 | (cp & 0x3F));
    }
  }

  bool hex4(uint32_t &cp) {
    if (pos + 4 > text.size())
      return fail("truncated \\u escape");
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      char h = text[pos++];
      cp <<= 4;
      if (h >= '0' && h <= '9')
        cp |= uint32_t(h - '0');
      else if (h >= 'a' && h <= 'f')
        cp |= uint32_t(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        cp |= uint32_t(h - 'A' + 10);
      else
        return fail("invalid \\u escape");
    }
    return true;
  }

  bool string(std::string &out) {
    ++pos; // opening quote
    while (true) {
      if (pos >= text.size())
        return fail("unterminated string");
      unsigned char c = static_cast<unsigned char>(text[pos]);
      if (c == '"') {
        ++pos;
        return true;
      }
      if (c < 0x20)
        return fail("control character in string");
      if (c != '\\') {
        out += char(c);
        ++pos;
        continue;
      }
      if (++pos >= text.size())
        return fail("unterminated string");
      char e = text[pos++];
      switch (e) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        uint32_t cp;
        if (!hex4(cp))
          return false;
        if (cp >= 0xD800 && cp < 0xDC00) {
          uint32_t low;
          if (text.substr(pos, 2) != "\\u")
            return fail("unpaired surrogate in \\u escape");
          pos += 2;
          if (!hex4(low))
            return false;
          if (low < 0xDC00 || low > 0xDFFF)
            return fail("unpaired surrogate in \\u escape");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        } else if (cp >= 0xDC00 && cp < 0xE000) {
          return fail("unpaired surrogate in \\u escape");
        }
        appendUtf8(out, cp);
        break;
      }
      default:
        --pos;
        return fail(std::string("invalid escape '\\") + e + "'");
      }
    }
  }

  bool array(Json &v, int depth) {
    v.kind = Json::Array;
    ++pos;
    skipSpace();
    if (pos < text.size() && text[pos] == ']') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      v.array.emplace_back();
      if (!value(v.array.back(), depth + 1))
        return false;
      skipSpace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == ']') {
        ++pos;
        return true;
      }
      return fail("expected ',' or ']'");
    }
  }

  bool object(Json &v, int depth) {
    v.kind = Json::Object;
    ++pos;
    skipSpace();
    if (pos < text.size() && text[pos] == '}') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      if (pos >= text.size() || text[pos] != '"')
        return fail("expected a string key");
      std::string key;
      if (!string(key))
        return false;
      if (v.find(key))
        return fail("duplicate key '" + key + "'");
      skipSpace();
      if (pos >= text.size() || text[pos] != ':')
        return fail("expected ':'");
      ++pos;
      skipSpace();
      v.object.emplace_back(std::move(key), Json());
      if (!value(v.object.back().second, depth + 1))
        return false;
      skipSpace();
      if (pos < text.size() && text[pos] == ',') {
        ++pos;
        continue;
      }
      if (pos < text.size() && text[pos] == '}') {
        ++pos;
        return true;
      }
      return fail("expected ',' or '}'");
    }
  }

  std::string_view text;
  size_t pos = 0;
  std::string message;
};

//===----------------------------------------------------------------------===//
// Schema
//===----------------------------------------------------------------------===//

class Reader {
public:
  std::string error;

  bool fail(const std::string &path, const Json &at, const std::string &what) {
    if (error.empty())
      error = path + " (line " + std::to_string(at.line) + "): " + what;
    return false;
  }

  bool expectObject(const std::string &path, const Json &v,
                    std::initializer_list<const char *> allowed) {
    if (v.kind != Json::Object)
      return fail(path, v, "must be an object");
    if (allowed.size() == 0)
      return true;
    for (const auto &[key, value] : v.object) {
      bool known = false;
      for (const char *a : allowed)
        known |= key == a;
      if (!known) {
        std::string list;
        for (const char *a : allowed)
          list += (list.empty() ? "" : ", ") + std::string(a);
        // Top-level keys are named on their own.
        return fail(join(path == "profile" ? "" : path, key), value,
                    "unknown key (expected one of: " + list + ")");
      }
    }
    return true;
  }

  static std::string join(const std::string &path, const std::string &key) {
    return path.empty() ? key : path + "." + key;
  }

  bool number(const std::string &path, const Json &v, double &out,
              double lo = 0, double hi = 1e12) {
    if (v.kind != Json::Number || v.number < lo || v.number > hi)
      return fail(path, v,
                  "must be a number in [" + fmt(lo) + ", " + fmt(hi) + "]");
    out = v.number;
    return true;
  }

  static std::string fmt(double d) {
    std::ostringstream os;
    os << d;
    return os.str();
  }

  bool costModel(const std::string &path, const Json &v, CostModel &out) {
    if (!expectObject(path, v, {"fixed_us", "ns_per_mac", "ns_per_element"}))
      return false;
    struct Field {
      const char *key;
      double *dst;
    } fields[] = {{"fixed_us", &out.fixedUs},
                  {"ns_per_mac", &out.nsPerMac},
                  {"ns_per_element", &out.nsPerElement}};
    for (const Field &f : fields) {
      const Json *x = v.find(f.key);
      if (!x)
        return fail(path, v, std::string("missing '") + f.key + "'");
      if (!number(join(path, f.key), *x, *f.dst))
        return false;
    }
    return true;
  }

  static int dataType(std::string_view name) {
    for (unsigned t = 0; t < kNumDataTypes; ++t)
      if (name == dataTypeName(DataType(t)))
        return int(t);
    return -1;
  }

  /// {"default": {float32: cost, float16: cost, int8: cost}, "OP": {...}}
  bool costTable(const std::string &path, const Json &v, CostTable &out) {
    if (!expectObject(path, v, {}))
      return false;
    const Json *defaults = v.find("default");
    if (!defaults)
      return fail(path, v, "missing 'default'");
    for (const auto &[key, entry] : v.object) {
      std::string entryPath = join(path, key);
      bool isDefault = key == "default";
      int32_t opcode = isDefault ? -1 : nnapi_mlir::operationCode(key);
      if (!isDefault && opcode < 0)
        return fail(entryPath, entry, "unknown NNAPI operation '" + key + "'");
      if (!expectObject(entryPath, entry, {"float32", "float16", "int8"}))
        return false;
      for (unsigned t = 0; t < kNumDataTypes; ++t) {
        const char *typeName = dataTypeName(DataType(t));
        const Json *c = entry.find(typeName);
        if (!c) {
          if (isDefault)
            return fail(entryPath, entry,
                        std::string("missing '") + typeName + "'");
          continue;
        }
        CostModel model;
        if (!costModel(join(entryPath, typeName), *c, model))
          return false;
        if (isDefault)
          out.defaults[t] = model;
        else
          out.perOperation[opcode][t] = model;
      }
    }
    return true;
  }

  bool operations(const Json &v, std::map<int32_t, unsigned> &out) {
    if (!expectObject("operations", v, {}))
      return false;
    if (v.object.empty())
      return fail("operations", v, "must list at least one operation");
    for (const auto &[key, types] : v.object) {
      std::string path = join("operations", key);
      int32_t opcode = key == "*" ? -1 : nnapi_mlir::operationCode(key);
      if (key != "*" && opcode < 0)
        return fail(path, types, "unknown NNAPI operation '" + key + "'");
      if (types.kind != Json::Array)
        return fail(path, types,
                    "must be an array of types (float32, float16, int8)");
      unsigned mask = 0;
      for (const Json &t : types.array) {
        int type = t.kind == Json::String ? dataType(t.string) : -1;
        if (type < 0)
          return fail(path, t,
                      "unknown type (expected float32, float16 or int8)");
        mask |= 1u << type;
      }
      out[opcode] = mask;
    }
    return true;
  }

  /// {"SIGNATURE": {"host_us": x, "device_us": y}, ...}, at least one of
  /// the two per entry.
  bool measured(const Json &v,
                std::map<std::string, MeasuredUnit, std::less<>> &out) {
    if (!expectObject("measured", v, {}))
      return false;
    for (const auto &[key, entry] : v.object) {
      std::string path = join("measured", key);
      if (key.empty())
        return fail("measured", entry, "an empty signature");
      if (!expectObject(path, entry, {"host_us", "device_us"}))
        return false;
      if (entry.object.empty())
        return fail(path, entry, "needs 'host_us' or 'device_us'");
      MeasuredUnit unit;
      double us;
      if (const Json *h = entry.find("host_us")) {
        if (!number(join(path, "host_us"), *h, us))
          return false;
        unit.hostUs = us;
      }
      if (const Json *d = entry.find("device_us")) {
        if (!number(join(path, "device_us"), *d, us))
          return false;
        unit.deviceUs = us;
      }
      out[key] = unit;
    }
    return true;
  }

  bool stringValue(const std::string &path, const Json &v, std::string &out,
              bool nonEmpty) {
    if (v.kind != Json::String || (nonEmpty && v.string.empty()))
      return fail(path, v,
                  nonEmpty ? "must be a non-empty string" : "must be a string");
    out = v.string;
    return true;
  }

  /// [{"signature": S, "error": E, "found_by": F}, ...]; only the
  /// signature is required.
  bool quirkList(const std::string &path, const Json &v,
                 std::vector<quirks::Quirk> &out) {
    if (v.kind != Json::Array)
      return fail(path, v, "must be an array of quirks");
    for (size_t i = 0; i < v.array.size(); ++i) {
      const Json &entry = v.array[i];
      std::string at = path + "[" + std::to_string(i) + "]";
      if (!expectObject(at, entry, {"signature", "error", "found_by"}))
        return false;
      const Json *signature = entry.find("signature");
      if (!signature)
        return fail(at, entry, "missing 'signature'");
      quirks::Quirk q;
      if (!stringValue(join(at, "signature"), *signature, q.signature, true))
        return false;
      if (const Json *e = entry.find("error"))
        if (!stringValue(join(at, "error"), *e, q.error, false))
          return false;
      if (const Json *f = entry.find("found_by"))
        if (!stringValue(join(at, "found_by"), *f, q.foundBy, false))
          return false;
      out.push_back(std::move(q));
    }
    return true;
  }

  bool record(const Json &root, quirks::Record &r) {
    if (!expectObject("record", root, {"format", "devices"}))
      return false;
    const Json *format = root.find("format");
    if (!format || format->kind != Json::String ||
        format->string != quirks::kFormat)
      return fail("format", format ? *format : root,
                  std::string("must be \"") + quirks::kFormat + "\"");
    const Json *devices = root.find("devices");
    if (!devices)
      return fail("record", root, "missing 'devices'");
    if (devices->kind != Json::Array)
      return fail("devices", *devices, "must be an array");
    for (size_t i = 0; i < devices->array.size(); ++i) {
      const Json &d = devices->array[i];
      std::string at = "devices[" + std::to_string(i) + "]";
      if (!expectObject(at, d, {"name", "version", "quirks"}))
        return false;
      quirks::DeviceQuirks device;
      for (const char *key : {"name", "version", "quirks"})
        if (!d.find(key))
          return fail(at, d, std::string("missing '") + key + "'");
      if (!stringValue(join(at, "name"), *d.find("name"), device.name, true) ||
          !stringValue(join(at, "version"), *d.find("version"), device.version,
                  false) ||
          !quirkList(join(at, "quirks"), *d.find("quirks"), device.quirks))
        return false;
      r.devices.push_back(std::move(device));
    }
    return true;
  }

  /// {"host": p, "device": p} at `path`.
  bool parallel(const std::string &path, const Json &v,
                ThreadScaling::Parallel &out) {
    if (!expectObject(path, v, {"host", "device"}))
      return false;
    for (const char *key : {"host", "device"})
      if (!v.find(key))
        return fail(path, v, std::string("missing '") + key + "'");
    return number(join(path, "host"), *v.find("host"), out.host, 0, 1) &&
           number(join(path, "device"), *v.find("device"), out.device, 0, 1);
  }

  /// {"threads": N, "host": p, "device": p, "operations": {OP: {"host": p,
  /// "device": p}, ...}}: the parallel fractions fitted at N threads, the
  /// sides' and, optionally, per operation.
  bool threadScaling(const Json &v, ThreadScaling &out) {
    if (!expectObject("thread_scaling", v,
                      {"threads", "host", "device", "operations"}))
      return false;
    if (!v.find("threads"))
      return fail("thread_scaling", v, "missing 'threads'");
    double threads;
    if (!number("thread_scaling.threads", *v.find("threads"), threads, 2,
                256))
      return false;
    if (threads != std::floor(threads))
      return fail("thread_scaling.threads", *v.find("threads"),
                  "must be an integer");
    out.measuredThreads = unsigned(threads);
    Json sides = v;
    sides.object.erase(
        std::remove_if(sides.object.begin(), sides.object.end(),
                       [](const auto &kv) {
                         return kv.first == "threads" ||
                                kv.first == "operations";
                       }),
        sides.object.end());
    if (!parallel("thread_scaling", sides, out.defaults))
      return false;
    const Json *ops = v.find("operations");
    if (!ops)
      return true;
    if (!expectObject("thread_scaling.operations", *ops, {}))
      return false;
    for (const auto &[key, value] : ops->object) {
      std::string path = join("thread_scaling.operations", key);
      int32_t opcode = nnapi_mlir::operationCode(key);
      if (opcode < 0)
        return fail(path, value, "unknown NNAPI operation '" + key + "'");
      if (!parallel(path, value, out.perOperation[opcode]))
        return false;
    }
    return true;
  }

  bool profile(const Json &root, DeviceProfile &p) {
    if (!expectObject("profile", root,
                      {"format", "name", "description", "feature_level",
                       "device_type", "operations", "device_cost",
                       "host_cost", "transfer", "partition_overhead_us",
                       "thread_scaling", "measured", "quirks"}))
      return false;
    for (const char *required :
         {"format", "name", "feature_level", "operations", "device_cost",
          "host_cost", "transfer", "partition_overhead_us"})
      if (!root.find(required))
        return fail("profile", root,
                    std::string("missing required key '") + required + "'");
    const Json &format = *root.find("format");
    if (format.kind != Json::String ||
        format.string != "nnapi-mlir-device-profile-1")
      return fail("format", format,
                  "must be \"nnapi-mlir-device-profile-1\"");
    const Json &name = *root.find("name");
    if (name.kind != Json::String || name.string.empty() ||
        name.string.size() > 64)
      return fail("name", name, "must be a string of 1..64 characters");
    p.name = name.string;
    if (const Json *d = root.find("description")) {
      if (d->kind != Json::String)
        return fail("description", *d, "must be a string");
      p.description = d->string;
    }
    double level;
    if (!number("feature_level", *root.find("feature_level"), level, 1, 8))
      return false;
    if (level != std::floor(level))
      return fail("feature_level", *root.find("feature_level"),
                  "must be an integer");
    p.featureLevel = unsigned(level);
    if (const Json *t = root.find("device_type")) {
      static const char *const kTypes[] = {"other", "cpu", "gpu",
                                           "accelerator"};
      p.deviceType = 0;
      for (int i = 0; i < 4; ++i)
        if (t->kind == Json::String && t->string == kTypes[i])
          p.deviceType = i + 1;
      if (!p.deviceType)
        return fail("device_type", *t,
                    "must be one of other, cpu, gpu, accelerator");
    }
    if (!operations(*root.find("operations"), p.operations) ||
        !costTable("device_cost", *root.find("device_cost"), p.device) ||
        !costTable("host_cost", *root.find("host_cost"), p.host))
      return false;
    if (const Json *m = root.find("measured"))
      if (!measured(*m, p.measured))
        return false;
    if (const Json *q = root.find("quirks"))
      if (!quirkList("quirks", *q, p.quirks))
        return false;
    if (const Json *t = root.find("thread_scaling"))
      if (!threadScaling(*t, p.threadScaling))
        return false;
    const Json &transfer = *root.find("transfer");
    if (!expectObject("transfer", transfer, {"fixed_us", "ns_per_byte"}))
      return false;
    for (const char *key : {"fixed_us", "ns_per_byte"})
      if (!transfer.find(key))
        return fail("transfer", transfer,
                    std::string("missing '") + key + "'");
    return number("transfer.fixed_us", *transfer.find("fixed_us"),
                  p.transferFixedUs) &&
           number("transfer.ns_per_byte", *transfer.find("ns_per_byte"),
                  p.transferNsPerByte) &&
           number("partition_overhead_us",
                  *root.find("partition_overhead_us"), p.partitionOverheadUs);
  }
};

} // namespace

double nnapi_mlir::profile::ThreadScaling::fit(double ratio,
                                               unsigned threads) {
  // ratio = (1 - p) + p / threads
  if (threads <= 1 || !(ratio == ratio))
    return 0;
  double p = (1 - ratio) / (1 - 1.0 / threads);
  return std::min(1.0, std::max(0.0, p));
}

const char *nnapi_mlir::profile::dataTypeName(DataType type) {
  switch (type) {
  case DataType::Float32:
    return "float32";
  case DataType::Float16:
    return "float16";
  case DataType::Int8:
    return "int8";
  }
  return "?";
}

nnapi_mlir::profile::DataType
nnapi_mlir::profile::dataTypeOfOperandCode(int32_t code) {
  switch (code) {
  case ANEURALNETWORKS_TENSOR_FLOAT16:
  case ANEURALNETWORKS_FLOAT16:
    return DataType::Float16;
  case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
  case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED:
  case ANEURALNETWORKS_TENSOR_QUANT8_SYMM:
  case ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL:
    return DataType::Int8;
  default:
    return DataType::Float32;
  }
}

const CostModel &CostTable::lookup(int32_t opcode, DataType type) const {
  auto it = perOperation.find(opcode);
  if (it != perOperation.end() && it->second[unsigned(type)])
    return *it->second[unsigned(type)];
  return defaults[unsigned(type)];
}

bool DeviceProfile::supports(int32_t opcode, DataType type) const {
  auto it = operations.find(opcode);
  if (it == operations.end())
    it = operations.find(-1);
  return it != operations.end() && (it->second >> unsigned(type)) & 1u;
}

/// Parses `json` and reads it with `read` into `out` (left alone on error).
template <typename T>
static bool parseWith(std::string_view json,
                      bool (Reader::*read)(const Json &, T &), T &out,
                      std::string &error) {
  Json root;
  JsonParser parser(json);
  if (!parser.parse(root, error)) {
    error = "invalid JSON: " + error;
    return false;
  }
  Reader reader;
  T result;
  if (!(reader.*read)(root, result)) {
    error = reader.error;
    return false;
  }
  out = std::move(result);
  return true;
}

bool nnapi_mlir::profile::parseDeviceProfile(std::string_view json,
                                             DeviceProfile &profile,
                                             std::string &error) {
  return parseWith(json, &Reader::profile, profile, error);
}

/// Shipped profiles are about 10 KB; a measured one with every operation
/// signature stays far below this.
static constexpr uint64_t kMaxProfileBytes = 4u << 20;

/// Reads a JSON file of at most kMaxProfileBytes into `text`; false with
/// `missing` set when there is no file, or with `error` (naming the path and
/// `what`) when it cannot be read.
static bool readSmallFile(const std::string &path, const char *what,
                          std::string &text, bool &missing,
                          std::string &error) {
  // A profile or record is kilobytes of JSON; the cap keeps a path to
  // /dev/zero or a FIFO from hanging the caller (docs/reliability.md).
  nnapi_mlir::ReadOptions options;
  options.maxBytes = kMaxProfileBytes;
  std::string why;
  missing = false;
  switch (nnapi_mlir::readFile(path, options, text, why)) {
  case nnapi_mlir::ReadStatus::Missing:
    missing = true;
    return false;
  case nnapi_mlir::ReadStatus::Refused:
    error = path + ": cannot read " + what + ": the file " + why;
    return false;
  case nnapi_mlir::ReadStatus::Ok:
    break;
  }
  return true;
}

bool nnapi_mlir::profile::loadDeviceProfile(const std::string &path,
                                            DeviceProfile &profile,
                                            std::string &error) {
  std::string text;
  bool missing;
  if (!readSmallFile(path, "device profile", text, missing, error)) {
    if (missing)
      error = path + ": cannot open device profile";
    return false;
  }
  if (!parseDeviceProfile(text, profile, error)) {
    error = path + ": " + error;
    return false;
  }
  return true;
}


//===----------------------------------------------------------------------===//
// Quirks records
//===----------------------------------------------------------------------===//

const quirks::Quirk *quirks::Record::find(std::string_view name,
                                          std::string_view version,
                                          std::string_view signature) const {
  for (const DeviceQuirks &d : devices)
    if (d.name == name && d.version == version)
      for (const Quirk &q : d.quirks)
        if (q.signature == signature)
          return &q;
  return nullptr;
}

bool quirks::Record::add(const std::string &name, const std::string &version,
                         Quirk quirk) {
  if (find(name, version, quirk.signature))
    return false;
  for (DeviceQuirks &d : devices)
    if (d.name == name && d.version == version) {
      d.quirks.push_back(std::move(quirk));
      return true;
    }
  devices.push_back({name, version, {std::move(quirk)}});
  return true;
}

bool quirks::parse(std::string_view json, Record &record, std::string &error) {
  return parseWith(json, &Reader::record, record, error);
}

bool quirks::load(const std::string &path, Record &record, std::string &error) {
  std::string text;
  bool missing;
  if (!readSmallFile(path, "quirks record", text, missing, error)) {
    if (!missing)
      return false;
    record = Record();
    return true;
  }
  if (!parse(text, record, error)) {
    error = path + ": " + error;
    return false;
  }
  return true;
}


std::string quirks::write(const Record &record) {
  std::string out = std::string("{\n  \"format\": \"") + kFormat +
                    "\",\n  \"devices\": [";
  for (size_t i = 0; i < record.devices.size(); ++i) {
    const DeviceQuirks &d = record.devices[i];
    out += std::string(i ? "," : "") + "\n    {\"name\": " + jsonQuoted(d.name) +
           ", \"version\": " + jsonQuoted(d.version) + ", \"quirks\": [";
    for (size_t k = 0; k < d.quirks.size(); ++k) {
      const Quirk &q = d.quirks[k];
      out += std::string(k ? "," : "") +
             "\n      {\"signature\": " + jsonQuoted(q.signature) +
             ", \"error\": " + jsonQuoted(q.error) +
             ", \"found_by\": " + jsonQuoted(q.foundBy) + "}";
    }
    out += d.quirks.empty() ? "]}" : "\n    ]}";
  }
  out += record.devices.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

bool quirks::save(const std::string &path, const Record &record,
                  std::string &error) {
  std::string text = write(record);
  if (!writeFileAtomically(path, text.data(), text.size(), error)) {
    error = path + ": cannot write quirks record: " + error;
    return false;
  }
  return true;
}

bool quirks::append(const std::string &path, const std::string &name,
                    const std::string &version, const Quirk &quirk,
                    std::string &error) {
  Record record;
  if (!load(path, record, error))
    return false;
  if (!record.add(name, version, quirk))
    return true;
  return save(path, record, error);
}
