//===- Composites.h - The named composites and their parameters -*- C++ -*-===//
//
// What each `nnapi.composite` name means: its inputs, its parameters
// (`composite_attributes`) and its results. nnapi-raise-composites,
// nnapi-raise-quantized and the importers write them; the conversion to the
// nnapi dialect reads them (one pattern per name). Nothing else may assume a
// composite's form. The inputs' order is declared once (declaredInputs,
// Composites.cpp): writers order a new composite's operands by input name
// (orderInputs) and readers take them by name (Inputs), which also checks
// their number.
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
/// The quantized composites: a float operation between dequantize and
/// quantize composites, as one 8-bit operation, in three kinds that
/// nnapi-raise-quantized tells apart when it raises them (the conversion
/// takes the kind from the name). Inputs and result i8. Parameters:
/// `input_scale`, `input_zero_point` (a concatenation: `input_scales`,
/// `input_zero_points`, one per input), then for the weighted kind
/// `weight_scale` (one value, or one per output channel along `axis` of the
/// weights) and `weight_zero_point`, for the binary kind `second_scale` and
/// `second_zero_point` (y's), then `output_scale`, `output_zero_point` (f64
/// and i64). The body is the float chain it replaces (dequantizations, the
/// operation, an optional clamp, quantize); the conversion reads the
/// operation's attributes and the clamp from it.
///
/// Inputs x, weights (i8 constant, in the float operation's TOSA layout),
/// bias (i32 constant, in units of x's scale x the weights' scale): a
/// tosa.conv2d, tosa.depthwise_conv2d, tosa.fully_connected or tosa.matmul
/// by a constant (weights [units, in], as FULLY_CONNECTED's).
constexpr llvm::StringLiteral kQuantizedWeighted = "quantized_weighted";
/// Inputs x, y: a tosa.add or tosa.mul with each operand's parameters.
constexpr llvm::StringLiteral kQuantizedBinary = "quantized_binary";
/// Inputs xs (one or more): an operation of the data alone whose output
/// keeps (pools, reshape, a transpose of the stored values) or sets its
/// parameters: tosa.max_pool2d, tosa.avg_pool2d, tosa.reshape,
/// tosa.transpose, tosa.concat (every input), tosa.sigmoid, tosa.tanh,
/// softmax and hard_swish.
constexpr llvm::StringLiteral kQuantizedData = "quantized_data";

/// Input names (`Inputs`, `orderInputs`).
namespace input {
constexpr llvm::StringLiteral kX = "x";
constexpr llvm::StringLiteral kXs = "xs";
constexpr llvm::StringLiteral kY = "y";
constexpr llvm::StringLiteral kA = "a";
constexpr llvm::StringLiteral kB = "b";
constexpr llvm::StringLiteral kSlope = "slope";
constexpr llvm::StringLiteral kFilters = "filters";
constexpr llvm::StringLiteral kBiases = "biases";
constexpr llvm::StringLiteral kWeights = "weights";
constexpr llvm::StringLiteral kBias = "bias";
constexpr llvm::StringLiteral kW = "w";
constexpr llvm::StringLiteral kR = "r";
constexpr llvm::StringLiteral kH = "h";
constexpr llvm::StringLiteral kC = "c";
constexpr llvm::StringLiteral kP = "p";
constexpr llvm::StringLiteral kLens = "lens";
} // namespace input

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

/// How many operands an input of a composite takes.
enum class Count : uint8_t {
  One,
  Groups,    ///< The `groups` parameter's number (grouped_conv's filters).
  IfFlag,    ///< One when integer parameter `flag` is 1, else none (lstm's p).
  Trailing,  ///< One or none, after every other input (lstm's lens).
  OneOrMore, ///< Every remaining operand, at least one.
};
/// One input of a composite's declaration.
struct InputDecl {
  llvm::StringLiteral name;
  Count count = Count::One;
  llvm::StringLiteral flag = ""; ///< Count::IfFlag's parameter.
};
/// The inputs of composite `name`, in order (Composites.cpp, from the
/// comments above); empty for a name not declared here.
ArrayRef<InputDecl> declaredInputs(StringRef name);

/// A composite's operands by input name, bound against its declaration.
class Inputs {
public:
  /// Binds `op`'s operands; fails, saying why in `why` ("composite 'prelu'
  /// takes x, slope; got 3 inputs"), when their number does not fit.
  static FailureOr<Inputs> bind(CompositeOp op, std::string &why);
  /// The operand of input `name`, null for an absent optional one.
  Value operator[](StringRef name) const;
  /// The operands of input `name` (none for an absent optional one).
  OperandRange all(StringRef name) const;

private:
  explicit Inputs(CompositeOp op) : op(op) {}
  struct Span {
    StringRef name;
    unsigned begin, size;
  };
  mutable CompositeOp op; // its accessors are not const
  SmallVector<Span> spans;
};

/// The operands of a new composite `name` in its declared order, from its
/// inputs given by name in any order (an optional input left out or given
/// empty); asserts that each name is declared and the counts fit.
SmallVector<Value>
orderInputs(StringRef name,
            ArrayRef<std::pair<llvm::StringLiteral, ValueRange>> given);

/// A copy of `op`, a composite of one input whose body computes element by
/// element (quantize, dequantize), on `input`: `op`'s input transposed by
/// `perm`. Its body is op's with every tensor of op's rank, constants
/// included, transposed by `perm`, and a per-axis `axis` follows its
/// dimension. Fails for any other body.
FailureOr<CompositeOp> permuted(OpBuilder &b, CompositeOp op, Value input,
                                ArrayRef<int64_t> perm);

/// The host code of a quantized composite's body (QuantizedHost.cpp): a
/// `quantized_weighted` composite's float convolution of the dequantized
/// input and weights becomes exact integer sums (the 8-bit tosa.conv2d of
/// its inputs with their zero points and i32 bias; a depthwise one a float
/// convolution of exact integers) scaled by the bias's units over the
/// output scale, and a `quantized_binary` tosa.add adds its operands
/// scaled straight into output quanta; the quantize that follows then does
/// not divide. Fails, changing nothing, for any other composite or body.
LogicalResult quantizedHostBody(CompositeOp op);

} // namespace mlir::nnapi::composite

#endif // NNAPI_MLIR_TRANSFORMS_COMPOSITES_H
