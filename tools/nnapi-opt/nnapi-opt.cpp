//===- nnapi-opt.cpp - mlir-opt with nnapi-mlir's dialects and passes -----===//

#include "nnapi-mlir/Pipelines/Registration.h"

#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::nnapi::registerCompilerDialects(registry);
  mlir::nnapi::registerAllNNAPIPasses();
  mlir::nnapi::registerUpstreamPassesUsedByPipelines();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "nnapi-mlir optimizer driver\n", registry));
}
