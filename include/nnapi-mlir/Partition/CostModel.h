//===- CostModel.h - The work an op does, for the partitioner ---*- C++ -*-===//
#ifndef NNAPI_MLIR_PARTITION_COSTMODEL_H
#define NNAPI_MLIR_PARTITION_COSTMODEL_H

#include "mlir/IR/Operation.h"

namespace mlir::nnapi {

/// The work an op does, for cost models: multiply-accumulates (convolutions,
/// fully connected, matmul, pooling windows) and the elements of all its
/// tensor operands and results.
struct OpWork {
  double macs = 0;
  double elements = 0;
};
OpWork estimateWork(Operation *op);

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_PARTITION_COSTMODEL_H
