//===- XnnpackSteps.cpp - NNAPI operations on XNNPACK operators -----------===//
//
// Each NNAPI operation XNNPACK has an operator for becomes one XNNPACK
// operator, created (and its weights packed) when the compilation finishes.
// NNAPI's layouts are XNNPACK's: CONV_2D filters [out, kh, kw, in] are its
// OHWI kernels, DEPTHWISE_CONV_2D filters [1, kh, kw, in * multiplier] its
// depthwise kernels (groups = input channels, multiplier outputs per group),
// FULLY_CONNECTED weights [units, in] its [output, input] kernels; fused
// activations become the operator's output range, and padding is explicit
// after validation resolved SAME/VALID.
//
// Where XNNPACK declines a valid NNAPI operation (unsupported or invalid
// parameter, e.g. a 1x1 max pool), the operation runs on its reference
// kernel instead; any other XNNPACK error fails the compilation.
//
// One maker per operation family (convolutions, fully connected, pools,
// element-wise binary, unary and activations, data movement) creates the
// operator; createXnnpackStep picks the family and handles the outcome. The
// int8 families are in XnnpackInt8Steps.cpp.
//
//===----------------------------------------------------------------------===//

#include "XnnpackStep.h"

#include "nnapi-mlir/NNAPI/DeviceProfile.h"

#include <cmath>
#include <limits>
#include <mutex>

#ifdef NNAPI_MLIR_HAVE_XNNPACK

static_assert(nnapi_mlir::host::kKernelSlackBytes >= XNN_EXTRA_BYTES,
              "the arena must leave XNNPACK its read slack");

namespace nnapi_mlir::host::xnnpack {

namespace {

const char *statusName(xnn_status s) {
  switch (s) {
  case xnn_status_success: return "success";
  case xnn_status_uninitialized: return "uninitialized";
  case xnn_status_invalid_parameter: return "invalid_parameter";
  case xnn_status_invalid_state: return "invalid_state";
  case xnn_status_unsupported_parameter: return "unsupported_parameter";
  case xnn_status_unsupported_hardware: return "unsupported_hardware";
  case xnn_status_out_of_memory: return "out_of_memory";
  }
  return "unknown";
}

} // namespace

std::string describe(const char *call, xnn_status s, bool injected) {
  return std::string(call) + " returned xnn_status_" + statusName(s) +
         (injected ? " (injected by NNAPI_MLIR_HOST_FAULT)" : "");
}

/// Output range of a fused activation.
void activationRange(int32_t fuseCode, float &lo, float &hi) {
  lo = -std::numeric_limits<float>::infinity();
  hi = std::numeric_limits<float>::infinity();
  switch (fuseCode) {
  case ANEURALNETWORKS_FUSED_RELU: lo = 0.0f; break;
  case ANEURALNETWORKS_FUSED_RELU1: lo = -1.0f, hi = 1.0f; break;
  case ANEURALNETWORKS_FUSED_RELU6: lo = 0.0f, hi = 6.0f; break;
  default: break;
  }
}

namespace {

class ConvStep : public XnnStep {
public:
  using XnnStep::XnnStep;
  uint32_t input, output;
  size_t batch, height, width;
  int run(const Bindings &b) override {
    return launch(xnn_setup_convolution2d_nhwc_f32(
        op, batch, height, width, b[input], b[output], threadpool));
  }
};

class DeconvStep : public XnnStep {
public:
  using XnnStep::XnnStep;
  uint32_t input, output;
  size_t batch, height, width;
  int run(const Bindings &b) override {
    return launch(xnn_setup_deconvolution2d_nhwc_f32(
        op, batch, height, width, /*adjustment_height=*/0,
        /*adjustment_width=*/0, b[input], b[output], threadpool));
  }
};

class FullyConnectedStep : public XnnStep {
public:
  using XnnStep::XnnStep;
  uint32_t input, output;
  size_t batch;
  int run(const Bindings &b) override {
    return launch(xnn_setup_fully_connected_nc_f32(op, batch, b[input],
                                                   b[output], threadpool));
  }
};

class PoolStep : public XnnStep {
public:
  using XnnStep::XnnStep;
  enum { Average, Max, GlobalAverage } kind;
  uint32_t input, output;
  size_t batch, height, width;
  int run(const Bindings &b) override {
    switch (kind) {
    case Average:
      return launch(xnn_setup_average_pooling2d_nhwc_f32(
          op, batch, height, width, b[input], b[output], threadpool));
    case Max:
      return launch(xnn_setup_max_pooling2d_nhwc_f32(
          op, batch, height, width, b[input], b[output], threadpool));
    case GlobalAverage:
      return launch(xnn_setup_global_average_pooling_nwc_f32(
          op, batch, height * width, b[input], b[output], threadpool));
    }
    return ANEURALNETWORKS_OP_FAILED;
  }
};

class BinaryStep : public XnnStep {
public:
  using XnnStep::XnnStep;
  decltype(&xnn_setup_add_nd_f32) setup;
  uint32_t lhs, rhs, output;
  std::vector<size_t> lhsShape, rhsShape;
  int run(const Bindings &b) override {
    return launch(setup(op, lhsShape.size(), lhsShape.data(), rhsShape.size(),
                        rhsShape.data(), b[lhs], b[rhs], b[output],
                        threadpool));
  }
};

/// Unary operators over rows of a contiguous [batch, channels] tensor.
class RowsStep : public XnnStep {
public:
  using XnnStep::XnnStep;
  decltype(&xnn_setup_clamp_nc_f32) setup;
  uint32_t input, output;
  size_t rows;
  int run(const Bindings &b) override {
    return launch(setup(op, rows, b[input], b[output], threadpool));
  }
};

/// Constant padding of an N-D tensor (PAD, PAD_V2): a 32-bit copy.
class PadStep : public XnnStep {
public:
  using XnnStep::XnnStep;
  uint32_t input, output;
  std::vector<size_t> shape, before, after;
  int run(const Bindings &b) override {
    return launch(xnn_setup_constant_pad_nd_x32(
        op, shape.size(), shape.data(), before.data(), after.data(), b[input],
        b[output], threadpool));
  }
};

/// RESIZE_BILINEAR in NHWC.
class ResizeStep : public XnnStep {
public:
  using XnnStep::XnnStep;
  uint32_t input, output;
  size_t batch, height, width, outHeight, outWidth;
  int run(const Bindings &b) override {
    return launch(xnn_setup_resize_bilinear2d_nhwc_f32(
        op, batch, height, width, outHeight, outWidth, b[input], b[output],
        threadpool));
  }
};

/// DEPTH_TO_SPACE in NHWC: a 32-bit copy.
class DepthToSpaceStep : public XnnStep {
public:
  using XnnStep::XnnStep;
  uint32_t input, output;
  size_t batch, height, width;
  int run(const Bindings &b) override {
    return launch(xnn_setup_depth_to_space_nhwc_x32(
        op, batch, height, width, b[input], b[output], threadpool));
  }
};

/// CHANNEL_SHUFFLE of the innermost dimension: a 32-bit copy.
class ShuffleStep : public XnnStep {
public:
  using XnnStep::XnnStep;
  uint32_t input, output;
  size_t rows;
  int run(const Bindings &b) override {
    return launch(xnn_setup_channel_shuffle_nc_x32(op, rows, b[input],
                                                    b[output], threadpool));
  }
};

/// CONV_2D, GROUPED_CONV_2D, DEPTHWISE_CONV_2D and TRANSPOSE_CONV_2D on
/// float32, with constant weights.
Made makeConvolution(const OpView &v) {
  Made made;
  const OpParams &p = v.p;
  const Window &w = v.w;
  const Shape &inShape = v.inShape, &outShape = v.outShape;
  int32_t opcode = v.operation.opcode;
  const float *filter = v.constant(v.operand(role::filter));
  const float *bias = v.constant(v.operand(role::bias));
  if (!filter || !bias)
    return made; // weights computed at run time
  size_t inC = inShape[3], outC = outShape[3];
  if (opcode == ANEURALNETWORKS_TRANSPOSE_CONV_2D) {
    auto s = std::make_unique<DeconvStep>(opcode, v.options);
    const Shape &fs = v.m.operands[v.operand(role::filter)].dims;
    // NNAPI's padding crops the full output, as XNNPACK's output padding.
    made.call = "xnn_create_deconvolution2d_nhwc_f32";
    made.status = xnn_create_deconvolution2d_nhwc_f32(
        w.padTop, w.padRight, w.padBottom, w.padLeft, fs[1], fs[2], w.strideH,
        w.strideW, /*dilation_height=*/1, /*dilation_width=*/1, /*groups=*/1,
        inC, outC, /*input_pixel_stride=*/inC, /*output_pixel_stride=*/outC,
        filter, bias, v.lo, v.hi, 0, &s->op);
    s->input = v.input, s->output = v.output;
    s->batch = inShape[0], s->height = inShape[1], s->width = inShape[2];
    made.step = std::move(s);
    return made;
  }
  bool depthwise = opcode == ANEURALNETWORKS_DEPTHWISE_CONV_2D;
  auto s = std::make_unique<ConvStep>(opcode, v.options);
  // NNAPI's [out, kh, kw, in / groups] filter is XNNPACK's grouped
  // [groups, out / groups, kh, kw, in / groups] (groups is 1 for CONV_2D).
  size_t groups = depthwise ? inC : size_t(p.groups);
  made.call = "xnn_create_convolution2d_nhwc_f32";
  made.status = xnn_create_convolution2d_nhwc_f32(
      w.padTop, w.padRight, w.padBottom, w.padLeft, p.filterH, p.filterW,
      w.strideH, w.strideW, w.dilationH, w.dilationW, groups,
      /*group_input_channels=*/depthwise ? 1 : inC / groups,
      /*group_output_channels=*/depthwise ? p.depthMultiplier : outC / groups,
      /*input_channel_stride=*/inC, /*output_channel_stride=*/outC, filter,
      bias, v.lo, v.hi, depthwise ? XNN_FLAG_DEPTHWISE_CONVOLUTION : 0,
      &s->op);
  s->input = v.input, s->output = v.output;
  s->batch = inShape[0], s->height = inShape[1], s->width = inShape[2];
  made.step = std::move(s);
  return made;
}

/// FULLY_CONNECTED on float32, with constant weights.
Made makeFullyConnected(const OpView &v) {
  Made made;
  auto s = std::make_unique<FullyConnectedStep>(v.operation.opcode, v.options);
  const Shape &ws = v.m.operands[v.operand(role::weights)].dims;
  const float *weights = v.constant(v.operand(role::weights));
  const float *bias = v.constant(v.operand(role::bias));
  if (!weights || !bias)
    return made;
  made.call = "xnn_create_fully_connected_nc_f32";
  made.status = xnn_create_fully_connected_nc_f32(
      ws[1], ws[0], ws[1], ws[0], weights, bias, v.lo, v.hi, 0, &s->op);
  s->input = v.input, s->output = v.output, s->batch = v.p.batch;
  // Debian's XNNPACK (2022) computes wrong values when it splits the
  // output columns of a fully connected operator over threads and the
  // input has a number of channels that is not a multiple of 4 (seen on
  // AVX2 CPUs: 3 rows of 6 inputs into 24 units, on 2 threads, were off by
  // up to 2.4; a multiple of 4, or one thread, is exact). Such operators
  // run on the calling thread (XnnpackFullyConnectedThreads in
  // HostDeviceTest).
  if (ws[1] % 4 != 0)
    s->threadpool = nullptr;
  made.step = std::move(s);
  return made;
}

/// AVERAGE_POOL_2D (windowed or over the whole image) and MAX_POOL_2D on
/// float32.
Made makePooling(const OpView &v) {
  Made made;
  const OpParams &p = v.p;
  const Window &w = v.w;
  const Shape &inShape = v.inShape, &outShape = v.outShape;
  bool average = v.operation.opcode == ANEURALNETWORKS_AVERAGE_POOL_2D;
  auto s = std::make_unique<PoolStep>(v.operation.opcode, v.options);
  size_t channels = inShape[3];
  bool global = average && outShape[1] == 1 && outShape[2] == 1 &&
                uint32_t(p.filterH) >= inShape[1] &&
                uint32_t(p.filterW) >= inShape[2] && w.padTop == 0 &&
                w.padLeft == 0;
  if (global) {
    s->kind = PoolStep::GlobalAverage;
    made.call = "xnn_create_global_average_pooling_nwc_f32";
    made.status = xnn_create_global_average_pooling_nwc_f32(
        channels, channels, channels, v.lo, v.hi, 0, &s->op);
  } else if (average) {
    s->kind = PoolStep::Average;
    made.call = "xnn_create_average_pooling2d_nhwc_f32";
    made.status = xnn_create_average_pooling2d_nhwc_f32(
        w.padTop, w.padRight, w.padBottom, w.padLeft, p.filterH, p.filterW,
        w.strideH, w.strideW, channels, channels, channels, v.lo, v.hi, 0,
        &s->op);
  } else {
    s->kind = PoolStep::Max;
    made.call = "xnn_create_max_pooling2d_nhwc_f32";
    made.status = xnn_create_max_pooling2d_nhwc_f32(
        w.padTop, w.padRight, w.padBottom, w.padLeft, p.filterH, p.filterW,
        w.strideH, w.strideW, 1, 1, channels, channels, channels, v.lo, v.hi,
        0, &s->op);
  }
  s->input = v.input, s->output = v.output;
  s->batch = inShape[0], s->height = inShape[1], s->width = inShape[2];
  made.step = std::move(s);
  return made;
}

/// ADD, SUB, MUL and DIV on float32, with broadcasting.
Made makeBinary(const OpView &v) {
  Made made;
  // This XNNPACK's binary kernels clamp to the activation range even when
  // it is [-inf, inf], and the clamp turns NaN into -inf. Without a fused
  // activation the reference loop (vectorized by the compiler) runs them.
  if (v.p.fuseCode == ANEURALNETWORKS_FUSED_NONE)
    return made;
  auto s = std::make_unique<BinaryStep>(v.operation.opcode, v.options);
  switch (v.operation.opcode) {
  case ANEURALNETWORKS_ADD:
    made.call = "xnn_create_add_nd_f32";
    made.status = xnn_create_add_nd_f32(v.lo, v.hi, 0, &s->op);
    s->setup = xnn_setup_add_nd_f32;
    break;
  case ANEURALNETWORKS_SUB:
    made.call = "xnn_create_subtract_nd_f32";
    made.status = xnn_create_subtract_nd_f32(v.lo, v.hi, 0, &s->op);
    s->setup = xnn_setup_subtract_nd_f32;
    break;
  case ANEURALNETWORKS_MUL:
    made.call = "xnn_create_multiply_nd_f32";
    made.status = xnn_create_multiply_nd_f32(v.lo, v.hi, 0, &s->op);
    s->setup = xnn_setup_multiply_nd_f32;
    break;
  default:
    made.call = "xnn_create_divide_nd_f32";
    made.status = xnn_create_divide_nd_f32(v.lo, v.hi, 0, &s->op);
    s->setup = xnn_setup_divide_nd_f32;
    break;
  }
  s->lhs = v.operand(role::input0), s->rhs = v.operand(role::input1);
  s->output = v.output;
  // A rank-0 operand broadcasts exactly like a [1] one.
  auto dims = [&](uint32_t idx, std::vector<size_t> &shape) {
    const Shape &d = v.m.operands[idx].dims;
    shape.assign(d.begin(), d.end());
    if (shape.empty())
      shape.push_back(1);
  };
  dims(s->lhs, s->lhsShape);
  dims(s->rhs, s->rhsShape);
  made.step = std::move(s);
  return made;
}

/// PRELU on rows of `channels`, when XNNPACK's per-channel slopes can hold
/// its alpha; false otherwise.
bool createPrelu(const OpView &v, size_t channels, RowsStep &s, Made &made) {
  // XNNPACK's slopes are per innermost channel: the alpha must be a
  // constant that varies along that dimension only and leaves the
  // input's shape as it is.
  uint32_t alphaIdx = v.operand(role::alpha);
  const Shape &as = v.m.operands[alphaIdx].dims;
  const float *alpha = v.constant(alphaIdx);
  size_t n = numElements(as);
  bool perChannel = alpha && v.outShape == v.inShape && !v.inShape.empty() &&
                    (n == 1 || (n == channels && as.back() == channels));
  if (!perChannel)
    return false;
  std::vector<float> slopes(channels, alpha[0]);
  if (n == channels)
    slopes.assign(alpha, alpha + n);
  made.call = "xnn_create_prelu_nc_f32";
  made.status = xnn_create_prelu_nc_f32(channels, channels, channels,
                                        slopes.data(), 0, &s.op);
  s.setup = xnn_setup_prelu_nc_f32;
  return true;
}

/// Activations and other unary operations on float32, over rows of the
/// innermost dimension: RELU, RELU1, RELU6, LOGISTIC, SOFTMAX, ABS, FLOOR,
/// NEG, SQRT, HARD_SWISH, ELU and PRELU.
Made makeUnary(const OpView &v) {
  Made made;
  int32_t opcode = v.operation.opcode;
  // A rank-0 tensor is one row of one channel.
  size_t channels = v.inShape.empty() ? 1 : v.inShape.back();
  size_t rows = channels ? numElements(v.inShape) / channels : 0;
  if (rows == 0)
    return made;
  auto s = std::make_unique<RowsStep>(opcode, v.options);
  switch (opcode) {
  case ANEURALNETWORKS_ABS: case ANEURALNETWORKS_FLOOR:
  case ANEURALNETWORKS_NEG: case ANEURALNETWORKS_SQRT:
  case ANEURALNETWORKS_HARD_SWISH: {
    // Operators without parameters: one create/setup pair each.
    struct Unary {
      int32_t opcode;
      const char *call;
      decltype(&xnn_create_abs_nc_f32) create;
      decltype(&xnn_setup_abs_nc_f32) setup;
    };
    static const Unary kUnary[] = {
        {ANEURALNETWORKS_ABS, "xnn_create_abs_nc_f32", xnn_create_abs_nc_f32,
         xnn_setup_abs_nc_f32},
        {ANEURALNETWORKS_FLOOR, "xnn_create_floor_nc_f32",
         xnn_create_floor_nc_f32, xnn_setup_floor_nc_f32},
        {ANEURALNETWORKS_NEG, "xnn_create_negate_nc_f32",
         xnn_create_negate_nc_f32, xnn_setup_negate_nc_f32},
        {ANEURALNETWORKS_SQRT, "xnn_create_square_root_nc_f32",
         xnn_create_square_root_nc_f32, xnn_setup_square_root_nc_f32},
        {ANEURALNETWORKS_HARD_SWISH, "xnn_create_hardswish_nc_f32",
         xnn_create_hardswish_nc_f32, xnn_setup_hardswish_nc_f32}};
    for (const Unary &u : kUnary)
      if (u.opcode == opcode) {
        made.call = u.call;
        made.status = u.create(channels, channels, channels, 0, &s->op);
        s->setup = u.setup;
      }
    break;
  }
  case ANEURALNETWORKS_ELU:
    made.call = "xnn_create_elu_nc_f32";
    made.status = xnn_create_elu_nc_f32(channels, channels, channels,
                                        v.p.alpha, 0, &s->op);
    s->setup = xnn_setup_elu_nc_f32;
    break;
  case ANEURALNETWORKS_PRELU:
    if (!createPrelu(v, channels, *s, made))
      return made;
    break;
  case ANEURALNETWORKS_LOGISTIC:
    made.call = "xnn_create_sigmoid_nc_f32";
    made.status = xnn_create_sigmoid_nc_f32(channels, channels, channels, 0,
                                            &s->op);
    s->setup = xnn_setup_sigmoid_nc_f32;
    break;
  case ANEURALNETWORKS_SOFTMAX:
    // XNNPACK normalizes the innermost dimension with beta 1.
    if (v.p.axis != int32_t(v.inShape.size()) - 1 || v.p.beta != 1.0f)
      return made;
    made.call = "xnn_create_softmax_nc_f32";
    made.status = xnn_create_softmax_nc_f32(channels, channels, channels, 0,
                                            &s->op);
    s->setup = xnn_setup_softmax_nc_f32;
    break;
  default: {
    // RELU, RELU1 and RELU6 clamp like the fused activations of their name.
    float rlo, rhi;
    activationRange(opcode == ANEURALNETWORKS_RELU ? ANEURALNETWORKS_FUSED_RELU
                    : opcode == ANEURALNETWORKS_RELU1
                        ? ANEURALNETWORKS_FUSED_RELU1
                        : ANEURALNETWORKS_FUSED_RELU6,
                    rlo, rhi);
    made.call = "xnn_create_clamp_nc_f32";
    made.status = xnn_create_clamp_nc_f32(channels, channels, channels, rlo,
                                          rhi, 0, &s->op);
    s->setup = xnn_setup_clamp_nc_f32;
    break;
  }
  }
  s->input = v.input, s->output = v.output, s->rows = rows;
  made.step = std::move(s);
  return made;
}

/// Operations that move or resample data: PAD and PAD_V2 (constant),
/// RESIZE_BILINEAR, DEPTH_TO_SPACE (NHWC) and CHANNEL_SHUFFLE (innermost).
Made makeDataMovement(const OpView &v) {
  Made made;
  const OpParams &p = v.p;
  const Shape &inShape = v.inShape, &outShape = v.outShape;
  int32_t opcode = v.operation.opcode;
  if (opcode == ANEURALNETWORKS_PAD || opcode == ANEURALNETWORKS_PAD_V2) {
    auto s = std::make_unique<PadStep>(opcode, v.options);
    float value = opcode == ANEURALNETWORKS_PAD_V2 ? p.padValue : 0;
    made.call = "xnn_create_constant_pad_nd_x32";
    made.status = xnn_create_constant_pad_nd_x32(&value, 0, &s->op);
    s->input = v.input, s->output = v.output;
    for (size_t d = 0; d < inShape.size(); ++d) {
      s->shape.push_back(inShape[d]);
      s->before.push_back(size_t(p.indices[d]));
      s->after.push_back(outShape[d] - inShape[d] - size_t(p.indices[d]));
    }
    made.step = std::move(s);
  } else if (opcode == ANEURALNETWORKS_RESIZE_BILINEAR) {
    // NNAPI's samplings are TensorFlow's: legacy (neither flag), aligned
    // corners, or half-pixel centers (XNNPACK's default).
    auto s = std::make_unique<ResizeStep>(opcode, v.options);
    uint32_t flags = p.resize.alignCorners ? XNN_FLAG_ALIGN_CORNERS
                     : p.resize.halfPixelCenters
                         ? 0
                         : XNN_FLAG_TENSORFLOW_LEGACY_MODE;
    made.call = "xnn_create_resize_bilinear2d_nhwc_f32";
    made.status = xnn_create_resize_bilinear2d_nhwc_f32(
        inShape[3], inShape[3], inShape[3], flags, &s->op);
    s->input = v.input, s->output = v.output;
    s->batch = inShape[0], s->height = inShape[1], s->width = inShape[2];
    s->outHeight = outShape[1], s->outWidth = outShape[2];
    made.step = std::move(s);
  } else if (opcode == ANEURALNETWORKS_DEPTH_TO_SPACE) {
    if (p.nchw)
      return made;
    auto s = std::make_unique<DepthToSpaceStep>(opcode, v.options);
    made.call = "xnn_create_depth_to_space_nhwc_x32";
    made.status = xnn_create_depth_to_space_nhwc_x32(
        outShape[3], inShape[3], outShape[3], uint32_t(p.blockSize), 0,
        &s->op);
    s->input = v.input, s->output = v.output;
    s->batch = inShape[0], s->height = inShape[1], s->width = inShape[2];
    made.step = std::move(s);
  } else { // CHANNEL_SHUFFLE
    if (p.axis != int32_t(inShape.size()) - 1)
      return made;
    size_t channels = inShape.back(), groups = size_t(p.groups);
    auto s = std::make_unique<ShuffleStep>(opcode, v.options);
    made.call = "xnn_create_channel_shuffle_nc_x32";
    made.status = xnn_create_channel_shuffle_nc_x32(
        groups, channels / groups, channels, channels, 0, &s->op);
    s->input = v.input, s->output = v.output;
    s->rows = numElements(inShape) / channels;
    made.step = std::move(s);
  }
  return made;
}

/// The family maker of `v`'s operation; nothing made for the operations
/// that stay on the reference kernels.
Made makeStep(const OpView &v) {
  int32_t opcode = v.operation.opcode;
  if (opcode == ANEURALNETWORKS_QUANTIZE ||
      opcode == ANEURALNETWORKS_DEQUANTIZE)
    return makeConvert(v);
  if (isQuant8DataType(v.m.layouts[v.index].dataType))
    return makeInt8(v);
  switch (opcode) {
  case ANEURALNETWORKS_CONV_2D:
  case ANEURALNETWORKS_GROUPED_CONV_2D:
  case ANEURALNETWORKS_DEPTHWISE_CONV_2D:
  case ANEURALNETWORKS_TRANSPOSE_CONV_2D:
    return makeConvolution(v);
  case ANEURALNETWORKS_FULLY_CONNECTED:
    return makeFullyConnected(v);
  case ANEURALNETWORKS_AVERAGE_POOL_2D:
  case ANEURALNETWORKS_MAX_POOL_2D:
    return makePooling(v);
  case ANEURALNETWORKS_ADD: case ANEURALNETWORKS_SUB:
  case ANEURALNETWORKS_MUL: case ANEURALNETWORKS_DIV:
    return makeBinary(v);
  case ANEURALNETWORKS_RELU: case ANEURALNETWORKS_RELU1:
  case ANEURALNETWORKS_RELU6: case ANEURALNETWORKS_LOGISTIC:
  case ANEURALNETWORKS_SOFTMAX: case ANEURALNETWORKS_ABS:
  case ANEURALNETWORKS_FLOOR: case ANEURALNETWORKS_NEG:
  case ANEURALNETWORKS_SQRT: case ANEURALNETWORKS_HARD_SWISH:
  case ANEURALNETWORKS_ELU: case ANEURALNETWORKS_PRELU:
    return makeUnary(v);
  case ANEURALNETWORKS_PAD: case ANEURALNETWORKS_PAD_V2:
  case ANEURALNETWORKS_RESIZE_BILINEAR:
  case ANEURALNETWORKS_DEPTH_TO_SPACE:
  case ANEURALNETWORKS_CHANNEL_SHUFFLE:
    return makeDataMovement(v);
  default:
    // TANH (no float32 operator in this XNNPACK), RESHAPE into a model
    // output, CONCATENATION (copies) and the operations XNNPACK has no
    // operator for use the reference kernels.
    return Made();
  }
}

} // namespace

} // namespace nnapi_mlir::host::xnnpack

namespace nnapi_mlir::host {

int initializeXnnpack(const ExecutorOptions &options) {
  static std::once_flag once;
  static xnn_status status = xnn_status_uninitialized;
  std::call_once(once, [] { status = xnn_initialize(nullptr); });
  bool injected = options.fault == Fault::Initialize;
  xnn_status s = injected ? xnn_status_unsupported_hardware : status;
  if (s != xnn_status_success)
    return fail(ANEURALNETWORKS_OP_FAILED,
                "XNNPACK is unavailable: " +
                    xnnpack::describe("xnn_initialize", s, injected));
  return ANEURALNETWORKS_NO_ERROR;
}

int createXnnpackStep(const HostModel &m, size_t index,
                      const Bindings &bindings, const ExecutorOptions &options,
                      std::unique_ptr<Step> &step) {
  xnnpack::Made made =
      xnnpack::makeStep(xnnpack::OpView(m, index, bindings, options));
  if (made.ready) {
    step = std::move(made.ready);
    return ANEURALNETWORKS_NO_ERROR;
  }
  if (!made.step)
    return ANEURALNETWORKS_NO_ERROR; // the reference kernel runs it
  xnn_status status = made.status;
  bool injected = options.fault == Fault::Create;
  if (injected) {
    status = xnn_status_out_of_memory;
  } else if (status == xnn_status_unsupported_parameter ||
             status == xnn_status_invalid_parameter ||
             status == xnn_status_unsupported_hardware) {
    return ANEURALNETWORKS_NO_ERROR; // the reference kernel runs it
  }
  if (status != xnn_status_success)
    return fail(status == xnn_status_out_of_memory
                    ? ANEURALNETWORKS_OUT_OF_MEMORY
                    : ANEURALNETWORKS_OP_FAILED,
                "operation " + std::to_string(index) + " (" +
                    made.step->what + "): " +
                    xnnpack::describe(made.call, status, injected));
  step = std::move(made.step);
  return ANEURALNETWORKS_NO_ERROR;
}

} // namespace nnapi_mlir::host

#else // !NNAPI_MLIR_HAVE_XNNPACK

namespace nnapi_mlir::host {

int initializeXnnpack(const ExecutorOptions &) {
  return ANEURALNETWORKS_NO_ERROR;
}

int createXnnpackStep(const HostModel &, size_t, const Bindings &,
                      const ExecutorOptions &, std::unique_ptr<Step> &) {
  return ANEURALNETWORKS_NO_ERROR; // reference kernels only
}

} // namespace nnapi_mlir::host

#endif // NNAPI_MLIR_HAVE_XNNPACK
