//===- TosaToNNAPIPass.cpp - convert-tosa-to-nnapi ------------------------===//

#include "nnapi-mlir/Conversion/Passes.h"
#include "nnapi-mlir/Conversion/TosaToNNAPI/TosaToNNAPI.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_CONVERTTOSATONNAPI
#include "nnapi-mlir/Conversion/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;
using namespace mlir::nnapi;

namespace {
struct ConvertTosaToNNAPIPass
    : public nnapi::impl::ConvertTosaToNNAPIBase<ConvertTosaToNNAPIPass> {
  using ConvertTosaToNNAPIBase::ConvertTosaToNNAPIBase;

  void runOnOperation() override {
    bool ok = true;
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (!func->hasAttr(NNAPIDialect::kPartitionAttrName))
        continue;
      unsigned level = featureLevel;
      if (auto attr = func->getAttrOfType<IntegerAttr>(
              NNAPIDialect::kFeatureLevelAttrName))
        level = attr.getInt();
      ok &= succeeded(convertPartitionToNNAPI(func, level));
    }
    if (!ok)
      signalPassFailure();
  }
};
} // namespace
