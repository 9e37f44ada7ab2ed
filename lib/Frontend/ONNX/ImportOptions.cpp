//===- ImportOptions.cpp - The ONNX importer's command-line forms ---------===//
//
// --input-value and --specialize-value as nnapi-compile takes them, parsed
// into ONNXImportOptions (--input-shape, which TFLite takes too, is the
// compiler's: nnapi::parseInputShape).
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Frontend/ONNX/ONNXImporter.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using llvm::SmallVector;
using llvm::StringRef;

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
