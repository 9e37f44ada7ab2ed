//===- NNAPIBlob.cpp - nnapi dialect to NNAPI model blob ------------------===//

#include "nnapi-mlir/Target/NNAPIBlob/NNAPIBlob.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Runtime/NeuralNetworks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::nnapi;

namespace {

class BlobBuilder {
public:
  FailureOr<blob::Model> build(func::FuncOp func);

private:
  FailureOr<uint32_t> operandFor(Value v);
  FailureOr<int32_t> tensorCode(Operation *where, Type type);
  std::vector<uint32_t> dims(Type type) {
    std::vector<uint32_t> d;
    for (int64_t x : cast<RankedTensorType>(type).getShape())
      d.push_back(static_cast<uint32_t>(x));
    return d;
  }
  LogicalResult addOperation(Operation *op);
  uint32_t fuse(Operation *op) {
    auto attr = op->getAttrOfType<FuseCodeAttr>("fused_activation");
    return model.addInt32(attr ? static_cast<int32_t>(attr.getValue()) : 0);
  }
  void window(std::vector<uint32_t> &in, ArrayRef<int64_t> padding,
              ArrayRef<int64_t> strides) {
    for (int64_t p : padding)
      in.push_back(model.addInt32(static_cast<int32_t>(p)));
    for (int64_t s : strides)
      in.push_back(model.addInt32(static_cast<int32_t>(s)));
  }
  void dilations(std::vector<uint32_t> &in, ArrayRef<int64_t> d) {
    if (llvm::all_of(d, [](int64_t v) { return v == 1; }))
      return; // the feature level 1 form has no layout/dilation operands
    in.push_back(model.addBool(false)); // NHWC
    for (int64_t v : d)
      in.push_back(model.addInt32(static_cast<int32_t>(v)));
  }

  /// A constant 1-D TENSOR_INT32 operand (shapes, axes, permutations...),
  /// or [rows, values.size() / rows] when `rows` is given.
  uint32_t int32Tensor(ArrayRef<int64_t> values, uint32_t rows = 0) {
    std::vector<int32_t> v;
    for (int64_t x : values)
      v.push_back(static_cast<int32_t>(x));
    std::vector<uint32_t> d = {static_cast<uint32_t>(v.size())};
    if (rows)
      d = {rows, static_cast<uint32_t>(v.size()) / rows};
    return model.addConstant(ANEURALNETWORKS_TENSOR_INT32, d, v.data(),
                             v.size() * sizeof(int32_t));
  }
  /// A FLOAT32 scalar, or FLOAT16 when the operation's tensors are float16
  /// (NNAPI's rule for scalar parameters of float operations).
  uint32_t floatScalar(Type tensorType, float value) {
    if (!getElementTypeOrSelf(tensorType).isF16())
      return model.addFloat32(value);
    llvm::APFloat half(value);
    bool lost;
    half.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
                 &lost);
    uint16_t bits = static_cast<uint16_t>(half.bitcastToAPInt().getZExtValue());
    return model.addConstant(ANEURALNETWORKS_FLOAT16, {}, &bits, sizeof(bits));
  }
  template <typename ReduceOp>
  void reduce(std::vector<uint32_t> &in, ReduceOp op) {
    in.push_back(int32Tensor(op.getAxes()));
    // MEAN's keep_dims is an INT32; the REDUCE_* operations' a BOOL.
    if constexpr (std::is_same_v<ReduceOp, MeanOp>)
      in.push_back(model.addInt32(op.getKeepDims() ? 1 : 0));
    else
      in.push_back(model.addBool(op.getKeepDims()));
  }

  blob::Model model;
  DenseMap<Value, uint32_t> operands;
};

FailureOr<int32_t> BlobBuilder::tensorCode(Operation *where, Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return where->emitError("NNAPI blob needs static-shaped tensors, got ")
           << type;
  Type e = tensor.getElementType();
  if (e.isF32())
    return ANEURALNETWORKS_TENSOR_FLOAT32;
  if (e.isF16())
    return ANEURALNETWORKS_TENSOR_FLOAT16;
  if (e.isSignlessInteger(32))
    return ANEURALNETWORKS_TENSOR_INT32;
  if (e.isSignlessInteger(1))
    return ANEURALNETWORKS_TENSOR_BOOL8;
  return where->emitError("no NNAPI operand type for ") << type;
}

FailureOr<uint32_t> BlobBuilder::operandFor(Value v) {
  auto it = operands.find(v);
  if (it != operands.end())
    return it->second;
  auto constant = v.getDefiningOp<arith::ConstantOp>();
  if (!constant)
    return emitError(v.getLoc(), "value used before it is defined");
  auto attr = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!attr)
    return constant.emitError("NNAPI constants must be dense tensors");
  FailureOr<int32_t> code = tensorCode(constant, attr.getType());
  if (failed(code))
    return failure();
  ArrayRef<char> raw = attr.getRawData();
  size_t elementBytes = blob::elementSize(*code);
  size_t count = attr.getNumElements();
  std::vector<char> bytes;
  if (*code == ANEURALNETWORKS_TENSOR_BOOL8) {
    // MLIR packs i1 constants into bits; TENSOR_BOOL8 has a byte each.
    for (bool b : attr.getValues<bool>())
      bytes.push_back(b ? 1 : 0);
  } else if (attr.isSplat()) {
    bytes.reserve(count * elementBytes);
    for (size_t i = 0; i < count; ++i)
      bytes.insert(bytes.end(), raw.begin(), raw.begin() + elementBytes);
  } else {
    bytes.assign(raw.begin(), raw.end());
  }
  uint32_t index =
      model.addConstant(*code, dims(attr.getType()), bytes.data(), bytes.size());
  operands[v] = index;
  return index;
}

LogicalResult BlobBuilder::addOperation(Operation *op) {
  auto iface = dyn_cast<NNAPIOperationInterface>(op);
  if (!iface)
    return op->emitError() << "'" << op->getName()
                           << "' cannot be serialized into an NNAPI model";
  model.featureLevel = std::max(model.featureLevel, iface.getMinFeatureLevel());
  std::vector<uint32_t> in;
  for (Value v : op->getOperands()) {
    FailureOr<uint32_t> idx = operandFor(v);
    if (failed(idx))
      return failure();
    in.push_back(*idx);
  }
  // NNAPI's scalar operands, in the order of the NNAPI operation signature.
  LogicalResult ok = success();
  TypeSwitch<Operation *>(op)
      .Case<AddOp, SubOp, MulOp, DivOp, FullyConnectedOp>(
          [&](Operation *op) { in.push_back(fuse(op)); })
      .Case([&](Conv2DOp conv) {
        window(in, conv.getPadding(), conv.getStrides());
        in.push_back(fuse(conv));
        dilations(in, conv.getDilations());
      })
      .Case([&](DepthwiseConv2DOp conv) {
        window(in, conv.getPadding(), conv.getStrides());
        in.push_back(model.addInt32(
            static_cast<int32_t>(conv.getDepthMultiplier())));
        in.push_back(fuse(conv));
        dilations(in, conv.getDilations());
      })
      .Case([&](GroupedConv2DOp conv) {
        window(in, conv.getPadding(), conv.getStrides());
        in.push_back(
            model.addInt32(static_cast<int32_t>(conv.getNumGroups())));
        in.push_back(fuse(conv));
        in.push_back(model.addBool(false)); // NHWC, not optional here
      })
      .Case([&](TransposeConv2DOp conv) {
        window(in, conv.getPadding(), conv.getStrides());
        in.push_back(fuse(conv));
        in.push_back(model.addBool(false)); // NHWC, not optional here
      })
      .Case<ResizeBilinearOp, ResizeNearestNeighborOp>([&](auto resize) {
        ArrayRef<int64_t> out = resize.getOutput().getType().getShape();
        in.push_back(model.addInt32(static_cast<int32_t>(out[2])));
        in.push_back(model.addInt32(static_cast<int32_t>(out[1])));
        // RESIZE_NEAREST_NEIGHBOR's layout operand is mandatory; the flags
        // (and, for RESIZE_BILINEAR, the layout before them) only when set.
        bool flags = resize.getAlignCorners() || resize.getHalfPixelCenters();
        if (flags || isa<ResizeNearestNeighborOp>(resize))
          in.push_back(model.addBool(false)); // NHWC
        if (flags) {
          in.push_back(model.addBool(resize.getAlignCorners()));
          in.push_back(model.addBool(resize.getHalfPixelCenters()));
        }
      })
      .Case<MaxPool2DOp, AveragePool2DOp>([&](auto pool) {
        window(in, pool.getPadding(), pool.getStrides());
        for (int64_t f : pool.getFilter())
          in.push_back(model.addInt32(static_cast<int32_t>(f)));
        in.push_back(fuse(pool));
      })
      .Case([&](ReshapeOp reshape) {
        in.push_back(
            int32Tensor(reshape.getOutput().getType().getShape()));
      })
      .Case([&](SoftmaxOp softmax) {
        auto type = softmax.getInput().getType();
        in.push_back(floatScalar(type, softmax.getBeta().convertToFloat()));
        if (softmax.needsAxisOperand()) {
          int64_t axis = static_cast<int32_t>(softmax.getAxis());
          if (axis < 0)
            axis += type.getRank();
          in.push_back(model.addInt32(static_cast<int32_t>(axis)));
        }
      })
      .Case([&](LogSoftmaxOp op) {
        auto type = op.getInput().getType();
        in.push_back(floatScalar(type, op.getBeta().convertToFloat()));
        int64_t axis = static_cast<int32_t>(op.getAxis());
        in.push_back(model.addInt32(static_cast<int32_t>(
            axis < 0 ? axis + type.getRank() : axis)));
      })
      .Case([&](InstanceNormalizationOp op) {
        auto type = op.getInput().getType();
        for (APFloat v : {op.getGamma(), op.getBeta(), op.getEpsilon()})
          in.push_back(floatScalar(type, v.convertToFloat()));
        in.push_back(model.addBool(op.getNchw()));
      })
      .Case([&](LocalResponseNormalizationOp op) {
        auto type = op.getInput().getType();
        in.push_back(model.addInt32(static_cast<int32_t>(op.getRadius())));
        for (APFloat v : {op.getBias(), op.getAlpha(), op.getBeta()})
          in.push_back(floatScalar(type, v.convertToFloat()));
        if (op.needsAxisOperand())
          in.push_back(model.addInt32(static_cast<int32_t>(op.getAxis())));
      })
      .Case([&](L2NormalizationOp op) {
        if (op.needsAxisOperand())
          in.push_back(model.addInt32(static_cast<int32_t>(op.getAxis())));
      })
      .Case([&](EluOp op) {
        in.push_back(floatScalar(op.getInput().getType(),
                                 op.getAlpha().convertToFloat()));
      })
      .Case([&](TransposeOp op) { in.push_back(int32Tensor(op.getPerm())); })
      .Case([&](PadOp op) {
        in.push_back(int32Tensor(op.getPadding(),
                                 op.getInput().getType().getRank()));
      })
      .Case([&](PadV2Op op) {
        in.push_back(int32Tensor(op.getPadding(),
                                 op.getInput().getType().getRank()));
        in.push_back(floatScalar(op.getInput().getType(),
                                 op.getValue().convertToFloat()));
      })
      .Case([&](MirrorPadOp op) {
        in.push_back(int32Tensor(op.getPadding(),
                                 op.getInput().getType().getRank()));
        in.push_back(model.addInt32(op.getSymmetric() ? 1 : 0)); // REFLECT 0
      })
      .Case<DepthToSpaceOp, SpaceToDepthOp>([&](auto op) {
        in.push_back(
            model.addInt32(static_cast<int32_t>(op.getBlockSize())));
        if (op.getNchw())
          in.push_back(model.addBool(true)); // the level 1 form is NHWC
      })
      .Case([&](ChannelShuffleOp op) {
        in.push_back(model.addInt32(static_cast<int32_t>(op.getNumGroups())));
        in.push_back(model.addInt32(static_cast<int32_t>(op.getAxis())));
      })
      .Case([&](ReverseOp op) {
        in.push_back(int32Tensor({int64_t(op.getAxis())}));
      })
      .Case([&](GatherOp op) {
        // GATHER's operands: input, axis, indices.
        in.insert(in.begin() + 1,
                  model.addInt32(static_cast<int32_t>(op.getAxis())));
      })
      .Case([&](SliceOp op) {
        in.push_back(int32Tensor(op.getBegin()));
        in.push_back(int32Tensor(op.getOutput().getType().getShape()));
      })
      .Case([&](StridedSliceOp op) {
        in.push_back(int32Tensor(op.getBegin()));
        in.push_back(int32Tensor(op.getEnd()));
        in.push_back(int32Tensor(op.getStrides()));
        for (int i = 0; i < 3; ++i) // begin, end and shrink-axis masks
          in.push_back(model.addInt32(0));
      })
      .Case([&](SplitOp op) {
        in.push_back(model.addInt32(static_cast<int32_t>(op.getAxis())));
        in.push_back(
            model.addInt32(static_cast<int32_t>(op.getOutputs().size())));
      })
      .Case([&](TileOp op) { in.push_back(int32Tensor(op.getMultiples())); })
      .Case([&](MeanOp op) { reduce(in, op); })
      .Case([&](ReduceSumOp op) { reduce(in, op); })
      .Case([&](ReduceMaxOp op) { reduce(in, op); })
      .Case([&](ReduceMinOp op) { reduce(in, op); })
      .Case([&](ReduceProdOp op) { reduce(in, op); })
      .Case([&](ReduceAnyOp op) { reduce(in, op); })
      .Case([&](ReduceAllOp op) { reduce(in, op); })
      .Case<ArgMaxOp, ArgMinOp>([&](auto op) {
        in.push_back(model.addInt32(static_cast<int32_t>(op.getAxis())));
      })
      .Case([&](BatchMatmulOp op) {
        in.push_back(model.addBool(op.getAdjX()));
        in.push_back(model.addBool(op.getAdjY()));
      })
      .Case([&](ConcatenationOp concat) {
        in.push_back(
            model.addInt32(static_cast<int32_t>(concat.getAxis())));
      })
      .Default([](Operation *) {});
  if (failed(ok))
    return failure();
  std::vector<uint32_t> out;
  for (Value r : op->getResults()) {
    FailureOr<int32_t> code = tensorCode(op, r.getType());
    if (failed(code))
      return failure();
    uint32_t idx = model.addOperand(*code, dims(r.getType()));
    operands[r] = idx;
    out.push_back(idx);
  }
  model.operations.push_back({iface.getOperationCode(), in, out});
  return success();
}

FailureOr<blob::Model> BlobBuilder::build(func::FuncOp func) {
  if (!func.getBody().hasOneBlock())
    return func.emitError("NNAPI partition must have exactly one block");
  Block &body = func.getBody().front();
  for (BlockArgument arg : body.getArguments()) {
    FailureOr<int32_t> code = tensorCode(func, arg.getType());
    if (failed(code))
      return failure();
    uint32_t idx =
        model.addOperand(*code, dims(arg.getType()), blob::Lifetime::ModelInput);
    operands[arg] = idx;
    model.inputs.push_back(idx);
  }
  for (Operation &op : body) {
    if (isa<arith::ConstantOp>(op))
      continue; // materialized where used
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (Value v : ret.getOperands()) {
        auto it = operands.find(v);
        Operation *def = v.getDefiningOp();
        if (it == operands.end() || !def || isa<arith::ConstantOp>(def))
          return ret.emitError("an NNAPI partition may only return values "
                               "computed by its operations");
        blob::Operand &operand = model.operands[it->second];
        if (operand.lifetime == blob::Lifetime::ModelOutput)
          return ret.emitError("an NNAPI partition returns a value twice");
        operand.lifetime = blob::Lifetime::ModelOutput;
        model.outputs.push_back(it->second);
      }
      continue;
    }
    if (failed(addOperation(&op)))
      return failure();
  }
  return std::move(model);
}

} // namespace

FailureOr<blob::Model> mlir::nnapi::buildBlobModel(func::FuncOp func) {
  FailureOr<blob::Model> model = BlobBuilder().build(func);
  if (succeeded(model))
    model->relaxFloat32ToFloat16 =
        func->hasAttr(NNAPIDialect::kRelaxAttrName);
  return model;
}

FailureOr<std::vector<uint8_t>> mlir::nnapi::serializeToBlob(func::FuncOp func) {
  FailureOr<blob::Model> model = buildBlobModel(func);
  if (failed(model))
    return failure();
  return blob::write(*model);
}

void mlir::nnapi::registerNNAPIBlobTranslations() {
  TranslateFromMLIRRegistration serialize(
      "serialize-nnapi-blob",
      "serialize the one nnapi.partition function (or the only function) "
      "of a module into an NNAPI model blob",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        auto module = cast<ModuleOp>(op);
        func::FuncOp target;
        unsigned count = 0;
        for (auto func : module.getOps<func::FuncOp>()) {
          if (func.isExternal())
            continue;
          if (func->hasAttr(NNAPIDialect::kPartitionAttrName) || !target)
            target = func;
          ++count;
        }
        if (!target)
          return module.emitError("no function to serialize");
        if (count > 1 && !target->hasAttr(NNAPIDialect::kPartitionAttrName))
          return module.emitError("several functions and none is marked "
                                  "nnapi.partition");
        FailureOr<std::vector<uint8_t>> bytes = serializeToBlob(target);
        if (failed(bytes))
          return failure();
        os.write(reinterpret_cast<const char *>(bytes->data()), bytes->size());
        return success();
      },
      [](DialectRegistry &registry) {
        registry.insert<NNAPIDialect, func::FuncDialect, arith::ArithDialect>();
      });

  TranslateRegistration dump(
      "dump-nnapi-blob", "print an NNAPI model blob as text",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr, raw_ostream &os,
         MLIRContext *context) -> LogicalResult {
        const llvm::MemoryBuffer *buffer =
            sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID());
        blob::Model model;
        std::string error;
        if (!blob::read(reinterpret_cast<const uint8_t *>(
                            buffer->getBufferStart()),
                        buffer->getBufferSize(), model, error)) {
          llvm::errs() << "error: " << error << "\n";
          return failure();
        }
        os << blob::dump(model);
        return success();
      });
}
