//===- CompositePatterns.cpp - Named composites to one nnapi op -----------===//
//
// One pattern per composite name of nnapi-mlir/Transforms/Composites.h: an
// nnapi.composite raised by nnapi-raise-composites becomes the NNAPI
// operation that computes it, from its inputs and parameters.
//
//===----------------------------------------------------------------------===//

#include "PatternCommon.h"

#include "nnapi-mlir/Transforms/Composites.h"

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::detail;
namespace names = mlir::nnapi::composite;
namespace input = mlir::nnapi::composite::input;

namespace {
/// One result, but for a split (one per piece; a split of none is dead
/// code and erased before any pattern sees it).
LogicalResult checkResults(CompositeOp op, PatternRewriter &rewriter) {
  if (op.getNumResults() == 1 || op.getName() == names::kSplit)
    return success();
  return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
    diag << "composite '" << op.getName() << "' has 1 result, got "
         << op.getNumResults();
  });
}

/// A pattern from the composite named `Kind` to the nnapi ops `Generated`,
/// given its inputs by name. Composites of other names are not its business
/// (no reason given: their own pattern gives one).
template <const llvm::StringLiteral &Kind, typename... Generated>
struct FromComposite : ToNNAPI<CompositeOp, Generated...> {
  using ToNNAPI<CompositeOp, Generated...>::ToNNAPI;
  LogicalResult matchAndRewrite(CompositeOp op,
                                PatternRewriter &rewriter) const final {
    if (op.getName() != Kind)
      return failure();
    FailureOr<names::Inputs> in = bindInputs(op, rewriter);
    if (failed(in) || failed(checkResults(op, rewriter)))
      return failure();
    return convert(op, *in, rewriter);
  }
  virtual LogicalResult convert(CompositeOp op, const names::Inputs &in,
                                PatternRewriter &rewriter) const = 0;
};

LogicalResult missing(CompositeOp op, StringRef what, StringRef key,
                      PatternRewriter &rewriter) {
  return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
    diag << "composite '" << op.getName() << "' has no " << what
         << " parameter '" << key << "'";
  });
}

FailureOr<int64_t> intParam(CompositeOp op, StringRef key,
                            PatternRewriter &rewriter) {
  if (std::optional<int64_t> v = op.getIntParameter(key))
    return *v;
  return missing(op, "integer", key, rewriter);
}

FailureOr<double> floatParam(CompositeOp op, StringRef key,
                             PatternRewriter &rewriter) {
  if (std::optional<double> v = op.getFloatParameter(key))
    return *v;
  return missing(op, "float", key, rewriter);
}

FailureOr<SmallVector<int64_t>> arrayParam(CompositeOp op, StringRef key,
                                           PatternRewriter &rewriter) {
  if (std::optional<SmallVector<int64_t>> v = op.getIntArrayParameter(key))
    return *v;
  return missing(op, "i64 array", key, rewriter);
}

IntegerAttr i32(PatternRewriter &rewriter, int64_t v) {
  return rewriter.getI32IntegerAttr(static_cast<int32_t>(v));
}

/// SOFTMAX and LOG_SOFTMAX: x, beta 1, the axis.
template <const llvm::StringLiteral &Kind, typename NNAPIOp>
struct SoftmaxLikePattern : FromComposite<Kind, NNAPIOp> {
  using FromComposite<Kind, NNAPIOp>::FromComposite;
  LogicalResult convert(CompositeOp op, const names::Inputs &in,
                        PatternRewriter &rewriter) const override {
    FailureOr<int64_t> axis = intParam(op, names::kAxis, rewriter);
    if (failed(axis) ||
        failed(checkTensors(op, rewriter, Elements::Float, Dynamic::Allowed)))
      return failure();
    rewriter.replaceOpWithNewOp<NNAPIOp>(op, op.getType(0), in[input::kX],
                                         rewriter.getF32FloatAttr(1.0f),
                                         i32(rewriter, *axis));
    return success();
  }
};
using SoftmaxPattern = SoftmaxLikePattern<names::kSoftmax, SoftmaxOp>;
using LogSoftmaxPattern = SoftmaxLikePattern<names::kLogSoftmax, LogSoftmaxOp>;

struct MeanPattern : FromComposite<names::kMean, MeanOp> {
  using FromComposite::FromComposite;
  LogicalResult convert(CompositeOp op, const names::Inputs &in,
                        PatternRewriter &rewriter) const override {
    FailureOr<SmallVector<int64_t>> axes =
        arrayParam(op, names::kAxes, rewriter);
    if (failed(axes) || failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<MeanOp>(op, op.getType(0), in[input::kX],
                                        rewriter.getDenseI64ArrayAttr(*axes),
                                        /*keep_dims=*/true);
    return success();
  }
};

struct HardSwishPattern : FromComposite<names::kHardSwish, HardSwishOp> {
  using FromComposite::FromComposite;
  LogicalResult convert(CompositeOp op, const names::Inputs &in,
                        PatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<HardSwishOp>(op, op.getType(0),
                                             in[input::kX]);
    return success();
  }
};

struct PreluPattern : FromComposite<names::kPrelu, PreluOp> {
  using FromComposite::FromComposite;
  LogicalResult convert(CompositeOp op, const names::Inputs &in,
                        PatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<PreluOp>(op, op.getType(0), in[input::kX],
                                         in[input::kSlope]);
    return success();
  }
};

struct EluPattern : FromComposite<names::kElu, EluOp> {
  using FromComposite::FromComposite;
  LogicalResult convert(CompositeOp op, const names::Inputs &in,
                        PatternRewriter &rewriter) const override {
    FailureOr<double> alpha = floatParam(op, names::kAlpha, rewriter);
    if (failed(alpha) || failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<EluOp>(op, op.getType(0), in[input::kX],
                                       rewriter.getF32FloatAttr(float(*alpha)));
    return success();
  }
};

struct InstanceNormPattern
    : FromComposite<names::kInstanceNormalization, InstanceNormalizationOp> {
  using FromComposite::FromComposite;
  LogicalResult convert(CompositeOp op, const names::Inputs &in,
                        PatternRewriter &rewriter) const override {
    FailureOr<double> epsilon = floatParam(op, names::kEpsilon, rewriter);
    FailureOr<int64_t> channels = intParam(op, names::kChannelAxis, rewriter);
    if (failed(epsilon) || failed(channels) ||
        failed(checkTensors(op, rewriter)))
      return failure();
    if (*channels != 1 && *channels != 3)
      return rewriter.notifyMatchFailure(op, [&](Diagnostic &diag) {
        diag << "channel_axis " << *channels
             << " is neither 1 (NCHW) nor 3 (NHWC)";
      });
    rewriter.replaceOpWithNewOp<InstanceNormalizationOp>(
        op, op.getType(0), in[input::kX], rewriter.getF32FloatAttr(1.0f),
        rewriter.getF32FloatAttr(0.0f),
        rewriter.getF32FloatAttr(float(*epsilon)),
        *channels == 1 ? rewriter.getUnitAttr() : UnitAttr());
    return success();
  }
};

struct MirrorPadPattern : FromComposite<names::kMirrorPad, MirrorPadOp> {
  using FromComposite::FromComposite;
  LogicalResult convert(CompositeOp op, const names::Inputs &in,
                        PatternRewriter &rewriter) const override {
    FailureOr<int64_t> axis = intParam(op, names::kAxis, rewriter);
    FailureOr<int64_t> before = intParam(op, names::kBefore, rewriter);
    FailureOr<int64_t> after = intParam(op, names::kAfter, rewriter);
    std::optional<StringRef> mode = op.getStringParameter(names::kMode);
    if (failed(axis) || failed(before) || failed(after) ||
        failed(checkTensors(op, rewriter)))
      return failure();
    if (mode != "reflect" && mode != "symmetric")
      return rewriter.notifyMatchFailure(
          op, "mirror_pad's mode must be \"reflect\" or \"symmetric\"");
    int64_t rank =
        cast<RankedTensorType>(in[input::kX].getType()).getRank();
    if (*axis < 0 || *axis >= rank)
      return rewriter.notifyMatchFailure(op, "mirror_pad's axis is out of range");
    SmallVector<int64_t> padding(2 * rank, 0);
    padding[2 * *axis] = *before;
    padding[2 * *axis + 1] = *after;
    rewriter.replaceOpWithNewOp<MirrorPadOp>(
        op, op.getType(0), in[input::kX],
        rewriter.getDenseI64ArrayAttr(padding),
        *mode == "symmetric" ? rewriter.getUnitAttr() : UnitAttr());
    return success();
  }
};

template <const llvm::StringLiteral &Kind, typename NNAPIOp>
struct DepthSpacePattern : FromComposite<Kind, NNAPIOp> {
  using FromComposite<Kind, NNAPIOp>::FromComposite;
  LogicalResult convert(CompositeOp op, const names::Inputs &in,
                        PatternRewriter &rewriter) const override {
    FailureOr<int64_t> block = intParam(op, names::kBlockSize, rewriter);
    if (failed(block) || failed(checkTensors(op, rewriter)))
      return failure();
    // The composites are NCHW (as the importer writes them): the layout flag.
    rewriter.replaceOpWithNewOp<NNAPIOp>(op, op.getType(0), in[input::kX],
                                         i32(rewriter, *block),
                                         rewriter.getUnitAttr());
    return success();
  }
};

/// Concatenates constants along dimension 0.
DenseElementsAttr concatConstants(ArrayRef<Value> values) {
  SmallVector<char> raw;
  int64_t rows = 0;
  RankedTensorType type;
  for (Value v : values) {
    DenseElementsAttr attr;
    matchPattern(v, m_Constant(&attr));
    type = cast<RankedTensorType>(attr.getType());
    rows += type.getDimSize(0);
    Type e = type.getElementType();
    size_t bytes = e.getIntOrFloatBitWidth() / 8 * type.getNumElements();
    if (attr.isSplat())
      for (int64_t i = 0; i < type.getNumElements(); ++i)
        raw.append(attr.getRawData().begin(),
                   attr.getRawData().begin() + bytes / type.getNumElements());
    else
      raw.append(attr.getRawData().begin(), attr.getRawData().end());
  }
  SmallVector<int64_t> shape(type.getShape());
  shape[0] = rows;
  return DenseElementsAttr::getFromRawBuffer(
      RankedTensorType::get(shape, type.getElementType()), raw);
}

/// Inputs x, filters, biases: the input count depends on `groups`.
struct GroupedConvPattern : ToNNAPI<CompositeOp, GroupedConv2DOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(CompositeOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getName() != names::kGroupedConv)
      return failure();
    FailureOr<int64_t> groups = intParam(op, names::kGroups, rewriter);
    FailureOr<SmallVector<int64_t>> pad = arrayParam(op, names::kPad, rewriter);
    FailureOr<SmallVector<int64_t>> stride =
        arrayParam(op, names::kStride, rewriter);
    if (failed(groups) || failed(pad) || failed(stride))
      return failure();
    FailureOr<names::Inputs> in = bindInputs(op, rewriter);
    if (failed(in))
      return failure();
    if (pad->size() != 4 || stride->size() != 2)
      return rewriter.notifyMatchFailure(
          op, "grouped_conv's pad needs 4 values and its stride 2");
    if (failed(checkResults(op, rewriter)) || failed(checkTensors(op, rewriter)))
      return failure();
    SmallVector<Value> weights(in->all(input::kFilters));
    SmallVector<Value> biases(in->all(input::kBiases));
    for (Value w : weights)
      if (failed(checkConstant(op, w, "each filter", rewriter)))
        return failure();
    for (Value b : biases)
      if (failed(checkConstant(op, b, "each bias", rewriter)))
        return failure();
    // Concatenated along dimension 0: one dense type per kind.
    auto sameDense = [](ArrayRef<Value> values) {
      for (Value v : values) {
        DenseElementsAttr attr;
        if (!matchPattern(v, m_Constant(&attr)) ||
            v.getType() != values.front().getType() ||
            cast<RankedTensorType>(v.getType()).getRank() < 1)
          return false;
      }
      return true;
    };
    if (!sameDense(weights) || !sameDense(biases))
      return rewriter.notifyMatchFailure(
          op, "grouped_conv's filters, and its biases, must be dense "
              "constants of one type each");
    Location loc = op.getLoc();
    Value filter =
        rewriter.create<arith::ConstantOp>(loc, concatConstants(weights));
    Value bias = rewriter.create<arith::ConstantOp>(loc, concatConstants(biases));
    rewriter.replaceOpWithNewOp<GroupedConv2DOp>(
        op, op.getType(0), (*in)[input::kX], filter, bias,
        rewriter.getDenseI64ArrayAttr(nnapiPadding(*pad)),
        rewriter.getDenseI64ArrayAttr(swapYX(*stride)),
        i32(rewriter, *groups),
        FuseCodeAttr::get(rewriter.getContext(), FuseCode::none));
    return success();
  }
};

struct ChannelShufflePattern
    : FromComposite<names::kChannelShuffle, ChannelShuffleOp> {
  using FromComposite::FromComposite;
  LogicalResult convert(CompositeOp op, const names::Inputs &in,
                        PatternRewriter &rewriter) const override {
    FailureOr<int64_t> groups = intParam(op, names::kGroups, rewriter);
    FailureOr<int64_t> axis = intParam(op, names::kAxis, rewriter);
    if (failed(groups) || failed(axis) || failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<ChannelShuffleOp>(
        op, op.getType(0), in[input::kX], i32(rewriter, *groups),
        i32(rewriter, *axis));
    return success();
  }
};

struct StridedSlicePattern
    : FromComposite<names::kStridedSlice, StridedSliceOp, ReshapeOp> {
  using FromComposite::FromComposite;
  LogicalResult convert(CompositeOp op, const names::Inputs &in,
                        PatternRewriter &rewriter) const override {
    FailureOr<int64_t> axis = intParam(op, names::kAxis, rewriter);
    FailureOr<int64_t> step = intParam(op, names::kStep, rewriter);
    if (failed(axis) || failed(step) || failed(checkTensors(op, rewriter)))
      return failure();
    auto x = cast<RankedTensorType>(in[input::kX].getType());
    if (*axis < 0 || *axis >= x.getRank() || *step < 1)
      return rewriter.notifyMatchFailure(
          op, "strided_slice's axis is out of range or its step below 1");
    SmallVector<int64_t> begin(x.getRank(), 0), end(x.getShape()),
        strides(x.getRank(), 1), shape(x.getShape());
    strides[*axis] = *step;
    shape[*axis] = (shape[*axis] + *step - 1) / *step;
    Value sliced = rewriter.create<StridedSliceOp>(
        op.getLoc(), RankedTensorType::get(shape, x.getElementType()),
        in[input::kX], rewriter.getDenseI64ArrayAttr(begin),
        rewriter.getDenseI64ArrayAttr(end),
        rewriter.getDenseI64ArrayAttr(strides));
    // A reshape folded into the chain's last one stays a RESHAPE.
    if (sliced.getType() == op.getType(0))
      rewriter.replaceOp(op, sliced);
    else
      rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(0), sliced);
    return success();
  }
};

struct SplitPattern : FromComposite<names::kSplit, SplitOp> {
  using FromComposite::FromComposite;
  LogicalResult convert(CompositeOp op, const names::Inputs &in,
                        PatternRewriter &rewriter) const override {
    FailureOr<int64_t> axis = intParam(op, names::kAxis, rewriter);
    if (failed(axis) || failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<SplitOp>(op, op.getResultTypes(),
                                         in[input::kX],
                                         i32(rewriter, *axis));
    return success();
  }
};

struct LocalResponsePattern : FromComposite<names::kLocalResponseNormalization,
                                            LocalResponseNormalizationOp> {
  using FromComposite::FromComposite;
  LogicalResult convert(CompositeOp op, const names::Inputs &in,
                        PatternRewriter &rewriter) const override {
    FailureOr<int64_t> radius = intParam(op, names::kRadius, rewriter);
    FailureOr<double> bias = floatParam(op, names::kBias, rewriter);
    FailureOr<double> alpha = floatParam(op, names::kAlpha, rewriter);
    FailureOr<double> beta = floatParam(op, names::kBeta, rewriter);
    FailureOr<int64_t> axis = intParam(op, names::kAxis, rewriter);
    if (failed(radius) || failed(bias) || failed(alpha) || failed(beta) ||
        failed(axis) || failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<LocalResponseNormalizationOp>(
        op, op.getType(0), in[input::kX], i32(rewriter, *radius),
        rewriter.getF32FloatAttr(float(*bias)),
        rewriter.getF32FloatAttr(float(*alpha)),
        rewriter.getF32FloatAttr(float(*beta)), i32(rewriter, *axis));
    return success();
  }
};

struct L2NormalizationPattern
    : FromComposite<names::kL2Normalization, L2NormalizationOp> {
  using FromComposite::FromComposite;
  LogicalResult convert(CompositeOp op, const names::Inputs &in,
                        PatternRewriter &rewriter) const override {
    FailureOr<int64_t> axis = intParam(op, names::kAxis, rewriter);
    if (failed(axis) || failed(checkTensors(op, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<L2NormalizationOp>(
        op, op.getType(0), in[input::kX], i32(rewriter, *axis));
    return success();
  }
};

/// TOSA has no not-equal; the composite is logical_not(equal(a, b)).
struct NotEqualPattern : FromComposite<names::kNotEqual, NotEqualOp> {
  using FromComposite::FromComposite;
  LogicalResult convert(CompositeOp op, const names::Inputs &in,
                        PatternRewriter &rewriter) const override {
    if (failed(checkTensors(op, rewriter, Elements::FloatOrBool)))
      return failure();
    rewriter.replaceOpWithNewOp<NotEqualOp>(op, op.getType(0), in[input::kA],
                                            in[input::kB]);
    return success();
  }
};

/// TOSA has no argmin; the composite is argmax(negate(x)).
struct ArgMinPattern : FromComposite<names::kArgMin, ArgMinOp> {
  using FromComposite::FromComposite;
  LogicalResult convert(CompositeOp op, const names::Inputs &in,
                        PatternRewriter &rewriter) const override {
    FailureOr<int64_t> axis = intParam(op, names::kAxis, rewriter);
    if (failed(axis) || failed(checkTensor(op, in[input::kX].getType(),
                                           "operand", 0, rewriter)))
      return failure();
    rewriter.replaceOpWithNewOp<ArgMinOp>(op, op.getType(0), in[input::kX],
                                          i32(rewriter, *axis));
    return success();
  }
};
/// Rows [begin, begin + count) of a constant, along dimension 0.
DenseElementsAttr constantRows(DenseElementsAttr attr, int64_t begin,
                               int64_t count) {
  auto type = cast<RankedTensorType>(attr.getType());
  SmallVector<int64_t> shape(type.getShape());
  int64_t perRow = type.getNumElements() / shape[0];
  shape[0] = count;
  auto rows = RankedTensorType::get(shape, type.getElementType());
  if (attr.isSplat())
    return attr.resizeSplat(rows);
  size_t bytes = type.getElementTypeBitWidth() / 8 * perRow;
  return DenseElementsAttr::getFromRawBuffer(
      rows, attr.getRawData().slice(begin * bytes, count * bytes));
}

/// A pattern's refusal of `op` with `why` (the reason the report shows).
LogicalResult refuseWith(Operation *op, PatternRewriter &rewriter,
                         const Twine &why) {
  return rewriter.notifyMatchFailure(op,
                                     [&](Diagnostic &diag) { diag << why; });
}

/// The steps of `x` ([steps, ...]) in reverse order: a GATHER along axis 0.
Value reverseSteps(PatternRewriter &rewriter, Location loc, Value x,
                   Value &order) {
  if (!order) {
    int64_t steps = cast<RankedTensorType>(x.getType()).getDimSize(0);
    SmallVector<int32_t> indices;
    for (int64_t t = steps - 1; t >= 0; --t)
      indices.push_back(int32_t(t));
    order = rewriter.create<arith::ConstantOp>(
        loc, DenseElementsAttr::get(
                 RankedTensorType::get({steps}, rewriter.getI32Type()),
                 ArrayRef<int32_t>(indices)));
  }
  return rewriter.create<GatherOp>(loc, x.getType(), x, order,
                                   rewriter.getI32IntegerAttr(0));
}

/// An ONNX LSTM direction as one UNIDIRECTIONAL_SEQUENCE_LSTM: the gate
/// weights cut out of ONNX's [i, o, f, c] stacks, a reverse direction
/// between two GATHERs that reverse the steps. ONNX semantics NNAPI's
/// operation does not have are refused, each with its reason.
struct LstmPattern
    : ToNNAPI<CompositeOp, UnidirectionalSequenceLstmOp, GatherOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(CompositeOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getName() != names::kLstm)
      return failure();
    auto refuse = [&](const Twine &why) { return refuseWith(op, rewriter, why); };
    FailureOr<int64_t> reverse = intParam(op, names::kReverse, rewriter);
    FailureOr<int64_t> parameters =
        intParam(op, names::kActivationParameters, rewriter);
    FailureOr<int64_t> inputForget =
        intParam(op, names::kInputForget, rewriter);
    FailureOr<int64_t> peepholes = intParam(op, names::kPeepholes, rewriter);
    FailureOr<int64_t> lens = intParam(op, names::kSequenceLens, rewriter);
    std::optional<StringRef> activations =
        op.getStringParameter(names::kActivations);
    if (failed(reverse) || failed(parameters) || failed(inputForget) ||
        failed(peepholes) || failed(lens))
      return failure();
    if (!activations)
      return missing(op, "string", names::kActivations, rewriter);
    FailureOr<names::Inputs> in = bindInputs(op, rewriter);
    if (failed(in))
      return failure();
    if (op.getNumResults() != 3)
      return refuse("composite 'lstm' has 3 results");
    if (*lens)
      return refuse("sequence_lens shorter than the sequence: NNAPI's "
                    "sequence LSTM runs every step of every batch entry");
    if (op.getFloatParameter(names::kClip))
      return refuse("clip: ONNX's bounds each gate's input, NNAPI's "
                    "cell_clip the cell state");
    if (*inputForget)
      return refuse("input_forget: ONNX couples f = 1 - i, NNAPI's CIFG "
                    "i = 1 - f");
    if (*parameters)
      return refuse("activations with alpha or beta");
    SmallVector<StringRef, 3> fgh;
    activations->split(fgh, ',');
    std::optional<LstmActivation> act;
    if (fgh.size() == 3 && fgh[0] == "Sigmoid" && fgh[1] == fgh[2])
      act = llvm::StringSwitch<std::optional<LstmActivation>>(fgh[1])
                .Case("Tanh", LstmActivation::tanh)
                .Case("Relu", LstmActivation::relu)
                .Case("Sigmoid", LstmActivation::sigmoid)
                .Default(std::nullopt);
    if (!act)
      return refuse("activations " + *activations +
                    ": NNAPI's LSTM has logistic gates and one activation "
                    "(Tanh, Relu or Sigmoid) for the cell input and output");
    if (failed(checkTensors(op, rewriter)))
      return failure();
    DenseElementsAttr w, r, bias, p;
    const char *what[] = {"W", "R", "the bias", "P"};
    DenseElementsAttr *attrs[] = {&w, &r, &bias, &p};
    const llvm::StringLiteral keys[] = {input::kW, input::kR, input::kBias,
                                         input::kP};
    for (size_t k = 0; k < (*peepholes ? 4u : 3u); ++k)
      if (!matchPattern((*in)[keys[k]], m_Constant(attrs[k])))
        return refuse(Twine(what[k]) +
                      " computed at run time (NNAPI's LSTM takes constant "
                      "weights here)");
    Location loc = op.getLoc();
    int64_t units = cast<RankedTensorType>(op.getType(1)).getDimSize(1);
    // ONNX's gate order is i, o, f, c; NNAPI's operands i, f, c, o.
    auto gate = [&](DenseElementsAttr all, int64_t k) -> Value {
      return rewriter.create<arith::ConstantOp>(
          loc, constantRows(all, k * units, units));
    };
    enum { I = 0, O = 1, F = 2, C = 3 };
    Value x = (*in)[input::kX];
    Value reversed;
    if (*reverse)
      x = reverseSteps(rewriter, loc, x, reversed);
    Value peep[3] = {};
    if (*peepholes)
      for (int64_t k = 0; k < 3; ++k) // i, o, f
        peep[k] = gate(p, k);
    Type zero = rewriter.getF32Type();
    auto lstm = rewriter.create<UnidirectionalSequenceLstmOp>(
        loc, op.getType(0), TypeRange{op.getType(1), op.getType(2)}, x,
        gate(w, I), gate(w, F), gate(w, C), gate(w, O), gate(r, I),
        gate(r, F), gate(r, C), gate(r, O), peep[0], peep[2], peep[1],
        gate(bias, I), gate(bias, F), gate(bias, C), gate(bias, O), Value(),
        Value(), (*in)[input::kH], (*in)[input::kC],
        LstmActivationAttr::get(rewriter.getContext(), *act),
        rewriter.getFloatAttr(zero, 0.0), rewriter.getFloatAttr(zero, 0.0),
        rewriter.getBoolAttr(true));
    Value y = lstm.getOutput();
    if (reversed)
      y = reverseSteps(rewriter, loc, y, reversed);
    rewriter.replaceOp(op, {y, lstm.getStateOutputs()[0],
                            lstm.getStateOutputs()[1]});
    return success();
  }
};
/// An ONNX RNN direction with a Relu activation as one
/// UNIDIRECTIONAL_SEQUENCE_RNN (fused RELU); a reverse direction between two
/// GATHERs. The final state is the last step the operation computed. NNAPI's
/// RNN has no tanh (its activation is a fused ReLU family), so ONNX's
/// default RNN stays unrolled.
struct RnnPattern : ToNNAPI<CompositeOp, UnidirectionalSequenceRnnOp, GatherOp,
                            SliceOp, ReshapeOp> {
  using ToNNAPI::ToNNAPI;
  LogicalResult matchAndRewrite(CompositeOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getName() != names::kRnn)
      return failure();
    auto refuse = [&](const Twine &why) { return refuseWith(op, rewriter, why); };
    FailureOr<int64_t> reverse = intParam(op, names::kReverse, rewriter);
    FailureOr<int64_t> parameters =
        intParam(op, names::kActivationParameters, rewriter);
    FailureOr<int64_t> lens = intParam(op, names::kSequenceLens, rewriter);
    std::optional<StringRef> activation =
        op.getStringParameter(names::kActivations);
    if (failed(reverse) || failed(parameters) || failed(lens))
      return failure();
    if (!activation)
      return missing(op, "string", names::kActivations, rewriter);
    FailureOr<names::Inputs> in = bindInputs(op, rewriter);
    if (failed(in))
      return failure();
    if (op.getNumResults() != 2)
      return refuse("composite 'rnn' has 2 results");
    if (*lens)
      return refuse("sequence_lens shorter than the sequence: NNAPI's "
                    "sequence RNN runs every step of every batch entry");
    if (op.getFloatParameter(names::kClip))
      return refuse("clip: NNAPI's RNN does not bound its input");
    if (*parameters)
      return refuse("activations with alpha or beta");
    if (*activation != "Relu")
      return refuse("activation " + *activation +
                    ": NNAPI's RNN applies a fused activation (ReLU and its "
                    "clamped forms), not " + *activation);
    if (failed(checkTensors(op, rewriter)))
      return failure();
    Location loc = op.getLoc();
    Value x = (*in)[input::kX], order;
    if (*reverse)
      x = reverseSteps(rewriter, loc, x, order);
    auto rnn = rewriter.create<UnidirectionalSequenceRnnOp>(
        loc, op.getType(0), x, (*in)[input::kW], (*in)[input::kR],
        (*in)[input::kBias], (*in)[input::kH],
        FuseCodeAttr::get(rewriter.getContext(), FuseCode::relu),
        rewriter.getBoolAttr(true));
    // The final state: the operation's last step, before any reversal.
    auto y = cast<RankedTensorType>(op.getType(0));
    int64_t steps = y.getDimSize(0), batch = y.getDimSize(1),
            units = y.getDimSize(2);
    Value last = rewriter.create<tosa::SliceOp>(
        loc, RankedTensorType::get({1, batch, units}, y.getElementType()),
        rnn.getOutput(), rewriter.getDenseI64ArrayAttr({steps - 1, 0, 0}),
        rewriter.getDenseI64ArrayAttr({1, batch, units}));
    Value h = rewriter.create<tosa::ReshapeOp>(
        loc, op.getType(1), last, rewriter.getDenseI64ArrayAttr({batch, units}));
    Value out = rnn.getOutput();
    if (*reverse)
      out = reverseSteps(rewriter, loc, out, order);
    rewriter.replaceOp(op, {out, h});
    return success();
  }
};
} // namespace

void mlir::nnapi::populateTosaToNNAPICompositePatterns(
    RewritePatternSet &patterns) {
  patterns.addWithLabel<SoftmaxPattern>(
      {"softmax (reduce_max, sub, exp, reduce_sum, reciprocal, mul)"},
      patterns.getContext());
  patterns.addWithLabel<MeanPattern>({"mean (reduce_sum..., mul by 1/N)"},
                                     patterns.getContext());
  patterns.addWithLabel<HardSwishPattern>(
      {"hard_swish (mul by 1/6, add 1/2, clamp to [0, 1], mul)"},
      patterns.getContext());
  patterns.addWithLabel<InstanceNormPattern>(
      {"instance_normalization ((x - mean) * rsqrt(mean((x - mean)^2) + eps) "
       "over height and width)"},
      patterns.getContext());
  patterns.addWithLabel<MirrorPadPattern>(
      {"mirror_pad (concat of reversed slices around x)"},
      patterns.getContext());
  patterns.addWithLabel<DepthSpacePattern<names::kDepthToSpace, DepthToSpaceOp>>(
      {"depth_to_space (NCHW reshape, rank-6 transpose, reshape)"},
      patterns.getContext());
  patterns.addWithLabel<DepthSpacePattern<names::kSpaceToDepth, SpaceToDepthOp>>(
      {"space_to_depth (NCHW reshape, rank-6 transpose, reshape)"},
      patterns.getContext());
  patterns.addWithLabel<GroupedConvPattern>(
      {"grouped_conv (conv2d per channel slice, concat)"},
      patterns.getContext());
  patterns.addWithLabel<ChannelShufflePattern>(
      {"channel_shuffle (reshape to groups, swap, reshape back)"},
      patterns.getContext());
  patterns.addWithLabel<LocalResponsePattern>(
      {"local_response_normalization (x * pow(bias + k * sum of shifted "
       "squares, -beta))"},
      patterns.getContext());
  patterns.addWithLabel<L2NormalizationPattern>(
      {"l2_normalization (x * select(sum of squares == 0, 0, rsqrt(sum of "
       "squares)))"},
      patterns.getContext());
  patterns.addWithLabel<StridedSlicePattern>(
      {"strided_slice (pad to count x step, reshape to rows, first "
       "column, reshape back)"},
      patterns.getContext());
  patterns.addWithLabel<SplitPattern>(
      {"split (slices cutting one axis into equal pieces)"},
      patterns.getContext());
  patterns.addWithLabel<NotEqualPattern>({"not_equal (logical_not of equal)"},
                                         patterns.getContext());
  patterns.addWithLabel<ArgMinPattern>({"argmin (argmax of a negate)"},
                                       patterns.getContext());
  patterns.addWithLabel<PreluPattern>(
      {"prelu (add(clamp(x, 0, max), mul(clamp(x, -max, 0), slope)))"},
      patterns.getContext());
  patterns.addWithLabel<EluPattern>(
      {"elu (add(clamp(x, 0, max), mul(exp(clamp(x, -max, 0)) - 1, alpha)))"},
      patterns.getContext());
  patterns.addWithLabel<LstmPattern>(
      {"lstm (one direction of ONNX's LSTM, unrolled: per step gates from "
       "fully_connected products, logistic and tanh)"},
      patterns.getContext());
  patterns.addWithLabel<RnnPattern>(
      {"rnn (one direction of ONNX's RNN with Relu, unrolled: per step "
       "fully_connected products, add, relu)"},
      patterns.getContext());
  patterns.addWithLabel<LogSoftmaxPattern>(
      {"log_softmax (reduce_max, sub, exp, reduce_sum, log, sub)"},
      patterns.getContext());
}
