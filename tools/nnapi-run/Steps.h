//===- Steps.h - nnapi-run's options and the steps of a run -----*- C++ -*-===//
//
// What nnapi-run's command line asks for (the usage is nnapi-run.cpp's
// banner), and the steps of a run kept in their own files: compiling a
// source model first (Compile.cpp) and gathering the inputs and the
// expected outputs (Inputs.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_TOOLS_NNAPI_RUN_STEPS_H
#define NNAPI_MLIR_TOOLS_NNAPI_RUN_STEPS_H

#include "Tensors.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nnapi_run {

/// nnapi-run's command line.
struct RunOptions {
  std::string modelPath, outputDir, library, testData;
  std::vector<std::string> inputFiles, compileArgs;
  bool toleranceGiven = false;
  uint64_t seed = 0;
  bool hostOnly = false, compareHost = false, expectNNAPI = false;
  bool compareFloat64 = false;
  Tolerance tolerance;
  int bench = 0;
  bool profileRuns = false, listDevices = false;
  int validateSets = -1; // --validate: extra random input sets
  std::string validationOut;
  /// Runtime options (Runtime.h), applied in this order once parsed.
  std::vector<std::pair<std::string, std::string>> runtimeOptions;
};

//===----------------------------------------------------------------------===//
// Compiling a source model (Compile.cpp)
//===----------------------------------------------------------------------===//

/// What compileSources made: the temporary directories of the compiled
/// model and of its float64 copy, and the copy's path ("" when none).
struct CompiledModels {
  std::string tempDir, float64Dir, float64Path;
};

/// An .onnx, .tflite or .mlir model at `o.modelPath` is compiled with the
/// nnapi-compile next to this program (for --test-data's shapes and values,
/// and with --compile-arg), and `o.modelPath` becomes the library; with
/// --compare-float64, an .onnx model's float64 copy too. 0, or the exit
/// status after an error.
int compileSources(RunOptions &o, CompiledModels &compiled);

/// Removes a temporary directory of compileSources ("": none).
void removeTempDir(const std::string &dir);

//===----------------------------------------------------------------------===//
// Inputs and expected outputs (Inputs.cpp)
//===----------------------------------------------------------------------===//

/// --test-data: inputs from input_<i>.pb, expected outputs from
/// output_<i>.pb, each checked against the model's signature. 0, or the
/// exit status after an error.
int readTestData(const std::string &testData, const Signature &sig,
                 std::vector<nnapi_mlir::ProtoTensor> &testInputs,
                 std::vector<nnapi_mlir::ProtoTensor> &testOutputs);

/// Every input of `sig` and its dimensions: --test-data's, an --input
/// file's, or random from --seed. 0, or the exit status after an error.
int prepareInputs(const RunOptions &o, const nnapi_rt_model *model,
                  const Signature &sig,
                  const std::vector<nnapi_mlir::ProtoTensor> &testInputs,
                  std::vector<std::vector<uint8_t>> &inputs,
                  std::vector<std::vector<int64_t>> &inputDims);

/// That the expected outputs have the shapes the model computes for these
/// inputs (`sig` once its dimensions are resolved). 0, or the exit status
/// after an error.
int checkTestOutputShapes(const std::string &testData, const Signature &sig,
                          const std::vector<nnapi_mlir::ProtoTensor> &expected);

} // namespace nnapi_run

#endif // NNAPI_MLIR_TOOLS_NNAPI_RUN_STEPS_H
