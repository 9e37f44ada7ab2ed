//===- Recurrent.cpp - RNN, GRU and LSTM ------------------------*- C++ -*-===//
//
// ONNX's recurrent layers, unrolled over their static sequence length into
// TOSA: the input projection of every step is one product (X times W for
// the whole sequence), then each step multiplies the hidden state by R and
// applies its gates. Constant weights become tosa.fully_connected (NNAPI
// FULLY_CONNECTED, packed host matmuls), runtime weights tosa.matmul.
// sequence_lens masks the steps past each batch entry's length: its state
// holds, its outputs are zero. Processing a reverse direction from the last
// step down with that mask starts each entry at its own last step, as ONNX
// requires. Each direction of an LSTM is one `lstm` composite (Composites.h)
// whose body is that unrolled code: the conversion to the nnapi dialect
// makes it one UNIDIRECTIONAL_SEQUENCE_LSTM where the semantics match, the
// host runs the body.
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"
#include "../OpRegistry.h"

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Transforms/Composites.h"
#include "nnapi-mlir/Transforms/Constants.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::onnx_import;

namespace {

enum class Cell { RNN, GRU, LSTM };

/// What one direction's steps read: W [G*H, K], R [G*H, H], the input
/// bias (Wb + Rb, or Wb alone for GRU's linear_before_reset, whose Rbh stays
/// with R as recBias), peepholes [1, 3H] and run-time lengths [B, 1]; each
/// may be null.
struct Weights {
  Value w, r, inBias, recBias, peep, lens;
};

/// One direction's activation functions with their alpha and beta.
struct Activation {
  std::string name;
  std::optional<double> alpha, beta;
};

class RecurrentLayer {
public:
  explicit RecurrentLayer(NodeContext &ctx) : ctx(ctx), imp(ctx.imp) {}

  LogicalResult import();

private:
  LogicalResult readAttributes();
  /// `v` with its leading dimension of 1 dropped (a constant stays one).
  Value dropLeading(Value v);
  /// x [N, K] times w [M, K] transposed, plus bias [M] if given.
  Value linear(Value x, Value w, Value bias);
  /// a + b, computed now if both are constants.
  Value addFolded(Value a, Value b);
  Value act(int d, int i, Value x);
  /// The mask [B, H] of the batch entries whose sequence reaches step t
  /// (`lens` the run-time lengths, else constLens), or null if all do.
  Value stepMask(int64_t t, Value lens);
  /// Runs direction d over the sequence from its input products xw; fills
  /// ys[t] (or not, if Y is not wanted), and the final states.
  void runDirection(int d, const Weights &weights, Value xw,
                    SmallVectorImpl<Value> &ys, Value &h, Value &c);
  /// LSTM or RNN direction d over time-major x [seq, batch, in] as one
  /// `lstm` or `rnn` composite; returns y [seq, batch, hidden] and sets the
  /// final states (c for an LSTM).
  Value sequenceComposite(int d, const Weights &weights, Value x, Value &h,
                          Value &c);
  Value slice2d(Value v, int64_t col, int64_t width) {
    int64_t rows = imp.typeOf(v).getDimSize(0);
    return imp.slice(v, {0, col}, {rows, width});
  }
  bool wants(int i) const {
    return i < ctx.node.output_size() && !ctx.node.output(i).empty();
  }

  NodeContext &ctx;
  Importer &imp;
  Cell cell = Cell::RNN;
  int64_t gates = 1, seq = 0, batch = 0, inputSize = 0, hidden = 0, dirs = 1;
  bool reverseOnly = false, batchFirst = false;
  bool linearBeforeReset = false, inputForget = false;
  std::optional<double> clipBound;
  /// acts[d][i]: direction d's activation i (f, g, h).
  SmallVector<SmallVector<Activation, 3>, 2> acts;
  Type element;
  /// sequence_lens: a compile-time value, or a [B, 1] int32 runtime value.
  SmallVector<int64_t> constLens;
  Value runtimeLens;
};

LogicalResult RecurrentLayer::readAttributes() {
  StringRef op = ctx.opType();
  cell = op == "LSTM" ? Cell::LSTM : op == "GRU" ? Cell::GRU : Cell::RNN;
  gates = cell == Cell::LSTM ? 4 : cell == Cell::GRU ? 3 : 1;
  std::string direction = ctx.stringAttr("direction", "forward");
  if (direction == "bidirectional")
    dirs = 2;
  else if (direction == "reverse")
    reverseOnly = true;
  else if (direction != "forward")
    return ctx.error() << "direction '" << direction
                       << "' is not forward, reverse or bidirectional";
  int64_t layout = ctx.intAttr("layout", 0);
  if (layout != 0 && layout != 1)
    return ctx.error() << "layout " << layout << " is not 0 or 1";
  batchFirst = layout == 1;
  if (ctx.attr("clip"))
    clipBound = ctx.floatAttr("clip", 0);
  if (clipBound && !(*clipBound > 0))
    return ctx.error() << "clip " << *clipBound << " is not positive";
  linearBeforeReset = ctx.intAttr("linear_before_reset", 0) != 0;
  inputForget = ctx.intAttr("input_forget", 0) != 0;

  // Activations: ONNX names them per direction (f, g[, h]), forward's
  // first; one direction's list serves both. An alpha or beta is consumed,
  // in order, by each function that reads one; those left without take
  // the operator's default.
  int64_t perDir = cell == Cell::LSTM ? 3 : cell == Cell::GRU ? 2 : 1;
  SmallVector<std::string> names;
  if (const onnx::AttributeProto *a = ctx.attr("activations"))
    names.assign(a->strings().begin(), a->strings().end());
  if (names.empty()) {
    for (int64_t d = 0; d < dirs; ++d) {
      if (cell != Cell::RNN)
        names.push_back("Sigmoid");
      names.push_back("Tanh");
      if (cell == Cell::LSTM)
        names.push_back("Tanh");
    }
  } else if (int64_t(names.size()) == perDir && dirs == 2) {
    names.append(SmallVector<std::string>(names));
  } else if (int64_t(names.size()) != perDir * dirs) {
    return ctx.error() << "activations lists " << names.size() << " functions; "
                       << op << " takes " << perDir << " per direction";
  }
  SmallVector<float> alphas, betas;
  if (const onnx::AttributeProto *a = ctx.attr("activation_alpha"))
    alphas.assign(a->floats().begin(), a->floats().end());
  if (const onnx::AttributeProto *a = ctx.attr("activation_beta"))
    betas.assign(a->floats().begin(), a->floats().end());
  size_t nextAlpha = 0, nextBeta = 0;
  acts.resize(dirs);
  for (auto [i, name] : llvm::enumerate(names)) {
    // ONNX compares the names without regard to case.
    StringRef spelled = name;
    const StringLiteral *canonical =
        llvm::find_if(Importer::activationNames(), [&](StringRef known) {
          return known.equals_insensitive(spelled);
        });
    if (canonical == Importer::activationNames().end())
      return ctx.error() << "activation '" << name
                         << "' is not one the recurrent operators allow";
    Activation act{canonical->str(), std::nullopt, std::nullopt};
    auto [readsAlpha, readsBeta] = Importer::activationParams(*canonical);
    if (readsAlpha && nextAlpha < alphas.size())
      act.alpha = alphas[nextAlpha++];
    if (readsBeta && nextBeta < betas.size())
      act.beta = betas[nextBeta++];
    acts[i / perDir].push_back(act);
  }
  return success();
}

Value RecurrentLayer::dropLeading(Value v) {
  RankedTensorType t = imp.typeOf(v);
  auto type = RankedTensorType::get(t.getShape().drop_front(), element);
  DenseElementsAttr attr;
  if (matchPattern(v, m_Constant(&attr)))
    return imp.constant(attr.reshape(type));
  return imp.reshape(v, type.getShape());
}

Value RecurrentLayer::linear(Value x, Value wt, Value bias) {
  int64_t n = imp.typeOf(x).getDimSize(0), k = imp.typeOf(x).getDimSize(1),
          m = imp.typeOf(wt).getDimSize(0);
  auto resultType = RankedTensorType::get({n, m}, element);
  DenseElementsAttr weights, biasAttr;
  if (std::optional<double> zero = splatValue(x); zero && *zero == 0) {
    // The first step's product with a zero initial state: the bias alone.
    if (!bias)
      return imp.splat(element, {n, m}, 0);
    if (matchPattern(bias, m_Constant(&biasAttr))) {
      SmallVector<double> rows, row = floatsOf(biasAttr);
      for (int64_t i = 0; i < n; ++i)
        rows.append(row);
      return imp.constant(denseOf(resultType, rows));
    }
    return imp.binary<tosa::AddOp>(imp.splat(element, {n, m}, 0),
                                   imp.toRank(bias, 2));
  }
  if (matchPattern(wt, m_Constant(&weights))) {
    bool constBias = !bias || matchPattern(bias, m_Constant(&biasAttr));
    Value fcBias = constBias && bias ? bias : imp.splat(element, {m}, 0);
    Value y = ctx.b.create<tosa::FullyConnectedOp>(ctx.loc, resultType, x, wt,
                                                   fcBias, nullptr);
    return constBias ? y : imp.binary<tosa::AddOp>(y, imp.toRank(bias, 2));
  }
  Value product = ctx.b.create<tosa::MatMulOp>(
      ctx.loc, RankedTensorType::get({1, n, m}, element),
      imp.reshape(x, {1, n, k}),
      imp.reshape(imp.transpose(wt, {1, 0}), {1, k, m}));
  Value y = imp.reshape(product, {n, m});
  return bias ? imp.binary<tosa::AddOp>(y, imp.toRank(bias, 2)) : y;
}

Value RecurrentLayer::addFolded(Value a, Value b) {
  DenseElementsAttr x, y;
  if (matchPattern(a, m_Constant(&x)) && matchPattern(b, m_Constant(&y))) {
    SmallVector<double> sum = floatsOf(x), other = floatsOf(y);
    for (auto [s, o] : llvm::zip(sum, other))
      s += o;
    return imp.constant(denseOf(cast<RankedTensorType>(x.getType()), sum));
  }
  return imp.binary<tosa::AddOp>(a, b);
}

Value RecurrentLayer::act(int d, int i, Value x) {
  if (clipBound)
    x = imp.clamp(x, -*clipBound, *clipBound);
  const Activation &a = acts[d][i];
  return imp.activation(a.name, x, a.alpha, a.beta);
}

Value RecurrentLayer::stepMask(int64_t t, Value lens) {
  // Full [B, H]: NNAPI's SELECT does not broadcast.
  OpBuilder &b = ctx.b;
  auto maskType = RankedTensorType::get({batch, hidden}, b.getI1Type());
  if (lens)
    return b.create<tosa::GreaterOp>(
        ctx.loc, maskType, lens,
        imp.splat(b.getI32Type(), {1, hidden}, double(t)));
  if (constLens.empty() ||
      llvm::all_of(constLens, [&](int64_t len) { return len > t; }))
    return {};
  SmallVector<bool> mask;
  for (int64_t len : constLens)
    mask.append(hidden, len > t);
  return imp.constant(DenseElementsAttr::get(maskType, ArrayRef<bool>(mask)));
}

void RecurrentLayer::runDirection(int d, const Weights &weights, Value xw,
                                  SmallVectorImpl<Value> &ys, Value &h,
                                  Value &c) {
  Value r = weights.r, recBias = weights.recBias, peep = weights.peep;
  bool reverse = reverseOnly || d == 1;
  Value zeros = imp.splat(element, {batch, hidden}, 0);
  auto gate = [&](Value g, int64_t k) {
    return slice2d(g, k * hidden, hidden);
  };
  for (int64_t step = 0; step < seq; ++step) {
    int64_t t = reverse ? seq - 1 - step : step;
    Value xt = imp.reshape(imp.slice(xw, {t, 0, 0}, {1, batch, gates * hidden}),
                           {batch, gates * hidden});
    Value hNew, cNew;
    if (cell == Cell::RNN) {
      hNew = act(d, 0, imp.binary<tosa::AddOp>(xt, linear(h, r, recBias)));
    } else if (cell == Cell::GRU) {
      // Gates z, r, h; H' = h~ + z * (H - h~) = (1 - z) * h~ + z * H.
      Value hr = linear(
          h, linearBeforeReset ? r : imp.slice(r, {0, 0}, {2 * hidden, hidden}),
          recBias);
      Value z = act(d, 0, imp.binary<tosa::AddOp>(gate(xt, 0), gate(hr, 0)));
      Value rg = act(d, 0, imp.binary<tosa::AddOp>(gate(xt, 1), gate(hr, 1)));
      Value recurrent =
          linearBeforeReset
              ? imp.mul(rg, gate(hr, 2))
              : linear(imp.mul(rg, h),
                       imp.slice(r, {2 * hidden, 0}, {hidden, hidden}), {});
      Value candidate =
          act(d, 1, imp.binary<tosa::AddOp>(gate(xt, 2), recurrent));
      hNew = imp.binary<tosa::AddOp>(
          candidate, imp.mul(z, imp.binary<tosa::SubOp>(h, candidate)));
    } else {
      // Gates i, o, f, c; peepholes i, o, f.
      Value g = imp.binary<tosa::AddOp>(xt, linear(h, r, recBias));
      auto peephole = [&](Value pre, int64_t k, Value state) {
        return peep ? imp.binary<tosa::AddOp>(
                          pre, imp.mul(state, imp.slice(peep, {0, k * hidden},
                                                        {1, hidden})))
                    : pre;
      };
      Value i = act(d, 0, peephole(gate(g, 0), 0, c));
      Value f = inputForget ? imp.binary<tosa::SubOp>(imp.scalarLike(i, 1), i)
                            : act(d, 0, peephole(gate(g, 2), 2, c));
      Value candidate = act(d, 1, gate(g, 3));
      cNew = imp.binary<tosa::AddOp>(imp.mul(f, c), imp.mul(i, candidate));
      Value o = act(d, 0, peephole(gate(g, 1), 1, cNew));
      hNew = imp.mul(o, act(d, 2, cNew));
    }
    Value y = hNew;
    if (Value mask = stepMask(t, weights.lens)) {
      hNew = select(ctx, mask, hNew, h);
      if (cNew)
        cNew = select(ctx, mask, cNew, c);
      y = select(ctx, mask, y, zeros);
    }
    h = hNew;
    if (cNew)
      c = cNew;
    if (!ys.empty())
      ys[t] = y;
  }
}

Value RecurrentLayer::sequenceComposite(int d, const Weights &outer, Value x,
                                        Value &h, Value &c) {
  namespace names = mlir::nnapi::composite;
  OpBuilder &b = ctx.b;
  bool lstm = cell == Cell::LSTM;
  auto type = [&](Shape shape) { return RankedTensorType::get(shape, element); };
  SmallVector<Value> inputs = {
      x, outer.w, outer.r,
      outer.inBias ? outer.inBias : imp.splat(element, {gates * hidden}, 0), h};
  if (lstm)
    inputs.push_back(c);
  if (outer.peep)
    inputs.push_back(dropLeading(outer.peep));
  if (outer.lens)
    inputs.push_back(outer.lens);
  const SmallVector<Activation, 3> &fgh = acts[d];
  std::string actNames = fgh[0].name;
  for (size_t i = 1; i < fgh.size(); ++i)
    actNames += "," + fgh[i].name;
  bool parameters = llvm::any_of(
      fgh, [](const Activation &a) { return a.alpha || a.beta; });
  bool shortLens = outer.lens || llvm::any_of(constLens, [&](int64_t len) {
                     return len < seq;
                   });
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr(names::kReverse, b.getI64IntegerAttr(reverseOnly || d)),
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
  if (clipBound)
    attrs.push_back(b.getNamedAttr(names::kClip, b.getF64FloatAttr(*clipBound)));
  SmallVector<Type> results = {type({seq, batch, hidden}), type({batch, hidden})};
  if (lstm)
    results.push_back(type({batch, hidden}));
  auto composite = b.create<CompositeOp>(
      ctx.loc, results, lstm ? names::kLstm : names::kRnn, inputs,
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
      args.push_back(matchPattern(v, m_Constant(&attr)) ? imp.constant(attr)
                                                        : Value(arg));
    }
    Weights inner{args[1], args[2], args[3], {}, {}, {}};
    size_t next = lstm ? 6 : 5;
    if (outer.peep) {
      DenseElementsAttr attr;
      Value p = args[next++];
      inner.peep = matchPattern(p, m_Constant(&attr))
                       ? imp.constant(attr.reshape(type({1, 3 * hidden})))
                       : imp.reshape(p, {1, 3 * hidden});
    }
    if (outer.lens)
      inner.lens = args[next++];
    Value xw = imp.reshape(linear(imp.reshape(args[0], {seq * batch, inputSize}),
                                  inner.w, inner.inBias),
                           {seq, batch, gates * hidden});
    Value hs = args[4], cs = lstm ? args[5] : Value();
    SmallVector<Value> ys(seq);
    runDirection(d, inner, xw, ys, hs, cs);
    for (Value &y : ys)
      y = imp.reshape(y, {1, batch, hidden});
    Value y = seq == 1 ? ys[0]
                       : Value(b.create<tosa::ConcatOp>(
                             ctx.loc, type({seq, batch, hidden}), ys, 0));
    SmallVector<Value> yields = {y, hs};
    if (lstm)
      yields.push_back(cs);
    b.create<YieldOp>(ctx.loc, yields);
  }
  h = composite.getResult(1);
  if (lstm)
    c = composite.getResult(2);
  return composite.getResult(0);
}

LogicalResult RecurrentLayer::import() {
  if (failed(readAttributes()))
    return failure();
  Value x = ctx.in(0);
  if (failed(requireFloat(ctx, x)))
    return failure();
  element = imp.typeOf(x).getElementType();
  if (batchFirst)
    x = imp.transpose(x, {1, 0, 2});
  RankedTensorType xt = imp.typeOf(x), wt = imp.typeOf(ctx.in(1)),
                   rt = imp.typeOf(ctx.in(2));
  if (xt.getRank() != 3 || wt.getRank() != 3 || rt.getRank() != 3)
    return ctx.error() << "X, W and R must have rank 3";
  seq = xt.getDimSize(0);
  batch = xt.getDimSize(1);
  inputSize = xt.getDimSize(2);
  hidden = ctx.intAttr("hidden_size", rt.getDimSize(2));
  if (hidden != rt.getDimSize(2))
    return ctx.error() << "hidden_size " << hidden << " is not R's last "
                       << "dimension (" << rt.getDimSize(2) << ")";
  if (wt.getShape() != ArrayRef<int64_t>{dirs, gates * hidden, inputSize} ||
      rt.getShape() != ArrayRef<int64_t>{dirs, gates * hidden, hidden})
    return ctx.error() << "W " << wt << " and R " << rt << " do not match "
                       << dirs << " direction(s), " << gates
                       << " gate(s), hidden size " << hidden
                       << " and input size " << inputSize;
  if (imp.typeOf(ctx.in(1)).getElementType() != element ||
      imp.typeOf(ctx.in(2)).getElementType() != element)
    return ctx.error() << "W and R must have X's element type";
  if (seq < 1 || batch < 1 || inputSize < 1 || hidden < 1)
    return ctx.error() << "X " << xt << " and hidden size " << hidden
                       << ": zero-size tensors are not supported";
  // About this many operations per step and direction.
  int64_t perStep = cell == Cell::LSTM ? 25 : cell == Cell::GRU ? 20 : 8;
  if (seq * dirs * perStep > kMaxUnrolledNodes)
    return ctx.error() << "a sequence of " << seq << " steps"
                       << (dirs == 2 ? " in both directions" : "")
                       << " is longer than the importer unrolls ("
                       << kMaxUnrolledNodes / perStep / dirs << ")";
  auto expect = [&](int i, StringRef what,
                    ArrayRef<int64_t> shape) -> LogicalResult {
    if (!ctx.has(i) || imp.typeOf(ctx.in(i)).getShape() == shape)
      return success();
    InFlightDiagnostic diag = ctx.error();
    diag << what << " is " << imp.typeOf(ctx.in(i)) << ", not [";
    llvm::interleaveComma(shape, diag);
    diag << "]";
    return failure();
  };
  if (failed(expect(3, "B", {dirs, 2 * gates * hidden})) ||
      failed(expect(4, "sequence_lens", {batch})) ||
      (cell == Cell::LSTM && failed(expect(7, "P", {dirs, 3 * hidden}))))
    return failure();
  if (ctx.has(3) && imp.typeOf(ctx.in(3)).getElementType() != element)
    return ctx.error() << "B must have X's element type";

  if (ctx.has(4)) {
    if (DenseElementsAttr lens = ctx.cst(4)) {
      constLens = intsOf(lens);
      if (llvm::any_of(constLens,
                       [&](int64_t len) { return len < 0 || len > seq; }))
        return ctx.error() << "sequence_lens holds a length outside [0, " << seq
                           << "]";
    } else {
      runtimeLens =
          imp.reshape(imp.castTo(ctx.in(4), ctx.b.getI32Type()), {batch, 1});
    }
  }
  // Initial states as [D, B, H].
  auto initial = [&](int i) -> Value {
    if (!ctx.has(i))
      return {};
    Value v = ctx.in(i);
    return batchFirst ? imp.transpose(v, {1, 0, 2}) : v;
  };
  Value h0 = initial(5), c0 = cell == Cell::LSTM ? initial(6) : Value();
  for (Value v : {h0, c0})
    if (v && imp.typeOf(v).getShape() != ArrayRef<int64_t>{dirs, batch, hidden})
      return ctx.error() << "initial state " << imp.typeOf(v)
                         << " is not [directions, batch, hidden] = [" << dirs
                         << ", " << batch << ", " << hidden << "]";
  Value xFlat = imp.reshape(x, {seq * batch, inputSize});

  SmallVector<Value> yDirs, hDirs, cDirs;
  for (int d = 0; d < dirs; ++d) {
    int64_t gh = gates * hidden;
    Weights weights;
    weights.w =
        dropLeading(imp.slice(ctx.in(1), {d, 0, 0}, {1, gh, inputSize}));
    weights.r = dropLeading(imp.slice(ctx.in(2), {d, 0, 0}, {1, gh, hidden}));
    weights.lens = runtimeLens;
    if (ctx.has(3)) {
      Value wb = dropLeading(imp.slice(ctx.in(3), {d, 0}, {1, gh}));
      Value rb = dropLeading(imp.slice(ctx.in(3), {d, gh}, {1, gh}));
      // GRU with linear_before_reset multiplies Rbh by r: it stays with R.
      if (cell == Cell::GRU && linearBeforeReset) {
        weights.inBias = wb;
        weights.recBias = rb;
      } else {
        weights.inBias = addFolded(wb, rb);
      }
    }
    if (cell == Cell::LSTM && ctx.has(7))
      weights.peep = imp.slice(ctx.in(7), {d, 0}, {1, 3 * hidden});
    auto state = [&](Value all) {
      return all ? dropLeading(imp.slice(all, {d, 0, 0}, {1, batch, hidden}))
                 : imp.splat(element, {batch, hidden}, 0);
    };
    Value h = state(h0), c = cell == Cell::LSTM ? state(c0) : Value();
    if (cell != Cell::GRU) {
      Value y = sequenceComposite(d, weights, x, h, c);
      if (wants(0))
        yDirs.push_back(imp.reshape(y, {seq, 1, batch, hidden}));
    } else {
      Value xw = imp.reshape(linear(xFlat, weights.w, weights.inBias),
                             {seq, batch, gh});
      SmallVector<Value> ys(wants(0) ? seq : 0);
      runDirection(d, weights, xw, ys, h, c);
      if (wants(0)) {
        for (Value &y : ys)
          y = imp.reshape(y, {1, 1, batch, hidden});
        yDirs.push_back(ctx.b.create<tosa::ConcatOp>(
            ctx.loc, RankedTensorType::get({seq, 1, batch, hidden}, element),
            ys, 0));
      }
    }
    hDirs.push_back(imp.reshape(h, {1, batch, hidden}));
    if (c)
      cDirs.push_back(imp.reshape(c, {1, batch, hidden}));
  }
  auto join = [&](ArrayRef<Value> parts, Shape shape, int64_t axis) {
    if (parts.size() == 1)
      return parts[0];
    return Value(ctx.b.create<tosa::ConcatOp>(
        ctx.loc, RankedTensorType::get(shape, element), parts, axis));
  };
  if (wants(0)) {
    Value y = join(yDirs, {seq, dirs, batch, hidden}, 1);
    if (failed(ctx.define(0, batchFirst ? imp.transpose(y, {2, 0, 1, 3}) : y)))
      return failure();
  }
  // Y_h, then Y_c (LSTM).
  const SmallVector<Value> *finalStates[] = {&hDirs, &cDirs};
  for (int i = 1; i <= 2; ++i) {
    if (!wants(i) || finalStates[i - 1]->empty())
      continue;
    Value s = join(*finalStates[i - 1], {dirs, batch, hidden}, 0);
    if (failed(ctx.define(i, batchFirst ? imp.transpose(s, {1, 0, 2}) : s)))
      return failure();
  }
  return success();
}

LogicalResult importRecurrent(NodeContext &ctx) {
  return RecurrentLayer(ctx).import();
}

} // namespace

void mlir::nnapi::onnx_import::registerRecurrentOps(OpRegistry &registry) {
  constexpr int64_t lo = kMinONNXOpset, hi = kAnyOpset;
  const char *nnapi = "per step FULLY_CONNECTED, ADD, MUL, LOGISTIC, TANH (1), "
                      "SLICE (2), SELECT (3)";
  const char *lstm = "UNIDIRECTIONAL_SEQUENCE_LSTM (4) per direction (GATHER "
                     "(3) reverses one); with sequence_lens, clip, input_forget "
                     "or other activations, per step FULLY_CONNECTED, ADD, MUL, "
                     "LOGISTIC, TANH (1), SLICE (2), SELECT (3)";
  const char *rnn = "UNIDIRECTIONAL_SEQUENCE_RNN (3) per direction with "
                    "Relu (GATHER (3) reverses one); with Tanh (NNAPI's RNN "
                    "has no tanh), other activations, sequence_lens or clip, "
                    "per step FULLY_CONNECTED, ADD, TANH (1), SLICE (2), "
                    "SELECT (3)";
  const char *host = "runtime sequence_lens (its integer comparison)";
  registry.add({
      {"", "RNN", lo, hi, importRecurrent,
       "an rnn composite per direction: unrolled fully_connected (matmul for "
       "runtime weights), add, the activation per step",
       rnn, host},
      {"", "GRU", lo, hi, importRecurrent,
       "unrolled: fully_connected (matmul for runtime weights), slices, "
       "gates per step",
       nnapi, host},
      {"", "LSTM", lo, hi, importRecurrent,
       "an lstm composite per direction: unrolled fully_connected (matmul "
       "for runtime weights), slices, gates and peepholes per step",
       lstm, host},
  });
}
