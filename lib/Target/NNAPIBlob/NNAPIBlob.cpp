//===- NNAPIBlob.cpp - nnapi dialect to NNAPI model blob ------------------===//

#include "nnapi-mlir/Target/NNAPIBlob/NNAPIBlob.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/Operands.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Quant/QuantOps.h"
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
  explicit BlobBuilder(bool relax) : relax(relax) {}
  FailureOr<blob::Model> build(func::FuncOp func);
  /// The model of a block whose arguments are its inputs and whose
  /// terminator's operands (func.return, nnapi.yield) its outputs.
  FailureOr<blob::Model> buildBlock(Block &body, Operation *where);

private:
  FailureOr<uint32_t> operandFor(Value v);
  FailureOr<int32_t> tensorCode(Operation *where, Type type);
  /// NNAPI has no rank-0 tensors (no dimensions means an unknown rank):
  /// one element is [1], which holds the same bytes. A dynamic dimension is
  /// NNAPI's unspecified 0, which the runtime fills in at each call.
  std::vector<uint32_t> dims(Type type) {
    std::vector<uint32_t> d;
    for (int64_t x : cast<RankedTensorType>(type).getShape())
      d.push_back(ShapedType::isDynamic(x) ? 0 : static_cast<uint32_t>(x));
    if (d.empty())
      d.push_back(1);
    return d;
  }
  LogicalResult addOperation(Operation *op);
  /// nnapi.if and nnapi.while: each region a referenced model.
  LogicalResult addControlFlow(Operation *op);
  LogicalResult addResults(Operation *op, std::vector<uint32_t> &out);

  bool relax;
  /// The blob operand of one of an op's NNAPI operands; `f16` when the op's
  /// data is float16 (its float parameters are FLOAT16 then).
  FailureOr<uint32_t> materialize(const NNAPIOperand &operand, bool f16);

  blob::Model model;
  DenseMap<Value, uint32_t> operands;
};

/// The scale and zero point (or per-channel scales) of a quantized type.
void setQuantization(blob::Operand &o, Type type) {
  Type e = getElementTypeOrSelf(type);
  if (auto q = dyn_cast<quant::UniformQuantizedType>(e)) {
    o.scale = float(q.getScale());
    o.zeroPoint = int32_t(q.getZeroPoint());
  } else if (auto axis = dyn_cast<quant::UniformQuantizedPerAxisType>(e)) {
    o.channelDim = uint32_t(axis.getQuantizedDimension());
    for (double s : axis.getScales())
      o.channelScales.push_back(float(s));
  }
}

FailureOr<int32_t> BlobBuilder::tensorCode(Operation *where, Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return where->emitError("NNAPI blob needs ranked tensors, got ") << type;
  if (std::optional<int32_t> code = getTensorOperandCode(type))
    return *code;
  return where->emitError("no NNAPI operand type for ") << type;
}

FailureOr<uint32_t> BlobBuilder::operandFor(Value v) {
  auto it = operands.find(v);
  if (it != operands.end())
    return it->second;
  // A storage cast is a view: the same operand, with the quantized type
  // (quant.scast of a constant's or an argument's integers, or back).
  Type viewType = v.getType();
  if (auto view = v.getDefiningOp<quant::StorageCastOp>()) {
    auto known = operands.find(view.getArg());
    if (known != operands.end()) {
      operands[v] = known->second;
      return known->second;
    }
    v = view.getArg();
  }
  auto constant = v.getDefiningOp<arith::ConstantOp>();
  if (!constant)
    return emitError(v.getLoc(), "value used before it is defined");
  auto attr = dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!attr)
    return constant.emitError("NNAPI constants must be dense tensors");
  FailureOr<int32_t> code = tensorCode(constant, viewType);
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
  setQuantization(model.operands[index], viewType);
  operands[v] = index;
  return index;
}

FailureOr<uint32_t> BlobBuilder::materialize(const NNAPIOperand &o,
                                              bool f16) {
  switch (o.kind) {
  case NNAPIOperand::Kind::Tensor:
    return operandFor(o.value);
  case NNAPIOperand::Kind::Int32:
    return model.addInt32(static_cast<int32_t>(o.integer));
  case NNAPIOperand::Kind::Bool:
    return model.addBool(o.integer != 0);
  case NNAPIOperand::Kind::Float: {
    if (!f16)
      return model.addFloat32(o.real);
    llvm::APFloat half(o.real);
    bool lost;
    half.convert(llvm::APFloat::IEEEhalf(), llvm::APFloat::rmNearestTiesToEven,
                 &lost);
    uint16_t bits = static_cast<uint16_t>(half.bitcastToAPInt().getZExtValue());
    return model.addConstant(ANEURALNETWORKS_FLOAT16, {}, &bits, sizeof(bits));
  }
  case NNAPIOperand::Kind::Omitted:
    // Typed like the operation's data, as NNAPI drivers expect.
    return model.addNoValue(f16 ? ANEURALNETWORKS_TENSOR_FLOAT16
                                : ANEURALNETWORKS_TENSOR_FLOAT32);
  case NNAPIOperand::Kind::Int32Tensor: {
    std::vector<int32_t> v;
    for (int64_t x : o.values)
      v.push_back(static_cast<int32_t>(x));
    std::vector<uint32_t> d = {static_cast<uint32_t>(v.size())};
    if (o.rows)
      d = {o.rows, static_cast<uint32_t>(v.size()) / o.rows};
    return model.addConstant(ANEURALNETWORKS_TENSOR_INT32, d, v.data(),
                             v.size() * sizeof(int32_t));
  }
  }
  llvm_unreachable("unknown operand kind");
}

LogicalResult BlobBuilder::addResults(Operation *op,
                                      std::vector<uint32_t> &out) {
  for (Value r : op->getResults()) {
    FailureOr<int32_t> code = tensorCode(op, r.getType());
    if (failed(code))
      return failure();
    uint32_t idx = model.addOperand(*code, dims(r.getType()));
    setQuantization(model.operands[idx], r.getType());
    operands[r] = idx;
    out.push_back(idx);
  }
  return success();
}

LogicalResult BlobBuilder::addControlFlow(Operation *op) {
  namespace spec = nnapi_mlir::spec;
  namespace role = nnapi_mlir::spec::role;
  FeatureLevelNeed need = isa<IfOp>(op) ? cast<IfOp>(op).getFeatureLevelNeed()
                                        : cast<WhileOp>(op).getFeatureLevelNeed();
  model.featureLevel = std::max(model.featureLevel, need.level);
  // The operands by role; the layout (Layouts.cpp) puts them in order.
  std::vector<spec::Assigned> assigned;
  std::vector<uint32_t> given;
  auto give = [&](spec::RoleName name, uint32_t index) {
    const blob::Operand &o = model.operands[index];
    spec::OperandDesc d;
    d.type = o.type;
    d.rank = uint32_t(o.dims.size());
    assigned.push_back({name, d});
    given.push_back(index);
  };
  auto giveValue = [&](spec::RoleName name, Value v) {
    FailureOr<uint32_t> index = operandFor(v);
    if (succeeded(index))
      give(name, *index);
    return index;
  };
  if (auto ifOp = dyn_cast<IfOp>(op))
    if (failed(giveValue(role::condition, ifOp.getCondition())))
      return failure();
  spec::RoleName models[2] = {
      isa<IfOp>(op) ? role::then_model : role::condition_model,
      isa<IfOp>(op) ? role::else_model : role::body_model};
  for (auto [k, region] : llvm::enumerate(op->getRegions())) {
    FailureOr<blob::Model> sub =
        BlobBuilder(relax).buildBlock(region.front(), op);
    if (failed(sub))
      return failure();
    give(models[k], model.addSubgraph(std::move(*sub)));
  }
  ValueRange inputs = isa<IfOp>(op) ? cast<IfOp>(op).getInputs()
                                    : cast<WhileOp>(op).getInputs();
  for (Value v : inputs)
    if (failed(giveValue(role::input, v)))
      return failure();
  std::vector<uint32_t> out;
  if (failed(addResults(op, out)))
    return failure();
  std::vector<spec::OperandDesc> outputs;
  for (uint32_t index : out)
    outputs.push_back({model.operands[index].type,
                       uint32_t(model.operands[index].dims.size())});
  int32_t code = isa<IfOp>(op) ? IfOp::kOperationCode : WhileOp::kOperationCode;
  std::vector<size_t> order;
  spec::Match match;
  std::string error;
  if (!spec::assemble(code, assigned, outputs, order, match, error))
    return op->emitError("the NNAPI spec refuses this operation: ") << error;
  std::vector<uint32_t> in;
  for (size_t i : order)
    in.push_back(given[i]);
  model.operations.push_back({code, in, out});
  return success();
}

LogicalResult BlobBuilder::addOperation(Operation *op) {
  if (isa<IfOp, WhileOp>(op))
    return addControlFlow(op);
  auto iface = dyn_cast<NNAPIOperationInterface>(op);
  if (!iface)
    return op->emitError() << "'" << op->getName()
                           << "' cannot be serialized into an NNAPI model";
  // The operands in the order of the NNAPI spec's layout, optional groups
  // that hold only defaults left out; the level is that of this order.
  SmallVector<NNAPIOperand> ordered;
  nnapi_mlir::spec::Match match;
  std::string error;
  if (failed(orderNNAPIOperands(op, ordered, match, error)))
    return op->emitError("cannot be serialized into an NNAPI model: ")
           << error;
  model.featureLevel = std::max(model.featureLevel, iface.getMinFeatureLevel());
  bool f16 = match.dataType == ANEURALNETWORKS_TENSOR_FLOAT16;
  std::vector<uint32_t> in;
  for (const NNAPIOperand &o : ordered) {
    FailureOr<uint32_t> idx = materialize(o, f16);
    if (failed(idx))
      return failure();
    in.push_back(*idx);
  }
  std::vector<uint32_t> out;
  if (failed(addResults(op, out)))
    return failure();
  model.operations.push_back({iface.getOperationCode(), in, out});
  return success();
}

FailureOr<blob::Model> BlobBuilder::build(func::FuncOp func) {
  if (!func.getBody().hasOneBlock())
    return func.emitError("NNAPI partition must have exactly one block");
  return buildBlock(func.getBody().front(), func);
}

FailureOr<blob::Model> BlobBuilder::buildBlock(Block &body, Operation *where) {
  model.relaxFloat32ToFloat16 = relax;
  for (BlockArgument arg : body.getArguments()) {
    // An argument the partition views as quantized (quant.scast) is an
    // input of the quantized type.
    Type type = arg.getType();
    SmallVector<Value> views;
    for (Operation *user : arg.getUsers())
      if (auto view = dyn_cast<quant::StorageCastOp>(user)) {
        if (!views.empty() && views.front().getType() != view.getType())
          return view.emitError("an NNAPI partition input viewed as two "
                                "quantized types");
        views.push_back(view.getResult());
        type = view.getType();
      }
    FailureOr<int32_t> code = tensorCode(where, type);
    if (failed(code))
      return failure();
    uint32_t idx =
        model.addOperand(*code, dims(type), blob::Lifetime::ModelInput);
    setQuantization(model.operands[idx], type);
    operands[arg] = idx;
    for (Value view : views)
      operands[view] = idx;
    model.inputs.push_back(idx);
  }
  for (Operation &op : body) {
    if (isa<arith::ConstantOp>(op))
      continue; // materialized where used
    if (auto view = dyn_cast<quant::StorageCastOp>(op)) {
      // A view of an operation's result (or of an input, mapped above); a
      // constant's is materialized where used. A quantized view must say
      // what the operand is: one operand has one type.
      auto known = operands.find(view.getArg());
      if (known == operands.end())
        continue;
      if (isa<quant::QuantizedType>(
              getElementTypeOrSelf(view.getResult().getType()))) {
        blob::Operand expected;
        FailureOr<int32_t> code = tensorCode(view, view.getType());
        if (failed(code))
          return failure();
        setQuantization(expected, view.getType());
        const blob::Operand &actual = model.operands[known->second];
        if (actual.type != *code || actual.scale != expected.scale ||
            actual.zeroPoint != expected.zeroPoint ||
            actual.channelScales != expected.channelScales)
          return view.emitError("views an NNAPI operand of another type or "
                                "quantization");
      }
      operands[view.getResult()] = known->second;
      continue;
    }
    if (isa<func::ReturnOp, YieldOp>(op)) {
      const char *what = isa<func::ReturnOp>(op) ? "an NNAPI partition"
                                                 : "a referenced NNAPI model";
      for (Value v : op.getOperands()) {
        auto it = operands.find(v);
        Operation *def = v.getDefiningOp();
        if (auto view = dyn_cast_or_null<quant::StorageCastOp>(def))
          def = view.getArg().getDefiningOp();
        if (it == operands.end() || !def || isa<arith::ConstantOp>(def))
          return op.emitError() << what
                                << " may only return values computed by its "
                                   "operations";
        blob::Operand &operand = model.operands[it->second];
        if (operand.lifetime == blob::Lifetime::ModelOutput)
          return op.emitError() << what << " returns a value twice";
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

/// int8 data (TENSOR_QUANT8_ASYMM_SIGNED, feature level 4) for a target
/// below level 4: written as TENSOR_QUANT8_ASYMM with zero point + 128 and
/// constants' top bit flipped (the same values), the model flagged so that
/// the runtime flips its int8 inputs and outputs (as the TFLite delegate
/// converts them). Otherwise the model needs level 4 for its int8 data.
static void finishInt8Data(blob::Model &model, unsigned target) {
  constexpr int32_t kSigned = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED;
  bool hasSigned = llvm::any_of(model.operands, [](const blob::Operand &o) {
    return o.type == kSigned;
  });
  if (!hasSigned)
    return;
  if (target >= 4 || model.featureLevel >= 4 || !model.subgraphs.empty()) {
    model.featureLevel = std::max(model.featureLevel, 4u);
    return;
  }
  for (blob::Operand &o : model.operands) {
    if (o.type != kSigned)
      continue;
    o.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
    o.zeroPoint += 128;
    if (o.lifetime == blob::Lifetime::Constant)
      for (uint64_t i = 0; i < o.valueLength; ++i)
        model.data[o.valueOffset + i] ^= 0x80;
  }
  model.int8AsUint8 = true;
}

FailureOr<blob::Model> mlir::nnapi::buildBlobModel(func::FuncOp func) {
  FailureOr<blob::Model> model =
      BlobBuilder(func->hasAttr(NNAPIDialect::kRelaxAttrName)).build(func);
  if (failed(model))
    return failure();
  unsigned target = kMaxFeatureLevel;
  if (auto level =
          func->getAttrOfType<IntegerAttr>(NNAPIDialect::kFeatureLevelAttrName))
    target = unsigned(level.getInt());
  finishInt8Data(*model, target);
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
        // Quantized types may appear before the first nnapi op loads the
        // quant dialect (in the function's signature).
        registry.insert<NNAPIDialect, func::FuncDialect, arith::ArithDialect,
                        quant::QuantizationDialect>();
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
