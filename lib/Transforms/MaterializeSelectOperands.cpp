//===- MaterializeSelectOperands.cpp - Full-shape constants for select ----===//
//
// nnapi-materialize-select-operands (Passes.td says why).
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Transforms/Passes.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIMATERIALIZESELECTOPERANDS
#include "nnapi-mlir/Transforms/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;

namespace {

/// Constants larger than this stay broadcast (their copy would cost memory).
constexpr int64_t kMaxDenseElements = 65536;

/// `value` broadcast to `type` (same rank, dimensions of 1 repeated), or
/// null if that is not a simple broadcast.
DenseElementsAttr broadcastTo(DenseElementsAttr value, RankedTensorType type) {
  auto from = cast<RankedTensorType>(value.getType());
  if (from.getRank() != type.getRank() || !type.hasStaticShape())
    return {};
  RankedTensorType result = type.clone(from.getElementType());
  if (value.isSplat())
    return DenseElementsAttr::get(result, value.getSplatValue<Attribute>());
  if (type.getNumElements() > kMaxDenseElements)
    return {};
  ArrayRef<int64_t> in = from.getShape(), out = type.getShape();
  for (int64_t d = 0; d < type.getRank(); ++d)
    if (in[d] != out[d] && in[d] != 1)
      return {};
  SmallVector<Attribute> values(value.getValues<Attribute>());
  SmallVector<Attribute> expanded;
  expanded.reserve(type.getNumElements());
  SmallVector<int64_t> index(type.getRank(), 0);
  for (int64_t flat = 0; flat < type.getNumElements(); ++flat) {
    int64_t source = 0;
    for (int64_t d = 0; d < type.getRank(); ++d)
      source = source * in[d] + (in[d] == 1 ? 0 : index[d]);
    expanded.push_back(values[source]);
    for (int64_t d = type.getRank() - 1; d >= 0; --d) {
      if (++index[d] < out[d])
        break;
      index[d] = 0;
    }
  }
  return DenseElementsAttr::get(result, expanded);
}

struct MaterializeSelectOperandsPass
    : public nnapi::impl::NNAPIMaterializeSelectOperandsBase<
          MaterializeSelectOperandsPass> {
  void runOnOperation() override {
    getOperation()->walk([](tosa::SelectOp op) {
      auto type = dyn_cast<RankedTensorType>(op.getType());
      if (!type || !type.hasStaticShape())
        return;
      for (OpOperand *operand : {&op.getOnTrueMutable(), &op.getOnFalseMutable()}) {
        if (operand->get().getType() == type)
          continue;
        DenseElementsAttr value;
        if (!matchPattern(operand->get(), m_Constant(&value)))
          continue;
        DenseElementsAttr full = broadcastTo(value, type);
        if (!full)
          continue;
        OpBuilder builder(op);
        operand->set(builder.create<tosa::ConstOp>(op.getLoc(), full.getType(),
                                                   full));
      }
    });
  }
};

} // namespace
