//===- XnnpackInt8Steps.cpp - int8 operations on XNNPACK and VNNI ---------===//
//
// The host device's steps for QUANTIZE, DEQUANTIZE and operations on int8
// data (TENSOR_QUANT8_ASYMM_SIGNED): XNNPACK's signed operators where they
// apply, and on AVX512-VNNI CPUs our own convolution kernels
// (VnniKernels.cpp). Everything else runs the reference int8 kernels.
//
//===----------------------------------------------------------------------===//

#include "XnnpackStep.h"

#include "nnapi-mlir/HostDevice/QuantizedKernels.h"
#include "nnapi-mlir/Support/ThreadSanitizer.h"

#include <algorithm>

#ifdef NNAPI_MLIR_HAVE_XNNPACK

namespace nnapi_mlir::host::xnnpack {

namespace {

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

/// CONV_2D and DEPTHWISE_CONV_2D on int8 data, output clamped to
/// [qlo, qhi]: our VNNI kernels where the CPU has them, else XNNPACK's qc8.
Made makeInt8Convolution(const OpView &v, int32_t qlo, int32_t qhi) {
  Made made;
  const OpParams &p = v.p;
  const Window &w = v.w;
  const Operand &in = v.m.operands[v.input], &out = v.m.operands[v.output];
  bool depthwise = v.operation.opcode == ANEURALNETWORKS_DEPTHWISE_CONV_2D;
  const Operand &f = v.m.operands[v.operand(role::filter)];
  uint32_t biasIdx = v.operand(role::bias);
  if (f.kind != Kind::Constant ||
      v.m.operands[biasIdx].kind != Kind::Constant ||
      (f.type != ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL &&
       f.zeroPoint != 0))
    return made;
  size_t inC = v.inShape[3], outC = v.outShape[3];
  std::vector<float> scales =
      f.type == ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL
          ? f.channelScales
          : std::vector<float>(outC, f.scale);
  Int8ConvGeometry g;
  g.inH = v.inShape[1], g.inW = v.inShape[2], g.channels = inC;
  g.outH = v.outShape[1], g.outW = v.outShape[2];
  g.kernelH = p.filterH, g.kernelW = p.filterW;
  g.strideH = w.strideH, g.strideW = w.strideW;
  g.dilationH = w.dilationH, g.dilationW = w.dilationW;
  g.padTop = w.padTop, g.padLeft = w.padLeft;
  g.inZero = in.zeroPoint;
  const auto *filter =
      reinterpret_cast<const int8_t *>(v.bindings[v.operand(role::filter)]);
  const auto *bias = reinterpret_cast<const int32_t *>(v.bindings[biasIdx]);
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
    s->input = v.input, s->output = v.output;
    s->count = numElements(v.outShape) / outC; // output pixels
    s->threadpool = v.options.threadpool;
    made.ready = std::move(s);
    return made;
  }
  // A depthwise convolution (multiplier 1) there too: 4 taps of 16
  // channels per instruction (this XNNPACK's multiply 32-bit lanes).
  if (depthwise && inC == outC && hasVnni()) {
    auto s = std::make_unique<DepthwiseInt8Step>();
    s->packed = packDepthwiseInt8(
        filter, size_t(p.filterH), size_t(p.filterW), inC, bias,
        in.zeroPoint, in.scale, scales, out.scale, out.zeroPoint, qlo, qhi);
    s->geometry = g;
    s->input = v.input, s->output = v.output;
    s->count = size_t(v.outShape[0]) * v.outShape[1]; // output rows
    s->threadpool = v.options.threadpool;
    made.ready = std::move(s);
    return made;
  }
  auto s = std::make_unique<Int8ConvStep>(v.operation.opcode, v.options);
  made.call = "xnn_create_convolution2d_nhwc_qc8";
  made.status = xnn_create_convolution2d_nhwc_qc8(
      w.padTop, w.padRight, w.padBottom, w.padLeft, p.filterH, p.filterW,
      w.strideH, w.strideW, w.dilationH, w.dilationW, depthwise ? inC : 1,
      depthwise ? 1 : inC, depthwise ? size_t(p.depthMultiplier) : outC,
      inC, outC, int8_t(in.zeroPoint), in.scale, scales.data(),
      reinterpret_cast<const int8_t *>(v.bindings[v.operand(role::filter)]),
      reinterpret_cast<const int32_t *>(v.bindings[biasIdx]),
      int8_t(out.zeroPoint), out.scale, int8_t(qlo), int8_t(qhi),
      depthwise ? XNN_FLAG_DEPTHWISE_CONVOLUTION : 0, &s->op);
  s->input = v.input, s->output = v.output;
  s->batch = v.inShape[0], s->height = v.inShape[1], s->width = v.inShape[2];
  made.step = std::move(s);
  return made;
}

} // namespace

/// QUANTIZE and DEQUANTIZE between float32 and int8.
Made makeConvert(const OpView &v) {
  Made made;
  bool quantize = v.operation.opcode == ANEURALNETWORKS_QUANTIZE;
  const Operand &q = v.m.operands[quantize ? v.output : v.input];
  const Operand &f = v.m.operands[quantize ? v.input : v.output];
  if (q.type != ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED ||
      f.type != ANEURALNETWORKS_TENSOR_FLOAT32)
    return made;
  auto s = std::make_unique<ConvertStep>(v.operation.opcode, v.options);
  s->quantize = quantize;
  s->input = v.input, s->output = v.output;
  s->count = numElements(v.inShape);
  if (quantize) {
    made.call = "xnn_create_convert_nc_f32_qs8";
    made.status = xnn_create_convert_nc_f32_qs8(1, 1, 1, q.scale,
                                                int8_t(q.zeroPoint), -128, 127,
                                                0, &s->op);
  } else {
    made.call = "xnn_create_convert_nc_qs8_f32";
    made.status = xnn_create_convert_nc_qs8_f32(1, 1, 1, q.scale,
                                                int8_t(q.zeroPoint), 0, &s->op);
  }
  made.step = std::move(s);
  return made;
}

/// An operation on int8 data (TENSOR_QUANT8_ASYMM_SIGNED): XNNPACK's signed
/// operators (or our VNNI convolutions) where they apply; everything else
/// (uint8 data, weight zero points, other operations) runs the reference
/// int8 kernels.
Made makeInt8(const OpView &v) {
  Made made;
  const OpParams &p = v.p;
  const Window &w = v.w;
  const Shape &inShape = v.inShape, &outShape = v.outShape;
  int32_t opcode = v.operation.opcode;
  const Operand &in = v.m.operands[v.input], &out = v.m.operands[v.output];
  if (in.type != ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED)
    return made;
  Quant8Out range{nullptr, true, out.zeroPoint, out.scale};
  int32_t qlo, qhi;
  quantizedActivationRange(p.fuseCode, range, qlo, qhi);
  if (opcode == ANEURALNETWORKS_CONV_2D ||
      opcode == ANEURALNETWORKS_DEPTHWISE_CONV_2D)
    return makeInt8Convolution(v, qlo, qhi);
  if (opcode == ANEURALNETWORKS_ADD) {
    const Operand &rhs = v.m.operands[v.operand(role::input1)];
    auto s = std::make_unique<Int8AddStep>(opcode, v.options);
    made.call = "xnn_create_add_nd_qs8";
    made.status = xnn_create_add_nd_qs8(
        int8_t(in.zeroPoint), in.scale, int8_t(rhs.zeroPoint), rhs.scale,
        int8_t(out.zeroPoint), out.scale, int8_t(qlo), int8_t(qhi), 0,
        &s->op);
    s->lhs = v.input, s->rhs = v.operand(role::input1), s->output = v.output;
    s->lhsShape.assign(inShape.begin(), inShape.end());
    s->rhsShape.assign(rhs.dims.begin(), rhs.dims.end());
    made.step = std::move(s);
    return made;
  }
  if (opcode != ANEURALNETWORKS_MAX_POOL_2D &&
      !(opcode == ANEURALNETWORKS_AVERAGE_POOL_2D && outShape[1] == 1 &&
        outShape[2] == 1 && uint32_t(p.filterH) >= inShape[1] &&
        uint32_t(p.filterW) >= inShape[2] && w.padTop == 0 && w.padLeft == 0))
    return made;
  // Max pools of any window; average pools over the whole image (the
  // 2022 snapshot has no signed windowed average pool).
  auto s = std::make_unique<Int8PoolStep>(opcode, v.options);
  size_t channels = inShape[3];
  s->max = opcode == ANEURALNETWORKS_MAX_POOL_2D;
  if (s->max) {
    made.call = "xnn_create_max_pooling2d_nhwc_s8";
    made.status = xnn_create_max_pooling2d_nhwc_s8(
        w.padTop, w.padRight, w.padBottom, w.padLeft, p.filterH, p.filterW,
        w.strideH, w.strideW, 1, 1, channels, channels, channels,
        int8_t(qlo), int8_t(qhi), 0, &s->op);
  } else {
    made.call = "xnn_create_global_average_pooling_nwc_qs8";
    made.status = xnn_create_global_average_pooling_nwc_qs8(
        channels, channels, channels, int8_t(in.zeroPoint), in.scale,
        int8_t(out.zeroPoint), out.scale, int8_t(qlo), int8_t(qhi), 0,
        &s->op);
  }
  s->input = v.input, s->output = v.output;
  s->batch = inShape[0], s->height = inShape[1], s->width = inShape[2];
  made.step = std::move(s);
  return made;
}

} // namespace nnapi_mlir::host::xnnpack

#endif // NNAPI_MLIR_HAVE_XNNPACK
