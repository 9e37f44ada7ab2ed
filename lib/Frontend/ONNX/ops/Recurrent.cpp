//===- Recurrent.cpp - RNN, GRU and LSTM ------------------------*- C++ -*-===//
//
// ONNX's recurrent layers: the attributes (direction, layout, activations
// with their alphas and betas, clip, input_forget, linear_before_reset),
// inputs and outputs of each, around the unrolled directions that
// lib/Frontend/Common/Recurrent.h builds for both importers.
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"
#include "../OpRegistry.h"
#include "../../Common/Recurrent.h"

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::onnx_import;

namespace {

using frontend::Cell;
using frontend::RecurrentActivation;
using frontend::RecurrentBuilder;
using Weights = frontend::RecurrentWeights;

class RecurrentLayer {
public:
  explicit RecurrentLayer(NodeContext &ctx) : ctx(ctx), imp(ctx.imp) {}

  LogicalResult import();

private:
  LogicalResult readAttributes();
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
  SmallVector<SmallVector<RecurrentActivation, 3>, 2> acts;
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
    RecurrentActivation act{canonical->str(), std::nullopt, std::nullopt};
    auto [readsAlpha, readsBeta] = Importer::activationParams(*canonical);
    if (readsAlpha && nextAlpha < alphas.size())
      act.alpha = alphas[nextAlpha++];
    if (readsBeta && nextBeta < betas.size())
      act.beta = betas[nextBeta++];
    acts[i / perDir].push_back(act);
  }
  return success();
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
  RecurrentBuilder layer(imp, cell, seq, batch, inputSize, hidden, element);
  layer.clip = clipBound;
  layer.inputForget = inputForget;
  layer.linearBeforeReset = linearBeforeReset;
  layer.constLens = constLens;
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
        layer.dropLeading(imp.slice(ctx.in(1), {d, 0, 0}, {1, gh, inputSize}));
    weights.r = layer.dropLeading(imp.slice(ctx.in(2), {d, 0, 0}, {1, gh, hidden}));
    weights.lens = runtimeLens;
    if (ctx.has(3)) {
      Value wb = layer.dropLeading(imp.slice(ctx.in(3), {d, 0}, {1, gh}));
      Value rb = layer.dropLeading(imp.slice(ctx.in(3), {d, gh}, {1, gh}));
      // GRU with linear_before_reset multiplies Rbh by r: it stays with R.
      if (cell == Cell::GRU && linearBeforeReset) {
        weights.inBias = wb;
        weights.recBias = rb;
      } else {
        weights.inBias = layer.addFolded(wb, rb);
      }
    }
    if (cell == Cell::LSTM && ctx.has(7))
      weights.peep = imp.slice(ctx.in(7), {d, 0}, {1, 3 * hidden});
    auto state = [&](Value all) {
      return all ? layer.dropLeading(imp.slice(all, {d, 0, 0}, {1, batch, hidden}))
                 : imp.splat(element, {batch, hidden}, 0);
    };
    Value h = state(h0), c = cell == Cell::LSTM ? state(c0) : Value();
    if (cell != Cell::GRU) {
      Value y = layer.sequenceComposite(reverseOnly || d == 1, acts[d], weights,
                                       x, h, c);
      if (wants(0))
        yDirs.push_back(imp.reshape(y, {seq, 1, batch, hidden}));
    } else {
      Value xw = imp.reshape(layer.linear(xFlat, weights.w, weights.inBias),
                             {seq, batch, gh});
      SmallVector<Value> ys(wants(0) ? seq : 0);
      layer.runDirection(reverseOnly || d == 1, acts[d], weights, xw, ys, h, c);
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
