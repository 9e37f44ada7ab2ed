//===- SerializePartitions.cpp - nnapi-serialize-partitions ---------------===//
//
// Each partition function gets its NNAPI blob: a copy of its body converted
// to the nnapi dialect at the partition's feature level and serialized
// (NNAPIBlob.h), kept as a module constant the runtime calls replay.
//
//===----------------------------------------------------------------------===//

#include "DynamicShapes.h"
#include "nnapi-mlir/Conversion/Passes.h"
#include "nnapi-mlir/Conversion/TosaToNNAPI/TosaToNNAPI.h"
#include "nnapi-mlir/Runtime/ModelABI.h"
#include "nnapi-mlir/Runtime/Runtime.h"
#include "nnapi-mlir/Support/Sha256.h"
#include "nnapi-mlir/Target/NNAPIBlob/NNAPIBlob.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPISERIALIZEPARTITIONS
#include "nnapi-mlir/Conversion/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;
using namespace mlir::nnapi;

namespace {

unsigned partitionFeatureLevel(func::FuncOp func) {
  if (auto attr =
          func->getAttrOfType<IntegerAttr>(NNAPIDialect::kFeatureLevelAttrName))
    return attr.getInt();
  return 7;
}

//===----------------------------------------------------------------------===//
// nnapi-serialize-partitions
//===----------------------------------------------------------------------===//

struct SerializePartitionsPass
    : public nnapi::impl::NNAPISerializePartitionsBase<SerializePartitionsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> partitions;
    for (auto func : module.getOps<func::FuncOp>())
      if (func->hasAttr(NNAPIDialect::kPartitionAttrName) &&
          !func->hasAttr(NNAPIDialect::kBlobAttrName))
        partitions.push_back(func);
    for (func::FuncOp func : partitions) {
      // Convert a copy: the TOSA original stays as the host copy.
      auto copy = cast<func::FuncOp>(func->clone());
      auto erase = llvm::make_scope_exit([&] { copy.erase(); });
      if (failed(convertPartitionToNNAPI(copy, partitionFeatureLevel(func))))
        return signalPassFailure();
      FailureOr<std::vector<uint8_t>> bytes = serializeToBlob(copy);
      if (failed(bytes))
        return signalPassFailure();

      OpBuilder builder(module.getBodyRegion());
      builder.setInsertionPointToEnd(module.getBody());
      auto i8 = builder.getIntegerType(8);
      int64_t size = static_cast<int64_t>(bytes->size());
      auto init = DenseElementsAttr::getFromRawBuffer(
          RankedTensorType::get({size}, i8),
          ArrayRef<char>(reinterpret_cast<const char *>(bytes->data()),
                         bytes->size()));
      auto global = builder.create<memref::GlobalOp>(
          func.getLoc(), (func.getSymName() + "_blob").str(),
          builder.getStringAttr("private"), MemRefType::get({size}, i8), init,
          /*constant=*/true, builder.getI64IntegerAttr(64));
      symbols.insert(global);
      func->setAttr(NNAPIDialect::kBlobAttrName,
                    FlatSymbolRefAttr::get(global.getSymNameAttr()));
    }
  }
};

} // namespace
