//===- Activations.cpp - Activation functions -------------------*- C++ -*-===//
//
// Relu, Clip and the activations composed of clamps, exp and arithmetic
// (LeakyRelu, PRelu, Elu, Selu, Softplus, HardSigmoid, HardSwish). Sigmoid
// and Tanh are one TOSA op each: Elementwise.cpp. Importer::activation, the
// one place each activation function's formula is written, is here too: the
// operators of those names and RNN, GRU and LSTM (Recurrent.cpp) call it.
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"
#include "../OpRegistry.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::nnapi::onnx_import;

namespace {

LogicalResult importRelu(NodeContext &ctx) {
  if (std::optional<LogicalResult> folded = foldAtCompileTime(ctx))
    return *folded;
  Value x = ctx.in(0);
  // (An integer clamp saturates the bound to its type: int64 values above
  // 2^31 stay.)
  return ctx.setResult(ctx.imp.clamp(x, 0, kNoBound));
}

LogicalResult importClip(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  Value x = ctx.in(0);
  bool fp = ctx.isFloat(x);
  bool runtimeBounds =
      (ctx.has(1) && !ctx.cst(1)) || (ctx.has(2) && !ctx.cst(2));
  Value result;
  if (runtimeBounds) {
    result = x;
    if (ctx.has(1))
      result = imp.binary<tosa::MaximumOp>(result, ctx.in(1));
    if (ctx.has(2))
      result = imp.binary<tosa::MinimumOp>(result, ctx.in(2));
  } else if (fp) {
    double lo = ctx.has(1) && ctx.cst(1).getNumElements()
                    ? floatsOf(ctx.cst(1))[0]
                    : -kNoBound;
    double hi = ctx.has(2) && ctx.cst(2).getNumElements()
                    ? floatsOf(ctx.cst(2))[0]
                    : kNoBound;
    result = imp.clamp(x, lo, hi);
  } else {
    unsigned bits = imp.typeOf(x).getElementTypeBitWidth();
    int64_t lo = APInt::getSignedMinValue(bits).getSExtValue();
    int64_t hi = APInt::getSignedMaxValue(bits).getSExtValue();
    if (ctx.has(1) && ctx.cst(1).getNumElements())
      lo = intsOf(ctx.cst(1))[0];
    if (ctx.has(2) && ctx.cst(2).getNumElements())
      hi = intsOf(ctx.cst(2))[0];
    result = ctx.b.create<tosa::ClampOp>(
        ctx.loc, x.getType(), x, ctx.b.getI64IntegerAttr(lo),
        ctx.b.getI64IntegerAttr(hi), ctx.b.getF32FloatAttr(0),
        ctx.b.getF32FloatAttr(0));
  }
  return ctx.setResult(result);
}

/// max(x, 0) + slope * min(x, 0): LeakyRelu's and PRelu's formula.
Value leaky(Importer &imp, Value x, Value slope) {
  Value pos = imp.clamp(x, 0, kNoBound);
  Value neg = imp.clamp(x, -kNoBound, 0);
  return imp.binary<tosa::AddOp>(pos, imp.mul(neg, slope));
}

LogicalResult importLeakyRelu(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  Value x = ctx.in(0);
  if (ctx.opType() == "LeakyRelu")
    return ctx.setResult(
        imp.activation("LeakyRelu", x, ctx.floatAttr("alpha", 0.01f)));
  // PRelu's slope broadcasts from the right (unidirectional).
  return ctx.setResult(
      leaky(imp, x, imp.toRank(ctx.in(1), imp.typeOf(x).getRank())));
}

/// Elu; Selu is gamma times Elu with its own alpha.
LogicalResult importElu(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  bool elu = ctx.opType() == "Elu";
  Value x = ctx.in(0);
  Value result = imp.activation(
      "Elu", x,
      ctx.floatAttr("alpha", elu ? 1.0f : 1.67326319217681884765625f));
  if (!elu)
    result = imp.mul(
        result,
        imp.scalarLike(x, ctx.floatAttr("gamma", 1.05070102214813232421875f)));
  return ctx.setResult(result);
}

LogicalResult importSoftplus(NodeContext &ctx) {
  return ctx.setResult(ctx.imp.activation("Softplus", ctx.in(0)));
}

/// HardSigmoid; HardSwish is x times HardSigmoid with alpha 1/6, beta 0.5.
LogicalResult importHardSigmoid(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  bool swish = ctx.opType() == "HardSwish";
  Value x = ctx.in(0);
  double alpha = swish ? 1.0 / 6 : ctx.floatAttr("alpha", 0.2f);
  double beta = swish ? 0.5 : ctx.floatAttr("beta", 0.5f);
  Value y = imp.activation("HardSigmoid", x, alpha, beta);
  return ctx.setResult(swish ? imp.mul(x, y) : y);
}

} // namespace

ArrayRef<StringLiteral> Importer::activationNames() {
  static constexpr StringLiteral names[] = {
      "Relu",       "Tanh",        "Sigmoid",
      "Affine",     "LeakyRelu",   "ThresholdedRelu",
      "ScaledTanh", "HardSigmoid", "Elu",
      "Softsign",   "Softplus"};
  return names;
}

std::pair<bool, bool> Importer::activationParams(StringRef name) {
  return llvm::StringSwitch<std::pair<bool, bool>>(name)
      .Cases("Affine", "ScaledTanh", "HardSigmoid", {true, true})
      .Cases("LeakyRelu", "ThresholdedRelu", "Elu", {true, false})
      .Default({false, false});
}

Value Importer::activation(StringRef name, Value x, std::optional<double> alpha,
                           std::optional<double> beta) {
  auto scalar = [&](double value) { return scalarLike(x, value); };
  auto add = [&](Value a, Value b) { return binary<tosa::AddOp>(a, b); };
  if (name == "Relu")
    return clamp(x, 0, kNoBound);
  if (name == "Tanh")
    return unary("tosa.tanh", x);
  if (name == "Sigmoid")
    return unary("tosa.sigmoid", x);
  if (name == "Affine")
    return add(mul(x, scalar(alpha.value_or(1.0))), scalar(beta.value_or(0.0)));
  if (name == "LeakyRelu")
    return leaky(*this, x, scalar(alpha.value_or(0.01f)));
  if (name == "ThresholdedRelu") {
    Value above = builder.create<tosa::GreaterOp>(
        loc, typeOf(x).clone(builder.getI1Type()), x,
        scalar(alpha.value_or(1.0)));
    return builder.create<tosa::SelectOp>(loc, x.getType(), above, x,
                                          scalar(0));
  }
  if (name == "ScaledTanh")
    return mul(unary("tosa.tanh", mul(x, scalar(beta.value_or(1.0)))),
               scalar(alpha.value_or(1.0)));
  if (name == "HardSigmoid")
    return clamp(
        add(mul(x, scalar(alpha.value_or(0.2f))), scalar(beta.value_or(0.5f))),
        0, 1);
  if (name == "Elu") {
    // max(x, 0) + alpha * (exp(min(x, 0)) - 1)
    Value em1 = binary<tosa::SubOp>(unary("tosa.exp", clamp(x, -kNoBound, 0)),
                                    scalar(1));
    return add(clamp(x, 0, kNoBound), mul(em1, scalar(alpha.value_or(1.0))));
  }
  if (name == "Softsign")
    return mul(x,
               unary("tosa.reciprocal", add(unary("tosa.abs", x), scalar(1))));
  if (name == "Softplus")
    return unary("tosa.log", add(unary("tosa.exp", x), scalar(1)));
  return {};
}

void mlir::nnapi::onnx_import::registerActivationOps(OpRegistry &registry) {
  constexpr int64_t lo = kMinONNXOpset, hi = kAnyOpset;
  registry.add({
      {"", "Relu", lo, hi, importRelu, "tosa.clamp [0, max]",
       "RELU (1), fused into the producer", "non-float"},
      {"", "Clip", lo, hi, importClip,
       "tosa.clamp (or maximum/minimum for runtime bounds)",
       "RELU / RELU1 / RELU6 when the bounds match (1), else MAXIMUM / "
       "MINIMUM (3)",
       "non-float"},
      {"", "LeakyRelu", lo, hi, importLeakyRelu, "clamp, clamp, mul, add",
       "PRELU (3), the prelu composite", "non-float"},
      {"", "PRelu", lo, hi, importLeakyRelu, "clamp, clamp, mul, add",
       "PRELU (3), the prelu composite", "non-float"},
      {"", "Elu", lo, hi, importElu, "clamp, exp, sub, mul, add",
       "ELU (4), the elu composite; with a negative alpha MAXIMUM, MINIMUM, "
       "EXP, SUB, MUL, ADD (3)",
       "non-float"},
      {"", "Selu", lo, hi, importElu, "clamp, exp, sub, mul, add, mul",
       "ELU (4) and MUL", "non-float"},
      {"", "Softplus", lo, hi, importSoftplus, "exp, add, log",
       "EXP, LOG (3), ADD", "non-float"},
      {"", "HardSigmoid", lo, hi, importHardSigmoid, "mul, add, clamp",
       "MUL, ADD (1), MAXIMUM, MINIMUM (3)", "non-float"},
      {"", "HardSwish", lo, hi, importHardSigmoid,
       "mul, add, clamp, mul (the hard_swish composite)", "HARD_SWISH (4)",
       "below level 4"},
  });
}
