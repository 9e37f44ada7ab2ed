//===- GraphPreparation.cpp - ONNX graphs made what libonnx expects -------===//
//
// Valid ONNX that libonnx's checker still refuses, fixed before it runs:
// nodes out of topological order, graph outputs declared without a type or
// shape; and the float64 copy of a model (nnapi-compile --float64). Each
// works on the protobuf, so the rest of the importer sees an ordinary
// model.
//
// Compiled with exceptions, like ONNXLoader.cpp.
//
//===----------------------------------------------------------------------===//

#include "NewOpsets.h"
#include "ONNXLoader.h"

#include <algorithm>
#include <cstring>
#include <queue>
#include <unordered_map>
#include <unordered_set>

namespace nnapi_mlir::onnx_frontend {

/// Adds to `names` every value name the nodes of `g` (and of the graphs
/// they hold) read: what a node holding `g` needs from outside, and more.
static void namesRead(const onnx::GraphProto &g,
                      std::unordered_set<std::string> &names) {
  for (const auto &node : g.node()) {
    names.insert(node.input().begin(), node.input().end());
    for (const auto &a : node.attribute()) {
      if (a.has_g())
        namesRead(a.g(), names);
      for (const auto &sub : a.graphs())
        namesRead(sub, names);
    }
  }
}

/// Puts the nodes of `g`, and of the graphs they hold, in topological order,
/// as ONNX requires and some exporters do not (ONNX Runtime sorts too). A
/// node comes after the producers of its inputs and of the values its
/// graphs read; among the nodes ready at a time, file order wins, so a
/// sorted graph stays as it is. A graph with a cycle is left as it is and
/// `cycle` names two of its nodes (the first graph found with one).
void sortTopologically(onnx::GraphProto &g, std::string &cycle) {
  for (auto &node : *g.mutable_node())
    for (auto &a : *node.mutable_attribute()) {
      if (a.has_g())
        sortTopologically(*a.mutable_g(), cycle);
      for (auto &sub : *a.mutable_graphs())
        sortTopologically(sub, cycle);
    }
  int n = g.node_size();
  std::unordered_map<std::string, int> producer;
  for (int i = 0; i < n; ++i)
    for (const std::string &out : g.node(i).output())
      if (!out.empty())
        producer.emplace(out, i);
  std::vector<std::vector<int>> users(static_cast<size_t>(n));
  std::vector<int> waiting(size_t(n), 0);
  for (int i = 0; i < n; ++i) {
    std::unordered_set<std::string> reads(g.node(i).input().begin(),
                                          g.node(i).input().end());
    for (const auto &a : g.node(i).attribute()) {
      if (a.has_g())
        namesRead(a.g(), reads);
      for (const auto &sub : a.graphs())
        namesRead(sub, reads);
    }
    std::unordered_set<int> from;
    for (const std::string &name : reads)
      if (auto it = producer.find(name);
          it != producer.end() && it->second != i)
        from.insert(it->second);
    for (int p : from)
      users[size_t(p)].push_back(i);
    waiting[size_t(i)] = int(from.size());
  }
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (int i = 0; i < n; ++i)
    if (!waiting[size_t(i)])
      ready.push(i);
  std::vector<int> order;
  while (!ready.empty()) {
    int i = ready.top();
    ready.pop();
    order.push_back(i);
    for (int u : users[size_t(i)])
      if (--waiting[size_t(u)] == 0)
        ready.push(u);
  }
  if (int(order.size()) != n) {
    std::vector<const onnx::NodeProto *> stuck;
    for (int i = 0; i < n; ++i)
      if (waiting[size_t(i)])
        stuck.push_back(&g.node(i));
    if (cycle.empty())
      cycle = "node '" + nodeName(*stuck[0]) + "' (" + stuck[0]->op_type() +
              ") and " + std::to_string(stuck.size() - 1) +
              " more wait on a cycle";
    return;
  }
  bool sorted = true;
  for (int k = 0; sorted && k < n; ++k)
    sorted = order[size_t(k)] == k;
  if (sorted)
    return;
  google::protobuf::RepeatedPtrField<onnx::NodeProto> nodes;
  for (int i : order)
    *nodes.Add() = std::move(*g.mutable_node(i));
  g.mutable_node()->Swap(&nodes);
}

/// Gives the graph outputs declared without a type or a shape (valid ONNX,
/// which libonnx's checker nonetheless refuses) what shape inference finds
/// for them; false with `error` for one it cannot find.
bool typeGraphOutputs(onnx::ModelProto &model, const std::string &path,
                      std::string &error) {
  onnx::GraphProto &g = *model.mutable_graph();
  auto complete = [](const onnx::ValueInfoProto &v) {
    return v.has_type() && (!v.type().has_tensor_type() ||
                            (v.type().tensor_type().elem_type() &&
                             v.type().tensor_type().has_shape()));
  };
  if (std::all_of(g.output().begin(), g.output().end(), complete))
    return true;
  onnx::ModelProto inferred = inferLeniently(model, g);
  std::unordered_map<std::string, const onnx::TypeProto *> types;
  for (const auto *list :
       {&inferred.graph().value_info(), &inferred.graph().output(),
        &inferred.graph().input()})
    for (const auto &v : *list)
      if (v.has_type())
        types[v.name()] = &v.type();
  for (auto &v : *g.mutable_output()) {
    if (complete(v))
      continue;
    auto it = types.find(v.name());
    if (it == types.end() || !it->second->has_tensor_type() ||
        !it->second->tensor_type().elem_type() ||
        !it->second->tensor_type().has_shape()) {
      error = "'" + path + "': graph output '" + v.name() + "' is declared " +
              (v.has_type() ? "without a shape" : "without a type") +
              " and shape inference cannot find " +
              (v.has_type() ? "one" : "its type and shape");
      return false;
    }
    *v.mutable_type() = *it->second;
  }
  return true;
}

/// `t` (FLOAT) as DOUBLE, its values widened; false for external data.
static bool widenTensor(onnx::TensorProto &t) {
  if (t.data_type() != onnx::TensorProto::FLOAT)
    return true;
  if (t.data_location() == onnx::TensorProto::EXTERNAL)
    return false;
  std::vector<double> values(t.float_data().begin(), t.float_data().end());
  if (t.has_raw_data()) {
    const std::string &raw = t.raw_data();
    values.resize(raw.size() / sizeof(float));
    for (size_t i = 0; i < values.size(); ++i) {
      float f;
      std::memcpy(&f, raw.data() + i * sizeof(float), sizeof(float));
      values[i] = f;
    }
  }
  t.clear_float_data();
  t.set_data_type(onnx::TensorProto::DOUBLE);
  t.set_raw_data(std::string(reinterpret_cast<const char *>(values.data()),
                             values.size() * sizeof(double)));
  return true;
}

/// Adds the values `g` (and its graphs) feed to inputs that take float32
/// whatever the data's type: Resize's scales, Upsample's.
static void floatOnlyInputs(const onnx::GraphProto &g,
                            std::unordered_set<std::string> &names) {
  for (const auto &node : g.node()) {
    if (node.op_type() == "Resize" && node.input_size() > 2)
      names.insert(node.input(2));
    if (node.op_type() == "Upsample" && node.input_size() > 1)
      names.insert(node.input(1));
    for (const auto &a : node.attribute()) {
      if (a.has_g())
        floatOnlyInputs(a.g(), names);
      for (const auto &sub : a.graphs())
        floatOnlyInputs(sub, names);
    }
  }
}

bool toFloat64(onnx::GraphProto &graph, const std::string &path,
               std::string &error) {
  std::unordered_set<std::string> keep;
  floatOnlyInputs(graph, keep);
  auto widenType = [](onnx::TypeProto &type) {
    if (type.has_tensor_type() &&
        type.tensor_type().elem_type() == onnx::TensorProto::FLOAT)
      type.mutable_tensor_type()->set_elem_type(onnx::TensorProto::DOUBLE);
  };
  for (auto *list : {graph.mutable_input(), graph.mutable_output(),
                     graph.mutable_value_info()})
    for (auto &v : *list)
      if (v.has_type())
        widenType(*v.mutable_type());
  for (auto &t : *graph.mutable_initializer())
    if (!keep.count(t.name()) && !widenTensor(t)) {
      error = "'" + path + "': --float64 cannot widen initializer '" +
              t.name() + "', whose data is external";
      return false;
    }
  for (auto &node : *graph.mutable_node())
    for (auto &a : *node.mutable_attribute()) {
      // Cast's "to", and the "dtype" of the generators (EyeLike, Random*).
      if ((a.name() == "to" || a.name() == "dtype") &&
          a.type() == onnx::AttributeProto::INT &&
          a.i() == onnx::TensorProto::FLOAT)
        a.set_i(onnx::TensorProto::DOUBLE);
      if (a.has_t() && !(node.op_type() == "Constant" && node.output_size() &&
                         keep.count(node.output(0))))
        widenTensor(*a.mutable_t());
      if (a.has_g() && !toFloat64(*a.mutable_g(), path, error))
        return false;
      for (auto &g : *a.mutable_graphs())
        if (!toFloat64(g, path, error))
          return false;
    }
  return true;
}

} // namespace nnapi_mlir::onnx_frontend
