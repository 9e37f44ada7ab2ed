//===- NNAPIDialect.cpp - nnapi dialect, ops and verifiers ----------------===//

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/Operands.h"
#include "Verifiers.h"
#include "nnapi-mlir/NNAPI/Operations.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::detail;

#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.cpp.inc"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIEnums.cpp.inc"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIInterfaces.cpp.inc"

void NNAPIDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIOps.cpp.inc"
      ,
#define GET_OP_LIST
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPICompositeOps.cpp.inc"
      >();
}

LogicalResult NNAPIDialect::verifyRegionArgAttribute(Operation *op,
                                                     unsigned region,
                                                     unsigned index,
                                                     NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name != kDimTypicalAttrName)
    return success();
  auto func = dyn_cast<FunctionOpInterface>(op);
  auto sizes = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
  if (!func || region != 0 || !sizes)
    return op->emitError() << "'" << name
                           << "' must be an array<i64> on a function argument";
  auto type = dyn_cast<RankedTensorType>(func.getArgumentTypes()[index]);
  if (!type || int64_t(sizes.size()) != type.getNumDynamicDims())
    return op->emitError() << "'" << name << "' of argument " << index
                           << " needs a size for each of its dynamic "
                              "dimensions";
  auto ranges =
      func.getArgAttrOfType<DenseI64ArrayAttr>(index, kDimRangesAttrName);
  for (auto [k, size] : llvm::enumerate(sizes.asArrayRef())) {
    int64_t low = 1, high = INT32_MAX;
    if (ranges && int64_t(ranges.size()) == 2 * type.getNumDynamicDims()) {
      low = ranges[2 * k];
      high = ranges[2 * k + 1];
    }
    if (size != 0 && (size < low || size > high))
      return op->emitError() << "'" << name << "' of argument " << index
                             << ": size " << size << " is outside the range ["
                             << low << ".." << high << "] of dynamic dimension "
                             << k;
  }
  return success();
}

LogicalResult NNAPIDialect::verifyOperationAttribute(Operation *op,
                                                     NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kPartitionAttrName || name == kRelaxAttrName) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    return success();
  }
  if (name == kFeatureLevelAttrName) {
    auto level = dyn_cast<IntegerAttr>(attr.getValue());
    if (!level || level.getInt() < 1 || level.getInt() > kMaxFeatureLevel)
      return op->emitError() << "'" << name
                             << "' must be an integer feature level in 1.."
                             << kMaxFeatureLevel;
    return success();
  }
  if (name == kBlobAttrName) {
    if (!isa<FlatSymbolRefAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a symbol reference";
    return success();
  }
  if (name == kCodegenAttrName) {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a string";
    return success();
  }
  if (name == kArenaBytesAttrName || name == kUnplannedBytesAttrName) {
    auto bytes = dyn_cast<IntegerAttr>(attr.getValue());
    if (!bytes || bytes.getInt() < 0)
      return op->emitError() << "'" << name
                             << "' must be a non-negative integer";
    return success();
  }
  if (name == kStaticShapesAttrName) {
    auto shapes = dyn_cast<ArrayAttr>(attr.getValue());
    if (!shapes || !llvm::all_of(shapes, [](Attribute a) {
          auto dims = dyn_cast<DenseI64ArrayAttr>(a);
          return dims && llvm::all_of(dims.asArrayRef(),
                                      [](int64_t d) { return d >= 0; });
        }))
      return op->emitError() << "'" << name
                             << "' must be an array of static shapes "
                                "(array<i64>)";
    return success();
  }
  if (name == kPlacementThreadsAttrName) {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!isa<ModuleOp>(op) || !value || value.getInt() < 1 ||
        value.getInt() > 256)
      return op->emitError() << "'" << name
                             << "' must be a thread count in 1..256 on a "
                                "module";
    return success();
  }
  if (name == kParallelAttrName || name == kParallelGrainAttrName) {
    auto value = dyn_cast<IntegerAttr>(attr.getValue());
    if (!value || value.getInt() < 1)
      return op->emitError() << "'" << name << "' must be a positive integer";
    return success();
  }
  if (name == kSignatureAttrName) {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a string";
    return success();
  }
  if (name == kBoundInputsAttrName) {
    auto bound = dyn_cast<DictionaryAttr>(attr.getValue());
    unsigned index;
    if (!bound || !llvm::all_of(bound, [&](NamedAttribute entry) {
          return !entry.getName().getValue().getAsInteger(10, index) &&
                 isa<DenseElementsAttr>(entry.getValue());
        }))
      return op->emitError()
             << "'" << name << "' must map input indices to dense values";
    return success();
  }
  return op->emitError() << "unknown nnapi attribute '" << name << "'";
}

//===----------------------------------------------------------------------===//
// Verifier helpers shared by the ops (Verifiers.h)
//===----------------------------------------------------------------------===//

namespace mlir::nnapi::detail {
RankedTensorType tensorType(Value v) {
  return cast<RankedTensorType>(v.getType());
}

/// `v` has a rank its role in the NNAPI spec's layout of `op` takes (at
/// some feature level: the level itself is the op's feature level's
/// business); `what` names it in the message.
LogicalResult verifyRank(Operation *op, Value v, StringRef what) {
  int64_t rank = tensorType(v).getRank();
  const nnapi_mlir::spec::Role *role = getSpecRole(op, v);
  if (!role)
    return op->emitOpError() << what << " has no role in the NNAPI spec";
  if (rank >= 0 && rank <= 4 && role->rankLevel[rank] != 0)
    return success();
  int64_t minRank = -1, maxRank = -1;
  for (int64_t r = 0; r <= 4; ++r)
    if (role->rankLevel[r]) {
      minRank = minRank < 0 ? r : minRank;
      maxRank = r;
    }
  InFlightDiagnostic diag = op->emitOpError() << what << " must have rank ";
  if (minRank == maxRank)
    diag << minRank;
  else
    diag << minRank << " to " << maxRank;
  return diag << ", got " << rank;
}

/// `types` (all operands and results by default) share one element type.
LogicalResult verifySameElementType(Operation *op, TypeRange types) {
  Type elementType;
  for (Type t : types) {
    Type e = getElementTypeOrSelf(t);
    if (!elementType)
      elementType = e;
    else if (e != elementType)
      return op->emitOpError("operands and results must share one element "
                             "type, got ")
             << elementType << " and " << e;
  }
  return success();
}

LogicalResult verifyQuantizationParameters(Operation *op);

/// Every operand and result of `op` 8-bit quantized data of one operand
/// type, each with its own parameters, which NNAPI's rules accept.
LogicalResult verifyOne8BitType(Operation *op) {
  SmallVector<Type> types(op->getOperandTypes());
  llvm::append_range(types, op->getResultTypes());
  std::optional<int32_t> code = getTensorOperandCode(types.front());
  for (Type t : types)
    if (!isa<quant::UniformQuantizedType>(getElementTypeOrSelf(t)) ||
        getTensorOperandCode(t) != code ||
        code == ANEURALNETWORKS_TENSOR_INT32)
      return op->emitOpError("quantized operands and result must share one "
                             "8-bit type, got ")
             << types.front() << " and " << t;
  return verifyQuantizationParameters(op);
}

LogicalResult verifySameElementType(Operation *op) {
  SmallVector<Type> types(op->getOperandTypes());
  llvm::append_range(types, op->getResultTypes());
  if (op->getNumOperands() == 0 ||
      !isa<quant::QuantizedType>(
          getElementTypeOrSelf(op->getOperand(0).getType())))
    return verifySameElementType(op, types);
  // 8-bit quantized data: one operand type throughout, each operand with
  // its own parameters, as far as the operation allows
  // (quantizedOutputError).
  if (failed(verifyOne8BitType(op)))
    return failure();
  auto out = cast<quant::UniformQuantizedType>(
      getElementTypeOrSelf(op->getResult(0).getType()));
  auto nnapi = cast<NNAPIOperationInterface>(op);
  for (Value in : op->getOperands()) {
    auto q = cast<quant::UniformQuantizedType>(
        getElementTypeOrSelf(in.getType()));
    std::string why = nnapi_mlir::quantizedOutputError(
        nnapi_mlir::operationName(nnapi.getOperationCode()), out.isSigned(),
        float(q.getScale()), int32_t(q.getZeroPoint()), float(out.getScale()),
        int32_t(out.getZeroPoint()));
    if (!why.empty())
      return op->emitOpError() << why;
  }
  return success();
}

LogicalResult verifyArray(Operation *op, StringRef name, ArrayRef<int64_t> v,
                          size_t size, int64_t minValue) {
  if (v.size() != size)
    return op->emitOpError() << "'" << name << "' must have " << size
                             << " elements, got " << v.size();
  for (int64_t x : v)
    if (x < minValue)
      return op->emitOpError() << "'" << name << "' elements must be >= "
                               << minValue << ", got " << x;
  return success();
}

/// The result's shape is `expected`; a dynamic dimension on either side
/// matches any (the runtime computes it with the spec's rules).
LogicalResult verifyResultShape(Operation *op, ArrayRef<int64_t> expected,
                                unsigned result) {
  auto actual = tensorType(op->getResult(result)).getShape();
  if (actual.size() == expected.size() &&
      llvm::all_of(llvm::zip(actual, expected), [](auto pair) {
        auto [a, e] = pair;
        return a == e || ShapedType::isDynamic(a) || ShapedType::isDynamic(e);
      }))
    return success();
  InFlightDiagnostic diag = op->emitOpError("result ");
  if (op->getNumResults() > 1)
    diag << result << " ";
  diag << "shape [";
  llvm::interleaveComma(actual, diag);
  diag << "] does not match the expected [";
  llvm::interleaveComma(expected, diag);
  return diag << "]";
}

/// `axis` of an op on `v`'s tensor is in range: 0..rank-1, or from -rank
/// with `allowNegative` (counted from the end).
LogicalResult verifyAxis(Operation *op, Value v, int64_t axis,
                         bool allowNegative = false) {
  int64_t rank = tensorType(v).getRank();
  if (axis < (allowNegative ? -rank : 0) || axis >= rank)
    return op->emitOpError() << "axis " << axis << " is out of range for rank "
                             << rank;
  return success();
}

/// Scale and zero point of every quantized operand and result against
/// NNAPI's rules for its operand type (quantizationRule).
LogicalResult verifyQuantizationParameters(Operation *op) {
  SmallVector<Type> types(op->getOperandTypes());
  llvm::append_range(types, op->getResultTypes());
  for (Type t : types) {
    auto q = dyn_cast<quant::UniformQuantizedType>(getElementTypeOrSelf(t));
    std::optional<int32_t> code = getTensorOperandCode(t);
    if (!q || !code)
      continue;
    std::string why = nnapi_mlir::quantizationError(
        *code, float(q.getScale()), int32_t(q.getZeroPoint()));
    if (!why.empty())
      return op->emitOpError() << why;
  }
  return success();
}

/// A convolution's or fully connected operation's element types: one float
/// type throughout, or 8-bit quantized data (input and output of one
/// storage type) with an 8-bit filter of that type or per-channel along the
/// dimension the NNAPI layout's weights role gives (none for FULLY_CONNECTED),
/// and an i32 bias whose scale is input scale x filter scale (0, a plain i32,
/// with per-channel filters).
LogicalResult verifyElementTypes(Operation *op, Value input, Value filter,
                                 Value bias) {
  int64_t channelDim =
      nnapi_mlir::spec::weightsRole(
          cast<NNAPIOperationInterface>(op).getOperationCode())
          ->channelDim;
  auto in = dyn_cast<quant::UniformQuantizedType>(
      getElementTypeOrSelf(input.getType()));
  if (!in)
    return verifySameElementType(op);
  if (failed(verifyQuantizationParameters(op)))
    return failure();
  std::optional<int32_t> inCode = getTensorOperandCode(input.getType());
  if (!inCode || *inCode == ANEURALNETWORKS_TENSOR_INT32)
    return op->emitOpError("quantized input must be 8-bit, got ")
           << input.getType();
  if (getTensorOperandCode(op->getResult(0).getType()) != inCode)
    return op->emitOpError("quantized input and output must have one type, "
                           "got ")
           << input.getType() << " and " << op->getResult(0).getType();
  Type fe = getElementTypeOrSelf(filter.getType());
  Type be = getElementTypeOrSelf(bias.getType());
  float filterScale = 0;
  bool perChannel = false;
  if (auto axis = dyn_cast<quant::UniformQuantizedPerAxisType>(fe)) {
    perChannel = true;
    if (channelDim < 0)
      return op->emitOpError("per-channel weights are not allowed");
    if (axis.getQuantizedDimension() != channelDim)
      return op->emitOpError() << "per-channel filter scales must run along "
                                  "dimension "
                               << channelDim << ", not "
                               << axis.getQuantizedDimension();
    auto ft = cast<RankedTensorType>(filter.getType());
    if (int64_t(axis.getScales().size()) != ft.getDimSize(channelDim))
      return op->emitOpError()
             << "filter has " << axis.getScales().size() << " scales for "
             << ft.getDimSize(channelDim) << " channels";
    for (int64_t z : axis.getZeroPoints())
      if (z != 0)
        return op->emitOpError("per-channel filter zero points must be 0");
    for (double sc : axis.getScales())
      if (!(sc > 0) || !std::isfinite(sc))
        return op->emitOpError("per-channel filter scales must be positive "
                               "and finite");
  } else if (getTensorOperandCode(filter.getType()) == inCode) {
    filterScale = float(cast<quant::UniformQuantizedType>(fe).getScale());
  } else {
    return op->emitOpError("quantized data needs a filter of its type or "
                           "per-channel, got ")
           << filter.getType();
  }
  float biasScale = 0;
  if (auto qb = dyn_cast<quant::UniformQuantizedType>(be)) {
    if (getTensorOperandCode(bias.getType()) != ANEURALNETWORKS_TENSOR_INT32)
      return op->emitOpError("quantized data needs an i32 bias, got ")
             << bias.getType();
    if (qb.getZeroPoint() != 0)
      return op->emitOpError("a quantized bias must have zero point 0");
    biasScale = float(qb.getScale());
  } else if (!be.isSignlessInteger(32)) {
    return op->emitOpError("quantized data needs an i32 bias, got ")
           << bias.getType();
  }
  std::string why = nnapi_mlir::biasScaleError(float(in.getScale()),
                                               filterScale, biasScale,
                                               perChannel);
  if (!why.empty())
    return op->emitOpError() << why;
  return success();
}

/// Two broadcast operands (their ranks are the spec's: ADD/SUB/MUL/DIV take
/// rank 0 from feature level 3, MAXIMUM, MINIMUM, POW and PRELU rank 1 up).
/// One element type, or 8-bit quantized operands and result of one operand
/// type, each with its own scale and zero point.
LogicalResult verifyElementwiseTypes(Operation *op) {
  Type first = getElementTypeOrSelf(op->getOperand(0).getType());
  if (!isa<quant::QuantizedType>(first))
    return verifySameElementType(op);
  return verifyOne8BitType(op);
}

template <typename BinaryOp>
LogicalResult verifyBinary(BinaryOp op) {
  if (failed(verifyElementwiseTypes(op)) ||
      failed(verifyRank(op, op.getLhs(), "lhs")) ||
      failed(verifyRank(op, op.getRhs(), "rhs")))
    return failure();
  return success();
}

template <typename UnaryOp>
LogicalResult verifyUnary(UnaryOp op) {
  return verifyRank(op, op.getInput(), "input");
}

template <typename ConvOp>
LogicalResult verifyConvCommon(ConvOp op) {
  if (failed(verifyElementTypes(op, op.getInput(), op.getFilter(),
                                op.getBias())) ||
      failed(verifyRank(op, op.getInput(), "input")) ||
      failed(verifyRank(op, op.getFilter(), "filter")) ||
      failed(verifyRank(op, op.getBias(), "bias")))
    return failure();
  return success();
}
} // namespace mlir::nnapi::detail

LogicalResult AddOp::verify() { return verifyBinary(*this); }
LogicalResult SubOp::verify() { return verifyBinary(*this); }
LogicalResult MulOp::verify() { return verifyBinary(*this); }
LogicalResult DivOp::verify() { return verifyBinary(*this); }
LogicalResult MaximumOp::verify() { return verifyBinary(*this); }
LogicalResult MinimumOp::verify() { return verifyBinary(*this); }
LogicalResult PowOp::verify() { return verifyBinary(*this); }
LogicalResult PreluOp::verify() { return verifyBinary(*this); }
LogicalResult EluOp::verify() { return verifyUnary(*this); }
LogicalResult ReluOp::verify() { return verifyUnary(*this); }

/// Comparisons and logical operations: broadcast operands of rank 1 to 4;
/// the element types are the ops' type constraints (float in and bool out,
/// or bool throughout).
template <typename BoolOp>
static LogicalResult verifyBoolBinary(BoolOp op) {
  if (failed(verifyRank(op, op.getLhs(), "lhs")) ||
      failed(verifyRank(op, op.getRhs(), "rhs")))
    return failure();
  if (getElementTypeOrSelf(op.getLhs().getType()) !=
      getElementTypeOrSelf(op.getRhs().getType()))
    return op.emitOpError("operands must share one element type");
  return success();
}

LogicalResult EqualOp::verify() { return verifyBoolBinary(*this); }
LogicalResult NotEqualOp::verify() { return verifyBoolBinary(*this); }
LogicalResult GreaterOp::verify() { return verifyBoolBinary(*this); }
LogicalResult GreaterEqualOp::verify() { return verifyBoolBinary(*this); }
LogicalResult LogicalAndOp::verify() { return verifyBoolBinary(*this); }
LogicalResult LogicalOrOp::verify() { return verifyBoolBinary(*this); }
LogicalResult LogicalNotOp::verify() { return verifyUnary(*this); }

LogicalResult SelectOp::verify() {
  if (failed(verifyRank(*this, getCondition(), "condition")))
    return failure();
  Type t = getOnTrue().getType();
  if (getOnFalse().getType() != t || getOutput().getType() != t)
    return emitOpError("the two choices and the result must have one type");
  return success();
}
LogicalResult ExpOp::verify() { return verifyUnary(*this); }
LogicalResult LogOp::verify() { return verifyUnary(*this); }
LogicalResult SqrtOp::verify() { return verifyUnary(*this); }
LogicalResult RsqrtOp::verify() { return verifyUnary(*this); }
LogicalResult AbsOp::verify() { return verifyUnary(*this); }
LogicalResult NegOp::verify() { return verifyUnary(*this); }
LogicalResult FloorOp::verify() { return verifyUnary(*this); }
LogicalResult SinOp::verify() { return verifyUnary(*this); }
LogicalResult Relu1Op::verify() { return verifyUnary(*this); }
LogicalResult Relu6Op::verify() { return verifyUnary(*this); }
/// The unary operations that also take 8-bit quantized data.
template <typename UnaryOp>
static LogicalResult verifyQuantUnary(UnaryOp op) {
  if (failed(verifySameElementType(op)))
    return failure();
  return verifyUnary(op);
}

LogicalResult LogisticOp::verify() { return verifyQuantUnary(*this); }
LogicalResult TanhOp::verify() { return verifyQuantUnary(*this); }
LogicalResult HardSwishOp::verify() { return verifyQuantUnary(*this); }

// The convolutions' shapes (depths, bias sizes, groups, the window) are
// NNAPI's rules, checked by verifySpecShapes.
LogicalResult Conv2DOp::verify() { return verifyConvCommon(*this); }

LogicalResult DepthwiseConv2DOp::verify() {
  if (failed(verifyConvCommon(*this)))
    return failure();
  if (getDepthMultiplier() < 1)
    return emitOpError("depth_multiplier must be positive");
  return success();
}

LogicalResult GroupedConv2DOp::verify() { return verifyConvCommon(*this); }

LogicalResult TransposeConv2DOp::verify() { return verifyConvCommon(*this); }

LogicalResult QuantizeOp::verify() {
  if (!getTensorOperandCode(getType()) ||
      !isa<quant::UniformQuantizedType>(getElementTypeOrSelf(getType())) ||
      *getTensorOperandCode(getType()) == ANEURALNETWORKS_TENSOR_INT32)
    return emitOpError("result must be 8-bit quantized, got ") << getType();
  return verifyQuantizationParameters(*this);
}

LogicalResult DequantizeOp::verify() {
  if (!getTensorOperandCode(getInput().getType()) ||
      !isa<quant::QuantizedType>(getElementTypeOrSelf(getInput().getType())) ||
      *getTensorOperandCode(getInput().getType()) ==
          ANEURALNETWORKS_TENSOR_INT32)
    return emitOpError("input must be 8-bit quantized, got ")
           << getInput().getType();
  return verifyQuantizationParameters(*this);
}

LogicalResult FullyConnectedOp::verify() {
  if (failed(verifyElementTypes(*this, getInput(), getWeights(), getBias())) ||
      failed(verifyRank(*this, getInput(), "input")) ||
      failed(verifyRank(*this, getWeights(), "weights")) ||
      failed(verifyRank(*this, getBias(), "bias")))
    return failure();
  return success();
}

template <typename PoolOp>
static LogicalResult verifyPool(PoolOp op) {
  if (failed(verifySameElementType(op)) ||
      failed(verifyRank(op, op.getInput(), "input")) ||
      failed(verifyArray(op, "filter", op.getFilter(), 2, 1)))
    return failure();
  return success();
}

LogicalResult MaxPool2DOp::verify() { return verifyPool(*this); }
LogicalResult AveragePool2DOp::verify() { return verifyPool(*this); }

template <typename ResizeOp>
static LogicalResult verifyResize(ResizeOp op) {
  if (failed(verifySameElementType(op)) ||
      failed(verifyRank(op, op.getInput(), "input")))
    return failure();
  if (op.getAlignCorners() && op.getHalfPixelCenters())
    return op.emitOpError(
        "align_corners and half_pixel_centers exclude each other");
  auto out = tensorType(op.getOutput()).getShape();
  if (out.size() != 4)
    return op.emitOpError("the result must have rank 4");
  if (ShapedType::isDynamic(out[1]) || ShapedType::isDynamic(out[2]))
    return op.emitOpError("the result's height and width must be static "
                          "(NNAPI's output size operands)");
  return success();
}

LogicalResult ResizeBilinearOp::verify() { return verifyResize(*this); }
LogicalResult ResizeNearestNeighborOp::verify() { return verifyResize(*this); }

LogicalResult ReshapeOp::verify() {
  if (failed(verifySameElementType(*this)) ||
      failed(verifyRank(*this, getInput(), "input")) ||
      failed(verifyRank(*this, getOutput(), "result")))
    return failure();
  // NNAPI's shape operand has one -1 at most: the runtime infers it.
  RankedTensorType result = tensorType(getOutput());
  if (result.getNumDynamicDims() > 1)
    return emitOpError("result has more than one dynamic dimension");
  return success();
}

template <typename SoftmaxLikeOp>
static LogicalResult verifySoftmaxLike(SoftmaxLikeOp op) {
  if (failed(verifySameElementType(op)) ||
      failed(verifyRank(op, op.getInput(), "input")))
    return failure();
  if (!(op.getBeta().convertToFloat() > 0.0f))
    return op.emitOpError("beta must be positive");
  return verifyAxis(op, op.getInput(), static_cast<int32_t>(op.getAxis()),
                    /*allowNegative=*/true);
}

LogicalResult SoftmaxOp::verify() { return verifySoftmaxLike(*this); }
LogicalResult LogSoftmaxOp::verify() { return verifySoftmaxLike(*this); }


LogicalResult InstanceNormalizationOp::verify() {
  if (failed(verifyRank(*this, getInput(), "input")))
    return failure();
  if (!(getEpsilon().convertToFloat() > 0.0f))
    return emitOpError("epsilon must be positive");
  return success();
}

LogicalResult LocalResponseNormalizationOp::verify() {
  if (failed(verifyRank(*this, getInput(), "input")))
    return failure();
  if (failed(verifyAxis(*this, getInput(), static_cast<int32_t>(getAxis()))))
    return failure();
  if (static_cast<int32_t>(getRadius()) < 0)
    return emitOpError("radius must be non-negative");
  return success();
}

LogicalResult L2NormalizationOp::verify() {
  if (failed(verifyRank(*this, getInput(), "input")))
    return failure();
  return verifyAxis(*this, getInput(), static_cast<int32_t>(getAxis()));
}

LogicalResult ConcatenationOp::verify() {
  if (getInputs().empty())
    return emitOpError("needs at least one input");
  if (failed(verifySameElementType(*this)))
    return failure();
  // The inputs' shapes and the axis are NNAPI's rule (verifySpecShapes).
  return verifyRank(*this, getInputs().front(), "inputs");
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

LogicalResult TransposeOp::verify() {
  if (failed(verifySameElementType(*this)) ||
      failed(verifyRank(*this, getInput(), "input")))
    return failure();
  // The permutation is NNAPI's rule (verifySpecShapes).
  return success();
}

template <typename PadOp>
static LogicalResult verifyPad(PadOp op) {
  if (failed(verifySameElementType(op)) ||
      failed(verifyRank(op, op.getInput(), "input")))
    return failure();
  // The paddings are NNAPI's rule (verifySpecShapes).
  return success();
}

LogicalResult PadOp::verify() { return verifyPad(*this); }
LogicalResult PadV2Op::verify() { return verifyPad(*this); }

LogicalResult MirrorPadOp::verify() { return verifyPad(*this); }

// DEPTH_TO_SPACE, SPACE_TO_DEPTH, CHANNEL_SHUFFLE, REVERSE, GATHER, SLICE,
// STRIDED_SLICE, SPLIT and TILE: their sizes, axes and indices are NNAPI's
// rules (verifySpecShapes); the verifiers check types and ranks.
template <typename DataOp>
static LogicalResult verifyDataMovement(DataOp op) {
  if (failed(verifySameElementType(
          op, {op.getInput().getType(), op->getResult(0).getType()})))
    return failure();
  return verifyRank(op, op.getInput(), "input");
}

LogicalResult DepthToSpaceOp::verify() { return verifyDataMovement(*this); }
LogicalResult SpaceToDepthOp::verify() { return verifyDataMovement(*this); }
LogicalResult ChannelShuffleOp::verify() { return verifyDataMovement(*this); }
LogicalResult ReverseOp::verify() { return verifyDataMovement(*this); }

LogicalResult GatherOp::verify() {
  if (failed(verifyDataMovement(*this)))
    return failure();
  return verifyRank(*this, getIndices(), "indices");
}

LogicalResult SliceOp::verify() {
  if (failed(verifyDataMovement(*this)))
    return failure();
  // NNAPI's size operand is the result's shape (Operands.cpp).
  int64_t rank = tensorType(getInput()).getRank();
  if (tensorType(getOutput()).getRank() != rank)
    return emitOpError() << "result rank " << tensorType(getOutput()).getRank()
                         << " differs from the input rank " << rank;
  return verifyArray(*this, "begin", getBegin(),
                     tensorType(getInput()).getRank(), 0);
}

LogicalResult CastOp::verify() {
  return verifyRank(*this, getInput(), "input");
}

LogicalResult StridedSliceOp::verify() {
  if (failed(verifySameElementType(*this)) ||
      failed(verifyRank(*this, getInput(), "input")))
    return failure();
  auto in = tensorType(getInput()).getShape();
  size_t rank = in.size();
  if (failed(verifyArray(*this, "begin", getBegin(), rank, 0)) ||
      failed(verifyArray(*this, "end", getEnd(), rank, 1)) ||
      failed(verifyArray(*this, "strides", getStrides(), rank, 1)))
    return failure();
  // The dialect's form: ranges inside the input, positive strides, no masks.
  for (size_t d = 0; d < rank; ++d) {
    int64_t b = getBegin()[d], e = getEnd()[d];
    if (b >= e || e > in[d])
      return emitOpError() << "dimension " << d << ": the range [" << b << ", "
                           << e << ") is empty or leaves the input's " << in[d];
  }
  return success();
}

LogicalResult SplitOp::verify() {
  if (failed(verifyRank(*this, getInput(), "input")))
    return failure();
  if (getOutputs().empty())
    return emitOpError("needs at least one result");
  Type element = tensorType(getInput()).getElementType();
  for (auto [i, r] : llvm::enumerate(getOutputs()))
    if (tensorType(r).getElementType() != element)
      return emitOpError() << "result " << i
                           << " has another element type than the input";
  return success();
}

LogicalResult TileOp::verify() {
  if (failed(verifySameElementType(*this)) ||
      failed(verifyRank(*this, getInput(), "input")))
    return failure();
  auto in = tensorType(getInput()).getShape();
  auto out = tensorType(getOutput()).getShape();
  if (out.size() != in.size())
    return emitOpError() << "result rank " << out.size()
                         << " differs from the input rank " << in.size();
  // The multiples NNAPI's operand takes are the result's dimensions over the
  // input's (Operands.cpp).
  for (auto [d, sizes] : llvm::enumerate(llvm::zip(in, out))) {
    auto [i, o] = sizes;
    if (i < 1 || o < i || o % i != 0)
      return emitOpError() << "result dimension " << d << " (" << o
                           << ") is not a positive multiple of the input's ("
                           << i << ")";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions and matrix products
//===----------------------------------------------------------------------===//

template <typename ReduceOp>
static LogicalResult verifyReduce(ReduceOp op) {
  if (failed(verifySameElementType(op)) ||
      failed(verifyRank(op, op.getInput(), "input")))
    return failure();
  auto in = tensorType(op.getInput()).getShape();
  ArrayRef<int64_t> axes = op.getAxes();
  if (axes.empty() || axes.size() > in.size())
    return op.emitOpError() << "'axes' must have 1 to " << in.size()
                            << " elements, got " << axes.size();
  SmallVector<bool> reduced(in.size(), false);
  for (int64_t a : axes) {
    if (a < 0 || a >= int64_t(in.size()))
      return op.emitOpError() << "axis " << a << " is out of range for rank "
                              << in.size();
    if (reduced[a])
      return op.emitOpError() << "axis " << a << " appears twice";
    reduced[a] = true;
  }
  return success();
}

LogicalResult MeanOp::verify() { return verifyReduce(*this); }
LogicalResult ReduceSumOp::verify() { return verifyReduce(*this); }
LogicalResult ReduceMaxOp::verify() { return verifyReduce(*this); }
LogicalResult ReduceMinOp::verify() { return verifyReduce(*this); }
LogicalResult ReduceProdOp::verify() { return verifyReduce(*this); }
LogicalResult ReduceAnyOp::verify() { return verifyReduce(*this); }
LogicalResult ReduceAllOp::verify() { return verifyReduce(*this); }

template <typename ArgOp>
static LogicalResult verifyArg(ArgOp op) {
  if (failed(verifyRank(op, op.getInput(), "input")))
    return failure();
  return verifyAxis(op, op.getInput(), static_cast<int32_t>(op.getAxis()));
}

LogicalResult ArgMaxOp::verify() { return verifyArg(*this); }
LogicalResult ArgMinOp::verify() { return verifyArg(*this); }

LogicalResult BatchMatmulOp::verify() {
  if (failed(verifySameElementType(*this)) ||
      failed(verifyRank(*this, getLhs(), "lhs")) ||
      failed(verifyRank(*this, getRhs(), "rhs")))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// Custom assembly
//===----------------------------------------------------------------------===//

/// `T` when the result has the input's type, else `T -> U` (a quantized
/// result with other parameters).
static ParseResult parseResultType(OpAsmParser &parser, Type &input,
                                   Type &output) {
  if (parser.parseType(input))
    return failure();
  output = input;
  if (succeeded(parser.parseOptionalArrow()))
    return parser.parseType(output);
  return success();
}

static void printResultType(OpAsmPrinter &printer, Operation *, Type input,
                            Type output) {
  printer << input;
  if (output != input)
    printer << " -> " << output;
}

#define GET_OP_CLASSES
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIOps.cpp.inc"
