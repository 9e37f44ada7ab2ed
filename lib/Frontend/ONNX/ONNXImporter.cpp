//===- ONNXImporter.cpp - ONNX graph to TOSA ------------------------------===//
//
// The Importer's core: emission helpers, the checks
// every node goes through before its handler (ops/*.cpp, found in the
// OpRegistry), the definition of node outputs, and the public entry points
// (types, constants and attributes are read in TypesAndAttributes.cpp).
// Output shapes come from ONNX shape inference (every node output must have
// a static inferred type), so handlers only decide how to compute a value,
// never its shape. Values known at compile time (initializers, Constant,
// Shape and anything computed only from them by the folding handlers) are
// kept as DenseElementsAttr and materialized as tosa.const only when a
// runtime op needs them.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Frontend/ONNX/ONNXImporter.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Transforms/Constants.h"

#include "Importer.h"
#include "ONNXLoader.h"
#include "ONNXSchemas.h"
#include "OpRegistry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::onnx_import;

Importer::Importer(MLIRContext *ctx, const onnx::ModelProto &model,
                   StringRef path)
    : Emitter(ctx, FileLineColLoc::get(ctx, path, 0, 0)), ctx(ctx),
      model(model), fileLoc(FileLineColLoc::get(ctx, path, 0, 0)) {
  for (const auto &o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      opset = o.version();
}

//===----------------------------------------------------------------------===//
// Emission helpers
//===----------------------------------------------------------------------===//

Value Importer::get(StringRef name) {
  auto it = values.find(name);
  if (it != values.end())
    return it->second;
  if (DenseElementsAttr c = constantOf(name)) {
    Value v = constant(c);
    values[name] = v;
    return v;
  }
  return {};
}

InFlightDiagnostic Importer::nodeError(const onnx::NodeProto &node) {
  return emitError(loc) << "node '" << nnapi_mlir::onnx_frontend::nodeName(node)
                        << "' (" << node.op_type() << ", opset " << opset
                        << "): ";
}

bool mlir::nnapi::onnx_import::isStatic(const onnx::TypeProto &type) {
  if (!type.has_tensor_type() || !type.tensor_type().has_shape())
    return false;
  return llvm::all_of(type.tensor_type().shape().dim(), [](const auto &d) {
    return d.has_dim_value() && d.dim_value() >= 0;
  });
}

/// The ONNX element type of `element`, or UNDEFINED.
static int32_t onnxElementType(Type element) {
  if (element.isF32())
    return onnx::TensorProto::FLOAT;
  if (element.isF16())
    return onnx::TensorProto::FLOAT16;
  if (element.isF64())
    return onnx::TensorProto::DOUBLE;
  if (element.isInteger(1))
    return onnx::TensorProto::BOOL;
  if (element.isInteger(8))
    return onnx::TensorProto::INT8;
  if (element.isInteger(16))
    return onnx::TensorProto::INT16;
  if (element.isInteger(32))
    return onnx::TensorProto::INT32;
  if (element.isInteger(64))
    return onnx::TensorProto::INT64;
  return onnx::TensorProto::UNDEFINED;
}

void Importer::inferAlone(const onnx::NodeProto &node) {
  // Values that decide shapes (int64 shapes, axes, pads; float32 scales) are
  // small; other constants (weights) are passed as types only.
  constexpr int64_t kMaxValueElements = 4096;
  std::vector<nnapi_mlir::onnx_frontend::KnownInput> inputs;
  std::vector<onnx::TensorProto> tensors;
  tensors.reserve(node.input_size()); // pointers into it stay valid
  for (const std::string &name : node.input()) {
    if (name.empty() || llvm::any_of(inputs, [&](const auto &known) {
          return known.name == name;
        }))
      continue;
    RankedTensorType type;
    DenseElementsAttr value = constantOf(name);
    if (value)
      type = cast<RankedTensorType>(value.getType());
    else if (Value v = values.lookup(name))
      type = typeOf(v);
    else
      return;
    int32_t element = onnxElementType(type.getElementType());
    if (element == onnx::TensorProto::UNDEFINED)
      return;
    nnapi_mlir::onnx_frontend::KnownInput &known = inputs.emplace_back();
    known.name = name;
    auto &tensorType = *known.type.mutable_tensor_type();
    tensorType.set_elem_type(element);
    // A scalar has a shape with no dimensions (no shape is unknown rank).
    tensorType.mutable_shape();
    for (int64_t d : type.getShape())
      tensorType.mutable_shape()->add_dim()->set_dim_value(d);
    if (!value || type.getNumElements() > kMaxValueElements ||
        (element != onnx::TensorProto::INT64 &&
         element != onnx::TensorProto::FLOAT))
      continue;
    onnx::TensorProto &t = tensors.emplace_back();
    t.set_data_type(element);
    for (int64_t d : type.getShape())
      t.add_dims(d);
    if (element == onnx::TensorProto::FLOAT) {
      for (double f : floatsOf(value))
        t.add_float_data(float(f));
    } else {
      for (int64_t x : intsOf(value))
        t.add_int64_data(x);
    }
    known.value = &t;
  }
  // The question, length-prefixed part by part: the node, then each known
  // input's type and value.
  std::string key;
  auto append = [&](const std::string &part) {
    key += std::to_string(part.size()) + ":" + part;
  };
  append(node.SerializeAsString());
  for (const auto &known : inputs) {
    append(known.type.SerializeAsString());
    append(known.value ? known.value->SerializeAsString() : std::string());
  }
  auto [answer, isNew] = aloneAnswers.try_emplace(std::move(key));
  if (isNew)
    answer->second.ok = nnapi_mlir::onnx_frontend::inferNodeTypes(
        node, opset, inputs, answer->second.outputs, answer->second.error);
  if (!answer->second.ok) {
    inferenceError = answer->second.error;
    return;
  }
  for (auto [i, type] : llvm::enumerate(answer->second.outputs)) {
    if (!isStatic(type))
      continue;
    onnx::TypeProto &stored = inferredAlone[node.output(int(i))];
    stored = type;
    inferred[node.output(int(i))] = &stored;
  }
}

FailureOr<RankedTensorType> Importer::outputType(const onnx::NodeProto &node,
                                                 int i) {
  auto it = inferred.find(node.output(i));
  inferenceError.clear();
  // With dynamic inputs, a value may have dynamic dimensions: the graph's
  // inference is what there is (a node inferred alone would not know the
  // symbols either).
  if (it == inferred.end() || (!isStatic(*it->second) && !dynamic())) {
    inferAlone(node);
    it = inferred.find(node.output(i));
  }
  if (it == inferred.end()) {
    InFlightDiagnostic diag = nodeError(node)
                              << "ONNX shape inference gave output '"
                              << node.output(i) << "' no type";
    if (!inferenceError.empty())
      diag << ": " << inferenceError;
    return diag;
  }
  if (it->second->has_tensor_type() && !isStatic(*it->second) && !dynamic()) {
    // ONNX operators take their data first; a later input the output's
    // shape waits for is a shape, axes, pads, repeats or scales.
    for (int j = 1; j < node.input_size(); ++j)
      if (!node.input(j).empty() && !constantOf(node.input(j)))
        neededValues.insert(node.input(j));
    return nodeError(node)
           << "the shape of output '" << node.output(i)
           << "' is not known at compile time (it depends on runtime "
              "values or symbolic dimensions); give the graph inputs' shapes "
              "with --input-shape NAME=DIMS, or bind inputs that decide "
              "shapes with --input-value NAME=FILE.pb";
  }
  return tensorType(*it->second, "output '" + node.output(i) + "'");
}

//===----------------------------------------------------------------------===//
// Nodes
//===----------------------------------------------------------------------===//

NodeContext::NodeContext(Importer &imp, const onnx::NodeProto &node)
    : imp(imp), node(node), b(imp.builder), loc(imp.loc), opset(imp.opset) {}

Value NodeContext::in(int i) {
  if (!has(i))
    return {};
  return imp.get(node.input(i));
}

FailureOr<DenseElementsAttr> NodeContext::needConstant(int i, StringRef what) {
  DenseElementsAttr c = cst(i);
  if (!c && has(i))
    imp.neededValues.insert(node.input(i));
  if (!c)
    return error() << what
                   << " must be known at compile time (a constant or "
                      "computed from constants)";
  return c;
}

FailureOr<int64_t> NodeContext::needRank(int i, int64_t min, int64_t max) {
  int64_t rank = imp.typeOf(in(i)).getRank();
  if (rank >= min && rank <= max)
    return rank;
  InFlightDiagnostic d = error() << "input " << i << " ('" << node.input(i)
                                 << "') must have rank ";
  if (min == max)
    d << min;
  else if (max == std::numeric_limits<int64_t>::max())
    d << min << " or more";
  else
    d << min << " to " << max;
  return d << ", not " << rank;
}

int64_t NodeContext::intAttr(StringRef name, int64_t dflt) const {
  return onnx_import::intAttr(node, name, dflt);
}

float NodeContext::floatAttr(StringRef name, float dflt) const {
  return onnx_import::floatAttr(node, name, dflt);
}

std::string NodeContext::stringAttr(StringRef name, StringRef dflt) const {
  return onnx_import::stringAttr(node, name, dflt);
}

std::optional<SmallVector<int64_t>>
NodeContext::intsAttr(StringRef name) const {
  return onnx_import::intsAttr(node, name);
}

const onnx::AttributeProto *NodeContext::attr(StringRef name) const {
  return findAttr(node, name);
}

LogicalResult NodeContext::define(int i, Value v) {
  if (!v)
    return error() << "internal error: no result";
  FailureOr<RankedTensorType> t = out(i);
  if (failed(t))
    return failure();
  // TOSA has no zero-size dimensions, and the host code generation cannot
  // lower a zero-size tensor computed from data (an empty graph input
  // passed on, as by a Split of an empty tensor, folds away and is fine).
  auto fromEmpty = [&](Value value) {
    Operation *op = value.getDefiningOp();
    return !op || (op->getNumOperands() &&
                   llvm::all_of(op->getOperands(), [&](Value operand) {
                     auto type = dyn_cast<RankedTensorType>(operand.getType());
                     return type && type.getNumElements() == 0;
                   }));
  };
  if (!t->hasStaticShape() || !imp.typeOf(v).hasStaticShape()) {
    // Dynamic dimensions: the handler's type and ONNX's must agree where
    // both are static.
    RankedTensorType vt = imp.typeOf(v);
    if (failed(verifyCompatibleShape(vt, *t)) ||
        vt.getElementType() != t->getElementType())
      return error() << "internal error: computed " << vt
                     << " but ONNX inferred " << *t;
    imp.values[node.output(i)] = v;
    return success();
  }
  if (t->getNumElements() == 0 &&
      (imp.typeOf(v).getNumElements() != 0 || !fromEmpty(v)))
    return error() << "zero-size tensors are not supported (output '"
                   << node.output(i) << "' is " << *t << ")";
  if (v.getType() != *t) {
    RankedTensorType vt = imp.typeOf(v);
    if (vt.getElementType() != t->getElementType() ||
        vt.getNumElements() != t->getNumElements())
      return error() << "internal error: computed " << vt
                     << " but ONNX inferred " << *t;
    v = imp.reshape(v, t->getShape());
  }
  imp.values[node.output(i)] = v;
  return success();
}

static bool isUnsigned(int32_t onnxType);

int32_t NodeContext::inputType(int i) const {
  const std::string &name = node.input(i);
  auto it = imp.inferred.find(name);
  if (it != imp.inferred.end() && it->second->has_tensor_type())
    return it->second->tensor_type().elem_type();
  for (const onnx::TensorProto &t : imp.model.graph().initializer())
    if (t.name() == name)
      return t.data_type();
  return onnx::TensorProto::UNDEFINED;
}

bool NodeContext::isUnsignedInput(int i) const {
  return isUnsigned(inputType(i));
}

LogicalResult NodeContext::defineConstant(int i, DenseElementsAttr attr) {
  imp.constants[node.output(i)] = attr;
  return success();
}

LogicalResult NodeContext::defineBound(int i, const Importer::Bound &b) {
  if (b.constant)
    return defineConstant(i, b.constant);
  if (!b.value)
    return error() << "internal error: no result";
  imp.values[node.output(i)] = b.value;
  return success();
}

FailureOr<SmallVector<Importer::Bound>>
Importer::importSubgraph(const onnx::GraphProto &graph,
                         ArrayRef<Bound> inputs) {
  assert(graph.input_size() == int(inputs.size()) &&
         "the caller binds every input");
  // The subgraph's scope: the names it defines are forgotten afterwards.
  llvm::StringMap<Value> outerValues = values;
  llvm::StringMap<DenseElementsAttr> outerConstants = constants;
  llvm::StringMap<const onnx::TypeProto *> outerInferred = inferred;
  Location outerLoc = loc;
  auto restore = llvm::make_scope_exit([&] {
    values = std::move(outerValues);
    constants = std::move(outerConstants);
    inferred = std::move(outerInferred);
    loc = outerLoc;
  });
  // The types recorded in the subgraph were inferred from its declared
  // inputs, which need not be what it receives (a Loop body's state): each
  // node's outputs are inferred again from the values it is given.
  for (const auto &node : graph.node())
    for (const std::string &out : node.output())
      inferred.erase(out);
  for (auto [formal, actual] : llvm::zip(graph.input(), inputs)) {
    values.erase(formal.name());
    constants.erase(formal.name());
    inferred.erase(formal.name());
    if (actual.constant)
      constants[formal.name()] = actual.constant;
    else
      values[formal.name()] = actual.value;
  }
  for (const auto &init : graph.initializer()) {
    FailureOr<DenseElementsAttr> attr = tensorAttr(init);
    if (failed(attr))
      return failure();
    constants[init.name()] = *attr;
  }
  for (const auto &node : graph.node()) {
    std::string name = node.name().empty()
                           ? (node.output_size() ? node.output(0) : "")
                           : node.name();
    loc = NameLoc::get(builder.getStringAttr(name), outerLoc);
    if (failed(importNode(node)))
      return failure();
  }
  loc = outerLoc;
  SmallVector<Bound> results;
  for (const auto &out : graph.output()) {
    Bound b;
    b.constant = constantOf(out.name());
    if (!b.constant)
      b.value = values.lookup(out.name());
    if (!b.constant && !b.value)
      return emitError(loc) << "subgraph '" << graph.name() << "' output '"
                            << out.name() << "' is never produced";
    results.push_back(b);
  }
  return results;
}

LogicalResult Importer::importNode(const onnx::NodeProto &node) {
  const std::string &op = node.op_type();
  if (!node.domain().empty() && node.domain() != "ai.onnx")
    return nodeError(node) << "operators of domain '" << node.domain()
                           << "' are not supported";
  NodeContext context(*this, node);
  // Handlers read the inputs ONNX requires without checking for them: an
  // empty name stands only for an optional input left out.
  for (int i = 0; i < node.input_size(); ++i)
    if (node.input(i).empty() &&
        !nnapi_mlir::onnx_frontend::inputMayBeEmpty(op, opset, i))
      return nodeError(node)
             << "input " << i << " is empty, but the operator requires it";
  for (int i = 0; i < node.input_size(); ++i)
    if (context.has(i) && !values.count(node.input(i)) &&
        !constantOf(node.input(i)))
      return nodeError(node)
             << "input '" << node.input(i) << "' is not defined before use";
  // Axis attributes index input 0's dimensions: reject out-of-range ones
  // here, before any handler indexes a shape with them.
  if (context.has(0)) {
    auto known = values.find(node.input(0));
    int64_t rank =
        known != values.end()
            ? typeOf(known->second).getRank()
            : cast<RankedTensorType>(context.cst(0).getType()).getRank();
    int64_t limit = op == "Flatten" ? rank + 1 : rank;
    if (const auto *a = findAttr(node, "axis"))
      if (op != "Constant" && (a->i() < -limit || a->i() >= limit))
        return nodeError(node)
               << "axis " << a->i() << " is out of range for rank " << rank;
    if (const auto *a = findAttr(node, "axes"))
      for (int64_t v : a->ints())
        if (v < -rank || v >= rank)
          return nodeError(node)
                 << "axis " << v << " is out of range for rank " << rank;
    if (const auto *a = findAttr(node, "perm")) {
      SmallVector<bool> seen(rank, false);
      bool ok = a->ints_size() == rank;
      for (int64_t v : a->ints())
        ok = ok && v >= 0 && v < rank && !seen[v] && (seen[v] = true);
      if (!ok)
        return nodeError(node)
               << "perm is not a permutation of " << rank << " dimensions";
    }
  }
  const OpEntry *entry = OpRegistry::get().lookup("", op, opset);
  if (!entry)
    return nodeError(node) << "operator '" << op << "' is not supported";
  if (dynamic() && !handlesDynamicShapes(op)) {
    // Dynamic dimensions reach only the operators that handle them.
    auto isDynamicValue = [&](const std::string &name) {
      auto v = values.find(name);
      if (v != values.end())
        return !typeOf(v->second).hasStaticShape();
      auto t = inferred.find(name);
      return t != inferred.end() && t->second->has_tensor_type() &&
             !isStatic(*t->second);
    };
    for (auto [kind, names] : {std::pair{"input", &node.input()},
                               std::pair{"output", &node.output()}})
      for (const std::string &name : *names)
        if (!name.empty() && isDynamicValue(name))
          return nodeError(node)
                 << kind << " '" << name << "' has dynamic dimensions, which "
                 << "the import of " << op << " does not handle yet; give "
                 << "--input-shape fixed sizes (" << dynamicInputsText()
                 << ")";
  }
  if (failed(checkBFloat16Use(node)))
    return failure();
  if (std::optional<LogicalResult> empty = defineEmptyOutputs(context))
    return *empty;
  // The handler defines the outputs (NodeContext::define checks each
  // against ONNX's inferred type).
  return entry->handler(context);
}

std::string Importer::dynamicInputsText() const {
  std::string text;
  for (const auto &entry : dynamicInputs)
    text += (text.empty() ? "" : ", ") + entry.first;
  return "kept dynamic: " + text;
}

static bool isUnsigned(int32_t onnxType) {
  return onnxType == onnx::TensorProto::UINT8 ||
         onnxType == onnx::TensorProto::UINT16 ||
         onnxType == onnx::TensorProto::UINT32 ||
         onnxType == onnx::TensorProto::UINT64;
}

/// The element type a graph input or output of ONNX type `onnxType` has in
/// the entry function's signature, whose values the graph computes as
/// `internal`: unsigned integers keep their width (the graph computes them
/// wider), anything else is `internal`.
Type Importer::boundaryType(int32_t onnxType, Type internal) {
  switch (onnxType) {
  case onnx::TensorProto::UINT8:
    return builder.getIntegerType(8);
  case onnx::TensorProto::UINT16:
    return builder.getIntegerType(16);
  case onnx::TensorProto::UINT32:
    return builder.getIntegerType(32);
  case onnx::TensorProto::UINT64:
    return builder.getIntegerType(64);
  default:
    return internal;
  }
}

OwningOpRef<ModuleOp> Importer::run() {
  const onnx::GraphProto &graph = model.graph();
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  for (const auto &vi : graph.value_info())
    inferred[vi.name()] = &vi.type();
  for (const auto &vi : graph.output())
    inferred[vi.name()] = &vi.type();
  for (const auto &vi : graph.input())
    inferred[vi.name()] = &vi.type();

  bool ok = true;
  llvm::StringSet<> failedValues;
  for (const auto &init : graph.initializer()) {
    FailureOr<DenseElementsAttr> attr = tensorAttr(init);
    if (failed(attr)) {
      ok = false;
      continue;
    }
    constants[init.name()] = *attr;
  }
  // Messages about a graph input also name the first node that reads it.
  auto input = [&](const std::string &name) {
    std::string text = "graph input '" + name + "'";
    for (const onnx::NodeProto &node : graph.node())
      if (llvm::is_contained(node.input(), name))
        return text + " (read by node '" +
               nnapi_mlir::onnx_frontend::nodeName(node) + "' (" +
               node.op_type() + "))";
    return text;
  };
  // Inputs that are not initializers become arguments.
  SmallVector<Type> argTypes;
  SmallVector<std::string> argNames;
  SmallVector<int32_t> argElementTypes; // ONNX's
  for (const auto &in : graph.input()) {
    if (constants.count(in.name()))
      continue;
    if (in.type().has_tensor_type() && in.type().tensor_type().has_shape() &&
        !dynamicInputs.count(in.name()))
      for (const auto &[i, d] :
           llvm::enumerate(in.type().tensor_type().shape().dim()))
        if (!d.has_dim_value() || d.dim_value() < 0) {
          emitError(loc) << input(in.name()) << " has dynamic dimension "
                         << i
                         << (d.has_dim_param() ? " ('" + d.dim_param() + "')"
                                               : "")
                         << "; give its shape with --input-shape " << in.name()
                         << "=D0xD1x... (a dimension written ? or [LOW..HIGH] "
                            "stays dynamic)";
          ok = false;
          break;
        }
    if (!ok)
      continue;
    FailureOr<RankedTensorType> t =
        tensorType(in.type(), input(in.name()));
    if (failed(t)) {
      ok = false;
      continue;
    }
    argTypes.push_back(RankedTensorType::get(
        t->getShape(), boundaryType(in.type().tensor_type().elem_type(),
                                    t->getElementType())));
    argNames.push_back(in.name());
    argElementTypes.push_back(in.type().tensor_type().elem_type());
  }
  // Inputs bound to a value stay arguments, in their places; the graph
  // uses the constant.
  SmallVector<DenseElementsAttr> argBound(argNames.size());
  for (const auto &init : graph.initializer()) {
    if (!boundInputs.count(init.name()) || !constants.count(init.name()))
      continue;
    DenseElementsAttr value = boundaryValue(init);
    argTypes.push_back(value.getType());
    argNames.push_back(init.name());
    argElementTypes.push_back(init.data_type());
    argBound.push_back(value);
  }
  if (!boundInputs.empty()) {
    auto position = [&](size_t i) {
      return llvm::find(inputOrder, argNames[i]) - inputOrder.begin();
    };
    SmallVector<size_t> order(argNames.size());
    std::iota(order.begin(), order.end(), 0);
    llvm::stable_sort(
        order, [&](size_t a, size_t b) { return position(a) < position(b); });
    auto permute = [&](auto &list) {
      auto copy = list;
      for (auto [to, from] : llvm::enumerate(order))
        list[to] = copy[from];
    };
    permute(argTypes);
    permute(argNames);
    permute(argElementTypes);
    permute(argBound);
  }
  // A graph output's declared type may keep symbolic dimensions that only
  // the imported value resolves (ONNX's inference does not always rewrite
  // them); a static declared type is checked against the value at the end.
  for (const auto &out : graph.output()) {
    if (!out.type().has_tensor_type()) {
      emitError(loc) << "graph output '" << out.name() << "' is not a tensor";
      ok = false;
    }
  }
  if (!ok)
    return nullptr;

  builder.setInsertionPointToEnd(module->getBody());
  auto func = builder.create<func::FuncOp>(
      fileLoc, "main", builder.getFunctionType(argTypes, {}));
  Block *body = func.addEntryBlock();
  builder.setInsertionPointToStart(body);
  for (auto [i, name] : llvm::enumerate(argNames)) {
    func.setArgAttr(i, NNAPIDialect::kNameAttrName,
                    builder.getStringAttr(name));
    auto dynamicInput = dynamicInputs.find(name);
    if (dynamicInput != dynamicInputs.end() && !dynamicInput->second.empty())
      func.setArgAttr(i, NNAPIDialect::kDimRangesAttrName,
                      builder.getDenseI64ArrayAttr(dynamicInput->second));
    if (argBound[i]) {
      func.setArgAttr(i, NNAPIDialect::kBoundAttrName, argBound[i]);
      if (isUnsigned(argElementTypes[i]))
        func.setArgAttr(i, NNAPIDialect::kUnsignedAttrName,
                        builder.getUnitAttr());
      continue;
    }
    Value arg = body->getArgument(i);
    int32_t onnxType = argElementTypes[i];
    Type internal = *elementType(onnxType, "");
    RankedTensorType internalType =
        RankedTensorType::get(typeOf(arg).getShape(), internal);
    if (isUnsigned(onnxType) && internalType != arg.getType())
      arg = builder.create<arith::ExtUIOp>(fileLoc, internalType, arg);
    if (isUnsigned(onnxType))
      func.setArgAttr(i, NNAPIDialect::kUnsignedAttrName,
                      builder.getUnitAttr());
    values[name] = arg;
  }
  // Each op is located at its node: the name, and the node's position in
  // the graph as the "line" (ONNX files have no lines).
  for (const auto &[index, node] : llvm::enumerate(graph.node())) {
    std::string name = node.name().empty()
                           ? (node.output_size() ? node.output(0) : "")
                           : node.name();
    loc = NameLoc::get(
        builder.getStringAttr(name),
        FileLineColLoc::get(cast<FileLineColLoc>(fileLoc).getFilename(),
                            unsigned(index + 1), 0));
    // A node fed by a failed one is skipped silently: its inputs are not
    // its problem, and each unsupported node is reported once, by name.
    if (llvm::any_of(node.input(),
                     [&](const std::string &input) {
                       return failedValues.contains(input);
                     }) ||
        failed(importNode(node))) {
      for (const std::string &output : node.output())
        failedValues.insert(output);
      ok = false;
    }
  }
  loc = fileLoc;
  if (!ok)
    return nullptr;
  SmallVector<Value> results;
  SmallVector<Type> resultTypes;
  for (const auto &out : graph.output()) {
    Value v = get(out.name());
    if (!v) {
      emitError(fileLoc) << "graph output '" << out.name()
                         << "' is never produced";
      return nullptr;
    }
    RankedTensorType t = typeOf(v);
    const auto &declared = out.type().tensor_type();
    bool matches = true;
    if (isStatic(out.type())) {
      // As declared (a value of the same size is reshaped to it).
      Shape shape;
      for (const auto &d : declared.shape().dim())
        shape.push_back(d.dim_value());
      matches = checkedCount(shape) == t.getNumElements();
      if (matches && t.getShape() != ArrayRef<int64_t>(shape)) {
        v = reshape(v, shape);
        t = typeOf(v);
      }
    } else if (declared.has_shape()) {
      matches = declared.shape().dim_size() == t.getRank();
      for (int d = 0; matches && d < declared.shape().dim_size(); ++d)
        matches = !declared.shape().dim(d).has_dim_value() ||
                  declared.shape().dim(d).dim_value() == t.getDimSize(d);
    }
    if (!matches) {
      emitError(fileLoc) << "graph output '" << out.name()
                         << "' is declared with a shape other than the " << t
                         << " its producer computes";
      return nullptr;
    }
    Type boundary = boundaryType(declared.elem_type(), t.getElementType());
    if (boundary != t.getElementType()) {
      auto to = RankedTensorType::get(t.getShape(), boundary);
      v = builder.create<arith::TruncIOp>(fileLoc, to, v);
      t = to;
    }
    results.push_back(v);
    resultTypes.push_back(t);
  }
  func.setType(builder.getFunctionType(argTypes, resultTypes));
  for (auto [i, out] : llvm::enumerate(graph.output())) {
    func.setResultAttr(i, NNAPIDialect::kNameAttrName,
                       builder.getStringAttr(out.name()));
    if (isUnsigned(out.type().tensor_type().elem_type()))
      func.setResultAttr(i, NNAPIDialect::kUnsignedAttrName,
                         builder.getUnitAttr());
  }
  builder.create<func::ReturnOp>(fileLoc, results);
  // A handler that built an op TOSA rejects is a bug, but must still end in a
  // diagnostic rather than a crash further down.
  if (failed(mlir::verify(*module)))
    return nullptr;
  return module;
}

std::set<std::string>
Importer::inputsBehind(const std::set<std::string> &names) const {
  const onnx::GraphProto &graph = model.graph();
  std::map<std::string, const onnx::NodeProto *> producer;
  std::function<void(const onnx::GraphProto &)> addProducers =
      [&](const onnx::GraphProto &g) {
        for (const auto &node : g.node()) {
          for (const std::string &out : node.output())
            producer[out] = &node;
          for (const auto &attr : node.attribute()) {
            if (attr.has_g())
              addProducers(attr.g());
            for (const auto &sub : attr.graphs())
              addProducers(sub);
          }
        }
      };
  addProducers(graph);
  std::set<std::string> inputs;
  for (const auto &in : graph.input())
    if (!constantOf(in.name()))
      inputs.insert(in.name());
  std::set<std::string> found, seen;
  std::vector<std::string> work(names.begin(), names.end());
  while (!work.empty()) {
    std::string name = work.back();
    work.pop_back();
    // A value folded to a constant (Shape of a static input) does not
    // depend on the inputs behind it.
    if (!seen.insert(name).second || constantOf(name))
      continue;
    if (inputs.count(name)) {
      found.insert(name);
      continue;
    }
    auto it = producer.find(name);
    if (it != producer.end())
      for (const std::string &in : it->second->input())
        if (!in.empty())
          work.push_back(in);
  }
  return found;
}

namespace {
/// Adds the node outputs `names` ({"all"}: every one with a tensor type) to
/// the graph's outputs, with the types shape inference gave them; false
/// with `error` for a name no node produces or whose type is unknown.
bool exposeValues(onnx::ModelProto &model,
                  const std::vector<std::string> &names, std::string &error) {
  onnx::GraphProto &graph = *model.mutable_graph();
  std::map<std::string, const onnx::ValueInfoProto *> typed;
  for (const auto &v : graph.value_info())
    typed[v.name()] = &v;
  std::set<std::string> outputs;
  for (const auto &v : graph.output())
    outputs.insert(v.name());
  std::vector<std::string> produced;
  for (const auto &node : graph.node())
    for (const std::string &out : node.output())
      if (!out.empty())
        produced.push_back(out);
  bool all = names.size() == 1 && names[0] == "all";
  std::vector<onnx::ValueInfoProto> added;
  for (const std::string &name : all ? produced : names) {
    if (!outputs.insert(name).second)
      continue; // already an output (or given twice)
    auto it = typed.find(name);
    bool tensor = it != typed.end() && it->second->type().has_tensor_type();
    if (all) {
      if (tensor)
        added.push_back(*it->second);
      continue;
    }
    if (!llvm::is_contained(produced, name)) {
      error = "--expose-values: no node produces a value named '" + name + "'";
      return false;
    }
    if (!tensor) {
      error = "--expose-values: '" + name +
              "' is not a tensor (or ONNX's shape inference gave it no type)";
      return false;
    }
    added.push_back(*it->second);
  }
  for (onnx::ValueInfoProto &v : added)
    *graph.add_output() = std::move(v);
  return true;
}

/// One import of the model with `values` bound; with `captured` set, the
/// diagnostics go there instead of to the context's handler.
OwningOpRef<ModuleOp>
importOnce(StringRef data, StringRef name, MLIRContext *context,
           const ONNXImportOptions &options,
           const std::map<std::string, std::string> &values,
           std::vector<Diagnostic> *captured,
           std::set<std::string> *shapeDeciding,
           std::vector<std::string> &inputNames) {
  std::optional<ScopedDiagnosticHandler> capture;
  if (captured)
    capture.emplace(context, [captured](Diagnostic &diag) {
      captured->push_back(std::move(diag));
      return success();
    });
  onnx::ModelProto model;
  std::string error;
  std::vector<std::string> order;
  nnapi_mlir::onnx_frontend::LoadOptions load;
  load.minOpset = kMinONNXOpset;
  load.inputShapes = &options.inputShapes;
  load.inputValues = &values;
  load.inputOrder = &order;
  load.float64 = options.float64;
  if (!nnapi_mlir::onnx_frontend::loadONNXModel(data.str(), name.str(), load,
                                                model, error)) {
    emitError(FileLineColLoc::get(context, name, 0, 0)) << error;
    return nullptr;
  }
  inputNames = order;
  if (!options.exposeValues.empty() &&
      !exposeValues(model, options.exposeValues, error)) {
    emitError(FileLineColLoc::get(context, name, 0, 0)) << error;
    return nullptr;
  }
  Importer importer(context, model, name);
  std::set<std::string> bound;
  for (const auto &entry : values)
    bound.insert(entry.first);
  std::set<std::string> offered;
  for (const auto &entry : options.specializeValues)
    if (!values.count(entry.first))
      offered.insert(entry.first);
  importer.keepBoundInputs(std::move(order), std::move(bound));
  importer.keepDynamic(options.inputDimRanges);
  importer.offerValues(std::move(offered));
  OwningOpRef<ModuleOp> module = importer.run();
  if (!module && shapeDeciding)
    *shapeDeciding = importer.shapeDecidingInputs();
  return module;
}
} // namespace

OwningOpRef<ModuleOp>
mlir::nnapi::importONNX(StringRef data, StringRef name, MLIRContext *context,
                        const ONNXImportOptions &options) {
  context->loadDialect<arith::ArithDialect, func::FuncDialect,
                       tensor::TensorDialect, tosa::TosaDialect, NNAPIDialect>();
  // With values to specialize to, an import that fails because inputs
  // decide shapes is retried with those inputs bound (each round binds at
  // least one more, so this ends); only the last attempt's diagnostics are
  // shown.
  std::map<std::string, std::string> values = options.inputValues;
  std::vector<std::string> specialized;
  OwningOpRef<ModuleOp> module;
  for (;;) {
    bool more = llvm::any_of(options.specializeValues, [&](const auto &entry) {
      return !values.count(entry.first);
    });
    std::vector<Diagnostic> captured;
    std::set<std::string> shapeDeciding;
    std::vector<std::string> inputNames;
    module = importOnce(data, name, context, options, values,
                        more ? &captured : nullptr, &shapeDeciding, inputNames);
    for (const auto &entry : options.specializeValues)
      if (!inputNames.empty() && !llvm::is_contained(inputNames, entry.first)) {
        emitError(FileLineColLoc::get(context, name, 0, 0))
            << "--specialize-value names '" << entry.first
            << "', which is not a graph input";
        return nullptr;
      }
    bool retry = false;
    if (!module)
      for (const std::string &input : shapeDeciding) {
        auto it = options.specializeValues.find(input);
        if (it != options.specializeValues.end() && !values.count(input)) {
          values[input] = it->second;
          specialized.push_back(input);
          retry = true;
        }
      }
    if (!retry) {
      for (Diagnostic &diag : captured)
        context->getDiagEngine().emit(std::move(diag));
      break;
    }
  }
  if (module)
    for (const std::string &input : specialized)
      emitRemark(FileLineColLoc::get(context, name, 0, 0))
          << "input '" << input
          << "' is needed at compile time (a shape, axis, count, index, "
             "quantization parameter or If branch depends on it): compiled for "
             "the value given with "
             "--specialize-value; every run checks that the input holds it";
  return module;
}

OwningOpRef<ModuleOp>
mlir::nnapi::importONNXFile(StringRef path, MLIRContext *context,
                            const ONNXImportOptions &options) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer) {
    emitError(FileLineColLoc::get(context, path, 0, 0))
        << "cannot open '" << path << "': " << buffer.getError().message();
    return nullptr;
  }
  return importONNX((*buffer)->getBuffer(), path, context, options);
}
