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
//===----------------------------------------------------------------------===//

#include "Executor.h"

#include "nnapi-mlir/HostDevice/QuantizedKernels.h"

#include "nnapi-mlir/NNAPI/DeviceProfile.h"
#include "nnapi-mlir/Support/ThreadSanitizer.h"

#include <cmath>
#include <limits>
#include <mutex>

#ifdef NNAPI_MLIR_HAVE_XNNPACK
#include <xnnpack.h>

static_assert(nnapi_mlir::host::kKernelSlackBytes >= XNN_EXTRA_BYTES,
              "the arena must leave XNNPACK its read slack");

namespace nnapi_mlir::host {

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

/// An operator plus what running it needs; subclasses bind buffers.
class XnnStep : public Step {
public:
  XnnStep(int32_t opcode, const ExecutorOptions &options)
      : what(nnapi_mlir::operationName(opcode)), threadpool(options.threadpool),
        injectRunFailure(options.fault == Fault::Run) {}
  ~XnnStep() override {
    if (op)
      xnn_delete_operator(op);
  }
  const char *backend() const override { return "xnnpack"; }

  xnn_operator_t op = nullptr;
  const char *what; ///< The NNAPI operation, for messages.
  /// The pool its operator runs on; null: the calling thread.
  pthreadpool_t threadpool;

protected:
  /// Runs the operator after its setup call returned `setup`.
  int launch(xnn_status setup) {
    if (setup != xnn_status_success)
      return fail(ANEURALNETWORKS_OP_FAILED,
                  std::string("XNNPACK ") + what + ": " +
                      describe("setup", setup, false));
    xnn_status s = injectRunFailure ? xnn_status_invalid_state
                                    : xnn_run_operator(op, threadpool);
    if (s != xnn_status_success)
      return fail(ANEURALNETWORKS_OP_FAILED,
                  std::string("XNNPACK ") + what + ": " +
                      describe("xnn_run_operator", s, injectRunFailure));
    return ANEURALNETWORKS_NO_ERROR;
  }

  bool injectRunFailure;
};

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

/// CONV_2D / DEPTHWISE_CONV_2D on int8 data with per-channel int8 weights
/// (XNNPACK's qc8: a float32 requantization per channel, as ONNX Runtime
/// rounds, not NNAPI's fixed-point one).
class Int8ConvStep : public XnnStep {
public:
  using XnnStep::XnnStep;
  uint32_t input, output;
  size_t batch, height, width;
  int run(const Bindings &b) override {
    return launch(xnn_setup_convolution2d_nhwc_qc8(
        op, batch, height, width, reinterpret_cast<const int8_t *>(b[input]),
        reinterpret_cast<int8_t *>(b[output]), threadpool));
  }
};

/// ADD on int8 data with broadcasting (XNNPACK's qs8).
class Int8AddStep : public XnnStep {
public:
  using XnnStep::XnnStep;
  uint32_t lhs, rhs, output;
  std::vector<size_t> lhsShape, rhsShape;
  int run(const Bindings &b) override {
    return launch(xnn_setup_add_nd_qs8(
        op, lhsShape.size(), lhsShape.data(), rhsShape.size(), rhsShape.data(),
        reinterpret_cast<const int8_t *>(b[lhs]),
        reinterpret_cast<const int8_t *>(b[rhs]),
        reinterpret_cast<int8_t *>(b[output]), threadpool));
  }
};

/// MAX_POOL_2D (s8) and a global AVERAGE_POOL_2D (qs8: float32
/// requantization) on int8 data.
class Int8PoolStep : public XnnStep {
public:
  using XnnStep::XnnStep;
  bool max = true;
  uint32_t input, output;
  size_t batch, height, width;
  int run(const Bindings &b) override {
    const auto *in = reinterpret_cast<const int8_t *>(b[input]);
    auto *out = reinterpret_cast<int8_t *>(b[output]);
    if (max)
      return launch(xnn_setup_max_pooling2d_nhwc_s8(op, batch, height, width,
                                                    in, out, threadpool));
    return launch(xnn_setup_global_average_pooling_nwc_qs8(
        op, batch, height * width, in, out, threadpool));
  }
};

/// QUANTIZE (float32 to int8: x times the reciprocal scale, rounded to
/// nearest even) and DEQUANTIZE (int8 to float32).
class ConvertStep : public XnnStep {
public:
  using XnnStep::XnnStep;
  bool quantize = true;
  uint32_t input, output;
  size_t count;
  int run(const Bindings &b) override {
    if (quantize)
      return launch(xnn_setup_convert_nc_f32_qs8(
          op, count, b[input], reinterpret_cast<int8_t *>(b[output]),
          threadpool));
    return launch(xnn_setup_convert_nc_qs8_f32(
        op, count, reinterpret_cast<const int8_t *>(b[input]), b[output],
        threadpool));
  }
};

/// A step of our own int8 kernels for AVX512-VNNI CPUs (VnniKernels.cpp):
/// `Kernel` computes units [begin, end) of `count` (output pixels of
/// convInt8, output rows of depthwiseInt8), `Block` units per task on the
/// thread pool.
template <typename Packed,
          void (*Kernel)(const Packed &, const Int8ConvGeometry &,
                         const int8_t *, int8_t *, size_t, size_t),
          size_t Block>
class VnniStep : public Step {
public:
  Packed packed;
  Int8ConvGeometry geometry;
  uint32_t input, output;
  size_t count;
  pthreadpool_t threadpool;
  const char *backend() const override { return "vnni"; }
  int run(const Bindings &b) override {
    struct Task {
      VnniStep *step;
      const int8_t *in;
      int8_t *out;
      char done; ///< ThreadSanitizer's address for "a block finished".
    } task{this, reinterpret_cast<const int8_t *>(b[input]),
           reinterpret_cast<int8_t *>(b[output]), 0};
    NNAPI_TSAN_RELEASE(&task);
    pthreadpool_parallelize_1d(
        threadpool,
        [](void *context, size_t i) {
          NNAPI_TSAN_ACQUIRE(context);
          auto *t = static_cast<Task *>(context);
          VnniStep &s = *t->step;
          Kernel(s.packed, s.geometry, t->in, t->out, i * Block,
                 std::min(s.count, (i + 1) * Block));
          NNAPI_TSAN_RELEASE(&t->done);
        },
        &task, (count + Block - 1) / Block, 0);
    NNAPI_TSAN_ACQUIRE(&task.done);
    return ANEURALNETWORKS_NO_ERROR;
  }
};
/// CONV_2D in blocks of 64 output pixels.
using VnniConvStep = VnniStep<PackedInt8Filter, convInt8, 64>;
/// DEPTHWISE_CONV_2D with depth multiplier 1, by output rows.
using DepthwiseInt8Step = VnniStep<PackedDepthwiseInt8, depthwiseInt8, 1>;

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

} // namespace

int initializeXnnpack(const ExecutorOptions &options) {
  static std::once_flag once;
  static xnn_status status = xnn_status_uninitialized;
  std::call_once(once, [] { status = xnn_initialize(nullptr); });
  bool injected = options.fault == Fault::Initialize;
  xnn_status s = injected ? xnn_status_unsupported_hardware : status;
  if (s != xnn_status_success)
    return fail(ANEURALNETWORKS_OP_FAILED,
                "XNNPACK is unavailable: " +
                    describe("xnn_initialize", s, injected));
  return ANEURALNETWORKS_NO_ERROR;
}

int createXnnpackStep(const HostModel &m, size_t index,
                      const Bindings &bindings, const ExecutorOptions &options,
                      std::unique_ptr<Step> &step) {
  const Operation &operation = m.operations[index];
  const OpParams &p = m.params[index];
  const Window &w = p.window;
  const Shape &inShape = m.operands[operation.inputs[0]].dims;
  const Shape &outShape = m.operands[operation.outputs[0]].dims;
  uint32_t input = operation.inputs[0], output = operation.outputs[0];
  // An input by its role in the operation's layout.
  auto operand = [&](RoleName role) {
    return operation.inputs[size_t(m.layouts[index].input(role))];
  };
  float lo, hi;
  activationRange(p.fuseCode, lo, hi);
  // The value of a constant operand, or null for one computed at run time.
  auto constant = [&](uint32_t idx) -> const float * {
    return m.operands[idx].kind == Kind::Constant ? bindings[idx] : nullptr;
  };

  std::unique_ptr<XnnStep> made;
  xnn_status status = xnn_status_success;
  const char *call = "";
  if (operation.opcode == ANEURALNETWORKS_QUANTIZE ||
      operation.opcode == ANEURALNETWORKS_DEQUANTIZE) {
    bool quantize = operation.opcode == ANEURALNETWORKS_QUANTIZE;
    const Operand &q = m.operands[quantize ? output : input];
    const Operand &f = m.operands[quantize ? input : output];
    if (q.type != ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED ||
        f.type != ANEURALNETWORKS_TENSOR_FLOAT32)
      return ANEURALNETWORKS_NO_ERROR;
    auto s = std::make_unique<ConvertStep>(operation.opcode, options);
    s->quantize = quantize;
    s->input = input, s->output = output;
    s->count = numElements(inShape);
    if (quantize) {
      call = "xnn_create_convert_nc_f32_qs8";
      status = xnn_create_convert_nc_f32_qs8(1, 1, 1, q.scale,
                                             int8_t(q.zeroPoint), -128, 127,
                                             0, &s->op);
    } else {
      call = "xnn_create_convert_nc_qs8_f32";
      status = xnn_create_convert_nc_qs8_f32(1, 1, 1, q.scale,
                                             int8_t(q.zeroPoint), 0, &s->op);
    }
    made = std::move(s);
  } else if (isQuant8DataType(m.layouts[index].dataType)) {
    // int8 data (TENSOR_QUANT8_ASYMM_SIGNED): XNNPACK's signed operators
    // where they apply; everything else (uint8 data, weight zero points,
    // other operations) runs the reference int8 kernels.
    const Operand &in = m.operands[input], &out = m.operands[output];
    if (in.type != ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED)
      return ANEURALNETWORKS_NO_ERROR;
    Quant8Out range{nullptr, true, out.zeroPoint, out.scale};
    int32_t qlo, qhi;
    quantizedActivationRange(p.fuseCode, range, qlo, qhi);
    if (operation.opcode == ANEURALNETWORKS_CONV_2D ||
        operation.opcode == ANEURALNETWORKS_DEPTHWISE_CONV_2D) {
      bool depthwise = operation.opcode == ANEURALNETWORKS_DEPTHWISE_CONV_2D;
      const Operand &f = m.operands[operand(role::filter)];
      uint32_t biasIdx = operand(role::bias);
      if (f.kind != Kind::Constant ||
          m.operands[biasIdx].kind != Kind::Constant ||
          (f.type != ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL &&
           f.zeroPoint != 0))
        return ANEURALNETWORKS_NO_ERROR;
      size_t inC = inShape[3], outC = outShape[3];
      std::vector<float> scales =
          f.type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL
              ? f.channelScales
              : std::vector<float>(outC, f.scale);
      Int8ConvGeometry g;
      g.inH = inShape[1], g.inW = inShape[2], g.channels = inC;
      g.outH = outShape[1], g.outW = outShape[2];
      g.kernelH = p.filterH, g.kernelW = p.filterW;
      g.strideH = w.strideH, g.strideW = w.strideW;
      g.dilationH = w.dilationH, g.dilationW = w.dilationW;
      g.padTop = w.padTop, g.padLeft = w.padLeft;
      g.inZero = in.zeroPoint;
      const auto *filter =
          reinterpret_cast<const int8_t *>(bindings[operand(role::filter)]);
      const auto *bias = reinterpret_cast<const int32_t *>(bindings[biasIdx]);
      size_t taps = size_t(p.filterH) * size_t(p.filterW);
      // A convolution on a CPU with AVX512-VNNI: our kernel, 4 channels
      // of a window per instruction (this XNNPACK's int8 kernels predate
      // VNNI).
      if (!depthwise && hasVnni()) {
        auto s = std::make_unique<VnniConvStep>();
        s->packed = packInt8Filter(filter, outC, taps * inC, bias, in.zeroPoint,
                                   in.scale, scales, out.scale, out.zeroPoint,
                                   qlo, qhi);
        s->geometry = g;
        s->input = input, s->output = output;
        s->count = numElements(outShape) / outC; // output pixels
        s->threadpool = options.threadpool;
        step = std::move(s);
        return ANEURALNETWORKS_NO_ERROR;
      }
      // A depthwise convolution (multiplier 1) there too: 4 taps of 16
      // channels per instruction (this XNNPACK's multiply 32-bit lanes).
      if (depthwise && inC == outC && hasVnni()) {
        auto s = std::make_unique<DepthwiseInt8Step>();
        s->packed = packDepthwiseInt8(
            filter, size_t(p.filterH), size_t(p.filterW), inC, bias,
            in.zeroPoint, in.scale, scales, out.scale, out.zeroPoint, qlo, qhi);
        s->geometry = g;
        s->input = input, s->output = output;
        s->count = size_t(outShape[0]) * outShape[1]; // output rows
        s->threadpool = options.threadpool;
        step = std::move(s);
        return ANEURALNETWORKS_NO_ERROR;
      }
      auto s = std::make_unique<Int8ConvStep>(operation.opcode, options);
      call = "xnn_create_convolution2d_nhwc_qc8";
      status = xnn_create_convolution2d_nhwc_qc8(
          w.padTop, w.padRight, w.padBottom, w.padLeft, p.filterH, p.filterW,
          w.strideH, w.strideW, w.dilationH, w.dilationW, depthwise ? inC : 1,
          depthwise ? 1 : inC, depthwise ? size_t(p.depthMultiplier) : outC,
          inC, outC, int8_t(in.zeroPoint), in.scale, scales.data(),
          reinterpret_cast<const int8_t *>(bindings[operand(role::filter)]),
          reinterpret_cast<const int32_t *>(bindings[biasIdx]),
          int8_t(out.zeroPoint), out.scale, int8_t(qlo), int8_t(qhi),
          depthwise ? XNN_FLAG_DEPTHWISE_CONVOLUTION : 0, &s->op);
      s->input = input, s->output = output;
      s->batch = inShape[0], s->height = inShape[1], s->width = inShape[2];
      made = std::move(s);
    } else if (operation.opcode == ANEURALNETWORKS_ADD) {
      const Operand &rhs = m.operands[operand(role::input1)];
      auto s = std::make_unique<Int8AddStep>(operation.opcode, options);
      call = "xnn_create_add_nd_qs8";
      status = xnn_create_add_nd_qs8(
          int8_t(in.zeroPoint), in.scale, int8_t(rhs.zeroPoint), rhs.scale,
          int8_t(out.zeroPoint), out.scale, int8_t(qlo), int8_t(qhi), 0,
          &s->op);
      s->lhs = input, s->rhs = operand(role::input1), s->output = output;
      s->lhsShape.assign(inShape.begin(), inShape.end());
      s->rhsShape.assign(rhs.dims.begin(), rhs.dims.end());
      made = std::move(s);
    } else if (operation.opcode == ANEURALNETWORKS_MAX_POOL_2D ||
               (operation.opcode == ANEURALNETWORKS_AVERAGE_POOL_2D &&
                outShape[1] == 1 && outShape[2] == 1 &&
                uint32_t(p.filterH) >= inShape[1] &&
                uint32_t(p.filterW) >= inShape[2] && w.padTop == 0 &&
                w.padLeft == 0)) {
      // Max pools of any window; average pools over the whole image (the
      // 2022 snapshot has no signed windowed average pool).
      auto s = std::make_unique<Int8PoolStep>(operation.opcode, options);
      size_t channels = inShape[3];
      s->max = operation.opcode == ANEURALNETWORKS_MAX_POOL_2D;
      if (s->max) {
        call = "xnn_create_max_pooling2d_nhwc_s8";
        status = xnn_create_max_pooling2d_nhwc_s8(
            w.padTop, w.padRight, w.padBottom, w.padLeft, p.filterH,
            p.filterW, w.strideH, w.strideW, 1, 1, channels, channels,
            channels, int8_t(qlo), int8_t(qhi), 0, &s->op);
      } else {
        call = "xnn_create_global_average_pooling_nwc_qs8";
        status = xnn_create_global_average_pooling_nwc_qs8(
            channels, channels, channels, int8_t(in.zeroPoint), in.scale,
            int8_t(out.zeroPoint), out.scale, int8_t(qlo), int8_t(qhi), 0,
            &s->op);
      }
      s->input = input, s->output = output;
      s->batch = inShape[0], s->height = inShape[1], s->width = inShape[2];
      made = std::move(s);
    } else {
      return ANEURALNETWORKS_NO_ERROR;
    }
  } else switch (operation.opcode) {
  case ANEURALNETWORKS_CONV_2D:
  case ANEURALNETWORKS_GROUPED_CONV_2D:
  case ANEURALNETWORKS_DEPTHWISE_CONV_2D: {
    bool depthwise = operation.opcode == ANEURALNETWORKS_DEPTHWISE_CONV_2D;
    auto s = std::make_unique<ConvStep>(operation.opcode, options);
    const float *filter = constant(operand(role::filter));
    const float *bias = constant(operand(role::bias));
    if (!filter || !bias)
      return ANEURALNETWORKS_NO_ERROR; // weights computed at run time
    size_t inC = inShape[3], outC = outShape[3];
    // NNAPI's [out, kh, kw, in / groups] filter is XNNPACK's grouped
    // [groups, out / groups, kh, kw, in / groups] (groups is 1 for CONV_2D).
    size_t groups = depthwise ? inC : size_t(p.groups);
    call = "xnn_create_convolution2d_nhwc_f32";
    status = xnn_create_convolution2d_nhwc_f32(
        w.padTop, w.padRight, w.padBottom, w.padLeft, p.filterH, p.filterW,
        w.strideH, w.strideW, w.dilationH, w.dilationW, groups,
        /*group_input_channels=*/depthwise ? 1 : inC / groups,
        /*group_output_channels=*/depthwise ? p.depthMultiplier
                                            : outC / groups,
        /*input_channel_stride=*/inC, /*output_channel_stride=*/outC, filter,
        bias, lo, hi, depthwise ? XNN_FLAG_DEPTHWISE_CONVOLUTION : 0, &s->op);
    s->input = input, s->output = output;
    s->batch = inShape[0], s->height = inShape[1], s->width = inShape[2];
    made = std::move(s);
    break;
  }
  case ANEURALNETWORKS_TRANSPOSE_CONV_2D: {
    auto s = std::make_unique<DeconvStep>(operation.opcode, options);
    const Shape &fs = m.operands[operand(role::filter)].dims;
    const float *filter = constant(operand(role::filter));
    const float *bias = constant(operand(role::bias));
    if (!filter || !bias)
      return ANEURALNETWORKS_NO_ERROR;
    size_t inC = inShape[3], outC = outShape[3];
    // NNAPI's padding crops the full output, as XNNPACK's output padding.
    call = "xnn_create_deconvolution2d_nhwc_f32";
    status = xnn_create_deconvolution2d_nhwc_f32(
        w.padTop, w.padRight, w.padBottom, w.padLeft, fs[1], fs[2], w.strideH,
        w.strideW, /*dilation_height=*/1, /*dilation_width=*/1, /*groups=*/1,
        inC, outC, /*input_pixel_stride=*/inC, /*output_pixel_stride=*/outC,
        filter, bias, lo, hi, 0, &s->op);
    s->input = input, s->output = output;
    s->batch = inShape[0], s->height = inShape[1], s->width = inShape[2];
    made = std::move(s);
    break;
  }
  case ANEURALNETWORKS_FULLY_CONNECTED: {
    auto s = std::make_unique<FullyConnectedStep>(operation.opcode, options);
    const Shape &ws = m.operands[operand(role::weights)].dims;
    const float *weights = constant(operand(role::weights));
    const float *bias = constant(operand(role::bias));
    if (!weights || !bias)
      return ANEURALNETWORKS_NO_ERROR;
    call = "xnn_create_fully_connected_nc_f32";
    status = xnn_create_fully_connected_nc_f32(ws[1], ws[0], ws[1], ws[0],
                                               weights, bias, lo, hi, 0,
                                               &s->op);
    s->input = input, s->output = output, s->batch = p.batch;
    // Debian's XNNPACK (2022) computes wrong values when it splits the
    // output columns of a fully connected operator over threads and the
    // input has a number of channels that is not a multiple of 4 (seen on
    // AVX2 CPUs: 3 rows of 6 inputs into 24 units, on 2 threads, were off by
    // up to 2.4; a multiple of 4, or one thread, is exact). Such operators
    // run on the calling thread (XnnpackFullyConnectedThreads in
    // HostDeviceTest).
    if (ws[1] % 4 != 0)
      s->threadpool = nullptr;
    made = std::move(s);
    break;
  }
  case ANEURALNETWORKS_AVERAGE_POOL_2D:
  case ANEURALNETWORKS_MAX_POOL_2D: {
    bool average = operation.opcode == ANEURALNETWORKS_AVERAGE_POOL_2D;
    auto s = std::make_unique<PoolStep>(operation.opcode, options);
    size_t channels = inShape[3];
    bool global = average && outShape[1] == 1 && outShape[2] == 1 &&
                  uint32_t(p.filterH) >= inShape[1] &&
                  uint32_t(p.filterW) >= inShape[2] && w.padTop == 0 &&
                  w.padLeft == 0;
    if (global) {
      s->kind = PoolStep::GlobalAverage;
      call = "xnn_create_global_average_pooling_nwc_f32";
      status = xnn_create_global_average_pooling_nwc_f32(
          channels, channels, channels, lo, hi, 0, &s->op);
    } else if (average) {
      s->kind = PoolStep::Average;
      call = "xnn_create_average_pooling2d_nhwc_f32";
      status = xnn_create_average_pooling2d_nhwc_f32(
          w.padTop, w.padRight, w.padBottom, w.padLeft, p.filterH, p.filterW,
          w.strideH, w.strideW, channels, channels, channels, lo, hi, 0,
          &s->op);
    } else {
      s->kind = PoolStep::Max;
      call = "xnn_create_max_pooling2d_nhwc_f32";
      status = xnn_create_max_pooling2d_nhwc_f32(
          w.padTop, w.padRight, w.padBottom, w.padLeft, p.filterH, p.filterW,
          w.strideH, w.strideW, 1, 1, channels, channels, channels, lo, hi, 0,
          &s->op);
    }
    s->input = input, s->output = output;
    s->batch = inShape[0], s->height = inShape[1], s->width = inShape[2];
    made = std::move(s);
    break;
  }
  case ANEURALNETWORKS_ADD: case ANEURALNETWORKS_SUB:
  case ANEURALNETWORKS_MUL: case ANEURALNETWORKS_DIV: {
    // This XNNPACK's binary kernels clamp to the activation range even when
    // it is [-inf, inf], and the clamp turns NaN into -inf. Without a fused
    // activation the reference loop (vectorized by the compiler) runs them.
    if (p.fuseCode == ANEURALNETWORKS_FUSED_NONE)
      return ANEURALNETWORKS_NO_ERROR;
    auto s = std::make_unique<BinaryStep>(operation.opcode, options);
    switch (operation.opcode) {
    case ANEURALNETWORKS_ADD:
      call = "xnn_create_add_nd_f32";
      status = xnn_create_add_nd_f32(lo, hi, 0, &s->op);
      s->setup = xnn_setup_add_nd_f32;
      break;
    case ANEURALNETWORKS_SUB:
      call = "xnn_create_subtract_nd_f32";
      status = xnn_create_subtract_nd_f32(lo, hi, 0, &s->op);
      s->setup = xnn_setup_subtract_nd_f32;
      break;
    case ANEURALNETWORKS_MUL:
      call = "xnn_create_multiply_nd_f32";
      status = xnn_create_multiply_nd_f32(lo, hi, 0, &s->op);
      s->setup = xnn_setup_multiply_nd_f32;
      break;
    default:
      call = "xnn_create_divide_nd_f32";
      status = xnn_create_divide_nd_f32(lo, hi, 0, &s->op);
      s->setup = xnn_setup_divide_nd_f32;
      break;
    }
    s->lhs = operand(role::input0), s->rhs = operand(role::input1);
    s->output = output;
    // A rank-0 operand broadcasts exactly like a [1] one.
    auto dims = [&](uint32_t idx, std::vector<size_t> &shape) {
      const Shape &d = m.operands[idx].dims;
      shape.assign(d.begin(), d.end());
      if (shape.empty())
        shape.push_back(1);
    };
    dims(s->lhs, s->lhsShape);
    dims(s->rhs, s->rhsShape);
    made = std::move(s);
    break;
  }
  case ANEURALNETWORKS_RELU: case ANEURALNETWORKS_RELU1:
  case ANEURALNETWORKS_RELU6: case ANEURALNETWORKS_LOGISTIC:
  case ANEURALNETWORKS_SOFTMAX: case ANEURALNETWORKS_ABS:
  case ANEURALNETWORKS_FLOOR: case ANEURALNETWORKS_NEG:
  case ANEURALNETWORKS_SQRT: case ANEURALNETWORKS_HARD_SWISH:
  case ANEURALNETWORKS_ELU: case ANEURALNETWORKS_PRELU: {
    // A rank-0 tensor is one row of one channel.
    size_t channels = inShape.empty() ? 1 : inShape.back();
    size_t rows = channels ? numElements(inShape) / channels : 0;
    if (rows == 0)
      return ANEURALNETWORKS_NO_ERROR;
    auto s = std::make_unique<RowsStep>(operation.opcode, options);
    switch (operation.opcode) {
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
        if (u.opcode == operation.opcode) {
          call = u.call;
          status = u.create(channels, channels, channels, 0, &s->op);
          s->setup = u.setup;
        }
      break;
    }
    case ANEURALNETWORKS_ELU:
      call = "xnn_create_elu_nc_f32";
      status = xnn_create_elu_nc_f32(channels, channels, channels, p.alpha, 0,
                                     &s->op);
      s->setup = xnn_setup_elu_nc_f32;
      break;
    case ANEURALNETWORKS_PRELU: {
      // XNNPACK's slopes are per innermost channel: the alpha must be a
      // constant that varies along that dimension only and leaves the
      // input's shape as it is.
      uint32_t alphaIdx = operand(role::alpha);
      const Shape &as = m.operands[alphaIdx].dims;
      const float *alpha = constant(alphaIdx);
      size_t n = numElements(as);
      bool perChannel = alpha && outShape == inShape && !inShape.empty() &&
                        (n == 1 || (n == channels && as.back() == channels));
      if (!perChannel)
        return ANEURALNETWORKS_NO_ERROR;
      std::vector<float> slopes(channels, alpha[0]);
      if (n == channels)
        slopes.assign(alpha, alpha + n);
      call = "xnn_create_prelu_nc_f32";
      status = xnn_create_prelu_nc_f32(channels, channels, channels,
                                       slopes.data(), 0, &s->op);
      s->setup = xnn_setup_prelu_nc_f32;
      break;
    }
    case ANEURALNETWORKS_LOGISTIC:
      call = "xnn_create_sigmoid_nc_f32";
      status = xnn_create_sigmoid_nc_f32(channels, channels, channels, 0,
                                         &s->op);
      s->setup = xnn_setup_sigmoid_nc_f32;
      break;
    case ANEURALNETWORKS_SOFTMAX:
      // XNNPACK normalizes the innermost dimension with beta 1.
      if (p.axis != int32_t(inShape.size()) - 1 || p.beta != 1.0f)
        return ANEURALNETWORKS_NO_ERROR;
      call = "xnn_create_softmax_nc_f32";
      status = xnn_create_softmax_nc_f32(channels, channels, channels, 0,
                                         &s->op);
      s->setup = xnn_setup_softmax_nc_f32;
      break;
    default: {
      // RELU, RELU1 and RELU6 clamp like the fused activations of their name.
      float rlo, rhi;
      activationRange(operation.opcode == ANEURALNETWORKS_RELU
                          ? ANEURALNETWORKS_FUSED_RELU
                      : operation.opcode == ANEURALNETWORKS_RELU1
                          ? ANEURALNETWORKS_FUSED_RELU1
                          : ANEURALNETWORKS_FUSED_RELU6,
                      rlo, rhi);
      call = "xnn_create_clamp_nc_f32";
      status = xnn_create_clamp_nc_f32(channels, channels, channels, rlo, rhi,
                                       0, &s->op);
      s->setup = xnn_setup_clamp_nc_f32;
      break;
    }
    }
    s->input = input, s->output = output, s->rows = rows;
    made = std::move(s);
    break;
  }
  case ANEURALNETWORKS_PAD: case ANEURALNETWORKS_PAD_V2: {
    auto s = std::make_unique<PadStep>(operation.opcode, options);
    float value = operation.opcode == ANEURALNETWORKS_PAD_V2 ? p.padValue : 0;
    call = "xnn_create_constant_pad_nd_x32";
    status = xnn_create_constant_pad_nd_x32(&value, 0, &s->op);
    s->input = input, s->output = output;
    for (size_t d = 0; d < inShape.size(); ++d) {
      s->shape.push_back(inShape[d]);
      s->before.push_back(size_t(p.indices[d]));
      s->after.push_back(outShape[d] - inShape[d] - size_t(p.indices[d]));
    }
    made = std::move(s);
    break;
  }
  case ANEURALNETWORKS_RESIZE_BILINEAR: {
    // NNAPI's samplings are TensorFlow's: legacy (neither flag), aligned
    // corners, or half-pixel centers (XNNPACK's default).
    auto s = std::make_unique<ResizeStep>(operation.opcode, options);
    uint32_t flags = p.resize.alignCorners        ? XNN_FLAG_ALIGN_CORNERS
                     : p.resize.halfPixelCenters ? 0
                                                 : XNN_FLAG_TENSORFLOW_LEGACY_MODE;
    call = "xnn_create_resize_bilinear2d_nhwc_f32";
    status = xnn_create_resize_bilinear2d_nhwc_f32(inShape[3], inShape[3],
                                                   inShape[3], flags, &s->op);
    s->input = input, s->output = output;
    s->batch = inShape[0], s->height = inShape[1], s->width = inShape[2];
    s->outHeight = outShape[1], s->outWidth = outShape[2];
    made = std::move(s);
    break;
  }
  case ANEURALNETWORKS_DEPTH_TO_SPACE: {
    if (p.nchw)
      return ANEURALNETWORKS_NO_ERROR;
    auto s = std::make_unique<DepthToSpaceStep>(operation.opcode, options);
    call = "xnn_create_depth_to_space_nhwc_x32";
    status = xnn_create_depth_to_space_nhwc_x32(
        outShape[3], inShape[3], outShape[3], uint32_t(p.blockSize), 0,
        &s->op);
    s->input = input, s->output = output;
    s->batch = inShape[0], s->height = inShape[1], s->width = inShape[2];
    made = std::move(s);
    break;
  }
  case ANEURALNETWORKS_CHANNEL_SHUFFLE: {
    if (p.axis != int32_t(inShape.size()) - 1)
      return ANEURALNETWORKS_NO_ERROR;
    size_t channels = inShape.back(), groups = size_t(p.groups);
    auto s = std::make_unique<ShuffleStep>(operation.opcode, options);
    call = "xnn_create_channel_shuffle_nc_x32";
    status = xnn_create_channel_shuffle_nc_x32(
        groups, channels / groups, channels, channels, 0, &s->op);
    s->input = input, s->output = output;
    s->rows = numElements(inShape) / channels;
    made = std::move(s);
    break;
  }
  default:
    // TANH (no float32 operator in this XNNPACK), RESHAPE into a model
    // output, CONCATENATION (copies) and the operations XNNPACK has no
    // operator for use the reference kernels.
    return ANEURALNETWORKS_NO_ERROR;
  }

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
                "operation " + std::to_string(index) + " (" + made->what +
                    "): " + describe(call, status, injected));
  step = std::move(made);
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
