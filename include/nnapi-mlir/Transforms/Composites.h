//===- Composites.h - The named composites and their parameters -*- C++ -*-===//
//
// What each `nnapi.composite` name means: its inputs in order, its
// parameters (`composite_attributes`) and its results. nnapi-raise-composites
// writes them from the TOSA chains it recognizes; the conversion to the
// nnapi dialect reads them (one pattern per name). Nothing else may assume a
// composite's form.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_TRANSFORMS_COMPOSITES_H
#define NNAPI_MLIR_TRANSFORMS_COMPOSITES_H

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"

#include "llvm/ADT/StringRef.h"

namespace mlir::nnapi::composite {

// Names. Unless said otherwise a composite has one input `x`, one result of
// x's type, and its integer axes count x's dimensions.

/// exp(x - max(x)) / sum(exp(x - max(x))) along `axis`.
constexpr llvm::StringLiteral kSoftmax = "softmax";
/// (x - max(x)) - log(sum(exp(x - max(x)))) along `axis`.
constexpr llvm::StringLiteral kLogSoftmax = "log_softmax";
/// The mean over `axes` (sorted, distinct), dimensions kept as 1.
constexpr llvm::StringLiteral kMean = "mean";
/// x * clamp(x / 6 + 1/2, 0, 1).
constexpr llvm::StringLiteral kHardSwish = "hard_swish";
/// Inputs x, slope (broadcast to x): max(0, x) + slope * min(0, x).
constexpr llvm::StringLiteral kPrelu = "prelu";
/// max(0, x) + min(0, `alpha` (exp(x) - 1)), alpha >= 0.
constexpr llvm::StringLiteral kElu = "elu";
/// (x - mean) / sqrt(var + `epsilon`) over the spatial dimensions of a 4-D
/// x, whose channels are dimension `channel_axis` (1: NCHW, 3: NHWC).
constexpr llvm::StringLiteral kInstanceNormalization = "instance_normalization";
/// x padded along `axis` by `before` and `after` elements mirrored about
/// the edge (`mode` "reflect") or including it ("symmetric").
constexpr llvm::StringLiteral kMirrorPad = "mirror_pad";
/// NCHW x [n, c, h, w] to [n, c / b^2, h b, w b] (DCR), b = `block_size`.
constexpr llvm::StringLiteral kDepthToSpace = "depth_to_space";
/// NCHW x [n, c, h, w] to [n, c b^2, h / b, w / b], b = `block_size`.
constexpr llvm::StringLiteral kSpaceToDepth = "space_to_depth";
/// Inputs x (NHWC), then `groups` constant filters [oc / g, kh, kw, ic / g],
/// then `groups` constant biases: a convolution per channel group with TOSA's
/// `pad` [top, bottom, left, right] and `stride` [y, x], concatenated.
constexpr llvm::StringLiteral kGroupedConv = "grouped_conv";
/// x's dimension `axis` seen as [`groups`, size / groups], transposed.
constexpr llvm::StringLiteral kChannelShuffle = "channel_shuffle";
/// x * (`bias` + `alpha` * sum of squares over a window of 2 `radius` + 1
/// along `axis`) ^ -`beta`.
constexpr llvm::StringLiteral kLocalResponseNormalization =
    "local_response_normalization";
/// x / sqrt(sum of squares along `axis`), 0 for a vector of zeros.
constexpr llvm::StringLiteral kL2Normalization = "l2_normalization";
/// Inputs a, b: not equal, element-wise, broadcast; result i1.
constexpr llvm::StringLiteral kNotEqual = "not_equal";
/// The index of the minimum along `axis` (i32, that dimension removed).
constexpr llvm::StringLiteral kArgMin = "argmin";
/// x cut along `axis` into as many equal pieces as the composite has
/// results, in order.
constexpr llvm::StringLiteral kSplit = "split";
/// Every `step`-th element of x along `axis` from the first, reshaped to the
/// result's type.
constexpr llvm::StringLiteral kStridedSlice = "strided_slice";

/// One direction of an LSTM layer, as ONNX defines it. Inputs: x [steps,
/// batch, in], w [4 units, in] and r [4 units, units] with the gates in
/// ONNX's order i, o, f, c, bias [4 units] (input and recurrent biases
/// summed), the initial h and c [batch, units]; then p [3 units] (peepholes
/// i, o, f) when `peepholes` is 1; then lens [batch, 1] i32 when
/// `sequence_lens` is 1 and the lengths are computed at run time (constant
/// lengths shorter than steps only set `sequence_lens`). Results: y [steps,
/// batch, units] (zero past an entry's length), the final h and c. `reverse`
/// 1 runs from the last step down. `activations` names f, g and h
/// ("Sigmoid,Tanh,Tanh"); `activation_parameters` is 1 when any of them
/// takes an alpha or beta; `clip` (float) bounds every gate's input when
/// present; `input_forget` 1 couples the forget gate to the input gate (f =
/// 1 - i).
constexpr llvm::StringLiteral kLstm = "lstm";
/// One direction of a simple RNN layer, as ONNX defines it: x [steps,
/// batch, in], w [units, in], r [units, units], bias [units] (input and
/// recurrent biases summed), the initial h [batch, units]; then lens as for
/// `lstm`. Results: y [steps, batch, units] and the final h. Parameters as
/// for `lstm`, with `activations` naming f alone ("Tanh").
constexpr llvm::StringLiteral kRnn = "rnn";

/// Input q (i8 data, or i32 for a 32-bit integer x), result float32:
/// (q - `zero_point`) * `scale`. One scale and zero point for the tensor,
/// or (with `axis`) one per index of dimension `axis`. Zero points are
/// those of q's signed storage: uint8 data is computed as int8 shifted by
/// -128, zero point included.
constexpr llvm::StringLiteral kDequantize = "dequantize";
/// Input x (float32), result i8: clamp(round(x / `scale`) + `zero_point`,
/// -128, 127), rounding half to even; parameters as for `dequantize`.
constexpr llvm::StringLiteral kQuantize = "quantize";
/// A float operation between dequantize and quantize composites, as one
/// 8-bit operation: inputs x (i8), then for a convolution or fully
/// connected operation the weights (i8 constant, in the float operation's
/// TOSA layout) and the bias (i32 constant, in units of x's scale x the
/// weights' scale), for an addition the second operand y (i8), for a
/// concatenation every other input (i8); result i8. Parameters:
/// `input_scale`, `input_zero_point` (a concatenation: `input_scales`,
/// `input_zero_points`, one per input), then `weight_scale` (one value, or
/// one per output channel along `axis` of the weights) and
/// `weight_zero_point`, or `second_scale` and `second_zero_point` (y's),
/// then `output_scale`, `output_zero_point` (f64 and i64). The body is the
/// float chain it replaces (dequantizations, the operation, an optional
/// clamp, quantize); the conversion reads the operation and the clamp from
/// it. Raised by nnapi-raise-quantized for tosa.conv2d,
/// tosa.depthwise_conv2d, tosa.fully_connected, tosa.matmul by a constant
/// (weights [units, in], as FULLY_CONNECTED's), tosa.add, tosa.mul,
/// tosa.concat, tosa.sigmoid, tosa.tanh, softmax and hard_swish, and
/// tosa.max_pool2d, tosa.avg_pool2d and tosa.reshape whose output keeps
/// their input's parameters (as NNAPI's do).
constexpr llvm::StringLiteral kQuantized = "quantized";

// Parameter keys: integers (i64) unless said otherwise.
constexpr llvm::StringLiteral kAxis = "axis";
/// Dense i64 array.
constexpr llvm::StringLiteral kAxes = "axes";
/// Floats (f64).
constexpr llvm::StringLiteral kAlpha = "alpha";
constexpr llvm::StringLiteral kBeta = "beta";
constexpr llvm::StringLiteral kBias = "bias";
constexpr llvm::StringLiteral kEpsilon = "epsilon";
constexpr llvm::StringLiteral kChannelAxis = "channel_axis";
constexpr llvm::StringLiteral kBefore = "before";
constexpr llvm::StringLiteral kAfter = "after";
/// String: "reflect" or "symmetric".
constexpr llvm::StringLiteral kMode = "mode";
constexpr llvm::StringLiteral kBlockSize = "block_size";
constexpr llvm::StringLiteral kGroups = "groups";
/// Dense i64 arrays.
constexpr llvm::StringLiteral kPad = "pad";
constexpr llvm::StringLiteral kStride = "stride";
constexpr llvm::StringLiteral kRadius = "radius";
constexpr llvm::StringLiteral kStep = "step";
constexpr llvm::StringLiteral kReverse = "reverse";
/// String.
constexpr llvm::StringLiteral kActivations = "activations";
constexpr llvm::StringLiteral kActivationParameters = "activation_parameters";
/// Float.
constexpr llvm::StringLiteral kClip = "clip";
constexpr llvm::StringLiteral kInputForget = "input_forget";
constexpr llvm::StringLiteral kPeepholes = "peepholes";
constexpr llvm::StringLiteral kSequenceLens = "sequence_lens";
/// Dense f32 array.
constexpr llvm::StringLiteral kScale = "scale";
/// Dense i64 array.
constexpr llvm::StringLiteral kZeroPoint = "zero_point";
constexpr llvm::StringLiteral kInputScale = "input_scale";
constexpr llvm::StringLiteral kInputZeroPoint = "input_zero_point";
/// Dense f64 array.
constexpr llvm::StringLiteral kWeightScale = "weight_scale";
constexpr llvm::StringLiteral kWeightZeroPoint = "weight_zero_point";
constexpr llvm::StringLiteral kSecondScale = "second_scale";
constexpr llvm::StringLiteral kSecondZeroPoint = "second_zero_point";
constexpr llvm::StringLiteral kOutputScale = "output_scale";
constexpr llvm::StringLiteral kOutputZeroPoint = "output_zero_point";
/// Dense f64 and i64 arrays, one entry per input.
constexpr llvm::StringLiteral kInputScales = "input_scales";
constexpr llvm::StringLiteral kInputZeroPoints = "input_zero_points";

/// A copy of `op`, a composite of one input whose body computes element by
/// element (quantize, dequantize), on `input`: `op`'s input transposed by
/// `perm`. Its body is op's with every tensor of op's rank, constants
/// included, transposed by `perm`, and a per-axis `axis` follows its
/// dimension. Fails for any other body.
FailureOr<CompositeOp> permuted(OpBuilder &b, CompositeOp op, Value input,
                                ArrayRef<int64_t> perm);

} // namespace mlir::nnapi::composite

#endif // NNAPI_MLIR_TRANSFORMS_COMPOSITES_H
