//===- Operands.cpp - nnapi ops' NNAPI operands by role -------------------===//
//
// Which attribute of an nnapi op becomes which NNAPI operand, by the role
// names of the NNAPI spec; the spec orders them (Operands.h).
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Dialect/NNAPI/IR/Operands.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"
#include "nnapi-mlir/NNAPI/NeuralNetworks.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::nnapi;
namespace spec = nnapi_mlir::spec;
namespace role = nnapi_mlir::spec::role;

std::optional<int32_t> mlir::nnapi::getTensorOperandCode(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return std::nullopt;
  Type e = tensor.getElementType();
  if (auto q = dyn_cast<quant::QuantizedType>(e)) {
    unsigned bits = q.getStorageTypeIntegralWidth();
    if (isa<quant::UniformQuantizedPerAxisType>(q))
      return bits == 8 && q.isSigned()
                 ? std::optional<int32_t>(
                       ANEURALNETWORKS_TENSOR_QUANT8_SYMM_PER_CHANNEL)
                 : std::nullopt;
    if (!isa<quant::UniformQuantizedType>(q))
      return std::nullopt;
    if (bits == 8)
      return q.isSigned() ? ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED
                          : ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
    if (bits == 32 && q.isSigned())
      return ANEURALNETWORKS_TENSOR_INT32;
    return std::nullopt;
  }
  if (e.isF32())
    return ANEURALNETWORKS_TENSOR_FLOAT32;
  if (e.isF16())
    return ANEURALNETWORKS_TENSOR_FLOAT16;
  if (e.isSignlessInteger(32))
    return ANEURALNETWORKS_TENSOR_INT32;
  if (e.isSignlessInteger(1))
    return ANEURALNETWORKS_TENSOR_BOOL8;
  return std::nullopt;
}

namespace {

/// Collects an op's operands by role.
class Collector {
public:
  explicit Collector(SmallVector<NNAPIOperand> &out) : out(out) {}

  void tensor(spec::RoleName role, Value v) {
    NNAPIOperand o{role};
    o.value = v;
    out.push_back(std::move(o));
  }
  /// An INT32 scalar. ODS's I32Attr getters return uint32_t: the value is
  /// read back as the int32 NNAPI stores (-1, not 4294967295).
  void int32(spec::RoleName role, int64_t v) {
    NNAPIOperand o{role, NNAPIOperand::Kind::Int32};
    o.integer = static_cast<int32_t>(v);
    out.push_back(std::move(o));
  }
  void boolean(spec::RoleName role, bool v) {
    NNAPIOperand o{role, NNAPIOperand::Kind::Bool};
    o.integer = v;
    out.push_back(std::move(o));
  }
  void real(spec::RoleName role, const APFloat &v) {
    NNAPIOperand o{role, NNAPIOperand::Kind::Float};
    o.real = v.convertToFloat();
    out.push_back(std::move(o));
  }
  void int32s(spec::RoleName role, ArrayRef<int64_t> values,
              uint32_t rows = 0) {
    NNAPIOperand o{role, NNAPIOperand::Kind::Int32Tensor};
    o.values.assign(values.begin(), values.end());
    o.rows = rows;
    out.push_back(std::move(o));
  }
  void fuse(Operation *op) {
    auto attr = op->getAttrOfType<FuseCodeAttr>("fused_activation");
    int32(role::fuse, attr ? static_cast<int64_t>(attr.getValue()) : 0);
  }
  /// Padding [left, right, top, bottom] and strides [w, h].
  void window(ArrayRef<int64_t> padding, ArrayRef<int64_t> strides) {
    const spec::RoleName pads[] = {role::pad_left, role::pad_right,
                                   role::pad_top, role::pad_bottom};
    for (size_t i = 0; i < 4; ++i)
      int32(pads[i], padding[i]);
    int32(role::stride_w, strides[0]);
    int32(role::stride_h, strides[1]);
  }
  /// The NHWC flag and dilations [w, h] (the spec's optional groups: left
  /// out of the blob when they hold NNAPI's defaults).
  void layoutAndDilations(ArrayRef<int64_t> d) {
    boolean(role::layout, false);
    int32(role::dilation_w, d[0]);
    int32(role::dilation_h, d[1]);
  }
  template <typename ReduceOp> void reduce(ReduceOp op) {
    int32s(role::axes, op.getAxes());
    // MEAN's keep_dims is an INT32; the REDUCE_* operations' a BOOL.
    if constexpr (std::is_same_v<ReduceOp, MeanOp>)
      int32(role::keep_dims, op.getKeepDims() ? 1 : 0);
    else
      boolean(role::keep_dims, op.getKeepDims());
  }

private:
  SmallVector<NNAPIOperand> &out;
};

/// The role of the `index`th of `roles`' operands, a variadic role standing
/// for all the operands from its position on.
const spec::Role *roleAt(ArrayRef<const spec::Role *> roles, size_t index) {
  for (size_t i = 0; i < roles.size(); ++i)
    if (i == index || (roles[i]->variadic && i <= index))
      return roles[i];
  return nullptr;
}

/// The sizes of an op's operand groups when it has optional operands
/// (AttrSizedOperandSegments): group k is value role k, present or not.
std::optional<ArrayRef<int32_t>> operandSegments(Operation *op) {
  if (!op->hasTrait<OpTrait::AttrSizedOperandSegments>())
    return std::nullopt;
  std::optional<Attribute> attr = op->getInherentAttr("operandSegmentSizes");
  auto sizes = attr ? dyn_cast_or_null<DenseI32ArrayAttr>(*attr) : nullptr;
  if (!sizes)
    return std::nullopt;
  return sizes.asArrayRef();
}

/// The value role of each of `op`'s operands.
SmallVector<const spec::Role *> operandRoles(Operation *op, int32_t code) {
  SmallVector<const spec::Role *> roles = getValueRoles(code), result;
  if (std::optional<ArrayRef<int32_t>> segments = operandSegments(op)) {
    for (auto [k, size] : llvm::enumerate(*segments))
      for (int32_t i = 0; i < size; ++i)
        result.push_back(k < roles.size() ? roles[k] : nullptr);
    return result;
  }
  for (size_t i = 0; i < op->getNumOperands(); ++i)
    result.push_back(roleAt(roles, i));
  return result;
}

} // namespace

SmallVector<const spec::Role *> mlir::nnapi::getValueRoles(int32_t code) {
  SmallVector<const spec::Role *> roles;
  if (const spec::Layout *layout = spec::lookupLayout(code))
    for (const spec::Role &r : layout->forms.front().inputs)
      if (r.group == 0 && !r.constant && r.accepts != spec::Accepts::Model)
        roles.push_back(&r);
  return roles;
}

const spec::Role *mlir::nnapi::getSpecRole(Operation *op, Value v) {
  auto iface = dyn_cast<NNAPIOperationInterface>(op);
  if (!iface)
    return nullptr;
  auto result = dyn_cast<OpResult>(v);
  if (result && result.getOwner() == op) {
    const spec::Layout *layout = spec::lookupLayout(iface.getOperationCode());
    if (!layout)
      return nullptr;
    SmallVector<const spec::Role *> outputs;
    for (const spec::Role &r : layout->forms.front().outputs)
      outputs.push_back(&r);
    return roleAt(outputs, result.getResultNumber());
  }
  for (OpOperand &operand : op->getOpOperands())
    if (operand.get() == v)
      return operandRoles(op, iface.getOperationCode())[operand.getOperandNumber()];
  return nullptr;
}

SmallVector<NNAPIOperand> mlir::nnapi::getNNAPIOperands(Operation *op) {
  SmallVector<NNAPIOperand> out;
  auto iface = dyn_cast<NNAPIOperationInterface>(op);
  if (!iface)
    return out;
  // Tensor operands in op order; a variadic role takes the rest. An op with
  // optional operands has one group per value role: an empty group, or a
  // role after the last group, is an omittable operand left without a value.
  int32_t code = iface.getOperationCode();
  for (auto [v, role] : llvm::zip(op->getOperands(), operandRoles(op, code)))
    if (role) {
      NNAPIOperand o{role->name};
      o.value = v;
      out.push_back(std::move(o));
    }
  if (std::optional<ArrayRef<int32_t>> segments = operandSegments(op)) {
    SmallVector<const spec::Role *> roles = getValueRoles(code);
    for (auto [k, role] : llvm::enumerate(roles))
      if (k >= segments->size() || (*segments)[k] == 0)
        out.push_back(NNAPIOperand{role->name, NNAPIOperand::Kind::Omitted});
  }
  Collector c(out);
  TypeSwitch<Operation *>(op)
      .Case<AddOp, SubOp, MulOp, DivOp, FullyConnectedOp>(
          [&](Operation *op) { c.fuse(op); })
      .Case([&](Conv2DOp conv) {
        c.window(conv.getPadding(), conv.getStrides());
        c.fuse(conv);
        c.layoutAndDilations(conv.getDilations());
      })
      .Case([&](DepthwiseConv2DOp conv) {
        c.window(conv.getPadding(), conv.getStrides());
        c.int32(role::depth_multiplier, conv.getDepthMultiplier());
        c.fuse(conv);
        c.layoutAndDilations(conv.getDilations());
      })
      .Case([&](GroupedConv2DOp conv) {
        c.window(conv.getPadding(), conv.getStrides());
        c.int32(role::num_groups, conv.getNumGroups());
        c.fuse(conv);
        c.boolean(role::layout, false);
      })
      .Case([&](TransposeConv2DOp conv) {
        c.window(conv.getPadding(), conv.getStrides());
        c.fuse(conv);
        c.boolean(role::layout, false);
      })
      .Case<ResizeBilinearOp, ResizeNearestNeighborOp>([&](auto resize) {
        ArrayRef<int64_t> shape = resize.getOutput().getType().getShape();
        c.int32(role::output_width, shape[2]);
        c.int32(role::output_height, shape[1]);
        c.boolean(role::layout, false);
        c.boolean(role::align_corners, resize.getAlignCorners());
        c.boolean(role::half_pixel_centers, resize.getHalfPixelCenters());
      })
      .Case<MaxPool2DOp, AveragePool2DOp>([&](auto pool) {
        c.window(pool.getPadding(), pool.getStrides());
        c.int32(role::filter_w, pool.getFilter()[0]);
        c.int32(role::filter_h, pool.getFilter()[1]);
        c.fuse(pool);
        c.boolean(role::layout, false);
      })
      .Case([&](ReshapeOp reshape) {
        // A dynamic dimension is NNAPI's -1 (at most one, the verifier).
        SmallVector<int64_t> shape(reshape.getOutput().getType().getShape());
        for (int64_t &d : shape)
          d = ShapedType::isDynamic(d) ? -1 : d;
        c.int32s(role::shape, shape);
      })
      .Case([&](SoftmaxOp softmax) {
        int64_t rank = softmax.getInput().getType().getRank();
        int64_t axis = static_cast<int32_t>(softmax.getAxis());
        c.real(role::beta, softmax.getBeta());
        c.int32(role::axis, axis < 0 ? axis + rank : axis);
      })
      .Case([&](LogSoftmaxOp op) {
        int64_t rank = op.getInput().getType().getRank();
        int64_t axis = static_cast<int32_t>(op.getAxis());
        c.real(role::beta, op.getBeta());
        c.int32(role::axis, axis < 0 ? axis + rank : axis);
      })
      .Case([&](InstanceNormalizationOp op) {
        c.real(role::gamma, op.getGamma());
        c.real(role::beta, op.getBeta());
        c.real(role::epsilon, op.getEpsilon());
        c.boolean(role::layout, op.getNchw());
      })
      .Case([&](LocalResponseNormalizationOp op) {
        c.int32(role::radius, op.getRadius());
        c.real(role::bias, op.getBias());
        c.real(role::alpha, op.getAlpha());
        c.real(role::beta, op.getBeta());
        c.int32(role::axis, op.getAxis());
      })
      .Case([&](L2NormalizationOp op) {
        c.int32(role::axis, op.getAxis());
      })
      .Case([&](EluOp op) { c.real(role::alpha, op.getAlpha()); })
      .Case([&](TransposeOp op) { c.int32s(role::perm, op.getPerm()); })
      .Case([&](PadOp op) {
        c.int32s(role::paddings, op.getPadding(),
                 op.getInput().getType().getRank());
      })
      .Case([&](PadV2Op op) {
        c.int32s(role::paddings, op.getPadding(),
                 op.getInput().getType().getRank());
        c.real(role::pad_value, op.getValue());
      })
      .Case([&](MirrorPadOp op) {
        c.int32s(role::paddings, op.getPadding(),
                 op.getInput().getType().getRank());
        c.int32(role::mode, op.getSymmetric() ? 1 : 0); // REFLECT is 0
      })
      .Case<DepthToSpaceOp, SpaceToDepthOp>([&](auto op) {
        c.int32(role::block_size, op.getBlockSize());
        c.boolean(role::layout, op.getNchw());
      })
      .Case([&](ChannelShuffleOp op) {
        c.int32(role::num_groups, op.getNumGroups());
        c.int32(role::axis, op.getAxis());
      })
      .Case(
          [&](ReverseOp op) { c.int32s(role::axis, {int64_t(op.getAxis())}); })
      .Case([&](GatherOp op) { c.int32(role::axis, op.getAxis()); })
      .Case([&](SliceOp op) {
        c.int32s(role::begin, op.getBegin());
        c.int32s(role::size, op.getOutput().getType().getShape());
      })
      .Case([&](StridedSliceOp op) {
        c.int32s(role::begin, op.getBegin());
        c.int32s(role::end, op.getEnd());
        c.int32s(role::strides, op.getStrides());
        for (spec::RoleName mask :
             {role::begin_mask, role::end_mask, role::shrink_axis_mask})
          c.int32(mask, 0);
      })
      .Case([&](SplitOp op) {
        c.int32(role::axis, op.getAxis());
        c.int32(role::num_splits, op.getOutputs().size());
      })
      .Case([&](TileOp op) { c.int32s(role::multiples, op.getMultiples()); })
      .Case([&](MeanOp op) { c.reduce(op); })
      .Case([&](ReduceSumOp op) { c.reduce(op); })
      .Case([&](ReduceMaxOp op) { c.reduce(op); })
      .Case([&](ReduceMinOp op) { c.reduce(op); })
      .Case([&](ReduceProdOp op) { c.reduce(op); })
      .Case([&](ReduceAnyOp op) { c.reduce(op); })
      .Case([&](ReduceAllOp op) { c.reduce(op); })
      .Case<ArgMaxOp, ArgMinOp>(
          [&](auto op) { c.int32(role::axis, op.getAxis()); })
      .Case([&](BatchMatmulOp op) {
        c.boolean(role::adj_x, op.getAdjX());
        c.boolean(role::adj_y, op.getAdjY());
      })
      .Case([&](ConcatenationOp concat) {
        c.int32(role::axis, concat.getAxis());
      })
      .Case([&](UnidirectionalSequenceRnnOp op) {
        c.fuse(op);
        c.int32(role::time_major, op.getTimeMajor() ? 1 : 0);
      })
      .Case([&](UnidirectionalSequenceLstmOp op) {
        c.int32(role::activation, static_cast<int64_t>(op.getActivation()));
        c.real(role::cell_clip, op.getCellClip());
        c.real(role::proj_clip, op.getProjClip());
        c.boolean(role::time_major, op.getTimeMajor());
      })
      .Default([](Operation *) {});
  return out;
}

LogicalResult
mlir::nnapi::orderNNAPIOperands(Operation *op,
                                SmallVectorImpl<NNAPIOperand> &ordered,
                                spec::Match &match, std::string &error,
                                bool int8AsUint8) {
  auto iface = dyn_cast<NNAPIOperationInterface>(op);
  if (!iface) {
    error = "not an NNAPI operation";
    return failure();
  }
  auto tensorDesc = [&](Value v) -> FailureOr<spec::OperandDesc> {
    std::optional<int32_t> code = getTensorOperandCode(v.getType());
    if (!code) {
      error = "no NNAPI operand type for " + std::string([&] {
                std::string s;
                llvm::raw_string_ostream os(s);
                os << v.getType();
                return s;
              }());
      return failure();
    }
    spec::OperandDesc d;
    d.type = *code;
    if (int8AsUint8 && d.type == ANEURALNETWORKS_TENSOR_QUANT8_ASYMM_SIGNED)
      d.type = ANEURALNETWORKS_TENSOR_QUANT8_ASYMM;
    d.rank = uint32_t(cast<RankedTensorType>(v.getType()).getRank());
    d.constant = v.getDefiningOp<arith::ConstantOp>() != nullptr;
    return d;
  };
  bool f16 = llvm::any_of(op->getOperandTypes(), [](Type t) {
    return getElementTypeOrSelf(t).isF16();
  });
  SmallVector<NNAPIOperand> all = getNNAPIOperands(op);
  std::vector<spec::Assigned> assigned;
  for (const NNAPIOperand &o : all) {
    spec::Assigned a{o.role, {}, std::nullopt};
    a.desc.constant = true;
    switch (o.kind) {
    case NNAPIOperand::Kind::Tensor: {
      FailureOr<spec::OperandDesc> d = tensorDesc(o.value);
      if (failed(d))
        return failure();
      a.desc = *d;
      break;
    }
    case NNAPIOperand::Kind::Int32:
      a.desc.type = ANEURALNETWORKS_INT32;
      a.value = o.integer;
      break;
    case NNAPIOperand::Kind::Bool:
      a.desc.type = ANEURALNETWORKS_BOOL;
      a.value = o.integer;
      break;
    case NNAPIOperand::Kind::Float:
      a.desc.type = f16 ? ANEURALNETWORKS_FLOAT16 : ANEURALNETWORKS_FLOAT32;
      break;
    case NNAPIOperand::Kind::Int32Tensor:
      a.desc.type = ANEURALNETWORKS_TENSOR_INT32;
      a.desc.rank = o.rows ? 2 : 1;
      break;
    case NNAPIOperand::Kind::Omitted:
      a.desc.constant = false;
      a.desc.omitted = true;
      break;
    }
    assigned.push_back(std::move(a));
  }
  std::vector<spec::OperandDesc> outputs;
  for (Value r : op->getResults()) {
    FailureOr<spec::OperandDesc> d = tensorDesc(r);
    if (failed(d))
      return failure();
    outputs.push_back(*d);
  }
  std::vector<size_t> order;
  if (!spec::assemble(iface.getOperationCode(), assigned, outputs, order, match,
                      error))
    return failure();
  ordered.clear();
  for (size_t i : order)
    ordered.push_back(all[i]);
  return success();
}
