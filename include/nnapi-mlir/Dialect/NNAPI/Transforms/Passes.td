//===- Passes.td - nnapi dialect transformation passes -----*- tablegen -*-===//
#ifndef NNAPI_TRANSFORMS_PASSES_TD
#define NNAPI_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def NNAPIFuseActivations : Pass<"nnapi-fuse-activations"> {
  let summary = "Fold nnapi.relu/relu1/relu6 into their producer's fused activation";
  let dependentDialects = ["::mlir::nnapi::NNAPIDialect"];
}

#endif // NNAPI_TRANSFORMS_PASSES_TD
