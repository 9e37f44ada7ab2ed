//===- RaiseQuantized.cpp - Quantized groups into composites --------------===//
//
// dequantize -> conv / depthwise conv / fully connected (-> clamp) ->
// quantize becomes one `quantized` composite (Composites.h). See
// Passes.td.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Transforms/Composites.h"
#include "nnapi-mlir/Transforms/Constants.h"
#include "nnapi-mlir/Transforms/Passes.h"

#include "nnapi-mlir/NNAPI/Operations.h"

#include "mlir/Dialect/Quant/QuantTypes.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIRAISEQUANTIZED
#define GEN_PASS_DEF_NNAPIRAISEQUANTIZEDTOSA
#include "nnapi-mlir/Transforms/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;
using namespace mlir::nnapi;
namespace names = mlir::nnapi::composite;

namespace {

/// A quantize or dequantize composite's parameters.
struct QParams {
  SmallVector<double> scales;
  SmallVector<int64_t> zeroPoints;
  int64_t axis = -1;
};

std::optional<QParams> paramsOf(CompositeOp op, StringRef name) {
  if (!op || op.getName() != name || op->getNumOperands() != 1)
    return std::nullopt;
  DictionaryAttr attrs = op.getCompositeAttributes();
  auto scales = attrs.getAs<DenseF32ArrayAttr>(names::kScale);
  auto zps = attrs.getAs<DenseI64ArrayAttr>(names::kZeroPoint);
  if (!scales || !zps || scales.size() != zps.size() || scales.empty())
    return std::nullopt;
  QParams p;
  for (float s : scales.asArrayRef())
    p.scales.push_back(double(s));
  p.zeroPoints.assign(zps.asArrayRef().begin(), zps.asArrayRef().end());
  if (auto axis = attrs.getAs<IntegerAttr>(names::kAxis))
    p.axis = axis.getInt();
  return p;
}

bool perTensor(const QParams &p) { return p.scales.size() == 1; }

/// Constant integer weights behind `v` (transposes and reshapes of a
/// dequantize composite of a constant), in v's layout, with the
/// composite's parameters (axis moved with its dimension).
struct Weights {
  DenseElementsAttr values;
  QParams params;
  SmallVector<Operation *> chain; ///< The ops from the constant to v.
};

std::optional<Weights> weightsBehind(Value v) {
  SmallVector<Operation *> steps;
  while (true) {
    Operation *def = v.getDefiningOp();
    if (!def)
      return std::nullopt;
    if (isa<tosa::TransposeOp, tosa::ReshapeOp>(def)) {
      steps.push_back(def);
      v = def->getOperand(0);
      continue;
    }
    auto dq = dyn_cast<CompositeOp>(def);
    std::optional<QParams> p = paramsOf(dq, names::kDequantize);
    DenseElementsAttr values;
    if (!p || !matchPattern(dq->getOperand(0), m_Constant(&values)) ||
        !values.getElementType().isInteger(8))
      return std::nullopt;
    Weights w{values, *p, {}};
    w.chain.push_back(dq->getOperand(0).getDefiningOp());
    w.chain.push_back(dq);
    for (Operation *step : llvm::reverse(steps)) {
      w.chain.push_back(step);
      auto type = cast<RankedTensorType>(step->getResult(0).getType());
      auto storage = RankedTensorType::get(type.getShape(),
                                           w.values.getElementType());
      if (auto t = dyn_cast<tosa::TransposeOp>(step)) {
        SmallVector<int64_t> perm;
        if (failed(t.getConstantPerms(perm)))
          return std::nullopt;
        w.chain.push_back(t.getPerms().getDefiningOp());
        w.values = permuteElements(w.values, perm);
        if (w.params.axis >= 0)
          w.params.axis = std::find(perm.begin(), perm.end(), w.params.axis) -
                          perm.begin();
      } else {
        // A reshape keeps the channel dimension when the dimensions before
        // it hold as many elements and it keeps its size.
        ArrayRef<int64_t> from = w.values.getType().getShape();
        if (w.params.axis >= 0) {
          int64_t before = 1;
          for (int64_t d = 0; d < w.params.axis; ++d)
            before *= from[d];
          int64_t at = -1, prefix = 1;
          for (int64_t d = 0; d < type.getRank(); ++d) {
            if (prefix == before && type.getDimSize(d) == from[w.params.axis]) {
              at = d;
              break;
            }
            prefix *= type.getDimSize(d);
          }
          if (at < 0)
            return std::nullopt;
          w.params.axis = at;
        }
        w.values = w.values.reshape(storage);
      }
    }
    return w;
  }
}

/// The bias behind `v` in units of input scale x weight scale (one scale,
/// or one per channel), as i32.
std::optional<DenseElementsAttr> biasBehind(Value v,
                                            ArrayRef<double> units,
                                            int64_t channels,
                                            SmallVector<Operation *> &chain) {
  auto type = RankedTensorType::get({channels},
                                    IntegerType::get(v.getContext(), 32));
  auto unit = [&](int64_t c) { return units[units.size() == 1 ? 0 : c]; };
  SmallVector<int32_t> out;
  DenseElementsAttr values;
  if (matchPattern(v, m_Constant(&values))) {
    // A float bias (an imported Conv without one has zeros): quantized.
    if (!values.getElementType().isF32() || values.getNumElements() != channels)
      return std::nullopt;
    int64_t c = 0;
    for (APFloat f : values.getValues<APFloat>()) {
      double q = std::round(double(f.convertToFloat()) / unit(c++));
      if (std::fabs(q) > 2147483647.0)
        return std::nullopt;
      out.push_back(int32_t(q));
    }
    return DenseElementsAttr::get(type, ArrayRef<int32_t>(out));
  }
  auto dq = v.getDefiningOp<CompositeOp>();
  std::optional<QParams> p = paramsOf(dq, names::kDequantize);
  if (!p || !matchPattern(dq->getOperand(0), m_Constant(&values)) ||
      !values.getElementType().isInteger(32) ||
      values.getNumElements() != channels)
    return std::nullopt;
  for (int64_t c = 0; c < channels; ++c) {
    double s = p->scales[p->scales.size() == 1 ? 0 : c];
    int64_t z = p->zeroPoints[p->zeroPoints.size() == 1 ? 0 : c];
    if (z != 0 || std::fabs(s - unit(c)) > 1e-6 * unit(c))
      return std::nullopt;
  }
  chain.push_back(dq->getOperand(0).getDefiningOp());
  chain.push_back(dq);
  return values.reshape(type);
}

/// Fills `composite`'s body (block arguments already in `map`) with clones of
/// `group`, the float chain ending in quantize `q`, in block order, and
/// yields q's clone; q's uses move to the composite, and the ops of `group`
/// and `alsoDead` that nothing uses any more are erased, users first.
void replaceGroup(OpBuilder &b, CompositeOp composite, IRMapping &map,
                  SmallVector<Operation *> group, CompositeOp q,
                  ArrayRef<Operation *> alsoDead = {}) {
  auto inBlockOrder = [](SmallVector<Operation *> &ops) {
    llvm::sort(ops, [](Operation *l, Operation *r) {
      return l->isBeforeInBlock(r);
    });
    ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  };
  inBlockOrder(group);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(&composite.getBody().front());
    for (Operation *o : group)
      b.clone(*o, map);
    b.create<YieldOp>(q.getLoc(), map.lookup(q->getResult(0)));
  }
  q->getResult(0).replaceAllUsesWith(composite->getResult(0));
  llvm::append_range(group, alsoDead);
  inBlockOrder(group);
  for (Operation *o : llvm::reverse(group))
    if (o->use_empty())
      o->erase();
}

/// DQ(a) + DQ(b) (-> clamp) -> Q as a quantized composite of a and b.
LogicalResult raiseBinary(CompositeOp q, const QParams &out, Operation *clamp,
                          Operation *add, OpBuilder &b) {
  if (!add->hasOneUse())
    return failure();
  if (auto mul = dyn_cast<tosa::MulOp>(add); mul && mul.getShift() != 0)
    return failure();
  auto da = add->getOperand(0).getDefiningOp<CompositeOp>();
  auto db = add->getOperand(1).getDefiningOp<CompositeOp>();
  std::optional<QParams> pa = paramsOf(da, names::kDequantize);
  std::optional<QParams> pb = paramsOf(db, names::kDequantize);
  if (!pa || !pb || !perTensor(*pa) || !perTensor(*pb) || da == db ||
      da->getOperand(0) == db->getOperand(0) ||
      !getElementTypeOrSelf(da->getOperand(0).getType()).isInteger(8) ||
      !getElementTypeOrSelf(db->getOperand(0).getType()).isInteger(8))
    return failure();
  b.setInsertionPoint(q);
  Location loc = q.getLoc();
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr(names::kInputScale, b.getF64FloatAttr(pa->scales[0])),
      b.getNamedAttr(names::kInputZeroPoint,
                     b.getI64IntegerAttr(pa->zeroPoints[0])),
      b.getNamedAttr(names::kSecondScale, b.getF64FloatAttr(pb->scales[0])),
      b.getNamedAttr(names::kSecondZeroPoint,
                     b.getI64IntegerAttr(pb->zeroPoints[0])),
      b.getNamedAttr(names::kOutputScale, b.getF64FloatAttr(out.scales[0])),
      b.getNamedAttr(names::kOutputZeroPoint,
                     b.getI64IntegerAttr(out.zeroPoints[0]))};
  Value x = da->getOperand(0), y = db->getOperand(0);
  auto composite = b.create<CompositeOp>(
      loc, q->getResultTypes(), names::kQuantizedBinary,
      names::orderInputs(names::kQuantizedBinary,
                         {{names::input::kX, x}, {names::input::kY, y}}),
      b.getDictionaryAttr(attrs));
  Block *body = new Block;
  composite.getBody().push_back(body);
  IRMapping map;
  map.map(x, body->addArgument(x.getType(), loc));
  map.map(y, body->addArgument(y.getType(), loc));
  SmallVector<Operation *> group = {da, db, add, q};
  if (clamp)
    group.push_back(clamp);
  replaceGroup(b, composite, map, group, q);
  return success();
}

/// An operation's int8 input: a per-tensor dequantize composite of i8
/// data, reached directly or through one transpose (an NCHW model's input
/// layout).
struct QuantInput {
  CompositeOp dq;
  QParams params;
  tosa::TransposeOp layout; ///< null without one
  SmallVector<int64_t> perm;
};

std::optional<QuantInput> quantInput(Value v, bool allowLayout = true) {
  QuantInput in;
  in.layout = v.getDefiningOp<tosa::TransposeOp>();
  if (in.layout && (!allowLayout || !in.layout->hasOneUse() ||
                    failed(in.layout.getConstantPerms(in.perm))))
    return std::nullopt;
  in.dq = (in.layout ? in.layout.getInput1() : v).getDefiningOp<CompositeOp>();
  std::optional<QParams> p = paramsOf(in.dq, names::kDequantize);
  if (!p || !perTensor(*p) ||
      !isa<RankedTensorType>(in.dq->getOperand(0).getType()) ||
      !getElementTypeOrSelf(in.dq->getOperand(0).getType()).isInteger(8))
    return std::nullopt;
  in.params = *p;
  return in;
}

/// The composite's operand for `in`: its i8 data, transposed as its layout
/// transpose was; `layoutDq` then receives the dequantization in that
/// layout, to move into the body (made here, before anything else, since
/// it can fail).
FailureOr<Value> dataInput(OpBuilder &b, Location loc, QuantInput &in,
                           CompositeOp &layoutDq) {
  Value x = in.dq->getOperand(0);
  if (!in.layout)
    return x;
  // The transpose moves the stored values: a quantized composite of its
  // own (an int8 TRANSPOSE where it is placed), whose body is the
  // transpose of the i8 data.
  auto type = RankedTensorType::get(
      cast<RankedTensorType>(in.layout.getType()).getShape(),
      getElementTypeOrSelf(x.getType()));
  auto params = b.getDictionaryAttr(
      {b.getNamedAttr(names::kInputScale,
                      b.getF64FloatAttr(in.params.scales[0])),
       b.getNamedAttr(names::kInputZeroPoint,
                      b.getI64IntegerAttr(in.params.zeroPoints[0])),
       b.getNamedAttr(names::kOutputScale,
                      b.getF64FloatAttr(in.params.scales[0])),
       b.getNamedAttr(names::kOutputZeroPoint,
                      b.getI64IntegerAttr(in.params.zeroPoints[0]))});
  auto transposed = b.create<CompositeOp>(
      loc, TypeRange{type}, names::kQuantizedData,
      names::orderInputs(names::kQuantizedData, {{names::input::kXs, x}}),
      params);
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = b.createBlock(&transposed.getBody());
    Value arg = body->addArgument(x.getType(), loc);
    Operation *perms = b.clone(*in.layout.getPerms().getDefiningOp());
    Value t = b.create<tosa::TransposeOp>(loc, type, arg, perms->getResult(0));
    b.create<YieldOp>(loc, t);
  }
  x = transposed->getResult(0);
  FailureOr<CompositeOp> moved = composite::permuted(b, in.dq, x, in.perm);
  if (failed(moved)) {
    transposed->erase();
    return failure();
  }
  layoutDq = *moved;
  return x;
}

/// Maps `operand` (the float operation's input) to the body's
/// dequantization of block argument `arg`, and adds the ops of `in` to the
/// group to clone or to the ops to erase once unused.
void mapDataInput(QuantInput &in, CompositeOp layoutDq, Value arg,
                  Value operand, IRMapping &map,
                  SmallVector<Operation *> &group,
                  SmallVector<Operation *> &alsoDead) {
  if (layoutDq) {
    layoutDq->moveBefore(arg.getParentBlock(), arg.getParentBlock()->end());
    layoutDq->setOperand(0, arg);
    map.map(operand, layoutDq->getResult(0));
    alsoDead.push_back(in.layout);
  } else {
    map.map(in.dq->getOperand(0), arg);
    group.push_back(in.dq);
  }
  alsoDead.push_back(in.dq);
}

/// The NNAPI operation of the one-input (or concatenation) float op a
/// quantized composite may hold, "" for others.
StringRef nnapiOperationOf(Operation *op) {
  if (!op)
    return "";
  if (auto composite = dyn_cast_or_null<CompositeOp>(op)) {
    if (composite.getName() == names::kSoftmax)
      return "SOFTMAX";
    if (composite.getName() == names::kHardSwish)
      return "HARD_SWISH";
    return "";
  }
  return llvm::TypeSwitch<Operation *, StringRef>(op)
      .Case([](tosa::MaxPool2dOp) { return "MAX_POOL_2D"; })
      .Case([](tosa::AvgPool2dOp) { return "AVERAGE_POOL_2D"; })
      .Case([](tosa::ReshapeOp) { return "RESHAPE"; })
      .Case([](tosa::TransposeOp) { return "TRANSPOSE"; })
      .Case([](tosa::ResizeOp resize) {
        // A bilinear resize of int8 data rounds differently in every
        // implementation; nearest neighbor moves stored values.
        return resize.getMode() == "NEAREST_NEIGHBOR"
                   ? "RESIZE_NEAREST_NEIGHBOR"
                   : "";
      })
      .Case([](tosa::ConcatOp) { return "CONCATENATION"; })
      .Case([](tosa::SigmoidOp) { return "LOGISTIC"; })
      .Case([](tosa::TanhOp) { return "TANH"; })
      .Default([](Operation *) { return ""; });
}

/// The bias's units per output channel: x's scale x each weight scale, in
/// float32 as the bias was quantized.
SmallVector<double> biasUnits(const QParams &in,
                              ArrayRef<double> weightScales) {
  SmallVector<double> units;
  for (double s : weightScales)
    units.push_back(double(float(in.scales[0]) * float(s)));
  return units;
}

/// A quantized composite replacing `q` with inputs x, weights and bias, the
/// parameters of x (`in`), the weights (one scale, or one per output channel
/// along `axis`) and the output, and an empty body of their block
/// arguments; returns x's argument.
Value createWeighted(OpBuilder &b, Location loc, CompositeOp q, Value x,
                     Value weights, Value bias, const QParams &in,
                     ArrayRef<double> weightScales, int64_t weightZeroPoint,
                     std::optional<int64_t> axis, const QParams &out,
                     CompositeOp &composite) {
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr(names::kInputScale, b.getF64FloatAttr(in.scales[0])),
      b.getNamedAttr(names::kInputZeroPoint,
                     b.getI64IntegerAttr(in.zeroPoints[0])),
      b.getNamedAttr(names::kWeightScale,
                     b.getDenseF64ArrayAttr(weightScales)),
      b.getNamedAttr(names::kWeightZeroPoint,
                     b.getI64IntegerAttr(weightZeroPoint)),
      b.getNamedAttr(names::kOutputScale, b.getF64FloatAttr(out.scales[0])),
      b.getNamedAttr(names::kOutputZeroPoint,
                     b.getI64IntegerAttr(out.zeroPoints[0]))};
  if (axis)
    attrs.push_back(b.getNamedAttr(names::kAxis, b.getI64IntegerAttr(*axis)));
  composite = b.create<CompositeOp>(
      loc, q->getResultTypes(), names::kQuantizedWeighted,
      names::orderInputs(names::kQuantizedWeighted,
                         {{names::input::kX, x},
                          {names::input::kWeights, weights},
                          {names::input::kBias, bias}}),
      b.getDictionaryAttr(attrs));
  Block *body = new Block;
  composite.getBody().push_back(body);
  Value arg = body->addArgument(x.getType(), loc);
  body->addArgument(weights.getType(), loc);
  body->addArgument(bias.getType(), loc);
  return arg;
}

/// DQ... -> op (-> clamp) -> Q, op a pool, reshape, transpose,
/// nearest-neighbor resize, concatenation, sigmoid, tanh, softmax or hard
/// swish whose NNAPI operation takes the parameters (quantizedOutputError:
/// pools, reshape, transpose and resize keep their input's,
/// LOGISTIC, TANH and SOFTMAX have fixed ones), as a quantized composite of
/// the int8 inputs.
LogicalResult raiseData(CompositeOp q, const QParams &out, Operation *clamp,
                        Operation *op, OpBuilder &b) {
  StringRef operation = nnapiOperationOf(op);
  bool pool = isa<tosa::MaxPool2dOp, tosa::AvgPool2dOp>(op);
  if (!op->hasOneUse() || (clamp && !pool))
    return failure();
  bool concat = isa<tosa::ConcatOp>(op);
  SmallVector<QuantInput> ins;
  for (Value v : concat ? op->getOperands() : op->getOperands().take_front()) {
    std::optional<QuantInput> in = quantInput(v, /*allowLayout=*/!concat);
    if (!in)
      return failure();
    if (!nnapi_mlir::quantizedOutputError(
             operation, /*isSigned=*/true, float(in->params.scales[0]),
             int32_t(in->params.zeroPoints[0]), float(out.scales[0]),
             int32_t(out.zeroPoints[0]))
             .empty())
      return failure();
    ins.push_back(*in);
  }
  b.setInsertionPoint(q);
  Location loc = q.getLoc();
  SmallVector<Value> xs;
  SmallVector<CompositeOp> layoutDqs;
  for (QuantInput &in : ins) {
    CompositeOp layoutDq;
    FailureOr<Value> x = dataInput(b, loc, in, layoutDq);
    if (failed(x))
      return failure(); // one input at most has a layout transpose
    xs.push_back(*x);
    layoutDqs.push_back(layoutDq);
  }
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr(names::kOutputScale, b.getF64FloatAttr(out.scales[0])),
      b.getNamedAttr(names::kOutputZeroPoint,
                     b.getI64IntegerAttr(out.zeroPoints[0]))};
  if (concat) {
    SmallVector<double> scales;
    SmallVector<int64_t> zeroPoints;
    for (const QuantInput &in : ins) {
      scales.push_back(in.params.scales[0]);
      zeroPoints.push_back(in.params.zeroPoints[0]);
    }
    attrs.push_back(b.getNamedAttr(names::kInputScales,
                                   b.getDenseF64ArrayAttr(scales)));
    attrs.push_back(b.getNamedAttr(names::kInputZeroPoints,
                                   b.getDenseI64ArrayAttr(zeroPoints)));
  } else {
    attrs.push_back(b.getNamedAttr(
        names::kInputScale, b.getF64FloatAttr(ins[0].params.scales[0])));
    attrs.push_back(b.getNamedAttr(
        names::kInputZeroPoint,
        b.getI64IntegerAttr(ins[0].params.zeroPoints[0])));
  }
  auto composite =
      b.create<CompositeOp>(loc, q->getResultTypes(), names::kQuantizedData,
                            names::orderInputs(names::kQuantizedData,
                                               {{names::input::kXs, xs}}),
                            b.getDictionaryAttr(attrs));
  Block *body = new Block;
  composite.getBody().push_back(body);
  IRMapping map;
  SmallVector<Operation *> group = {op, q}, alsoDead;
  if (clamp)
    group.push_back(clamp);
  // The reshape's shape, the transpose's permutation or nothing else:
  // constants cloned with the group.
  for (Value operand : op->getOperands().drop_front(concat ? op->getNumOperands() : 1))
    if (Operation *def = operand.getDefiningOp())
      group.push_back(def);
  for (auto [k, in] : llvm::enumerate(ins))
    mapDataInput(in, layoutDqs[k], body->addArgument(xs[k].getType(), loc),
                 op->getOperand(k), map, group, alsoDead);
  replaceGroup(b, composite, map, group, q, alsoDead);
  return success();
}

/// `v` is a matmul's result, possibly through a reshape.
bool isProduct(Value v) {
  if (auto reshape = v.getDefiningOp<tosa::ReshapeOp>())
    v = reshape.getInput1();
  return bool(v.getDefiningOp<tosa::MatMulOp>());
}

/// DQ(x) (-> reshape) -> tosa.matmul by a constant DQ'd matrix (through
/// reshapes) (-> reshape) (-> clamp) -> Q: an imported MatMul of a
/// constant, as a quantized composite of x, the weights transposed to
/// FULLY_CONNECTED's [units, in] and a zero bias (one weight scale: NNAPI's
/// FULLY_CONNECTED has no per-channel weights).
LogicalResult raiseMatMul(CompositeOp q, const QParams &out, Operation *clamp,
                          Operation *op, OpBuilder &b) {
  // A bias added after the product (an imported Gemm's C).
  auto biasAdd = dyn_cast<tosa::AddOp>(op);
  Value biasIn;
  if (biasAdd) {
    if (!biasAdd->hasOneUse())
      return failure();
    bool first = isProduct(biasAdd.getInput1());
    op = (first ? biasAdd.getInput1() : biasAdd.getInput2()).getDefiningOp();
    biasIn = first ? biasAdd.getInput2() : biasAdd.getInput1();
  }
  auto outReshape = dyn_cast<tosa::ReshapeOp>(op);
  auto mm = outReshape ? outReshape.getInput1().getDefiningOp<tosa::MatMulOp>()
                       : cast<tosa::MatMulOp>(op);
  if (!op->hasOneUse() || !mm->hasOneUse() || mm.getQuantizationInfo())
    return failure();
  auto lhsType = cast<RankedTensorType>(mm.getA().getType());
  auto rhsType = cast<RankedTensorType>(mm.getB().getType());
  if (!lhsType.getElementType().isF32() || lhsType.getDimSize(0) != 1 ||
      !rhsType.hasStaticShape())
    return failure();
  auto lhsReshape = mm.getA().getDefiningOp<tosa::ReshapeOp>();
  if (lhsReshape && !lhsReshape->hasOneUse())
    return failure();
  std::optional<QuantInput> in = quantInput(
      lhsReshape ? lhsReshape.getInput1() : mm.getA(), /*allowLayout=*/false);
  std::optional<Weights> w = weightsBehind(mm.getB());
  if (!in || !w)
    return failure();
  int64_t k = rhsType.getDimSize(1), n = rhsType.getDimSize(2);
  // Per output column (axis 2 of [1, K, N]): symmetric, one scale each;
  // columns of one scale are per tensor.
  bool perChannel = !llvm::all_of(
      w->params.scales, [&](double s) { return s == w->params.scales[0]; });
  if (perChannel &&
      (w->params.axis != 2 || int64_t(w->params.scales.size()) != n ||
       llvm::any_of(w->params.zeroPoints, [](int64_t z) { return z; })))
    return failure();
  if (!llvm::all_of(w->params.zeroPoints, [&](int64_t z) {
        return z == w->params.zeroPoints[0];
      }))
    return failure();
  // [1, K, N] -> [N, K].
  Type i8 = b.getIntegerType(8);
  DenseElementsAttr units = permuteElements(
      w->values.reshape(RankedTensorType::get({k, n}, i8)), {1, 0});
  b.setInsertionPoint(q);
  Location loc = q.getLoc();
  // The bias in units of x's scale x each column's.
  SmallVector<Operation *> biasChain;
  DenseElementsAttr biasValues;
  auto biasType = RankedTensorType::get({n}, b.getI32Type());
  if (biasIn) {
    auto reshape = biasIn.getDefiningOp<tosa::ReshapeOp>();
    if (reshape)
      biasIn = reshape.getInput1();
    std::optional<DenseElementsAttr> found =
        biasBehind(biasIn, biasUnits(in->params, w->params.scales), n, biasChain);
    if (!found)
      return failure();
    biasValues = *found;
    if (reshape)
      biasChain.push_back(reshape);
    if (Operation *def = biasIn.getDefiningOp(); def && biasChain.empty())
      biasChain.push_back(def); // a float constant, cloned with the body
  } else {
    biasValues = DenseElementsAttr::get(biasType, int32_t(0));
  }
  Value x = in->dq->getOperand(0);
  Value weights = b.create<tosa::ConstOp>(loc, units.getType(), units);
  Value bias = b.create<tosa::ConstOp>(loc, biasType, biasValues);
  // Per output column: along the units of [units, in].
  ArrayRef<double> weightScales = w->params.scales;
  CompositeOp composite;
  Value arg = createWeighted(
      b, loc, q, x, weights, bias, in->params,
      perChannel ? weightScales : weightScales.take_front(),
      w->params.zeroPoints[0],
      perChannel ? std::optional<int64_t>(0) : std::nullopt, out, composite);
  IRMapping map;
  SmallVector<Operation *> group = {mm, q}, alsoDead;
  mapDataInput(*in, CompositeOp(), arg, in->dq->getResult(0), map, group,
               alsoDead);
  llvm::append_range(group, w->chain);
  llvm::append_range(group, biasChain);
  for (Operation *o : {(Operation *)lhsReshape.getOperation(),
                       (Operation *)outReshape.getOperation(),
                       (Operation *)biasAdd.getOperation(), clamp})
    if (o)
      group.push_back(o);
  replaceGroup(b, composite, map, group, q, alsoDead);
  return success();
}

/// Raises the group ending in quantize composite `q`, if it is one.
LogicalResult raise(CompositeOp q, OpBuilder &b) {
  std::optional<QParams> out = paramsOf(q, names::kQuantize);
  if (!out || !perTensor(*out))
    return failure();
  Value v = q->getOperand(0);
  // Q(DQ(x)) with the same parameters is x (|x - zero point| <= 255 times
  // the scale, divided by it, rounds back exactly): pairs that moving
  // transposes and reshapes leave back to back.
  if (auto dq = v.getDefiningOp<CompositeOp>()) {
    std::optional<QParams> in = paramsOf(dq, names::kDequantize);
    if (in && perTensor(*in) && in->scales == out->scales &&
        in->zeroPoints == out->zeroPoints &&
        dq->getOperand(0).getType() == q->getResult(0).getType()) {
      q->getResult(0).replaceAllUsesWith(dq->getOperand(0));
      q->erase();
      if (dq->use_empty())
        dq->erase();
      return success();
    }
  }
  Operation *clamp = v.getDefiningOp<tosa::ClampOp>();
  if (clamp) {
    if (!clamp->hasOneUse())
      return failure();
    v = clamp->getOperand(0);
  }
  Operation *op = v.getDefiningOp();
  if (auto add = dyn_cast_or_null<tosa::AddOp>(op);
      add && (isProduct(add.getInput1()) || isProduct(add.getInput2())))
    return raiseMatMul(q, *out, clamp, op, b);
  if (isa_and_nonnull<tosa::AddOp, tosa::MulOp>(op))
    return raiseBinary(q, *out, clamp, op, b);
  if (auto reshape = dyn_cast_or_null<tosa::ReshapeOp>(op);
      isa_and_nonnull<tosa::MatMulOp>(op) ||
      (reshape && reshape.getInput1().getDefiningOp<tosa::MatMulOp>()))
    return raiseMatMul(q, *out, clamp, op, b);
  if (!nnapiOperationOf(op).empty())
    return raiseData(q, *out, clamp, op, b);
  if (!op || !op->hasOneUse() ||
      !isa<tosa::Conv2DOp, tosa::DepthwiseConv2DOp, tosa::FullyConnectedOp>(
          op))
    return failure();
  std::optional<QuantInput> in = quantInput(op->getOperand(0));
  if (!in)
    return failure();
  std::optional<Weights> w = weightsBehind(op->getOperand(1));
  if (!w)
    return failure();
  auto outType = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t channels = outType.getShape().back();
  // Weight scales per output channel: the axis must be the channel one of
  // the op's weight layout; a fully connected operation takes one scale.
  int64_t channelAxis = isa<tosa::DepthwiseConv2DOp>(op) ? 2 : 0;
  bool perChannel = !perTensor(w->params);
  if (perChannel) {
    bool same = llvm::all_of(w->params.scales, [&](double s) {
      return s == w->params.scales[0];
    });
    if (same) {
      w->params.scales.resize(1);
      w->params.zeroPoints.resize(1);
      w->params.axis = -1;
      perChannel = false;
    }
  }
  if (perChannel) {
    if (w->params.axis != channelAxis ||
        int64_t(w->params.scales.size()) != channels ||
        (isa<tosa::DepthwiseConv2DOp>(op) &&
         w->values.getType().getDimSize(3) != 1) ||
        llvm::any_of(w->params.zeroPoints, [](int64_t z) { return z; }))
      return failure();
  }
  SmallVector<Operation *> biasChain;
  std::optional<DenseElementsAttr> bias =
      biasBehind(op->getOperand(2), biasUnits(in->params, w->params.scales),
                 channels, biasChain);
  if (!bias)
    return failure();

  b.setInsertionPoint(q);
  Location loc = q.getLoc();
  CompositeOp layoutDq;
  FailureOr<Value> xOr = dataInput(b, loc, *in, layoutDq);
  if (failed(xOr))
    return failure();
  Value x = *xOr;
  Value weights = b.create<tosa::ConstOp>(loc, w->values.getType(), w->values);
  Value biasValue = b.create<tosa::ConstOp>(loc, bias->getType(), *bias);
  CompositeOp composite;
  Value arg = createWeighted(
      b, loc, q, x, weights, biasValue, in->params, w->params.scales,
      w->params.zeroPoints[0],
      perChannel ? std::optional<int64_t>(channelAxis) : std::nullopt, *out,
      composite);
  IRMapping map;
  SmallVector<Operation *> group = {op, q}, alsoDead;
  mapDataInput(*in, layoutDq, arg, op->getOperand(0), map, group, alsoDead);
  // The float chain (constants cloned with it).
  llvm::append_range(group, w->chain);
  llvm::append_range(group, biasChain);
  if (clamp)
    group.push_back(clamp);
  if (auto bc = op->getOperand(2).getDefiningOp(); bc && biasChain.empty())
    group.push_back(bc);
  replaceGroup(b, composite, map, group, q, alsoDead);
  return success();
}

/// The per-tensor parameters of `type`'s signed 8-bit elements.
std::optional<QParams> typeParams(Type type) {
  auto q = dyn_cast<quant::UniformQuantizedType>(getElementTypeOrSelf(type));
  if (!q || !q.isSigned() || q.getStorageTypeIntegralWidth() != 8)
    return std::nullopt;
  return QParams{{q.getScale()}, {q.getZeroPoint()}, -1};
}

/// Quantized TOSA: conv2d / depthwise_conv2d on !quant.uniform data ->
/// rescale to int8 (-> clamp of the stored values) as a quantized
/// composite, the parameters read off the types (see Passes.td).
LogicalResult raiseTyped(tosa::RescaleOp rescale, OpBuilder &b) {
  Operation *op = rescale.getInput().getDefiningOp();
  if (!isa_and_nonnull<tosa::Conv2DOp, tosa::DepthwiseConv2DOp>(op) ||
      !op->hasOneUse())
    return failure();
  Value x = op->getOperand(0), w = op->getOperand(1), bias = op->getOperand(2);
  std::optional<QParams> in = typeParams(x.getType());
  std::optional<QParams> out = typeParams(rescale.getType());
  auto info =
      op->getAttrOfType<tosa::ConvOpQuantizationAttr>("quantization_info");
  if (!in || !out || !info || info.getInputZp() != in->zeroPoints[0] ||
      info.getWeightZp() != 0)
    return failure();
  bool depthwise = isa<tosa::DepthwiseConv2DOp>(op);
  auto wType = cast<RankedTensorType>(w.getType());
  int64_t channels =
      cast<RankedTensorType>(op->getResult(0).getType()).getShape().back();
  SmallVector<double> weightScales;
  std::optional<int64_t> axis;
  Type wElement = wType.getElementType();
  if (auto perAxis = dyn_cast<quant::UniformQuantizedPerAxisType>(wElement)) {
    // The output channel's dimension: OHWI's O, or [kh, kw, C, M]'s C with
    // a depth multiplier of 1.
    int64_t channelAxis = depthwise ? 2 : 0;
    if (perAxis.getQuantizedDimension() != channelAxis ||
        int64_t(perAxis.getScales().size()) != channels ||
        (depthwise && wType.getDimSize(3) != 1) ||
        llvm::any_of(perAxis.getZeroPoints(), [](int64_t z) { return z; }))
      return failure();
    weightScales.assign(perAxis.getScales().begin(), perAxis.getScales().end());
    axis = channelAxis;
  } else if (auto perTensorType =
                 dyn_cast<quant::UniformQuantizedType>(wElement)) {
    if (perTensorType.getZeroPoint() != 0)
      return failure();
    weightScales.push_back(perTensorType.getScale());
  } else {
    return failure();
  }
  if (!getElementTypeOrSelf(
           cast<quant::QuantizedType>(wElement).getStorageType())
           .isInteger(8))
    return failure();
  DenseElementsAttr wValues, biasValues;
  if (!matchPattern(w, m_Constant(&wValues)) ||
      !matchPattern(bias, m_Constant(&biasValues)) ||
      !biasValues.getElementType().isInteger(32))
    return failure();
  // The rescale must be what NNAPI computes from the parameters: input
  // scale x weight scale / output scale, per channel or not.
  ArrayRef<int32_t> multipliers = rescale.getMultiplier();
  ArrayRef<int8_t> shifts = rescale.getShift();
  size_t count = rescale.getPerChannel() ? size_t(channels) : 1;
  // (I32Attr's getters return uint32_t.)
  if (rescale.getInputZp() != 0 ||
      int32_t(rescale.getOutputZp()) != out->zeroPoints[0] ||
      !rescale.getScale32() || multipliers.size() != count ||
      shifts.size() != count ||
      (weightScales.size() != 1 && count != weightScales.size()))
    return failure();
  for (size_t c = 0; c < std::max(count, weightScales.size()); ++c) {
    double real = double(multipliers[count == 1 ? 0 : c]) /
                  std::ldexp(1.0, shifts[count == 1 ? 0 : c]);
    double expected = in->scales[0] *
                      weightScales[weightScales.size() == 1 ? 0 : c] /
                      out->scales[0];
    if (std::fabs(real - expected) > 1e-6 * expected)
      return failure();
  }
  // A clamp of the stored values joins the group; the conversion decides
  // whether it is a fused activation.
  Operation *clamp = nullptr;
  if (rescale->hasOneUse())
    clamp = dyn_cast<tosa::ClampOp>(*rescale->getUsers().begin());
  Operation *last = clamp ? clamp : rescale.getOperation();

  b.setInsertionPoint(last);
  Location loc = op->getLoc();
  SmallVector<NamedAttribute> attrs = {
      b.getNamedAttr(names::kInputScale, b.getF64FloatAttr(in->scales[0])),
      b.getNamedAttr(names::kInputZeroPoint,
                     b.getI64IntegerAttr(in->zeroPoints[0])),
      b.getNamedAttr(names::kWeightScale, b.getDenseF64ArrayAttr(weightScales)),
      b.getNamedAttr(names::kWeightZeroPoint, b.getI64IntegerAttr(0)),
      b.getNamedAttr(names::kOutputScale, b.getF64FloatAttr(out->scales[0])),
      b.getNamedAttr(names::kOutputZeroPoint,
                     b.getI64IntegerAttr(out->zeroPoints[0]))};
  if (axis)
    attrs.push_back(b.getNamedAttr(names::kAxis, b.getI64IntegerAttr(*axis)));
  auto composite =
      b.create<CompositeOp>(loc, last->getResultTypes(),
                            names::kQuantizedWeighted,
                            names::orderInputs(names::kQuantizedWeighted,
                                               {{names::input::kX, x},
                                                {names::input::kWeights, w},
                                                {names::input::kBias, bias}}),
                            b.getDictionaryAttr(attrs));
  {
    OpBuilder::InsertionGuard guard(b);
    Block *body = b.createBlock(&composite.getBody());
    IRMapping map;
    for (Value v : {x, w, bias})
      map.map(v, body->addArgument(v.getType(), loc));
    SmallVector<Operation *> group = {op, rescale.getOperation()};
    if (clamp)
      group.push_back(clamp);
    for (Operation *o : group)
      b.clone(*o, map);
    b.create<YieldOp>(loc, map.lookup(last->getResult(0)));
  }
  last->getResult(0).replaceAllUsesWith(composite->getResult(0));
  if (clamp)
    clamp->erase();
  rescale->erase();
  op->erase();
  return success();
}

struct RaiseQuantizedTosaPass
    : nnapi::impl::NNAPIRaiseQuantizedTosaBase<RaiseQuantizedTosaPass> {
  void runOnOperation() override {
    SmallVector<tosa::RescaleOp> rescales;
    getOperation()->walk([&](tosa::RescaleOp op) {
      if (!op->getParentOfType<CompositeOp>())
        rescales.push_back(op);
    });
    OpBuilder b(&getContext());
    for (tosa::RescaleOp rescale : rescales)
      (void)raiseTyped(rescale, b);
  }
};

struct RaiseQuantizedPass
    : nnapi::impl::NNAPIRaiseQuantizedBase<RaiseQuantizedPass> {
  void runOnOperation() override {
    SmallVector<CompositeOp> quantizes;
    getOperation()->walk([&](CompositeOp op) {
      // Not inside other composites: their bodies are theirs.
      if (op.getName() == names::kQuantize &&
          !op->getParentOfType<CompositeOp>())
        quantizes.push_back(op);
    });
    OpBuilder b(&getContext());
    for (CompositeOp q : quantizes)
      (void)raise(q, b);
  }
};

} // namespace
