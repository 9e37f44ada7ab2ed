//===- Validation.cpp - NNAPI operand rules of the host device ------------===//
//
// Checks each operation of a model the way a driver must before it accepts
// the model: first its operands against the operation's layout in the NNAPI
// spec (counts, types, ranks, constants, the feature level this use needs;
// nnapi-mlir/NNAPI/Layouts.h), then the output shapes the spec's rules
// compute (nnapi-mlir/NNAPI/Shapes.h, the rules the compiler's verifiers and
// the runtime's specialization apply), then what the kernels need that the
// rules do not check (quantization, fused activations, the sequence RNN and
// LSTM's sized operands). Operands are read by role (Roles.h), never by
// position. The decoded scalar parameters (padding, strides, fused
// activation, axis...) are kept in HostModel::params so that compilation and
// execution never decode operands again.
//
//===----------------------------------------------------------------------===//

#include "HostModel.h"
#include "OpKinds.h"

#include "nnapi-mlir/NNAPI/Shapes.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace nnapi_mlir::host {

bool isFloatTensor(int32_t t) {
  return t == ANEURALNETWORKS_TENSOR_FLOAT32 || t == ANEURALNETWORKS_TENSOR_FLOAT16;
}

bool isScalar(int32_t t) {
  return t == ANEURALNETWORKS_FLOAT32 || t == ANEURALNETWORKS_INT32 ||
         t == ANEURALNETWORKS_UINT32 || t == ANEURALNETWORKS_BOOL ||
         t == ANEURALNETWORKS_FLOAT16;
}

size_t elementBytes(int32_t t) {
  switch (t) {
  case ANEURALNETWORKS_FLOAT32: case ANEURALNETWORKS_INT32:
  case ANEURALNETWORKS_UINT32: case ANEURALNETWORKS_TENSOR_FLOAT32:
  case ANEURALNETWORKS_TENSOR_INT32: case ANEURALNETWORKS_FLOAT16:
  case ANEURALNETWORKS_TENSOR_FLOAT16: case ANEURALNETWORKS_BOOL:
  case ANEURALNETWORKS_TENSOR_BOOL8: case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
  // Quantized operands are accepted (and their scale and zero point
  // checked); no operation of this device takes them yet.
  case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED:
  case ANEURALNETWORKS_TENSOR_QUANT8_SYMM:
  case ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL:
  case ANEURALNETWORKS_TENSOR_QUANT16_SYMM:
  case ANEURALNETWORKS_TENSOR_QUANT16_ASYMM:
    return operandTypeBytes(t);
  default: // types the device has no operation for
    return 0;
  }
}

size_t operandBytes(const Operand &o) {
  return elementBytes(o.type) * (isScalar(o.type) ? 1 : numElements(o.dims));
}

std::string shapeStr(const Shape &s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? "," : "") + std::to_string(s[i]);
  return r + "]";
}

namespace {

class Validator {
public:
  Validator(const HostModel &m, const Operation &op, size_t index,
            OpParams &params, spec::Match &layout)
      : m(m), op(op), index(index), params(params), layout(layout) {}

  /// Checks every NNAPI operand rule of the operation; returns BAD_DATA with
  /// a message on the first violation.
  int run();

private:
  const HostModel &m;
  const Operation &op;
  size_t index;
  OpParams &params;
  spec::Match &layout;

  int bad(const std::string &msg) {
    const char *name = operationName(op.opcode);
    return fail(ANEURALNETWORKS_BAD_DATA,
                "operation " + std::to_string(index) + " (" +
                    (name ? std::string(name)
                          : "opcode " + std::to_string(op.opcode)) +
                    "): " + msg);
  }
  /// Checks the operands against the operation's layout in the NNAPI spec
  /// (counts, types, ranks, constants) and fills `layout`.
  int matchLayout();
  /// 8-bit quantized data: only the operations with quantized kernels, and
  /// NNAPI's rules for their bias and per-channel filter.
  int quantized();

  // Operands by role; the layout guarantees their types and ranks, and that
  // scalars are constants. `has` tells whether an optional one is there.
  bool has(RoleName role) const { return layout.input(role) >= 0; }
  /// An omittable operand there with a value.
  bool given(RoleName role) const {
    return has(role) && in(role).kind != Kind::Omitted;
  }
  uint32_t operandIndex(RoleName role) const {
    int position = layout.input(role);
    assert(position >= 0 && "a role of the matched form");
    return op.inputs[size_t(position)];
  }
  const Operand &in(RoleName role) const {
    return m.operands[operandIndex(role)];
  }
  int32_t i32(RoleName role) const { return m.i32(operandIndex(role)); }
  bool flag(RoleName role) const { return m.b8(operandIndex(role)); }
  /// Scalar `role`, or what NNAPI reads when the operation leaves its
  /// optional group out (the layout's Role::absent); `otherwise` when the
  /// operation's form has no such role.
  int32_t i32Or(RoleName role, int32_t otherwise = 0) const {
    return has(role) ? i32(role) : layout.absentInput(role).value_or(otherwise);
  }
  bool flagOr(RoleName role) const {
    return has(role) ? flag(role) : layout.absentInput(role).value_or(0) != 0;
  }
  float real(RoleName role) const { return m.f32(operandIndex(role)); }
  const Operand &out(size_t i) const { return m.operands[op.outputs[i]]; }

  /// The output has `shape` and operand type `type`.
  int expectOutputOf(const Shape &shape, int32_t type, size_t i = 0) {
    const Operand &o = out(i);
    std::string which = i ? "output " + std::to_string(i) : "output";
    if (o.type != type)
      return bad(which + " has type " + std::string(operandTypeName(o.type)) +
                 ", expected " + operandTypeName(type));
    if (o.dims != shape)
      return bad(which + " shape " + shapeStr(o.dims) +
                 " differs from computed " + shapeStr(shape));
    return 0;
  }
  /// The output has `shape` and the operation's data type.
  int expectOutput(const Shape &shape, size_t i = 0) {
    return expectOutputOf(shape, layout.dataType, i);
  }
  int fuse() {
    int32_t code = i32(role::fuse);
    if (code < 0 || code > 3)
      return bad("invalid fused activation code " + std::to_string(code));
    params.fuseCode = params.window.fuseCode = code;
    return 0;
  }
  /// INT32 scalar `role`, which must be positive.
  int positive(RoleName role, int32_t &value) {
    value = i32(role);
    if (value < 1)
      return bad(std::string(role) + " must be positive");
    return 0;
  }
  /// A constant TENSOR_INT32 of `count` elements into `values`.
  int int32s(RoleName role, size_t count, std::vector<int32_t> &values) {
    const Operand &o = in(role);
    if (numElements(o.dims) != count)
      return bad(std::string(role) + " has shape " + shapeStr(o.dims) +
                 ", expected " + shapeStr({uint32_t(count)}));
    values.resize(count);
    if (count)
      std::memcpy(values.data(), o.value, count * sizeof(int32_t));
    return 0;
  }
  /// INT32 scalar `role` (or its absent value: the last axis), an axis of
  /// the input (negative counts from the end); params.axis gets it,
  /// non-negative.
  int axis(RoleName role) {
    int32_t rank = int32_t(in(role::input).dims.size()), a = i32Or(role);
    if (a < -rank || a >= rank)
      return bad("axis " + std::to_string(a) + " out of range");
    params.axis = a < 0 ? a + rank : a;
    return 0;
  }
  int nhwc() {
    if (flagOr(role::layout))
      return bad("NCHW layout is not supported by the host implementation");
    return 0;
  }
  /// The window of a convolution or pool: padding (explicit, or a scheme
  /// resolved once the filter is known), strides, fused activation.
  int shapeRule();
  int window();
  int transposeConv();
  int resize();
  int fullyConnected();
  int softmax();
  int instanceNorm();
  int localResponse();
  int concatenation();
  int transpose();
  int padOp();
  int reverse();
  int channelShuffle();
  int depthSpace();
  int slice();
  int stridedSlice();
  int reduce();
  int batchMatmul();
  int sequenceLstm();
  int sequenceRnn();
};

/// The outputs have the shapes and types the spec's rule computes.
int Validator::shapeRule() {
  std::vector<spec::ShapeOperand> inputs;
  for (uint32_t idx : op.inputs) {
    const Operand &o = m.operands[idx];
    inputs.push_back({o.type, &o.dims,
                      o.kind == Kind::Constant ? o.value : nullptr});
  }
  std::vector<spec::ShapeResult> results;
  std::string error;
  if (!spec::inferShapes(op.opcode, layout, inputs, results, error))
    return bad(error);
  if (results.size() != op.outputs.size())
    return bad("expects " + std::to_string(results.size()) + " outputs, got " +
               std::to_string(op.outputs.size()));
  for (size_t i = 0; i < results.size(); ++i)
    if (int rc = expectOutputOf(results[i].dims,
                                results[i].type < 0 ? out(i).type
                                                    : results[i].type,
                                i))
      return rc;
  return 0;
}

int Validator::matchLayout() {
  auto describe = [&](uint32_t idx) {
    const Operand &o = m.operands[idx];
    spec::OperandDesc d;
    d.type = o.type;
    d.rank = uint32_t(o.dims.size());
    d.constant = o.kind == Kind::Constant;
    d.omitted = o.kind == Kind::Omitted;
    return d;
  };
  std::vector<spec::OperandDesc> ins, outs;
  for (uint32_t idx : op.inputs)
    ins.push_back(describe(idx));
  for (uint32_t idx : op.outputs)
    outs.push_back(describe(idx));
  std::string error;
  if (!spec::match(op.opcode, ins, outs, layout, error))
    return bad(error);
  return 0;
}

/// The window of a convolution or pool (the shape rule has checked its
/// operands): padding (explicit, or the scheme resolved for the input),
/// strides, dilations, filter size, fused activation.
int Validator::window() {
  Window &w = params.window;
  const Shape &is = in(role::input).dims;
  if (op.opcode == ANEURALNETWORKS_AVERAGE_POOL_2D ||
      op.opcode == ANEURALNETWORKS_MAX_POOL_2D) {
    params.filterW = i32(role::filter_w);
    params.filterH = i32(role::filter_h);
  } else {
    params.filterH = int32_t(in(role::filter).dims[1]);
    params.filterW = int32_t(in(role::filter).dims[2]);
  }
  w.strideW = i32(role::stride_w);
  w.strideH = i32(role::stride_h);
  // Pools and grouped or transposed convolutions have no dilations.
  w.dilationW = i32Or(role::dilation_w, 1);
  w.dilationH = i32Or(role::dilation_h, 1);
  if (has(role::padding_scheme)) {
    int32_t code = i32(role::padding_scheme);
    spec::implicitPadding(code, int32_t(is[2]), w.strideW, params.filterW,
                          w.dilationW, w.padLeft, w.padRight);
    spec::implicitPadding(code, int32_t(is[1]), w.strideH, params.filterH,
                          w.dilationH, w.padTop, w.padBottom);
  } else if (has(role::pad_left)) {
    w.padLeft = i32(role::pad_left);
    w.padRight = i32(role::pad_right);
    w.padTop = i32(role::pad_top);
    w.padBottom = i32(role::pad_bottom);
  }
  if (int rc = fuse())
    return rc;
  return nhwc();
}

int Validator::transposeConv() {
  if (has(role::output_shape))
    return bad("only the explicit-padding form (11 inputs) is implemented by "
               "the host implementation, got " +
               std::to_string(op.inputs.size()) + " inputs");
  return window();
}

int Validator::resize() {
  if (int rc = nhwc())
    return rc;
  bool align = flagOr(role::align_corners);
  bool half = flagOr(role::half_pixel_centers);
  if (align && half)
    return bad("align_corners and half_pixel_centers exclude each other");
  params.resize = {align, half};
  return 0;
}

int Validator::fullyConnected() {
  params.batch = out(0).dims[0];
  return fuse();
}

int Validator::softmax() {
  params.beta = real(role::beta);
  if (!(params.beta > 0.0f))
    return bad("beta must be positive");
  return axis(role::axis);
}

int Validator::instanceNorm() {
  float gamma = real(role::gamma), beta = real(role::beta),
        epsilon = real(role::epsilon);
  if (!(epsilon > 0.0f))
    return bad("epsilon must be positive");
  params.norm = {gamma, beta, epsilon, flag(role::layout)};
  return 0;
}

int Validator::localResponse() {
  LocalResponse &p = params.lrn;
  p.radius = i32(role::radius);
  if (p.radius < 0)
    return bad("radius must be non-negative");
  p.bias = real(role::bias);
  p.alpha = real(role::alpha);
  p.beta = real(role::beta);
  if (int rc = axis(role::axis))
    return rc;
  p.axis = params.axis;
  return 0;
}

int Validator::concatenation() { return axis(role::axis); }

int Validator::transpose() {
  std::vector<int32_t> &perm = params.indices;
  if (!has(role::perm)) {
    // Without perm, the dimensions are reversed.
    for (uint32_t d = uint32_t(in(role::input).dims.size()); d-- > 0;)
      perm.push_back(int32_t(d));
    return 0;
  }
  return int32s(role::perm, in(role::input).dims.size(), perm);
}

/// PAD, PAD_V2, MIRROR_PAD: the padding before each dimension, the value,
/// the mirror's mode.
int Validator::padOp() {
  const Shape &is = in(role::input).dims;
  std::vector<int32_t> pads;
  if (int rc = int32s(role::paddings, is.size() * 2, pads))
    return rc;
  for (size_t d = 0; d < is.size(); ++d)
    params.indices.push_back(pads[2 * d]);
  if (has(role::pad_value))
    params.padValue = real(role::pad_value);
  if (has(role::mode))
    params.padMode = i32(role::mode) ? PadMode::Symmetric : PadMode::Reflect;
  return 0;
}

// The shape rules (Shapes.cpp) have checked these operations; what is left
// is reading the kernels' parameters.
int Validator::depthSpace() {
  params.blockSize = i32(role::block_size);
  params.nchw = flagOr(role::layout);
  return 0;
}

int Validator::channelShuffle() {
  params.groups = i32(role::num_groups);
  return axis(role::axis);
}

int Validator::reverse() {
  std::vector<int32_t> a;
  if (int rc = int32s(role::axis, 1, a))
    return rc;
  params.axis = a[0];
  return 0;
}

int Validator::slice() {
  return int32s(role::begin, in(role::input).dims.size(), params.indices);
}

int Validator::stridedSlice() {
  const Shape &is = in(role::input).dims;
  uint32_t rank = uint32_t(is.size());
  std::vector<int32_t> begins, ends, strides;
  if (int rc = int32s(role::begin, rank, begins))
    return rc;
  if (int rc = int32s(role::end, rank, ends))
    return rc;
  if (int rc = int32s(role::strides, rank, strides))
    return rc;
  spec::StridedSliceMasks masks{i32(role::begin_mask), i32(role::end_mask),
                                i32(role::shrink_axis_mask)};
  for (uint32_t d = 0; d < rank; ++d) {
    spec::SliceAxis s;
    std::string error;
    if (!spec::stridedSliceAxis(is[d], d, begins[d], ends[d], strides[d],
                                masks, s, error))
      return bad(error);
    params.indices.push_back(s.begin);
    params.strides.push_back(s.stride);
    params.sliceShape.push_back(s.count);
  }
  return 0;
}

int Validator::reduce() {
  int32_t rank = int32_t(in(role::input).dims.size());
  std::vector<int32_t> axes;
  if (int rc = int32s(role::axes, numElements(in(role::axes).dims), axes))
    return rc;
  // NNAPI allows an axis to repeat; it is reduced once.
  params.reduced.assign(size_t(rank), false);
  for (int32_t a : axes)
    params.reduced[size_t(a < 0 ? a + rank : a)] = true;
  return 0;
}

int Validator::batchMatmul() {
  params.adjA = flagOr(role::adj_x);
  params.adjB = flagOr(role::adj_y);
  return 0;
}

int Validator::sequenceRnn() {
  SequenceRnn &s = params.rnn;
  const Shape &x = in(role::input).dims;
  int32_t timeMajor = i32(role::time_major);
  if (timeMajor != 0 && timeMajor != 1)
    return bad("time_major must be 0 or 1, got " + std::to_string(timeMajor));
  s.timeMajor = timeMajor;
  s.steps = x[s.timeMajor ? 0 : 1];
  s.batch = x[s.timeMajor ? 1 : 0];
  s.inputSize = x[2];
  s.units = in(role::weights).dims[0];
  if (int rc = fuse())
    return rc;
  s.fuseCode = params.fuseCode;
  for (auto [name, shape] :
       {std::pair<RoleName, Shape>{role::weights, {s.units, s.inputSize}},
        {role::recurrent_weights, {s.units, s.units}},
        {role::bias, {s.units}},
        {role::hidden_state, {s.batch, s.units}}})
    if (in(name).dims != shape)
      return bad(std::string(name) + " is " + shapeStr(in(name).dims) +
                 ", expected " + shapeStr(shape));
  return expectOutput(s.timeMajor ? Shape{s.steps, s.batch, s.units}
                                  : Shape{s.batch, s.steps, s.units});
}

int Validator::sequenceLstm() {
  SequenceLstm &s = params.lstm;
  const Shape &x = in(role::input).dims;
  s.timeMajor = flag(role::time_major);
  s.steps = x[s.timeMajor ? 0 : 1];
  s.batch = x[s.timeMajor ? 1 : 0];
  s.inputSize = x[2];
  s.units = in(role::input_to_output_weights).dims[0];
  s.outputSize = in(role::recurrent_to_output_weights).dims[1];
  auto expectShape = [&](RoleName name, const Shape &shape) {
    if (in(name).dims != shape)
      return bad(std::string(name) + " is " + shapeStr(in(name).dims) +
                 ", expected " + shapeStr(shape));
    return 0;
  };
  // Per gate: input weights, recurrent weights, bias. Only the input gate's
  // are omittable (the spec refuses the others without a value), all three
  // together (CIFG).
  static const RoleName gateRoles[4][3] = {
      {role::input_to_input_weights, role::recurrent_to_input_weights,
       role::input_gate_bias},
      {role::input_to_forget_weights, role::recurrent_to_forget_weights,
       role::forget_gate_bias},
      {role::input_to_cell_weights, role::recurrent_to_cell_weights,
       role::cell_bias},
      {role::input_to_output_weights, role::recurrent_to_output_weights,
       role::output_gate_bias}};
  for (const auto &roles : gateRoles) {
    int present = int(given(roles[0])) + given(roles[1]) + given(roles[2]);
    if (present == 0)
      continue; // CIFG
    for (RoleName gate : roles)
      if (!given(gate))
        return bad(std::string(gate) +
                   " is missing (the input gate's weights and bias are all "
                   "given or all omitted)");
    if (int rc = expectShape(roles[0], {s.units, s.inputSize}))
      return rc;
    if (int rc = expectShape(roles[1], {s.units, s.outputSize}))
      return rc;
    if (int rc = expectShape(roles[2], {s.units}))
      return rc;
  }
  bool cifg = !given(role::input_to_input_weights);
  bool peepholes = given(role::cell_to_forget_weights);
  if (given(role::cell_to_output_weights) != peepholes ||
      (!cifg && given(role::cell_to_input_weights) != peepholes) ||
      (cifg && given(role::cell_to_input_weights)))
    return bad("the peephole weights are given for every gate (but a coupled "
               "input gate's) or for none");
  for (RoleName peephole :
       {role::cell_to_input_weights, role::cell_to_forget_weights,
        role::cell_to_output_weights})
    if (given(peephole))
      if (int rc = expectShape(peephole, {s.units}))
        return rc;
  if (given(role::projection_weights)) {
    if (int rc = expectShape(role::projection_weights, {s.outputSize, s.units}))
      return rc;
  } else if (given(role::projection_bias)) {
    return bad("projection_bias without projection_weights");
  } else if (s.outputSize != s.units) {
    return bad("without a projection the output size (" +
               std::to_string(s.outputSize) + ") must be the number of units (" +
               std::to_string(s.units) + ")");
  }
  if (given(role::projection_bias))
    if (int rc = expectShape(role::projection_bias, {s.outputSize}))
      return rc;
  for (RoleName norm :
       {role::input_layer_norm_weights, role::forget_layer_norm_weights,
        role::cell_layer_norm_weights, role::output_layer_norm_weights})
    if (given(norm))
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "operation " + std::to_string(index) +
                      ": layer normalization (" + norm.str() +
                      ") is not implemented by the host NNAPI implementation");
  if (int rc = expectShape(role::output_state_in, {s.batch, s.outputSize}))
    return rc;
  if (int rc = expectShape(role::cell_state_in, {s.batch, s.units}))
    return rc;
  s.activation = i32(role::activation);
  if (!isLstmActivation(s.activation))
    return bad("invalid activation " + std::to_string(s.activation) +
               " (0, 1, 3, 4 or 6)");
  s.cellClip = real(role::cell_clip);
  s.projClip = real(role::proj_clip);
  if (!(s.cellClip >= 0) || !(s.projClip >= 0))
    return bad("cell_clip and proj_clip must be 0 (off) or positive");
  Shape y = s.timeMajor ? Shape{s.steps, s.batch, s.outputSize}
                        : Shape{s.batch, s.steps, s.outputSize};
  if (int rc = expectOutput(y))
    return rc;
  if (op.outputs.size() == 3) {
    if (int rc = expectOutput({s.batch, s.outputSize}, 1))
      return rc;
    if (int rc = expectOutput({s.batch, s.units}, 2))
      return rc;
  }
  return 0;
}

int Validator::quantized() {
  bool q = isQuant8DataType(layout.dataType) ||
           op.opcode == ANEURALNETWORKS_QUANTIZE ||
           op.opcode == ANEURALNETWORKS_DEQUANTIZE;
  if (!q)
    return 0;
  if (!hasQuantizedKernel(op.opcode))
    return bad(std::string("the host device has no kernel for ") +
               operandTypeName(layout.dataType) + " data of " +
               operationName(op.opcode));
  if (op.opcode == ANEURALNETWORKS_QUANTIZE ||
      op.opcode == ANEURALNETWORKS_DEQUANTIZE)
    return 0;
  const Operand &output = m.operands[op.outputs[0]];
  for (uint32_t idx : op.inputs) {
    const Operand &data = m.operands[idx];
    if (!isQuant8DataType(data.type))
      continue;
    std::string why = quantizedOutputError(
        operationName(op.opcode),
        output.type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED, data.scale,
        data.zeroPoint, output.scale, output.zeroPoint);
    if (!why.empty())
      return bad(why);
  }
  if (op.opcode != ANEURALNETWORKS_CONV_2D &&
      op.opcode != ANEURALNETWORKS_DEPTHWISE_CONV_2D &&
      op.opcode != ANEURALNETWORKS_FULLY_CONNECTED)
    return 0;
  const Operand &input = in(role::input);
  const spec::Role &weights = *spec::weightsRole(op.opcode);
  const Operand &filter = in(weights.name), &bias = in(role::bias);
  bool perChannel =
      filter.type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL;
  if (perChannel) {
    // The layout has refused per-channel weights without a channel
    // dimension.
    uint32_t dim = uint32_t(weights.channelDim);
    if (filter.channelDim != dim)
      return bad(std::string("per-channel filter scales must run along "
                             "dimension ") +
                 std::to_string(dim) + ", not " +
                 std::to_string(filter.channelDim));
  }
  std::string why = biasScaleError(input.scale, filter.scale, bias.scale,
                                   perChannel);
  if (!why.empty())
    return bad(why);
  if (bias.zeroPoint != 0)
    return bad("a quantized bias must have zero point 0");
  return 0;
}

int Validator::run() {
  for (uint32_t idx : op.outputs)
    if (m.operands[idx].kind == Kind::Constant ||
        m.operands[idx].kind == Kind::Input ||
        m.operands[idx].kind == Kind::Omitted)
      return bad("an output operand is a constant, a model input or has no "
                 "value");
  if (!spec::lookupLayout(op.opcode))
    return fail(ANEURALNETWORKS_BAD_DATA,
                "operation " + std::to_string(index) + ": opcode " +
                    std::to_string(op.opcode) +
                    " is not implemented by the host NNAPI implementation");
  if (int rc = matchLayout())
    return rc;
  if (op.opcode == ANEURALNETWORKS_IF || op.opcode == ANEURALNETWORKS_WHILE)
    return validateControlFlow(m, index, layout);
  if (int rc = quantized())
    return rc;
  if (spec::hasShapeRule(op.opcode))
    if (int rc = shapeRule())
      return rc;
  if (binaryKindOf(op.opcode) && has(role::fuse))
    return fuse();
  switch (op.opcode) {
  case ANEURALNETWORKS_ARGMAX: case ANEURALNETWORKS_ARGMIN:
    return axis(role::axis);
  case ANEURALNETWORKS_CONV_2D: case ANEURALNETWORKS_AVERAGE_POOL_2D:
  case ANEURALNETWORKS_MAX_POOL_2D:
    return window();
  case ANEURALNETWORKS_DEPTHWISE_CONV_2D:
    params.depthMultiplier = i32(role::depth_multiplier);
    return window();
  case ANEURALNETWORKS_GROUPED_CONV_2D:
    params.groups = i32(role::num_groups);
    return window();
  case ANEURALNETWORKS_TRANSPOSE_CONV_2D:
    return transposeConv();
  case ANEURALNETWORKS_RESIZE_BILINEAR:
  case ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR:
    return resize();
  case ANEURALNETWORKS_FULLY_CONNECTED:
    return fullyConnected();
  case ANEURALNETWORKS_SOFTMAX: case ANEURALNETWORKS_LOG_SOFTMAX:
    return softmax();
  case ANEURALNETWORKS_ELU:
    params.alpha = real(role::alpha);
    return 0;
  case ANEURALNETWORKS_INSTANCE_NORMALIZATION:
    return instanceNorm();
  case ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION:
    return localResponse();
  case ANEURALNETWORKS_L2_NORMALIZATION:
    return axis(role::axis);
  case ANEURALNETWORKS_CONCATENATION:
    return concatenation();
  case ANEURALNETWORKS_TRANSPOSE:
    return transpose();
  case ANEURALNETWORKS_PAD: case ANEURALNETWORKS_PAD_V2:
  case ANEURALNETWORKS_MIRROR_PAD:
    return padOp();
  case ANEURALNETWORKS_REVERSE:
    return reverse();
  case ANEURALNETWORKS_CHANNEL_SHUFFLE:
    return channelShuffle();
  case ANEURALNETWORKS_DEPTH_TO_SPACE: case ANEURALNETWORKS_SPACE_TO_DEPTH:
    return depthSpace();
  case ANEURALNETWORKS_GATHER: case ANEURALNETWORKS_SPLIT:
    return axis(role::axis);
  case ANEURALNETWORKS_SLICE:
    return slice();
  case ANEURALNETWORKS_STRIDED_SLICE:
    return stridedSlice();
  case ANEURALNETWORKS_MEAN: case ANEURALNETWORKS_REDUCE_SUM:
  case ANEURALNETWORKS_REDUCE_MAX: case ANEURALNETWORKS_REDUCE_MIN:
  case ANEURALNETWORKS_REDUCE_PROD: case ANEURALNETWORKS_REDUCE_ANY:
  case ANEURALNETWORKS_REDUCE_ALL:
    return reduce();
  case ANEURALNETWORKS_BATCH_MATMUL:
    return batchMatmul();
  case ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_LSTM:
    return sequenceLstm();
  case ANEURALNETWORKS_UNIDIRECTIONAL_SEQUENCE_RNN:
    return sequenceRnn();
  default:
    // The rule's operations without parameters to decode.
    if (spec::hasShapeRule(op.opcode))
      return 0;
    return fail(ANEURALNETWORKS_BAD_DATA,
                "operation " + std::to_string(index) + ": opcode " +
                    std::to_string(op.opcode) +
                    " is not implemented by the host NNAPI implementation");
  }
}

} // namespace

int validateModel(HostModel &m) {
  std::vector<bool> defined(m.operands.size(), false);
  for (size_t i = 0; i < m.operands.size(); ++i) {
    const Operand &o = m.operands[i];
    if (o.kind == Kind::Constant || o.kind == Kind::Input ||
        o.kind == Kind::Omitted || o.kind == Kind::Model)
      defined[i] = true;
    if (o.type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL &&
        o.channelScales.empty())
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "operand " + std::to_string(i) +
                      " is TENSOR_QUANT8_SYMM_PER_CHANNEL without its scales "
                      "(ANeuralNetworksModel_setOperandSymmPerChannelQuantParams)");
    if (o.type == ANEURALNETWORKS_MODEL && o.kind != Kind::Model)
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "operand " + std::to_string(i) +
                      " is a MODEL without a model "
                      "(ANeuralNetworksModel_setOperandValueFromModel)");
    if (!isScalar(o.type))
      for (uint32_t d : o.dims)
        if (d == 0)
          return fail(ANEURALNETWORKS_BAD_DATA,
                      "operand " + std::to_string(i) +
                          " has an unspecified dimension; the host "
                          "implementation needs static shapes");
  }
  m.params.assign(m.operations.size(), OpParams());
  m.layouts.assign(m.operations.size(), spec::Match());
  for (size_t i = 0; i < m.operations.size(); ++i) {
    const Operation &op = m.operations[i];
    for (uint32_t idx : op.inputs)
      if (!defined[idx])
        return fail(ANEURALNETWORKS_BAD_DATA,
                    "operation " + std::to_string(i) + " reads operand " +
                        std::to_string(idx) +
                        " before any operation writes it");
    if (int rc = Validator(m, op, i, m.params[i], m.layouts[i]).run())
      return rc;
    for (uint32_t idx : op.outputs) {
      if (defined[idx])
        return fail(ANEURALNETWORKS_BAD_DATA,
                    "operand " + std::to_string(idx) + " is written twice");
      defined[idx] = true;
    }
  }
  for (uint32_t idx : m.outputs)
    if (!defined[idx])
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "model output operand " + std::to_string(idx) +
                      " is never written");
  return ANEURALNETWORKS_NO_ERROR;
}

} // namespace nnapi_mlir::host
