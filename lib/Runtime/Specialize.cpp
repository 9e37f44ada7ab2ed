//===- Specialize.cpp - A dynamic partition at the shapes of one call -----===//
//
// A partition compiled with dynamic dimensions has operands whose blob dims
// are 0 (NNAPI's "unspecified"). At a call, the runtime copies the model,
// sets the inputs' dims to the call's, and fills every other unspecified
// dimension operation by operation with the spec library's output-shape
// rules (nnapi-mlir/NNAPI/Shapes.h): the same rules the host device checks
// models against. A dimension the blob does specify must agree with the
// rule's. A partition keeps its kMaxShapesPerBlob most recently used
// specializations (evictShapes), counted for nnapi_rt_get_shape_stats.
//
//===----------------------------------------------------------------------===//

#include "State.h"

#include "nnapi-mlir/NNAPI/Layouts.h"
#include "nnapi-mlir/NNAPI/Operations.h"
#include "nnapi-mlir/NNAPI/Shapes.h"

#include <string>

namespace nnapi_mlir::runtime {

namespace {

bool isTensor(const blob::Operand &o) { return blob::isTensorType(o.type); }

bool unspecified(const blob::Operand &o) {
  if (!isTensor(o))
    return false;
  for (uint32_t d : o.dims)
    if (d == 0)
      return true;
  return false;
}

/// `declared` (0 where unspecified) agrees with `computed`.
bool agrees(const std::vector<uint32_t> &declared,
            const std::vector<uint32_t> &computed) {
  if (declared.size() != computed.size())
    return false;
  for (size_t d = 0; d < declared.size(); ++d)
    if (declared[d] != 0 && declared[d] != computed[d])
      return false;
  return true;
}

} // namespace

bool isDynamicBlob(const blob::Model &model) {
  for (const blob::Operand &o : model.operands)
    if (unspecified(o))
      return true;
  return false;
}

bool specializeBlob(const blob::Model &generic, const int64_t *dims,
                    size_t numDims, blob::Model &out, std::string &error) {
  size_t expected = 0;
  for (uint32_t idx : generic.inputs)
    expected += generic.operands[idx].dims.size();
  if (numDims != expected) {
    error = "the partition's inputs have " + std::to_string(expected) +
            " dimensions, the call gave " + std::to_string(numDims);
    return false;
  }
  out = generic;
  size_t next = 0;
  for (size_t i = 0; i < out.inputs.size(); ++i) {
    blob::Operand &o = out.operands[out.inputs[i]];
    for (size_t d = 0; d < o.dims.size(); ++d, ++next) {
      int64_t size = dims[next];
      if (size < 1 || size > INT32_MAX || (o.dims[d] && o.dims[d] != size)) {
        error = "input " + std::to_string(i) + " dimension " +
                std::to_string(d) + " is " + std::to_string(size) +
                (o.dims[d] ? ", the partition's is " + std::to_string(o.dims[d])
                           : std::string(", not in 1..2^31-1"));
        return false;
      }
      o.dims[d] = uint32_t(size);
    }
  }
  for (size_t k = 0; k < out.operations.size(); ++k) {
    const blob::Operation &op = out.operations[k];
    bool needed = false;
    for (uint32_t idx : op.outputs)
      needed = needed || unspecified(out.operands[idx]);
    if (!needed)
      continue;
    std::string where = "operation " + std::to_string(k) + " (" +
                        operationName(op.opcode) + ")";
    if (!spec::hasShapeRule(op.opcode)) {
      error = where + " has no output-shape rule for its dynamic output";
      return false;
    }
    std::vector<spec::OperandDesc> ins, outs;
    std::vector<spec::ShapeOperand> operands;
    for (uint32_t idx : op.inputs) {
      const blob::Operand &o = out.operands[idx];
      if (unspecified(o)) {
        error = where + " reads operand " + std::to_string(idx) +
                ", whose shape is unknown";
        return false;
      }
      bool constant = o.lifetime == blob::Lifetime::Constant;
      spec::OperandDesc desc;
      desc.type = o.type;
      desc.rank = uint32_t(o.dims.size());
      desc.constant = constant;
      desc.omitted = o.lifetime == blob::Lifetime::NoValue;
      ins.push_back(desc);
      operands.push_back(
          {o.type, &o.dims,
           constant && o.valueOffset + o.valueLength <= out.data.size()
               ? out.data.data() + o.valueOffset
               : nullptr});
    }
    for (uint32_t idx : op.outputs) {
      spec::OperandDesc desc;
      desc.type = out.operands[idx].type;
      desc.rank = uint32_t(out.operands[idx].dims.size());
      outs.push_back(desc);
    }
    spec::Match layout;
    std::vector<spec::ShapeResult> results;
    if (!spec::match(op.opcode, ins, outs, layout, error) ||
        !spec::inferShapes(op.opcode, layout, operands, results, error)) {
      error = where + ": " + error;
      return false;
    }
    for (size_t i = 0; i < op.outputs.size() && i < results.size(); ++i) {
      blob::Operand &o = out.operands[op.outputs[i]];
      if (!agrees(o.dims, results[i].dims)) {
        error = where + " computes output " + std::to_string(i) + " as " +
                spec::dimsStr(results[i].dims) + ", the partition declares " +
                spec::dimsStr(o.dims);
        return false;
      }
      o.dims = results[i].dims;
    }
  }
  for (size_t i = 0; i < out.outputs.size(); ++i)
    if (unspecified(out.operands[out.outputs[i]])) {
      error = "output " + std::to_string(i) + "'s shape is not computed";
      return false;
    }
  return true;
}

/// "1x37x16,4": a specialization's input dims, by input.
std::string shapeText(const blob::Model &m) {
  std::string text;
  for (size_t i = 0; i < m.inputs.size(); ++i) {
    text += i ? "," : "";
    const std::vector<uint32_t> &dims = m.operands[m.inputs[i]].dims;
    for (size_t d = 0; d < dims.size(); ++d)
      text += (d ? "x" : "") + std::to_string(dims[d]);
  }
  return text;
}

/// Keeps at most kMaxShapesPerBlob specializations of the blob at `blob`
/// (`adding` one more): drops the least recently used.
void evictShapes(State &s, const uint8_t *blob, size_t adding) {
  auto first = s.partitions.lower_bound({blob, {}});
  auto count = [&] {
    size_t n = 0;
    for (auto it = first; it != s.partitions.end() && it->first.first == blob;
         ++it)
      n += !it->first.second.empty();
    return n;
  };
  while (count() + adding > kMaxShapesPerBlob) {
    auto oldest = s.partitions.end();
    for (auto it = first; it != s.partitions.end() && it->first.first == blob;
         ++it)
      if (!it->first.second.empty() &&
          (oldest == s.partitions.end() ||
           it->second->lastUse < oldest->second->lastUse))
        oldest = it;
    bool wasFirst = oldest == first;
    auto next = s.partitions.erase(oldest);
    if (wasFirst)
      first = next;
    ++s.shapesEvicted;
  }
}

} // namespace nnapi_mlir::runtime

using namespace nnapi_mlir::runtime;

extern "C" {

void nnapi_rt_get_shape_stats(uint64_t *specializations, uint64_t *hits,
                              uint64_t *evictions) {
  State &s = state();
  if (specializations)
    *specializations = s.shapesBuilt;
  if (hits)
    *hits = s.shapeHits;
  if (evictions)
    *evictions = s.shapesEvicted;
}

} // extern "C"
