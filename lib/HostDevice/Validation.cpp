//===- Validation.cpp - NNAPI operand rules of the host device ------------===//
//
// Checks each operation of a model the way a driver must before it accepts
// the model: operand counts, types, ranks, constant scalars, shapes, and the
// output shape the operation computes. The decoded scalar parameters (padding,
// strides, fused activation, axis...) are kept in HostModel::params so that
// compilation and execution never decode operands again.
//
//===----------------------------------------------------------------------===//

#include "HostModel.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace nnapi_mlir::host {

namespace {
thread_local std::string lastError;
} // namespace

int fail(int code, std::string message) {
  lastError = std::move(message);
  return code;
}

const std::string &lastErrorMessage() { return lastError; }

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
  case ANEURALNETWORKS_TENSOR_INT32:
    return 4;
  case ANEURALNETWORKS_FLOAT16: case ANEURALNETWORKS_TENSOR_FLOAT16:
    return 2;
  case ANEURALNETWORKS_BOOL: case ANEURALNETWORKS_TENSOR_BOOL8:
  case ANEURALNETWORKS_TENSOR_QUANT8_ASYMM:
    return 1;
  default:
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

  /// Checks the operands against the operation's layout in the NNAPI spec
  /// (counts, types, ranks, constants) and fills `layout`.
  int matchLayout();
  /// The position of input role `name` in the matched form, -1 if absent.
  int arg(std::string_view name) const { return layout.input(name); }

  int bad(const std::string &msg) {
    return fail(ANEURALNETWORKS_BAD_DATA,
                "operation " + std::to_string(index) + " (opcode " +
                    std::to_string(op.opcode) + "): " + msg);
  }
  const Operand &in(size_t i) const { return m.operands[op.inputs[i]]; }
  const Operand &out(size_t i) const { return m.operands[op.outputs[i]]; }
  int expectCounts(size_t minIn, size_t maxIn, size_t nOut) {
    if (op.inputs.size() < minIn || op.inputs.size() > maxIn)
      return bad("expects " + std::to_string(minIn) +
                 (maxIn != minIn ? ".." + std::to_string(maxIn) : "") +
                 " inputs, got " + std::to_string(op.inputs.size()));
    if (op.outputs.size() != nOut)
      return bad("expects " + std::to_string(nOut) + " outputs, got " +
                 std::to_string(op.outputs.size()));
    return 0;
  }
  int expectScalar(size_t i, int32_t type, const char *what) {
    const Operand &o = in(i);
    if (o.type != type)
      return bad(std::string(what) + " must be a scalar of type " +
                 std::to_string(type) + ", got type " + std::to_string(o.type));
    if (o.kind != Kind::Constant)
      return bad(std::string(what) + " must be a constant");
    return 0;
  }
  /// The scalar type of a float parameter (beta, alpha, pad value, scale):
  /// FLOAT16 in a float16 operation, else FLOAT32.
  int32_t floatScalarType() const {
    return in(0).type == ANEURALNETWORKS_TENSOR_FLOAT16 ? ANEURALNETWORKS_FLOAT16
                                                        : ANEURALNETWORKS_FLOAT32;
  }
  int expectFuse(size_t i) {
    if (int rc = expectScalar(i, ANEURALNETWORKS_INT32, "fused activation"))
      return rc;
    int32_t code = m.i32(op.inputs[i]);
    if (code < 0 || code > 3)
      return bad("invalid fused activation code " + std::to_string(code));
    params.fuseCode = code;
    return 0;
  }
  int expectFloatTensor(size_t i, const char *what, size_t minRank,
                        size_t maxRank) {
    const Operand &o = in(i);
    if (!isFloatTensor(o.type))
      return bad(std::string(what) + " must be TENSOR_FLOAT32 or TENSOR_FLOAT16");
    if (o.dims.size() < minRank || o.dims.size() > maxRank)
      return bad(std::string(what) + " has rank " + std::to_string(o.dims.size()) +
                 ", expected " + std::to_string(minRank) +
                 (maxRank != minRank ? ".." + std::to_string(maxRank) : ""));
    if (o.type != in(0).type)
      return bad(std::string(what) + " type differs from input 0");
    return 0;
  }
  /// Input i is a TENSOR_BOOL8 of rank minRank..maxRank.
  int expectBoolTensor(size_t i, const char *what, size_t minRank,
                       size_t maxRank) {
    const Operand &o = in(i);
    if (o.type != ANEURALNETWORKS_TENSOR_BOOL8)
      return bad(std::string(what) + " must be TENSOR_BOOL8");
    if (o.dims.size() < minRank || o.dims.size() > maxRank)
      return bad(std::string(what) + " has rank " + std::to_string(o.dims.size()) +
                 ", expected " + std::to_string(minRank) + ".." +
                 std::to_string(maxRank));
    return 0;
  }
  /// The output has `shape` and operand type `type`.
  int expectOutputOf(const Shape &shape, int32_t type) {
    const Operand &o = out(0);
    if (o.type != type)
      return bad("output has type " + std::to_string(o.type) + ", expected " +
                 std::to_string(type));
    if (o.dims != shape)
      return bad("output shape " + shapeStr(o.dims) + " differs from computed " +
                 shapeStr(shape));
    return 0;
  }
  int expectOutput(const Shape &shape, size_t i = 0) {
    const Operand &o = out(i);
    std::string which = i ? "output " + std::to_string(i) : "output";
    if (o.type != in(0).type)
      return bad(which + " type differs from input type");
    if (o.dims != shape)
      return bad(which + " shape " + shapeStr(o.dims) +
                 " differs from computed " + shapeStr(shape));
    return 0;
  }
  /// Reads `count` positive INT32 scalars starting at `next`.
  int positiveScalars(size_t &next, std::initializer_list<int32_t *> values,
                      const char *what) {
    for (int32_t *v : values) {
      if (int rc = expectScalar(next, ANEURALNETWORKS_INT32, what))
        return rc;
      *v = m.i32(op.inputs[next++]);
      if (*v < 1)
        return bad(std::string(what) + " must be positive");
    }
    return 0;
  }
  /// Reads input i, a constant TENSOR_INT32 of shape `dims`, into `values`.
  int int32Tensor(size_t i, const char *what, const Shape &dims,
                  std::vector<int32_t> &values) {
    const Operand &o = in(i);
    if (o.type != ANEURALNETWORKS_TENSOR_INT32 || o.kind != Kind::Constant)
      return bad(std::string(what) + " must be a constant TENSOR_INT32");
    if (o.dims != dims)
      return bad(std::string(what) + " has shape " + shapeStr(o.dims) +
                 ", expected " + shapeStr(dims));
    values.resize(numElements(dims));
    if (!values.empty())
      std::memcpy(values.data(), o.value, values.size() * sizeof(int32_t));
    return 0;
  }
  /// Input i is an INT32 scalar axis of input 0 (negative counts from the
  /// end); params.axis gets it, non-negative.
  int expectAxis(size_t i) {
    if (int rc = expectScalar(i, ANEURALNETWORKS_INT32, "axis"))
      return rc;
    int32_t rank = int32_t(in(0).dims.size()), axis = m.i32(op.inputs[i]);
    if (axis < -rank || axis >= rank)
      return bad("axis " + std::to_string(axis) + " out of range");
    params.axis = axis < 0 ? axis + rank : axis;
    return 0;
  }
  int paddingScheme(size_t &next, int32_t &code);
  int explicitPadding(size_t &next);
  int windowOutput(const Shape &is, int32_t filterH, int32_t filterW,
                   int32_t dilationH, int32_t dilationW, uint32_t channels);
  int binaryOp(bool fused);
  int boolBinary(bool floatInputs);
  int logicalNot();
  int argExtreme();
  int select();
  int cast();
  int convLike(bool depthwise);
  int transposeConv();
  /// The fused activation and the (mandatory, NHWC) layout operand at
  /// `next`, then the input, filter and bias tensors of a convolution.
  int fuseLayoutAndTensors(size_t next);
  int groupedConv();
  int resize();
  int pool();
  int fullyConnected();
  int softmax(bool logarithm);
  int elu();
  int instanceNorm();
  int localResponse();
  int l2Normalization();
  int reshape();
  int concatenation();
  int transpose();
  int padOp(bool withValue, bool mirror);
  int reverse();
  int channelShuffle();
  int depthSpace(bool toSpace);
  int gather();
  int slice();
  int stridedSlice();
  int split();
  int tile();
  int reduce(bool mean, bool boolean);
  int batchMatmul();
};

int Validator::paddingScheme(size_t &next, int32_t &code) {
  if (int rc = expectScalar(next, ANEURALNETWORKS_INT32, "padding scheme"))
    return rc;
  code = m.i32(op.inputs[next++]);
  if (code != ANEURALNETWORKS_PADDING_SAME &&
      code != ANEURALNETWORKS_PADDING_VALID)
    return bad("invalid padding scheme " + std::to_string(code));
  return 0;
}

int Validator::explicitPadding(size_t &next) {
  Window &w = params.window;
  for (int32_t *p : {&w.padLeft, &w.padRight, &w.padTop, &w.padBottom}) {
    if (int rc = expectScalar(next, ANEURALNETWORKS_INT32, "padding"))
      return rc;
    *p = m.i32(op.inputs[next++]);
    if (*p < 0)
      return bad("padding must be non-negative");
  }
  return 0;
}

/// Checks that the (dilated) window fits the padded input and that the
/// output is [N, OH, OW, channels].
int Validator::windowOutput(const Shape &is, int32_t filterH, int32_t filterW,
                            int32_t dilationH, int32_t dilationW,
                            uint32_t channels) {
  const Window &w = params.window;
  const int64_t largest = std::numeric_limits<int32_t>::max();
  if (int64_t(is[1]) + w.padTop + w.padBottom > largest ||
      int64_t(is[2]) + w.padLeft + w.padRight > largest)
    return bad("the padded input is larger than 2^31 - 1");
  int32_t oh = windowOutputSize(is[1], filterH, w.strideH, dilationH,
                                w.padTop, w.padBottom);
  int32_t ow = windowOutputSize(is[2], filterW, w.strideW, dilationW,
                                w.padLeft, w.padRight);
  if (oh <= 0 || ow <= 0)
    return bad("filter does not fit the padded input");
  return expectOutput({is[0], uint32_t(oh), uint32_t(ow), channels});
}

int Validator::binaryOp(bool fused) {
  // ADD, SUB, MUL, DIV: two tensors of rank 0..4 and a fused activation;
  // MAXIMUM, MINIMUM, POW: two tensors of rank 1..4.
  size_t minRank = fused ? 0 : 1;
  if (int rc = expectCounts(fused ? 3 : 2, fused ? 3 : 2, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input 0", minRank, 4))
    return rc;
  if (int rc = expectFloatTensor(1, "input 1", minRank, 4))
    return rc;
  if (fused)
    if (int rc = expectFuse(2))
      return rc;
  Shape shape;
  if (!broadcastShapes(in(0).dims, in(1).dims, shape))
    return bad("shapes " + shapeStr(in(0).dims) + " and " + shapeStr(in(1).dims) +
               " do not broadcast");
  return expectOutput(shape);
}

int Validator::boolBinary(bool floatInputs) {
  // Comparisons: two float tensors; LOGICAL_AND/OR: two bool tensors. Both
  // broadcast and give a bool tensor.
  if (int rc = expectCounts(2, 2, 1))
    return rc;
  for (size_t i : {0, 1}) {
    const char *what = i ? "input 1" : "input 0";
    if (int rc = floatInputs ? expectFloatTensor(i, what, 1, 4)
                             : expectBoolTensor(i, what, 1, 4))
      return rc;
  }
  Shape shape;
  if (!broadcastShapes(in(0).dims, in(1).dims, shape))
    return bad("shapes " + shapeStr(in(0).dims) + " and " + shapeStr(in(1).dims) +
               " do not broadcast");
  return expectOutputOf(shape, ANEURALNETWORKS_TENSOR_BOOL8);
}

int Validator::argExtreme() {
  if (int rc = expectCounts(2, 2, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 1, 4))
    return rc;
  if (int rc = expectAxis(1))
    return rc;
  Shape shape = in(0).dims;
  shape.erase(shape.begin() + params.axis);
  return expectOutputOf(shape, ANEURALNETWORKS_TENSOR_INT32);
}

int Validator::logicalNot() {
  if (int rc = expectCounts(1, 1, 1))
    return rc;
  if (int rc = expectBoolTensor(0, "input", 1, 4))
    return rc;
  return expectOutputOf(in(0).dims, ANEURALNETWORKS_TENSOR_BOOL8);
}

int Validator::cast() {
  if (int rc = expectCounts(1, 1, 1))
    return rc;
  auto castable = [](int32_t t) {
    return isFloatTensor(t) || t == ANEURALNETWORKS_TENSOR_INT32 ||
           t == ANEURALNETWORKS_TENSOR_BOOL8;
  };
  const char *types =
      " must be TENSOR_FLOAT32, TENSOR_FLOAT16, TENSOR_INT32 or TENSOR_BOOL8";
  if (!castable(in(0).type))
    return bad(std::string("input") + types);
  if (!castable(out(0).type))
    return bad(std::string("output") + types);
  size_t rank = in(0).dims.size();
  if (rank < 1 || rank > 4)
    return bad("input has rank " + std::to_string(rank) + ", expected 1..4");
  return expectOutputOf(in(0).dims, out(0).type);
}

int Validator::select() {
  if (int rc = expectCounts(3, 3, 1))
    return rc;
  if (int rc = expectBoolTensor(0, "condition", 1, 4))
    return rc;
  const Operand &a = in(1);
  if (!isFloatTensor(a.type) || in(2).type != a.type)
    return bad("the choices must be float tensors of one type");
  if (a.dims != in(0).dims || in(2).dims != in(0).dims)
    return bad("the condition and the choices must have one shape (SELECT "
               "does not broadcast)");
  return expectOutputOf(a.dims, a.type);
}

int Validator::convLike(bool depthwise) {
  size_t n = op.inputs.size();
  // Implicit padding: input, filter, bias, scheme, strides (2), [multiplier],
  // fuse, then optionally layout and dilations (2). Explicit padding has four
  // paddings in place of the scheme.
  size_t implicitCount = depthwise ? 8 : 7, explicitCount = implicitCount + 3;
  if (int rc = expectCounts(implicitCount, explicitCount + 3, 1))
    return rc;
  // The two forms overlap in count: after the fused activation of the
  // implicit form comes a BOOL layout operand, where the explicit form has
  // an INT32 padding or stride.
  bool implicit = n == implicitCount ||
                  in(implicitCount).type == ANEURALNETWORKS_BOOL;
  if (!implicit && n < explicitCount)
    return bad("expects " + std::to_string(implicitCount) +
               " inputs with implicit padding or at least " +
               std::to_string(explicitCount) + " with explicit padding, got " +
               std::to_string(n));
  size_t next = 3;
  Window &w = params.window;
  int32_t paddingCode = 0;
  if (implicit) {
    if (int rc = paddingScheme(next, paddingCode))
      return rc;
  } else if (int rc = explicitPadding(next)) {
    return rc;
  }
  if (int rc = positiveScalars(next, {&w.strideW, &w.strideH}, "stride"))
    return rc;
  if (depthwise)
    if (int rc = positiveScalars(next, {&params.depthMultiplier},
                                 "depth multiplier"))
      return rc;
  if (int rc = expectFuse(next++))
    return rc;
  w.fuseCode = params.fuseCode;
  if (next < n) {
    if (int rc = expectScalar(next, ANEURALNETWORKS_BOOL, "layout"))
      return rc;
    if (m.b8(op.inputs[next++]))
      return bad("NCHW layout is not supported by the host implementation");
  }
  if (next < n) {
    if (next + 1 >= n)
      return bad("dilation factors come in pairs");
    if (int rc = positiveScalars(next, {&w.dilationW, &w.dilationH}, "dilation"))
      return rc;
  }
  if (next != n)
    return bad("unexpected extra operands");
  if (int rc = expectFloatTensor(0, "input", 4, 4))
    return rc;
  if (int rc = expectFloatTensor(1, "filter", 4, 4))
    return rc;
  if (int rc = expectFloatTensor(2, "bias", 1, 1))
    return rc;
  const Shape &is = in(0).dims, &fs = in(1).dims;
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
  if (in(2).dims[0] != outC)
    return bad("bias size " + std::to_string(in(2).dims[0]) +
               " does not match output depth " + std::to_string(outC));
  params.filterH = int32_t(fs[1]);
  params.filterW = int32_t(fs[2]);
  if (implicit) {
    computeImplicitPadding(paddingCode, is[2], w.strideW, fs[2], w.dilationW,
                           w.padLeft, w.padRight);
    computeImplicitPadding(paddingCode, is[1], w.strideH, fs[1], w.dilationH,
                           w.padTop, w.padBottom);
  }
  return windowOutput(is, params.filterH, params.filterW, w.dilationH,
                      w.dilationW, outC);
}

int Validator::fuseLayoutAndTensors(size_t next) {
  if (int rc = expectFuse(next++))
    return rc;
  params.window.fuseCode = params.fuseCode;
  if (int rc = expectScalar(next, ANEURALNETWORKS_BOOL, "layout"))
    return rc;
  if (m.b8(op.inputs[next]))
    return bad("NCHW layout is not supported by the host implementation");
  if (int rc = expectFloatTensor(0, "input", 4, 4))
    return rc;
  if (int rc = expectFloatTensor(1, "filter", 4, 4))
    return rc;
  return expectFloatTensor(2, "bias", 1, 1);
}

int Validator::groupedConv() {
  // input, filter, bias, padding (a scheme, or 4 explicit paddings),
  // strides (2), num_groups, fuse, layout: 9 or 12 inputs.
  size_t n = op.inputs.size();
  if (int rc = expectCounts(9, 12, 1))
    return rc;
  if (n != 9 && n != 12)
    return bad("expects 9 (implicit padding) or 12 (explicit padding) "
               "inputs, got " + std::to_string(n));
  size_t next = 3;
  Window &w = params.window;
  int32_t paddingCode = 0;
  if (n == 9) {
    if (int rc = paddingScheme(next, paddingCode))
      return rc;
  } else if (int rc = explicitPadding(next)) {
    return rc;
  }
  if (int rc = positiveScalars(next, {&w.strideW, &w.strideH, &params.groups},
                               "strides and num_groups"))
    return rc;
  if (int rc = fuseLayoutAndTensors(next))
    return rc;
  const Shape &is = in(0).dims, &fs = in(1).dims;
  uint32_t groups = uint32_t(params.groups);
  if (is[3] % groups || fs[0] % groups)
    return bad("num_groups " + std::to_string(groups) +
               " does not divide the input depth " + std::to_string(is[3]) +
               " and the output depth " + std::to_string(fs[0]));
  if (uint64_t(fs[3]) * groups != is[3])
    return bad("filter depth " + std::to_string(fs[3]) + " times num_groups " +
               std::to_string(groups) + " does not match input depth " +
               std::to_string(is[3]));
  if (in(2).dims[0] != fs[0])
    return bad("bias size " + std::to_string(in(2).dims[0]) +
               " does not match output depth " + std::to_string(fs[0]));
  params.filterH = int32_t(fs[1]);
  params.filterW = int32_t(fs[2]);
  if (n == 9) {
    computeImplicitPadding(paddingCode, is[2], w.strideW, fs[2], 1,
                           w.padLeft, w.padRight);
    computeImplicitPadding(paddingCode, is[1], w.strideH, fs[1], 1,
                           w.padTop, w.padBottom);
  }
  return windowOutput(is, params.filterH, params.filterW, 1, 1, fs[0]);
}

int Validator::transposeConv() {
  // Explicit padding: input, filter, bias, paddings (4), strides (2), fuse,
  // layout. The implicit form (an output shape and a padding scheme) has 9.
  if (int rc = expectCounts(9, 11, 1))
    return rc;
  if (op.inputs.size() != 11)
    return bad("only the explicit-padding form (11 inputs) is implemented by "
               "the host implementation, got " +
               std::to_string(op.inputs.size()) + " inputs");
  size_t next = 3;
  Window &w = params.window;
  if (int rc = explicitPadding(next))
    return rc;
  if (int rc = positiveScalars(next, {&w.strideW, &w.strideH}, "stride"))
    return rc;
  if (int rc = fuseLayoutAndTensors(next))
    return rc;
  const Shape &is = in(0).dims, &fs = in(1).dims;
  if (fs[3] != is[3])
    return bad("filter input depth " + std::to_string(fs[3]) +
               " does not match input depth " + std::to_string(is[3]));
  if (in(2).dims[0] != fs[0])
    return bad("bias size " + std::to_string(in(2).dims[0]) +
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
  // input, then width and height (INT32 sizes, or float scales from feature
  // level 3), then optional layout, align_corners, half_pixel_centers.
  if (int rc = expectCounts(3, 6, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 4, 4))
    return rc;
  const Shape &is = in(0).dims;
  uint64_t size[2]; // width, height
  if (in(1).type == ANEURALNETWORKS_INT32) {
    for (size_t i : {1, 2}) {
      if (int rc = expectScalar(i, ANEURALNETWORKS_INT32, "output size"))
        return rc;
      int32_t v = m.i32(op.inputs[i]);
      if (v < 1)
        return bad("output size must be positive");
      size[i - 1] = uint64_t(v);
    }
  } else {
    for (size_t i : {1, 2}) {
      if (int rc = expectScalar(i, floatScalarType(),
                                "output size (INT32) or scale (float)"))
        return rc;
      double scale = m.f32(op.inputs[i]);
      double v = std::floor(double(is[3 - i]) * scale);
      if (!(v >= 1.0) || v > double(std::numeric_limits<int32_t>::max()))
        return bad("scale " + std::to_string(scale) +
                   " gives no valid output size");
      size[i - 1] = uint64_t(v);
    }
  }
  const char *flags[] = {"layout", "align_corners", "half_pixel_centers"};
  bool values[3] = {false, false, false};
  for (size_t i = 3; i < op.inputs.size(); ++i) {
    if (int rc = expectScalar(i, ANEURALNETWORKS_BOOL, flags[i - 3]))
      return rc;
    values[i - 3] = m.b8(op.inputs[i]);
  }
  if (values[0])
    return bad("NCHW layout is not supported by the host implementation");
  if (values[1] && values[2])
    return bad("align_corners and half_pixel_centers exclude each other");
  params.resize = {values[1], values[2]};
  return expectOutput({is[0], uint32_t(size[1]), uint32_t(size[0]), is[3]});
}

int Validator::pool() {
  size_t n = op.inputs.size();
  if (int rc = expectCounts(7, 11, 1))
    return rc;
  bool implicit = n == 7 || n == 8;
  if (!implicit && n != 10 && n != 11)
    return bad("expects 7, 8, 10 or 11 inputs");
  Window &w = params.window;
  size_t next = 1;
  int32_t paddingCode = 0;
  if (implicit) {
    if (int rc = paddingScheme(next, paddingCode))
      return rc;
  } else if (int rc = explicitPadding(next)) {
    return rc;
  }
  if (int rc = positiveScalars(
          next, {&w.strideW, &w.strideH, &params.filterW, &params.filterH},
          "strides and filter sizes"))
    return rc;
  if (int rc = expectFuse(next++))
    return rc;
  w.fuseCode = params.fuseCode;
  if (next < n) {
    if (int rc = expectScalar(next, ANEURALNETWORKS_BOOL, "layout"))
      return rc;
    if (m.b8(op.inputs[next]))
      return bad("NCHW layout is not supported by the host implementation");
  }
  if (int rc = expectFloatTensor(0, "input", 4, 4))
    return rc;
  const Shape &is = in(0).dims;
  if (implicit) {
    computeImplicitPadding(paddingCode, is[2], w.strideW, params.filterW, 1,
                           w.padLeft, w.padRight);
    computeImplicitPadding(paddingCode, is[1], w.strideH, params.filterH, 1,
                           w.padTop, w.padBottom);
  }
  return windowOutput(is, params.filterH, params.filterW, 1, 1, is[3]);
}

int Validator::fullyConnected() {
  if (int rc = expectCounts(4, 4, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 2, 4))
    return rc;
  if (int rc = expectFloatTensor(1, "weights", 2, 2))
    return rc;
  if (int rc = expectFloatTensor(2, "bias", 1, 1))
    return rc;
  if (int rc = expectFuse(3))
    return rc;
  uint32_t units = in(1).dims[0], inSize = in(1).dims[1];
  size_t total = numElements(in(0).dims);
  if (inSize == 0 || total % inSize != 0)
    return bad("input size " + std::to_string(total) +
               " is not a multiple of the weights' input size " +
               std::to_string(inSize));
  if (in(2).dims[0] != units)
    return bad("bias size does not match the number of units");
  if (total / inSize > std::numeric_limits<uint32_t>::max())
    return bad("too many input rows");
  params.batch = uint32_t(total / inSize);
  return expectOutput({params.batch, units});
}

int Validator::softmax(bool logarithm) {
  // LOG_SOFTMAX's axis is not optional.
  if (int rc = expectCounts(logarithm ? 3 : 2, 3, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 1, 4))
    return rc;
  if (int rc = expectScalar(1, floatScalarType(), "beta"))
    return rc;
  params.beta = m.f32(op.inputs[1]);
  if (!(params.beta > 0.0f))
    return bad("beta must be positive");
  params.axis = int32_t(in(0).dims.size()) - 1;
  if (op.inputs.size() == 3)
    if (int rc = expectAxis(2))
      return rc;
  return expectOutput(in(0).dims);
}

int Validator::elu() {
  if (int rc = expectCounts(2, 2, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 1, 4))
    return rc;
  if (int rc = expectScalar(1, floatScalarType(), "alpha"))
    return rc;
  params.alpha = m.f32(op.inputs[1]);
  return expectOutput(in(0).dims);
}

int Validator::instanceNorm() {
  if (int rc = expectCounts(5, 5, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 4, 4))
    return rc;
  const char *names[] = {"gamma", "beta", "epsilon"};
  float values[3];
  for (size_t i = 1; i <= 3; ++i) {
    if (int rc = expectScalar(i, floatScalarType(), names[i - 1]))
      return rc;
    values[i - 1] = m.f32(op.inputs[i]);
  }
  if (!(values[2] > 0.0f))
    return bad("epsilon must be positive");
  if (int rc = expectScalar(4, ANEURALNETWORKS_BOOL, "layout"))
    return rc;
  params.norm = {values[0], values[1], values[2], m.b8(op.inputs[4])};
  return expectOutput(in(0).dims);
}

int Validator::localResponse() {
  // input, radius, bias, alpha, beta, then the axis from level 3.
  if (int rc = expectCounts(5, 6, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 1, 4))
    return rc;
  if (int rc = expectScalar(1, ANEURALNETWORKS_INT32, "radius"))
    return rc;
  LocalResponse &p = params.lrn;
  p.radius = m.i32(op.inputs[1]);
  if (p.radius < 0)
    return bad("radius must be non-negative");
  const char *names[] = {"bias", "alpha", "beta"};
  float *values[] = {&p.bias, &p.alpha, &p.beta};
  for (size_t i = 0; i < 3; ++i) {
    if (int rc = expectScalar(2 + i, floatScalarType(), names[i]))
      return rc;
    *values[i] = m.f32(op.inputs[2 + i]);
  }
  // Without the axis operand: the last axis (any rank from level 3).
  params.axis = int32_t(in(0).dims.size()) - 1;
  if (op.inputs.size() == 6)
    if (int rc = expectAxis(5))
      return rc;
  p.axis = params.axis;
  return expectOutput(in(0).dims);
}

int Validator::l2Normalization() {
  // input, then the axis from level 3.
  if (int rc = expectCounts(1, 2, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 1, 4))
    return rc;
  // Without the axis operand: the last axis (any rank from level 3).
  params.axis = int32_t(in(0).dims.size()) - 1;
  if (op.inputs.size() == 2)
    if (int rc = expectAxis(1))
      return rc;
  return expectOutput(in(0).dims);
}

int Validator::reshape() {
  if (int rc = expectCounts(2, 2, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 0, 4))
    return rc;
  const Operand &shape = in(1);
  if (shape.type != ANEURALNETWORKS_TENSOR_INT32 || shape.dims.size() != 1 ||
      shape.kind != Kind::Constant)
    return bad("shape must be a constant 1-D TENSOR_INT32");
  Shape target;
  uint64_t total = numElements(in(0).dims), known = 1;
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
  size_t n = op.inputs.size();
  if (n < 2)
    return bad("expects at least one input and the axis");
  if (op.outputs.size() != 1)
    return bad("expects 1 output");
  if (int rc = expectFloatTensor(0, "input", 1, 4))
    return rc;
  if (int rc = expectAxis(n - 1))
    return rc;
  int32_t rank = int32_t(in(0).dims.size()), axis = params.axis;
  Shape shape = in(0).dims;
  for (size_t i = 1; i + 1 < n; ++i) {
    if (int rc = expectFloatTensor(i, "input", 1, 4))
      return rc;
    const Shape &s = in(i).dims;
    if (int32_t(s.size()) != rank)
      return bad("inputs differ in rank");
    for (int32_t d = 0; d < rank; ++d)
      if (d != axis && s[d] != shape[d])
        return bad("inputs differ outside the concatenation axis");
    if (uint64_t(shape[axis]) + s[axis] > std::numeric_limits<uint32_t>::max())
      return bad("concatenated dimension overflows");
    shape[axis] += s[axis];
  }
  return expectOutput(shape);
}

int Validator::transpose() {
  if (int rc = expectCounts(1, 2, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 1, 4))
    return rc;
  const Shape &is = in(0).dims;
  uint32_t rank = uint32_t(is.size());
  std::vector<int32_t> &perm = params.indices;
  if (op.inputs.size() == 1) {
    // Without perm, the dimensions are reversed.
    for (uint32_t d = rank; d-- > 0;)
      perm.push_back(int32_t(d));
  } else if (int rc = int32Tensor(1, "perm", {rank}, perm)) {
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

int Validator::padOp(bool withValue, bool mirror) {
  // PAD: input, paddings; PAD_V2: and the value; MIRROR_PAD: and the mode.
  size_t count = withValue || mirror ? 3 : 2;
  if (int rc = expectCounts(count, count, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 1, 4))
    return rc;
  const Shape &is = in(0).dims;
  std::vector<int32_t> pads;
  if (int rc = int32Tensor(1, "paddings", {uint32_t(is.size()), 2}, pads))
    return rc;
  if (withValue) {
    if (int rc = expectScalar(2, floatScalarType(), "pad value"))
      return rc;
    params.padValue = m.f32(op.inputs[2]);
  }
  if (mirror) {
    if (int rc = expectScalar(2, ANEURALNETWORKS_INT32, "mirror pad mode"))
      return rc;
    int32_t mode = m.i32(op.inputs[2]);
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
  if (int rc = expectCounts(2, 3, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 4, 4))
    return rc;
  size_t next = 1;
  if (int rc = positiveScalars(next, {&params.blockSize}, "block size"))
    return rc;
  if (op.inputs.size() == 3) {
    if (int rc = expectScalar(2, ANEURALNETWORKS_BOOL, "layout"))
      return rc;
    params.nchw = m.b8(op.inputs[2]);
  }
  Shape shape = in(0).dims;
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
  if (int rc = expectCounts(3, 3, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 1, 4))
    return rc;
  size_t next = 1;
  if (int rc = positiveScalars(next, {&params.groups}, "num_groups"))
    return rc;
  if (int rc = expectAxis(2))
    return rc;
  if (in(0).dims[params.axis] % uint32_t(params.groups))
    return bad("num_groups " + std::to_string(params.groups) +
               " does not divide dimension " + std::to_string(params.axis));
  return expectOutput(in(0).dims);
}

int Validator::reverse() {
  if (int rc = expectCounts(2, 2, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 1, 4))
    return rc;
  std::vector<int32_t> axis;
  if (int rc = int32Tensor(1, "axis", {1}, axis))
    return rc;
  int32_t rank = int32_t(in(0).dims.size());
  if (axis[0] < 0 || axis[0] >= rank)
    return bad("axis " + std::to_string(axis[0]) + " out of range");
  params.axis = axis[0];
  return expectOutput(in(0).dims);
}

int Validator::gather() {
  if (int rc = expectCounts(3, 3, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 1, 4))
    return rc;
  if (int rc = expectAxis(1))
    return rc;
  const Shape &is = in(0).dims;
  // Constant indices are checked here; computed ones by the kernel, which
  // fails the execution on an index outside the dimension.
  const Operand &idx = in(2);
  if (idx.type != ANEURALNETWORKS_TENSOR_INT32 || idx.dims.empty())
    return bad("indices must be a TENSOR_INT32 of rank 1 or more");
  uint32_t len = is[params.axis];
  if (idx.kind == Kind::Constant) {
    std::vector<int32_t> constant;
    if (int rc = int32Tensor(2, "indices", idx.dims, constant))
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
  if (int rc = expectCounts(3, 3, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 1, 4))
    return rc;
  const Shape &is = in(0).dims;
  uint32_t rank = uint32_t(is.size());
  std::vector<int32_t> sizes;
  if (int rc = int32Tensor(1, "begin", {rank}, params.indices))
    return rc;
  if (int rc = int32Tensor(2, "size", {rank}, sizes))
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
  // input, begins, ends, strides, begin_mask, end_mask, shrink_axis_mask.
  if (int rc = expectCounts(7, 7, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 1, 4))
    return rc;
  const Shape &is = in(0).dims;
  uint32_t rank = uint32_t(is.size());
  std::vector<int32_t> begins, ends, strides;
  if (int rc = int32Tensor(1, "begins", {rank}, begins))
    return rc;
  if (int rc = int32Tensor(2, "ends", {rank}, ends))
    return rc;
  if (int rc = int32Tensor(3, "strides", {rank}, strides))
    return rc;
  int32_t masks[3];
  const char *maskNames[] = {"begin_mask", "end_mask", "shrink_axis_mask"};
  for (size_t i = 0; i < 3; ++i) {
    if (int rc = expectScalar(4 + i, ANEURALNETWORKS_INT32, maskNames[i]))
      return rc;
    masks[i] = m.i32(op.inputs[4 + i]);
  }
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
  // input, axis, num_splits; num_splits outputs of equal size.
  if (op.inputs.size() != 3)
    return bad("expects 3 inputs, got " + std::to_string(op.inputs.size()));
  if (int rc = expectFloatTensor(0, "input", 1, 4))
    return rc;
  if (int rc = expectAxis(1))
    return rc;
  int32_t parts = 0;
  size_t next = 2;
  if (int rc = positiveScalars(next, {&parts}, "num_splits"))
    return rc;
  if (int rc = expectCounts(3, 3, size_t(parts)))
    return rc;
  Shape shape = in(0).dims;
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
  if (int rc = expectCounts(2, 2, 1))
    return rc;
  if (int rc = expectFloatTensor(0, "input", 1, 4))
    return rc;
  const Shape &is = in(0).dims;
  std::vector<int32_t> multiples;
  if (int rc = int32Tensor(1, "multiples", {uint32_t(is.size())}, multiples))
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

int Validator::reduce(bool mean, bool boolean) {
  if (int rc = expectCounts(3, 3, 1))
    return rc;
  if (int rc = boolean ? expectBoolTensor(0, "input", 1, 4)
                       : expectFloatTensor(0, "input", 1, 4))
    return rc;
  const Shape &is = in(0).dims;
  int32_t rank = int32_t(is.size());
  const Operand &axesOperand = in(1);
  if (axesOperand.dims.size() != 1)
    return bad("axes must be a 1-D tensor");
  std::vector<int32_t> axes;
  if (int rc = int32Tensor(1, "axes", axesOperand.dims, axes))
    return rc;
  // MEAN's keep_dims is an INT32 (positive keeps); REDUCE_*'s a BOOL.
  bool keep;
  if (mean) {
    if (int rc = expectScalar(2, ANEURALNETWORKS_INT32, "keep_dims"))
      return rc;
    keep = m.i32(op.inputs[2]) > 0;
  } else {
    if (int rc = expectScalar(2, ANEURALNETWORKS_BOOL, "keep_dims"))
      return rc;
    keep = m.b8(op.inputs[2]);
  }
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
  return expectOutput(shape);
}

int Validator::batchMatmul() {
  if (int rc = expectCounts(2, 4, 1))
    return rc;
  if (op.inputs.size() == 3)
    return bad("adj_x and adj_y come together");
  if (int rc = expectFloatTensor(0, "input 0", 2, 4))
    return rc;
  if (int rc = expectFloatTensor(1, "input 1", 2, 4))
    return rc;
  if (op.inputs.size() == 4) {
    if (int rc = expectScalar(2, ANEURALNETWORKS_BOOL, "adj_x"))
      return rc;
    if (int rc = expectScalar(3, ANEURALNETWORKS_BOOL, "adj_y"))
      return rc;
    params.adjA = m.b8(op.inputs[2]);
    params.adjB = m.b8(op.inputs[3]);
  }
  const Shape &as = in(0).dims, &bs = in(1).dims;
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

int Validator::matchLayout() {
  auto describe = [&](uint32_t idx) {
    const Operand &o = m.operands[idx];
    spec::OperandDesc d;
    d.type = o.type;
    d.rank = uint32_t(o.dims.size());
    d.constant = o.kind == Kind::Constant;
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

int Validator::run() {
  for (uint32_t idx : op.outputs)
    if (m.operands[idx].kind == Kind::Constant ||
        m.operands[idx].kind == Kind::Input)
      return bad("an output operand is a constant or a model input");
  if (!spec::lookupLayout(op.opcode))
    return fail(ANEURALNETWORKS_BAD_DATA,
                "operation " + std::to_string(index) + ": opcode " +
                    std::to_string(op.opcode) +
                    " is not implemented by the host NNAPI implementation");
  if (int rc = matchLayout())
    return rc;
  if (unaryKindOf(op.opcode)) {
    if (int rc = expectCounts(1, 1, 1))
      return rc;
    if (int rc = expectFloatTensor(0, "input", 1, 4))
      return rc;
    return expectOutput(in(0).dims);
  }
  if (binaryKindOf(op.opcode))
    return binaryOp(hasFusedActivationOperand(op.opcode));
  if (compareKindOf(op.opcode))
    return boolBinary(true);
  switch (op.opcode) {
  case ANEURALNETWORKS_LOGICAL_AND: case ANEURALNETWORKS_LOGICAL_OR:
    return boolBinary(false);
  case ANEURALNETWORKS_LOGICAL_NOT:
    return logicalNot();
  case ANEURALNETWORKS_ARGMAX: case ANEURALNETWORKS_ARGMIN:
    return argExtreme();
  case ANEURALNETWORKS_SELECT:
    return select();
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
  case ANEURALNETWORKS_SOFTMAX:
    return softmax(false);
  case ANEURALNETWORKS_LOG_SOFTMAX:
    return softmax(true);
  case ANEURALNETWORKS_ELU:
    return elu();
  case ANEURALNETWORKS_INSTANCE_NORMALIZATION:
    return instanceNorm();
  case ANEURALNETWORKS_LOCAL_RESPONSE_NORMALIZATION:
    return localResponse();
  case ANEURALNETWORKS_L2_NORMALIZATION:
    return l2Normalization();
  case ANEURALNETWORKS_CONCATENATION:
    return concatenation();
  case ANEURALNETWORKS_TRANSPOSE:
    return transpose();
  case ANEURALNETWORKS_PAD:
    return padOp(false, false);
  case ANEURALNETWORKS_PAD_V2:
    return padOp(true, false);
  case ANEURALNETWORKS_MIRROR_PAD:
    return padOp(false, true);
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
  case ANEURALNETWORKS_CAST:
    return cast();
  case ANEURALNETWORKS_SLICE:
    return slice();
  case ANEURALNETWORKS_SPLIT:
    return split();
  case ANEURALNETWORKS_STRIDED_SLICE:
    return stridedSlice();
  case ANEURALNETWORKS_TILE:
    return tile();
  case ANEURALNETWORKS_MEAN:
    return reduce(true, false);
  case ANEURALNETWORKS_REDUCE_SUM: case ANEURALNETWORKS_REDUCE_MAX:
  case ANEURALNETWORKS_REDUCE_MIN: case ANEURALNETWORKS_REDUCE_PROD:
    return reduce(false, false);
  case ANEURALNETWORKS_REDUCE_ANY: case ANEURALNETWORKS_REDUCE_ALL:
    return reduce(false, true);
  case ANEURALNETWORKS_BATCH_MATMUL:
    return batchMatmul();
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
    if (o.kind == Kind::Constant || o.kind == Kind::Input)
      defined[i] = true;
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
