//===- RunFile.cpp - A measurement run and its samples file ---------------===//

#include "RunFile.h"

#include "ProfileDevice.h"
#include "Probes.h"

#include "nnapi-mlir/NNAPI/Operations.h"

#include "llvm/Support/JSON.h"

#include <cmath>
#include <optional>

namespace nnapi_mlir::profiling {

std::string runToJSON(const Run &run) {
  std::string s = "{\n  \"format\": \"nnapi-profile-device-samples-1\",\n";
  s += "  \"device\": " + jsonString(run.device) +
       ",\n  \"version\": " + jsonString(run.version) +
       ",\n  \"device_type\": " + jsonString(run.deviceType) +
       ",\n  \"feature_level\": " + std::to_string(run.featureLevel) +
       ",\n  \"cpu\": " + jsonString(run.cpu) +
       ",\n  \"date\": " + jsonString(run.date) +
       ",\n  \"sizes\": " + std::to_string(run.sizes) + ",\n  \"types\": [";
  for (size_t i = 0; i < run.types.size(); ++i)
    s += std::string(i ? ", " : "") + "\"" + typeName(run.types[i]) + "\"";
  s += "],\n  \"operations\": [";
  for (size_t i = 0; i < run.operations.size(); ++i)
    s += std::string(i ? ", " : "") + "\"" + run.operations[i] + "\"";
  s += "],\n  \"measurements\": [\n";
  for (size_t i = 0; i < run.measurements.size(); ++i) {
    const Measurement &m = run.measurements[i];
    s += "    {\"operation\": \"" + m.operation + "\", \"type\": \"" +
         typeName(m.type) + "\", \"size\": " + std::to_string(m.size) +
         ", \"side\": \"" + m.side + "\"";
    if (!m.model.empty())
      s += ", \"model\": \"" + m.model + "\"";
    if (!m.signature.empty())
      s += ", \"signature\": " + jsonString(m.signature);
    if (!m.file.empty())
      s += ", \"file\": " + jsonString(m.file);
    if (!m.failure.empty())
      s += ", \"failure\": " + jsonString(m.failure);
    if (m.threads != 1)
      s += ", \"threads\": " + std::to_string(m.threads);
    s += ", \"macs\": " + formatExact(m.macs) +
         ", \"elements\": " + formatExact(m.elements) +
         ", \"inputs\": " + std::to_string(m.ioCount[0]) +
         ", \"input_bytes\": " + std::to_string(m.ioBytes[0]) +
         ", \"outputs\": " + std::to_string(m.ioCount[1]) +
         ", \"output_bytes\": " + std::to_string(m.ioBytes[1]) +
         ", \"us\": " + formatExact(m.us) +
         ", \"runs\": " + std::to_string(m.runs) + "}" +
         (i + 1 < run.measurements.size() ? "," : "") + "\n";
  }
  return s + "  ]\n}\n";
}

bool runFromJSON(llvm::StringRef text, Run &run, std::string &error) {
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  if (!parsed) {
    error = "invalid JSON: " + llvm::toString(parsed.takeError());
    return false;
  }
  const llvm::json::Object *root = parsed->getAsObject();
  auto str = [&](const llvm::json::Object *o, llvm::StringRef key,
                 std::string &out, const std::string &where) {
    std::optional<llvm::StringRef> v = o ? o->getString(key) : std::nullopt;
    if (!v) {
      error = where + "'" + key.str() + "' must be a string";
      return false;
    }
    out = v->str();
    return true;
  };
  auto num = [&](const llvm::json::Object *o, llvm::StringRef key, double &out,
                 const std::string &where) {
    std::optional<double> v = o ? o->getNumber(key) : std::nullopt;
    if (!v || !std::isfinite(*v) || *v < 0) {
      error = where + "'" + key.str() + "' must be a non-negative number";
      return false;
    }
    out = *v;
    return true;
  };
  std::string format;
  if (!str(root, "format", format, "") ||
      format != "nnapi-profile-device-samples-1") {
    error = "not nnapi-profile-device samples ('format' must be "
            "\"nnapi-profile-device-samples-1\")";
    return false;
  }
  double level = 0, sizes = 0;
  if (!str(root, "device", run.device, "") ||
      !str(root, "version", run.version, "") ||
      !str(root, "device_type", run.deviceType, "") ||
      !str(root, "cpu", run.cpu, "") || !str(root, "date", run.date, "") ||
      !num(root, "feature_level", level, "") || !num(root, "sizes", sizes, ""))
    return false;
  if (level < 1 || level > 8 || sizes < 1 || sizes > kNumSizes) {
    error = "'feature_level' must be 1 to 8 and 'sizes' 1 to " +
            std::to_string(kNumSizes);
    return false;
  }
  run.featureLevel = unsigned(level);
  run.sizes = unsigned(sizes);
  auto typeOf = [](llvm::StringRef name, profile::DataType &type) {
    for (unsigned t = 0; t < profile::kNumDataTypes; ++t)
      if (name == typeName(profile::DataType(t))) {
        type = profile::DataType(t);
        return true;
      }
    return false;
  };
  const llvm::json::Array *types = root->getArray("types");
  const llvm::json::Array *ops = root->getArray("operations");
  const llvm::json::Array *list = root->getArray("measurements");
  if (!types || !ops || !list) {
    error = "'types', 'operations' and 'measurements' must be arrays";
    return false;
  }
  for (const llvm::json::Value &v : *types) {
    profile::DataType type;
    std::optional<llvm::StringRef> name = v.getAsString();
    if (!name || !typeOf(*name, type)) {
      error = "'types' holds an unknown type";
      return false;
    }
    run.types.push_back(type);
  }
  for (const llvm::json::Value &v : *ops) {
    std::optional<llvm::StringRef> name = v.getAsString();
    if (!name || nnapi_mlir::operationCode(*name) < 0) {
      error = "'operations' holds an unknown NNAPI operation";
      return false;
    }
    run.operations.push_back(name->str());
  }
  if (run.types.empty()) {
    error = "'types' is empty";
    return false;
  }
  for (size_t i = 0; i < list->size(); ++i) {
    const llvm::json::Object *o = (*list)[i].getAsObject();
    std::string where = "measurements[" + std::to_string(i) + "]: ";
    Measurement m;
    std::string type;
    double size, inputs, inBytes, outputs, outBytes, runs;
    if (!str(o, "operation", m.operation, where) ||
        !str(o, "type", type, where) || !num(o, "size", size, where) ||
        !str(o, "side", m.side, where) || !num(o, "macs", m.macs, where) ||
        !num(o, "elements", m.elements, where) ||
        !num(o, "inputs", inputs, where) ||
        !num(o, "input_bytes", inBytes, where) ||
        !num(o, "outputs", outputs, where) ||
        !num(o, "output_bytes", outBytes, where) ||
        !num(o, "us", m.us, where) || !num(o, "runs", runs, where))
      return false;
    if (!typeOf(type, m.type) || (m.side != "nnapi" && m.side != "host") ||
        size >= run.sizes) {
      error = where + "unknown type, side or size";
      return false;
    }
    if (std::optional<llvm::StringRef> model = o->getString("model"))
      m.model = model->str();
    if (std::optional<llvm::StringRef> signature = o->getString("signature"))
      m.signature = signature->str();
    if ((m.operation == kUnitRecord) == m.signature.empty()) {
      error = where + "a '" + kUnitRecord +
              "' record needs a signature, and only it";
      return false;
    }
    if (std::optional<llvm::StringRef> file = o->getString("file"))
      m.file = file->str();
    if (std::optional<llvm::StringRef> failure = o->getString("failure"))
      m.failure = failure->str();
    if (std::optional<int64_t> threads = o->getInteger("threads")) {
      if (*threads < 2 || *threads > 256) {
        error = where + "'threads' must be 2..256";
        return false;
      }
      m.threads = unsigned(*threads);
    }
    m.size = unsigned(size);
    m.ioCount[0] = unsigned(inputs);
    m.ioCount[1] = unsigned(outputs);
    m.ioBytes[0] = uint64_t(inBytes);
    m.ioBytes[1] = uint64_t(outBytes);
    m.runs = unsigned(runs);
    run.measurements.push_back(m);
  }
  return true;
}

} // namespace nnapi_mlir::profiling
