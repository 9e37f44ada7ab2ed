//===- nnapi-opt.cpp - mlir-opt with nnapi-mlir's dialects and passes -----===//

#include "nnapi-mlir/Codegen/Passes.h"
#include "nnapi-mlir/Conversion/Passes.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Dialect/NNAPI/Transforms/Passes.h"
#include "nnapi-mlir/Partition/Passes.h"
#include "nnapi-mlir/Pipelines/Pipelines.h"
#include "nnapi-mlir/Pipelines/Registration.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::nnapi::registerCompilerDialects(registry);
  mlir::nnapi::registerNNAPITransformsPasses();
  mlir::nnapi::registerNNAPIPartitionPasses();
  mlir::nnapi::registerNNAPIConversionPasses();
  mlir::nnapi::registerNNAPICodegenPasses();
  mlir::nnapi::registerUpstreamPassesUsedByPipelines();
  mlir::nnapi::registerNNAPIPipelines();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "nnapi-mlir optimizer driver\n", registry));
}
