//===- NewOpsets.cpp - Read ONNX opsets 18 to 21 as opset 17 --------------===//
//
// Debian's libonnx (1.12) knows the default domain up to opset 17: its
// checker, shape inference and version converter refuse anything newer, and
// today's exporters write 18 to 21. Between 17 and 21 most operators changed
// only by admitting types this compiler does not handle (float8, int4,
// strings); the ones whose inputs, attributes or meaning changed are
// rewritten here into their opset-17 form before the checker runs, and the
// model goes on as an opset-17 model. Each rule is one row of kRules, which
// docs/ops.md lists (nnapi-compile --onnx-ops-table); a model using an
// operator or type the rules refuse gets a message naming the node, the
// opset and why.
//
// Compiled with exceptions (libonnx's shape inference throws), like
// ONNXLoader.cpp.
//
//===----------------------------------------------------------------------===//

#include "NewOpsets.h"
#include "ONNXLoader.h"

#include "onnx/defs/schema.h"
#include "onnx/shape_inference/implementation.h"

#include <cmath>
#include <cstring>
#include <unordered_map>

namespace nnapi_mlir::onnx_frontend {
namespace {

using Nodes = google::protobuf::RepeatedPtrField<onnx::NodeProto>;

/// Initializers up to this many elements keep their values for shape
/// inference (shapes may be computed from them); larger ones are weights.
constexpr int64_t kMaxInferenceValue = 1024;

/// What a rule sees: the graph being rebuilt and what is known of values.
class Rewriter;

} // namespace

onnx::ModelProto inferLeniently(const onnx::ModelProto &model,
                                const onnx::GraphProto &graph,
                                const Nodes *first, const Nodes *then) {
  // A copy without the weights' data: inference needs their types only
  // (small constants keep their values, which shapes may depend on).
  onnx::ModelProto copy;
  copy.set_ir_version(model.ir_version());
  *copy.mutable_opset_import() = model.opset_import();
  onnx::GraphProto &g = *copy.mutable_graph();
  g.set_name(graph.name());
  *g.mutable_input() = graph.input();
  *g.mutable_output() = graph.output();
  for (const onnx::TensorProto &t : graph.initializer()) {
    int64_t elements = 1;
    for (int64_t d : t.dims())
      elements *= d;
    if (elements <= kMaxInferenceValue) {
      *g.add_initializer() = t;
      continue;
    }
    onnx::ValueInfoProto &v = *g.add_input();
    v.set_name(t.name());
    auto &type = *v.mutable_type()->mutable_tensor_type();
    type.set_elem_type(t.data_type());
    for (int64_t d : t.dims())
      type.mutable_shape()->add_dim()->set_dim_value(d);
  }
  if (first || then) {
    if (first)
      *g.mutable_node() = *first;
    if (then)
      for (const auto &n : *then)
        *g.add_node() = n;
  } else {
    *g.mutable_node() = graph.node();
  }
  onnx::ShapeInferenceOptions lenient{/*check_type=*/false,
                                      /*error_mode=*/0,
                                      /*enable_data_propagation=*/true};
  try {
    onnx::shape_inference::InferShapes(
        copy, onnx::OpSchemaRegistry::Instance(), lenient);
  } catch (const std::exception &) {
    // Lenient: what could not be inferred stays unknown.
  }
  return copy;
}

namespace {

class Rewriter {
public:
  Rewriter(onnx::ModelProto &model, int64_t opset, const std::string &path)
      : model(model), graph(*model.mutable_graph()),
        main(*model.mutable_graph()), opset(opset), path(path) {
    addConstants(graph);
  }

  /// For a graph held by a node's attribute (If's branches, Loop's and
  /// Scan's bodies): what `outer` knows is visible in it, and the types its
  /// values have were inferred with the whole model (shapes are never
  /// inferred for a subgraph alone: its inputs come from outside).
  Rewriter(const Rewriter &outer, onnx::GraphProto &subgraph)
      : model(outer.model), graph(subgraph), main(outer.main),
        opset(outer.opset), path(outer.path), nested(true),
        initializers(outer.initializers), constants(outer.constants),
        types(outer.types) {
    addConstants(graph);
  }

  onnx::ModelProto &model;
  /// The graph whose nodes are rewritten, and the model's own, which holds
  /// the initializers rules add (visible in every subgraph).
  onnx::GraphProto &graph, &main;
  int64_t opset;
  const std::string &path;
  bool nested = false;
  /// The node list being built; rules append the nodes replacing theirs.
  Nodes out;
  std::string error;

  bool fail(const onnx::NodeProto &node, const std::string &why) {
    error = "'" + path + "': node '" + nodeName(node) + "' (" +
            node.op_type() + ", opset " + std::to_string(opset) + "): " + why;
    return false;
  }

  /// The value of `name` if it is an initializer or a Constant's output.
  const onnx::TensorProto *constant(const std::string &name) const {
    if (auto it = initializers.find(name); it != initializers.end())
      return it->second;
    if (auto it = constants.find(name); it != constants.end())
      return it->second;
    return nullptr;
  }

  /// The int64 elements of constant `name`; false if it is not one.
  bool ints(const std::string &name, std::vector<int64_t> &values) const {
    const onnx::TensorProto *t = constant(name);
    return t && t->data_type() == onnx::TensorProto::INT64 &&
           elements(*t, t->int64_data(), values);
  }

  /// The float elements of constant `name`; false if it is not one.
  bool floats(const std::string &name, std::vector<float> &values) const {
    const onnx::TensorProto *t = constant(name);
    return t && t->data_type() == onnx::TensorProto::FLOAT &&
           elements(*t, t->float_data(), values);
  }

  /// The dimensions of `name` as shape inference left them (-1: unknown);
  /// false if not even the rank is known.
  bool dims(const std::string &name, std::vector<int64_t> &out) const {
    if (auto it = initializers.find(name); it != initializers.end()) {
      out.assign(it->second->dims().begin(), it->second->dims().end());
      return true;
    }
    auto it = types.find(name);
    if (it == types.end() || !it->second->has_tensor_type() ||
        !it->second->tensor_type().has_shape())
      return false;
    out.clear();
    for (const auto &d : it->second->tensor_type().shape().dim())
      out.push_back(d.has_dim_value() ? d.dim_value() : -1);
    return true;
  }

  /// Runs libonnx's lenient shape inference on the graph as rebuilt so far
  /// followed by the nodes not yet visited, so that rules needing a rank or
  /// a dimension can ask dims().
  void inferShapes(const Nodes &rest) {
    if (nested)
      return; // the outer graph's inference covered this graph
    inferred = inferLeniently(model, graph, &out, &rest);
    types.clear();
    addTypes(inferred.graph());
  }

  /// A new name derived from `base`.
  std::string fresh(const std::string &base) {
    return base + "__opset17_" + std::to_string(counter++);
  }

  /// An int64 initializer holding `values` (rank 1); its name.
  std::string intConstant(const std::string &base,
                          const std::vector<int64_t> &values) {
    onnx::TensorProto &t = *main.add_initializer();
    t.set_name(fresh(base));
    t.set_data_type(onnx::TensorProto::INT64);
    t.add_dims(int64_t(values.size()));
    for (int64_t v : values)
      t.add_int64_data(v);
    initializers[t.name()] = &t;
    return t.name();
  }

  /// A float scalar initializer; its name (CastLike it to the data's type).
  std::string floatScalar(const std::string &base, float value) {
    onnx::TensorProto &t = *main.add_initializer();
    t.set_name(fresh(base));
    t.set_data_type(onnx::TensorProto::FLOAT);
    t.add_float_data(value);
    initializers[t.name()] = &t;
    return t.name();
  }

  /// Appends a node of `type` on `inputs`; its first output's name (fresh
  /// unless given).
  onnx::NodeProto &add(const std::string &type,
                       const std::vector<std::string> &inputs,
                       const std::string &base, std::string output = "") {
    onnx::NodeProto &n = *out.Add();
    n.set_op_type(type);
    n.set_name(fresh(base));
    for (const std::string &i : inputs)
      n.add_input(i);
    n.add_output(output.empty() ? fresh(base) : output);
    return n;
  }

  /// A scalar of `x`'s element type: CastLike(value, x).
  std::string scalarLike(const std::string &x, float value,
                         const std::string &base) {
    return add("CastLike", {floatScalar(base, value), x}, base).output(0);
  }

private:
  /// Records the initializers and Constant outputs of `g`.
  void addConstants(const onnx::GraphProto &g) {
    for (const auto &t : g.initializer())
      initializers[t.name()] = &t;
    for (const auto &n : g.node())
      if (n.op_type() == "Constant" && n.domain().empty() && n.output_size())
        for (const auto &a : n.attribute())
          if (a.name() == "value" && a.has_t())
            constants[n.output(0)] = &a.t();
  }

  /// Records the types inference gave the values of `g` and of the graphs
  /// its nodes hold.
  void addTypes(const onnx::GraphProto &g) {
    for (const auto *list : {&g.input(), &g.value_info(), &g.output()})
      for (const auto &v : *list)
        types[v.name()] = &v.type();
    for (const auto &n : g.node())
      for (const auto &a : n.attribute()) {
        if (a.has_g())
          addTypes(a.g());
        for (const auto &sub : a.graphs())
          addTypes(sub);
      }
  }

  /// The elements of `t` from its typed field or its raw data (little
  /// endian, as ONNX stores it and this machine is).
  template <typename T, typename Field>
  static bool elements(const onnx::TensorProto &t, const Field &typed,
                       std::vector<T> &values) {
    values.assign(typed.begin(), typed.end());
    if (t.has_raw_data()) {
      const std::string &raw = t.raw_data();
      values.resize(raw.size() / sizeof(T));
      std::memcpy(values.data(), raw.data(), values.size() * sizeof(T));
    }
    return true;
  }

  std::unordered_map<std::string, const onnx::TensorProto *> initializers,
      constants;
  onnx::ModelProto inferred;
  std::unordered_map<std::string, const onnx::TypeProto *> types;
  int counter = 0;
};

const onnx::AttributeProto *attribute(const onnx::NodeProto &node,
                                      const char *name) {
  for (const auto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

int64_t intAttribute(const onnx::NodeProto &node, const char *name,
                     int64_t fallback) {
  const onnx::AttributeProto *a = attribute(node, name);
  return a ? a->i() : fallback;
}

std::string stringAttribute(const onnx::NodeProto &node, const char *name,
                            const std::string &fallback) {
  const onnx::AttributeProto *a = attribute(node, name);
  return a ? a->s() : fallback;
}

void removeAttribute(onnx::NodeProto &node, const char *name) {
  auto *attrs = node.mutable_attribute();
  for (int i = 0; i < attrs->size(); ++i)
    if (attrs->Get(i).name() == name) {
      attrs->DeleteSubrange(i, 1);
      return;
    }
}

void setInts(onnx::NodeProto &node, const char *name,
             const std::vector<int64_t> &values) {
  removeAttribute(node, name);
  onnx::AttributeProto &a = *node.add_attribute();
  a.set_name(name);
  a.set_type(onnx::AttributeProto::INTS);
  for (int64_t v : values)
    a.add_ints(v);
}

/// Whether an optional input `i` is given.
bool hasInput(const onnx::NodeProto &node, int i) {
  return node.input_size() > i && !node.input(i).empty();
}

/// Drops the inputs from `i` on.
void truncateInputs(onnx::NodeProto &node, int i) {
  while (node.input_size() > i)
    node.mutable_input()->RemoveLast();
}

/// A rule: rewrites `node` (a copy) into r.out, or fails. `needsShapes`:
/// it asks dims(), so the graph's shapes are inferred before it runs.
struct Rule {
  const char *opType;
  int64_t since; ///< The opset whose change the rule reads.
  const char *handling; ///< For docs/ops.md.
  bool (*rewrite)(Rewriter &r, onnx::NodeProto node);
  bool needsShapes;
};

// Opset 18 moved the axes of every Reduce operator but ReduceSum (13) from
// an attribute to an optional input, and gave them all
// noop_with_empty_axes.
bool rewriteReduce(Rewriter &r, onnx::NodeProto node) {
  bool noop = intAttribute(node, "noop_with_empty_axes", 0) != 0;
  removeAttribute(node, "noop_with_empty_axes");
  std::vector<int64_t> axes;
  if (hasInput(node, 1) && !r.ints(node.input(1), axes))
    return r.fail(node, "the axes input must be a constant");
  truncateInputs(node, 1);
  if (axes.empty() && noop) {
    node.set_op_type("Identity");
    node.clear_attribute();
  } else if (!axes.empty()) {
    setInts(node, "axes", axes);
  }
  *r.out.Add() = node;
  return true;
}

// Opset 18: Split's num_outputs makes equal parts of ceil(dim / n), the last
// one smaller; opset 17's Split without sizes needs a dimension n divides.
bool rewriteSplit(Rewriter &r, onnx::NodeProto node) {
  const onnx::AttributeProto *count = attribute(node, "num_outputs");
  if (!count) {
    *r.out.Add() = node;
    return true;
  }
  int64_t n = count->i();
  removeAttribute(node, "num_outputs");
  if (n != node.output_size())
    return r.fail(node, "num_outputs is " + std::to_string(n) + " but the node has " +
                            std::to_string(node.output_size()) + " outputs");
  std::vector<int64_t> dims;
  int64_t axis = intAttribute(node, "axis", 0);
  if (!r.dims(node.input(0), dims))
    return r.fail(node, "the rank of the input is unknown");
  int64_t rank = int64_t(dims.size());
  if (axis < -rank || axis >= rank)
    return r.fail(node, "axis " + std::to_string(axis) + " is out of range");
  int64_t dim = dims[size_t(axis < 0 ? axis + rank : axis)];
  if (dim < 0)
    return r.fail(node, "the split dimension is not known at compile time");
  if (dim % n != 0) {
    int64_t part = (dim + n - 1) / n;
    std::vector<int64_t> sizes(size_t(n), part);
    sizes.back() = dim - part * (n - 1);
    if (sizes.back() <= 0)
      return r.fail(node, "num_outputs " + std::to_string(n) +
                              " leaves an empty part of a dimension of " +
                              std::to_string(dim));
    truncateInputs(node, 1);
    node.add_input(r.intConstant(nodeName(node) + "_split", sizes));
  }
  *r.out.Add() = node;
  return true;
}

// Opset 18: Pad's optional axes input (pads for those axes only); opset 19
// added mode 'wrap'.
bool rewritePad(Rewriter &r, onnx::NodeProto node) {
  std::string mode = stringAttribute(node, "mode", "constant");
  if (mode == "wrap")
    return r.fail(node, "mode 'wrap' is not supported");
  if (!hasInput(node, 3)) {
    truncateInputs(node, 3);
    *r.out.Add() = node;
    return true;
  }
  std::vector<int64_t> axes, pads, dims;
  if (!r.ints(node.input(3), axes) || !hasInput(node, 1) ||
      !r.ints(node.input(1), pads))
    return r.fail(node, "pads and axes must be constants");
  if (pads.size() != 2 * axes.size())
    return r.fail(node, "pads has " + std::to_string(pads.size()) +
                            " values for " + std::to_string(axes.size()) +
                            " axes");
  if (!r.dims(node.input(0), dims))
    return r.fail(node, "the rank of the input is unknown");
  int64_t rank = int64_t(dims.size());
  std::vector<int64_t> full(size_t(2 * rank), 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
    if (a < 0 || a >= rank)
      return r.fail(node, "axis " + std::to_string(axes[i]) + " is out of range");
    full[size_t(a)] = pads[i];
    full[size_t(a + rank)] = pads[i + axes.size()];
  }
  std::string constantValue = hasInput(node, 2) ? node.input(2) : "";
  truncateInputs(node, 1);
  node.add_input(r.intConstant(nodeName(node) + "_pads", full));
  if (!constantValue.empty())
    node.add_input(constantValue);
  *r.out.Add() = node;
  return true;
}

// Opset 18: Resize's axes, keep_aspect_ratio_policy and antialias; opset 19:
// coordinate_transformation_mode half_pixel_symmetric.
bool rewriteResize(Rewriter &r, onnx::NodeProto node) {
  if (intAttribute(node, "antialias", 0) != 0)
    return r.fail(node, "antialias is not supported");
  removeAttribute(node, "antialias");
  if (stringAttribute(node, "coordinate_transformation_mode", "") ==
      "half_pixel_symmetric")
    return r.fail(node, "coordinate_transformation_mode "
                        "'half_pixel_symmetric' is not supported");
  std::string policy = stringAttribute(node, "keep_aspect_ratio_policy", "stretch");
  removeAttribute(node, "keep_aspect_ratio_policy");
  const onnx::AttributeProto *axesAttr = attribute(node, "axes");
  std::vector<int64_t> axes;
  if (axesAttr)
    axes.assign(axesAttr->ints().begin(), axesAttr->ints().end());
  removeAttribute(node, "axes");
  if (axes.empty() && policy == "stretch") {
    *r.out.Add() = node;
    return true;
  }
  if (!axes.empty() && hasInput(node, 1) &&
      stringAttribute(node, "coordinate_transformation_mode", "") ==
          "tf_crop_and_resize")
    return r.fail(node, "a roi for some axes is not supported");
  std::vector<int64_t> dims;
  if (!r.dims(node.input(0), dims))
    return r.fail(node, "the rank of the input is unknown");
  int64_t rank = int64_t(dims.size());
  if (axes.empty())
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  for (int64_t &a : axes) {
    if (a < -rank || a >= rank)
      return r.fail(node, "axis " + std::to_string(a) + " is out of range");
    if (a < 0)
      a += rank;
  }
  if (hasInput(node, 3)) {
    std::vector<int64_t> sizes;
    if (!r.ints(node.input(3), sizes) || sizes.size() != axes.size())
      return r.fail(node, "sizes must be a constant with one value per axis");
    std::vector<int64_t> full = dims;
    if (policy != "stretch") {
      // The one scale that keeps the aspect ratio, applied to every axis.
      double scale = policy == "not_larger" ? INFINITY : 0;
      for (size_t i = 0; i < axes.size(); ++i) {
        int64_t in = dims[size_t(axes[i])];
        if (in <= 0)
          return r.fail(node, "keep_aspect_ratio_policy needs the input's "
                              "dimensions at compile time");
        double s = double(sizes[i]) / double(in);
        scale = policy == "not_larger" ? std::min(scale, s) : std::max(scale, s);
      }
      if (policy != "not_larger" && policy != "not_smaller")
        return r.fail(node, "keep_aspect_ratio_policy '" + policy +
                                "' is not one of stretch, not_larger, "
                                "not_smaller");
      for (size_t i = 0; i < axes.size(); ++i)
        sizes[i] = int64_t(std::round(scale * double(dims[size_t(axes[i])])));
    }
    for (size_t i = 0; i < axes.size(); ++i)
      full[size_t(axes[i])] = sizes[i];
    for (int64_t d : full)
      if (d < 0)
        return r.fail(node, "sizes for some axes need the other dimensions "
                            "at compile time");
    std::vector<std::string> inputs(node.input().begin(), node.input().end());
    truncateInputs(node, 0);
    node.add_input(inputs[0]);
    node.add_input(inputs.size() > 1 ? inputs[1] : "");
    node.add_input("");
    node.add_input(r.intConstant(nodeName(node) + "_sizes", full));
  } else if (hasInput(node, 2)) {
    if (policy != "stretch")
      return r.fail(node, "keep_aspect_ratio_policy applies to sizes only");
    std::vector<float> scales;
    if (!r.floats(node.input(2), scales) || scales.size() != axes.size())
      return r.fail(node, "scales must be a float constant with one value "
                          "per axis");
    std::vector<float> full(size_t(rank), 1.0f);
    for (size_t i = 0; i < axes.size(); ++i)
      full[size_t(axes[i])] = scales[i];
    onnx::TensorProto &t = *r.graph.add_initializer();
    t.set_name(r.fresh(nodeName(node) + "_scales"));
    t.set_data_type(onnx::TensorProto::FLOAT);
    t.add_dims(rank);
    for (float f : full)
      t.add_float_data(f);
    std::string roi = hasInput(node, 1) ? node.input(1) : "";
    std::string x = node.input(0);
    truncateInputs(node, 0);
    node.add_input(x);
    node.add_input(roi);
    node.add_input(t.name());
  }
  *r.out.Add() = node;
  return true;
}

// Opset 19: AveragePool's dilations; opset 18: LpPool's ceil_mode (it had
// dilations already, which the importer reads).
bool rewritePoolAttributes(Rewriter &r, onnx::NodeProto node) {
  if (const onnx::AttributeProto *d = attribute(node, "dilations")) {
    for (int64_t v : d->ints())
      if (v != 1)
        return r.fail(node, "dilations other than 1 are not supported");
    removeAttribute(node, "dilations");
  }
  if (node.op_type() == "LpPool") {
    if (intAttribute(node, "ceil_mode", 0) != 0)
      return r.fail(node, "ceil_mode is not supported");
    removeAttribute(node, "ceil_mode");
  }
  *r.out.Add() = node;
  return true;
}

// Opset 19: Cast's and CastLike's saturate, which concerns float8 only.
bool rewriteCast(Rewriter &r, onnx::NodeProto node) {
  removeAttribute(node, "saturate");
  *r.out.Add() = node;
  return true;
}

// Opset 20: y = 0.5 x (1 + erf(x / sqrt 2)), or with approximate = "tanh"
// 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
bool rewriteGelu(Rewriter &r, onnx::NodeProto node) {
  std::string approximate = stringAttribute(node, "approximate", "none");
  if (approximate != "none" && approximate != "tanh")
    return r.fail(node, "approximate must be 'none' or 'tanh', not '" +
                            approximate + "'");
  const std::string &x = node.input(0);
  std::string base = nodeName(node);
  std::string inner;
  if (approximate == "none") {
    inner = r.add("Erf",
                  {r.add("Mul", {x, r.scalarLike(x, float(M_SQRT1_2), base)}, base)
                       .output(0)},
                  base)
                .output(0);
  } else {
    std::string cube = r.add("Mul", {x, r.add("Mul", {x, x}, base).output(0)}, base)
                           .output(0);
    std::string sum =
        r.add("Add",
              {x, r.add("Mul", {cube, r.scalarLike(x, 0.044715f, base)}, base)
                      .output(0)},
              base)
            .output(0);
    inner = r.add("Tanh",
                  {r.add("Mul",
                         {sum, r.scalarLike(x, float(std::sqrt(2.0 / M_PI)), base)},
                         base)
                       .output(0)},
                  base)
                .output(0);
  }
  std::string onePlus =
      r.add("Add", {inner, r.scalarLike(x, 1.0f, base)}, base).output(0);
  std::string half =
      r.add("Mul", {x, r.scalarLike(x, 0.5f, base)}, base).output(0);
  r.add("Mul", {half, onePlus}, base, node.output(0));
  return true;
}

// Opset 18: y = x tanh(softplus(x)).
bool rewriteMish(Rewriter &r, onnx::NodeProto node) {
  const std::string &x = node.input(0);
  std::string base = nodeName(node);
  std::string t =
      r.add("Tanh", {r.add("Softplus", {x}, base).output(0)}, base).output(0);
  r.add("Mul", {x, t}, base, node.output(0));
  return true;
}

// Opset 18 (scale and bias per group), 21 (per channel): the mean and
// variance of each group of channels, over [N, G, C/G x spatial].
bool rewriteGroupNormalization(Rewriter &r, onnx::NodeProto node) {
  const onnx::AttributeProto *groupsAttr = attribute(node, "num_groups");
  if (!groupsAttr || groupsAttr->i() <= 0)
    return r.fail(node, "num_groups must be a positive integer");
  if (intAttribute(node, "stash_type", 1) != 1)
    return r.fail(node, "stash_type other than float32 is not supported");
  int64_t groups = groupsAttr->i();
  const onnx::AttributeProto *eps = attribute(node, "epsilon");
  float epsilon = eps ? eps->f() : 1e-5f;
  std::string base = nodeName(node);
  const std::string &x = node.input(0), &scale = node.input(1),
                    &bias = node.input(2);
  std::string shape = r.add("Shape", {x}, base).output(0);
  // [N, G, -1]: 0 copies N.
  std::string grouped =
      r.add("Reshape", {x, r.intConstant(base + "_groups", {0, groups, -1})},
            base)
          .output(0);
  auto mean = [&](const std::string &v) {
    onnx::NodeProto &n = r.add("ReduceMean", {v}, base);
    setInts(n, "axes", {2});
    return n.output(0);
  };
  std::string centred =
      r.add("Sub", {grouped, mean(grouped)}, base).output(0);
  std::string variance =
      mean(r.add("Mul", {centred, centred}, base).output(0));
  std::string deviation =
      r.add("Sqrt",
            {r.add("Add", {variance, r.scalarLike(x, epsilon, base)}, base)
                 .output(0)},
            base)
          .output(0);
  std::string normalized =
      r.add("Div", {centred, deviation}, base).output(0);
  // Scale and bias as [K, 1] against [N, K, -1]: K = G before opset 21,
  // C from it (the reshape's 0 copies C).
  std::string axisOne = r.intConstant(base + "_axis", {1});
  std::string s = r.add("Unsqueeze", {scale, axisOne}, base).output(0);
  std::string b = r.add("Unsqueeze", {bias, axisOne}, base).output(0);
  std::string target = normalized;
  if (r.opset >= 21)
    target = r.add("Reshape",
                   {r.add("Reshape", {normalized, shape}, base).output(0),
                    r.intConstant(base + "_channels", {0, 0, -1})},
                   base)
                 .output(0);
  std::string affine =
      r.add("Add", {r.add("Mul", {target, s}, base).output(0), b}, base)
          .output(0);
  r.add("Reshape", {affine, shape}, base, node.output(0));
  return true;
}

bool refuse(Rewriter &r, onnx::NodeProto node) {
  return r.fail(node, "this operator is not supported yet");
}

#define REDUCE_RULE(NAME)                                                      \
  {NAME, 18, "axes from a constant input to the attribute; "                   \
             "noop_with_empty_axes honoured",                                  \
   rewriteReduce, false}

const Rule kRules[] = {
    REDUCE_RULE("ReduceL1"),
    REDUCE_RULE("ReduceL2"),
    REDUCE_RULE("ReduceLogSum"),
    REDUCE_RULE("ReduceLogSumExp"),
    REDUCE_RULE("ReduceMax"),
    REDUCE_RULE("ReduceMean"),
    REDUCE_RULE("ReduceMin"),
    REDUCE_RULE("ReduceProd"),
    REDUCE_RULE("ReduceSumSquare"),
    {"Split", 18,
     "num_outputs: equal parts of ceil(dim / n), the last one smaller "
     "(explicit sizes when n does not divide the dimension)",
     rewriteSplit, true},
    {"Pad", 18,
     "constant pads and axes expanded to pads for every dimension; mode "
     "'wrap' (19) refused",
     rewritePad, true},
    {"Resize", 18,
     "axes expanded to every dimension; keep_aspect_ratio_policy applied to "
     "constant sizes; antialias and half_pixel_symmetric (19) refused",
     rewriteResize, true},
    {"AveragePool", 19, "dilations other than 1 refused", rewritePoolAttributes,
     false},
    {"LpPool", 18, "ceil_mode refused", rewritePoolAttributes, false},
    {"Cast", 19, "saturate (float8 only) dropped", rewriteCast, false},
    {"CastLike", 19, "saturate (float8 only) dropped", rewriteCast, false},
    {"GroupNormalization", 18,
     "expanded: mean and variance per group (ReduceMean), scale and bias "
     "per group (18) or per channel (21)",
     rewriteGroupNormalization, false},
    {"Mish", 18, "expanded: x tanh(softplus(x))", rewriteMish, false},
    {"Gelu", 20,
     "expanded: 0.5 x (1 + erf(x / sqrt 2)), or the tanh approximation",
     rewriteGelu, false},
    {"BitwiseAnd", 18, "refused", refuse, false},
    {"BitwiseNot", 18, "refused", refuse, false},
    {"BitwiseOr", 18, "refused", refuse, false},
    {"BitwiseXor", 18, "refused", refuse, false},
    {"CenterCropPad", 18, "refused", refuse, false},
    {"Col2Im", 18, "refused", refuse, false},
    {"DeformConv", 19, "refused", refuse, false},
    {"AffineGrid", 20, "refused", refuse, false},
    {"DFT", 20, "refused", refuse, false},
    {"GridSample", 20, "refused", refuse, false},
    {"ImageDecoder", 20, "refused", refuse, false},
    {"RegexFullMatch", 20, "refused", refuse, false},
    {"StringConcat", 20, "refused", refuse, false},
    {"StringSplit", 20, "refused", refuse, false},
};

#undef REDUCE_RULE

/// The rule for `node` at `opset`, or null.
const Rule *ruleFor(const onnx::NodeProto &node, int64_t opset) {
  if (!node.domain().empty() && node.domain() != "ai.onnx")
    return nullptr;
  for (const Rule &rule : kRules)
    if (node.op_type() == rule.opType && opset >= rule.since)
      return &rule;
  return nullptr;
}

/// Element types of IR versions 9 and 10 (float8, 4-bit integers), which no
/// part of the compiler handles.
const char *newTypeName(int32_t type) {
  switch (type) {
  case 17: return "FLOAT8E4M3FN";
  case 18: return "FLOAT8E4M3FNUZ";
  case 19: return "FLOAT8E5M2";
  case 20: return "FLOAT8E5M2FNUZ";
  case 21: return "UINT4";
  case 22: return "INT4";
  default: return type > 22 ? "a type newer than IR version 10" : nullptr;
  }
}

bool checkTypes(const onnx::ModelProto &model, const std::string &path,
                std::string &error) {
  auto bad = [&](const std::string &what, int32_t type) {
    if (const char *name = newTypeName(type)) {
      error = "'" + path + "': " + what + " has type " + name +
              ", which this compiler does not handle";
      return true;
    }
    return false;
  };
  const onnx::GraphProto &g = model.graph();
  for (const auto *list : {&g.input(), &g.output(), &g.value_info()})
    for (const auto &v : *list)
      if (v.type().has_tensor_type() &&
          bad("value '" + v.name() + "'", v.type().tensor_type().elem_type()))
        return false;
  for (const auto &t : g.initializer())
    if (bad("initializer '" + t.name() + "'", t.data_type()))
      return false;
  for (const auto &n : g.node())
    for (const auto &a : n.attribute()) {
      std::string what = "node '" + nodeName(n) + "' (" + n.op_type() + ")";
      if ((a.name() == "to" && a.type() == onnx::AttributeProto::INT &&
           bad(what, int32_t(a.i()))) ||
          (a.has_t() && bad(what, a.t().data_type())))
        return false;
    }
  return true;
}

} // namespace

/// Rewrites the nodes of `r.graph`, and of the graphs they hold, into their
/// opset-17 form; false with `r.error`.
bool rewriteNodes(Rewriter &r);

bool adaptNewOpsets(onnx::ModelProto &model, int64_t opset,
                    const std::string &path, std::string &error) {
  if (!checkTypes(model, path, error))
    return false;
  for (auto &id : *model.mutable_opset_import())
    if (id.domain().empty() || id.domain() == "ai.onnx")
      id.set_version(kNewestOldOpset);
  if (model.ir_version() > 8)
    model.set_ir_version(8);
  Rewriter r(model, opset, path);
  if (!rewriteNodes(r)) {
    error = r.error;
    return false;
  }
  return true;
}

namespace {

/// Whether `node` holds graphs (If, Loop, Scan).
bool holdsGraphs(const onnx::NodeProto &node) {
  for (const auto &a : node.attribute())
    if (a.has_g() || a.graphs_size())
      return true;
  return false;
}

} // namespace

bool rewriteNodes(Rewriter &r) {
  Nodes rest = r.graph.node();
  bool inferred = false;
  for (int i = 0; i < rest.size(); ++i) {
    const onnx::NodeProto &node = rest.Get(i);
    if (holdsGraphs(node)) {
      // Its graphs are rewritten in turn, with the types inference gave
      // their values in the whole model.
      if (!inferred) {
        Nodes after;
        for (int j = i; j < rest.size(); ++j)
          *after.Add() = rest.Get(j);
        r.inferShapes(after);
        inferred = true;
      }
      onnx::NodeProto copy = node;
      for (auto &a : *copy.mutable_attribute()) {
        std::vector<onnx::GraphProto *> graphs;
        if (a.has_g())
          graphs.push_back(a.mutable_g());
        for (auto &g : *a.mutable_graphs())
          graphs.push_back(&g);
        for (onnx::GraphProto *g : graphs) {
          Rewriter sub(r, *g);
          if (!rewriteNodes(sub)) {
            r.error = sub.error;
            return false;
          }
        }
      }
      *r.out.Add() = std::move(copy);
      continue;
    }
    const Rule *rule = ruleFor(node, r.opset);
    if (!rule) {
      *r.out.Add() = node;
      continue;
    }
    if (rule->needsShapes) {
      // The shapes of what precedes, with the nodes rewritten so far: a
      // rule's own rewrite does not change them, so once suffices unless
      // the node's input comes from an earlier shape rule's output (then
      // inference runs again, on the rewritten producer).
      std::vector<int64_t> probe;
      if (!inferred || !r.dims(node.input(0), probe)) {
        Nodes after;
        for (int j = i; j < rest.size(); ++j)
          *after.Add() = rest.Get(j);
        r.inferShapes(after);
        inferred = true;
      }
    }
    if (!rule->rewrite(r, node))
      return false;
  }
  *r.graph.mutable_node() = std::move(r.out);
  // Inference recorded shapes of the model as it was; the strict pass that
  // follows recomputes them all.
  r.graph.clear_value_info();
  return true;
}

std::vector<NewOpsetRule> newOpsetRules() {
  std::vector<NewOpsetRule> rules;
  for (const Rule &rule : kRules)
    rules.push_back({rule.opType, rule.since, rule.handling});
  return rules;
}

} // namespace nnapi_mlir::onnx_frontend
