//===- Activations.cpp - Activation functions -------------------*- C++ -*-===//
//
// Relu, Clip and the activations composed of clamps, exp and arithmetic
// (LeakyRelu, PRelu, Elu, Selu, Softplus, HardSigmoid, HardSwish). Sigmoid
// and Tanh are one TOSA op each: Elementwise.cpp. Emitter::activation
// (Common/Emitter.cpp), the one place each activation function's formula is
// written, serves the operators of those names, RNN, GRU and LSTM
// (Recurrent.cpp) and TFLite's activations.
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

LogicalResult importLeakyRelu(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  Value x = ctx.in(0);
  if (ctx.opType() == "LeakyRelu")
    return ctx.setResult(
        imp.activation("LeakyRelu", x, ctx.floatAttr("alpha", 0.01f)));
  // PRelu's slope broadcasts from the right (unidirectional).
  return ctx.setResult(
      imp.leaky(x, imp.toRank(ctx.in(1), imp.typeOf(x).getRank())));
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
