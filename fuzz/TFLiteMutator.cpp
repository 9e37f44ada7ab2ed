//===- TFLiteMutator.cpp - Structure-aware mutations of TFLite models -----===//

#include "TFLiteMutator.h"

#include "schema_generated.h"

#include <random>
#include <vector>

using namespace nnapi_mlir::fuzz;

namespace {

/// Values a dimension, an index or a count goes wrong with.
int64_t awkward(std::mt19937 &rng, int64_t current) {
  static const int64_t values[] = {-2,     -1,        0,         1,
                                   2,      3,         7,         64,
                                   1 << 16, INT32_MAX, INT32_MIN, 1000000};
  switch (rng() % 3) {
  case 0:
    return current + 1;
  case 1:
    return current - 1;
  default:
    return values[rng() % (sizeof(values) / sizeof(values[0]))];
  }
}

template <typename T> T pick(std::mt19937 &rng, const std::vector<T> &v) {
  return v[rng() % v.size()];
}

/// One byte of table `t`'s inline fields (scalars of an options table, or
/// the offsets to its vectors), flipped.
bool flipTableByte(std::mt19937 &rng, flatbuffers::Table *t) {
  const uint8_t *vtable = t->GetVTable();
  auto vtableBytes = flatbuffers::ReadScalar<flatbuffers::voffset_t>(vtable);
  auto tableBytes = flatbuffers::ReadScalar<flatbuffers::voffset_t>(
      vtable + sizeof(flatbuffers::voffset_t));
  size_t fields = vtableBytes / sizeof(flatbuffers::voffset_t);
  if (fields <= 2 || tableBytes <= 4)
    return false;
  size_t field = 2 + rng() % (fields - 2);
  auto offset = flatbuffers::ReadScalar<flatbuffers::voffset_t>(
      vtable + field * sizeof(flatbuffers::voffset_t));
  if (offset == 0 || offset >= tableBytes)
    return false;
  uint8_t *p = reinterpret_cast<uint8_t *>(t) + offset;
  *p ^= uint8_t(1u << (rng() % 8));
  return true;
}

} // namespace

size_t nnapi_mlir::fuzz::mutateTFLiteModel(uint8_t *data, size_t size,
                                          unsigned seed) {
  if (size < 8 || reinterpret_cast<uintptr_t>(data) % 8 != 0)
    return 0;
  flatbuffers::Verifier verifier(data, size);
  if (!tflite::VerifyModelBuffer(verifier))
    return 0;
  tflite::Model *model = tflite::GetMutableModel(data);
  std::mt19937 rng(seed);

  std::vector<tflite::Tensor *> tensors;
  std::vector<tflite::Operator *> operators;
  std::vector<tflite::SubGraph *> subgraphs;
  if (auto *graphs = model->mutable_subgraphs())
    for (size_t g = 0; g < graphs->size(); ++g) {
      tflite::SubGraph *graph = graphs->GetMutableObject(g);
      subgraphs.push_back(graph);
      if (auto *ts = graph->mutable_tensors())
        for (size_t i = 0; i < ts->size(); ++i)
          tensors.push_back(ts->GetMutableObject(i));
      if (auto *os = graph->mutable_operators())
        for (size_t i = 0; i < os->size(); ++i)
          operators.push_back(os->GetMutableObject(i));
    }

  auto mutateInts = [&](flatbuffers::Vector<int32_t> *v) {
    if (!v || v->size() == 0)
      return false;
    size_t i = rng() % v->size();
    v->Mutate(i, int32_t(awkward(rng, v->Get(i))));
    return true;
  };

  bool done = false;
  switch (rng() % 12) {
  case 0: // a dimension
    if (!tensors.empty())
      done = mutateInts(pick(rng, tensors)->mutable_shape());
    break;
  case 1: // a shape signature entry
    if (!tensors.empty())
      done = mutateInts(pick(rng, tensors)->mutable_shape_signature());
    break;
  case 2: // an element type
    if (!tensors.empty())
      done = pick(rng, tensors)->mutate_type(
          tflite::TensorType(rng() % (tflite::TensorType_MAX + 2)));
    break;
  case 3: // which buffer holds a tensor's data
    if (!tensors.empty()) {
      tflite::Tensor *t = pick(rng, tensors);
      done = t->mutate_buffer(uint32_t(awkward(rng, t->buffer())));
    }
    break;
  case 4: // an operator's input or output tensor
    if (!operators.empty()) {
      tflite::Operator *op = pick(rng, operators);
      done = mutateInts(rng() % 2 ? op->mutable_inputs()
                                  : op->mutable_outputs());
    }
    break;
  case 5: // an operator's code
    if (!operators.empty()) {
      tflite::Operator *op = pick(rng, operators);
      done = op->mutate_opcode_index(uint32_t(awkward(rng, op->opcode_index())));
    }
    break;
  case 6: // an operator code's builtin code or version
    if (auto *codes = model->mutable_operator_codes(); codes && codes->size()) {
      tflite::OperatorCode *c = codes->GetMutableObject(rng() % codes->size());
      if (rng() % 2)
        done = c->mutate_builtin_code(
            tflite::BuiltinOperator(rng() % (tflite::BuiltinOperator_MAX + 2)));
      else
        done = c->mutate_version(int32_t(awkward(rng, c->version())));
    }
    break;
  case 7: // a scale, zero point or quantized dimension
    if (!tensors.empty())
      if (tflite::QuantizationParameters *q =
              pick(rng, tensors)->mutable_quantization()) {
        static const float scales[] = {0.0f, -1.0f, 1e-30f, 1e30f,
                                       INFINITY, NAN, 0.5f};
        if (auto *s = q->mutable_scale(); s && s->size() && rng() % 3 == 0)
          s->Mutate(rng() % s->size(), scales[rng() % 7]);
        else if (auto *z = q->mutable_zero_point(); z && z->size() &&
                                                  rng() % 2 == 0)
          z->Mutate(rng() % z->size(), awkward(rng, 0) * 97);
        else
          q->mutate_quantized_dimension(
              int32_t(awkward(rng, q->quantized_dimension())));
        done = true;
      }
    break;
  case 8: // a byte of constant data
    if (auto *buffers = model->mutable_buffers(); buffers && buffers->size()) {
      tflite::Buffer *b = buffers->GetMutableObject(rng() % buffers->size());
      if (auto *d = b->mutable_data(); d && d->size()) {
        size_t i = rng() % d->size();
        d->Mutate(i, uint8_t(d->Get(i) ^ (1u << (rng() % 8))));
        done = true;
      }
    }
    break;
  case 9: // a byte of an operator's options
    if (!operators.empty())
      if (auto *options = const_cast<void *>(
              pick(rng, operators)->builtin_options()))
        done = flipTableByte(rng, static_cast<flatbuffers::Table *>(options));
    break;
  case 10: // a subgraph's inputs or outputs
    if (!subgraphs.empty()) {
      tflite::SubGraph *g = pick(rng, subgraphs);
      done = mutateInts(rng() % 2 ? g->mutable_inputs() : g->mutable_outputs());
    }
    break;
  default: // the subgraph a signature runs, or a signature's tensor
    if (auto *sigs = model->mutable_signature_defs(); sigs && sigs->size()) {
      tflite::SignatureDef *s = sigs->GetMutableObject(rng() % sigs->size());
      if (rng() % 2) {
        done = s->mutate_subgraph_index(
            uint32_t(awkward(rng, s->subgraph_index())));
      } else if (auto *maps = s->mutable_inputs(); maps && maps->size()) {
        tflite::TensorMap *m = maps->GetMutableObject(rng() % maps->size());
        done = m->mutate_tensor_index(uint32_t(awkward(rng, m->tensor_index())));
      }
    }
    break;
  }
  return done ? size : 0;
}
