//===- Compile.cpp - nnapi-run's compilation of a source model ------------===//
//
// nnapi-run also takes an .onnx, .tflite or .mlir model: the nnapi-compile
// next to it compiles it into a temporary directory first, for the shapes
// and values of --test-data's inputs when the model leaves them open.
//
//===----------------------------------------------------------------------===//

#include "Steps.h"

#include "TensorProto.h"

#include <cstdio>
#include <cstring>

#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

using namespace nnapi_mlir;

namespace nnapi_run {

namespace {

/// Compiles an .onnx, .tflite or .mlir model with the nnapi-compile installed
/// next to this program; returns the shared library's path or "" after an
/// error.
std::string compileModel(const std::string &model,
                         const std::vector<std::string> &extraArgs,
                         std::string &tempDir) {
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n <= 0) {
    std::fprintf(stderr, "nnapi-run: error: cannot locate nnapi-compile\n");
    return "";
  }
  self[n] = 0;
  std::string dir(self);
  dir = dir.substr(0, dir.rfind('/'));
  std::string compiler = dir + "/nnapi-compile";
  char pattern[] = "/tmp/nnapi-run-XXXXXX";
  if (!mkdtemp(pattern)) {
    std::fprintf(stderr, "nnapi-run: error: cannot create a temporary "
                         "directory\n");
    return "";
  }
  tempDir = pattern;
  std::string output = tempDir + "/model.so";
  std::vector<std::string> args = {compiler, model, "-o", output};
  args.insert(args.end(), extraArgs.begin(), extraArgs.end());
  std::vector<char *> argv;
  for (std::string &a : args)
    argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid;
  if (posix_spawn(&pid, compiler.c_str(), nullptr, nullptr, argv.data(),
                  environ) != 0) {
    std::fprintf(stderr, "nnapi-run: error: cannot run '%s'\n",
                 compiler.c_str());
    return "";
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "nnapi-run: error: compiling '%s' failed\n",
                 model.c_str());
    return "";
  }
  return output;
}

/// The values given to `option` ("--input-shape", ...) in `compileArgs`,
/// as "--option=VALUE" or "--option VALUE".
std::vector<std::string>
compileArgValues(const std::vector<std::string> &compileArgs,
                 const std::string &option) {
  std::vector<std::string> values;
  for (size_t k = 0; k < compileArgs.size(); ++k) {
    const std::string &a = compileArgs[k];
    if (a.rfind(option + "=", 0) == 0)
      values.push_back(a.substr(option.size() + 1));
    else if (a == option && k + 1 < compileArgs.size())
      values.push_back(compileArgs[++k]);
  }
  return values;
}

/// Whether one of `specs` ("NAME=...") names `name`.
bool namesInput(const std::vector<std::string> &specs,
                const std::string &name) {
  for (const std::string &spec : specs)
    if (spec.rfind(name + "=", 0) == 0)
      return true;
  return false;
}

/// For each input_<i>.pb in `testData` that names its input and is not
/// already given in `compileArgs`: `--input-shape NAME=DIMS`, so an ONNX
/// model with symbolic dimensions is compiled for the test's shapes (a
/// static input whose shape differs is then nnapi-compile's clear error),
/// and `--specialize-value NAME=FILE`, so an input that decides a shape
/// (a Reshape's shape, TopK's K) is compiled for the test's value; the
/// compiled model checks it on every run. A file that cannot be read is
/// left for the checks after loading to report.
std::vector<std::string>
testDataCompileArgs(const std::string &testData,
                    const std::vector<std::string> &compileArgs) {
  std::vector<std::string> shaped =
      compileArgValues(compileArgs, "--input-shape");
  std::vector<std::string> bound =
      compileArgValues(compileArgs, "--input-value");
  for (std::string &v : compileArgValues(compileArgs, "--specialize-value"))
    bound.push_back(std::move(v));
  std::vector<std::string> args;
  for (size_t i = 0;; ++i) {
    std::string path = testData + "/input_" + std::to_string(i) + ".pb";
    struct stat st;
    if (stat(path.c_str(), &st) != 0)
      break;
    ProtoTensor t;
    std::string error;
    if (!readTensorProto(path, t, error) || t.name.empty())
      continue;
    if (!namesInput(shaped, t.name) && !namesInput(bound, t.name)) {
      std::string dims;
      for (size_t d = 0; d < t.dims.size(); ++d)
        dims += (d ? "x" : "") + std::to_string(t.dims[d]);
      args.push_back("--input-shape=" + t.name + "=" + dims);
    }
    if (!namesInput(bound, t.name))
      args.push_back("--specialize-value=" + t.name + "=" + path);
  }
  return args;
}

} // namespace

void removeTempDir(const std::string &dir) {
  if (dir.empty())
    return;
  unlink((dir + "/model.so").c_str());
  rmdir(dir.c_str());
}

int compileSources(RunOptions &o, CompiledModels &compiled) {
  auto endsWith = [](const std::string &s, const char *suffix) {
    size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
  };
  if (endsWith(o.modelPath, ".onnx") || endsWith(o.modelPath, ".mlir") ||
      endsWith(o.modelPath, ".tflite")) {
    if (endsWith(o.modelPath, ".onnx") && !o.testData.empty())
      for (std::string &a : testDataCompileArgs(o.testData, o.compileArgs))
        o.compileArgs.push_back(std::move(a));
    std::string source = o.modelPath;
    o.modelPath = compileModel(source, o.compileArgs, compiled.tempDir);
    if (o.modelPath.empty()) {
      removeTempDir(compiled.tempDir);
      return 2;
    }
    if (o.compareFloat64 && endsWith(source, ".onnx")) {
      std::vector<std::string> args = o.compileArgs;
      args.push_back("--float64");
      args.push_back("--host-only");
      compiled.float64Path = compileModel(source, args, compiled.float64Dir);
      if (compiled.float64Path.empty()) {
        removeTempDir(compiled.tempDir);
        removeTempDir(compiled.float64Dir);
        return 2;
      }
    }
  }
  if (o.compareFloat64 && compiled.float64Path.empty())
    return usageError("--compare-float64 needs an .onnx model: nnapi-run "
                      "compiles a float64 copy of it");
  return 0;
}

} // namespace nnapi_run
