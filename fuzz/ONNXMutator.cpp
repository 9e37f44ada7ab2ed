//===- ONNXMutator.cpp - Structure-aware mutations of ONNX models ---------===//
//
// Compiled with exceptions and RTTI, like the importer's ONNXLoader.cpp:
// it uses libonnx's protobuf messages and protobuf reflection.
//
//===----------------------------------------------------------------------===//

#include "ONNXMutator.h"

#include "onnx/defs/schema.h"
#include "onnx/onnx_pb.h"

#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace nnapi_mlir::fuzz {
namespace {

using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::Reflection;

class Mutator {
public:
  Mutator(onnx::ModelProto &model, unsigned seed,
          size_t (*mutateBytes)(uint8_t *, size_t, size_t))
      : model(model), rng(seed), mutateBytes(mutateBytes) {
    collect(model);
  }

  void run() {
    switch (pick(10)) {
    case 0:
      return mutateDims();
    case 6:
      return changeRank();
    case 7:
      return becomeSchemaOp();
    case 1:
      return renameValue();
    case 2:
      return changeOpType();
    case 3:
      return dropOrDuplicate();
    case 4:
      return mutatePayload();
    case 5:
      return changeOpset();
    default:
      return mutateAnyScalar();
    }
  }

private:
  onnx::ModelProto &model;
  std::mt19937 rng;
  size_t (*mutateBytes)(uint8_t *, size_t, size_t);
  std::vector<Message *> messages; ///< Every message in the model.
  std::vector<std::string> names;  ///< Every value name in the graph.

  size_t pick(size_t n) { return n ? rng() % n : 0; }

  void collect(Message &m) {
    messages.push_back(&m);
    const Reflection *r = m.GetReflection();
    std::vector<const FieldDescriptor *> fields;
    r->ListFields(m, &fields);
    for (const FieldDescriptor *f : fields) {
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_STRING &&
          (f->name() == "input" || f->name() == "output" ||
           f->name() == "name")) {
        if (f->is_repeated())
          for (int i = 0; i < r->FieldSize(m, f); ++i)
            names.push_back(r->GetRepeatedString(m, f, i));
        else
          names.push_back(r->GetString(m, f));
      }
      if (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE)
        continue;
      if (f->is_repeated())
        for (int i = 0; i < r->FieldSize(m, f); ++i)
          collect(*r->MutableRepeatedMessage(&m, f, i));
      else
        collect(*r->MutableMessage(&m, f));
    }
  }

  template <typename T> std::vector<T *> all() {
    std::vector<T *> found;
    for (Message *m : messages)
      if (m->GetDescriptor() == T::descriptor())
        found.push_back(static_cast<T *>(m));
    return found;
  }

  int64_t interestingInt() {
    static const int64_t kValues[] = {0,
                                      1,
                                      -1,
                                      2,
                                      3,
                                      4,
                                      7,
                                      -2,
                                      16,
                                      64,
                                      255,
                                      256,
                                      1 << 20,
                                      int64_t(1) << 31,
                                      int64_t(1) << 33,
                                      std::numeric_limits<int64_t>::max(),
                                      std::numeric_limits<int64_t>::min(),
                                      std::numeric_limits<int32_t>::min()};
    return pick(4) ? kValues[pick(std::size(kValues))] : int64_t(rng());
  }
  double interestingFloat() {
    static const double kValues[] = {0.0,
                                     -0.0,
                                     1.0,
                                     -1.0,
                                     0.5,
                                     1e-45,
                                     1e30,
                                     std::numeric_limits<double>::infinity(),
                                     std::numeric_limits<double>::quiet_NaN()};
    return kValues[pick(std::size(kValues))];
  }

  void mutateDims() {
    auto dims = all<onnx::TensorShapeProto_Dimension>();
    auto tensors = all<onnx::TensorProto>();
    if (!dims.empty() && (tensors.empty() || pick(2))) {
      onnx::TensorShapeProto_Dimension *d = dims[pick(dims.size())];
      if (pick(3))
        d->set_dim_value(interestingInt());
      else
        d->set_dim_param("N");
      return;
    }
    if (tensors.empty())
      return;
    onnx::TensorProto *t = tensors[pick(tensors.size())];
    if (t->dims_size() && pick(2))
      t->set_dims(int(pick(t->dims_size())), interestingInt());
    else if (pick(2))
      t->add_dims(interestingInt());
    else if (t->dims_size())
      t->mutable_dims()->RemoveLast();
  }

  /// A graph input's or a value's declared rank becomes 0, 1, 2 or 4: the
  /// low and mixed ranks libonnx's inference functions do not check.
  void changeRank() {
    auto shapes = all<onnx::TensorShapeProto>();
    if (shapes.empty())
      return;
    onnx::TensorShapeProto *shape = shapes[pick(shapes.size())];
    static const int kRanks[] = {0, 1, 2, 4};
    int rank = kRanks[pick(std::size(kRanks))];
    shape->clear_dim();
    for (int i = 0; i < rank; ++i)
      shape->add_dim()->set_dim_value(int64_t(1 + pick(3)));
  }

  /// A node becomes another operator libonnx knows (any of its schemas),
  /// keeping its inputs and attributes.
  void becomeSchemaOp() {
    auto nodes = all<onnx::NodeProto>();
    if (nodes.empty())
      return;
    static const std::vector<std::string> ops = [] {
      std::vector<std::string> names;
      for (const onnx::OpSchema &schema :
           onnx::OpSchemaRegistry::get_all_schemas())
        if (schema.domain().empty())
          names.push_back(schema.Name());
      return names;
    }();
    if (ops.empty())
      return;
    onnx::NodeProto *n = nodes[pick(nodes.size())];
    n->set_op_type(ops[pick(ops.size())]);
    n->set_domain("");
  }

  void renameValue() {
    auto nodes = all<onnx::NodeProto>();
    if (nodes.empty() || names.empty())
      return;
    onnx::NodeProto *n = nodes[pick(nodes.size())];
    const std::string &name = pick(8) ? names[pick(names.size())] : "";
    if (n->input_size() && pick(2))
      n->set_input(int(pick(n->input_size())), name);
    else if (n->output_size() && pick(2))
      n->set_output(int(pick(n->output_size())), name);
    else
      n->add_input(name);
  }

  void changeOpType() {
    auto nodes = all<onnx::NodeProto>();
    if (nodes.size() < 1)
      return;
    onnx::NodeProto *n = nodes[pick(nodes.size())];
    if (pick(4) == 0) {
      n->set_domain(pick(2) ? "com.microsoft" : "");
      return;
    }
    // Another node's type, with this node's inputs and attributes.
    n->set_op_type(nodes[pick(nodes.size())]->op_type());
  }

  void dropOrDuplicate() {
    onnx::GraphProto *g = model.mutable_graph();
    switch (pick(6)) {
    case 0:
      if (g->node_size())
        g->mutable_node()->DeleteSubrange(int(pick(g->node_size())), 1);
      break;
    case 1:
      if (g->node_size())
        *g->add_node() = g->node(int(pick(g->node_size())));
      break;
    case 2:
      if (g->initializer_size())
        g->mutable_initializer()->DeleteSubrange(
            int(pick(g->initializer_size())), 1);
      break;
    case 3:
      if (g->input_size())
        g->mutable_input()->DeleteSubrange(int(pick(g->input_size())), 1);
      break;
    case 4:
      if (g->output_size())
        g->mutable_output()->DeleteSubrange(int(pick(g->output_size())), 1);
      break;
    default: {
      auto attrs = all<onnx::AttributeProto>();
      auto nodes = all<onnx::NodeProto>();
      if (!attrs.empty() && !nodes.empty())
        *nodes[pick(nodes.size())]->add_attribute() =
            *attrs[pick(attrs.size())];
    }
    }
  }

  void mutatePayload() {
    auto tensors = all<onnx::TensorProto>();
    if (tensors.empty())
      return;
    onnx::TensorProto *t = tensors[pick(tensors.size())];
    switch (pick(4)) {
    case 0:
      t->set_data_type(int32_t(pick(17)));
      return;
    case 1: {
      std::string raw = t->raw_data();
      size_t size = raw.size();
      raw.resize(size * 2 + 16);
      size = mutateBytes(reinterpret_cast<uint8_t *>(raw.data()), size,
                         raw.size());
      raw.resize(size);
      t->set_raw_data(raw);
      return;
    }
    case 2:
      t->add_float_data(float(interestingFloat()));
      return;
    default:
      t->add_int64_data(interestingInt());
    }
  }

  void changeOpset() {
    if (!model.opset_import_size())
      model.add_opset_import()->set_version(interestingInt());
    else
      model.mutable_opset_import(int(pick(model.opset_import_size())))
          ->set_version(pick(2) ? int64_t(1 + pick(20)) : interestingInt());
  }

  /// Any scalar field of any message: numbers to boundary values, strings to
  /// another value name or mutated bytes.
  void mutateAnyScalar() {
    Message *m = messages[pick(messages.size())];
    const google::protobuf::Descriptor *d = m->GetDescriptor();
    if (!d->field_count())
      return;
    const FieldDescriptor *f = d->field(int(pick(d->field_count())));
    const Reflection *r = m->GetReflection();
    if (f->is_repeated()) {
      if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE)
        return;
      int n = r->FieldSize(*m, f);
      if (n && pick(2)) {
        r->SwapElements(m, f, int(pick(n)), n - 1);
        r->RemoveLast(m, f);
        return;
      }
      switch (f->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT32:
        return r->AddInt32(m, f, int32_t(interestingInt()));
      case FieldDescriptor::CPPTYPE_INT64:
        return r->AddInt64(m, f, interestingInt());
      case FieldDescriptor::CPPTYPE_UINT64:
        return r->AddUInt64(m, f, uint64_t(interestingInt()));
      case FieldDescriptor::CPPTYPE_FLOAT:
        return r->AddFloat(m, f, float(interestingFloat()));
      case FieldDescriptor::CPPTYPE_DOUBLE:
        return r->AddDouble(m, f, interestingFloat());
      case FieldDescriptor::CPPTYPE_STRING:
        return r->AddString(m, f,
                            names.empty() ? "" : names[pick(names.size())]);
      default:
        return;
      }
    }
    switch (f->cpp_type()) {
    case FieldDescriptor::CPPTYPE_INT32:
      return r->SetInt32(m, f, int32_t(interestingInt()));
    case FieldDescriptor::CPPTYPE_INT64:
      return r->SetInt64(m, f, interestingInt());
    case FieldDescriptor::CPPTYPE_UINT64:
      return r->SetUInt64(m, f, uint64_t(interestingInt()));
    case FieldDescriptor::CPPTYPE_FLOAT:
      return r->SetFloat(m, f, float(interestingFloat()));
    case FieldDescriptor::CPPTYPE_DOUBLE:
      return r->SetDouble(m, f, interestingFloat());
    case FieldDescriptor::CPPTYPE_BOOL:
      return r->SetBool(m, f, !r->GetBool(*m, f));
    case FieldDescriptor::CPPTYPE_ENUM: {
      const google::protobuf::EnumDescriptor *e = f->enum_type();
      return r->SetEnum(m, f, e->value(int(pick(e->value_count()))));
    }
    case FieldDescriptor::CPPTYPE_STRING:
      if (!names.empty() && pick(2))
        return r->SetString(m, f, names[pick(names.size())]);
      return r->SetString(m, f, r->GetString(*m, f) + "_");
    case FieldDescriptor::CPPTYPE_MESSAGE:
      if (pick(4) == 0)
        r->ClearField(m, f);
      return;
    default:
      return;
    }
  }
};

} // namespace

size_t mutateONNXModel(uint8_t *data, size_t size, size_t maxSize,
                       unsigned seed,
                       size_t (*mutateBytes)(uint8_t *, size_t, size_t)) {
  try {
    onnx::ModelProto model;
    if (!model.ParseFromArray(data, int(size)) || !model.has_graph())
      return 0;
    Mutator(model, seed, mutateBytes).run();
    std::string out;
    if (!model.SerializeToString(&out) || out.size() > maxSize)
      return 0;
    std::memcpy(data, out.data(), out.size());
    return out.size();
  } catch (...) {
    return 0;
  }
}

} // namespace nnapi_mlir::fuzz
