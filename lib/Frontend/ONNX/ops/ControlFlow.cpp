//===- ControlFlow.cpp - If -------------------------------------*- C++ -*-===//
//
// If, resolved at compile time where it can be: a condition that folds to a
// constant selects its branch, imported inline; a condition computed from
// an input offered with --specialize-value asks for that value (the import
// is retried with it bound, and every run checks it). A condition known
// only at run time imports both branches, which must give the same types,
// and selects between their results: ONNX's operators have no side effects
// here, so running both is correct, at the cost of the branch not taken.
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"
#include "../OpRegistry.h"

using namespace mlir;
using namespace mlir::nnapi::onnx_import;

namespace {

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

  // An input offered for specialization decides the branch at compile
  // time: ask for it (the import is retried with it bound).
  std::set<std::string> behind = imp.inputsBehind({ctx.node.input(0)});
  if (llvm::any_of(behind,
                   [&](const std::string &in) { return imp.offered(in); }))
    return LogicalResult(ctx.needConstant(0, "the condition"));

  Value cond = ctx.in(0);
  if (imp.typeOf(cond).getNumElements() != 1)
    return ctx.error() << "the condition is " << imp.typeOf(cond)
                       << "; it must hold one element";
  FailureOr<SmallVector<Importer::Bound>> thenResults =
      imp.importSubgraph(thenGraph, {});
  if (failed(thenResults))
    return failure();
  FailureOr<SmallVector<Importer::Bound>> elseResults =
      imp.importSubgraph(elseGraph, {});
  if (failed(elseResults))
    return failure();
  auto materialize = [&](const Importer::Bound &b) {
    return b.constant ? imp.constant(b.constant) : b.value;
  };
  std::string inputs;
  for (const std::string &in : behind)
    inputs += (inputs.empty() ? "'" : ", '") + in + "'";
  for (int i = 0; i < outputs; ++i) {
    Value a = materialize((*thenResults)[i]);
    Value b = materialize((*elseResults)[i]);
    if (a.getType() != b.getType()) {
      InFlightDiagnostic diag = ctx.error();
      diag << "the condition is known only at run time and the branches "
              "give output "
           << i << " as " << a.getType() << " and " << b.getType()
           << "; a conditional whose branches differ in type is not "
              "supported";
      if (!inputs.empty())
        diag << " (compile for one value of " << inputs
             << " with --input-value or --specialize-value)";
      return diag;
    }
    if (failed(ctx.defineBound(i, {select(ctx, cond, a, b), {}})))
      return failure();
  }
  InFlightDiagnostic warning = emitWarning(ctx.loc)
                               << "If: the condition is known only at run "
                                  "time; both branches run and their results "
                                  "are selected";
  if (!inputs.empty())
    warning << " (compile for one value of " << inputs
            << " with --input-value or --specialize-value to run one)";
  return success();
}

} // namespace

void mlir::nnapi::onnx_import::registerControlFlowOps(OpRegistry &registry) {
  constexpr int64_t lo = kMinONNXOpset, hi = kAnyOpset;
  registry.add({
      {"", "If", lo, hi, importIf,
       "the branch a compile-time condition selects, inlined (a condition "
       "from an input offered with --specialize-value is specialized to it); "
       "with a runtime condition both branches and tosa.select",
       "those of the branch; SELECT (3)",
       "a runtime condition's select (SELECT does not broadcast it)"},
  });
}
