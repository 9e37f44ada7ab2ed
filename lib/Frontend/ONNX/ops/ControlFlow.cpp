//===- ControlFlow.cpp - If, Loop and Scan ----------------------*- C++ -*-===//
//
// If, resolved at compile time where it can be: a condition that folds to a
// constant selects its branch, imported inline; a condition computed only
// from scalar inputs (a sample rate, a flag), one of them offered with
// --specialize-value, asks for their values (the import is retried with
// them bound, and every run checks them). A condition known only at run
// time imports both branches, which must give the same types; small ones
// both run and their results are selected (ONNX's operators have no side
// effects here, so running both is correct, at the cost of the branch not
// taken), larger ones become a tosa.cond_if, on the host.
//
// Loop and Scan are unrolled: the body is imported once per iteration, its
// loop-carried values fed to the next, its scan outputs stacked. A Loop
// whose trip count or condition is known only at run time (a trip count
// from an offered input is specialized like If's condition), or too long
// to unroll, becomes a tosa.while_loop on the host. A Scan's length is its
// inputs' static dimension.
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"
#include "../OpRegistry.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::nnapi::onnx_import;

namespace {

/// Inputs of at most this many elements (scalars) can be parameters (a
/// rate, a mode, a flag) that an If's condition is specialized to; larger
/// ones are data.
constexpr int64_t kMaxParameterElements = 1;

/// Branches of a run-time If with at most this many operations each both
/// run, their results selected: NNAPI can run them, and running the branch
/// not taken costs little. Larger ones make a conditional on the host
/// (tosa.cond_if) that runs one.
constexpr int64_t kMaxSelectedBranchOps = 16;

Value materialize(Importer &imp, const Importer::Bound &b) {
  return b.constant ? imp.constant(b.constant) : b.value;
}

LogicalResult importIf(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  const onnx::AttributeProto *thenAttr = ctx.attr("then_branch");
  const onnx::AttributeProto *elseAttr = ctx.attr("else_branch");
  if (!thenAttr || !thenAttr->has_g() || !elseAttr || !elseAttr->has_g())
    return ctx.error() << "then_branch and else_branch must be graphs";
  const onnx::GraphProto &thenGraph = thenAttr->g();
  const onnx::GraphProto &elseGraph = elseAttr->g();
  int outputs = ctx.node.output_size();
  if (thenGraph.output_size() != outputs || elseGraph.output_size() != outputs)
    return ctx.error() << "the branches give " << thenGraph.output_size()
                       << " and " << elseGraph.output_size()
                       << " outputs; the node has " << outputs;
  if (thenGraph.input_size() || elseGraph.input_size())
    return ctx.error() << "an If branch takes no inputs";

  if (DenseElementsAttr cond = ctx.cst(0)) {
    if (cond.getNumElements() != 1)
      return ctx.error() << "the condition holds " << cond.getNumElements()
                         << " elements; it must hold one";
    FailureOr<SmallVector<Importer::Bound>> results =
        imp.importSubgraph(intsOf(cond)[0] ? thenGraph : elseGraph, {});
    if (failed(results))
      return failure();
    for (int i = 0; i < outputs; ++i)
      if (failed(ctx.defineBound(i, (*results)[i])))
        return failure();
    return success();
  }

  // A condition computed from scalar inputs only (a sample rate, a mode, a
  // flag; not data) is a choice of code path: if one of them is offered for
  // specialization, ask for it (the import is retried with it bound).
  std::set<std::string> behind = imp.inputsBehind({ctx.node.input(0)});
  bool parameters =
      !behind.empty() && llvm::all_of(behind, [&](const std::string &in) {
        int64_t n = imp.runtimeElements(in);
        return n >= 0 && n <= kMaxParameterElements;
      });
  if (parameters && llvm::any_of(behind, [&](const std::string &in) {
        return imp.offered(in);
      }))
    return LogicalResult(ctx.needConstant(0, "the condition"));

  Value cond = ctx.in(0);
  if (imp.typeOf(cond).getNumElements() != 1)
    return ctx.error() << "the condition is " << imp.typeOf(cond)
                       << "; it must hold one element";
  // Each branch is imported into a block of its own: then the ops either
  // join the graph, both branches run and their results are selected, or
  // the blocks become the regions of a tosa.cond_if.
  OpBuilder &b = ctx.b;
  struct Branch {
    Block *block = new Block;
    SmallVector<Value> results;
    ~Branch() {
      if (block) {
        block->dropAllReferences();
        delete block;
      }
    }
  } branches[2];
  const onnx::GraphProto *graphs[2] = {&thenGraph, &elseGraph};
  for (int k = 0; k < 2; ++k) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(branches[k].block);
    FailureOr<SmallVector<Importer::Bound>> results =
        imp.importSubgraph(*graphs[k], {});
    if (failed(results))
      return failure();
    for (const Importer::Bound &r : *results)
      branches[k].results.push_back(materialize(imp, r));
  }
  std::string inputs;
  for (const std::string &in : parameters ? behind : std::set<std::string>())
    inputs += (inputs.empty() ? "'" : ", '") + in + "'";
  for (int i = 0; i < outputs; ++i) {
    Value a = branches[0].results[i], c = branches[1].results[i];
    if (a.getType() != c.getType()) {
      InFlightDiagnostic diag = ctx.error();
      diag << "the condition is known only at run time and the branches "
              "give output "
           << i << " as " << a.getType() << " and " << c.getType()
           << "; a conditional whose branches differ in type is not "
              "supported";
      if (!inputs.empty())
        diag << " (compile for one value of " << inputs
             << " with --input-value or --specialize-value)";
      return diag;
    }
  }
  auto work = [](Block *block) {
    return llvm::count_if(*block, [](Operation &op) {
      return !matchPattern(&op, m_Constant());
    });
  };
  int64_t larger = std::max(work(branches[0].block), work(branches[1].block));
  if (larger > kMaxSelectedBranchOps) {
    // Run one branch: a conditional on the host.
    SmallVector<Type> types;
    for (Value v : branches[0].results)
      types.push_back(v.getType());
    auto conditional = b.create<tosa::IfOp>(
        ctx.loc, types, imp.reshape(cond, {}), ValueRange());
    Region *regions[2] = {&conditional.getThenBranch(),
                          &conditional.getElseBranch()};
    for (int k = 0; k < 2; ++k) {
      Block *block = branches[k].block;
      branches[k].block = nullptr;
      regions[k]->push_back(block);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToEnd(block);
      b.create<tosa::YieldOp>(ctx.loc, branches[k].results);
    }
    for (int i = 0; i < outputs; ++i)
      if (failed(ctx.defineBound(i, {conditional.getResult(i), {}})))
        return failure();
    return success();
  }
  // Small branches: both run, and what NNAPI can run stays offloadable.
  for (Branch &branch : branches) {
    Block *here = b.getInsertionBlock();
    here->getOperations().splice(b.getInsertionPoint(),
                                 branch.block->getOperations());
  }
  for (int i = 0; i < outputs; ++i)
    if (failed(ctx.defineBound(
            i, {select(ctx, cond, branches[0].results[i],
                       branches[1].results[i]),
                {}})))
      return failure();
  InFlightDiagnostic warning = emitWarning(ctx.loc)
                               << "If: the condition is known only at run "
                                  "time; both branches run and their results "
                                  "are selected";
  if (!inputs.empty())
    warning << " (compile for one value of " << inputs
            << " with --input-value or --specialize-value to run one)";
  return success();
}

/// `values` stacked along a new dimension `axis` (0 <= axis <= rank).
Value stack(NodeContext &ctx, ArrayRef<Value> values, int64_t axis) {
  Importer &imp = ctx.imp;
  SmallVector<Value> parts;
  for (Value v : values) {
    Shape shape(imp.typeOf(v).getShape());
    shape.insert(shape.begin() + axis, 1);
    parts.push_back(imp.reshape(v, shape));
  }
  if (parts.size() == 1)
    return parts[0];
  Shape shape(imp.typeOf(parts[0]).getShape());
  shape[axis] = int64_t(parts.size());
  return ctx.b.create<tosa::ConcatOp>(
      ctx.loc,
      RankedTensorType::get(shape, imp.typeOf(parts[0]).getElementType()),
      parts, axis);
}

Importer::Bound boundInput(NodeContext &ctx, int i) {
  if (DenseElementsAttr c = ctx.cst(i))
    return {{}, c};
  return {ctx.in(i), {}};
}

/// Defines a Loop's or Scan's outputs: the final loop-carried values, then
/// the scan outputs `scanOutput(k)` stacks.
LogicalResult
defineLoopOutputs(NodeContext &ctx, ArrayRef<Importer::Bound> state,
                  function_ref<FailureOr<Value>(int64_t)> scanOutput) {
  for (int i = 0; i < ctx.node.output_size(); ++i) {
    if (ctx.node.output(i).empty())
      continue;
    if (i < int(state.size())) {
      if (failed(ctx.defineBound(i, state[i])))
        return failure();
      continue;
    }
    FailureOr<Value> stacked = scanOutput(i - int64_t(state.size()));
    if (failed(stacked) || failed(ctx.defineBound(i, {*stacked, {}})))
      return failure();
  }
  return success();
}

const onnx::GraphProto *bodyOf(NodeContext &ctx) {
  const onnx::AttributeProto *body = ctx.attr("body");
  if (!body || !body->has_g()) {
    ctx.error() << "the body must be a graph";
    return nullptr;
  }
  return &body->g();
}

/// Whether `graph` (or a subgraph inside it) reads the value `name`.
bool graphReads(const onnx::GraphProto &graph, const std::string &name) {
  for (const onnx::NodeProto &node : graph.node()) {
    for (const std::string &in : node.input())
      if (in == name)
        return true;
    for (const onnx::AttributeProto &attr : node.attribute()) {
      if (attr.has_g() && graphReads(attr.g(), name))
        return true;
      for (const onnx::GraphProto &g : attr.graphs())
        if (graphReads(g, name))
          return true;
    }
  }
  for (const onnx::ValueInfoProto &out : graph.output())
    if (out.name() == name)
      return true;
  return false;
}

/// A Loop run at run time: tosa.while_loop over ([iteration,] condition,
/// loop-carried values...), the body imported once into its region. The
/// loop-carried values keep their types; scan outputs, whose size would
/// be known only at run time, are refused. The iteration count and the
/// condition are one-element [1] tensors, the count float32 when a
/// constant trip count of at most 2^24 bounds it (else int64) and left out
/// when neither the trip count nor the body reads it: NNAPI's WHILE can
/// then run the loop.
LogicalResult importWhile(NodeContext &ctx, const onnx::GraphProto &body,
                          int carried, int scans, StringRef why) {
  Importer &imp = ctx.imp;
  OpBuilder &b = ctx.b;
  if (scans)
    return ctx.error() << why
                       << ", so it runs as a loop of run-time length, which "
                          "cannot have scan outputs (their size would be "
                          "known only at run time)";
  Type i64 = b.getI64Type(), i1 = b.getI1Type();
  auto oneInput = [&](int i, Type element,
                      StringRef what) -> FailureOr<Value> {
    Value v = ctx.in(i);
    if (imp.typeOf(v).getNumElements() != 1)
      return ctx.error() << what << " is " << imp.typeOf(v)
                         << "; it must hold one element";
    return imp.reshape(imp.castTo(v, element), {1});
  };
  bool counted = ctx.has(0) || graphReads(body, body.input(0).name());
  // float32 counts exactly to 2^24, which NNAPI's ADD and GREATER take
  // at every level.
  Type countType = i64;
  if (DenseElementsAttr m = ctx.has(0) ? ctx.cst(0) : DenseElementsAttr())
    if (m.getNumElements() == 1 && intsOf(m)[0] <= (int64_t(1) << 24))
      countType = b.getF32Type();
  Value tripCount;
  if (ctx.has(0)) {
    FailureOr<Value> m = oneInput(0, countType, "the trip count");
    if (failed(m))
      return failure();
    tripCount = *m;
  }
  SmallVector<Value> inits;
  if (counted)
    inits.push_back(imp.splat(countType, {1}, 0));
  unsigned condAt = inits.size(), firstCarried = condAt + 1;
  inits.push_back(imp.splat(i1, {1}, 1));
  if (ctx.has(1)) {
    FailureOr<Value> c = oneInput(1, i1, "the condition");
    if (failed(c))
      return failure();
    inits[condAt] = *c;
  }
  for (int i = 0; i < carried; ++i)
    inits.push_back(materialize(imp, boundInput(ctx, i + 2)));
  auto loop = b.create<tosa::WhileOp>(ctx.loc, ValueRange(inits).getTypes(),
                                      inits);
  Type flag = RankedTensorType::get({1}, i1);
  {
    OpBuilder::InsertionGuard guard(b);
    Block *cond = b.createBlock(&loop.getCond());
    for (Value v : inits)
      cond->addArgument(v.getType(), ctx.loc);
    Value keep = cond->getArgument(condAt);
    if (tripCount)
      keep = b.create<tosa::LogicalAndOp>(
          ctx.loc, flag, keep,
          b.create<tosa::GreaterOp>(ctx.loc, flag, tripCount,
                                    cond->getArgument(0)));
    b.create<tosa::YieldOp>(ctx.loc, imp.reshape(keep, {}));
  }
  OpBuilder::InsertionGuard guard(b);
  Block *step = b.createBlock(&loop.getBody());
  for (Value v : inits)
    step->addArgument(v.getType(), ctx.loc);
  // The body sees ONNX's scalars: the iteration as int64, the condition.
  Value iteration = counted ? imp.reshape(imp.castTo(step->getArgument(0), i64), {})
                            : imp.splat(i64, {}, 0);
  SmallVector<Importer::Bound> inputs = {
      {iteration, {}}, {imp.reshape(step->getArgument(condAt), {}), {}}};
  for (int i = 0; i < carried; ++i)
    inputs.push_back({step->getArgument(firstCarried + i), {}});
  FailureOr<SmallVector<Importer::Bound>> outs =
      imp.importSubgraph(body, inputs);
  if (failed(outs))
    return failure();
  SmallVector<Value> yields;
  if (counted)
    yields.push_back(b.create<tosa::AddOp>(ctx.loc, inits[0].getType(),
                                           step->getArgument(0),
                                           imp.splat(countType, {1}, 1)));
  for (int i = 0; i < 1 + carried; ++i) {
    Value v = materialize(imp, (*outs)[i]);
    Type expected = inits[condAt + i].getType();
    if (i == 0 && imp.typeOf(v).getNumElements() == 1)
      v = imp.reshape(v, {1});
    if (v.getType() != expected)
      return ctx.error() << "the body gives "
                         << (i == 0 ? std::string("its condition")
                                    : "loop-carried value " +
                                          std::to_string(i - 1))
                         << " as " << v.getType() << ", not " << expected
                         << " (a loop of run-time length keeps its types)";
    yields.push_back(v);
  }
  b.create<tosa::YieldOp>(ctx.loc, yields);
  // What the body does not use goes (the iteration's conversion to int64
  // when nothing reads it), so that NNAPI sees only what the loop does.
  SmallVector<Operation *> ops;
  for (Operation &op : step->without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      op->erase();
  b.setInsertionPointAfter(loop);
  SmallVector<Importer::Bound> state;
  for (int i = 0; i < carried; ++i)
    state.push_back({loop.getResult(firstCarried + i), {}});
  return defineLoopOutputs(ctx, state, [&](int64_t) -> FailureOr<Value> {
    return ctx.error() << "internal error: a scan output of a run-time loop";
  });
}

/// An input of the node known only at run time, not offered for
/// specialization.
bool runtimeOnly(NodeContext &ctx, int i) {
  if (!ctx.has(i) || ctx.cst(i))
    return false;
  std::set<std::string> behind = ctx.imp.inputsBehind({ctx.node.input(i)});
  return llvm::none_of(behind, [&](const std::string &in) {
    return ctx.imp.offered(in);
  });
}

LogicalResult importLoop(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  const onnx::GraphProto *body = bodyOf(ctx);
  if (!body)
    return failure();
  int carried = ctx.node.input_size() - 2;
  int scans = body->output_size() - 1 - carried;
  if (carried < 0 || body->input_size() != carried + 2 || scans < 0 ||
      ctx.node.output_size() > carried + scans)
    return ctx.error() << "the body takes " << body->input_size()
                       << " inputs and gives " << body->output_size()
                       << " outputs; the node has " << ctx.node.input_size()
                       << " inputs and " << ctx.node.output_size()
                       << " outputs";
  if (runtimeOnly(ctx, 0) || runtimeOnly(ctx, 1))
    return importWhile(ctx, *body, carried, scans,
                       runtimeOnly(ctx, 0)
                           ? "the trip count is known only at run time"
                           : "the initial condition is known only at run "
                             "time");
  std::optional<int64_t> tripCount;
  if (ctx.has(0)) {
    FailureOr<DenseElementsAttr> m = ctx.needConstant(0, "the trip count");
    if (failed(m))
      return failure();
    if (m->getNumElements() != 1)
      return ctx.error() << "the trip count holds " << m->getNumElements()
                         << " elements; it must hold one";
    tripCount = intsOf(*m)[0];
  }
  bool cond = true;
  if (ctx.has(1)) {
    FailureOr<DenseElementsAttr> c =
        ctx.needConstant(1, "the initial condition");
    if (failed(c))
      return failure();
    if (c->getNumElements() != 1)
      return ctx.error() << "the condition holds " << c->getNumElements()
                         << " elements; it must hold one";
    cond = intsOf(*c)[0] != 0;
  }
  SmallVector<Importer::Bound> state;
  for (int i = 0; i < carried; ++i)
    state.push_back(boundInput(ctx, i + 2));
  SmallVector<SmallVector<Value>> scanned(scans);
  auto scalar = [&](Type element, int64_t value) {
    return DenseElementsAttr::get(
        RankedTensorType::get({}, element),
        APInt(element.getIntOrFloatBitWidth(), uint64_t(value), true));
  };
  // Unrolled while it can be; a loop too long to unroll, or whose body
  // computes its condition at run time, runs as a loop instead: the ops
  // unrolled so far go.
  Block *block = ctx.b.getInsertionBlock();
  Block::iterator point = ctx.b.getInsertionPoint();
  Operation *before = point == block->begin() ? nullptr : &*std::prev(point);
  auto asLoop = [&](StringRef why) {
    SmallVector<Operation *> made;
    for (auto it = before ? std::next(before->getIterator()) : block->begin();
         it != point; ++it)
      made.push_back(&*it);
    for (Operation *op : llvm::reverse(made))
      op->erase();
    return importWhile(ctx, *body, carried, scans, why);
  };
  int64_t iteration = 0;
  for (; cond && (!tripCount || iteration < *tripCount); ++iteration) {
    if ((iteration + 1) * std::max(body->node_size(), 1) > kMaxUnrolledNodes)
      return asLoop(("the loop runs more than " + Twine(iteration) +
                     " iterations, longer than the importer unrolls (" +
                     Twine(kMaxUnrolledNodes) + " body nodes)")
                        .str());
    SmallVector<Importer::Bound> inputs = {
        {{}, scalar(ctx.b.getI64Type(), iteration)},
        {{}, scalar(ctx.b.getI1Type(), 1)}};
    inputs.append(state);
    FailureOr<SmallVector<Importer::Bound>> outs =
        imp.importSubgraph(*body, inputs);
    if (failed(outs))
      return failure();
    if (!(*outs)[0].constant)
      return asLoop("the body computes its condition at run time");
    if ((*outs)[0].constant.getNumElements() != 1)
      return ctx.error() << "the body's condition holds "
                         << (*outs)[0].constant.getNumElements()
                         << " elements; it must hold one";
    cond = intsOf((*outs)[0].constant)[0] != 0;
    for (int i = 0; i < carried; ++i)
      state[i] = (*outs)[1 + i];
    for (int j = 0; j < scans; ++j)
      scanned[j].push_back(materialize(imp, (*outs)[1 + carried + j]));
  }
  return defineLoopOutputs(ctx, state, [&](int64_t k) -> FailureOr<Value> {
    if (iteration == 0)
      return ctx.error() << "the loop runs no iteration: its scan output '"
                         << ctx.node.output(int(carried + k))
                         << "' would be empty";
    return stack(ctx, scanned[k], 0);
  });
}

LogicalResult importScan(NodeContext &ctx) {
  Importer &imp = ctx.imp;
  const onnx::GraphProto *body = bodyOf(ctx);
  if (!body)
    return failure();
  int64_t scanInputs = ctx.intAttr("num_scan_inputs", 0);
  int64_t states = ctx.node.input_size() - scanInputs;
  int64_t scanOutputs = body->output_size() - states;
  if (scanInputs < 1 || states < 0 || scanOutputs < 0 ||
      body->input_size() != ctx.node.input_size())
    return ctx.error() << "the body takes " << body->input_size()
                       << " inputs and gives " << body->output_size()
                       << " outputs; the node has " << ctx.node.input_size()
                       << " inputs, " << scanInputs << " of them scanned";
  auto list = [&](StringRef name, int64_t count) -> FailureOr<Shape> {
    Shape values = ctx.intsAttr(name).value_or(Shape(count, 0));
    if (int64_t(values.size()) != count)
      return ctx.error() << name << " has " << values.size() << " entries for "
                         << count << " scanned values";
    return values;
  };
  FailureOr<Shape> inAxes = list("scan_input_axes", scanInputs);
  FailureOr<Shape> inDirs = list("scan_input_directions", scanInputs);
  FailureOr<Shape> outAxes = list("scan_output_axes", scanOutputs);
  FailureOr<Shape> outDirs = list("scan_output_directions", scanOutputs);
  if (failed(inAxes) || failed(inDirs) || failed(outAxes) || failed(outDirs))
    return failure();
  SmallVector<Value> sequences;
  int64_t length = -1;
  for (int64_t j = 0; j < scanInputs; ++j) {
    Value v = ctx.in(int(states + j));
    int64_t rank = imp.typeOf(v).getRank();
    int64_t axis = normalizeAxis((*inAxes)[j], rank);
    if (axis < 0 || axis >= rank)
      return ctx.error() << "scan input axis " << (*inAxes)[j]
                         << " is outside rank " << rank;
    (*inAxes)[j] = axis;
    int64_t size = imp.typeOf(v).getDimSize(axis);
    if (length >= 0 && size != length)
      return ctx.error() << "the scanned inputs have lengths " << length
                         << " and " << size;
    length = size;
    sequences.push_back(v);
  }
  if (length == 0)
    return ctx.error() << "the scanned inputs are empty (zero-size tensors "
                          "are not supported)";
  if (length * std::max(body->node_size(), 1) > kMaxUnrolledNodes)
    return ctx.error() << "a scan of " << length << " steps over "
                       << body->node_size() << " nodes is more than "
                       << kMaxUnrolledNodes
                       << " body nodes to unroll; longer scans are not "
                          "supported";
  SmallVector<Importer::Bound> state;
  for (int64_t i = 0; i < states; ++i)
    state.push_back(boundInput(ctx, int(i)));
  SmallVector<SmallVector<Value>> scanned(scanOutputs);
  for (int64_t t = 0; t < length; ++t) {
    SmallVector<Importer::Bound> inputs(state);
    for (auto [j, v] : llvm::enumerate(sequences)) {
      int64_t axis = (*inAxes)[j];
      Shape start(imp.typeOf(v).getRank(), 0);
      Shape size(imp.typeOf(v).getShape());
      start[axis] = (*inDirs)[j] ? length - 1 - t : t;
      size[axis] = 1;
      Value step = imp.slice(v, start, size);
      size.erase(size.begin() + axis);
      Value element = imp.reshape(step, size);
      DenseElementsAttr folded;
      if (matchPattern(element, m_Constant(&folded)))
        inputs.push_back({{}, folded});
      else
        inputs.push_back({element, {}});
    }
    FailureOr<SmallVector<Importer::Bound>> outs =
        imp.importSubgraph(*body, inputs);
    if (failed(outs))
      return failure();
    for (int64_t i = 0; i < states; ++i)
      state[i] = (*outs)[i];
    for (int64_t k = 0; k < scanOutputs; ++k)
      scanned[k].push_back(materialize(imp, (*outs)[states + k]));
  }
  return defineLoopOutputs(ctx, state, [&](int64_t k) -> FailureOr<Value> {
    SmallVector<Value> parts(scanned[k]);
    if ((*outDirs)[k])
      std::reverse(parts.begin(), parts.end());
    int64_t rank = imp.typeOf(parts[0]).getRank() + 1;
    int64_t axis = normalizeAxis((*outAxes)[k], rank);
    if (axis < 0 || axis >= rank)
      return ctx.error() << "scan output axis " << (*outAxes)[k]
                         << " is outside rank " << rank;
    return stack(ctx, parts, axis);
  });
}

} // namespace

void mlir::nnapi::onnx_import::registerControlFlowOps(OpRegistry &registry) {
  constexpr int64_t lo = kMinONNXOpset, hi = kAnyOpset;
  registry.add({
      {"", "If", lo, hi, importIf,
       "the branch a compile-time condition selects, inlined (a condition "
       "from scalar inputs offered with --specialize-value is specialized to "
       "them); with a runtime condition both branches and tosa.select, or "
       "tosa.cond_if for branches of more than 16 operations",
       "those of the branch; SELECT (3); IF (4) for tosa.cond_if",
       "a runtime condition's select (SELECT does not broadcast it); "
       "tosa.cond_if on NNAPI when both branches convert and return only "
       "what they compute"},
      {"", "Loop", lo, hi, importLoop,
       "unrolled: the body once per iteration, scan outputs concatenated "
       "(trip count and condition known at compile time); else "
       "tosa.while_loop (no scan outputs)",
       "those of the unrolled body; CONCATENATION (1); WHILE (4) for "
       "tosa.while_loop",
       "as the body's operations; tosa.while_loop on NNAPI when its state "
       "and body convert (no int64: a trip count known only at run time "
       "keeps it on the host; no rank-0 values in the body)"},
      {"", "Scan", lo, hi, importScan,
       "unrolled: slices of the scanned inputs, the body once per step, "
       "outputs concatenated",
       "those of the body; SLICE (2), CONCATENATION (1)",
       "as the body's operations"},
  });
}
