//===- Verifiers.h - Checks the nnapi ops' verifiers share ------*- C++ -*-===//
//
// Internal to the dialect library: the helpers NNAPIDialect.cpp defines and
// the verifiers in the other files of this directory (SpecChecks.cpp,
// RecurrentOps.cpp) call.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_DIALECT_NNAPI_IR_VERIFIERS_H
#define NNAPI_MLIR_LIB_DIALECT_NNAPI_IR_VERIFIERS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

namespace mlir::nnapi::detail {

RankedTensorType tensorType(Value v);

/// `v` has a rank its role in the NNAPI spec's layout of `op` takes; `what`
/// names it in the message.
LogicalResult verifyRank(Operation *op, Value v, StringRef what);

/// `op`'s operands and results share one element type (or, for 8-bit
/// quantized data, one operand type with parameters NNAPI accepts).
LogicalResult verifySameElementType(Operation *op);

/// Result `result`'s shape is `expected`; a dynamic dimension on either side
/// matches any.
LogicalResult verifyResultShape(Operation *op, ArrayRef<int64_t> expected,
                                unsigned result = 0);

} // namespace mlir::nnapi::detail

#endif // NNAPI_MLIR_LIB_DIALECT_NNAPI_IR_VERIFIERS_H
