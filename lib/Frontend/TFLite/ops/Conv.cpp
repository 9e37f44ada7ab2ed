//===- Conv.cpp - Convolutions, pools, fully connected layers ---*- C++ -*-===//
//
// CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV, AVERAGE_POOL_2D, MAX_POOL_2D,
// L2_POOL_2D, FULLY_CONNECTED and BATCH_MATMUL. TFLite's layouts are TOSA's
// (NHWC data, OHWI filters; a depthwise filter [1, KH, KW, C*M] is TOSA's
// [KH, KW, C, M] reshaped), so nothing is transposed; padding is the
// windows' arithmetic shared with the ONNX importer (Common/Windows.h).
//
//===----------------------------------------------------------------------===//

#include "../Importer.h"

#include "llvm/Support/Endian.h"

#include "../../Common/Windows.h"

using namespace mlir;
using namespace mlir::nnapi::tflite_import;

namespace {

AutoPad autoPad(tflite::Padding p) {
  return p == tflite::Padding_VALID ? AutoPad::Valid : AutoPad::SameUpper;
}

/// TOSA's [top, bottom, left, right] for an NHWC window op of `kernel`
/// (h, w) at `stride` and `dilation` from `in` to `out` (NHWC shapes).
Shape tosaPads(AutoPad mode, ArrayRef<int64_t> in, ArrayRef<int64_t> out,
               ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
               ArrayRef<int64_t> dilation, bool transposed = false) {
  auto [top, bottom] = windowPads(mode, in[1], out[1], kernel[0], stride[0],
                                  dilation[0], {0, 0}, transposed);
  auto [left, right] = windowPads(mode, in[2], out[2], kernel[1], stride[1],
                                  dilation[1], {0, 0}, transposed);
  return {top, bottom, left, right};
}

/// tosaPads for a window op whose height or width may be dynamic (issue
/// 54): VALID needs no size, nor does SAME with stride 1 (the padding is
/// the window's extent less one); SAME with a larger stride pads by the
/// size's remainder, which a dynamic size does not give: refused.
FailureOr<Shape> windowOpPads(OpContext &op, AutoPad mode,
                              ArrayRef<int64_t> in, ArrayRef<int64_t> out,
                              ArrayRef<int64_t> kernel,
                              ArrayRef<int64_t> stride,
                              ArrayRef<int64_t> dilation) {
  Shape sizedIn(in), sizedOut(out);
  for (int axis = 0; axis < 2; ++axis) {
    int64_t d = axis + 1;
    if (!ShapedType::isDynamic(in[d]) && !ShapedType::isDynamic(out[d]))
      continue;
    if (mode != AutoPad::Valid && stride[axis] != 1)
      return op.error() << "SAME padding with stride " << stride[axis]
                        << " over a dynamic " << (axis ? "width" : "height")
                        << " is not supported (the padding depends on the "
                           "size)";
    // Any size gives the same padding then: a stand-in one.
    int64_t effective = (kernel[axis] - 1) * dilation[axis] + 1;
    sizedIn[d] = effective + stride[axis] * 64;
    sizedOut[d] = mode == AutoPad::Valid
                      ? (sizedIn[d] - effective) / stride[axis] + 1
                      : sizedIn[d];
  }
  return tosaPads(mode, sizedIn, sizedOut, kernel, stride, dilation);
}

/// Checks what every window op needs: rank-4 NHWC data, positive strides
/// and dilations, an output of rank 4.
LogicalResult checkWindow(OpContext &op, Value x, ArrayRef<int64_t> out,
                          ArrayRef<int64_t> stride, ArrayRef<int64_t> dilation) {
  if (op.imp.typeOf(x).getRank() != 4 || out.size() != 4)
    return op.error() << "the input and output must have rank 4 (NHWC)";
  for (int64_t v : stride)
    if (v < 1)
      return op.error() << "strides must be 1 or more";
  for (int64_t v : dilation)
    if (v < 1)
      return op.error() << "dilations must be 1 or more";
  return success();
}

/// The bias of a convolution (input 2), or zeros of `count` channels.
Value biasOrZeros(OpContext &op, int i, int64_t count) {
  if (op.has(i))
    return op.inFloat(i);
  return op.imp.splat(op.b.getF32Type(), {count}, 0);
}

LogicalResult importConv2D(OpContext &op) {
  const auto *o = op.options<tflite::Conv2DOptions>();
  Value x = op.inFloat(0), w = op.inFloat(1);
  FailureOr<Shape> out = op.outShape();
  if (!x || !w || failed(out))
    return failure();
  Shape stride = {o ? o->stride_h() : 1, o ? o->stride_w() : 1};
  Shape dilation = {o ? o->dilation_h_factor() : 1,
                    o ? o->dilation_w_factor() : 1};
  if (failed(checkWindow(op, x, *out, stride, dilation)))
    return failure();
  RankedTensorType xt = op.imp.typeOf(x), wt = op.imp.typeOf(w);
  if (wt.getRank() != 4)
    return op.error() << "the filter must have rank 4 (OHWI), not "
                      << wt.getRank();
  int64_t c = xt.getDimSize(3), oc = wt.getDimSize(0), ic = wt.getDimSize(3);
  if (ic == 0 || oc == 0 || c % ic != 0 || oc % (c / ic) != 0 ||
      (*out)[3] != oc)
    return op.error() << "a filter of " << ic << " input and " << oc
                      << " output channels does not fit " << c
                      << " input channels and an output of " << (*out)[3];
  Shape kernel = {wt.getDimSize(1), wt.getDimSize(2)};
  FailureOr<Shape> pads =
      windowOpPads(op, autoPad(o ? o->padding() : tflite::Padding_SAME),
                   xt.getShape(), *out, kernel, stride, dilation);
  Value bias = biasOrZeros(op, 2, oc);
  if (failed(pads) || !bias)
    return failure();
  OpBuilder &b = op.b;
  int64_t groups = c / ic;
  if (groups != 1 && !xt.hasStaticShape())
    return op.error() << "a grouped convolution over dynamic dimensions is "
                         "not supported";
  auto conv = [&](Value input, Value filter, Value biasPart, int64_t outC) {
    auto type = RankedTensorType::get({(*out)[0], (*out)[1], (*out)[2], outC},
                                      b.getF32Type());
    return b.create<tosa::Conv2DOp>(op.loc, type, input, filter, biasPart,
                                    b.getDenseI64ArrayAttr(*pads),
                                    b.getDenseI64ArrayAttr(stride),
                                    b.getDenseI64ArrayAttr(dilation))
        .getResult();
  };
  Value y;
  if (groups == 1) {
    y = conv(x, w, bias, oc);
  } else {
    // Grouped: a convolution per group on its slice of the channels.
    SmallVector<Value> parts;
    int64_t og = oc / groups;
    for (int64_t g = 0; g < groups; ++g) {
      Value xs = op.imp.slice(x, {0, 0, 0, g * ic},
                              {xt.getDimSize(0), xt.getDimSize(1),
                               xt.getDimSize(2), ic});
      Value ws = op.imp.slice(w, {g * og, 0, 0, 0},
                              {og, kernel[0], kernel[1], ic});
      Value bs = op.imp.slice(bias, {g * og}, {og});
      parts.push_back(conv(xs, ws, bs, og));
    }
    y = b.create<tosa::ConcatOp>(
        op.loc,
        RankedTensorType::get({(*out)[0], (*out)[1], (*out)[2], oc},
                              b.getF32Type()),
        parts, b.getI32IntegerAttr(3));
  }
  return op.defineFloat(
      0, op.fused(y, o ? o->fused_activation_function()
                       : tflite::ActivationFunctionType_NONE));
}

LogicalResult importDepthwiseConv2D(OpContext &op) {
  const auto *o = op.options<tflite::DepthwiseConv2DOptions>();
  Value x = op.inFloat(0), w = op.inFloat(1);
  FailureOr<Shape> out = op.outShape();
  if (!x || !w || failed(out))
    return failure();
  Shape stride = {o ? o->stride_h() : 1, o ? o->stride_w() : 1};
  Shape dilation = {o ? o->dilation_h_factor() : 1,
                    o ? o->dilation_w_factor() : 1};
  if (failed(checkWindow(op, x, *out, stride, dilation)))
    return failure();
  RankedTensorType xt = op.imp.typeOf(x), wt = op.imp.typeOf(w);
  int64_t c = xt.getDimSize(3);
  if (wt.getRank() != 4 || wt.getDimSize(0) != 1 || c == 0 ||
      wt.getDimSize(3) % c != 0 || (*out)[3] != wt.getDimSize(3))
    return op.error() << "the filter must be [1, KH, KW, C * M] for " << c
                      << " input channels and an output of " << (*out)[3];
  int64_t m = wt.getDimSize(3) / c;
  if (o && o->depth_multiplier() != 0 && o->depth_multiplier() != m)
    return op.error() << "depth_multiplier " << o->depth_multiplier()
                      << " disagrees with the filter's " << m;
  Shape kernel = {wt.getDimSize(1), wt.getDimSize(2)};
  FailureOr<Shape> pads =
      windowOpPads(op, autoPad(o ? o->padding() : tflite::Padding_SAME),
                   xt.getShape(), *out, kernel, stride, dilation);
  Value bias = biasOrZeros(op, 2, c * m);
  if (failed(pads) || !bias)
    return failure();
  Value filter = op.imp.reshape(w, {kernel[0], kernel[1], c, m});
  OpBuilder &b = op.b;
  Value y = b.create<tosa::DepthwiseConv2DOp>(
      op.loc,
      RankedTensorType::get({(*out)[0], (*out)[1], (*out)[2], c * m},
                            b.getF32Type()),
      x, filter, bias, b.getDenseI64ArrayAttr(*pads),
      b.getDenseI64ArrayAttr(stride), b.getDenseI64ArrayAttr(dilation));
  return op.defineFloat(
      0, op.fused(y, o ? o->fused_activation_function()
                       : tflite::ActivationFunctionType_NONE));
}

/// The transposed convolution of input `xIndex` (NHWC) by input `wIndex`
/// (OHWI) into output 0's shape, plus input `biasIndex` (or zeros): the
/// builtin TRANSPOSE_CONV and MediaPipe's Convolution2DTransposeBias.
LogicalResult transposeConv(OpContext &op, int xIndex, int wIndex,
                            int biasIndex, Shape stride,
                            tflite::Padding padding,
                            tflite::ActivationFunctionType act) {
  Value w = op.inFloat(wIndex), x = op.inFloat(xIndex);
  FailureOr<Shape> out = op.outShape();
  if (!x || !w || failed(out))
    return failure();
  if (failed(checkWindow(op, x, *out, stride, {1, 1})))
    return failure();
  RankedTensorType xt = op.imp.typeOf(x), wt = op.imp.typeOf(w);
  int64_t oc = (*out)[3];
  if (wt.getRank() != 4 || wt.getDimSize(0) != oc ||
      wt.getDimSize(3) != xt.getDimSize(3))
    return op.error() << "the filter must be [" << oc << ", KH, KW, "
                      << xt.getDimSize(3) << "]";
  Shape kernel = {wt.getDimSize(1), wt.getDimSize(2)};
  Shape pads = tosaPads(autoPad(padding), xt.getShape(), *out, kernel, stride,
                        {1, 1}, /*transposed=*/true);
  Value bias = biasOrZeros(op, biasIndex, oc);
  if (!bias)
    return failure();
  OpBuilder &b = op.b;
  // TOSA's out_pad crops (negative) or extends (positive) the full result.
  Shape outPad = {-pads[0], -pads[1], -pads[2], -pads[3]};
  Value y = b.create<tosa::TransposeConv2DOp>(
      op.loc, RankedTensorType::get(*out, b.getF32Type()), x, w, bias,
      b.getDenseI64ArrayAttr(outPad), b.getDenseI64ArrayAttr(stride),
      b.getDenseI64ArrayAttr(*out));
  return op.defineFloat(0, op.fused(y, act));
}

LogicalResult importTransposeConv(OpContext &op) {
  const auto *o = op.options<tflite::TransposeConvOptions>();
  // Inputs: output shape, filter (OHWI), data, bias (version 3 on).
  FailureOr<SmallVector<int64_t>> shape =
      op.needInts(0, "the output shape");
  FailureOr<Shape> out = op.outShape();
  if (failed(shape) || failed(out))
    return failure();
  if (ArrayRef<int64_t>(*shape) != ArrayRef<int64_t>(*out))
    return op.error() << "the output shape input disagrees with the output "
                         "tensor's shape";
  return transposeConv(
      op, 2, 1, 3, {o ? o->stride_h() : 1, o ? o->stride_w() : 1},
      o ? o->padding() : tflite::Padding_SAME,
      o ? o->fused_activation_function() : tflite::ActivationFunctionType_NONE);
}

/// MediaPipe's Convolution2DTransposeBias: TRANSPOSE_CONV with the bias as
/// an input; inputs data, filter (OHWI), bias; its custom options are three
/// little-endian int32: padding (1 SAME, 2 VALID), stride width, stride
/// height; the output's shape is the output tensor's.
LogicalResult importTransposeConvBias(OpContext &op) {
  const flatbuffers::Vector<uint8_t> *raw = op.op.custom_options();
  if (!raw || raw->size() != 12)
    return op.error() << "the custom options must be 12 bytes (padding, "
                         "stride width, stride height as int32), not "
                      << (raw ? raw->size() : 0);
  auto word = [&](int k) {
    return int32_t(llvm::support::endian::read32le(raw->data() + 4 * k));
  };
  int32_t padding = word(0);
  if (padding != 1 && padding != 2)
    return op.error() << "padding " << padding
                      << " is neither SAME (1) nor VALID (2)";
  if (op.numInputs() != 3 || !op.has(0) || !op.has(1) || !op.has(2))
    return op.error() << "the operator takes data, filter and bias";
  // MediaPipe sizes the output itself: (in - 1) * stride + kernel, less
  // SAME's padding kernel - 1 - (in - 1) % stride (never negative).
  const tflite::Tensor &xt = op.inputTensor(0), &wt = op.inputTensor(1);
  FailureOr<Shape> out = op.outShape();
  if (failed(out))
    return failure();
  if (!xt.shape() || xt.shape()->size() != 4 || !wt.shape() ||
      wt.shape()->size() != 4 || out->size() != 4)
    return op.error() << "data, filter and output must be 4-D";
  int32_t strides[2] = {word(2), word(1)};
  for (int k = 0; k < 2; ++k) {
    int64_t in = xt.shape()->Get(1 + k), kernel = wt.shape()->Get(1 + k);
    if (strides[k] < 1 || in < 1 || kernel < 1)
      return op.error() << "strides, sizes and the kernel must be positive";
    int64_t pad = padding == 1
                      ? std::max<int64_t>(0, kernel - 1 - (in - 1) % strides[k])
                      : 0;
    int64_t size = (in - 1) * strides[k] + kernel - pad;
    if ((*out)[1 + k] != size)
      return op.error() << "the output's " << (k ? "width" : "height")
                        << " is " << (*out)[1 + k]
                        << ", where MediaPipe's operator computes " << size;
  }
  return transposeConv(
      op, 0, 1, 2, {word(2), word(1)},
      padding == 1 ? tflite::Padding_SAME : tflite::Padding_VALID,
      tflite::ActivationFunctionType_NONE);
}

/// MediaPipe's pooling parameters (TfLitePoolParams, read as the custom
/// options' raw bytes): padding (1 SAME, 2 VALID), stride width and height,
/// filter width and height, activation (TFLite's fused activation numbers);
/// older files carry 32 bytes of it, newer 40; the rest is computed
/// padding, which the kernels recompute.
struct MediaPipePool {
  int32_t padding, strideW, strideH, filterW, filterH, activation;
};

FailureOr<MediaPipePool> mediaPipePool(OpContext &op) {
  const flatbuffers::Vector<uint8_t> *raw = op.op.custom_options();
  if (!raw || raw->size() < 24)
    return op.error() << "the custom options must hold at least 24 bytes "
                         "(padding, strides, filter size and activation as "
                         "int32), not "
                      << (raw ? raw->size() : 0);
  int32_t w[6];
  for (int k = 0; k < 6; ++k)
    w[k] = int32_t(llvm::support::endian::read32le(raw->data() + 4 * k));
  MediaPipePool p{w[0], w[1], w[2], w[3], w[4], w[5]};
  if (p.padding != 1 && p.padding != 2)
    return op.error() << "padding " << p.padding
                      << " is neither SAME (1) nor VALID (2)";
  if (p.strideW < 1 || p.strideH < 1 || p.filterW < 1 || p.filterH < 1)
    return op.error() << "strides and the filter size must be positive";
  // The importer writes a few operations per window position.
  constexpr int64_t kMaxTaps = 1024;
  if (int64_t(p.filterW) * p.filterH > kMaxTaps)
    return op.error() << "a " << p.filterH << "x" << p.filterW
                      << " window has more than the " << kMaxTaps
                      << " positions the importer unrolls";
  if (p.activation < 0 || p.activation > 4)
    return op.error() << "activation " << p.activation
                      << " is not one of none, RELU, RELU_N1_TO_1, RELU6, "
                         "TANH (0-4)";
  return p;
}

/// MediaPipe's MaxPoolingWithArgmax2D: the window's maximum (output 0) and
/// where in the window it is (output 1, float32: fy * KW + fx + 0.1, the
/// first maximum in raster order; cells outside the input never win).
LogicalResult importMaxPoolArgmax(OpContext &op) {
  FailureOr<MediaPipePool> p = mediaPipePool(op);
  Value x = op.inFloat(0);
  FailureOr<Shape> out = op.outShape(0);
  if (failed(p) || !x || failed(out))
    return failure();
  if (op.numOutputs() != 2)
    return op.error() << "the operator has 2 outputs (values, indices), not "
                      << op.numOutputs();
  FailureOr<Shape> out1 = op.outShape(1);
  if (failed(out1))
    return failure();
  Shape stride = {p->strideH, p->strideW}, kernel = {p->filterH, p->filterW};
  if (failed(checkWindow(op, x, *out, stride, {1, 1})))
    return failure();
  if (*out1 != *out)
    return op.error() << "the indices must have the values' shape";
  FailureOr<RankedTensorType> indexType = op.outType(1);
  if (failed(indexType))
    return failure();
  if (!indexType->getElementType().isF32())
    return op.error() << "the indices are " << indexType->getElementType()
                      << "; MediaPipe's operator writes them as f32";
  RankedTensorType xt = op.imp.typeOf(x);
  Shape in = {xt.getDimSize(1), xt.getDimSize(2)}, before(2), after(2);
  for (int k = 0; k < 2; ++k) {
    int64_t size = p->padding == 1
                       ? (in[k] + stride[k] - 1) / stride[k]
                       : (in[k] - kernel[k] + stride[k]) / stride[k];
    if ((*out)[1 + k] != size)
      return op.error() << "the output's " << (k ? "width" : "height")
                        << " is " << (*out)[1 + k]
                        << ", where the operator computes " << size;
    int64_t span = (size - 1) * stride[k] + kernel[k];
    before[k] = std::max<int64_t>((span - in[k]) / 2, 0);
    after[k] = std::max<int64_t>(span - in[k] - before[k], 0);
  }
  Emitter &e = op.imp;
  OpBuilder &b = op.b;
  Type f32 = b.getF32Type();
  // Cells outside the input hold the lowest float, which never beats the
  // running maximum (it starts there and only a greater value replaces it).
  constexpr double kLowest = -3.4028234663852886e38;
  Shape padded = {xt.getDimSize(0), in[0] + before[0] + after[0],
                  in[1] + before[1] + after[1], xt.getDimSize(3)};
  SmallVector<int64_t> pads = {0, 0, before[0], after[0],
                               before[1], after[1], 0, 0};
  Value xp = b.create<tosa::PadOp>(
      op.loc, RankedTensorType::get(padded, f32), x,
      e.constant(DenseElementsAttr::get(
          RankedTensorType::get({4, 2}, b.getI64Type()),
          ArrayRef<int64_t>(pads))),
      e.splat(f32, {}, kLowest));
  Value best = e.splat(f32, {1, 1, 1, 1}, kLowest);
  Value where = e.splat(f32, {1, 1, 1, 1}, 0.1);
  for (int64_t fy = 0; fy < kernel[0]; ++fy) {
    for (int64_t fx = 0; fx < kernel[1]; ++fx) {
      Value tap = e.slice(xp, {0, fy, fx, 0},
                          {padded[0], ((*out)[1] - 1) * stride[0] + 1,
                           ((*out)[2] - 1) * stride[1] + 1, padded[3]});
      tap = e.everyNth(tap, 1, stride[0], (*out)[1]);
      tap = e.everyNth(tap, 2, stride[1], (*out)[2]);
      Value better = e.compare<tosa::GreaterOp>(tap, best);
      where = e.select(better,
                       e.splat(f32, {1, 1, 1, 1},
                               double(fy * kernel[1] + fx) + 0.1),
                       where);
      best = e.binary<tosa::MaximumOp>(best, tap);
    }
  }
  Value values = op.fused(best, tflite::ActivationFunctionType(p->activation));
  if (!values || failed(op.defineFloat(0, values)))
    return failure();
  return op.define(1, where);
}

/// MediaPipe's MaxUnpooling2D: each value written back at the window
/// position its index names, zeros elsewhere; the output is the input
/// scaled by the filter size. Taken for windows that tile the output
/// (stride = filter size, as the models that use it have), where no two
/// values land on one position.
LogicalResult importMaxUnpool(OpContext &op) {
  FailureOr<MediaPipePool> p = mediaPipePool(op);
  Value x = op.inFloat(0), indices = op.inFloat(1);
  FailureOr<Shape> out = op.outShape();
  if (failed(p) || !x || !indices || failed(out))
    return failure();
  if (p->strideH != p->filterH || p->strideW != p->filterW)
    return op.error() << "a stride (" << p->strideH << "x" << p->strideW
                      << ") other than the filter size (" << p->filterH
                      << "x" << p->filterW
                      << ") is not supported: windows that overlap or leave "
                         "gaps have no single position per value";
  if (p->activation != 0)
    return op.error() << "an activation is not supported";
  Emitter &e = op.imp;
  RankedTensorType xt = e.typeOf(x);
  if (xt.getRank() != 4 || e.typeOf(indices).getShape() != xt.getShape())
    return op.error() << "values and indices must be 4-D, of one shape";
  int64_t n = xt.getDimSize(0), h = xt.getDimSize(1), w = xt.getDimSize(2),
          c = xt.getDimSize(3), kh = p->filterH, kw = p->filterW;
  Shape want = {n, h * kh, w * kw, c};
  if (*out != want)
    return op.error() << "the output must be [" << n << ", " << h * kh << ", "
                      << w * kw << ", " << c << "]";
  OpBuilder &b = op.b;
  Type f32 = b.getF32Type();
  // The index's window position, truncated as the kernel does.
  Value slot = e.unary("tosa.floor", indices);
  Value zero = e.splat(f32, {1, 1, 1, 1}, 0);
  SmallVector<Value> rows;
  for (int64_t my = 0; my < kh; ++my) {
    SmallVector<Value> cols;
    for (int64_t mx = 0; mx < kw; ++mx) {
      Value here = e.compare<tosa::EqualOp>(
          slot, e.splat(f32, {1, 1, 1, 1}, double(my * kw + mx)));
      cols.push_back(e.select(here, x, zero));
    }
    // [N, H, W, KW * C] is [N, H, W * KW, C]: column x * KW + mx.
    Value row = b.create<tosa::ConcatOp>(
        op.loc, RankedTensorType::get({n, h, w, kw * c}, f32), cols,
        b.getI32IntegerAttr(3));
    rows.push_back(e.reshape(row, {n * h, 1, w * kw, c}));
  }
  // [N * H, KH, W * KW, C] is the output: row y * KH + my.
  Value y = b.create<tosa::ConcatOp>(
      op.loc, RankedTensorType::get({n * h, kh, w * kw, c}, f32), rows,
      b.getI32IntegerAttr(1));
  return op.defineFloat(0, e.reshape(y, want));
}

LogicalResult importPool(OpContext &op) {
  const auto *o = op.options<tflite::Pool2DOptions>();
  if (!o)
    return op.error() << "the pooling options are missing";
  Value x = op.inFloat(0);
  FailureOr<Shape> out = op.outShape();
  if (!x || failed(out))
    return failure();
  Shape stride = {o->stride_h(), o->stride_w()};
  Shape kernel = {o->filter_height(), o->filter_width()};
  if (failed(checkWindow(op, x, *out, stride, {1, 1})))
    return failure();
  if (kernel[0] < 1 || kernel[1] < 1)
    return op.error() << "the window must be at least 1x1";
  RankedTensorType xt = op.imp.typeOf(x);
  FailureOr<Shape> poolPads = windowOpPads(op, autoPad(o->padding()),
                                           xt.getShape(), *out, kernel,
                                           stride, {1, 1});
  if (failed(poolPads))
    return failure();
  Shape pads = *poolPads;
  OpBuilder &b = op.b;
  auto type = RankedTensorType::get(*out, b.getF32Type());
  Value y;
  if (op.code == tflite::BuiltinOperator_MAX_POOL_2D) {
    y = b.create<tosa::MaxPool2dOp>(op.loc, type, x,
                                    b.getDenseI64ArrayAttr(kernel),
                                    b.getDenseI64ArrayAttr(stride),
                                    b.getDenseI64ArrayAttr(pads));
  } else if (op.code == tflite::BuiltinOperator_AVERAGE_POOL_2D) {
    // TOSA's average, like TFLite's, counts the window's real entries only.
    y = b.create<tosa::AvgPool2dOp>(
        op.loc, type, x, b.getDenseI64ArrayAttr(kernel),
        b.getDenseI64ArrayAttr(stride), b.getDenseI64ArrayAttr(pads),
        TypeAttr::get(b.getF32Type()));
  } else {
    // L2_POOL_2D: sqrt of the average of squares.
    Value sq = op.imp.mul(x, x);
    Value avg = b.create<tosa::AvgPool2dOp>(
        op.loc, type, sq, b.getDenseI64ArrayAttr(kernel),
        b.getDenseI64ArrayAttr(stride), b.getDenseI64ArrayAttr(pads),
        TypeAttr::get(b.getF32Type()));
    y = op.imp.unary("tosa.reciprocal", op.imp.unary("tosa.rsqrt", avg));
  }
  return op.defineFloat(0, op.fused(y, o->fused_activation_function()));
}

LogicalResult importFullyConnected(OpContext &op) {
  const auto *o = op.options<tflite::FullyConnectedOptions>();
  if (o && o->weights_format() != tflite::FullyConnectedOptionsWeightsFormat_DEFAULT)
    return op.error() << "weights format "
                      << tflite::EnumNameFullyConnectedOptionsWeightsFormat(
                             o->weights_format())
                      << " is not supported";
  Value x = op.inFloat(0), w = op.inFloat(1);
  FailureOr<Shape> out = op.outShape();
  if (!x || !w || failed(out))
    return failure();
  RankedTensorType xt = op.imp.typeOf(x), wt = op.imp.typeOf(w);
  if (wt.getRank() != 2 || wt.getDimSize(1) == 0 || xt.getRank() < 1)
    return op.error() << "the weights must be [units, inputs]";
  int64_t units = wt.getDimSize(0), k = wt.getDimSize(1);
  // The input as [rows, K]: flattened, or with dynamic rows as it is
  // (reshaping a dynamic tensor would need its sizes).
  int64_t rows = ShapedType::kDynamic;
  if (xt.hasStaticShape()) {
    int64_t count = xt.getNumElements();
    if (count % k != 0)
      return op.error() << "an input of " << count
                        << " elements is not a whole number of rows of " << k;
    rows = count / k;
    x = op.imp.reshape(x, {rows, k});
  } else if (xt.getRank() != 2 || xt.getDimSize(1) != k || out->size() != 2 ||
             (*out)[1] != units) {
    return op.error() << "with dynamic dimensions, the input must be [rows, "
                      << k << "] and the output [rows, " << units << "]";
  }
  Value bias = biasOrZeros(op, 2, units);
  if (!bias)
    return failure();
  OpBuilder &b = op.b;
  Value y = b.create<tosa::FullyConnectedOp>(
      op.loc, RankedTensorType::get({rows, units}, b.getF32Type()), x, w,
      bias);
  y = op.fused(y, o ? o->fused_activation_function()
                    : tflite::ActivationFunctionType_NONE);
  // keep_num_dims keeps the input's leading dimensions; the output tensor
  // says which shape either way.
  return op.defineFloat(0, y);
}

LogicalResult importBatchMatMul(OpContext &op) {
  const auto *o = op.options<tflite::BatchMatMulOptions>();
  Value a = op.inFloat(0), bv = op.inFloat(1);
  FailureOr<Shape> out = op.outShape();
  if (!a || !bv || failed(out))
    return failure();
  Emitter &e = op.imp;
  auto lastTwo = [&](Value v) {
    int64_t r = e.typeOf(v).getRank();
    Shape perm;
    for (int64_t i = 0; i < r; ++i)
      perm.push_back(i);
    std::swap(perm[r - 1], perm[r - 2]);
    return e.transpose(v, perm);
  };
  if (e.typeOf(a).getRank() < 2 || e.typeOf(bv).getRank() < 2)
    return op.error() << "both operands must have rank 2 or more";
  if (o && o->adj_x())
    a = lastTwo(a);
  if (o && o->adj_y())
    bv = lastTwo(bv);
  RankedTensorType at = e.typeOf(a), bt = e.typeOf(bv);
  int64_t m = at.getDimSize(at.getRank() - 2), k = at.getDimSize(at.getRank() - 1),
          n = bt.getDimSize(bt.getRank() - 1);
  if (bt.getDimSize(bt.getRank() - 2) != k)
    return op.error() << "inner dimensions " << k << " and "
                      << bt.getDimSize(bt.getRank() - 2) << " differ";
  // Batch dimensions broadcast (numpy): both made the output's by tiling a
  // unit batch, then one tosa.matmul over their product.
  Shape batch((*out).begin(), (*out).end() - 2);
  int64_t count = product(batch);
  auto toBatch = [&](Value v, int64_t rows, int64_t cols) {
    RankedTensorType t = e.typeOf(v);
    Shape full(batch);
    full.append({rows, cols});
    v = e.toRank(v, int64_t(full.size()));
    if (e.typeOf(v).getShape() != ArrayRef<int64_t>(full))
      v = broadcastTo(e, v, full);
    (void)t;
    return e.reshape(v, {count, rows, cols});
  };
  Value y = op.b.create<tosa::MatMulOp>(
      op.loc, RankedTensorType::get({count, m, n}, op.b.getF32Type()),
      toBatch(a, m, k), toBatch(bv, k, n));
  return op.defineFloat(0, y);
}

} // namespace

void mlir::nnapi::tflite_import::registerConvOps(OpRegistry &registry) {
  registry.add({
      {tflite::BuiltinOperator_CONV_2D, "", 1, 8, importConv2D,
       "tosa.conv2d (NHWC, OHWI filters as they are); grouped: one per group "
       "and a concat",
       "CONV_2D (1); dilation 3; int8 per-channel 4", "-", /*dynamic=*/true},
      {tflite::BuiltinOperator_DEPTHWISE_CONV_2D, "", 1, 7,
       importDepthwiseConv2D,
       "tosa.depthwise_conv2d (the filter [1, KH, KW, C*M] reshaped)",
       "DEPTHWISE_CONV_2D (1); dilation 3; int8 per-channel 4", "-",
       /*dynamic=*/true},
      {tflite::BuiltinOperator_TRANSPOSE_CONV, "", 1, 5, importTransposeConv,
       "tosa.transpose_conv2d (out_pad from SAME / VALID)",
       "TRANSPOSE_CONV_2D (3)", "-"},
      {kCustom, "Convolution2DTransposeBias", 1, 1, importTransposeConvBias,
       "tosa.transpose_conv2d with the bias input (MediaPipe's custom "
       "operator)",
       "TRANSPOSE_CONV_2D (3)", "-"},
      {kCustom, "MaxPoolingWithArgmax2D", 1, 1, importMaxPoolArgmax,
       "pad with the lowest float; per window tap: slice, greater, select, "
       "maximum (MediaPipe's custom operator)",
       "PAD_V2, SLICE, GREATER, SELECT, MAXIMUM (3)", "-"},
      {kCustom, "MaxUnpooling2D", 1, 1, importMaxUnpool,
       "floor, equal and select per window position, concatenations, "
       "reshapes (MediaPipe's custom operator)",
       "FLOOR, EQUAL, SELECT, CONCATENATION, RESHAPE (3)",
       "stride other than the filter size (refused)"},
      {tflite::BuiltinOperator_AVERAGE_POOL_2D, "", 1, 3, importPool,
       "tosa.avg_pool2d", "AVERAGE_POOL_2D (1)", "-"},
      {tflite::BuiltinOperator_MAX_POOL_2D, "", 1, 3, importPool,
       "tosa.max_pool2d", "MAX_POOL_2D (1)", "-", /*dynamic=*/true},
      {tflite::BuiltinOperator_L2_POOL_2D, "", 1, 1, importPool,
       "mul, tosa.avg_pool2d, rsqrt, reciprocal", "MUL, AVERAGE_POOL_2D (1)",
       "-"},
      {tflite::BuiltinOperator_FULLY_CONNECTED, "", 1, 12,
       importFullyConnected,
       "tosa.fully_connected (input flattened to [rows, K]; keep_num_dims: "
       "reshaped back)",
       "FULLY_CONNECTED (1); int8 4", "shuffled weights formats are refused",
       /*dynamic=*/true},
      {tflite::BuiltinOperator_BATCH_MATMUL, "", 1, 4, importBatchMatMul,
       "tosa.matmul (adj_x / adj_y transposed, batches broadcast)",
       "BATCH_MATMUL (6)", "-"},
  });
}
