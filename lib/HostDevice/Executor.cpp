//===- Executor.cpp - Buffer plan and step execution of the host device ---===//

#include "Executor.h"

#include "nnapi-mlir/HostDevice/BlockedKernels.h"
#include "OpKinds.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace nnapi_mlir::host {

using nnapi_mlir::BufferRequest;
using nnapi_mlir::planBuffers;

namespace {

/// True if XNNPACK may read `bytes` at `p` plus its kKernelSlackBytes of slack:
/// the slack must not reach into the next page (which may be unmapped), and
/// floats must be aligned.
bool kernelsMayRead(const void *p, size_t bytes) {
  static const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
  uintptr_t begin = reinterpret_cast<uintptr_t>(p);
  if (begin % alignof(float))
    return false;
  uintptr_t last = begin + bytes - 1;
  return last / page == (last + kKernelSlackBytes) / page;
}

Storage storageOf(int32_t type) {
  switch (type) {
  case ANEURALNETWORKS_TENSOR_FLOAT16: return Storage::Half;
  case ANEURALNETWORKS_TENSOR_INT32: return Storage::Int32;
  case ANEURALNETWORKS_TENSOR_BOOL8: return Storage::Bool;
  default: return Storage::Float;
  }
}

/// The operands and shapes one reference step needs, copied out of the model
/// so that the compilation does not depend on the model object.
class ReferenceStep : public Step {
public:
  ReferenceStep(const HostModel &m, const Operation &op, const OpParams &p,
                const spec::Match &layout)
      : opcode(op.opcode), params(p), layout(layout), inputs(op.inputs),
        outputs(op.outputs), output(op.outputs[0]),
        outShape(m.operands[output].dims),
        from(storageOf(m.operands[inputs[0]].type)),
        to(storageOf(m.operands[output].type)) {
    for (uint32_t idx : inputs)
      shapes.push_back(m.operands[idx].dims);
  }

  const char *backend() const override { return "reference"; }

  int run(const Bindings &b) override {
    float *out = b[output];
    // Operand 0 is every layout's main tensor (input, input0, condition).
    const float *in0 = b[inputs[0]];
    size_t count = numElements(outShape);
    const Window &w = params.window;
    if (std::optional<UnaryKind> kind = unaryKindOf(opcode)) {
      unary(*kind, in0, out, count);
      return ANEURALNETWORKS_NO_ERROR;
    }
    if (std::optional<BinaryKind> kind = binaryKindOf(opcode)) {
      // MAXIMUM, MINIMUM and POW have no fused activation: fuseCode is NONE.
      RoleName second =
          opcode == ANEURALNETWORKS_PRELU ? role::alpha : role::input1;
      binary(*kind, in0, shapes[0], arg(b, second), shape(second), out,
             outShape, params.fuseCode);
      return ANEURALNETWORKS_NO_ERROR;
    }
    // TENSOR_BOOL8 operands hold a byte per element in the same buffers.
    auto bytes = [&](RoleName role) {
      return reinterpret_cast<const uint8_t *>(arg(b, role));
    };
    uint8_t *outBytes = reinterpret_cast<uint8_t *>(out);
    if (std::optional<CompareKind> kind = compareKindOf(opcode)) {
      compare(*kind, in0, shapes[0], arg(b, role::input1), shape(role::input1),
              outBytes, outShape);
      return ANEURALNETWORKS_NO_ERROR;
    }
    if (std::optional<ReduceKind> kind = reduceKindOf(opcode)) {
      reduce(*kind, in0, shapes[0], params.reduced, out);
      return ANEURALNETWORKS_NO_ERROR;
    }
    switch (opcode) {
    case ANEURALNETWORKS_CONV_2D:
    case ANEURALNETWORKS_GROUPED_CONV_2D:
      conv2d(in0, shapes[0], arg(b, role::filter), shape(role::filter),
             arg(b, role::bias), out, outShape, w, params.groups);
      break;
    case ANEURALNETWORKS_DEPTHWISE_CONV_2D:
      depthwiseConv2d(in0, shapes[0], arg(b, role::filter), shape(role::filter),
                      arg(b, role::bias), out, outShape, w,
                      params.depthMultiplier);
      break;
    case ANEURALNETWORKS_LOGICAL_AND: case ANEURALNETWORKS_LOGICAL_OR:
      logical(opcode == ANEURALNETWORKS_LOGICAL_OR, bytes(role::input0),
              shape(role::input0), bytes(role::input1), shape(role::input1),
              outBytes, outShape);
      break;
    case ANEURALNETWORKS_ARGMAX: case ANEURALNETWORKS_ARGMIN:
      // TENSOR_INT32 results take a float's slot.
      argExtreme(opcode == ANEURALNETWORKS_ARGMAX, in0, shapes[0], params.axis,
                 reinterpret_cast<int32_t *>(out));
      break;
    case ANEURALNETWORKS_REDUCE_ANY: case ANEURALNETWORKS_REDUCE_ALL:
      reduceBool(opcode == ANEURALNETWORKS_REDUCE_ANY, bytes(role::input),
                 shape(role::input), params.reduced, outBytes);
      break;
    case ANEURALNETWORKS_LOGICAL_NOT:
      logicalNot(bytes(role::input), outBytes, count);
      break;
    case ANEURALNETWORKS_CAST:
      cast(in0, from, out, to, count);
      break;
    case ANEURALNETWORKS_SELECT:
      select(bytes(role::condition), arg(b, role::true_values),
             arg(b, role::false_values), out, count);
      break;
    case ANEURALNETWORKS_TRANSPOSE_CONV_2D:
      transposeConv2d(in0, shapes[0], arg(b, role::filter), shape(role::filter),
                      arg(b, role::bias), out, outShape, w);
      break;
    case ANEURALNETWORKS_RESIZE_BILINEAR:
      resizeBilinear(in0, shapes[0], out, outShape, params.resize);
      break;
    case ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR:
      resizeNearest(in0, shapes[0], out, outShape, params.resize);
      break;
    case ANEURALNETWORKS_FULLY_CONNECTED:
      fullyConnected(in0, arg(b, role::weights), shape(role::weights),
                     arg(b, role::bias), out, params.batch, params.fuseCode);
      break;
    case ANEURALNETWORKS_MAX_POOL_2D:
      maxPool2d(in0, shapes[0], out, outShape, w, params.filterW,
                params.filterH);
      break;
    case ANEURALNETWORKS_AVERAGE_POOL_2D:
      averagePool2d(in0, shapes[0], out, outShape, w, params.filterW,
                    params.filterH);
      break;
    case ANEURALNETWORKS_RESHAPE:
      if (out != in0)
        std::memcpy(out, in0, count * sizeof(float));
      break;
    case ANEURALNETWORKS_SOFTMAX:
    case ANEURALNETWORKS_LOG_SOFTMAX:
      softmax(in0, shapes[0], params.beta, params.axis, out,
              opcode == ANEURALNETWORKS_LOG_SOFTMAX);
      break;
    case ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION:
      localResponseNormalization(in0, shapes[0], params.lrn, out);
      break;
    case ANEURALNETWORKS_L2_NORMALIZATION:
      l2Normalization(in0, shapes[0], params.axis, out);
      break;
    case ANEURALNETWORKS_INSTANCE_NORMALIZATION:
      instanceNormalization(in0, shapes[0], params.norm, out);
      break;
    case ANEURALNETWORKS_ELU:
      elu(in0, out, count, params.alpha);
      break;
    case ANEURALNETWORKS_CONCATENATION: {
      size_t first = size_t(layout.input(role::input));
      size_t n = layout.inputCount(role::input);
      std::vector<const float *> ins;
      for (size_t k = first; k < first + n; ++k)
        ins.push_back(b[inputs[k]]);
      concatenation(ins, {shapes.begin() + first, shapes.begin() + first + n},
                    params.axis, out);
      break;
    }
    case ANEURALNETWORKS_TRANSPOSE:
      transpose(in0, shapes[0], params.indices, out);
      break;
    case ANEURALNETWORKS_PAD: case ANEURALNETWORKS_PAD_V2:
    case ANEURALNETWORKS_MIRROR_PAD:
      pad(in0, shapes[0], params.indices, params.padValue, out, outShape,
          params.padMode);
      break;
    case ANEURALNETWORKS_DEPTH_TO_SPACE:
    case ANEURALNETWORKS_SPACE_TO_DEPTH:
      depthSpace(in0, shapes[0], params.blockSize, params.nchw,
                 opcode == ANEURALNETWORKS_DEPTH_TO_SPACE, out);
      break;
    case ANEURALNETWORKS_CHANNEL_SHUFFLE:
      channelShuffle(in0, shapes[0], params.groups, params.axis, out);
      break;
    case ANEURALNETWORKS_REVERSE:
      reverse(in0, shapes[0], params.axis, out);
      break;
    case ANEURALNETWORKS_GATHER: {
      // TENSOR_INT32 indices take a float's slot.
      const auto *indices =
          reinterpret_cast<const int32_t *>(arg(b, role::indices));
      size_t n = numElements(shape(role::indices));
      size_t bad = gather(in0, shapes[0], params.axis, indices, n, out);
      if (bad != n)
        return fail(ANEURALNETWORKS_OP_FAILED,
                    "GATHER index " + std::to_string(indices[bad]) +
                        " is outside dimension " + std::to_string(params.axis) +
                        " of size " + std::to_string(shapes[0][params.axis]));
      break;
    }
    case ANEURALNETWORKS_SLICE:
      slice(in0, shapes[0], params.indices, out, outShape);
      break;
    case ANEURALNETWORKS_STRIDED_SLICE:
      stridedSlice(in0, shapes[0], params.indices, params.strides, out,
                   params.sliceShape);
      break;
    case ANEURALNETWORKS_SPLIT: {
      // Equal pieces along the axis, each a slice of the input.
      std::vector<int32_t> begin(shapes[0].size(), 0);
      for (uint32_t piece : outputs) {
        slice(in0, shapes[0], begin, b[piece], outShape);
        begin[params.axis] += int32_t(outShape[params.axis]);
      }
      break;
    }
    case ANEURALNETWORKS_TILE:
      tile(in0, shapes[0], out, outShape);
      break;
    case ANEURALNETWORKS_BATCH_MATMUL:
      batchMatmul(in0, shapes[0], params.adjA, arg(b, role::input1),
                  shape(role::input1), params.adjB, out);
      break;
    case ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_RNN:
      sequenceRnn(params.rnn, in0, arg(b, role::weights),
                  arg(b, role::recurrent_weights), arg(b, role::bias),
                  arg(b, role::hidden_state), out);
      break;
    default:
      return fail(ANEURALNETWORKS_OP_FAILED,
                  "no reference kernel for opcode " + std::to_string(opcode));
    }
    return ANEURALNETWORKS_NO_ERROR;
  }

private:
  /// Input role `role`'s buffer and shape (the layout's named access).
  float *arg(const Bindings &b, RoleName role) const {
    return b[inputs[size_t(layout.input(role))]];
  }
  const Shape &shape(RoleName role) const {
    return shapes[size_t(layout.input(role))];
  }

  int32_t opcode;
  OpParams params;
  spec::Match layout; ///< Where each role of the operation's layout is.
  std::vector<uint32_t> inputs, outputs;
  uint32_t output; ///< outputs[0], the only one but SPLIT's.
  std::vector<Shape> shapes;
  Shape outShape;
  Storage from, to; ///< CAST's element storage.
};

/// An operation XNNPACK has no operator for, on a blocked kernel
/// (BlockedKernels.h).
class BlockedStep : public Step {
public:
  BlockedStep(const HostModel &m, const Operation &op, const OpParams &p,
              const spec::Match &layout)
      : opcode(op.opcode), params(p), layout(layout), inputs(op.inputs),
        output(op.outputs[0]) {
    for (uint32_t idx : inputs)
      shapes.push_back(m.operands[idx].dims);
    if (opcode == ANEURALNETWORKS_BATCH_MATMUL)
      scratch.resize(blocked::batchMatmulScratch(shape(role::input0), p.adjA,
                                                 shape(role::input1), p.adjB));
  }

  const char *backend() const override { return "blocked"; }

  int run(const Bindings &b) override {
    const float *in0 = b[inputs[0]];
    switch (opcode) {
    case ANEURALNETWORKS_TRANSPOSE:
      blocked::transpose(in0, shapes[0], params.indices, b[output]);
      break;
    case ANEURALNETWORKS_BATCH_MATMUL:
      blocked::batchMatmul(in0, shapes[0], params.adjA,
                           b[inputs[size_t(layout.input(role::input1))]],
                           shape(role::input1), params.adjB, b[output],
                           scratch.data());
      break;
    default:
      blocked::reduce(*reduceKindOf(opcode), in0, shapes[0], params.reduced,
                      b[output]);
      break;
    }
    return ANEURALNETWORKS_NO_ERROR;
  }

private:
  const Shape &shape(RoleName role) const {
    return shapes[size_t(layout.input(role))];
  }

  int32_t opcode;
  OpParams params;
  spec::Match layout;
  std::vector<uint32_t> inputs;
  uint32_t output;
  std::vector<Shape> shapes;
  std::vector<float> scratch; ///< BATCH_MATMUL's transposed operands.
};

/// UNIDIRECTIONAL_SEQUENCE_LSTM on the reference kernel, or on the blocked
/// one with its weights packed once when they are constants (at every run
/// otherwise).
class SequenceLstmStep : public Step {
public:
  SequenceLstmStep(const HostModel &m, const Operation &op, const OpParams &p,
                   const spec::Match &layout, bool blocked)
      : params(p.lstm), layout(layout), inputs(op.inputs),
        outputs(op.outputs), blocked(blocked) {
    for (RoleName role : kWeightRoles) {
      Kind k = m.operands[inputs[size_t(layout.input(role))]].kind;
      constantWeights = constantWeights &&
                        (k == Kind::Constant || k == Kind::Omitted);
    }
    if (blocked) {
      packed.resize(blocked::sequenceLstmPackedSize(params));
      scratch.resize(blocked::sequenceLstmScratch(params));
    }
  }

  const char *backend() const override {
    return blocked ? "blocked" : "reference";
  }

  int run(const Bindings &b) override {
    auto arg = [&](RoleName role) -> const float * {
      return b[inputs[size_t(layout.input(role))]];
    };
    SequenceLstmWeights w;
    for (size_t g = 0; g < 4; ++g) {
      w.input[g] = arg(kWeightRoles[g]);
      w.recurrent[g] = arg(kWeightRoles[4 + g]);
      w.bias[g] = arg(kWeightRoles[8 + g]);
    }
    w.peephole[0] = arg(role::cell_to_input_weights);
    w.peephole[1] = arg(role::cell_to_forget_weights);
    w.peephole[2] = arg(role::cell_to_output_weights);
    w.projection = arg(kWeightRoles[12]);
    w.projectionBias = arg(kWeightRoles[13]);
    auto output = [&](RoleName role) -> float * {
      int at = layout.output(role);
      return at < 0 ? nullptr : b[outputs[size_t(at)]];
    };
    float *hOut = output(role::output_state_out);
    float *cOut = output(role::cell_state_out);
    if (!blocked) {
      sequenceLstm(params, w, arg(role::input), arg(role::output_state_in),
                   arg(role::cell_state_in), output(role::output), hOut, cOut);
      return ANEURALNETWORKS_NO_ERROR;
    }
    if (!packedOnce) {
      blocked::packSequenceLstm(params, w, packed.data());
      packedOnce = constantWeights;
    }
    blocked::sequenceLstm(params, w, packed.data(), arg(role::input),
                          arg(role::output_state_in), arg(role::cell_state_in),
                          output(role::output), hOut, cOut, scratch.data());
    return ANEURALNETWORKS_NO_ERROR;
  }

private:
  /// The weights the blocked kernel packs: input_to_*, recurrent_to_*,
  /// the gate biases, the projection and its bias.
  static constexpr RoleName kWeightRoles[14] = {
      role::input_to_input_weights,
      role::input_to_forget_weights,
      role::input_to_cell_weights,
      role::input_to_output_weights,
      role::recurrent_to_input_weights,
      role::recurrent_to_forget_weights,
      role::recurrent_to_cell_weights,
      role::recurrent_to_output_weights,
      role::input_gate_bias,
      role::forget_gate_bias,
      role::cell_bias,
      role::output_gate_bias,
      role::projection_weights,
      role::projection_bias};
  SequenceLstm params;
  spec::Match layout;
  std::vector<uint32_t> inputs, outputs;
  bool blocked;
  bool constantWeights = true, packedOnce = false;
  std::vector<float> packed, scratch;
};

} // namespace

size_t storageElementBytes(int32_t type) {
  return isFloatTensor(type) ? sizeof(float) : elementBytes(type);
}

std::unique_ptr<Step> createBlockedStep(const HostModel &model,
                                        size_t index) {
  const Operation &op = model.operations[index];
  const OpParams &p = model.params[index];
  const Shape &in = model.operands[op.inputs[0]].dims;
  bool floats = isFloatTensor(model.operands[op.inputs[0]].type);
  switch (op.opcode) {
  case ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM:
    // The blocked kernel keeps every step's input product (4 units per
    // input row): beyond 256 MB of that, the reference kernel, which needs
    // a step's worth.
    if (blocked::sequenceLstmScratch(p.lstm) > (size_t(1) << 26))
      return nullptr;
    return std::make_unique<SequenceLstmStep>(model, op, p,
                                              model.layouts[index], true);
  case ANEURALNETWORKS_TRANSPOSE:
  case ANEURALNETWORKS_BATCH_MATMUL:
    break;
  default:
    if (!reduceKindOf(op.opcode) || !floats ||
        !blocked::canReduce(in, p.reduced))
      return nullptr;
  }
  return std::make_unique<BlockedStep>(model, op, p, model.layouts[index]);
}

std::unique_ptr<Step> createReferenceStep(const HostModel &model,
                                          size_t index) {
  if (model.operations[index].opcode ==
      ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM)
    return std::make_unique<SequenceLstmStep>(
        model, model.operations[index], model.params[index],
        model.layouts[index], false);
  return std::make_unique<ReferenceStep>(model, model.operations[index],
                                         model.params[index],
                                         model.layouts[index]);
}

Executor::~Executor() {
  if (!trace.empty())
    printTrace();
  std::free(arena);
}

void Executor::printTrace() const {
  uint64_t total = 0;
  for (const StepTrace &t : trace)
    total += t.ns;
  double runs = double(tracedRuns ? tracedRuns : 1);
  std::fprintf(stderr,
               "nnapi-mlir-host trace: %zu steps, %llu executions, %.3f us "
               "per execution in steps\n",
               steps.size(), static_cast<unsigned long long>(tracedRuns),
               double(total) / runs * 1e-3);
  for (size_t i = 0; i < trace.size(); ++i)
    std::fprintf(stderr, "  step %zu %s (%s): %.3f us per execution\n", i,
                 operationName(trace[i].opcode), steps[i]->backend(),
                 double(trace[i].ns) / runs * 1e-3);
}

size_t Executor::xnnpackStepCount() const {
  size_t n = 0;
  for (const auto &s : steps)
    n += std::strcmp(s->backend(), "xnnpack") == 0;
  return n;
}

int Executor::create(const HostModel &model, const ExecutorOptions &options,
                     std::unique_ptr<Executor> &out) {
  std::unique_ptr<Executor> e(new (std::nothrow) Executor());
  if (!e)
    return fail(ANEURALNETWORKS_OUT_OF_MEMORY, "out of memory");
  if (options.kernels == KernelMode::XNNPACK)
    if (int rc = initializeXnnpack(options))
      return rc;
  std::vector<bool> views;
  if (int rc = e->plan(model, views))
    return rc;
  for (size_t i = 0; i < model.operations.size(); ++i) {
    if (views[i]) // plan() aliased the reshape's storage
      continue;
    std::unique_ptr<Step> step;
    int32_t opcode = model.operations[i].opcode;
    if (opcode == ANEURALNETWORKS_IF || opcode == ANEURALNETWORKS_WHILE)
      if (int rc = createControlFlowStep(model, i, options, step))
        return rc;
    if (!step && options.kernels == KernelMode::XNNPACK)
      if (int rc = createXnnpackStep(model, i, e->bindings, options, step))
        return rc;
    if (!step)
      step = createQuantizedStep(model, i);
    if (!step && options.kernels == KernelMode::XNNPACK)
      step = createBlockedStep(model, i);
    if (!step)
      step = createReferenceStep(model, i);
    if (!options.lies.empty())
      step = lieAbout(std::move(step), model, i, options.lies);
    e->steps.push_back(std::move(step));
    if (options.trace)
      e->trace.push_back({model.operations[i].opcode});
  }
  out = std::move(e);
  return ANEURALNETWORKS_NO_ERROR;
}

int Executor::plan(const HostModel &m, std::vector<bool> &views) {
  size_t numOps = m.operations.size();
  bindings.assign(m.operands.size(), nullptr);
  constants.resize(m.operands.size());

  // Constants: used in place when they are float32 the kernels may read
  // (aligned, slack on the same page: any operand, not only weights, may be
  // a constant), else copied or converted into storage with that slack.
  for (size_t i = 0; i < m.operands.size(); ++i) {
    const Operand &o = m.operands[i];
    if (o.kind != Kind::Constant)
      continue;
    if (o.type == ANEURALNETWORKS_TENSOR_BOOL8 || isQuant8DataType(o.type) ||
        o.type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL) {
      // Read byte by byte by the reference kernels, in place.
      bindings[i] = reinterpret_cast<float *>(const_cast<uint8_t *>(o.value));
      continue;
    }
    size_t n = numElements(o.dims);
    if (o.type == ANEURALNETWORKS_TENSOR_INT32) {
      // CAST's input, GATHER's indices: int32 bits in a float slot, copied
      // for alignment.
      constants[i].resize(n);
      std::memcpy(constants[i].data(), o.value, n * sizeof(int32_t));
      bindings[i] = constants[i].data();
      continue;
    }
    if (!isFloatTensor(o.type))
      continue;
    if (o.type == ANEURALNETWORKS_TENSOR_FLOAT32 &&
        kernelsMayRead(o.value, n * sizeof(float))) {
      bindings[i] = reinterpret_cast<float *>(const_cast<uint8_t *>(o.value));
      continue;
    }
    std::vector<float> &values = constants[i];
    values.assign(n + kKernelSlackBytes / sizeof(float), 0.0f);
    if (o.type == ANEURALNETWORKS_TENSOR_FLOAT16) {
      for (size_t k = 0; k < n; ++k) {
        uint16_t h;
        std::memcpy(&h, o.value + 2 * k, 2);
        values[k] = halfToFloat(h);
      }
    } else {
      std::memcpy(values.data(), o.value, n * sizeof(float));
    }
    bindings[i] = values.data();
  }

  // Reshapes into temporaries share their input's storage: `root` maps each
  // operand to the operand whose storage it uses.
  std::vector<uint32_t> root(m.operands.size());
  for (uint32_t i = 0; i < root.size(); ++i)
    root[i] = i;
  views.assign(numOps, false);
  for (size_t i = 0; i < numOps; ++i) {
    const Operation &op = m.operations[i];
    if (op.opcode == ANEURALNETWORKS_RESHAPE &&
        m.operands[op.outputs[0]].kind == Kind::Temporary) {
      root[op.outputs[0]] = root[op.inputs[0]];
      views[i] = true;
    }
  }

  // Lifetime of each storage root, in operation indices.
  const size_t kNone = size_t(-1);
  std::vector<size_t> first(m.operands.size(), kNone), last(m.operands.size(), 0);
  auto touch = [&](uint32_t operand, size_t at) {
    uint32_t r = root[operand];
    first[r] = std::min(first[r], at);
    last[r] = std::max(last[r], at);
  };
  for (size_t i = 0; i < numOps; ++i) {
    for (uint32_t idx : m.operations[i].inputs)
      touch(idx, i);
    for (uint32_t idx : m.operations[i].outputs)
      touch(idx, i);
  }

  std::vector<BufferRequest> requests;
  std::vector<uint32_t> owners; // operand of each request
  auto request = [&](uint32_t operand, size_t from, size_t to) {
    size_t bytes = numElements(m.operands[operand].dims) * sizeof(float) +
                   kKernelSlackBytes;
    requests.push_back({bytes, from, to});
    owners.push_back(operand);
  };
  for (uint32_t i = 0; i < m.operands.size(); ++i)
    if (root[i] == i && m.operands[i].kind == Kind::Temporary &&
        first[i] != kNone)
      request(i, first[i], last[i]);
  size_t temporaries = requests.size();
  for (uint32_t idx : m.inputs)
    request(idx, 0, first[idx] == kNone ? 0 : last[idx]);
  for (uint32_t idx : m.outputs)
    request(idx, first[idx] == kNone ? numOps : first[idx], numOps);

  std::vector<size_t> offsets;
  size_t alignment = 64;
  arenaSize = planBuffers(requests, alignment, offsets);
  if (arenaSize) {
    arena = static_cast<float *>(
        std::aligned_alloc(alignment, (arenaSize + alignment - 1) / alignment *
                                          alignment));
    if (!arena)
      return fail(ANEURALNETWORKS_OUT_OF_MEMORY,
                  "cannot allocate a " + std::to_string(arenaSize) +
                      "-byte arena for intermediate tensors");
  }
  auto at = [&](size_t r) { return arena + offsets[r] / sizeof(float); };
  for (size_t r = 0; r < temporaries; ++r)
    bindings[owners[r]] = at(r);
  for (size_t k = 0; k < m.inputs.size(); ++k) {
    const Operand &o = m.operands[m.inputs[k]];
    inputs.push_back({m.inputs[k], o.type == ANEURALNETWORKS_TENSOR_FLOAT16,
                      numElements(o.dims), operandBytes(o),
                      at(temporaries + k)});
  }
  for (size_t k = 0; k < m.outputs.size(); ++k) {
    const Operand &o = m.operands[m.outputs[k]];
    outputs.push_back({m.outputs[k], o.type == ANEURALNETWORKS_TENSOR_FLOAT16,
                       numElements(o.dims), operandBytes(o),
                       at(temporaries + m.inputs.size() + k)});
  }
  // Aliases of constants and temporaries are known now; aliases of inputs
  // and outputs are bound per execution.
  for (uint32_t i = 0; i < root.size(); ++i) {
    if (root[i] == i)
      continue;
    Kind k = m.operands[root[i]].kind;
    if (k == Kind::Input || k == Kind::Output)
      aliases.push_back({i, root[i]});
    else
      bindings[i] = bindings[root[i]];
  }
  return ANEURALNETWORKS_NO_ERROR;
}

int Executor::run(const void *const *in, void *const *out) {
  std::lock_guard<std::mutex> lock(mutex);
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Boundary &b = inputs[k];
    if (b.half) {
      const auto *h = static_cast<const uint16_t *>(in[k]);
      for (size_t i = 0; i < b.elements; ++i) {
        uint16_t v;
        std::memcpy(&v, h + i, 2);
        b.staging[i] = halfToFloat(v);
      }
      bindings[b.operand] = b.staging;
    } else if (kernelsMayRead(in[k], b.bytes)) {
      bindings[b.operand] = static_cast<float *>(const_cast<void *>(in[k]));
    } else {
      std::memcpy(b.staging, in[k], b.bytes);
      bindings[b.operand] = b.staging;
    }
  }
  for (size_t k = 0; k < outputs.size(); ++k) {
    const Boundary &b = outputs[k];
    bool direct = !b.half && kernelsMayRead(out[k], b.bytes);
    bindings[b.operand] = direct ? static_cast<float *>(out[k]) : b.staging;
  }
  if (int rc = runSteps())
    return rc;
  for (size_t k = 0; k < outputs.size(); ++k) {
    const Boundary &b = outputs[k];
    if (bindings[b.operand] != b.staging)
      continue;
    if (b.half) {
      auto *h = static_cast<uint8_t *>(out[k]);
      for (size_t i = 0; i < b.elements; ++i) {
        uint16_t v = floatToHalf(b.staging[i]);
        std::memcpy(h + 2 * i, &v, 2);
      }
    } else {
      std::memcpy(out[k], b.staging, b.bytes);
    }
  }
  return ANEURALNETWORKS_NO_ERROR;
}

int Executor::runNested(float *const *in, float *const *out) {
  std::lock_guard<std::mutex> lock(mutex);
  for (size_t k = 0; k < inputs.size(); ++k)
    bindings[inputs[k].operand] = in[k];
  for (size_t k = 0; k < outputs.size(); ++k)
    bindings[outputs[k].operand] = out[k];
  return runSteps();
}

int Executor::runSteps() {
  for (auto [alias, root] : aliases)
    bindings[alias] = bindings[root];
  if (trace.empty()) {
    for (const auto &step : steps)
      if (int rc = step->run(bindings))
        return rc;
  } else {
    using Clock = std::chrono::steady_clock;
    for (size_t i = 0; i < steps.size(); ++i) {
      Clock::time_point start = Clock::now();
      if (int rc = steps[i]->run(bindings))
        return rc;
      trace[i].ns += uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                  Clock::now() - start)
                                  .count());
    }
    ++tracedRuns;
  }
  return ANEURALNETWORKS_NO_ERROR;
}

} // namespace nnapi_mlir::host
