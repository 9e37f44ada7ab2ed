//===- CostModel.h - The work an op does, for the partitioner ---*- C++ -*-===//
#ifndef NNAPI_MLIR_PARTITION_COSTMODEL_H
#define NNAPI_MLIR_PARTITION_COSTMODEL_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Operation.h"

#include <string>

namespace mlir::nnapi {

/// The work an op does, for cost models: multiply-accumulates (convolutions,
/// fully connected, matmul, pooling windows) and the elements of all its
/// tensor operands and results.
struct OpWork {
  double macs = 0;
  double elements = 0;
};
/// A dynamic dimension counts as `dynamicSize` elements (0: as none).
OpWork estimateWork(Operation *op, double dynamicSize = 0);

/// The elements of a tensor type, a dynamic dimension counted as
/// `dynamicSize`; 0 for anything else.
double tensorElements(Type type, double dynamicSize);

/// The size a dynamic dimension of `func` counts as in costs: its typical
/// size where one is given (`nnapi.dim_typical`), else the geometric mean of
/// its declared range (`nnapi.dim_ranges`), or kUnboundedDynamicSize for a
/// dimension without an upper bound; the largest of its arguments' dynamic
/// dimensions.
double typicalDynamicSize(Operation *func);
constexpr double kUnboundedDynamicSize = 256;

/// What decides a unit's latency, as one line: its op (for a composite, its
/// name and attributes), attributes (large ones elided), and operand and
/// result types, constant operands marked. Device profiles key measurements
/// at a model's own shapes by it (nnapi-profile-device --model), so the
/// tool and the partitioner must compute it the same way: here, once.
std::string unitSignature(Operation *op);

/// A model of `op` alone, as nnapi-profile-device measures it: @main takes
/// its non-constant operands (one argument per distinct value), holds copies
/// of its constant operands and returns its results. The op is named
/// `name` (a NameLoc) so that a placement override can force it. Null if an
/// operand or result is not a statically shaped tensor.
OwningOpRef<ModuleOp> extractUnitModel(Operation *op, StringRef name);

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_PARTITION_COSTMODEL_H
