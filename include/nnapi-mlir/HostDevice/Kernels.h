//===- Kernels.h - Reference CPU kernels with NNAPI semantics -------------===//
//
// Straightforward float32 kernels used by the host NNAPI implementation; they
// know no operation codes (the device maps them, OpKinds.h). All
// image tensors are NHWC; filters follow NNAPI: CONV_2D [out, kh, kw, in],
// DEPTHWISE_CONV_2D [1, kh, kw, out]. Padding is explicit (left, right, top,
// bottom); implicit SAME/VALID padding is resolved by spec::implicitPadding
// (nnapi-mlir/NNAPI/Shapes.h).
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_HOSTDEVICE_KERNELS_H
#define NNAPI_MLIR_HOSTDEVICE_KERNELS_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "nnapi-mlir/Support/Half.h"

namespace nnapi_mlir::host {

// IEEE half <-> float (Support/Half.h).
using nnapi_mlir::floatToHalf;
using nnapi_mlir::halfToFloat;

using Shape = std::vector<uint32_t>;

size_t numElements(const Shape &shape);

/// Applies an ANEURALNETWORKS_FUSED_* activation in place.
void applyFusedActivation(float *data, size_t count, int32_t fuseCode);

/// Prelu: a >= 0 ? a : a * b.
enum class BinaryKind { Add, Sub, Mul, Div, Maximum, Minimum, Pow, Prelu };

/// Numpy-style broadcast of `a` and `b` into `outShape` (already computed).
void binary(BinaryKind kind, const float *a, const Shape &aShape,
            const float *b, const Shape &bShape, float *out,
            const Shape &outShape, int32_t fuseCode);

/// Comparisons of float tensors with numpy broadcasting, to TENSOR_BOOL8
/// (one byte, 0 or 1, per element). NaN compares unequal to everything.
enum class CompareKind { Equal, NotEqual, Greater, GreaterEqual, Less, LessEqual };
void compare(CompareKind kind, const float *a, const Shape &aShape,
             const float *b, const Shape &bShape, uint8_t *out,
             const Shape &outShape);
/// LOGICAL_OR (`orNotAnd`) or LOGICAL_AND of bool tensors, broadcast.
void logical(bool orNotAnd, const uint8_t *a, const Shape &aShape,
             const uint8_t *b, const Shape &bShape, uint8_t *out,
             const Shape &outShape);
void logicalNot(const uint8_t *input, uint8_t *output, size_t count);
/// SELECT: condition ? onTrue : onFalse, all of one shape.
/// How the host device holds a tensor's elements: TENSOR_FLOAT32 and
/// TENSOR_FLOAT16 as floats (float16 values rounded to float16), TENSOR_INT32
/// as int32, TENSOR_BOOL8 as one byte.
enum class Storage { Float, Half, Int32, Bool };
/// CAST: a float narrows to float16 by rounding to nearest even, a float
/// becomes an int32 truncated toward zero (saturated; NaN is 0), any value
/// becomes the bool `value != 0` (NaN is true).
void cast(const void *input, Storage from, void *output, Storage to,
          size_t count);
void select(const uint8_t *condition, const float *onTrue,
            const float *onFalse, float *output, size_t count);


struct Window {
  int32_t padLeft = 0, padRight = 0, padTop = 0, padBottom = 0;
  int32_t strideW = 1, strideH = 1;
  int32_t dilationW = 1, dilationH = 1;
  int32_t fuseCode = 0;
};

/// Every output element of a 2-D pool (NHWC `inputShape` -> `outputShape`,
/// w's padding and strides, filterW x filterH windows): from `init`,
/// acc = reduce(acc, read(input index)) over the window's elements inside
/// the input, then write(output index, acc, their count).
template <typename Acc, typename Read, typename Reduce, typename Write>
void forEachPoolWindow(const Shape &inputShape, const Shape &outputShape,
                       const Window &w, int32_t filterW, int32_t filterH,
                       Acc init, Read read, Reduce reduce, Write write) {
  const int32_t batches = int32_t(inputShape[0]), inH = int32_t(inputShape[1]),
                inW = int32_t(inputShape[2]), channels = int32_t(inputShape[3]);
  const int32_t outH = int32_t(outputShape[1]), outW = int32_t(outputShape[2]);
  for (int32_t n = 0; n < batches; ++n)
    for (int32_t oy = 0; oy < outH; ++oy)
      for (int32_t ox = 0; ox < outW; ++ox) {
        int32_t y0 = oy * w.strideH - w.padTop, x0 = ox * w.strideW - w.padLeft;
        int32_t yBegin = std::max(y0, 0), yEnd = std::min(y0 + filterH, inH);
        int32_t xBegin = std::max(x0, 0), xEnd = std::min(x0 + filterW, inW);
        int32_t count = std::max(yEnd - yBegin, 0) * std::max(xEnd - xBegin, 0);
        size_t out = ((size_t(n) * outH + oy) * outW + ox) * channels;
        for (int32_t c = 0; c < channels; ++c) {
          Acc acc = init;
          for (int32_t y = yBegin; y < yEnd; ++y)
            for (int32_t x = xBegin; x < xEnd; ++x)
              acc = reduce(
                  acc, read(((size_t(n) * inH + y) * inW + x) * channels + c));
          write(out + size_t(c), acc, count);
        }
      }
}

/// CONV_2D, and GROUPED_CONV_2D with `groups` > 1: filter [out, kh, kw,
/// in / groups], output channel group g reading input channel group g.
void conv2d(const float *input, const Shape &inputShape, const float *filter,
            const Shape &filterShape, const float *bias, float *output,
            const Shape &outputShape, const Window &w, int32_t groups = 1);

void depthwiseConv2d(const float *input, const Shape &inputShape,
                     const float *filter, const Shape &filterShape,
                     const float *bias, float *output, const Shape &outputShape,
                     const Window &w, int32_t depthMultiplier);

/// TRANSPOSE_CONV_2D with filter [out, kh, kw, in]: the full output of
/// every input pixel's filter-weighted contribution, cropped by the window's
/// padding, plus bias, then the window's fused activation.
void transposeConv2d(const float *input, const Shape &inputShape,
                     const float *filter, const Shape &filterShape,
                     const float *bias, float *output,
                     const Shape &outputShape, const Window &w);

/// Input is flattened to [batch, inputSize] with inputSize = weights dim 1.
void fullyConnected(const float *input, const float *weights,
                    const Shape &weightsShape, const float *bias,
                    float *output, uint32_t batch, int32_t fuseCode);

void maxPool2d(const float *input, const Shape &inputShape, float *output,
               const Shape &outputShape, const Window &w, int32_t filterW,
               int32_t filterH);

/// Averages over the window's elements that fall inside the input (padding
/// is not counted), as NNAPI specifies.
void averagePool2d(const float *input, const Shape &inputShape, float *output,
                   const Shape &outputShape, const Window &w, int32_t filterW,
                   int32_t filterH);

enum class UnaryKind {
  Relu, Relu1, Relu6, Logistic, Tanh, Exp, Log, Sqrt, Rsqrt, Abs, Neg, Floor,
  Sin, HardSwish
};
void unary(UnaryKind kind, const float *input, float *output, size_t count);

/// softmax(beta * x) along `axis` (negative counts from the end), or its
/// logarithm (LOG_SOFTMAX) with `logarithm`.
void softmax(const float *input, const Shape &shape, float beta, int32_t axis,
             float *output, bool logarithm = false);

/// ELU: max(0, x) + min(0, alpha * (exp(x) - 1)).
void elu(const float *input, float *output, size_t count, float alpha);

void concatenation(const std::vector<const float *> &inputs,
                   const std::vector<Shape> &shapes, int32_t axis,
                   float *output);

/// Data movement. `perm`, `begin` and `padBefore` have one entry per
/// dimension; output shapes are computed by validation.
void transpose(const float *input, const Shape &inputShape,
               const std::vector<int32_t> &perm, float *output);
void slice(const float *input, const Shape &inputShape,
           const std::vector<int32_t> &begin, float *output,
           const Shape &outputShape);
/// STRIDED_SLICE after its masks and negative indices are resolved: along
/// each input dimension d, counts[d] elements begin[d] + k * strides[d]
/// (strides may be negative).
void stridedSlice(const float *input, const Shape &inputShape,
                  const std::vector<int32_t> &begin,
                  const std::vector<int32_t> &strides, float *output,
                  const Shape &counts);
/// PAD and PAD_V2 fill with `value`; MIRROR_PAD mirrors without the edge
/// (Reflect) or with it (Symmetric).
enum class PadMode { Constant, Reflect, Symmetric };
void pad(const float *input, const Shape &inputShape,
         const std::vector<int32_t> &padBefore, float value, float *output,
         const Shape &outputShape, PadMode mode = PadMode::Constant);
void reverse(const float *input, const Shape &shape, int32_t axis,
             float *output);
/// DEPTH_TO_SPACE (`toSpace`) or SPACE_TO_DEPTH of a 4-D NHWC (or `nchw`)
/// tensor: block element (i, j) of channel c is depth channel
/// (i * block + j) * C + c, C the space side's channels.
void depthSpace(const float *input, const Shape &inputShape, int32_t block,
                bool nchw, bool toSpace, float *output);
/// CHANNEL_SHUFFLE: along `axis`, output i * groups + g is input
/// g * (size / groups) + i.
void channelShuffle(const float *input, const Shape &shape, int32_t groups,
                    int32_t axis, float *output);
/// GATHER: dimension `axis` of the output holds the input's slices
/// `indices[0..count)`, in order. Returns the position of the first index
/// outside the dimension, writing nothing, or `count` when all are in range.
size_t gather(const float *input, const Shape &inputShape, int32_t axis,
              const int32_t *indices, size_t count, float *output);
/// Output dimension d repeats the input's outputShape[d] / inputShape[d] times.
void tile(const float *input, const Shape &inputShape, float *output,
          const Shape &outputShape);

enum class ReduceKind { Mean, Sum, Max, Min, Prod };
/// Reduces the dimensions d with reduced[d]; the output holds the others in
/// order (whether the operation keeps them as size 1 does not change it).
/// Max and min propagate NaN.
void reduce(ReduceKind kind, const float *input, const Shape &inputShape,
            const std::vector<bool> &reduced, float *output);
/// ARGMAX (`max`) or ARGMIN along `axis`: the first extreme index, NaN
/// never chosen (index 0 when there is no number).
void argExtreme(bool max, const float *input, const Shape &shape,
                int32_t axis, int32_t *output);
/// REDUCE_ANY (`any`) or REDUCE_ALL of a bool tensor, as reduce().
void reduceBool(bool any, const uint8_t *input, const Shape &inputShape,
                const std::vector<bool> &reduced, uint8_t *output);

/// Per batch index (leading dimensions, equal in both), a x b over the last
/// two dimensions, each transposed first when its adj flag is set.
void batchMatmul(const float *a, const Shape &aShape, bool adjA,
                 const float *b, const Shape &bShape, bool adjB, float *output);

/// RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR of NHWC tensors to the
/// output's height and width, with NNAPI's sampling (see nnapi.resize_*).
struct Resize {
  bool alignCorners = false, halfPixelCenters = false;
};
void resizeBilinear(const float *input, const Shape &inputShape,
                    float *output, const Shape &outputShape, Resize how);
void resizeNearest(const float *input, const Shape &inputShape, float *output,
                   const Shape &outputShape, Resize how);
/// The same on 8-bit elements (quantized data).
void resizeNearest(const uint8_t *input, const Shape &inputShape,
                   uint8_t *output, const Shape &outputShape, Resize how);

/// INSTANCE_NORMALIZATION of a 4-D tensor: per batch and channel,
/// (x - mean) * gamma / sqrt(variance + epsilon) + beta over height and
/// width; NHWC, or NCHW with `nchw`.
struct InstanceNorm {
  float gamma = 1.0f, beta = 0.0f, epsilon = 1e-5f;
  bool nchw = false;
};
void instanceNormalization(const float *input, const Shape &shape,
                           InstanceNorm how, float *output);

/// LOCAL_RESPONSE_NORMALIZATION along `axis`: x / (bias + alpha * s)^beta,
/// s the sum of squares within `radius` along the axis.
struct LocalResponse {
  int32_t radius = 0, axis = 0;
  float bias = 1.0f, alpha = 1.0f, beta = 0.5f;
};
void localResponseNormalization(const float *input, const Shape &shape,
                                LocalResponse how, float *output);

/// L2_NORMALIZATION: each vector along `axis` divided by its L2 norm; a
/// vector of zeros gives zeros. The sum of squares is float32, as the host
/// code and ONNX Runtime compute it: a vector whose squares underflow is
/// zeros too.
void l2Normalization(const float *input, const Shape &shape, int32_t axis,
                     float *output);

/// UNIDIRECTIONAL_SEQUENCE_LSTM (RecurrentKernels.cpp). Gates in NNAPI's
/// order: input, forget, cell, output.
struct SequenceLstm {
  uint32_t steps = 0, batch = 0, inputSize = 0, units = 0, outputSize = 0;
  bool timeMajor = true; ///< input [steps, batch, in], else [batch, steps, in]
  /// NNAPI's LSTM activation code for the cell input and output: 0 none,
  /// 1 relu, 3 relu6, 4 tanh, 6 sigmoid.
  int32_t activation = 4;
  float cellClip = 0, projClip = 0; ///< 0: no clipping
};
struct SequenceLstmWeights {
  /// [units, inputSize] and [units, outputSize] per gate; the input gate's
  /// are null with a coupled input and forget gate (CIFG: i = 1 - f).
  const float *input[4] = {}, *recurrent[4] = {};
  /// [units] per gate; the input gate's null with CIFG.
  const float *bias[4] = {};
  /// Peepholes [units] of the input, forget and output gates, or null.
  const float *peephole[3] = {};
  /// [outputSize, units] and [outputSize], or null (outputSize == units).
  const float *projection = nullptr, *projectionBias = nullptr;
};
/// True for the activation codes SequenceLstm accepts.
bool isLstmActivation(int32_t code);
/// Runs the sequence from the states in [batch, outputSize] and [batch,
/// units]; writes every step's output and, if not null, the final states.
void sequenceLstm(const SequenceLstm &shape, const SequenceLstmWeights &weights,
                  const float *input, const float *outputStateIn,
                  const float *cellStateIn, float *output,
                  float *outputStateOut, float *cellStateOut);

/// UNIDIRECTIONAL_SEQUENCE_RNN's shape: h = act(W x + R h + b) per step.
struct SequenceRnn {
  uint32_t steps = 0, batch = 0, inputSize = 0, units = 0;
  bool timeMajor = true; ///< input [steps, batch, in], else [batch, steps, in]
  int32_t fuseCode = 0;  ///< ANEURALNETWORKS_FUSED_*: the activation
};
/// Runs the sequence from `hiddenIn` [batch, units] with weights [units,
/// inputSize], recurrent weights [units, units] and bias [units]; writes
/// every step's h to `output` (the input's order).
void sequenceRnn(const SequenceRnn &shape, const float *input,
                 const float *weights, const float *recurrentWeights,
                 const float *bias, const float *hiddenIn, float *output);


} // namespace nnapi_mlir::host

#endif // NNAPI_MLIR_HOSTDEVICE_KERNELS_H
