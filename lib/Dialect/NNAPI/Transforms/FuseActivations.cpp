//===- FuseActivations.cpp - nnapi-fuse-activations -----------------------===//

#include "nnapi-mlir/Dialect/NNAPI/IR/Fusion.h"
#include "nnapi-mlir/Dialect/NNAPI/Transforms/Passes.h"

#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::nnapi {
#define GEN_PASS_DEF_NNAPIFUSEACTIVATIONS
#include "nnapi-mlir/Dialect/NNAPI/Transforms/Passes.h.inc"
} // namespace mlir::nnapi

using namespace mlir;

namespace {
struct NNAPIFuseActivationsPass
    : public nnapi::impl::NNAPIFuseActivationsBase<NNAPIFuseActivationsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    nnapi::populateFuseActivationPatterns(patterns);
    if (failed(applyPatternsAndFoldGreedily(getOperation(),
                                            std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
