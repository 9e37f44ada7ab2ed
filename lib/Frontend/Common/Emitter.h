//===- Emitter.h - TOSA emission shared by the model importers --*- C++ -*-===//
//
// What every importer (ONNX, TFLite) needs to build TOSA: a builder at the
// location of the operator being imported, and helpers for the shapes of
// ops TOSA spells out (reshapes, transposes, broadcasts, clamps with bounds
// of the right type, reductions over several axes). Nothing here knows a
// model format; the importers derive from Emitter and add their own values,
// types and messages. Private to lib/Frontend.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_FRONTEND_COMMON_EMITTER_H
#define NNAPI_MLIR_LIB_FRONTEND_COMMON_EMITTER_H

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>
#include <string>

namespace mlir::nnapi::frontend {

using Shape = SmallVector<int64_t>;

inline int64_t product(ArrayRef<int64_t> dims) {
  return std::accumulate(dims.begin(), dims.end(), int64_t(1),
                         std::multiplies<int64_t>());
}

/// The largest dimension and element count the importers take from a model:
/// NNAPI's dimensions are 32-bit, and with the count bounded no product of
/// dimensions in a handler overflows.
constexpr int64_t kMaxDim = INT32_MAX;
constexpr int64_t kMaxElements = int64_t(1) << 40;

/// The element count of `dims`, or -1 if a dimension is negative or above
/// kMaxDim or the count above kMaxElements.
inline int64_t checkedCount(ArrayRef<int64_t> dims) {
  int64_t count = 1;
  for (int64_t d : dims) {
    if (d < 0 || d > kMaxDim || (d && count > kMaxElements / d))
      return -1;
    count *= d;
  }
  return count;
}

/// A shape as messages write it, "1x?x64": `unknown` for a dynamic (or
/// negative) dimension.
inline std::string shapeText(ArrayRef<int64_t> dims,
                             llvm::StringRef unknown = "?") {
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? "x" : "") +
         (dims[i] < 0 ? unknown.str() : std::to_string(dims[i]));
  return s;
}

/// A Markdown table cell of docs/ops.md's generated tables: `|` escaped.
inline std::string markdownCell(llvm::StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += '\\';
    out += c;
  }
  return out;
}

/// Unrolling (ONNX's Loop, Scan, RNN, GRU, LSTM; TFLite's sequence LSTM)
/// stops at about this many imported operations: 20,000 compile in about
/// 5 s, and compile time grows faster than linearly.
constexpr int64_t kMaxUnrolledNodes = 20000;

/// A bound Emitter::clamp does not apply.
constexpr double kNoBound = std::numeric_limits<double>::infinity();

inline int64_t normalizeAxis(int64_t axis, int64_t rank) {
  return axis < 0 ? axis + rank : axis;
}

/// The values of an integer or float constant.
SmallVector<int64_t> intsOf(DenseElementsAttr attr);
SmallVector<double> floatsOf(DenseElementsAttr attr);
/// A dense constant of `type` holding `values`: floats rounded once to the
/// element type, integers truncated toward zero (they must fit int64).
DenseElementsAttr denseOf(RankedTensorType type, ArrayRef<double> values);

/// Builds TOSA at `loc`.
class Emitter {
public:
  Emitter(MLIRContext *ctx, Location loc) : builder(ctx), loc(loc) {}

  OpBuilder builder;
  /// Where ops are built: the operator being imported.
  Location loc;

  RankedTensorType typeOf(Value v) const {
    return cast<RankedTensorType>(v.getType());
  }

  Value constant(DenseElementsAttr attr) {
    return builder.create<tosa::ConstOp>(loc, attr.getType(), attr);
  }
  Value splat(Type element, ArrayRef<int64_t> shape, double value);
  /// `value` with `like`'s element type and rank, every dimension 1.
  Value scalarLike(Value like, double value) {
    Shape ones(typeOf(like).getRank(), 1);
    return splat(typeOf(like).getElementType(), ones, value);
  }
  Value reshape(Value v, ArrayRef<int64_t> shape);
  Value transpose(Value v, ArrayRef<int64_t> perm);
  /// Elements 0, step, ..., (count - 1) * step of `axis`.
  Value everyNth(Value v, int64_t axis, int64_t step, int64_t count);
  /// `v` with leading dimensions of 1 up to `rank`.
  Value toRank(Value v, int64_t rank);
  /// The one-operand TOSA op `opName` (e.g. "tosa.exp") of `v`.
  Value unary(StringRef opName, Value v);
  /// `OpTy(a, b)` broadcast to a common rank.
  template <typename OpTy> Value binary(Value a, Value b) {
    auto [x, y] = broadcastPair(a, b);
    return builder.create<OpTy>(loc, resultOf(x, y), x, y);
  }
  Value add(Value a, Value b) { return binary<tosa::AddOp>(a, b); }
  Value sub(Value a, Value b) { return binary<tosa::SubOp>(a, b); }
  Value mul(Value a, Value b) {
    auto [x, y] = broadcastPair(a, b);
    return builder.create<tosa::MulOp>(loc, resultOf(x, y), x, y,
                                       builder.getI8IntegerAttr(0));
  }
  /// `OpTy(a, b)` broadcast to a common rank, with an i1 result.
  template <typename OpTy> Value compare(Value a, Value b) {
    auto [x, y] = broadcastPair(a, b);
    return builder.create<OpTy>(loc, resultOf(x, y, builder.getI1Type()), x,
                                y);
  }
  /// select(c, a, b) broadcast to a common rank; the element type is a's.
  Value select(Value c, Value a, Value b);
  /// tosa.clamp to [lo, hi]; +-kNoBound (infinity) is no bound.
  Value clamp(Value v, double lo, double hi);
  std::pair<Value, Value> broadcastPair(Value a, Value b);
  /// The broadcast type of same-rank `a` and `b`, with `element` or a's.
  RankedTensorType resultOf(Value a, Value b, Type element = {});
  /// Reduces `v` over `axes`, keeping them as 1: kind is "sum", "max",
  /// "min" or "prod".
  Value reduce(StringRef kind, Value v, ArrayRef<int64_t> axes);
  Value castTo(Value v, Type element);
  /// Runtime indices into a dimension of `size` as int32 in [0, size):
  /// negative ones count from the end, and ones outside the dimension
  /// (which compiled code cannot report) are clamped so that no gather
  /// reads outside its data.
  Value normalizeIndices(Value indices, int64_t size);
  /// The block of `v` at `start` of shape `size`: a constant if `v` is one.
  Value slice(Value v, ArrayRef<int64_t> start, ArrayRef<int64_t> size);
  /// The activation function `name` of `x` (float), as ONNX names them and
  /// TFLite's fused activations and operators compute them: Relu, Tanh,
  /// Sigmoid, Affine, LeakyRelu, ThresholdedRelu, ScaledTanh, HardSigmoid,
  /// Elu, Softsign, Softplus. An absent alpha or beta is ONNX's default.
  /// Null if `name` is none of them.
  Value activation(StringRef name, Value x, std::optional<double> alpha = {},
                   std::optional<double> beta = {});
  /// Whether activation `name` reads alpha, and beta.
  static std::pair<bool, bool> activationParams(StringRef name);
  /// The names activation() knows.
  static ArrayRef<StringLiteral> activationNames();
  /// x where x > 0, else slope * x (LeakyRelu, PRelu): the prelu
  /// composite's body.
  Value leaky(Value x, Value slope);
  /// softmax (or, with `log`, log_softmax) of `x` along `axis`, as the
  /// chain the softmax and log_softmax composites are raised from:
  /// reduce_max, sub, exp, reduce_sum, then reciprocal and mul (or log and
  /// sub).
  Value softmax(Value x, int64_t axis, bool log = false);
  /// The mean of `x` over `axes` (kept as 1): reduce_sum, then mul by
  /// 1/N, the chain the mean composite is raised from.
  Value mean(Value x, ArrayRef<int64_t> axes);
};

} // namespace mlir::nnapi::frontend

#endif // NNAPI_MLIR_LIB_FRONTEND_COMMON_EMITTER_H
