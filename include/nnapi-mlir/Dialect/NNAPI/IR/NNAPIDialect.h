//===- NNAPIDialect.h - The nnapi dialect -----------------------*- C++ -*-===//
#ifndef NNAPI_MLIR_DIALECT_NNAPI_IR_NNAPIDIALECT_H
#define NNAPI_MLIR_DIALECT_NNAPI_IR_NNAPIDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Quant/QuantOps.h"
#include "mlir/Dialect/Quant/QuantTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "nnapi-mlir/NNAPI/Operations.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"

#include <string>

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h.inc"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIEnums.h.inc"

namespace mlir::nnapi {
/// Feature levels are 1..8; this is the newest one.
constexpr unsigned kMaxFeatureLevel = 8;
/// The level of an op the NNAPI spec refuses: above every real one.
constexpr unsigned kNoFeatureLevel = kMaxFeatureLevel + 1;

/// A ranked tensor or buffer with a dynamic dimension (issue 54).
inline bool isDynamicShape(Type t) {
  auto shaped = dyn_cast<ShapedType>(t);
  return shaped && shaped.hasRank() && !shaped.hasStaticShape();
}

/// The feature level an op needs and why (what needs the level: the
/// operation's name for the level that introduced it, or the operand rule,
/// e.g. "float16 operands").
struct FeatureLevelNeed {
  unsigned level = 1;
  std::string why;
  void require(unsigned atLeast, llvm::StringRef what) {
    if (atLeast > level) {
      level = atLeast;
      why = what.str();
    }
  }
  /// Why a target of level `target` cannot run it: "needs NNAPI feature
  /// level N (why), the target is T", or, for what no level accepts,
  /// "no NNAPI feature level accepts it (why)".
  std::string refusal(unsigned target) const {
    if (level > kMaxFeatureLevel)
      return "no NNAPI feature level accepts it (" + why + ")";
    return "needs NNAPI feature level " + std::to_string(level) + " (" + why +
           "), the target is " + std::to_string(target);
  }
};

namespace detail {
/// The feature level of the NNAPI operands `op` gives, by the NNAPI spec:
/// the operation's level, its data type's, ranks', optional operands'.
FeatureLevelNeed getSpecFeatureLevel(Operation *op, int32_t code);
/// Fails with a diagnostic when the NNAPI spec refuses `op`'s operands.
LogicalResult verifySpecOperands(Operation *op);
} // namespace detail
} // namespace mlir::nnapi

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIInterfaces.h.inc"

#define GET_OP_CLASSES
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIOps.h.inc"
#define GET_OP_CLASSES
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPICompositeOps.h.inc"

#endif // NNAPI_MLIR_DIALECT_NNAPI_IR_NNAPIDIALECT_H
