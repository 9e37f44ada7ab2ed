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
  Shape pads = tosaPads(autoPad(o ? o->padding() : tflite::Padding_SAME),
                        xt.getShape(), *out, kernel, stride, dilation);
  Value bias = biasOrZeros(op, 2, oc);
  if (!bias)
    return failure();
  OpBuilder &b = op.b;
  int64_t groups = c / ic;
  auto conv = [&](Value input, Value filter, Value biasPart, int64_t outC) {
    auto type = RankedTensorType::get({(*out)[0], (*out)[1], (*out)[2], outC},
                                      b.getF32Type());
    return b.create<tosa::Conv2DOp>(op.loc, type, input, filter, biasPart,
                                    b.getDenseI64ArrayAttr(pads),
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
  Shape pads = tosaPads(autoPad(o ? o->padding() : tflite::Padding_SAME),
                        xt.getShape(), *out, kernel, stride, dilation);
  Value bias = biasOrZeros(op, 2, c * m);
  if (!bias)
    return failure();
  Value filter = op.imp.reshape(w, {kernel[0], kernel[1], c, m});
  OpBuilder &b = op.b;
  Value y = b.create<tosa::DepthwiseConv2DOp>(
      op.loc,
      RankedTensorType::get({(*out)[0], (*out)[1], (*out)[2], c * m},
                            b.getF32Type()),
      x, filter, bias, b.getDenseI64ArrayAttr(pads),
      b.getDenseI64ArrayAttr(stride), b.getDenseI64ArrayAttr(dilation));
  return op.defineFloat(
      0, op.fused(y, o ? o->fused_activation_function()
                       : tflite::ActivationFunctionType_NONE));
}

LogicalResult importTransposeConv(OpContext &op) {
  const auto *o = op.options<tflite::TransposeConvOptions>();
  // Inputs: output shape, filter (OHWI), data, bias (version 3 on).
  FailureOr<DenseElementsAttr> shape = op.needConstant(0, "the output shape");
  Value w = op.inFloat(1), x = op.inFloat(2);
  FailureOr<Shape> out = op.outShape();
  if (failed(shape) || !x || !w || failed(out))
    return failure();
  if (ArrayRef<int64_t>(intsOf(*shape)) != ArrayRef<int64_t>(*out))
    return op.error() << "the output shape input disagrees with the output "
                         "tensor's shape";
  Shape stride = {o ? o->stride_h() : 1, o ? o->stride_w() : 1};
  if (failed(checkWindow(op, x, *out, stride, {1, 1})))
    return failure();
  RankedTensorType xt = op.imp.typeOf(x), wt = op.imp.typeOf(w);
  int64_t oc = (*out)[3];
  if (wt.getRank() != 4 || wt.getDimSize(0) != oc ||
      wt.getDimSize(3) != xt.getDimSize(3))
    return op.error() << "the filter must be [" << oc << ", KH, KW, "
                      << xt.getDimSize(3) << "]";
  Shape kernel = {wt.getDimSize(1), wt.getDimSize(2)};
  Shape pads = tosaPads(autoPad(o ? o->padding() : tflite::Padding_SAME),
                        xt.getShape(), *out, kernel, stride, {1, 1},
                        /*transposed=*/true);
  Value bias = biasOrZeros(op, 3, oc);
  if (!bias)
    return failure();
  OpBuilder &b = op.b;
  // TOSA's out_pad crops (negative) or extends (positive) the full result.
  Shape outPad = {-pads[0], -pads[1], -pads[2], -pads[3]};
  Value y = b.create<tosa::TransposeConv2DOp>(
      op.loc, RankedTensorType::get(*out, b.getF32Type()), x, w, bias,
      b.getDenseI64ArrayAttr(outPad), b.getDenseI64ArrayAttr(stride),
      b.getDenseI64ArrayAttr(*out));
  return op.defineFloat(0, op.fused(y, o ? o->fused_activation_function()
                                         : tflite::ActivationFunctionType_NONE));
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
  Shape pads = tosaPads(autoPad(o->padding()), xt.getShape(), *out, kernel,
                        stride, {1, 1});
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
  int64_t count = xt.getNumElements();
  if (count % k != 0)
    return op.error() << "an input of " << count
                      << " elements is not a whole number of rows of " << k;
  int64_t rows = count / k;
  Value bias = biasOrZeros(op, 2, units);
  if (!bias)
    return failure();
  OpBuilder &b = op.b;
  Value y = b.create<tosa::FullyConnectedOp>(
      op.loc, RankedTensorType::get({rows, units}, b.getF32Type()),
      op.imp.reshape(x, {rows, k}), w, bias);
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
       "CONV_2D (1); dilation 3; int8 per-channel 4", "-"},
      {tflite::BuiltinOperator_DEPTHWISE_CONV_2D, "", 1, 7,
       importDepthwiseConv2D,
       "tosa.depthwise_conv2d (the filter [1, KH, KW, C*M] reshaped)",
       "DEPTHWISE_CONV_2D (1); dilation 3; int8 per-channel 4", "-"},
      {tflite::BuiltinOperator_TRANSPOSE_CONV, "", 1, 5, importTransposeConv,
       "tosa.transpose_conv2d (out_pad from SAME / VALID)",
       "TRANSPOSE_CONV_2D (3)", "-"},
      {tflite::BuiltinOperator_AVERAGE_POOL_2D, "", 1, 3, importPool,
       "tosa.avg_pool2d", "AVERAGE_POOL_2D (1)", "-"},
      {tflite::BuiltinOperator_MAX_POOL_2D, "", 1, 3, importPool,
       "tosa.max_pool2d", "MAX_POOL_2D (1)", "-"},
      {tflite::BuiltinOperator_L2_POOL_2D, "", 1, 1, importPool,
       "mul, tosa.avg_pool2d, rsqrt, reciprocal", "MUL, AVERAGE_POOL_2D (1)",
       "-"},
      {tflite::BuiltinOperator_FULLY_CONNECTED, "", 1, 12,
       importFullyConnected,
       "tosa.fully_connected (input flattened to [rows, K]; keep_num_dims: "
       "reshaped back)",
       "FULLY_CONNECTED (1); int8 4", "shuffled weights formats are refused"},
      {tflite::BuiltinOperator_BATCH_MATMUL, "", 1, 4, importBatchMatMul,
       "tosa.matmul (adj_x / adj_y transposed, batches broadcast)",
       "BATCH_MATMUL (6)", "-"},
  });
}
