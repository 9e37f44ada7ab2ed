//===- ConstantData.cpp - Weights as bytes for LLVM -----------------------===//

#include "ConstantData.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SwapByteOrder.h"

#include <string>

using namespace llvm;

/// Appends `value`'s bytes in memory order; false when it holds anything but
/// numbers (pointers, structs, expressions).
static bool appendBytes(const Constant *value, const DataLayout &layout,
                        std::string &bytes) {
  if (auto *data = dyn_cast<ConstantDataSequential>(value)) {
    // A vector of i1 or of odd widths would not be laid out as its raw
    // values; weights are arrays of whole bytes.
    if (data->getElementByteSize() !=
        layout.getTypeAllocSize(data->getElementType()))
      return false;
    bytes += data->getRawDataValues();
    return true;
  }
  if (isa<ConstantAggregateZero>(value)) {
    bytes.append(layout.getTypeAllocSize(value->getType()), '\0');
    return true;
  }
  if (auto *array = dyn_cast<ConstantArray>(value)) {
    for (const Use &element : array->operands())
      if (!appendBytes(cast<Constant>(element.get()), layout, bytes))
        return false;
    return true;
  }
  return false;
}

void mlir::nnapi::weightsAsBytes(mlir::ModuleOp module, bool littleEndian) {
  if (littleEndian != sys::IsLittleEndianHost)
    return;
  mlir::MLIRContext *ctx = module.getContext();
  auto byte = mlir::IntegerType::get(ctx, 8);
  for (auto global : module.getOps<mlir::LLVM::GlobalOp>()) {
    auto dense =
        dyn_cast_or_null<mlir::DenseElementsAttr>(global.getValueOrNull());
    if (!global.getConstant() || !dense || dense.isSplat())
      continue;
    mlir::Type element = dense.getElementType();
    if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8)
      continue;
    ArrayRef<char> raw = dense.getRawData();
    if (raw.size() <= 64)
      continue;
    auto bytes = mlir::RankedTensorType::get({int64_t(raw.size())}, byte);
    global.setValueAttr(mlir::DenseResourceElementsAttr::get(
        bytes, "nnapi_weights",
        mlir::UnmanagedAsmResourceBlob::allocateInferAlign(raw)));
    global.setGlobalType(mlir::LLVM::LLVMArrayType::get(byte, raw.size()));
    // At least the alignment the elements had, and what LLVM prefers for
    // arrays that large.
    uint64_t align = std::max<uint64_t>(
        16, llvm::PowerOf2Ceil(element.getIntOrFloatBitWidth() / 8));
    if (!global.getAlignment() || *global.getAlignment() < align)
      global.setAlignment(align);
  }
}

unsigned mlir::nnapi::flattenConstantData(llvm::Module &module) {
  const llvm::DataLayout &layout = module.getDataLayout();
  if (layout.isLittleEndian() != sys::IsLittleEndianHost)
    return 0;
  llvm::Type *byte = llvm::Type::getInt8Ty(module.getContext());
  SmallVector<GlobalVariable *> candidates;
  for (GlobalVariable &global : module.globals()) {
    if (!global.isConstant() || !global.hasInitializer())
      continue;
    Constant *init = global.getInitializer();
    // Zeros go to .bss as they are; byte arrays are already what we want.
    if (!init->getType()->isArrayTy() || isa<ConstantAggregateZero>(init) ||
        (isa<ConstantDataArray>(init) &&
         cast<ConstantDataArray>(init)->getElementType() == byte))
      continue;
    candidates.push_back(&global);
  }
  unsigned rewritten = 0;
  for (GlobalVariable *global : candidates) {
    std::string bytes;
    if (!appendBytes(global->getInitializer(), layout, bytes) ||
        bytes.size() != layout.getTypeAllocSize(global->getValueType()))
      continue;
    Constant *init = ConstantDataArray::getRaw(bytes, bytes.size(), byte);
    auto *flat = new GlobalVariable(
        module, init->getType(), /*isConstant=*/true, global->getLinkage(),
        init, "", global, global->getThreadLocalMode(),
        global->getAddressSpace());
    flat->copyAttributesFrom(global);
    flat->setAlignment(layout.getPreferredAlign(global));
    flat->takeName(global);
    global->replaceAllUsesWith(flat);
    global->eraseFromParent();
    ++rewritten;
  }
  return rewritten;
}
