//===- Shapes.cpp - The output-shape rules of NNAPI operations ------------===//
//
// One rule per operation family, reading operands by role (Layouts.h). The
// rules compute in 64 bits and refuse sizes past 2^31 - 1 (NNAPI's
// dimensions are uint32, its sizes and paddings int32).
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/NNAPI/Shapes.h"

#include "nnapi-mlir/NNAPI/NeuralNetworks.h"
#include "nnapi-mlir/Support/Half.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>

namespace nnapi_mlir::spec {

namespace {
template <typename T> std::string listStr(const std::vector<T> &values) {
  std::string r = "[";
  for (size_t i = 0; i < values.size(); ++i)
    r += (i ? "," : "") + std::to_string(values[i]);
  return r + "]";
}
} // namespace

std::string dimsStr(const Dims &dims) { return listStr(dims); }

float floatScalar(int32_t type, const uint8_t *bytes) {
  if (type == ANEURALNETWORKS_FLOAT16) {
    uint16_t h;
    std::memcpy(&h, bytes, 2);
    return halfToFloat(h);
  }
  float v;
  std::memcpy(&v, bytes, 4);
  return v;
}

bool broadcastDims(const Dims &a, const Dims &b, Dims &out) {
  size_t rank = std::max(a.size(), b.size());
  out.assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    uint32_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    uint32_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return false;
    out[i] = da == 1 ? db : da;
  }
  return true;
}

void implicitPadding(int32_t paddingCode, int32_t inSize, int32_t stride,
                     int32_t filterSize, int32_t dilation, int32_t &padHead,
                     int32_t &padTail) {
  padHead = padTail = 0;
  if (paddingCode != ANEURALNETWORKS_PADDING_SAME || stride <= 0)
    return;
  // 64-bit: dilations and strides near 2^31 must not overflow.
  int64_t effective = int64_t(filterSize - 1) * dilation + 1;
  int64_t outSize = (int64_t(inSize) + stride - 1) / stride;
  int64_t total =
      std::max<int64_t>((outSize - 1) * stride + effective - inSize, 0);
  total = std::min<int64_t>(total, std::numeric_limits<int32_t>::max());
  padHead = int32_t(total / 2);
  padTail = int32_t(total - padHead);
}

int32_t windowOutputSize(int32_t inSize, int32_t filterSize, int32_t stride,
                         int32_t dilation, int32_t padHead, int32_t padTail) {
  int64_t effective = int64_t(filterSize - 1) * dilation + 1;
  int64_t span = int64_t(inSize) + padHead + padTail - effective;
  if (span < 0 || stride <= 0)
    return 0;
  int64_t size = span / stride + 1;
  return size > std::numeric_limits<int32_t>::max() ? 0 : int32_t(size);
}

bool stridedSliceAxis(uint32_t dim, uint32_t d, int32_t begin, int32_t end,
                      int32_t stride, const StridedSliceMasks &masks,
                      SliceAxis &out, std::string &error) {
  int64_t size = dim, st = stride;
  out.shrink = (masks.shrinkAxis >> d) & 1;
  if (st == 0) {
    error = "strides must not be 0 (dimension " + std::to_string(d) + ")";
    return false;
  }
  // Negative indices count from the end; a mask takes the whole range.
  auto resolve = [&](int64_t v, bool whole, bool isEnd) {
    if (whole)
      return isEnd ? (st > 0 ? size : int64_t(-1))
                   : (st > 0 ? int64_t(0) : size - 1);
    v = v < 0 ? v + size : v;
    return st > 0 ? std::clamp<int64_t>(v, 0, size)
                  : std::clamp<int64_t>(v, -1, size - 1);
  };
  int64_t b = resolve(begin, !out.shrink && ((masks.begin >> d) & 1), false);
  int64_t e = resolve(end, (masks.end >> d) & 1, true);
  if (out.shrink) {
    // One element, at begin.
    if (b < 0 || b >= size) {
      error = "the shrunk dimension " + std::to_string(d) +
              " begins outside the input";
      return false;
    }
    st = 1;
    e = b + 1;
  }
  int64_t count = st > 0 ? (e - b + st - 1) / st : (b - e - st - 1) / -st;
  if (count <= 0) {
    error = "dimension " + std::to_string(d) + " of the output would be empty";
    return false;
  }
  out.begin = int32_t(b);
  out.stride = int32_t(st);
  out.count = uint32_t(count);
  return true;
}

namespace {

constexpr int64_t kLargest = std::numeric_limits<int32_t>::max();

/// Operations whose output has the shape of their "input" and the
/// operation's data type (or the declared type: the conversions).
bool keepsShape(int32_t code) {
  switch (code) {
  case ANEURALNETWORKS_RELU: case ANEURALNETWORKS_RELU1:
  case ANEURALNETWORKS_RELU6: case ANEURALNETWORKS_LOGISTIC:
  case ANEURALNETWORKS_TANH: case ANEURALNETWORKS_EXP:
  case ANEURALNETWORKS_LOG: case ANEURALNETWORKS_SQRT:
  case ANEURALNETWORKS_RSQRT: case ANEURALNETWORKS_ABS:
  case ANEURALNETWORKS_NEG: case ANEURALNETWORKS_FLOOR:
  case ANEURALNETWORKS_SIN: case ANEURALNETWORKS_HARD_SWISH:
  case ANEURALNETWORKS_ELU: case ANEURALNETWORKS_SOFTMAX:
  case ANEURALNETWORKS_LOG_SOFTMAX: case ANEURALNETWORKS_L2_NORMALIZATION:
  case ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION:
  case ANEURALNETWORKS_INSTANCE_NORMALIZATION:
  case ANEURALNETWORKS_LOGICAL_NOT: case ANEURALNETWORKS_CAST:
  case ANEURALNETWORKS_QUANTIZE: case ANEURALNETWORKS_DEQUANTIZE:
    return true;
  default:
    return false;
  }
}

/// Numpy-broadcasting operations of two inputs.
bool broadcasts(int32_t code) {
  switch (code) {
  case ANEURALNETWORKS_ADD: case ANEURALNETWORKS_SUB:
  case ANEURALNETWORKS_MUL: case ANEURALNETWORKS_DIV:
  case ANEURALNETWORKS_MAXIMUM: case ANEURALNETWORKS_MINIMUM:
  case ANEURALNETWORKS_POW: case ANEURALNETWORKS_PRELU:
  case ANEURALNETWORKS_EQUAL: case ANEURALNETWORKS_NOT_EQUAL:
  case ANEURALNETWORKS_GREATER: case ANEURALNETWORKS_GREATER_EQUAL:
  case ANEURALNETWORKS_LESS: case ANEURALNETWORKS_LESS_EQUAL:
  case ANEURALNETWORKS_LOGICAL_AND: case ANEURALNETWORKS_LOGICAL_OR:
    return true;
  default:
    return false;
  }
}

bool boolResult(int32_t code) {
  switch (code) {
  case ANEURALNETWORKS_EQUAL: case ANEURALNETWORKS_NOT_EQUAL:
  case ANEURALNETWORKS_GREATER: case ANEURALNETWORKS_GREATER_EQUAL:
  case ANEURALNETWORKS_LESS: case ANEURALNETWORKS_LESS_EQUAL:
  case ANEURALNETWORKS_LOGICAL_AND: case ANEURALNETWORKS_LOGICAL_OR:
  case ANEURALNETWORKS_LOGICAL_NOT:
    return true;
  default:
    return false;
  }
}

class Rule {
public:
  Rule(int32_t code, const Match &layout,
       const std::vector<ShapeOperand> &inputs,
       std::vector<ShapeResult> &outputs, std::string &error)
      : code(code), layout(layout), inputs(inputs), outputs(outputs),
        error(error) {}

  bool run();

  // The rules, one per operation family (kRuleTable says which is whose).
  bool window();
  bool transposeConv();
  bool resize();
  bool fullyConnected();
  bool reshape();
  bool concatenation();
  bool transpose();
  bool pad();
  bool reduce();
  bool batchMatmul();
  bool argExtreme();
  bool select();
  bool channelShuffle();
  bool reverse();
  bool depthSpace(bool toSpace);
  bool depthToSpace();
  bool spaceToDepth();
  bool gather();
  bool slice();
  bool stridedSlice();
  bool split();
  bool tile();

private:
  int32_t code;
  const Match &layout;
  const std::vector<ShapeOperand> &inputs;
  std::vector<ShapeResult> &outputs;
  std::string &error;

  bool bad(std::string message) {
    error = std::move(message);
    return false;
  }
  bool has(RoleName role) const { return layout.input(role) >= 0; }
  const ShapeOperand &in(RoleName role) const {
    int position = layout.input(role);
    assert(position >= 0 && "a role of the matched form");
    return inputs[size_t(position)];
  }
  const Dims &dims(RoleName role) const { return *in(role).dims; }
  /// A constant scalar's value (the layout makes scalars constants).
  int32_t i32(RoleName role) const {
    int32_t v = 0;
    if (const uint8_t *p = in(role).value)
      std::memcpy(&v, p, 4);
    return v;
  }
  bool flag(RoleName role) const {
    const uint8_t *p = in(role).value;
    return p && p[0] != 0;
  }
  /// Scalar `role`, or what NNAPI reads when the operation leaves its
  /// optional group out (the layout's Role::absent).
  int32_t i32Or(RoleName role) const {
    return has(role) ? i32(role) : layout.absentInput(role).value_or(0);
  }
  bool flagOr(RoleName role) const {
    return has(role) ? flag(role) : layout.absentInput(role).value_or(0) != 0;
  }
  float real(RoleName role) const {
    const ShapeOperand &o = in(role);
    return o.value ? floatScalar(o.type, o.value) : 0.0f;
  }
  /// A constant TENSOR_INT32 of `role`, all of its elements.
  bool int32s(RoleName role, std::vector<int32_t> &values) {
    const ShapeOperand &o = in(role);
    uint64_t count = 1;
    for (uint32_t d : *o.dims)
      count *= d;
    values.assign(size_t(count), 0);
    if (count && !o.value)
      return bad(std::string(role) + " must be a constant");
    if (count)
      std::memcpy(values.data(), o.value, size_t(count) * sizeof(int32_t));
    return true;
  }
  bool positive(RoleName role, int32_t &value) {
    value = i32(role);
    if (value < 1)
      return bad(std::string(role) + " must be positive");
    return true;
  }
  /// An axis of a rank-`rank` tensor (negative counts from the end).
  /// INT32 `role` (or its absent value, the last axis) as an axis of a
  /// tensor of rank `rank`.
  bool axis(RoleName role, uint32_t rank, uint32_t &resolved) {
    int32_t a = i32Or(role), r = int32_t(rank);
    if (a < -r || a >= r)
      return bad("axis " + std::to_string(a) + " out of range");
    resolved = uint32_t(a < 0 ? a + r : a);
    return true;
  }
  void result(Dims dims, int32_t type) {
    outputs.push_back({type, std::move(dims)});
  }
  void result(Dims dims) { result(std::move(dims), layout.dataType); }

};

/// Each operation with a rule of its own (besides the shape-keeping and
/// broadcasting families), once: run() dispatches on it and hasShapeRule()
/// reads it.
struct RuleEntry {
  int32_t code;
  bool (Rule::*rule)();
};
const RuleEntry kRuleTable[] = {
    {ANEURALNETWORKS_ARGMAX, &Rule::argExtreme},
    {ANEURALNETWORKS_ARGMIN, &Rule::argExtreme},
    {ANEURALNETWORKS_SELECT, &Rule::select},
    {ANEURALNETWORKS_CONV_2D, &Rule::window},
    {ANEURALNETWORKS_DEPTHWISE_CONV_2D, &Rule::window},
    {ANEURALNETWORKS_GROUPED_CONV_2D, &Rule::window},
    {ANEURALNETWORKS_AVERAGE_POOL_2D, &Rule::window},
    {ANEURALNETWORKS_MAX_POOL_2D, &Rule::window},
    {ANEURALNETWORKS_TRANSPOSE_CONV_2D, &Rule::transposeConv},
    {ANEURALNETWORKS_RESIZE_BILINEAR, &Rule::resize},
    {ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR, &Rule::resize},
    {ANEURALNETWORKS_FULLY_CONNECTED, &Rule::fullyConnected},
    {ANEURALNETWORKS_RESHAPE, &Rule::reshape},
    {ANEURALNETWORKS_CONCATENATION, &Rule::concatenation},
    {ANEURALNETWORKS_TRANSPOSE, &Rule::transpose},
    {ANEURALNETWORKS_PAD, &Rule::pad},
    {ANEURALNETWORKS_PAD_V2, &Rule::pad},
    {ANEURALNETWORKS_MIRROR_PAD, &Rule::pad},
    {ANEURALNETWORKS_MEAN, &Rule::reduce},
    {ANEURALNETWORKS_REDUCE_SUM, &Rule::reduce},
    {ANEURALNETWORKS_REDUCE_MAX, &Rule::reduce},
    {ANEURALNETWORKS_REDUCE_MIN, &Rule::reduce},
    {ANEURALNETWORKS_REDUCE_PROD, &Rule::reduce},
    {ANEURALNETWORKS_REDUCE_ANY, &Rule::reduce},
    {ANEURALNETWORKS_REDUCE_ALL, &Rule::reduce},
    {ANEURALNETWORKS_BATCH_MATMUL, &Rule::batchMatmul},
    {ANEURALNETWORKS_DEPTH_TO_SPACE, &Rule::depthToSpace},
    {ANEURALNETWORKS_SPACE_TO_DEPTH, &Rule::spaceToDepth},
    {ANEURALNETWORKS_CHANNEL_SHUFFLE, &Rule::channelShuffle},
    {ANEURALNETWORKS_REVERSE, &Rule::reverse},
    {ANEURALNETWORKS_GATHER, &Rule::gather},
    {ANEURALNETWORKS_SLICE, &Rule::slice},
    {ANEURALNETWORKS_STRIDED_SLICE, &Rule::stridedSlice},
    {ANEURALNETWORKS_SPLIT, &Rule::split},
    {ANEURALNETWORKS_TILE, &Rule::tile},
};

bool Rule::run() {
  outputs.clear();
  if (keepsShape(code)) {
    int32_t type = boolResult(code) ? ANEURALNETWORKS_TENSOR_BOOL8
                   : code == ANEURALNETWORKS_CAST ||
                           code == ANEURALNETWORKS_QUANTIZE ||
                           code == ANEURALNETWORKS_DEQUANTIZE
                       ? -1
                       : layout.dataType;
    result(dims(role::input), type);
    return true;
  }
  if (broadcasts(code)) {
    bool prelu = code == ANEURALNETWORKS_PRELU;
    const Dims &a = dims(prelu ? role::input : role::input0);
    const Dims &b = dims(prelu ? role::alpha : role::input1);
    Dims shape;
    if (!broadcastDims(a, b, shape))
      return bad("shapes " + dimsStr(a) + " and " + dimsStr(b) +
                 " do not broadcast");
    result(std::move(shape),
           boolResult(code) ? ANEURALNETWORKS_TENSOR_BOOL8 : layout.dataType);
    return true;
  }
  for (const RuleEntry &entry : kRuleTable)
    if (entry.code == code)
      return (this->*entry.rule)();
  return bad("no output-shape rule for this operation");
}

bool Rule::argExtreme() {
  Dims shape = dims(role::input);
  uint32_t a;
  if (!axis(role::axis, uint32_t(shape.size()), a))
    return false;
  shape.erase(shape.begin() + a);
  result(std::move(shape), ANEURALNETWORKS_TENSOR_INT32);
  return true;
}

bool Rule::select() {
  if (dims(role::true_values) != dims(role::condition) ||
      dims(role::false_values) != dims(role::condition))
    return bad("the condition and the choices must have one shape (SELECT "
               "does not broadcast)");
  result(dims(role::condition));
  return true;
}

bool Rule::channelShuffle() {
  int32_t groups;
  uint32_t a;
  if (!positive(role::num_groups, groups) ||
      !axis(role::axis, uint32_t(dims(role::input).size()), a))
    return false;
  if (dims(role::input)[a] % uint32_t(groups))
    return bad("num_groups " + std::to_string(groups) +
               " does not divide dimension " + std::to_string(a) + " (" +
               std::to_string(dims(role::input)[a]) + ")");
  result(dims(role::input));
  return true;
}

bool Rule::reverse() {
  std::vector<int32_t> axes;
  if (!int32s(role::axis, axes))
    return false;
  if (axes.size() != 1)
    return bad("axis must have 1 element, got " + std::to_string(axes.size()));
  if (axes[0] < 0 || size_t(axes[0]) >= dims(role::input).size())
    return bad("axis " + std::to_string(axes[0]) + " out of range");
  result(dims(role::input));
  return true;
}

bool Rule::depthToSpace() { return depthSpace(true); }
bool Rule::spaceToDepth() { return depthSpace(false); }

/// Convolutions and pooling: [N, OH, OW, C] (NHWC) or [N, C, OH, OW] (with
/// the layout flag set), OH and OW from the padded, dilated window.
bool Rule::window() {
  const Dims &is = dims(role::input);
  bool nchw = flagOr(role::layout);
  uint32_t hDim = nchw ? 2 : 1, wDim = nchw ? 3 : 2, cDim = nchw ? 1 : 3;
  int32_t strideW, strideH, dilationW = 1, dilationH = 1;
  if (!positive(role::stride_w, strideW) || !positive(role::stride_h, strideH))
    return false;
  if (has(role::dilation_w) && (!positive(role::dilation_w, dilationW) ||
                                !positive(role::dilation_h, dilationH)))
    return false;
  int32_t filterH, filterW;
  uint32_t channels;
  bool pool = code == ANEURALNETWORKS_AVERAGE_POOL_2D ||
              code == ANEURALNETWORKS_MAX_POOL_2D;
  if (pool) {
    if (!positive(role::filter_w, filterW) ||
        !positive(role::filter_h, filterH))
      return false;
    channels = is[cDim];
  } else {
    const Dims &fs = dims(role::filter);
    filterH = int32_t(fs[1]);
    filterW = int32_t(fs[2]);
    channels = code == ANEURALNETWORKS_DEPTHWISE_CONV_2D ? fs[3] : fs[0];
    if (code == ANEURALNETWORKS_DEPTHWISE_CONV_2D) {
      int32_t multiplier;
      if (!positive(role::depth_multiplier, multiplier))
        return false;
      if (fs[0] != 1)
        return bad("depthwise filter must have shape [1, kh, kw, out]");
      if (uint64_t(is[cDim]) * uint64_t(multiplier) != fs[3])
        return bad("depthwise output depth " + std::to_string(fs[3]) +
                   " != input depth " + std::to_string(is[cDim]) +
                   " * depth multiplier " + std::to_string(multiplier));
    } else if (code == ANEURALNETWORKS_GROUPED_CONV_2D) {
      int32_t groups;
      if (!positive(role::num_groups, groups))
        return false;
      uint32_t g = uint32_t(groups);
      if (is[cDim] % g || fs[0] % g)
        return bad("num_groups " + std::to_string(g) +
                   " does not divide the input depth " +
                   std::to_string(is[cDim]) + " and the output depth " +
                   std::to_string(fs[0]));
      if (uint64_t(fs[3]) * g != is[cDim])
        return bad("filter depth " + std::to_string(fs[3]) +
                   " times num_groups " + std::to_string(g) +
                   " does not match input depth " + std::to_string(is[cDim]));
    } else if (fs[3] != is[cDim]) {
      return bad("filter input depth " + std::to_string(fs[3]) +
                 " does not match input depth " + std::to_string(is[cDim]));
    }
    if (dims(role::bias)[0] != channels)
      return bad("bias size " + std::to_string(dims(role::bias)[0]) +
                 " does not match output depth " + std::to_string(channels));
  }
  int32_t pads[4] = {0, 0, 0, 0}; // left, right, top, bottom
  if (has(role::padding_scheme)) {
    int32_t scheme = i32(role::padding_scheme);
    if (scheme != ANEURALNETWORKS_PADDING_SAME &&
        scheme != ANEURALNETWORKS_PADDING_VALID)
      return bad("invalid padding scheme " + std::to_string(scheme));
    implicitPadding(scheme, int32_t(is[wDim]), strideW, filterW, dilationW,
                    pads[0], pads[1]);
    implicitPadding(scheme, int32_t(is[hDim]), strideH, filterH, dilationH,
                    pads[2], pads[3]);
  } else {
    const RoleName roles[] = {role::pad_left, role::pad_right, role::pad_top,
                              role::pad_bottom};
    for (size_t i = 0; i < 4; ++i)
      if ((pads[i] = i32(roles[i])) < 0)
        return bad("padding must be non-negative");
  }
  if (int64_t(is[hDim]) + pads[2] + pads[3] > kLargest ||
      int64_t(is[wDim]) + pads[0] + pads[1] > kLargest)
    return bad("the padded input is larger than 2^31 - 1");
  int32_t oh = windowOutputSize(int32_t(is[hDim]), filterH, strideH,
                                dilationH, pads[2], pads[3]);
  int32_t ow = windowOutputSize(int32_t(is[wDim]), filterW, strideW,
                                dilationW, pads[0], pads[1]);
  if (oh <= 0 || ow <= 0) {
    bool height = oh <= 0;
    int64_t size = height ? filterH : filterW;
    int64_t dilation = height ? dilationH : dilationW;
    return bad("the window of " + std::to_string((size - 1) * dilation + 1) +
               " does not fit the " + (height ? "height " : "width ") +
               std::to_string(is[height ? hDim : wDim]) + " plus padding");
  }
  if (nchw)
    result({is[0], channels, uint32_t(oh), uint32_t(ow)});
  else
    result({is[0], uint32_t(oh), uint32_t(ow), channels});
  return true;
}

/// TRANSPOSE_CONV_2D: (in - 1) * stride + filter - paddings, or the output
/// shape operand of the implicit form.
bool Rule::transposeConv() {
  const Dims &is = dims(role::input), &fs = dims(role::filter);
  bool nchw = flagOr(role::layout);
  uint32_t hDim = nchw ? 2 : 1, wDim = nchw ? 3 : 2, cDim = nchw ? 1 : 3;
  if (fs[3] != is[cDim])
    return bad("filter input depth " + std::to_string(fs[3]) +
               " does not match input depth " + std::to_string(is[cDim]));
  if (dims(role::bias)[0] != fs[0])
    return bad("bias size " + std::to_string(dims(role::bias)[0]) +
               " does not match output depth " + std::to_string(fs[0]));
  int32_t strideW, strideH;
  if (!positive(role::stride_w, strideW) || !positive(role::stride_h, strideH))
    return false;
  int64_t outH, outW;
  if (has(role::output_shape)) {
    std::vector<int32_t> shape;
    if (!int32s(role::output_shape, shape))
      return false;
    if (shape.size() != 4)
      return bad("output_shape must have 4 elements");
    outH = shape[hDim];
    outW = shape[wDim];
  } else {
    int32_t pads[4];
    const RoleName roles[] = {role::pad_left, role::pad_right, role::pad_top,
                              role::pad_bottom};
    for (size_t i = 0; i < 4; ++i)
      if ((pads[i] = i32(roles[i])) < 0)
        return bad("padding must be non-negative");
    // In 64 bits: none of it wraps.
    outH = (int64_t(is[hDim]) - 1) * strideH + fs[1] - pads[2] - pads[3];
    outW = (int64_t(is[wDim]) - 1) * strideW + fs[2] - pads[0] - pads[1];
  }
  if (outH < 1 || outW < 1)
    return bad("padding crops the whole output");
  if (outH > kLargest || outW > kLargest)
    return bad("the output is larger than 2^31 - 1");
  if (nchw)
    result({is[0], fs[0], uint32_t(outH), uint32_t(outW)});
  else
    result({is[0], uint32_t(outH), uint32_t(outW), fs[0]});
  return true;
}

/// RESIZE_*: sizes given, or the input's scaled and rounded down.
bool Rule::resize() {
  const Dims &is = dims(role::input);
  bool nchw = flagOr(role::layout);
  uint32_t hDim = nchw ? 2 : 1, wDim = nchw ? 3 : 2;
  uint64_t size[2]; // width, height
  const RoleName roles[] = {role::output_width, role::output_height};
  for (size_t i : {0, 1}) {
    if (in(roles[i]).type == ANEURALNETWORKS_INT32) {
      int32_t v = i32(roles[i]);
      if (v < 1)
        return bad("output size must be positive");
      size[i] = uint64_t(v);
    } else {
      double scale = real(roles[i]);
      double v = std::floor(double(is[i ? hDim : wDim]) * scale);
      if (!(v >= 1.0) || v > double(kLargest))
        return bad("scale " + std::to_string(scale) +
                   " gives no valid output size");
      size[i] = uint64_t(v);
    }
  }
  Dims shape = is;
  shape[hDim] = uint32_t(size[1]);
  shape[wDim] = uint32_t(size[0]);
  result(std::move(shape));
  return true;
}

/// FULLY_CONNECTED: [rows, units], the input flattened into rows of the
/// weights' input size.
bool Rule::fullyConnected() {
  const Dims &ws = dims(role::weights);
  uint32_t units = ws[0], inSize = ws[1];
  uint64_t total = 1;
  for (uint32_t d : dims(role::input))
    total *= d;
  if (inSize == 0 || total % inSize != 0)
    return bad("input size " + std::to_string(total) +
               " is not a multiple of the weights' input size " +
               std::to_string(inSize));
  if (dims(role::bias)[0] != units)
    return bad("bias size " + std::to_string(dims(role::bias)[0]) +
               " does not match the number of units " + std::to_string(units));
  if (total / inSize > std::numeric_limits<uint32_t>::max())
    return bad("too many input rows");
  result({uint32_t(total / inSize), units});
  return true;
}

bool Rule::reshape() {
  std::vector<int32_t> entries;
  if (!int32s(role::shape, entries))
    return false;
  Dims target;
  uint64_t total = 1, known = 1;
  for (uint32_t d : dims(role::input))
    total *= d;
  int inferred = -1;
  for (size_t i = 0; i < entries.size(); ++i) {
    int32_t d = entries[i];
    if (d == -1) {
      if (inferred >= 0)
        return bad("shape has more than one -1");
      inferred = int(i);
      target.push_back(0);
      continue;
    }
    if (d <= 0)
      return bad("shape entries must be positive or -1");
    // known <= total before and after, so the product never wraps.
    if (uint64_t(d) > total / known)
      return bad("shape " + listStr(entries) + " has more elements than "
                 "the input's " + std::to_string(total));
    known *= uint64_t(d);
    target.push_back(uint32_t(d));
  }
  if (inferred >= 0) {
    if (total % known)
      return bad("cannot infer the -1 entry of the shape");
    target[size_t(inferred)] = uint32_t(total / known);
  } else if (known != total) {
    return bad("shape " + dimsStr(target) + " changes the element count " +
               "from " + std::to_string(total) + " to " +
               std::to_string(known));
  }
  result(std::move(target));
  return true;
}

bool Rule::concatenation() {
  size_t first = size_t(layout.input(role::input)),
         n = layout.inputCount(role::input);
  Dims shape = dims(role::input);
  uint32_t a;
  if (!axis(role::axis, uint32_t(shape.size()), a))
    return false;
  for (size_t i = first + 1; i < first + n; ++i) {
    const Dims &s = *inputs[i].dims;
    std::string which = "input " + std::to_string(i - first);
    if (s.size() != shape.size())
      return bad(which + " has rank " + std::to_string(s.size()) +
                 ", the first " + std::to_string(shape.size()));
    for (uint32_t d = 0; d < shape.size(); ++d)
      if (d != a && s[d] != shape[d])
        return bad(which + " differs from the first in dimension " +
                   std::to_string(d) + " (" + std::to_string(s[d]) + " vs " +
                   std::to_string(shape[d]) + "), not the concatenation "
                   "axis");
    if (uint64_t(shape[a]) + s[a] > std::numeric_limits<uint32_t>::max())
      return bad("concatenated dimension overflows");
    shape[a] += s[a];
  }
  result(std::move(shape));
  return true;
}

bool Rule::transpose() {
  const Dims &is = dims(role::input);
  uint32_t rank = uint32_t(is.size());
  std::vector<int32_t> perm;
  if (!has(role::perm)) {
    // Without perm, the dimensions are reversed.
    for (uint32_t d = rank; d-- > 0;)
      perm.push_back(int32_t(d));
  } else {
    if (!int32s(role::perm, perm))
      return false;
    if (perm.size() != rank)
      return bad("perm has shape " + dimsStr(dims(role::perm)) + ", expected " +
                 dimsStr({rank}));
  }
  std::vector<bool> seen(rank, false);
  Dims shape;
  for (int32_t p : perm) {
    if (p < 0 || uint32_t(p) >= rank || seen[size_t(p)])
      return bad("perm is not a permutation of the input's dimensions");
    seen[size_t(p)] = true;
    shape.push_back(is[size_t(p)]);
  }
  result(std::move(shape));
  return true;
}

/// PAD, PAD_V2, MIRROR_PAD: each dimension grows by its paddings; a mirror
/// reflects at most the dimension (less one for REFLECT).
bool Rule::pad() {
  const Dims &is = dims(role::input);
  Dims expected = {uint32_t(is.size()), 2};
  if (dims(role::paddings) != expected)
    return bad("paddings has shape " + dimsStr(dims(role::paddings)) +
               ", expected " + dimsStr(expected));
  std::vector<int32_t> pads;
  if (!int32s(role::paddings, pads))
    return false;
  bool mirror = has(role::mode), reflect = false;
  if (mirror) {
    int32_t mode = i32(role::mode);
    if (mode != 0 && mode != 1)
      return bad("mirror pad mode must be 0 (REFLECT) or 1 (SYMMETRIC), got " +
                 std::to_string(mode));
    reflect = mode == 0;
  }
  Dims shape;
  for (size_t d = 0; d < is.size(); ++d) {
    int32_t before = pads[2 * d], after = pads[2 * d + 1];
    if (before < 0 || after < 0)
      return bad("paddings must be non-negative");
    if (mirror) {
      int64_t limit = int64_t(is[d]) - (reflect ? 1 : 0);
      if (before > limit || after > limit)
        return bad("mirror padding of dimension " + std::to_string(d) +
                   " exceeds " + std::to_string(limit) + " (" +
                   (reflect ? "REFLECT" : "SYMMETRIC") +
                   " mirrors at most that much of " + std::to_string(is[d]) +
                   ")");
    }
    uint64_t size = uint64_t(is[d]) + uint64_t(before) + uint64_t(after);
    if (size > uint64_t(kLargest))
      return bad("the padded dimension " + std::to_string(d) +
                 " is larger than 2^31 - 1");
    shape.push_back(uint32_t(size));
  }
  result(std::move(shape));
  return true;
}

/// MEAN and REDUCE_*: the axes go (or stay as 1 with keep_dims); an axis may
/// repeat; reducing every axis without keep_dims leaves [1].
bool Rule::reduce() {
  const Dims &is = dims(role::input);
  int32_t rank = int32_t(is.size());
  std::vector<int32_t> axes;
  if (!int32s(role::axes, axes))
    return false;
  // MEAN's keep_dims is an INT32 (positive keeps); REDUCE_*'s a BOOL.
  bool keep = in(role::keep_dims).type == ANEURALNETWORKS_INT32
                  ? i32(role::keep_dims) > 0
                  : flag(role::keep_dims);
  if (axes.empty())
    return bad("axes is empty");
  std::vector<bool> reduced(is.size(), false);
  for (int32_t a : axes) {
    if (a < -rank || a >= rank)
      return bad("axis " + std::to_string(a) + " out of range");
    reduced[size_t(a < 0 ? a + rank : a)] = true;
  }
  Dims shape;
  for (size_t d = 0; d < is.size(); ++d) {
    if (!reduced[d])
      shape.push_back(is[d]);
    else if (keep)
      shape.push_back(1);
  }
  if (shape.empty())
    shape.push_back(1);
  result(std::move(shape), in(role::input).type);
  return true;
}

/// BATCH_MATMUL: equal batch dimensions, [..., M, K] x [..., K, N], either
/// side adjoint.
bool Rule::batchMatmul() {
  bool adjA = flagOr(role::adj_x), adjB = flagOr(role::adj_y);
  const Dims &as = dims(role::input0), &bs = dims(role::input1);
  if (as.size() != bs.size())
    return bad("inputs have ranks " + std::to_string(as.size()) + " and " +
               std::to_string(bs.size()) + "; they must be equal");
  size_t r = as.size();
  if (!std::equal(as.begin(), as.end() - 2, bs.begin()))
    return bad("batch dimensions differ");
  uint32_t m0 = adjA ? as[r - 1] : as[r - 2];
  uint32_t k0 = adjA ? as[r - 2] : as[r - 1];
  uint32_t k1 = adjB ? bs[r - 1] : bs[r - 2];
  uint32_t n1 = adjB ? bs[r - 2] : bs[r - 1];
  if (k0 != k1)
    return bad("contracting dimensions differ (" + std::to_string(k0) +
               " vs " + std::to_string(k1) + ")");
  Dims shape(as.begin(), as.end() - 2);
  shape.push_back(m0);
  shape.push_back(n1);
  result(std::move(shape));
  return true;
}

} // namespace

/// DEPTH_TO_SPACE (`toSpace`) and SPACE_TO_DEPTH, NHWC or NCHW.
bool Rule::depthSpace(bool toSpace) {
  int32_t block;
  if (!positive(role::block_size, block))
    return false;
  Dims shape = dims(role::input);
  bool nchw = flagOr(role::layout);
  uint64_t b = uint64_t(block);
  size_t h = nchw ? 2 : 1, w = h + 1, c = nchw ? 1 : 3;
  if (toSpace) {
    if (shape[c] % (b * b))
      return bad("depth " + std::to_string(shape[c]) +
                 " is not a multiple of block_size^2");
    if (uint64_t(shape[h]) * b > uint64_t(kLargest) ||
        uint64_t(shape[w]) * b > uint64_t(kLargest))
      return bad("the output is larger than 2^31 - 1");
    shape[c] = uint32_t(shape[c] / (b * b));
    shape[h] = uint32_t(shape[h] * b);
    shape[w] = uint32_t(shape[w] * b);
  } else {
    if (shape[h] % b || shape[w] % b)
      return bad("height and width must be multiples of block_size " +
                 std::to_string(b));
    if (uint64_t(shape[c]) * b * b > uint64_t(kLargest))
      return bad("the output depth is larger than 2^31 - 1");
    shape[c] = uint32_t(shape[c] * b * b);
    shape[h] = uint32_t(shape[h] / b);
    shape[w] = uint32_t(shape[w] / b);
  }
  result(std::move(shape));
  return true;
}

/// The input's dimensions before `axis`, the indices', then the input's
/// after it. Constant indices are checked here; computed ones by the
/// kernel.
bool Rule::gather() {
  const Dims &is = dims(role::input);
  uint32_t a;
  if (!axis(role::axis, uint32_t(is.size()), a))
    return false;
  const ShapeOperand &idx = in(role::indices);
  if (idx.value) {
    std::vector<int32_t> constant;
    if (!int32s(role::indices, constant))
      return false;
    for (int32_t i : constant)
      if (i < 0 || uint32_t(i) >= is[a])
        return bad("index " + std::to_string(i) + " is outside dimension " +
                   std::to_string(a) + " of size " + std::to_string(is[a]));
  }
  Dims shape(is.begin(), is.begin() + a);
  shape.insert(shape.end(), idx.dims->begin(), idx.dims->end());
  shape.insert(shape.end(), is.begin() + a + 1, is.end());
  if (shape.size() > 4)
    return bad("the output has rank " + std::to_string(shape.size()) +
               ", more than 4");
  result(std::move(shape));
  return true;
}

bool Rule::slice() {
  const Dims &is = dims(role::input);
  std::vector<int32_t> begins, sizes;
  if (!int32s(role::begin, begins) || !int32s(role::size, sizes))
    return false;
  if (begins.size() != is.size() || sizes.size() != is.size())
    return bad("begin and size must have " + std::to_string(is.size()) +
               " elements, one per dimension");
  Dims shape;
  for (size_t d = 0; d < is.size(); ++d) {
    int64_t b = begins[d], n = sizes[d];
    if (b < 0 || b >= int64_t(is[d]))
      return bad("begin " + std::to_string(b) + " is outside dimension " +
                 std::to_string(d) + " of size " + std::to_string(is[d]));
    if (n == -1) // to the end of the dimension
      n = int64_t(is[d]) - b;
    if (n < 1 || b + n > int64_t(is[d]))
      return bad("size " + std::to_string(sizes[d]) + " from " +
                 std::to_string(b) + " does not fit dimension " +
                 std::to_string(d) + " of size " + std::to_string(is[d]));
    shape.push_back(uint32_t(n));
  }
  result(std::move(shape));
  return true;
}

bool Rule::stridedSlice() {
  const Dims &is = dims(role::input);
  std::vector<int32_t> begins, ends, strides;
  if (!int32s(role::begin, begins) || !int32s(role::end, ends) ||
      !int32s(role::strides, strides))
    return false;
  if (begins.size() != is.size() || ends.size() != is.size() ||
      strides.size() != is.size())
    return bad("begin, end and strides must have " +
               std::to_string(is.size()) + " elements, one per dimension");
  StridedSliceMasks masks{i32(role::begin_mask), i32(role::end_mask),
                          i32(role::shrink_axis_mask)};
  Dims shape;
  for (uint32_t d = 0; d < is.size(); ++d) {
    SliceAxis s;
    if (!stridedSliceAxis(is[d], d, begins[d], ends[d], strides[d], masks, s,
                          error))
      return false;
    if (!s.shrink)
      shape.push_back(s.count);
  }
  result(std::move(shape));
  return true;
}

/// num_splits outputs of equal size along the axis.
bool Rule::split() {
  Dims shape = dims(role::input);
  uint32_t a;
  int32_t parts;
  if (!axis(role::axis, uint32_t(shape.size()), a) ||
      !positive(role::num_splits, parts))
    return false;
  if (shape[a] % uint32_t(parts))
    return bad("num_splits " + std::to_string(parts) +
               " does not divide dimension " + std::to_string(a) +
               " of size " + std::to_string(shape[a]));
  shape[a] /= uint32_t(parts);
  for (int32_t i = 0; i < parts; ++i)
    result(shape);
  return true;
}

bool Rule::tile() {
  const Dims &is = dims(role::input);
  std::vector<int32_t> multiples;
  if (!int32s(role::multiples, multiples))
    return false;
  if (multiples.size() != is.size())
    return bad("multiples must have " + std::to_string(is.size()) +
               " elements, one per dimension");
  Dims shape;
  uint64_t total = 1;
  for (size_t d = 0; d < is.size(); ++d) {
    if (multiples[d] < 1)
      return bad("multiples must be positive");
    uint64_t size = uint64_t(is[d]) * uint64_t(multiples[d]);
    total *= size;
    if (size > std::numeric_limits<uint32_t>::max() ||
        total > std::numeric_limits<uint32_t>::max())
      return bad("the tiled tensor has more than 2^32 - 1 elements");
    shape.push_back(uint32_t(size));
  }
  result(std::move(shape));
  return true;
}

bool hasShapeRule(int32_t code) {
  return keepsShape(code) || broadcasts(code) ||
         std::any_of(std::begin(kRuleTable), std::end(kRuleTable),
                     [&](const RuleEntry &e) { return e.code == code; });
}

bool inferShapes(int32_t code, const Match &layout,
                 const std::vector<ShapeOperand> &inputs,
                 std::vector<ShapeResult> &outputs, std::string &error) {
  return Rule(code, layout, inputs, outputs, error).run();
}

} // namespace nnapi_mlir::spec
