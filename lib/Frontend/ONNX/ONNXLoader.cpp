//===- ONNXLoader.cpp - Parse, upgrade and shape-infer an ONNX model ------===//

#include "ONNXLoader.h"
#include "NewOpsets.h"
#include "Sandbox.h"

#include "onnx/checker.h"
#include "onnx/common/version.h"
#include "onnx/defs/schema.h"
#include "onnx/shape_inference/implementation.h"
#include "onnx/version_converter/convert.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <queue>
#include <unordered_map>
#include <unordered_set>

namespace nnapi_mlir::onnx_frontend {

int64_t defaultOpset(const onnx::ModelProto &model) {
  for (const auto &o : model.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx")
      return o.version();
  return -1;
}

/// ONNX's shape inference gives Expand, Reshape and ConstantOfShape a result
/// of as many dimensions as their shape operand has elements, and allocates
/// each: a shape operand declared with 10^8 elements exhausts memory before
/// any check of ours runs. Ranks above kMaxRank are refused first.
static bool checkShapeOperands(const onnx::ModelProto &model,
                               const std::string &path, std::string &error) {
  constexpr int64_t kMaxRank = 64;
  const onnx::GraphProto &graph = model.graph();
  std::unordered_map<std::string, int64_t> lengths; // of 1-D declared values
  for (const auto &t : graph.initializer())
    if (t.dims_size() == 1)
      lengths[t.name()] = t.dims(0);
  auto declared = [&](const onnx::ValueInfoProto &v) {
    if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape())
      return;
    const auto &shape = v.type().tensor_type().shape();
    if (shape.dim_size() == 1 && shape.dim(0).has_dim_value())
      lengths[v.name()] = shape.dim(0).dim_value();
  };
  for (const auto &v : graph.input())
    declared(v);
  for (const auto &v : graph.value_info())
    declared(v);
  static const std::pair<const char *, int> kShapeOperands[] = {
      {"Expand", 1}, {"Reshape", 1}, {"ConstantOfShape", 0}};
  for (const auto &node : graph.node())
    for (auto [type, index] : kShapeOperands) {
      if (node.op_type() != type || node.input_size() <= index)
        continue;
      auto it = lengths.find(node.input(index));
      if (it == lengths.end() || it->second <= kMaxRank)
        continue;
      error = "'" + path + "': node '" + nodeName(node) + "' (" + type +
              "): its shape operand '" + it->first + "' has " +
              std::to_string(it->second) + " elements; ranks above " +
              std::to_string(kMaxRank) + " are not supported";
      return false;
    }
  return true;
}

/// ONNX's shape inference reads constant tensors (a Reshape's shape, with
/// data propagation) by copying raw_data for as many elements as the dims
/// say, without checking its length: a short raw_data is read past its end.
/// Every tensor of the model (initializers and Constant values, in
/// subgraphs too) must hold exactly the data its dims say, checked first.
static bool checkTensorData(const onnx::GraphProto &graph,
                            const std::string &path, std::string &error) {
  auto check = [&](const onnx::TensorProto &t) {
    if (!t.has_raw_data() ||
        t.data_location() == onnx::TensorProto::EXTERNAL)
      return true;
    size_t bytes = elementBytes(t.data_type());
    if (!bytes)
      return true;
    uint64_t count = 1;
    for (int64_t d : t.dims()) {
      if (d < 0 || (d && count > (uint64_t(1) << 62) / uint64_t(d))) {
        error = "'" + path + "': tensor '" + t.name() +
                "' has a negative or too large dimension";
        return false;
      }
      count *= uint64_t(d);
    }
    if (t.raw_data().size() / bytes != count ||
        t.raw_data().size() % bytes) {
      error = "'" + path + "': tensor '" + t.name() + "' holds " +
              std::to_string(t.raw_data().size()) + " bytes of data; its " +
              std::to_string(count) + " elements take " +
              std::to_string(count * bytes);
      return false;
    }
    return true;
  };
  for (const auto &t : graph.initializer())
    if (!check(t))
      return false;
  for (const auto &node : graph.node())
    for (const auto &attr : node.attribute()) {
      if (attr.has_t() && !check(attr.t()))
        return false;
      for (const auto &t : attr.tensors())
        if (!check(t))
          return false;
      if (attr.has_g() && !checkTensorData(attr.g(), path, error))
        return false;
      for (const auto &g : attr.graphs())
        if (!checkTensorData(g, path, error))
          return false;
    }
  return true;
}

/// Replaces the declared shapes of the graph inputs named in `shapes`.
static bool
setInputShapes(onnx::ModelProto &model, const std::string &path,
               const std::map<std::string, std::vector<int64_t>> &shapes,
               std::string &error) {
  onnx::GraphProto &graph = *model.mutable_graph();
  std::unordered_set<std::string> initializers;
  for (const auto &t : graph.initializer())
    initializers.insert(t.name());
  auto describe = [](const std::vector<int64_t> &dims) {
    std::string s = "[";
    for (size_t i = 0; i < dims.size(); ++i)
      s += (i ? "x" : "") + (dims[i] < 0 ? "?" : std::to_string(dims[i]));
    return s + "]";
  };
  for (const auto &[name, dims] : shapes) {
    onnx::ValueInfoProto *input = nullptr;
    std::string names;
    for (auto &v : *graph.mutable_input()) {
      if (initializers.count(v.name()))
        continue;
      names += (names.empty() ? "'" : ", '") + v.name() + "'";
      if (v.name() == name)
        input = &v;
    }
    if (!input) {
      error = "'" + path + "': --input-shape names '" + name +
              "', which is not a graph input (the inputs are " +
              (names.empty() ? "none" : names) + ")";
      return false;
    }
    if (!input->type().has_tensor_type()) {
      error = "'" + path + "': graph input '" + name + "' is not a tensor";
      return false;
    }
    onnx::TypeProto_Tensor &tensor =
        *input->mutable_type()->mutable_tensor_type();
    if (tensor.has_shape()) {
      const auto &declared = tensor.shape();
      bool ok = declared.dim_size() == int(dims.size());
      for (int i = 0; ok && i < declared.dim_size(); ++i)
        ok = !declared.dim(i).has_dim_value() ||
             declared.dim(i).dim_value() == dims[i];
      // A dimension kept dynamic (-1) keeps the model's symbol, which
      // shape inference relates to other inputs' (a sequence length).
      if (ok) {
        onnx::TensorShapeProto &shape = *tensor.mutable_shape();
        for (int i = 0; i < shape.dim_size(); ++i) {
          onnx::TensorShapeProto_Dimension &dim = *shape.mutable_dim(i);
          if (dims[i] >= 0)
            dim.set_dim_value(dims[i]);
          else if (!dim.has_dim_param())
            dim.set_dim_param("nnapi_dynamic_" + name + "_" +
                              std::to_string(i));
        }
        continue;
      }
      if (!ok) {
        std::string d = "[";
        for (int i = 0; i < declared.dim_size(); ++i) {
          const auto &dim = declared.dim(i);
          d += i ? "x" : "";
          d += dim.has_dim_value()   ? std::to_string(dim.dim_value())
               : dim.has_dim_param() ? dim.dim_param()
                                     : std::string("?");
        }
        error = "'" + path + "': --input-shape gives input '" + name + "' " +
                describe(dims) + ", but the model declares " + d +
                "]: only its symbolic or unknown dimensions can be set";
        return false;
      }
    }
    onnx::TensorShapeProto &shape = *tensor.mutable_shape();
    shape.clear_dim();
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] >= 0)
        shape.add_dim()->set_dim_value(dims[i]);
      else
        shape.add_dim()->set_dim_param("nnapi_dynamic_" + name + "_" +
                                       std::to_string(i));
    }
  }
  // Shapes recorded for intermediate values were inferred for the symbolic
  // dimensions; inference recomputes them for the concrete ones.
  if (!shapes.empty())
    graph.clear_value_info();
  return true;
}

/// Turns the graph inputs named in `values` (--input-value, or
/// --specialize-value for inputs that decide shapes) into initializers
/// holding them; each value must have the input's element type and a shape
/// that fits its declaration. The importer keeps them as entry arguments.
static bool setInputValues(onnx::ModelProto &model, const std::string &path,
                           const std::map<std::string, std::string> &values,
                           std::string &error) {
  onnx::GraphProto &graph = *model.mutable_graph();
  for (const auto &[name, bytes] : values) {
    int index = -1;
    for (int i = 0; i < graph.input_size(); ++i)
      if (graph.input(i).name() == name)
        index = i;
    bool isInitializer = false;
    for (const auto &t : graph.initializer())
      isInitializer |= t.name() == name;
    if (index < 0 || isInitializer) {
      error = "'" + path + "': --input-value names '" + name +
              "', which is not a graph input";
      return false;
    }
    onnx::TensorProto value;
    if (!value.ParseFromString(bytes)) {
      error = "'" + path + "': the value given for '" + name +
              "' is not an ONNX TensorProto";
      return false;
    }
    const onnx::TypeProto &type = graph.input(index).type();
    bool ok = type.has_tensor_type() &&
              type.tensor_type().elem_type() == value.data_type();
    if (ok && type.tensor_type().has_shape()) {
      const auto &shape = type.tensor_type().shape();
      ok = shape.dim_size() == value.dims_size();
      for (int d = 0; ok && d < shape.dim_size(); ++d)
        ok = !shape.dim(d).has_dim_value() ||
             shape.dim(d).dim_value() == value.dims(d);
    }
    if (!ok) {
      error = "'" + path + "': the value given for '" + name +
              "' does not match the input's declared element type and shape";
      return false;
    }
    value.set_name(name);
    *graph.add_initializer() = value;
    graph.mutable_input()->DeleteSubrange(index, 1);
  }
  return true;
}

/// Some of libonnx 1.12's inference functions index an input's dimensions
/// without checking its rank: Gemm before opset 11 reads dim(1) of A and B,
/// which segfaults for a rank-1 B (found by a reliability probe), and RNN,
/// GRU and LSTM read X's and W's dimensions (found by fuzzing). Untrusted
/// models must not reach that, and the rank of an intermediate value is
/// known only during inference, so each such function is wrapped, once per
/// process, by one that checks the ranks first and fails inference with a
/// message instead (lenient inference records it and goes on; the strict
/// one reports it).
static void guardInferenceFunctions() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct Rule {
      const char *op;
      /// (input, the rank it must have).
      std::vector<std::pair<int, int>> ranks;
    } rules[] = {{"Gemm", {{0, 2}, {1, 2}}},
                 {"RNN", {{0, 3}, {1, 3}, {2, 3}}},
                 {"GRU", {{0, 3}, {1, 3}, {2, 3}}},
                 {"LSTM", {{0, 3}, {1, 3}, {2, 3}}}};
    for (const Rule &rule : rules)
      for (int version = 1; version <= 17; ++version) {
        const onnx::OpSchema *schema =
            onnx::OpSchemaRegistry::Schema(rule.op, version, "");
        if (!schema || schema->SinceVersion() != version)
          continue;
        onnx::InferenceFunction original =
            schema->GetTypeAndShapeInferenceFunction();
        std::string op = rule.op;
        std::vector<std::pair<int, int>> inputs = rule.ranks;
        // The registry's schemas are built at run time; changing one's
        // inference function is what registering it with one would do.
        const_cast<onnx::OpSchema *>(schema)->TypeAndShapeInferenceFunction(
            [original, op, inputs](onnx::InferenceContext &ctx) {
              for (auto [i, rank] : inputs) {
                if (size_t(i) >= ctx.getNumInputs())
                  continue;
                const onnx::TypeProto *type = ctx.getInputType(size_t(i));
                if (type && type->has_tensor_type() &&
                    type->tensor_type().has_shape() &&
                    type->tensor_type().shape().dim_size() != rank)
                  fail_shape_inference(op, " input ", i, " must have rank ",
                                       rank, ", not ",
                                       type->tensor_type().shape().dim_size());
              }
              if (original)
                original(ctx);
            });
      }
  });
}

/// ONNX's version converter needs the input shapes of some nodes (the
/// broadcasting and Softmax adapters), which exported models rarely record:
/// the model's shapes are inferred first, at its own opset. That inference
/// is lenient (a node it cannot type is left for the strict pass after the
/// conversion to report).
static void inferBeforeConversion(onnx::ModelProto &model) {
  onnx::ShapeInferenceOptions options{/*check_type=*/false,
                                      /*error_mode=*/0,
                                      /*enable_data_propagation=*/true};
  onnx::shape_inference::InferShapes(model, onnx::OpSchemaRegistry::Instance(),
                                     options);
}

/// The version converter's adapters, like the old inference functions
/// (guardInferenceFunctions), assume the ranks the operators require: its
/// Gemm 6->7 adapter reads B's second dimension, and a rank-1 B makes it
/// allocate without bound. Checked on the ranks inference found, before the
/// conversion; false with `error` naming the node.
static bool checkRanksBeforeConversion(const onnx::ModelProto &model,
                                       const std::string &path,
                                       std::string &error) {
  const onnx::GraphProto &graph = model.graph();
  std::unordered_map<std::string, int> ranks;
  auto record = [&](const onnx::ValueInfoProto &v) {
    if (v.type().has_tensor_type() && v.type().tensor_type().has_shape())
      ranks[v.name()] = v.type().tensor_type().shape().dim_size();
  };
  for (const auto &v : graph.input())
    record(v);
  for (const auto &v : graph.value_info())
    record(v);
  for (const auto &v : graph.output())
    record(v);
  for (const auto &t : graph.initializer())
    ranks[t.name()] = t.dims_size();
  for (const onnx::NodeProto &node : graph.node()) {
    if (node.op_type() != "Gemm" || !node.domain().empty())
      continue;
    for (int i = 0; i < 2 && i < node.input_size(); ++i) {
      auto it = ranks.find(node.input(i));
      if (it != ranks.end() && it->second != 2) {
        error = "'" + path + "': node '" + node.name() + "' (Gemm): input " +
                (i ? "B" : "A") + " ('" + node.input(i) +
                "') must have rank 2, not " + std::to_string(it->second);
        return false;
      }
    }
  }
  return true;
}

/// Rules of old opsets that ONNX's version converter does not carry over
/// correctly, rewritten before the conversion:
/// - (opset < 7) binary operators with `broadcast = 1, axis = k` aligned B
///   with A's dimension k (a [C] bias added to [N, C, H, W] along axis 1);
///   the converter's adapter unsqueezes B to the wrong rank ([C, 1, 1, 1]).
///   B gets an explicit Reshape to [C, 1, 1] and the attributes go.
/// - (opset < 7) PRelu applied a slope of shape [C] to dimension 1 of its
///   input; from opset 7 it broadcasts like numpy and the converter leaves
///   it alone. The slope gets an explicit Reshape to [C, 1, ..., 1].
/// - (opset < 13) Softmax, LogSoftmax and Hardmax with an axis other than
///   the last one worked on the input flattened to 2-D at that axis. The
///   converter's adapter needs the input's static shape to express that,
///   and asserts when shape inference could not give it (a Reshape whose
///   shape is computed from Shape -> Gather, which libonnx 1.12 does not
///   propagate). With the rank known and the axis the last, the axis
///   becomes -1; otherwise the node becomes Flatten(axis) -> op(axis = -1)
///   -> Reshape(Shape(x)), the same computation in operators every opset
///   has, which the adapter converts without shapes.
static void adaptOldOpsets(onnx::ModelProto &model, int64_t opset) {
  onnx::GraphProto &graph = *model.mutable_graph();
  std::unordered_map<std::string, const onnx::TypeProto *> types;
  for (const auto &v : graph.input())
    types[v.name()] = &v.type();
  for (const auto &v : graph.value_info())
    types[v.name()] = &v.type();
  std::unordered_map<std::string, std::vector<int64_t>> initDims;
  for (const auto &t : graph.initializer())
    initDims[t.name()] = {t.dims().begin(), t.dims().end()};
  auto dimsOf = [&](const std::string &name, std::vector<int64_t> &dims) {
    if (auto it = initDims.find(name); it != initDims.end()) {
      dims = it->second;
      return true;
    }
    auto it = types.find(name);
    if (it == types.end() || !it->second->has_tensor_type() ||
        !it->second->tensor_type().has_shape())
      return false;
    dims.clear();
    for (const auto &d : it->second->tensor_type().shape().dim())
      dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
    return true;
  };
  static const std::unordered_set<std::string> kLegacyBroadcast = {
      "Add", "Sub", "Mul",   "Div",     "Pow", "And",
      "Or",  "Xor", "Equal", "Greater", "Less"};
  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  int counter = 0;
  // Inserts Constant + Reshape giving input `index` of `node` the shape
  // `dims`.
  // Before opset 5 Reshape takes its shape as an attribute.
  auto reshapeAttribute = [](onnx::NodeProto &reshape,
                             const std::vector<int64_t> &dims) {
    onnx::AttributeProto &shape = *reshape.add_attribute();
    shape.set_name("shape");
    shape.set_type(onnx::AttributeProto::INTS);
    for (int64_t d : dims)
      shape.add_ints(d);
  };
  auto reshapeInput = [&](onnx::NodeProto &node, int index,
                          const std::vector<int64_t> &dims) {
    std::string base =
        node.input(index) + "__opset6_" + std::to_string(counter++);
    if (opset < 5) {
      onnx::NodeProto &reshape = *nodes.Add();
      reshape.set_op_type("Reshape");
      reshape.set_name(nodeName(node) + "/reshape" + std::to_string(index));
      reshape.add_input(node.input(index));
      reshape.add_output(base);
      reshapeAttribute(reshape, dims);
      node.set_input(index, base);
      return;
    }
    // A Constant node, not an initializer: IR version 3 would want the
    // initializer listed among the graph inputs too.
    onnx::NodeProto &constant = *nodes.Add();
    constant.set_op_type("Constant");
    // Inserted nodes are named after the node, which messages name.
    constant.set_name(nodeName(node) + "/shape" + std::to_string(index));
    constant.add_output(base + "_shape");
    onnx::AttributeProto &value = *constant.add_attribute();
    value.set_name("value");
    value.set_type(onnx::AttributeProto::TENSOR);
    onnx::TensorProto &shape = *value.mutable_t();
    shape.set_data_type(onnx::TensorProto::INT64);
    shape.add_dims(int64_t(dims.size()));
    for (int64_t d : dims)
      shape.add_int64_data(d);
    onnx::NodeProto &reshape = *nodes.Add();
    reshape.set_op_type("Reshape");
    reshape.set_name(nodeName(node) + "/reshape" + std::to_string(index));
    reshape.add_input(node.input(index));
    reshape.add_input(constant.output(0));
    reshape.add_output(base);
    node.set_input(index, base);
  };
  for (auto &node : *graph.mutable_node()) {
    std::vector<int64_t> a, b;
    bool shapes = node.input_size() == 2 && dimsOf(node.input(0), a) &&
                  dimsOf(node.input(1), b);
    if (opset < 13 &&
        (node.op_type() == "Softmax" || node.op_type() == "LogSoftmax" ||
         node.op_type() == "Hardmax")) {
      int64_t axis = 1; // the default before opset 13
      onnx::AttributeProto *axisAttr = nullptr;
      for (auto &attr : *node.mutable_attribute())
        if (attr.name() == "axis") {
          axisAttr = &attr;
          axis = attr.i();
        }
      if (!axisAttr) {
        axisAttr = node.add_attribute();
        axisAttr->set_name("axis");
        axisAttr->set_type(onnx::AttributeProto::INT);
      }
      std::vector<int64_t> x;
      bool rankKnown = dimsOf(node.input(0), x);
      int64_t rank = int64_t(x.size());
      if (axis == -1 || (rankKnown && axis == rank - 1)) {
        axisAttr->set_i(-1);
      } else if (opset >= 5) {
        std::string base =
            node.output(0) + "__opset12_" + std::to_string(counter++);
        onnx::NodeProto &flatten = *nodes.Add();
        flatten.set_op_type("Flatten");
        // Inserted nodes are named after the node, which messages name.
        flatten.set_name(nodeName(node) + "/flatten");
        flatten.add_input(node.input(0));
        flatten.add_output(base + "_2d");
        onnx::AttributeProto &flattenAxis = *flatten.add_attribute();
        flattenAxis.set_name("axis");
        flattenAxis.set_type(onnx::AttributeProto::INT);
        flattenAxis.set_i(axis);
        onnx::NodeProto &shape = *nodes.Add();
        shape.set_op_type("Shape");
        shape.set_name(nodeName(node) + "/shape");
        shape.add_input(node.input(0));
        shape.add_output(base + "_shape");
        std::string output = node.output(0);
        node.set_input(0, base + "_2d");
        node.set_output(0, base + "_y2d");
        axisAttr->set_i(-1);
        *nodes.Add() = node;
        onnx::NodeProto &reshape = *nodes.Add();
        reshape.set_op_type("Reshape");
        reshape.set_name(nodeName(node) + "/reshape");
        reshape.add_input(base + "_y2d");
        reshape.add_input(base + "_shape");
        reshape.add_output(output);
        continue;
      }
      // Before opset 5 (Reshape without a shape input) the node stays: the
      // converter's adapter handles it when the shapes are known, and
      // refuses it by name when not.
    } else if (opset < 7 && kLegacyBroadcast.count(node.op_type())) {
      int64_t broadcast = 0, axis = -1;
      auto *attrs = node.mutable_attribute();
      for (int i = attrs->size() - 1; i >= 0; --i) {
        const auto &attr = attrs->Get(i);
        if (attr.name() != "broadcast" && attr.name() != "axis")
          continue;
        (attr.name() == "broadcast" ? broadcast : axis) = attr.i();
        attrs->DeleteSubrange(i, 1);
      }
      // (B's dimensions must be known: they become a Reshape's shape.)
      if (broadcast && shapes && axis >= 0 &&
          axis + int64_t(b.size()) < int64_t(a.size()) &&
          std::all_of(b.begin(), b.end(), [](int64_t d) { return d >= 0; })) {
        std::vector<int64_t> dims = b;
        dims.resize(a.size() - axis, 1);
        reshapeInput(node, 1, dims);
      }
    } else if (opset < 7 && node.op_type() == "PRelu" && shapes &&
               a.size() > 2 && b.size() == 1 && b[0] > 1 && b[0] == a[1]) {
      std::vector<int64_t> dims(a.size() - 1, 1);
      dims[0] = b[0];
      reshapeInput(node, 1, dims);
    }
    *nodes.Add() = node;
  }
  graph.mutable_node()->Swap(&nodes);
}

/// ONNX's version converter rebuilds the graph and drops node names (which
/// name the nodes in every later message): each converted node whose
/// outputs were some original node's gets that node's name back.
static void restoreNodeNames(const onnx::GraphProto &original,
                             onnx::GraphProto &converted) {
  std::unordered_map<std::string, const std::string *> nameOfOutput;
  for (const onnx::NodeProto &node : original.node())
    if (!node.name().empty())
      for (const std::string &out : node.output())
        if (!out.empty())
          nameOfOutput.emplace(out, &node.name());
  for (onnx::NodeProto &node : *converted.mutable_node()) {
    if (!node.name().empty())
      continue;
    for (const std::string &out : node.output()) {
      auto it = nameOfOutput.find(out);
      if (it != nameOfOutput.end()) {
        node.set_name(*it->second);
        break;
      }
    }
  }
}

/// ONNX's version converter writes the shape a Reshape before opset 5 had
/// as an attribute into a Constant tensor without dimensions (a rank-0
/// tensor holding several values): such a tensor is the 1-D tensor of its
/// values.
static void repairConverterConstants(onnx::GraphProto &graph) {
  for (onnx::NodeProto &node : *graph.mutable_node()) {
    if (node.op_type() != "Constant")
      continue;
    for (onnx::AttributeProto &attr : *node.mutable_attribute()) {
      if (attr.name() != "value" || !attr.has_t())
        continue;
      onnx::TensorProto &t = *attr.mutable_t();
      int64_t count = std::max({int64_t(t.int64_data_size()),
                                int64_t(t.int32_data_size()),
                                int64_t(t.float_data_size()),
                                int64_t(t.double_data_size())});
      if (t.dims_size() == 0 && count > 1)
        t.add_dims(count);
    }
  }
}

/// "node 'X' (Op): " for the node of `model` that ONNX's version converter
/// cannot convert to `target` alone (with the types inference gave its
/// inputs), preferring one that fails with `why` as the whole model did;
/// "" if no node fails alone.
static std::string unconvertibleNode(const onnx::ModelProto &model,
                                     int target, const std::string &why) {
  const onnx::GraphProto &graph = model.graph();
  std::unordered_map<std::string, const onnx::TypeProto *> types;
  for (const auto &v : graph.input())
    types[v.name()] = &v.type();
  for (const auto &v : graph.value_info())
    types[v.name()] = &v.type();
  for (const auto &v : graph.output())
    types[v.name()] = &v.type();
  std::unordered_map<std::string, const onnx::TensorProto *> constants;
  for (const auto &t : graph.initializer())
    constants[t.name()] = &t;
  const onnx::NodeProto *first = nullptr;
  for (const onnx::NodeProto &node : graph.node()) {
    onnx::ModelProto alone;
    alone.set_ir_version(model.ir_version());
    *alone.mutable_opset_import() = model.opset_import();
    onnx::GraphProto &g = *alone.mutable_graph();
    g.set_name("node");
    for (const std::string &in : node.input()) {
      if (in.empty())
        continue;
      if (auto c = constants.find(in); c != constants.end()) {
        *g.add_initializer() = *c->second;
        continue;
      }
      onnx::ValueInfoProto &v = *g.add_input();
      v.set_name(in);
      if (auto t = types.find(in); t != types.end())
        *v.mutable_type() = *t->second;
    }
    for (const std::string &out : node.output()) {
      onnx::ValueInfoProto &v = *g.add_output();
      v.set_name(out);
      if (auto t = types.find(out); t != types.end())
        *v.mutable_type() = *t->second;
    }
    *g.add_node() = node;
    try {
      onnx::version_conversion::ConvertVersion(alone, target);
    } catch (const std::exception &e) {
      if (why == e.what())
        return "node '" + nodeName(node) + "' (" + node.op_type() + ") ";
      if (!first)
        first = &node;
    }
  }
  return first ? "node '" + nodeName(*first) + "' (" + first->op_type() + ") "
               : "";
}

/// The libonnx steps of loadONNXModel, on the parsed `model`: everything
/// from the opset check to the strict inference. Runs in a sandbox.
static bool checkAndInfer(onnx::ModelProto &model, const std::string &path,
                          const LoadOptions &options, std::string &error) {
  try {
    int64_t opset = defaultOpset(model);
    if (opset < 0) {
      error = "'" + path + "' imports no default-domain (ai.onnx) opset";
      return false;
    }
    // libonnx knows the operators of the opsets up to its own: a newer
    // model would fail in the checker with a message about one node's
    // inputs (opset 18 moved Reduce* axes to an input) or the IR version.
    // Opsets after it, up to kNewestNewOpset, are rewritten into its newest
    // (NewOpsets.h).
    int64_t known = onnx::OpSchemaRegistry::DomainToVersionRange::Instance()
                        .Map()
                        .at("")
                        .second;
    int64_t newest = std::max(known, kNewestNewOpset);
    int64_t newestIR = std::max<int64_t>(onnx::IR_VERSION, kNewestIRVersion);
    if (opset > newest || model.ir_version() > newestIR) {
      error =
          "'" + path + "' uses " +
          (opset > newest ? "opset " + std::to_string(opset)
                          : "IR version " + std::to_string(model.ir_version())) +
          "; this compiler reads opsets up to " + std::to_string(newest) +
          " and IR versions up to " + std::to_string(newestIR) +
          " (re-export the model at opset " + std::to_string(newest) +
          " or lower)";
      return false;
    }
    std::string cycle;
    sortTopologically(*model.mutable_graph(), cycle);
    if (!cycle.empty()) {
      error = "'" + path + "': " + cycle +
              ": no order computes every node after its inputs";
      return false;
    }
    if (known == kNewestOldOpset &&
        (opset > known || model.ir_version() > onnx::IR_VERSION)) {
      if (!adaptNewOpsets(model, opset, path, error))
        return false;
      opset = known;
    }
    if (!typeGraphOutputs(model, path, error))
      return false;
    // The checker validates every node against its schema (input counts,
    // attribute types), so the importer can rely on the structure.
    onnx::checker::check_model(model);
    // The checker lets a graph output that nothing produces through, and
    // ONNX's version converter dereferences its missing producer.
    std::unordered_set<std::string> defined;
    const onnx::GraphProto &graph = model.graph();
    for (const auto &v : graph.input())
      defined.insert(v.name());
    for (const auto &t : graph.initializer())
      defined.insert(t.name());
    for (const auto &node : graph.node())
      defined.insert(node.output().begin(), node.output().end());
    for (const auto &v : graph.output())
      if (!defined.count(v.name())) {
        error =
            "'" + path + "': graph output '" + v.name() + "' is never produced";
        return false;
      }
    if (!checkShapeOperands(model, path, error))
      return false;
    if (options.inputShapes &&
        !setInputShapes(model, path, *options.inputShapes, error))
      return false;
    if (options.inputOrder)
      for (const auto &v : graph.input())
        options.inputOrder->push_back(v.name());
    if (options.inputValues &&
        !setInputValues(model, path, *options.inputValues, error))
      return false;
    if (opset < options.minOpset) {
      inferBeforeConversion(model);
      if (!checkRanksBeforeConversion(model, path, error))
        return false;
      adaptOldOpsets(model, opset);
      // The converter's errors name an operator at best: the node that
      // cannot be converted is found by converting each alone.
      onnx::ModelProto converted;
      try {
        converted = onnx::version_conversion::ConvertVersion(
            model, int(options.minOpset));
      } catch (const std::exception &e) {
        error = "'" + path + "': " +
                unconvertibleNode(model, int(options.minOpset), e.what()) +
                "cannot be converted from opset " + std::to_string(opset) +
                " to " + std::to_string(options.minOpset) + ": " + e.what();
        return false;
      }
      restoreNodeNames(model.graph(), *converted.mutable_graph());
      repairConverterConstants(*converted.mutable_graph());
      model = std::move(converted);
      // The converter records shapes for the values it creates that are not
      // always right (an Unsqueeze of a [C] bias to [C, 1, 1] recorded as
      // rank 4); the strict inference below recomputes them all.
      model.mutable_graph()->clear_value_info();
    }
    onnx::ShapeInferenceOptions strict{/*check_type=*/true,
                                       /*error_mode=*/1,
                                       /*enable_data_propagation=*/true};
    onnx::shape_inference::InferShapes(
        model, onnx::OpSchemaRegistry::Instance(), strict);
  } catch (const std::exception &e) {
    error = "'" + path + "': " + e.what();
    return false;
  }
  return true;
}

/// Appends a length-prefixed string to `out`; reads one from `in` at `at`.
static void putString(std::string &out, const std::string &text) {
  uint64_t n = text.size();
  out.append(reinterpret_cast<const char *>(&n), sizeof n);
  out += text;
}
static bool getString(const std::string &in, size_t &at, std::string &text) {
  uint64_t n;
  if (in.size() - at < sizeof n)
    return false;
  std::memcpy(&n, in.data() + at, sizeof n);
  at += sizeof n;
  if (in.size() - at < n)
    return false;
  text = in.substr(at, size_t(n));
  at += size_t(n);
  return true;
}

/// Initializers of at least this many raw bytes that the sandboxed steps
/// leave untouched stay in the parent: the child sends back their names,
/// each marked with kElided and its index.
static constexpr size_t kElideBytes = 4096;
static const std::string kElided = "\x01nnapi-mlir-elided:";

/// Where a sandboxed libonnx call died, for messages: "node 'X' (Op): ".
static std::string crashedAt(const onnx::NodeProto *node) {
  return node ? "node '" + nodeName(*node) + "' (" + node->op_type() + "): "
              : "";
}

bool loadONNXModel(const std::string &data, const std::string &path,
                   const LoadOptions &options, onnx::ModelProto &model,
                   std::string &error) {
  if (data.empty() || !model.ParseFromString(data)) {
    error = "'" + path + "' is not an ONNX model (protobuf parsing failed)";
    return false;
  }
  if (!model.has_graph() || model.ir_version() <= 0) {
    error = "'" + path + "' is not an ONNX model (no graph or IR version)";
    return false;
  }
  guardInferenceFunctions();
  if (!checkTensorData(model.graph(), path, error))
    return false;
  if (options.float64 && !toFloat64(*model.mutable_graph(), path, error))
    return false;
  // libonnx's checker, converter and inference run in a child process
  // (Sandbox.h): it sends back the model they made, and the input order.
  std::string result;
  const onnx::NodeProto *crashed = nullptr;
  bool ok = runInSandbox(
      "shape inference", model.graph(),
      [&](std::string &out, std::string &why) {
        // Where each initializer's bytes live before the work: those still
        // there after it are the parent's own, and do not travel back.
        std::unordered_map<const char *, std::pair<size_t, int>> before;
        for (int i = 0; i < model.graph().initializer_size(); ++i) {
          const std::string &raw = model.graph().initializer(i).raw_data();
          if (raw.size() >= kElideBytes)
            before[raw.data()] = {raw.size(), i};
        }
        std::vector<std::string> order;
        LoadOptions local = options;
        local.inputOrder = &order;
        if (!checkAndInfer(model, path, local, why))
          return false;
        for (onnx::TensorProto &t :
             *model.mutable_graph()->mutable_initializer()) {
          if (!inSandboxChild()) // the caller's own model: nothing travels
            break;
          auto it = before.find(t.raw_data().data());
          if (it == before.end() || it->second.first != t.raw_data().size())
            continue;
          t.clear_raw_data();
          t.set_doc_string(kElided + std::to_string(it->second.second));
        }
        putString(out, std::to_string(order.size()));
        for (const std::string &name : order)
          putString(out, name);
        std::string bytes;
        if (!model.SerializeToString(&bytes)) {
          why = "'" + path + "': the model is too large to serialize";
          return false;
        }
        putString(out, bytes);
        return true;
      },
      result, error, &crashed);
  if (!ok) {
    if (error.rfind("'" + path + "'", 0) != 0)
      error = "'" + path + "': " + crashedAt(crashed) + error;
    return false;
  }
  size_t at = 0;
  std::string count, bytes;
  bool read = getString(result, at, count);
  std::vector<std::string> order(
      read ? size_t(std::strtoull(count.c_str(), nullptr, 10)) : 0);
  for (std::string &name : order)
    read = read && getString(result, at, name);
  onnx::ModelProto inferred;
  read = read && getString(result, at, bytes) && inferred.ParseFromString(bytes);
  // The initializers the child left as they were are taken from here.
  for (onnx::TensorProto &t : *inferred.mutable_graph()->mutable_initializer()) {
    if (t.doc_string().rfind(kElided, 0) != 0)
      continue;
    size_t index = size_t(
        std::strtoull(t.doc_string().c_str() + kElided.size(), nullptr, 10));
    read = read && index < size_t(model.graph().initializer_size());
    if (read)
      t.Swap(model.mutable_graph()->mutable_initializer(int(index)));
  }
  if (!read) {
    error = "'" + path + "': the isolated shape inference sent back a model "
            "that does not parse";
    return false;
  }
  model = std::move(inferred);
  if (options.inputOrder)
    *options.inputOrder = std::move(order);
  return true;
}

bool inferNodeTypes(const onnx::NodeProto &node, int64_t opset,
                    const std::vector<KnownInput> &inputs,
                    std::vector<onnx::TypeProto> &outputs, std::string &error) {
  guardInferenceFunctions();
  onnx::ModelProto model;
  model.set_ir_version(onnx::IR_VERSION);
  onnx::OperatorSetIdProto &id = *model.add_opset_import();
  id.set_domain("");
  id.set_version(opset);
  onnx::GraphProto &graph = *model.mutable_graph();
  graph.set_name("node");
  for (const KnownInput &in : inputs) {
    if (in.value) {
      onnx::TensorProto &t = *graph.add_initializer();
      t = *in.value;
      t.set_name(in.name);
      continue;
    }
    onnx::ValueInfoProto &v = *graph.add_input();
    v.set_name(in.name);
    *v.mutable_type() = in.type;
  }
  *graph.add_node() = node;
  for (const std::string &out : node.output())
    graph.add_output()->set_name(out);
  // In a child process (Sandbox.h), which sends back one type per output.
  std::string result;
  const onnx::NodeProto *crashed = nullptr;
  bool ok = runInSandbox(
      "shape inference", graph,
      [&](std::string &out, std::string &why) {
        try {
          onnx::ShapeInferenceOptions options{
              /*check_type=*/true, /*error_mode=*/1,
              /*enable_data_propagation=*/true};
          onnx::shape_inference::InferShapes(
              model, onnx::OpSchemaRegistry::Instance(), options);
        } catch (const std::exception &e) {
          why = e.what();
          return false;
        }
        for (const std::string &name : node.output()) {
          onnx::TypeProto type;
          for (const auto &v : graph.value_info())
            if (v.name() == name)
              type = v.type();
          for (const auto &v : graph.output())
            if (v.name() == name && v.has_type())
              type = v.type();
          putString(out, type.SerializeAsString());
        }
        return true;
      },
      result, error, &crashed);
  if (!ok)
    return false;
  outputs.clear();
  size_t at = 0;
  for (int i = 0; i < node.output_size(); ++i) {
    std::string bytes;
    onnx::TypeProto &type = outputs.emplace_back();
    if (!getString(result, at, bytes) || !type.ParseFromString(bytes)) {
      error = "the isolated shape inference sent back types that do not parse";
      return false;
    }
  }
  return true;
}

} // namespace nnapi_mlir::onnx_frontend
