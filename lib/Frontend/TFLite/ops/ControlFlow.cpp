//===- ControlFlow.cpp - IF and WHILE over subgraphs ------------*- C++ -*-===//
//
// TFLite's IF runs one of two subgraphs on its inputs, WHILE runs a body
// subgraph while a condition subgraph says so; each subgraph is imported
// into the region of a tosa.cond_if or tosa.while_loop (the TOSA the ONNX
// importer writes for If and Loop), which NNAPI partitions run as IF and
// WHILE (feature level 4) and the host code as branches and loops (bounded
// by loop_timeout_ms). Values keep their held types across the boundary.
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"

using namespace mlir;
using namespace mlir::nnapi::tflite_import;

namespace {

/// The caller's name in messages: "operator 3 (WHILE)", "subgraph 2,
/// operator 0 (WHILE)" inside another subgraph (as OpContext::error).
std::string callerName(OpContext &op) {
  std::string where;
  if (op.imp.graphIndex != op.imp.entryGraph)
    where = "subgraph " + std::to_string(op.imp.graphIndex) + ", ";
  return where + "operator " + std::to_string(op.index) + " (" +
         op.name.str() + ")";
}

/// Input i as a value (constants materialized), or null after a diagnostic.
Value operand(OpContext &op, int i) {
  Value v = op.in(i);
  if (!v)
    op.error() << "input " << i << " is omitted";
  return v;
}

/// The output types the operator declares, held.
FailureOr<SmallVector<Type>> outputTypes(OpContext &op) {
  SmallVector<Type> types;
  for (int i = 0; i < op.numOutputs(); ++i) {
    FailureOr<RankedTensorType> t = op.outType(i);
    if (failed(t))
      return failure();
    types.push_back(*t);
  }
  return types;
}

/// Checks a subgraph's results against the types the operator expects.
LogicalResult checkResults(OpContext &op, StringRef what,
                           ArrayRef<Value> results, TypeRange expected) {
  if (results.size() != expected.size())
    return op.error() << what << " gives " << results.size()
                      << " values, where " << expected.size()
                      << " are expected";
  for (auto [i, v, t] : llvm::enumerate(results, expected))
    if (v.getType() != t)
      return op.error() << what << " gives value " << i << " as "
                        << v.getType() << ", where " << t << " is expected";
  return success();
}

/// A condition subgraph's result as a tensor<i1>, or an error.
FailureOr<Value> condition(OpContext &op, Value v, StringRef what) {
  auto t = cast<RankedTensorType>(v.getType());
  if (!t.getElementType().isInteger(1) || t.getNumElements() != 1)
    return op.error() << what << " is " << t
                      << ", not a boolean of one element";
  return op.imp.reshape(v, {});
}

LogicalResult importIf(OpContext &op) {
  const auto *o = op.options<tflite::IfOptions>();
  if (!o)
    return op.error() << "the operator has no IfOptions";
  if (op.numInputs() < 1)
    return op.error() << "the condition (input 0) is missing";
  Value cond = operand(op, 0);
  if (!cond)
    return failure();
  FailureOr<Value> flag = condition(op, cond, "the condition");
  FailureOr<SmallVector<Type>> types = outputTypes(op);
  if (failed(flag) || failed(types))
    return failure();
  SmallVector<Value> args;
  for (int i = 1; i < op.numInputs(); ++i) {
    args.push_back(operand(op, i));
    if (!args.back())
      return failure();
  }
  auto conditional =
      op.b.create<tosa::IfOp>(op.loc, *types, *flag, ValueRange());
  int32_t branches[2] = {o->then_subgraph_index(), o->else_subgraph_index()};
  Region *regions[2] = {&conditional.getThenBranch(),
                        &conditional.getElseBranch()};
  for (int k = 0; k < 2; ++k) {
    OpBuilder::InsertionGuard guard(op.b);
    op.b.createBlock(regions[k]);
    // The branch reads the operator's inputs from the enclosing block.
    FailureOr<SmallVector<Value>> results = op.imp.importSubgraph(
        uint32_t(branches[k]), args, callerName(op) + "'s " +
                                         (k ? "else" : "then") + " branch");
    if (failed(results) ||
        failed(checkResults(op, k ? "the else branch" : "the then branch",
                            *results, *types)))
      return failure();
    op.b.create<tosa::YieldOp>(op.loc, *results);
  }
  for (int i = 0; i < op.numOutputs(); ++i)
    if (failed(op.define(i, conditional.getResult(i))))
      return failure();
  return success();
}

LogicalResult importWhile(OpContext &op) {
  const auto *o = op.options<tflite::WhileOptions>();
  if (!o)
    return op.error() << "the operator has no WhileOptions";
  if (op.numInputs() != op.numOutputs())
    return op.error() << "the operator has " << op.numInputs()
                      << " inputs and " << op.numOutputs()
                      << " outputs; a loop carries each input to its output";
  SmallVector<Value> inits;
  for (int i = 0; i < op.numInputs(); ++i) {
    inits.push_back(operand(op, i));
    if (!inits.back())
      return failure();
  }
  FailureOr<SmallVector<Type>> types = outputTypes(op);
  if (failed(types))
    return failure();
  TypeRange carried = ValueRange(inits).getTypes();
  for (auto [i, v, t] : llvm::enumerate(inits, *types))
    if (v.getType() != t)
      return op.error() << "input " << i << " is " << v.getType()
                        << ", but output " << i << " is " << t
                        << ": a loop carries each input to its output";
  auto loop = op.b.create<tosa::WhileOp>(op.loc, carried, inits);
  {
    OpBuilder::InsertionGuard guard(op.b);
    Block *block = op.b.createBlock(&loop.getCond());
    for (Value v : inits)
      block->addArgument(v.getType(), op.loc);
    FailureOr<SmallVector<Value>> results =
        op.imp.importSubgraph(uint32_t(o->cond_subgraph_index()),
                              block->getArguments(),
                              callerName(op) + "'s condition");
    if (failed(results))
      return failure();
    if (results->size() != 1)
      return op.error() << "the condition subgraph gives "
                        << results->size() << " values, not 1";
    FailureOr<Value> flag =
        condition(op, (*results)[0], "the condition subgraph's result");
    if (failed(flag))
      return failure();
    op.b.create<tosa::YieldOp>(op.loc, *flag);
  }
  {
    OpBuilder::InsertionGuard guard(op.b);
    Block *block = op.b.createBlock(&loop.getBody());
    for (Value v : inits)
      block->addArgument(v.getType(), op.loc);
    FailureOr<SmallVector<Value>> results =
        op.imp.importSubgraph(uint32_t(o->body_subgraph_index()),
                              block->getArguments(),
                              callerName(op) + "'s body");
    if (failed(results) ||
        failed(checkResults(op, "the body", *results, carried)))
      return failure();
    op.b.create<tosa::YieldOp>(op.loc, *results);
  }
  for (int i = 0; i < op.numOutputs(); ++i)
    if (failed(op.define(i, loop.getResult(i))))
      return failure();
  return success();
}

} // namespace

void mlir::nnapi::tflite_import::registerControlFlowOps(OpRegistry &registry) {
  registry.add({
      {tflite::BuiltinOperator_IF, "", 1, 1, importIf,
       "tosa.cond_if with the two subgraphs as its regions",
       "IF (4) when NNAPI runs both branches", "a branch NNAPI cannot run"},
      {tflite::BuiltinOperator_WHILE, "", 1, 1, importWhile,
       "tosa.while_loop with the condition and body subgraphs as its "
       "regions",
       "WHILE (4) when NNAPI runs the condition and the body",
       "a body NNAPI cannot run"},
  });
}
