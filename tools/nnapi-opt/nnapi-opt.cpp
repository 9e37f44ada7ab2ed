//===- nnapi-opt.cpp - mlir-opt with the nnapi dialect and passes ---------===//

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::nnapi::NNAPIDialect, mlir::func::FuncDialect,
                  mlir::tosa::TosaDialect, mlir::arith::ArithDialect>();
  return mlir::asMainReturnCode(mlir::MlirOptMain(argc, argv, "nnapi-mlir optimizer\n",
                                            registry));
}
