//===- Recurrent.cpp - Recurrent layers unrolled into TOSA -------*- C++ -*-===//

#include "Recurrent.h"

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Transforms/Composites.h"
#include "nnapi-mlir/Transforms/Constants.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::frontend;

Value RecurrentBuilder::dropLeading(Value v) {
  RankedTensorType t = e.typeOf(v);
  auto type = RankedTensorType::get(t.getShape().drop_front(), element);
  DenseElementsAttr attr;
  if (matchPattern(v, m_Constant(&attr)))
    return e.constant(attr.reshape(type));
  return e.reshape(v, type.getShape());
}

Value RecurrentBuilder::linear(Value x, Value wt, Value bias) {
  int64_t n = e.typeOf(x).getDimSize(0), k = e.typeOf(x).getDimSize(1),
          m = e.typeOf(wt).getDimSize(0);
  auto resultType = RankedTensorType::get({n, m}, element);
  DenseElementsAttr weights, biasAttr;
  if (std::optional<double> zero = splatValue(x); zero && *zero == 0) {
    // The first step's product with a zero initial state: the bias alone.
    if (!bias)
      return e.splat(element, {n, m}, 0);
    if (matchPattern(bias, m_Constant(&biasAttr))) {
      SmallVector<double> rows, row = floatsOf(biasAttr);
      for (int64_t i = 0; i < n; ++i)
        rows.append(row);
      return e.constant(denseOf(resultType, rows));
    }
    return e.binary<tosa::AddOp>(e.splat(element, {n, m}, 0),
                                   e.toRank(bias, 2));
  }
  if (matchPattern(wt, m_Constant(&weights))) {
    bool constBias = !bias || matchPattern(bias, m_Constant(&biasAttr));
    Value fcBias = constBias && bias ? bias : e.splat(element, {m}, 0);
    Value y = e.builder.create<tosa::FullyConnectedOp>(e.loc, resultType, x, wt,
                                                   fcBias, nullptr);
    return constBias ? y : e.binary<tosa::AddOp>(y, e.toRank(bias, 2));
  }
  Value product = e.builder.create<tosa::MatMulOp>(
      e.loc, RankedTensorType::get({1, n, m}, element),
      e.reshape(x, {1, n, k}),
      e.reshape(e.transpose(wt, {1, 0}), {1, k, m}));
  Value y = e.reshape(product, {n, m});
  return bias ? e.binary<tosa::AddOp>(y, e.toRank(bias, 2)) : y;
}

Value RecurrentBuilder::addFolded(Value a, Value b) {
  DenseElementsAttr x, y;
  if (matchPattern(a, m_Constant(&x)) && matchPattern(b, m_Constant(&y))) {
    SmallVector<double> sum = floatsOf(x), other = floatsOf(y);
    for (auto [s, o] : llvm::zip(sum, other))
      s += o;
    return e.constant(denseOf(cast<RankedTensorType>(x.getType()), sum));
  }
  return e.binary<tosa::AddOp>(a, b);
}

Value RecurrentBuilder::act(ArrayRef<RecurrentActivation> acts, int i,
                            Value x) {
  if (clip)
    x = e.clamp(x, -*clip, *clip);
  const RecurrentActivation &a = acts[i];
  return e.activation(a.name, x, a.alpha, a.beta);
}

Value RecurrentBuilder::stepMask(int64_t t, Value lens) {
  // Full [B, H]: NNAPI's SELECT does not broadcast.
  OpBuilder &b = e.builder;
  auto maskType = RankedTensorType::get({batch, hidden}, b.getI1Type());
  if (lens)
    return b.create<tosa::GreaterOp>(
        e.loc, maskType, lens,
        e.splat(b.getI32Type(), {1, hidden}, double(t)));
  if (constLens.empty() ||
      llvm::all_of(constLens, [&](int64_t len) { return len > t; }))
    return {};
  SmallVector<bool> mask;
  for (int64_t len : constLens)
    mask.append(hidden, len > t);
  return e.constant(DenseElementsAttr::get(maskType, ArrayRef<bool>(mask)));
}

void RecurrentBuilder::runDirection(bool reverse,
                                    ArrayRef<RecurrentActivation> acts,
                                    const RecurrentWeights &weights, Value xw,
                                    SmallVectorImpl<Value> &ys, Value &h,
                                    Value &c) {
  Value r = weights.r, recBias = weights.recBias, peep = weights.peep;
  Value zeros = e.splat(element, {batch, hidden}, 0);
  auto gate = [&](Value g, int64_t k) {
    return slice2d(g, k * hidden, hidden);
  };
  for (int64_t step = 0; step < seq; ++step) {
    int64_t t = reverse ? seq - 1 - step : step;
    Value xt = e.reshape(e.slice(xw, {t, 0, 0}, {1, batch, gates * hidden}),
                           {batch, gates * hidden});
    Value hNew, cNew;
    if (cell == Cell::RNN) {
      hNew = act(acts, 0, e.binary<tosa::AddOp>(xt, linear(h, r, recBias)));
    } else if (cell == Cell::GRU) {
      // Gates z, r, h; H' = h~ + z * (H - h~) = (1 - z) * h~ + z * H.
      Value hr = linear(
          h, linearBeforeReset ? r : e.slice(r, {0, 0}, {2 * hidden, hidden}),
          recBias);
      Value z = act(acts, 0, e.binary<tosa::AddOp>(gate(xt, 0), gate(hr, 0)));
      Value rg = act(acts, 0, e.binary<tosa::AddOp>(gate(xt, 1), gate(hr, 1)));
      Value recurrent =
          linearBeforeReset
              ? e.mul(rg, gate(hr, 2))
              : linear(e.mul(rg, h),
                       e.slice(r, {2 * hidden, 0}, {hidden, hidden}), {});
      Value candidate =
          act(acts, 1, e.binary<tosa::AddOp>(gate(xt, 2), recurrent));
      hNew = e.binary<tosa::AddOp>(
          candidate, e.mul(z, e.binary<tosa::SubOp>(h, candidate)));
    } else {
      // Gates i, o, f, c; peepholes i, o, f.
      Value g = e.binary<tosa::AddOp>(xt, linear(h, r, recBias));
      auto peephole = [&](Value pre, int64_t k, Value state) {
        return peep ? e.binary<tosa::AddOp>(
                          pre, e.mul(state, e.slice(peep, {0, k * hidden},
                                                        {1, hidden})))
                    : pre;
      };
      Value i = act(acts, 0, peephole(gate(g, 0), 0, c));
      Value f = inputForget ? e.binary<tosa::SubOp>(e.scalarLike(i, 1), i)
                            : act(acts, 0, peephole(gate(g, 2), 2, c));
      Value candidate = act(acts, 1, gate(g, 3));
      cNew = e.binary<tosa::AddOp>(e.mul(f, c), e.mul(i, candidate));
      Value o = act(acts, 0, peephole(gate(g, 1), 1, cNew));
      hNew = e.mul(o, act(acts, 2, cNew));
    }
    Value y = hNew;
    if (Value mask = stepMask(t, weights.lens)) {
      hNew = e.select(mask, hNew, h);
      if (cNew)
        cNew = e.select(mask, cNew, c);
      y = e.select(mask, y, zeros);
    }
    h = hNew;
    if (cNew)
      c = cNew;
    if (!ys.empty())
      ys[t] = y;
  }
}

Value RecurrentBuilder::sequenceComposite(bool reverse,
                                          ArrayRef<RecurrentActivation> acts,
                                          const RecurrentWeights &outer,
                                          Value x, Value &h, Value &c) {
  namespace names = mlir::nnapi::composite;
  OpBuilder &b = e.builder;
  bool lstm = cell == Cell::LSTM;
  auto type = [&](Shape shape) { return RankedTensorType::get(shape, element); };
  namespace in = names::input;
  Value bias =
      outer.inBias ? outer.inBias : e.splat(element, {gates * hidden}, 0);
  SmallVector<std::pair<llvm::StringLiteral, ValueRange>> given = {
      {in::kX, x}, {in::kW, outer.w}, {in::kR, outer.r}, {in::kBias, bias},
      {in::kH, h}};
  if (lstm)
    given.push_back({in::kC, c});
  Value peep = outer.peep ? dropLeading(outer.peep) : Value();
  if (peep)
    given.push_back({in::kP, peep});
  if (outer.lens)
    given.push_back({in::kLens, outer.lens});
  SmallVector<Value> inputs =
      names::orderInputs(lstm ? names::kLstm : names::kRnn, given);
  ArrayRef<RecurrentActivation> fgh = acts;
  std::string actNames = fgh[0].name;
  for (size_t i = 1; i < fgh.size(); ++i)
    actNames += "," + fgh[i].name;
  bool parameters = llvm::any_of(
      fgh, [](const RecurrentActivation &a) { return a.alpha || a.beta; });
  bool shortLens = outer.lens || llvm::any_of(constLens, [&](int64_t len) {
                     return len < seq;
                   });
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr(names::kReverse, b.getI64IntegerAttr(reverse)),
      b.getNamedAttr(names::kActivations, b.getStringAttr(actNames)),
      b.getNamedAttr(names::kActivationParameters,
                     b.getI64IntegerAttr(parameters)),
      b.getNamedAttr(names::kSequenceLens, b.getI64IntegerAttr(shortLens))};
  if (lstm) {
    attrs.push_back(
        b.getNamedAttr(names::kInputForget, b.getI64IntegerAttr(inputForget)));
    attrs.push_back(b.getNamedAttr(names::kPeepholes,
                                   b.getI64IntegerAttr(bool(outer.peep))));
  }
  if (clip)
    attrs.push_back(b.getNamedAttr(names::kClip, b.getF64FloatAttr(*clip)));
  SmallVector<Type> results = {type({seq, batch, hidden}), type({batch, hidden})};
  if (lstm)
    results.push_back(type({batch, hidden}));
  auto composite = b.create<CompositeOp>(
      e.loc, results, lstm ? names::kLstm : names::kRnn, inputs,
      b.getDictionaryAttr(attrs));
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = b.createBlock(&composite.getBody());
    // The body reads a constant input from its own copy, so that the
    // unrolled code still sees constant weights (packed products) and a
    // zero initial state (no first recurrent product).
    SmallVector<Value> args;
    for (Value v : inputs) {
      BlockArgument arg = body->addArgument(v.getType(), v.getLoc());
      DenseElementsAttr attr;
      args.push_back(matchPattern(v, m_Constant(&attr)) ? e.constant(attr)
                                                        : Value(arg));
    }
    RecurrentWeights inner{args[1], args[2], args[3], {}, {}, {}};
    size_t next = lstm ? 6 : 5;
    if (outer.peep) {
      DenseElementsAttr attr;
      Value p = args[next++];
      inner.peep = matchPattern(p, m_Constant(&attr))
                       ? e.constant(attr.reshape(type({1, 3 * hidden})))
                       : e.reshape(p, {1, 3 * hidden});
    }
    if (outer.lens)
      inner.lens = args[next++];
    Value xw = e.reshape(linear(e.reshape(args[0], {seq * batch, inputSize}),
                                  inner.w, inner.inBias),
                           {seq, batch, gates * hidden});
    Value hs = args[4], cs = lstm ? args[5] : Value();
    SmallVector<Value> ys(seq);
    runDirection(reverse, acts, inner, xw, ys, hs, cs);
    for (Value &y : ys)
      y = e.reshape(y, {1, batch, hidden});
    Value y = seq == 1 ? ys[0]
                       : Value(b.create<tosa::ConcatOp>(
                             e.loc, type({seq, batch, hidden}), ys, 0));
    SmallVector<Value> yields = {y, hs};
    if (lstm)
      yields.push_back(cs);
    b.create<YieldOp>(e.loc, yields);
  }
  h = composite.getResult(1);
  if (lstm)
    c = composite.getResult(2);
  return composite.getResult(0);
}
