//===- Validation.cpp - NNAPI operand rules of the host device ------------===//
//
// Checks each operation of a model the way a driver must before it accepts
// the model: first its operands against the operation's layout in the NNAPI
// spec (counts, types, ranks, constants, the feature level this use needs;
// nnapi-mlir/NNAPI/Layouts.h), then what the spec cannot say: scalar values,
// shapes, and the output shape the operation computes. Operands are read by
// their role's name, never by position. The decoded scalar parameters (padding,
// strides, fused activation, axis...) are kept in HostModel::params so that
// compilation and execution never decode operands again.
//
//===----------------------------------------------------------------------===//

#include "HostModel.h"
#include "OpKinds.h"

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
    return fail(ANEURALNETWORKS_BAD_DATA,
                "operation " + std::to_string(index) + " (opcode " +
                    std::to_string(op.opcode) + "): " + msg);
  }
  /// Checks the operands against the operation's layout in the NNAPI spec
  /// (counts, types, ranks, constants) and fills `layout`.
  int matchLayout();
  /// 8-bit quantized data: only the operations with quantized kernels, and
  /// NNAPI's rules for their bias and per-channel filter.
  int quantized();

  // Operands by role; the layout guarantees their types and ranks, and that
  // scalars are constants. `has` tells whether an optional one is there.
  bool has(std::string_view role) const { return layout.input(role) >= 0; }
  /// An omittable operand there with a value.
  bool given(std::string_view role) const {
    return has(role) && in(role).kind != Kind::Omitted;
  }
  uint32_t operandIndex(std::string_view role) const {
    int position = layout.input(role);
    assert(position >= 0 && "a role of the matched form");
    return op.inputs[size_t(position)];
  }
  const Operand &in(std::string_view role) const {
    return m.operands[operandIndex(role)];
  }
  int32_t i32(std::string_view role) const { return m.i32(operandIndex(role)); }
  bool flag(std::string_view role) const { return m.b8(operandIndex(role)); }
  float real(std::string_view role) const { return m.f32(operandIndex(role)); }
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
    int32_t code = i32("fuse");
    if (code < 0 || code > 3)
      return bad("invalid fused activation code " + std::to_string(code));
    params.fuseCode = params.window.fuseCode = code;
    return 0;
  }
  /// INT32 scalar `role`, which must be positive.
  int positive(std::string_view role, int32_t &value) {
    value = i32(role);
    if (value < 1)
      return bad(std::string(role) + " must be positive");
    return 0;
  }
  /// A constant TENSOR_INT32 of `count` elements into `values`.
  int int32s(std::string_view role, size_t count,
             std::vector<int32_t> &values) {
    const Operand &o = in(role);
    if (numElements(o.dims) != count)
      return bad(std::string(role) + " has shape " + shapeStr(o.dims) +
                 ", expected " + shapeStr({uint32_t(count)}));
    values.resize(count);
    if (count)
      std::memcpy(values.data(), o.value, count * sizeof(int32_t));
    return 0;
  }
  /// INT32 scalar `role`, an axis of the input (negative counts from the
  /// end); params.axis gets it, non-negative.
  int axis(std::string_view role) {
    int32_t rank = int32_t(in("input").dims.size()), a = i32(role);
    if (a < -rank || a >= rank)
      return bad("axis " + std::to_string(a) + " out of range");
    params.axis = a < 0 ? a + rank : a;
    return 0;
  }
  int nhwc() {
    if (has("layout") && flag("layout"))
      return bad("NCHW layout is not supported by the host implementation");
    return 0;
  }
  /// The window of a convolution or pool: padding (explicit, or a scheme
  /// resolved once the filter is known), strides, fused activation.
  int window(int32_t &paddingCode);
  int windowOutput(const Shape &is, uint32_t channels);
  int broadcastOutput(const char *a, const char *b, int32_t type);
  int convLike(bool depthwise);
  int groupedConv();
  int transposeConv();
  int resize();
  int pool();
  int fullyConnected();
  int softmax();
  int instanceNorm();
  int localResponse();
  int reshape();
  int concatenation();
  int transpose();
  int padOp();
  int reverse();
  int channelShuffle();
  int depthSpace(bool toSpace);
  int gather();
  int slice();
  int stridedSlice();
  int split();
  int tile();
  int reduce();
  int batchMatmul();
  int sequenceLstm();
  int sequenceRnn();
};

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

int Validator::window(int32_t &paddingCode) {
  Window &w = params.window;
  if (has("padding_scheme")) {
    paddingCode = i32("padding_scheme");
    if (paddingCode != ANEURALNETWORKS_PADDING_SAME &&
        paddingCode != ANEURALNETWORKS_PADDING_VALID)
      return bad("invalid padding scheme " + std::to_string(paddingCode));
  } else {
    const char *roles[] = {"pad_left", "pad_right", "pad_top", "pad_bottom"};
    int32_t *pads[] = {&w.padLeft, &w.padRight, &w.padTop, &w.padBottom};
    for (size_t i = 0; i < 4; ++i) {
      *pads[i] = i32(roles[i]);
      if (*pads[i] < 0)
        return bad("padding must be non-negative");
    }
  }
  if (int rc = positive("stride_w", w.strideW))
    return rc;
  if (int rc = positive("stride_h", w.strideH))
    return rc;
  if (int rc = fuse())
    return rc;
  return nhwc();
}

/// Resolves implicit padding, checks that the (dilated) window fits the
/// padded input and that the output is [N, OH, OW, channels].
int Validator::windowOutput(const Shape &is, uint32_t channels) {
  Window &w = params.window;
  if (has("padding_scheme")) {
    int32_t code = i32("padding_scheme");
    computeImplicitPadding(code, is[2], w.strideW, params.filterW, w.dilationW,
                           w.padLeft, w.padRight);
    computeImplicitPadding(code, is[1], w.strideH, params.filterH, w.dilationH,
                           w.padTop, w.padBottom);
  }
  const int64_t largest = std::numeric_limits<int32_t>::max();
  if (int64_t(is[1]) + w.padTop + w.padBottom > largest ||
      int64_t(is[2]) + w.padLeft + w.padRight > largest)
    return bad("the padded input is larger than 2^31 - 1");
  int32_t oh = windowOutputSize(is[1], params.filterH, w.strideH, w.dilationH,
                                w.padTop, w.padBottom);
  int32_t ow = windowOutputSize(is[2], params.filterW, w.strideW, w.dilationW,
                                w.padLeft, w.padRight);
  if (oh <= 0 || ow <= 0)
    return bad("filter does not fit the padded input");
  return expectOutput({is[0], uint32_t(oh), uint32_t(ow), channels});
}

int Validator::broadcastOutput(const char *a, const char *b, int32_t type) {
  Shape shape;
  if (!broadcastShapes(in(a).dims, in(b).dims, shape))
    return bad("shapes " + shapeStr(in(a).dims) + " and " +
               shapeStr(in(b).dims) + " do not broadcast");
  return expectOutputOf(shape, type);
}

int Validator::convLike(bool depthwise) {
  int32_t paddingCode = 0;
  if (int rc = window(paddingCode))
    return rc;
  Window &w = params.window;
  if (depthwise)
    if (int rc = positive("depth_multiplier", params.depthMultiplier))
      return rc;
  if (has("dilation_w")) {
    if (int rc = positive("dilation_w", w.dilationW))
      return rc;
    if (int rc = positive("dilation_h", w.dilationH))
      return rc;
  }
  const Shape &is = in("input").dims, &fs = in("filter").dims;
  uint32_t outC = depthwise ? fs[3] : fs[0];
  if (depthwise) {
    if (fs[0] != 1)
      return bad("depthwise filter must have shape [1, kh, kw, out]");
    if (uint64_t(is[3]) * params.depthMultiplier != fs[3])
      return bad("depthwise output depth " + std::to_string(fs[3]) +
                 " != input depth " + std::to_string(is[3]) +
                 " * depth multiplier " + std::to_string(params.depthMultiplier));
  } else if (fs[3] != is[3]) {
    return bad("filter input depth " + std::to_string(fs[3]) +
               " does not match input depth " + std::to_string(is[3]));
  }
  if (in("bias").dims[0] != outC)
    return bad("bias size " + std::to_string(in("bias").dims[0]) +
               " does not match output depth " + std::to_string(outC));
  params.filterH = int32_t(fs[1]);
  params.filterW = int32_t(fs[2]);
  return windowOutput(is, outC);
}

int Validator::groupedConv() {
  int32_t paddingCode = 0;
  if (int rc = window(paddingCode))
    return rc;
  if (int rc = positive("num_groups", params.groups))
    return rc;
  const Shape &is = in("input").dims, &fs = in("filter").dims;
  uint32_t groups = uint32_t(params.groups);
  if (is[3] % groups || fs[0] % groups)
    return bad("num_groups " + std::to_string(groups) +
               " does not divide the input depth " + std::to_string(is[3]) +
               " and the output depth " + std::to_string(fs[0]));
  if (uint64_t(fs[3]) * groups != is[3])
    return bad("filter depth " + std::to_string(fs[3]) + " times num_groups " +
               std::to_string(groups) + " does not match input depth " +
               std::to_string(is[3]));
  if (in("bias").dims[0] != fs[0])
    return bad("bias size " + std::to_string(in("bias").dims[0]) +
               " does not match output depth " + std::to_string(fs[0]));
  params.filterH = int32_t(fs[1]);
  params.filterW = int32_t(fs[2]);
  return windowOutput(is, fs[0]);
}

int Validator::transposeConv() {
  if (has("output_shape"))
    return bad("only the explicit-padding form (11 inputs) is implemented by "
               "the host implementation, got " +
               std::to_string(op.inputs.size()) + " inputs");
  int32_t paddingCode = 0;
  if (int rc = window(paddingCode))
    return rc;
  const Window &w = params.window;
  const Shape &is = in("input").dims, &fs = in("filter").dims;
  if (fs[3] != is[3])
    return bad("filter input depth " + std::to_string(fs[3]) +
               " does not match input depth " + std::to_string(is[3]));
  if (in("bias").dims[0] != fs[0])
    return bad("bias size " + std::to_string(in("bias").dims[0]) +
               " does not match output depth " + std::to_string(fs[0]));
  // (in - 1) * stride + filter - paddings, in 64 bits: none of it wraps.
  int64_t outH = (int64_t(is[1]) - 1) * w.strideH + fs[1] - w.padTop -
                 w.padBottom;
  int64_t outW = (int64_t(is[2]) - 1) * w.strideW + fs[2] - w.padLeft -
                 w.padRight;
  if (outH < 1 || outW < 1)
    return bad("padding crops the whole output");
  if (outH > std::numeric_limits<int32_t>::max() ||
      outW > std::numeric_limits<int32_t>::max())
    return bad("the output is larger than 2^31 - 1");
  return expectOutput({is[0], uint32_t(outH), uint32_t(outW), fs[0]});
}

int Validator::resize() {
  const Shape &is = in("input").dims;
  uint64_t size[2]; // width, height
  const char *roles[] = {"output_width", "output_height"};
  for (size_t i : {0, 1}) {
    if (in(roles[i]).type == ANEURALNETWORKS_INT32) {
      int32_t v = i32(roles[i]);
      if (v < 1)
        return bad("output size must be positive");
      size[i] = uint64_t(v);
    } else {
      double scale = real(roles[i]);
      double v = std::floor(double(is[2 - i]) * scale);
      if (!(v >= 1.0) || v > double(std::numeric_limits<int32_t>::max()))
        return bad("scale " + std::to_string(scale) +
                   " gives no valid output size");
      size[i] = uint64_t(v);
    }
  }
  if (int rc = nhwc())
    return rc;
  bool align = has("align_corners") && flag("align_corners");
  bool half = has("half_pixel_centers") && flag("half_pixel_centers");
  if (align && half)
    return bad("align_corners and half_pixel_centers exclude each other");
  params.resize = {align, half};
  return expectOutput({is[0], uint32_t(size[1]), uint32_t(size[0]), is[3]});
}

int Validator::pool() {
  int32_t paddingCode = 0;
  if (int rc = window(paddingCode))
    return rc;
  if (int rc = positive("filter_w", params.filterW))
    return rc;
  if (int rc = positive("filter_h", params.filterH))
    return rc;
  const Shape &is = in("input").dims;
  return windowOutput(is, is[3]);
}

int Validator::fullyConnected() {
  if (int rc = fuse())
    return rc;
  const Shape &ws = in("weights").dims;
  uint32_t units = ws[0], inSize = ws[1];
  size_t total = numElements(in("input").dims);
  if (inSize == 0 || total % inSize != 0)
    return bad("input size " + std::to_string(total) +
               " is not a multiple of the weights' input size " +
               std::to_string(inSize));
  if (in("bias").dims[0] != units)
    return bad("bias size does not match the number of units");
  if (total / inSize > std::numeric_limits<uint32_t>::max())
    return bad("too many input rows");
  params.batch = uint32_t(total / inSize);
  return expectOutput({params.batch, units});
}

int Validator::softmax() {
  params.beta = real("beta");
  if (!(params.beta > 0.0f))
    return bad("beta must be positive");
  // Without the axis operand: the last axis.
  params.axis = int32_t(in("input").dims.size()) - 1;
  if (has("axis"))
    if (int rc = axis("axis"))
      return rc;
  return expectOutput(in("input").dims);
}

int Validator::instanceNorm() {
  float gamma = real("gamma"), beta = real("beta"), epsilon = real("epsilon");
  if (!(epsilon > 0.0f))
    return bad("epsilon must be positive");
  params.norm = {gamma, beta, epsilon, flag("layout")};
  return expectOutput(in("input").dims);
}

int Validator::localResponse() {
  LocalResponse &p = params.lrn;
  p.radius = i32("radius");
  if (p.radius < 0)
    return bad("radius must be non-negative");
  p.bias = real("bias");
  p.alpha = real("alpha");
  p.beta = real("beta");
  // Without the axis operand: the last axis.
  params.axis = int32_t(in("input").dims.size()) - 1;
  if (has("axis"))
    if (int rc = axis("axis"))
      return rc;
  p.axis = params.axis;
  return expectOutput(in("input").dims);
}

int Validator::reshape() {
  const Operand &shape = in("shape");
  Shape target;
  uint64_t total = numElements(in("input").dims), known = 1;
  int inferred = -1;
  for (uint32_t i = 0; i < shape.dims[0]; ++i) {
    int32_t d;
    std::memcpy(&d, shape.value + 4 * i, 4);
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
      return bad("shape " + shapeStr(target) + "... has more elements than "
                 "the input's " + std::to_string(total));
    known *= uint64_t(d);
    target.push_back(uint32_t(d));
  }
  if (inferred >= 0) {
    if (total % known)
      return bad("cannot infer the -1 entry of the shape");
    target[inferred] = uint32_t(total / known);
  } else if (known != total) {
    return bad("shape " + shapeStr(target) + " changes the element count");
  }
  return expectOutput(target);
}

int Validator::concatenation() {
  if (int rc = axis("axis"))
    return rc;
  size_t first = size_t(layout.input("input")), n = layout.inputCount("input");
  int32_t rank = int32_t(in("input").dims.size()), a = params.axis;
  Shape shape = in("input").dims;
  for (size_t i = first + 1; i < first + n; ++i) {
    const Shape &s = m.operands[op.inputs[i]].dims;
    if (int32_t(s.size()) != rank)
      return bad("inputs differ in rank");
    for (int32_t d = 0; d < rank; ++d)
      if (d != a && s[d] != shape[d])
        return bad("inputs differ outside the concatenation axis");
    if (uint64_t(shape[a]) + s[a] > std::numeric_limits<uint32_t>::max())
      return bad("concatenated dimension overflows");
    shape[a] += s[a];
  }
  return expectOutput(shape);
}

int Validator::transpose() {
  const Shape &is = in("input").dims;
  uint32_t rank = uint32_t(is.size());
  std::vector<int32_t> &perm = params.indices;
  if (!has("perm")) {
    // Without perm, the dimensions are reversed.
    for (uint32_t d = rank; d-- > 0;)
      perm.push_back(int32_t(d));
  } else if (int rc = int32s("perm", rank, perm)) {
    return rc;
  }
  std::vector<bool> seen(rank, false);
  Shape shape;
  for (int32_t p : perm) {
    if (p < 0 || uint32_t(p) >= rank || seen[p])
      return bad("perm is not a permutation of the input's dimensions");
    seen[p] = true;
    shape.push_back(is[p]);
  }
  return expectOutput(shape);
}

int Validator::padOp() {
  // PAD: input, paddings; PAD_V2: and the value; MIRROR_PAD: and the mode.
  const Shape &is = in("input").dims;
  if (in("paddings").dims != Shape{uint32_t(is.size()), 2})
    return bad("paddings has shape " + shapeStr(in("paddings").dims) +
               ", expected " + shapeStr({uint32_t(is.size()), 2}));
  std::vector<int32_t> pads;
  if (int rc = int32s("paddings", is.size() * 2, pads))
    return rc;
  bool mirror = has("mode");
  if (has("pad_value"))
    params.padValue = real("pad_value");
  if (mirror) {
    int32_t mode = i32("mode");
    if (mode != 0 && mode != 1)
      return bad("mirror pad mode must be 0 (REFLECT) or 1 (SYMMETRIC), got " +
                 std::to_string(mode));
    params.padMode = mode ? PadMode::Symmetric : PadMode::Reflect;
  }
  Shape shape;
  for (size_t d = 0; d < is.size(); ++d) {
    int32_t before = pads[2 * d], after = pads[2 * d + 1];
    if (before < 0 || after < 0)
      return bad("paddings must be non-negative");
    if (mirror) {
      int64_t limit = int64_t(is[d]) - (params.padMode == PadMode::Reflect);
      if (before > limit || after > limit)
        return bad("mirror padding of dimension " + std::to_string(d) +
                   " exceeds " + std::to_string(limit));
    }
    uint64_t size = uint64_t(is[d]) + uint64_t(before) + uint64_t(after);
    if (size > std::numeric_limits<int32_t>::max())
      return bad("the padded dimension " + std::to_string(d) +
                 " is larger than 2^31 - 1");
    params.indices.push_back(before);
    shape.push_back(uint32_t(size));
  }
  return expectOutput(shape);
}

int Validator::depthSpace(bool toSpace) {
  if (int rc = positive("block_size", params.blockSize))
    return rc;
  params.nchw = has("layout") && flag("layout");
  Shape shape = in("input").dims;
  uint64_t b = uint64_t(params.blockSize);
  size_t h = params.nchw ? 2 : 1, w = h + 1, c = params.nchw ? 1 : 3;
  if (toSpace) {
    if (shape[c] % (b * b))
      return bad("depth " + std::to_string(shape[c]) +
                 " is not a multiple of block_size^2");
    if (uint64_t(shape[h]) * b > std::numeric_limits<int32_t>::max() ||
        uint64_t(shape[w]) * b > std::numeric_limits<int32_t>::max())
      return bad("the output is larger than 2^31 - 1");
    shape[c] = uint32_t(shape[c] / (b * b));
    shape[h] = uint32_t(shape[h] * b);
    shape[w] = uint32_t(shape[w] * b);
  } else {
    if (shape[h] % b || shape[w] % b)
      return bad("height and width must be multiples of block_size");
    if (uint64_t(shape[c]) * b * b > std::numeric_limits<int32_t>::max())
      return bad("the output depth is larger than 2^31 - 1");
    shape[c] = uint32_t(shape[c] * b * b);
    shape[h] = uint32_t(shape[h] / b);
    shape[w] = uint32_t(shape[w] / b);
  }
  return expectOutput(shape);
}

int Validator::channelShuffle() {
  if (int rc = positive("num_groups", params.groups))
    return rc;
  if (int rc = axis("axis"))
    return rc;
  if (in("input").dims[params.axis] % uint32_t(params.groups))
    return bad("num_groups " + std::to_string(params.groups) +
               " does not divide dimension " + std::to_string(params.axis));
  return expectOutput(in("input").dims);
}

int Validator::reverse() {
  std::vector<int32_t> a;
  if (int rc = int32s("axis", 1, a))
    return rc;
  int32_t rank = int32_t(in("input").dims.size());
  if (a[0] < 0 || a[0] >= rank)
    return bad("axis " + std::to_string(a[0]) + " out of range");
  params.axis = a[0];
  return expectOutput(in("input").dims);
}

int Validator::gather() {
  if (int rc = axis("axis"))
    return rc;
  const Shape &is = in("input").dims;
  // Constant indices are checked here; computed ones by the kernel, which
  // fails the execution on an index outside the dimension.
  const Operand &idx = in("indices");
  uint32_t len = is[params.axis];
  if (idx.kind == Kind::Constant) {
    std::vector<int32_t> constant;
    if (int rc = int32s("indices", numElements(idx.dims), constant))
      return rc;
    for (int32_t i : constant)
      if (i < 0 || uint32_t(i) >= len)
        return bad("index " + std::to_string(i) + " is outside dimension " +
                   std::to_string(params.axis) + " of size " +
                   std::to_string(len));
  }
  Shape shape(is.begin(), is.begin() + params.axis);
  shape.insert(shape.end(), idx.dims.begin(), idx.dims.end());
  shape.insert(shape.end(), is.begin() + params.axis + 1, is.end());
  if (shape.size() > 4)
    return bad("the output has rank " + std::to_string(shape.size()) +
               ", more than 4");
  return expectOutput(shape);
}

int Validator::slice() {
  const Shape &is = in("input").dims;
  uint32_t rank = uint32_t(is.size());
  std::vector<int32_t> sizes;
  if (int rc = int32s("begin", rank, params.indices))
    return rc;
  if (int rc = int32s("size", rank, sizes))
    return rc;
  Shape shape;
  for (uint32_t d = 0; d < rank; ++d) {
    int64_t b = params.indices[d], n = sizes[d];
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
  return expectOutput(shape);
}

int Validator::stridedSlice() {
  const Shape &is = in("input").dims;
  uint32_t rank = uint32_t(is.size());
  std::vector<int32_t> begins, ends, strides;
  if (int rc = int32s("begin", rank, begins))
    return rc;
  if (int rc = int32s("end", rank, ends))
    return rc;
  if (int rc = int32s("strides", rank, strides))
    return rc;
  int32_t masks[3] = {i32("begin_mask"), i32("end_mask"),
                      i32("shrink_axis_mask")};
  Shape shape;
  for (uint32_t d = 0; d < rank; ++d) {
    int64_t dim = is[d], st = strides[d];
    bool shrink = (masks[2] >> d) & 1;
    if (st == 0)
      return bad("strides must not be 0 (dimension " + std::to_string(d) + ")");
    // Negative indices count from the end; a mask takes the whole range.
    auto resolve = [&](int64_t v, bool whole, bool isEnd) {
      if (whole)
        return isEnd ? (st > 0 ? dim : int64_t(-1))
                     : (st > 0 ? int64_t(0) : dim - 1);
      v = v < 0 ? v + dim : v;
      return st > 0 ? std::clamp<int64_t>(v, 0, dim)
                    : std::clamp<int64_t>(v, -1, dim - 1);
    };
    int64_t b = resolve(begins[d], !shrink && ((masks[0] >> d) & 1), false);
    int64_t e = resolve(ends[d], (masks[1] >> d) & 1, true);
    if (shrink) {
      // One element, at begin.
      if (b < 0 || b >= dim)
        return bad("the shrunk dimension " + std::to_string(d) +
                   " begins outside the input");
      st = 1;
      e = b + 1;
    }
    int64_t count = st > 0 ? (e - b + st - 1) / st : (b - e - st - 1) / -st;
    if (count <= 0)
      return bad("dimension " + std::to_string(d) +
                 " of the output would be empty");
    params.indices.push_back(int32_t(b));
    params.strides.push_back(int32_t(st));
    params.sliceShape.push_back(uint32_t(count));
    if (!shrink)
      shape.push_back(uint32_t(count));
  }
  return expectOutput(shape);
}

int Validator::split() {
  // num_splits outputs of equal size.
  if (int rc = axis("axis"))
    return rc;
  int32_t parts = 0;
  if (int rc = positive("num_splits", parts))
    return rc;
  if (op.outputs.size() != size_t(parts))
    return bad("expects " + std::to_string(parts) + " outputs, got " +
               std::to_string(op.outputs.size()));
  Shape shape = in("input").dims;
  if (shape[params.axis] % uint32_t(parts))
    return bad("num_splits " + std::to_string(parts) +
               " does not divide dimension " + std::to_string(params.axis) +
               " of size " + std::to_string(shape[params.axis]));
  shape[params.axis] /= uint32_t(parts);
  for (size_t i = 0; i < size_t(parts); ++i)
    if (int rc = expectOutput(shape, i))
      return rc;
  return 0;
}

int Validator::tile() {
  const Shape &is = in("input").dims;
  std::vector<int32_t> multiples;
  if (int rc = int32s("multiples", is.size(), multiples))
    return rc;
  Shape shape;
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
  return expectOutput(shape);
}

int Validator::reduce() {
  const Shape &is = in("input").dims;
  int32_t rank = int32_t(is.size());
  std::vector<int32_t> axes;
  if (int rc = int32s("axes", numElements(in("axes").dims), axes))
    return rc;
  // MEAN's keep_dims is an INT32 (positive keeps); REDUCE_*'s a BOOL.
  bool keep = in("keep_dims").type == ANEURALNETWORKS_INT32
                  ? i32("keep_dims") > 0
                  : flag("keep_dims");
  if (axes.empty())
    return bad("axes is empty");
  params.reduced.assign(is.size(), false);
  for (int32_t a : axes) {
    if (a < -rank || a >= rank)
      return bad("axis " + std::to_string(a) + " out of range");
    // NNAPI allows an axis to repeat; it is reduced once.
    params.reduced[a < 0 ? a + rank : a] = true;
  }
  Shape shape;
  for (int32_t d = 0; d < rank; ++d) {
    if (!params.reduced[d])
      shape.push_back(is[d]);
    else if (keep)
      shape.push_back(1);
  }
  if (shape.empty())
    shape.push_back(1);
  return expectOutputOf(shape, in("input").type);
}

int Validator::batchMatmul() {
  if (has("adj_x")) {
    params.adjA = flag("adj_x");
    params.adjB = flag("adj_y");
  }
  const Shape &as = in("input0").dims, &bs = in("input1").dims;
  if (as.size() != bs.size())
    return bad("inputs differ in rank");
  size_t r = as.size();
  if (!std::equal(as.begin(), as.end() - 2, bs.begin()))
    return bad("batch dimensions differ");
  uint32_t m0 = params.adjA ? as[r - 1] : as[r - 2];
  uint32_t k0 = params.adjA ? as[r - 2] : as[r - 1];
  uint32_t k1 = params.adjB ? bs[r - 1] : bs[r - 2];
  uint32_t n1 = params.adjB ? bs[r - 2] : bs[r - 1];
  if (k0 != k1)
    return bad("contracting dimensions differ (" + std::to_string(k0) +
               " vs " + std::to_string(k1) + ")");
  Shape shape(as.begin(), as.end() - 2);
  shape.push_back(m0);
  shape.push_back(n1);
  return expectOutput(shape);
}

int Validator::sequenceRnn() {
  SequenceRnn &s = params.rnn;
  const Shape &x = in("input").dims;
  int32_t timeMajor = i32("time_major");
  if (timeMajor != 0 && timeMajor != 1)
    return bad("time_major must be 0 or 1, got " + std::to_string(timeMajor));
  s.timeMajor = timeMajor;
  s.steps = x[s.timeMajor ? 0 : 1];
  s.batch = x[s.timeMajor ? 1 : 0];
  s.inputSize = x[2];
  s.units = in("weights").dims[0];
  if (int rc = fuse())
    return rc;
  s.fuseCode = params.fuseCode;
  for (auto [role, shape] :
       {std::pair<const char *, Shape>{"weights", {s.units, s.inputSize}},
        {"recurrent_weights", {s.units, s.units}},
        {"bias", {s.units}},
        {"hidden_state", {s.batch, s.units}}})
    if (in(role).dims != shape)
      return bad(std::string(role) + " is " + shapeStr(in(role).dims) +
                 ", expected " + shapeStr(shape));
  return expectOutput(s.timeMajor ? Shape{s.steps, s.batch, s.units}
                                  : Shape{s.batch, s.steps, s.units});
}

int Validator::sequenceLstm() {
  SequenceLstm &s = params.lstm;
  const Shape &x = in("input").dims;
  s.timeMajor = flag("time_major");
  s.steps = x[s.timeMajor ? 0 : 1];
  s.batch = x[s.timeMajor ? 1 : 0];
  s.inputSize = x[2];
  s.units = in("input_to_output_weights").dims[0];
  s.outputSize = in("recurrent_to_output_weights").dims[1];
  auto expectShape = [&](const char *role, const Shape &shape) {
    if (in(role).dims != shape)
      return bad(std::string(role) + " is " + shapeStr(in(role).dims) +
                 ", expected " + shapeStr(shape));
    return 0;
  };
  // Per gate: input weights, recurrent weights, bias. Only the input gate's
  // are omittable (the spec refuses the others without a value), all three
  // together (CIFG).
  static const char *const gateRoles[4][3] = {
      {"input_to_input_weights", "recurrent_to_input_weights",
       "input_gate_bias"},
      {"input_to_forget_weights", "recurrent_to_forget_weights",
       "forget_gate_bias"},
      {"input_to_cell_weights", "recurrent_to_cell_weights", "cell_bias"},
      {"input_to_output_weights", "recurrent_to_output_weights",
       "output_gate_bias"}};
  for (const auto &roles : gateRoles) {
    int present = int(given(roles[0])) + given(roles[1]) + given(roles[2]);
    if (present == 0)
      continue; // CIFG
    for (const char *role : roles)
      if (!given(role))
        return bad(std::string(role) +
                   " is missing (the input gate's weights and bias are all "
                   "given or all omitted)");
    if (int rc = expectShape(roles[0], {s.units, s.inputSize}))
      return rc;
    if (int rc = expectShape(roles[1], {s.units, s.outputSize}))
      return rc;
    if (int rc = expectShape(roles[2], {s.units}))
      return rc;
  }
  bool cifg = !given("input_to_input_weights");
  bool peepholes = given("cell_to_forget_weights");
  if (given("cell_to_output_weights") != peepholes ||
      (!cifg && given("cell_to_input_weights") != peepholes) ||
      (cifg && given("cell_to_input_weights")))
    return bad("the peephole weights are given for every gate (but a coupled "
               "input gate's) or for none");
  for (const char *role : {"cell_to_input_weights", "cell_to_forget_weights",
                           "cell_to_output_weights"})
    if (given(role))
      if (int rc = expectShape(role, {s.units}))
        return rc;
  if (given("projection_weights")) {
    if (int rc = expectShape("projection_weights", {s.outputSize, s.units}))
      return rc;
  } else if (given("projection_bias")) {
    return bad("projection_bias without projection_weights");
  } else if (s.outputSize != s.units) {
    return bad("without a projection the output size (" +
               std::to_string(s.outputSize) + ") must be the number of units (" +
               std::to_string(s.units) + ")");
  }
  if (given("projection_bias"))
    if (int rc = expectShape("projection_bias", {s.outputSize}))
      return rc;
  for (const char *role :
       {"input_layer_norm_weights", "forget_layer_norm_weights",
        "cell_layer_norm_weights", "output_layer_norm_weights"})
    if (given(role))
      return fail(ANEURALNETWORKS_BAD_DATA,
                  "operation " + std::to_string(index) +
                      ": layer normalization (" + role +
                      ") is not implemented by the host NNAPI implementation");
  if (int rc = expectShape("output_state_in", {s.batch, s.outputSize}))
    return rc;
  if (int rc = expectShape("cell_state_in", {s.batch, s.units}))
    return rc;
  s.activation = i32("activation");
  if (!isLstmActivation(s.activation))
    return bad("invalid activation " + std::to_string(s.activation) +
               " (0, 1, 3, 4 or 6)");
  s.cellClip = real("cell_clip");
  s.projClip = real("proj_clip");
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
  const Operand &input = in("input");
  const char *filterRole =
      op.opcode == ANEURALNETWORKS_FULLY_CONNECTED ? "weights" : "filter";
  const Operand &filter = in(filterRole), &bias = in("bias");
  bool perChannel =
      filter.type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL;
  if (perChannel) {
    uint32_t dim = op.opcode == ANEURALNETWORKS_DEPTHWISE_CONV_2D ? 3 : 0;
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
  if (int rc = quantized())
    return rc;
  if (op.opcode == ANEURALNETWORKS_QUANTIZE ||
      op.opcode == ANEURALNETWORKS_DEQUANTIZE)
    return expectOutputOf(in("input").dims, out(0).type);
  if (unaryKindOf(op.opcode))
    return expectOutput(in("input").dims);
  if (binaryKindOf(op.opcode)) {
    if (has("fuse"))
      if (int rc = fuse())
        return rc;
    if (op.opcode == ANEURALNETWORKS_PRELU)
      return broadcastOutput("input", "alpha", layout.dataType);
    return broadcastOutput("input0", "input1", layout.dataType);
  }
  if (compareKindOf(op.opcode))
    return broadcastOutput("input0", "input1", ANEURALNETWORKS_TENSOR_BOOL8);
  switch (op.opcode) {
  case ANEURALNETWORKS_LOGICAL_AND: case ANEURALNETWORKS_LOGICAL_OR:
    return broadcastOutput("input0", "input1", ANEURALNETWORKS_TENSOR_BOOL8);
  case ANEURALNETWORKS_LOGICAL_NOT:
    return expectOutputOf(in("input").dims, ANEURALNETWORKS_TENSOR_BOOL8);
  case ANEURALNETWORKS_ARGMAX: case ANEURALNETWORKS_ARGMIN: {
    if (int rc = axis("axis"))
      return rc;
    Shape shape = in("input").dims;
    shape.erase(shape.begin() + params.axis);
    return expectOutputOf(shape, ANEURALNETWORKS_TENSOR_INT32);
  }
  case ANEURALNETWORKS_SELECT:
    if (in("true_values").dims != in("condition").dims ||
        in("false_values").dims != in("condition").dims)
      return bad("the condition and the choices must have one shape (SELECT "
                 "does not broadcast)");
    return expectOutput(in("condition").dims);
  case ANEURALNETWORKS_CAST:
    return expectOutputOf(in("input").dims, out(0).type);
  case ANEURALNETWORKS_CONV_2D:
    return convLike(false);
  case ANEURALNETWORKS_DEPTHWISE_CONV_2D:
    return convLike(true);
  case ANEURALNETWORKS_TRANSPOSE_CONV_2D:
    return transposeConv();
  case ANEURALNETWORKS_GROUPED_CONV_2D:
    return groupedConv();
  case ANEURALNETWORKS_RESIZE_BILINEAR:
  case ANEURALNETWORKS_RESIZE_NEAREST_NEIGHBOR:
    return resize();
  case ANEURALNETWORKS_FULLY_CONNECTED:
    return fullyConnected();
  case ANEURALNETWORKS_MAX_POOL_2D: case ANEURALNETWORKS_AVERAGE_POOL_2D:
    return pool();
  case ANEURALNETWORKS_RESHAPE:
    return reshape();
  case ANEURALNETWORKS_SOFTMAX: case ANEURALNETWORKS_LOG_SOFTMAX:
    return softmax();
  case ANEURALNETWORKS_ELU:
    params.alpha = real("alpha");
    return expectOutput(in("input").dims);
  case ANEURALNETWORKS_INSTANCE_NORMALIZATION:
    return instanceNorm();
  case ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION:
    return localResponse();
  case ANEURALNETWORKS_L2_NORMALIZATION:
    params.axis = int32_t(in("input").dims.size()) - 1;
    if (has("axis"))
      if (int rc = axis("axis"))
        return rc;
    return expectOutput(in("input").dims);
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
  case ANEURALNETWORKS_DEPTH_TO_SPACE:
    return depthSpace(true);
  case ANEURALNETWORKS_SPACE_TO_DEPTH:
    return depthSpace(false);
  case ANEURALNETWORKS_GATHER:
    return gather();
  case ANEURALNETWORKS_SLICE:
    return slice();
  case ANEURALNETWORKS_SPLIT:
    return split();
  case ANEURALNETWORKS_STRIDED_SLICE:
    return stridedSlice();
  case ANEURALNETWORKS_TILE:
    return tile();
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
    bool control = op.opcode == ANEURALNETWORKS_IF ||
                   op.opcode == ANEURALNETWORKS_WHILE;
    if (int rc = control ? validateControlFlow(m, i, m.layouts[i])
                         : Validator(m, op, i, m.params[i], m.layouts[i]).run())
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
