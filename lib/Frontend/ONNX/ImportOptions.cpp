//===- ImportOptions.cpp - The ONNX importer's command-line forms ---------===//
//
// --input-shape, --input-value and --specialize-value as nnapi-compile and
// nnapi-run take them, parsed into ONNXImportOptions.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Frontend/ONNX/ONNXImporter.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <climits>

using namespace mlir;
using llvm::SmallVector;
using llvm::StringRef;

bool mlir::nnapi::parseONNXInputShape(StringRef spec,
                                      ONNXImportOptions &options,
                                      std::string &error) {
  // Names may hold '=' (any characters do), dimensions do not.
  auto [name, dims] = spec.rsplit('=');
  if (name.empty() || !spec.contains('=')) {
    error = "--input-shape '" + spec.str() +
            "' is not NAME=D0xD1x... (e.g. input=1x3x224x224)";
    return false;
  }
  std::vector<int64_t> shape, ranges;
  bool ranged = false;
  if (!dims.empty()) {
    SmallVector<StringRef> parts;
    dims.split(parts, 'x');
    for (StringRef p : parts) {
      int64_t d, low, high;
      // A dynamic dimension: "?" (any size) or "[low..high]".
      if (p == "?") {
        shape.push_back(-1);
        ranges.insert(ranges.end(), {int64_t(1), int64_t(INT32_MAX)});
        continue;
      }
      if (p.starts_with("[") && p.ends_with("]")) {
        auto [lo, hi] = p.drop_front().drop_back().split("..");
        if (lo.getAsInteger(10, low) || hi.getAsInteger(10, high) ||
            low < 1 || low > high || high > INT32_MAX) {
          error = "--input-shape '" + spec.str() + "': '" + p.str() +
                  "' is not a range [LOW..HIGH] with 1 <= LOW <= HIGH <= "
                  "2^31-1";
          return false;
        }
        shape.push_back(-1);
        ranges.insert(ranges.end(), {low, high});
        ranged = true;
        continue;
      }
      if (p.getAsInteger(10, d) || d < 0 || d > INT32_MAX) {
        error = "--input-shape '" + spec.str() + "': '" + p.str() +
                "' is not a dimension (an integer in [0, 2^31-1], ? or "
                "[LOW..HIGH])";
        return false;
      }
      shape.push_back(d);
    }
  }
  if (!options.inputShapes.emplace(name.str(), shape).second) {
    error = "--input-shape gives input '" + name.str() + "' twice";
    return false;
  }
  // Only declared ranges are recorded ("?" alone stays "?").
  if (ranged)
    options.inputDimRanges[name.str()] = ranges;
  else if (!ranges.empty())
    options.inputDimRanges[name.str()] = {};
  return true;
}

/// Reads "NAME=FILE.pb" for `flag` into `into`.
static bool parseValueSpec(StringRef flag, StringRef spec,
                           std::map<std::string, std::string> &into,
                           std::string &error) {
  // Names and paths may both hold '=': the split is at the first '=' after
  // which a file exists (else the first, whose file then cannot be read).
  auto [name, path] = spec.split('=');
  for (size_t at = spec.find('='); at != StringRef::npos;
       at = spec.find('=', at + 1))
    if (llvm::sys::fs::exists(spec.drop_front(at + 1))) {
      name = spec.take_front(at);
      path = spec.drop_front(at + 1);
      break;
    }
  if (name.empty() || path.empty()) {
    error = flag.str() + " '" + spec.str() + "' is not NAME=FILE.pb";
    return false;
  }
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer) {
    error = flag.str() + ": cannot read '" + path.str() +
            "': " + buffer.getError().message();
    return false;
  }
  if (!into.emplace(name.str(), (*buffer)->getBuffer().str()).second) {
    error = flag.str() + " gives input '" + name.str() + "' twice";
    return false;
  }
  return true;
}

bool mlir::nnapi::parseONNXInputValue(StringRef spec,
                                      ONNXImportOptions &options,
                                      std::string &error) {
  return parseValueSpec("--input-value", spec, options.inputValues, error);
}

bool mlir::nnapi::parseONNXSpecializeValue(StringRef spec,
                                           ONNXImportOptions &options,
                                           std::string &error) {
  return parseValueSpec("--specialize-value", spec, options.specializeValues,
                        error);
}
