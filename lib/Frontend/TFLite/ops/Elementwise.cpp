//===- Elementwise.cpp - Arithmetic, activations, softmax -------*- C++ -*-===//
//
// The binary operators (with TFLite's numpy broadcasting and fused
// activations), the unary ones, the activations and the normalizations that
// are one formula (SOFTMAX, LOG_SOFTMAX, L2_NORMALIZATION), all computed in
// float: quantized data is dequantized before and quantized after
// (OpContext), which nnapi-raise-quantized turns into int8 NNAPI operations
// where NNAPI has them.
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"

using namespace mlir;
using namespace mlir::nnapi::tflite_import;

namespace {

tflite::ActivationFunctionType fusedOf(OpContext &op) {
  switch (op.code) {
  case tflite::BuiltinOperator_ADD:
    if (const auto *o = op.options<tflite::AddOptions>())
      return o->fused_activation_function();
    break;
  case tflite::BuiltinOperator_SUB:
    if (const auto *o = op.options<tflite::SubOptions>())
      return o->fused_activation_function();
    break;
  case tflite::BuiltinOperator_MUL:
    if (const auto *o = op.options<tflite::MulOptions>())
      return o->fused_activation_function();
    break;
  case tflite::BuiltinOperator_DIV:
    if (const auto *o = op.options<tflite::DivOptions>())
      return o->fused_activation_function();
    break;
  default:
    break;
  }
  return tflite::ActivationFunctionType_NONE;
}

/// Integer data of a binary operator: computed as it is (i32, i64), for the
/// shape arithmetic models do (a Shape's dimensions times a constant).
bool integerBinary(OpContext &op) {
  return !op.quantizedInput(0) && !op.quantizedInput(1) &&
         op.has(0) && op.has(1) &&
         isa<IntegerType>(op.imp.typeOf(op.in(0)).getElementType()) &&
         isa<IntegerType>(op.imp.typeOf(op.in(1)).getElementType());
}

LogicalResult importBinary(OpContext &op) {
  Emitter &e = op.imp;
  if (integerBinary(op)) {
    Value a = op.in(0), b = op.in(1);
    Value y;
    switch (op.code) {
    case tflite::BuiltinOperator_ADD:
      y = e.add(a, b);
      break;
    case tflite::BuiltinOperator_SUB:
      y = e.sub(a, b);
      break;
    case tflite::BuiltinOperator_MUL:
      y = e.mul(a, b);
      break;
    case tflite::BuiltinOperator_MAXIMUM:
      y = e.binary<tosa::MaximumOp>(a, b);
      break;
    case tflite::BuiltinOperator_MINIMUM:
      y = e.binary<tosa::MinimumOp>(a, b);
      break;
    default:
      return op.error() << "integer data is not supported";
    }
    return op.define(0, op.fused(y, fusedOf(op)));
  }
  Value a = op.inFloat(0), b = op.inFloat(1);
  if (!a || !b)
    return failure();
  Value y;
  switch (op.code) {
  case tflite::BuiltinOperator_ADD:
    y = e.add(a, b);
    break;
  case tflite::BuiltinOperator_SUB:
    y = e.sub(a, b);
    break;
  case tflite::BuiltinOperator_MUL:
    y = e.mul(a, b);
    break;
  case tflite::BuiltinOperator_DIV:
    y = e.mul(a, e.unary("tosa.reciprocal", b));
    break;
  case tflite::BuiltinOperator_MAXIMUM:
    y = e.binary<tosa::MaximumOp>(a, b);
    break;
  case tflite::BuiltinOperator_MINIMUM:
    y = e.binary<tosa::MinimumOp>(a, b);
    break;
  case tflite::BuiltinOperator_SQUARED_DIFFERENCE: {
    Value d = e.sub(a, b);
    y = e.mul(d, d);
    break;
  }
  case tflite::BuiltinOperator_POW:
    y = e.binary<tosa::PowOp>(a, b);
    break;
  default:
    return op.error() << "internal error: not a binary operator";
  }
  return op.defineFloat(0, op.fused(y, fusedOf(op)));
}

LogicalResult importUnary(OpContext &op) {
  Emitter &e = op.imp;
  Value x = op.inFloat(0);
  if (!x)
    return failure();
  Value y;
  switch (op.code) {
  case tflite::BuiltinOperator_RELU:
    y = e.clamp(x, 0, kNoBound);
    break;
  case tflite::BuiltinOperator_RELU6:
    y = e.clamp(x, 0, 6);
    break;
  case tflite::BuiltinOperator_RELU_N1_TO_1:
    y = e.clamp(x, -1, 1);
    break;
  case tflite::BuiltinOperator_RELU_0_TO_1:
    y = e.clamp(x, 0, 1);
    break;
  case tflite::BuiltinOperator_LOGISTIC:
    y = e.unary("tosa.sigmoid", x);
    break;
  case tflite::BuiltinOperator_TANH:
    y = e.unary("tosa.tanh", x);
    break;
  case tflite::BuiltinOperator_HARD_SWISH:
    y = e.mul(x, e.activation("HardSigmoid", x, 1.0 / 6, 0.5));
    break;
  case tflite::BuiltinOperator_EXP:
    y = e.unary("tosa.exp", x);
    break;
  case tflite::BuiltinOperator_LOG:
    y = e.unary("tosa.log", x);
    break;
  case tflite::BuiltinOperator_SQRT:
    y = e.unary("tosa.reciprocal", e.unary("tosa.rsqrt", x));
    break;
  case tflite::BuiltinOperator_RSQRT:
    y = e.unary("tosa.rsqrt", x);
    break;
  case tflite::BuiltinOperator_ABS:
    y = e.unary("tosa.abs", x);
    break;
  case tflite::BuiltinOperator_NEG:
    y = e.unary("tosa.negate", x);
    break;
  case tflite::BuiltinOperator_SQUARE:
    y = e.mul(x, x);
    break;
  case tflite::BuiltinOperator_FLOOR:
    y = e.unary("tosa.floor", x);
    break;
  case tflite::BuiltinOperator_CEIL:
    y = e.unary("tosa.ceil", x);
    break;
  case tflite::BuiltinOperator_ELU:
    y = e.activation("Elu", x, 1.0);
    break;
  case tflite::BuiltinOperator_LEAKY_RELU: {
    const auto *o = op.options<tflite::LeakyReluOptions>();
    y = e.activation("LeakyRelu", x, o ? o->alpha() : 0.2);
    break;
  }
  default:
    return op.error() << "internal error: not a unary operator";
  }
  return op.defineFloat(0, y);
}

LogicalResult importPRelu(OpContext &op) {
  Emitter &e = op.imp;
  Value x = op.inFloat(0), alpha = op.inFloat(1);
  if (!x || !alpha)
    return failure();
  // The slope broadcasts from the right.
  return op.defineFloat(
      0, e.leaky(x, e.toRank(alpha, e.typeOf(x).getRank())));
}

LogicalResult importSoftmax(OpContext &op) {
  Emitter &e = op.imp;
  Value x = op.inFloat(0);
  if (!x)
    return failure();
  int64_t rank = e.typeOf(x).getRank();
  if (rank < 1)
    return op.error() << "the input must have rank 1 or more";
  bool log = op.code == tflite::BuiltinOperator_LOG_SOFTMAX;
  if (!log)
    if (const auto *o = op.options<tflite::SoftmaxOptions>())
      if (o->beta() != 1.0f)
        x = e.mul(x, e.scalarLike(x, o->beta()));
  return op.defineFloat(0, e.softmax(x, rank - 1, log));
}

LogicalResult importL2Normalization(OpContext &op) {
  Emitter &e = op.imp;
  Value x = op.inFloat(0);
  if (!x)
    return failure();
  int64_t rank = e.typeOf(x).getRank();
  if (rank < 1)
    return op.error() << "the input must have rank 1 or more";
  // x / sqrt(max(sum(x^2), eps)), TFLite's epsilon 1e-6 on the sum.
  Value sum = e.reduce("sum", e.mul(x, x), {rank - 1});
  Value y = e.mul(x, e.unary("tosa.rsqrt", e.clamp(sum, 1e-6, kNoBound)));
  const auto *o = op.options<tflite::L2NormOptions>();
  return op.defineFloat(0, op.fused(y, o ? o->fused_activation_function()
                                         : tflite::ActivationFunctionType_NONE));
}

LogicalResult importCast(OpContext &op) {
  Emitter &e = op.imp;
  Value x = op.in(0);
  FailureOr<RankedTensorType> out = op.outType();
  if (!x || failed(out))
    return failure();
  if (op.quantizedInput(0) || op.quantizedOutput(0))
    return op.error() << "casts of quantized data are not supported";
  Type to = out->getElementType();
  Type from = e.typeOf(x).getElementType();
  // Float to integer truncates toward zero, as TFLite's static_cast
  // (tosa.cast rounds to nearest).
  if (isa<FloatType>(from) && isa<IntegerType>(to) && !to.isInteger(1)) {
    Value ax = e.unary("tosa.abs", x);
    Value t = e.unary("tosa.floor", ax);
    Value neg = e.compare<tosa::GreaterOp>(e.scalarLike(x, 0), x);
    x = e.select(neg, e.unary("tosa.negate", t), t);
  }
  return op.define(0, e.castTo(x, to));
}

/// Both operands of a comparison: quantized and float data as float32
/// values (two int8 tensors of different scales compare by value), integers
/// and booleans as held, so they compare exactly.
bool comparisonOperands(OpContext &op, Value &a, Value &b) {
  if (!op.has(0) || !op.has(1)) {
    op.error() << "an operand is omitted";
    return false;
  }
  a = op.in(0);
  b = op.in(1);
  if (!a || !b)
    return false;
  auto isNumber = [&](int i, Value v) {
    return op.quantizedInput(i) ||
           isa<FloatType>(op.imp.typeOf(v).getElementType());
  };
  if (isNumber(0, a) || isNumber(1, b)) {
    a = op.inFloat(0);
    b = op.inFloat(1);
  }
  return a && b;
}

LogicalResult importComparison(OpContext &op) {
  Emitter &e = op.imp;
  Value a, b;
  if (!comparisonOperands(op, a, b))
    return failure();
  bool boolean = e.typeOf(a).getElementType().isInteger(1);
  if (boolean && op.code != tflite::BuiltinOperator_EQUAL &&
      op.code != tflite::BuiltinOperator_NOT_EQUAL)
    return op.error() << "booleans have no order";
  Value y;
  switch (op.code) {
  case tflite::BuiltinOperator_EQUAL:
  case tflite::BuiltinOperator_NOT_EQUAL:
    // TOSA compares numbers; booleans are equal where they do not differ.
    y = boolean ? e.unary("tosa.logical_not",
                          e.compare<tosa::LogicalXorOp>(a, b))
                : e.compare<tosa::EqualOp>(a, b);
    if (op.code == tflite::BuiltinOperator_NOT_EQUAL)
      y = e.unary("tosa.logical_not", y);
    break;
  case tflite::BuiltinOperator_GREATER:
    y = e.compare<tosa::GreaterOp>(a, b);
    break;
  case tflite::BuiltinOperator_GREATER_EQUAL:
    y = e.compare<tosa::GreaterEqualOp>(a, b);
    break;
  case tflite::BuiltinOperator_LESS:
    y = e.compare<tosa::GreaterOp>(b, a);
    break;
  case tflite::BuiltinOperator_LESS_EQUAL:
    y = e.compare<tosa::GreaterEqualOp>(b, a);
    break;
  default:
    return op.error() << "internal error: not a comparison";
  }
  return op.define(0, y);
}

/// A boolean input, or null after a diagnostic.
Value booleanInput(OpContext &op, int i) {
  if (!op.has(i)) {
    op.error() << "input " << i << " is omitted";
    return {};
  }
  Value v = op.in(i);
  if (!op.imp.typeOf(v).getElementType().isInteger(1)) {
    op.error() << "input " << i << " is " << v.getType()
               << ", not booleans";
    return {};
  }
  return v;
}

LogicalResult importLogical(OpContext &op) {
  Emitter &e = op.imp;
  Value a = booleanInput(op, 0);
  if (!a)
    return failure();
  if (op.code == tflite::BuiltinOperator_LOGICAL_NOT)
    return op.define(0, e.unary("tosa.logical_not", a));
  Value b = booleanInput(op, 1);
  if (!b)
    return failure();
  return op.define(0, op.code == tflite::BuiltinOperator_LOGICAL_AND
                          ? e.compare<tosa::LogicalAndOp>(a, b)
                          : e.compare<tosa::LogicalOrOp>(a, b));
}

/// SELECT and SELECT_V2: x where the condition holds, else y. SELECT's
/// rank-1 condition picks whole rows of higher-rank operands; SELECT_V2
/// broadcasts all three.
LogicalResult importSelect(OpContext &op) {
  Emitter &e = op.imp;
  Value cond = booleanInput(op, 0);
  if (!cond || !op.has(1) || !op.has(2))
    return cond ? op.error() << "an operand is omitted" : failure();
  bool quantized = op.quantizedInput(1) || op.quantizedInput(2) ||
                   op.quantizedOutput(0);
  Value x = quantized ? op.inFloat(1) : op.in(1);
  Value y = quantized ? op.inFloat(2) : op.in(2);
  if (!x || !y)
    return failure();
  if (e.typeOf(x).getElementType() != e.typeOf(y).getElementType())
    return op.error() << "the two choices differ in type (" << x.getType()
                      << " and " << y.getType() << ")";
  RankedTensorType c = e.typeOf(cond), t = e.typeOf(x);
  if (op.code == tflite::BuiltinOperator_SELECT) {
    if (c.getRank() == 1 && t.getRank() > 1) {
      if (c.getDimSize(0) != t.getDimSize(0))
        return op.error() << "the condition's " << c.getDimSize(0)
                          << " values do not match the "
                          << t.getDimSize(0) << " rows";
      SmallVector<int64_t> rows(t.getRank(), 1);
      rows[0] = c.getDimSize(0);
      cond = e.reshape(cond, rows);
    } else if (c.getShape() != t.getShape() ||
               e.typeOf(y).getShape() != t.getShape()) {
      return op.error() << "SELECT needs operands of one shape (or a "
                           "condition per row); SELECT_V2 broadcasts";
    }
  }
  Value r = e.select(cond, x, y);
  return quantized ? op.defineFloat(0, r) : op.define(0, r);
}

} // namespace

void mlir::nnapi::tflite_import::registerElementwiseOps(OpRegistry &registry) {
  auto binary = [](tflite::BuiltinOperator code, int32_t maxVersion,
                   StringRef tosa, StringRef nnapi) {
    return OpEntry{code,  "",    1,   maxVersion, importBinary,
                   tosa,  nnapi, "-", /*dynamic=*/true};
  };
  auto unary = [](tflite::BuiltinOperator code, int32_t maxVersion,
                  StringRef tosa, StringRef nnapi) {
    return OpEntry{code,  "",    1,   maxVersion, importUnary,
                   tosa,  nnapi, "-", /*dynamic=*/true};
  };
  registry.add({
      binary(tflite::BuiltinOperator_ADD, 5,
             "tosa.add (numpy broadcasting), fused activation a clamp",
             "ADD (1); int8 4"),
      binary(tflite::BuiltinOperator_SUB, 3, "tosa.sub", "SUB (2)"),
      binary(tflite::BuiltinOperator_MUL, 7, "tosa.mul", "MUL (1); int8 4"),
      binary(tflite::BuiltinOperator_DIV, 2, "tosa.mul by tosa.reciprocal",
             "DIV (2)"),
      binary(tflite::BuiltinOperator_MAXIMUM, 4, "tosa.maximum",
             "MAXIMUM (3)"),
      binary(tflite::BuiltinOperator_MINIMUM, 4, "tosa.minimum",
             "MINIMUM (3)"),
      binary(tflite::BuiltinOperator_SQUARED_DIFFERENCE, 2, "sub, mul",
             "SUB (2), MUL (1)"),
      binary(tflite::BuiltinOperator_POW, 1, "tosa.pow", "POW (3)"),
      unary(tflite::BuiltinOperator_RELU, 3, "tosa.clamp [0, max]",
            "RELU (1), fused into the producer"),
      unary(tflite::BuiltinOperator_RELU6, 3, "tosa.clamp [0, 6]",
            "RELU6 (1), fused into the producer"),
      unary(tflite::BuiltinOperator_RELU_N1_TO_1, 2, "tosa.clamp [-1, 1]",
            "RELU1 (1)"),
      unary(tflite::BuiltinOperator_RELU_0_TO_1, 1, "tosa.clamp [0, 1]",
            "MAXIMUM, MINIMUM (3)"),
      unary(tflite::BuiltinOperator_LOGISTIC, 3, "tosa.sigmoid",
            "LOGISTIC (1)"),
      unary(tflite::BuiltinOperator_TANH, 3, "tosa.tanh", "TANH (1)"),
      unary(tflite::BuiltinOperator_HARD_SWISH, 1,
            "mul, add, clamp, mul (the hard_swish composite)",
            "HARD_SWISH (4)"),
      unary(tflite::BuiltinOperator_EXP, 2, "tosa.exp", "EXP (3)"),
      unary(tflite::BuiltinOperator_LOG, 2, "tosa.log", "LOG (3)"),
      unary(tflite::BuiltinOperator_SQRT, 2, "tosa.rsqrt + tosa.reciprocal",
            "SQRT (3)"),
      unary(tflite::BuiltinOperator_RSQRT, 3, "tosa.rsqrt", "RSQRT (3)"),
      unary(tflite::BuiltinOperator_ABS, 5, "tosa.abs", "ABS (3)"),
      unary(tflite::BuiltinOperator_NEG, 2, "tosa.negate", "NEG (3)"),
      unary(tflite::BuiltinOperator_SQUARE, 1, "tosa.mul", "MUL (1)"),
      unary(tflite::BuiltinOperator_FLOOR, 1, "tosa.floor", "FLOOR (1)"),
      unary(tflite::BuiltinOperator_CEIL, 1, "tosa.ceil", "-"),
      unary(tflite::BuiltinOperator_ELU, 1, "clamp, exp, sub, mul, add",
            "ELU (4)"),
      unary(tflite::BuiltinOperator_LEAKY_RELU, 2, "clamp, clamp, mul, add",
            "PRELU (3), the prelu composite"),
      {tflite::BuiltinOperator_PRELU, "", 1, 1, importPRelu,
       "clamp, clamp, mul, add", "PRELU (3), the prelu composite", "-"},
      {tflite::BuiltinOperator_SOFTMAX, "", 1, 3, importSoftmax,
       "reduce_max, sub, exp, reduce_sum, reciprocal, mul (the softmax "
       "composite); beta a mul before",
       "SOFTMAX (1); int8 4 with NNAPI's output scale 1/256", "-",
       /*dynamic=*/true},
      {tflite::BuiltinOperator_LOG_SOFTMAX, "", 1, 2, importSoftmax,
       "reduce_max, sub, exp, reduce_sum, log, sub", "LOG_SOFTMAX (3)", "-",
       /*dynamic=*/true},
      {tflite::BuiltinOperator_L2_NORMALIZATION, "", 1, 2,
       importL2Normalization, "mul, reduce_sum, clamp, rsqrt, mul",
       "L2_NORMALIZATION (1)", "-"},
      {tflite::BuiltinOperator_EQUAL, "", 1, 4, importComparison,
       "tosa.equal (booleans: logical_xor, logical_not)", "EQUAL (3)", "-"},
      {tflite::BuiltinOperator_NOT_EQUAL, "", 1, 3, importComparison,
       "tosa.equal, tosa.logical_not", "NOT_EQUAL (3)", "-"},
      {tflite::BuiltinOperator_GREATER, "", 1, 2, importComparison,
       "tosa.greater", "GREATER (3)", "-"},
      {tflite::BuiltinOperator_GREATER_EQUAL, "", 1, 2, importComparison,
       "tosa.greater_equal", "GREATER_EQUAL (3)", "-"},
      {tflite::BuiltinOperator_LESS, "", 1, 2, importComparison,
       "tosa.greater, operands swapped", "LESS (3)", "-"},
      {tflite::BuiltinOperator_LESS_EQUAL, "", 1, 2, importComparison,
       "tosa.greater_equal, operands swapped", "LESS_EQUAL (3)", "-"},
      {tflite::BuiltinOperator_LOGICAL_AND, "", 1, 1, importLogical,
       "tosa.logical_and", "LOGICAL_AND (3)", "-"},
      {tflite::BuiltinOperator_LOGICAL_OR, "", 1, 1, importLogical,
       "tosa.logical_or", "LOGICAL_OR (3)", "-"},
      {tflite::BuiltinOperator_LOGICAL_NOT, "", 1, 1, importLogical,
       "tosa.logical_not", "LOGICAL_NOT (3)", "-"},
      {tflite::BuiltinOperator_SELECT, "", 1, 4, importSelect,
       "tosa.select (a rank-1 condition reshaped to pick rows)",
       "SELECT (3)", "-"},
      {tflite::BuiltinOperator_SELECT_V2, "", 1, 2, importSelect,
       "tosa.select (numpy broadcasting)", "SELECT (3)", "-"},
      {tflite::BuiltinOperator_CAST, "", 1, 6, importCast,
       "tosa.cast (float to integer truncated)", "CAST (3)",
       "quantized data"},
  });
}
