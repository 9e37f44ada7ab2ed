//===- Operands.h - nnapi ops' NNAPI operands by role -----------*- C++ -*-===//
//
// What each nnapi op passes to its NNAPI operation: its tensor operands and
// the scalar or constant-tensor operands its attributes become, each named
// by its role in the NNAPI spec (nnapi-mlir/NNAPI/Layouts.h). The spec puts
// them in order, leaves out optional groups that hold only defaults, and
// computes the feature level that needs: the blob writer serializes that
// order, and the op's feature level is that level.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_DIALECT_NNAPI_IR_OPERANDS_H
#define NNAPI_MLIR_DIALECT_NNAPI_IR_OPERANDS_H

#include "nnapi-mlir/NNAPI/Layouts.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir::nnapi {

/// One NNAPI operand of an op, named by its role.
struct NNAPIOperand {
  /// Omitted: an omittable role given without a value (NNAPI's optional
  /// operands; the blob's Lifetime::NoValue).
  enum class Kind { Tensor, Int32, Bool, Float, Int32Tensor, Omitted };
  nnapi_mlir::spec::RoleName role = nnapi_mlir::spec::role::input;
  Kind kind = Kind::Tensor;
  Value value;                 ///< Tensor: the op's operand.
  int64_t integer = 0;         ///< Int32, Bool.
  float real = 0.0f;           ///< Float: FLOAT32, or FLOAT16 in a float16 op.
  SmallVector<int64_t> values; ///< Int32Tensor: the constant's elements...
  uint32_t rows = 0;           ///< ...as [rows, size / rows] when rows > 0.
};

/// The ANEURALNETWORKS_TENSOR_* code of a ranked tensor type, if NNAPI has one.
std::optional<int32_t> getTensorOperandCode(Type type);

/// The role in the NNAPI spec that operand or result `v` of nnapi op `op`
/// takes (in the operation's first form), or null if it has none.
const nnapi_mlir::spec::Role *getSpecRole(Operation *op, Value v);

/// The roles the value operands of an nnapi op of NNAPI operation `code`
/// take, in the op's operand order: the tensor roles of the operation's
/// first form that need not be constants (its constant tensors and scalars
/// come from attributes); a variadic role takes every operand from its
/// position on. ODS declares the operands in this order: test/Dialect/NNAPI/
/// operand-roles.test holds each op's ODS operand names against it.
SmallVector<const nnapi_mlir::spec::Role *> getValueRoles(int32_t code);

/// The NNAPI operands of nnapi op `op`, by role, in no particular order.
SmallVector<NNAPIOperand> getNNAPIOperands(Operation *op);

/// `op`'s operands in the order of its NNAPI operation, with the spec's
/// match (form, level and what needs it). Fails with `error` when the spec
/// refuses them. With `int8AsUint8` the match sees int8 data
/// (TENSOR_QUANT8_ASYMM_SIGNED) as the TENSOR_QUANT8_ASYMM it is written as
/// below feature level 4 (blob::Model::int8AsUint8).
LogicalResult orderNNAPIOperands(Operation *op,
                                 SmallVectorImpl<NNAPIOperand> &ordered,
                                 nnapi_mlir::spec::Match &match,
                                 std::string &error, bool int8AsUint8 = false);

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_DIALECT_NNAPI_IR_OPERANDS_H
