//===- StripQuantTypes.cpp - Quantized element types to storage types -----===//
//
// TOSA from quantizing producers carries `!quant.uniform` element types;
// MLIR 19's tosa-to-linalg crashes on them (tosa.rescale) and the host code
// needs plain integers. The parameters live on in the TOSA ops' own
// attributes (rescale multipliers and zero points, quantization_info), so
// the types are replaced by their storage types. See Passes.td.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Quant/QuantTypes.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPISTRIPQUANTTYPES
#include "nnapi-mlir/Transforms/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;

namespace {

/// `type` with a quantized element type replaced by its storage type:
/// signless for signed storage, unsigned (ui8) for unsigned storage, as
/// TOSA spells unsigned data; other types unchanged.
Type storageOf(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  Type element = shaped ? shaped.getElementType() : type;
  auto q = dyn_cast<quant::QuantizedType>(element);
  if (!q)
    return type;
  Type storage = q.getStorageType();
  if (!q.isSigned())
    storage = IntegerType::get(type.getContext(), q.getStorageTypeIntegralWidth(),
                               IntegerType::Unsigned);
  return shaped ? shaped.clone(storage) : storage;
}

struct StripQuantTypesPass
    : nnapi::impl::NNAPIStripQuantTypesBase<StripQuantTypesPass> {
  void runOnOperation() override {
    getOperation()->walk([](Operation *op) {
      for (Region &region : op->getRegions())
        for (Block &block : region)
          for (BlockArgument arg : block.getArguments())
            arg.setType(storageOf(arg.getType()));
      for (OpResult result : op->getResults())
        result.setType(storageOf(result.getType()));
      if (auto func = dyn_cast<FunctionOpInterface>(op)) {
        auto type = cast<FunctionType>(func.getFunctionType());
        SmallVector<Type> ins, outs;
        for (Type t : type.getInputs())
          ins.push_back(storageOf(t));
        for (Type t : type.getResults())
          outs.push_back(storageOf(t));
        func.setType(FunctionType::get(op->getContext(), ins, outs));
      }
    });
  }
};

} // namespace
