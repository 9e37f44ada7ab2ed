//===- OpKinds.cpp - Which reference kernel runs an NNAPI operation -------===//

#include "OpKinds.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"

namespace nnapi_mlir::host {

std::optional<CompareKind> compareKindOf(int32_t opcode) {
  switch (opcode) {
  case ANEURALNETWORKS_EQUAL: return CompareKind::Equal;
  case ANEURALNETWORKS_NOT_EQUAL: return CompareKind::NotEqual;
  case ANEURALNETWORKS_GREATER: return CompareKind::Greater;
  case ANEURALNETWORKS_GREATER_EQUAL: return CompareKind::GreaterEqual;
  case ANEURALNETWORKS_LESS: return CompareKind::Less;
  case ANEURALNETWORKS_LESS_EQUAL: return CompareKind::LessEqual;
  default: return std::nullopt;
  }
}

std::optional<BinaryKind> binaryKindOf(int32_t opcode) {
  switch (opcode) {
  case ANEURALNETWORKS_ADD: return BinaryKind::Add;
  case ANEURALNETWORKS_SUB: return BinaryKind::Sub;
  case ANEURALNETWORKS_MUL: return BinaryKind::Mul;
  case ANEURALNETWORKS_DIV: return BinaryKind::Div;
  case ANEURALNETWORKS_MAXIMUM: return BinaryKind::Maximum;
  case ANEURALNETWORKS_MINIMUM: return BinaryKind::Minimum;
  case ANEURALNETWORKS_POW: return BinaryKind::Pow;
  case ANEURALNETWORKS_PRELU: return BinaryKind::Prelu;
  default: return std::nullopt;
  }
}

std::optional<UnaryKind> unaryKindOf(int32_t opcode) {
  switch (opcode) {
  case ANEURALNETWORKS_RELU: return UnaryKind::Relu;
  case ANEURALNETWORKS_RELU1: return UnaryKind::Relu1;
  case ANEURALNETWORKS_RELU6: return UnaryKind::Relu6;
  case ANEURALNETWORKS_LOGISTIC: return UnaryKind::Logistic;
  case ANEURALNETWORKS_TANH: return UnaryKind::Tanh;
  case ANEURALNETWORKS_EXP: return UnaryKind::Exp;
  case ANEURALNETWORKS_LOG: return UnaryKind::Log;
  case ANEURALNETWORKS_SQRT: return UnaryKind::Sqrt;
  case ANEURALNETWORKS_RSQRT: return UnaryKind::Rsqrt;
  case ANEURALNETWORKS_ABS: return UnaryKind::Abs;
  case ANEURALNETWORKS_NEG: return UnaryKind::Neg;
  case ANEURALNETWORKS_FLOOR: return UnaryKind::Floor;
  case ANEURALNETWORKS_SIN: return UnaryKind::Sin;
  case ANEURALNETWORKS_HARD_SWISH: return UnaryKind::HardSwish;
  default: return std::nullopt;
  }
}

std::optional<ReduceKind> reduceKindOf(int32_t opcode) {
  switch (opcode) {
  case ANEURALNETWORKS_MEAN: return ReduceKind::Mean;
  case ANEURALNETWORKS_REDUCE_SUM: return ReduceKind::Sum;
  case ANEURALNETWORKS_REDUCE_MAX: return ReduceKind::Max;
  case ANEURALNETWORKS_REDUCE_MIN: return ReduceKind::Min;
  case ANEURALNETWORKS_REDUCE_PROD: return ReduceKind::Prod;
  default: return std::nullopt;
  }
}

} // namespace nnapi_mlir::host
