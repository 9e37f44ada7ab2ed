//===- Passes.td - nnapi dialect transformation passes -----*- tablegen -*-===//
#ifndef NNAPI_TRANSFORMS_PASSES_TD
#define NNAPI_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def NNAPIPartition : Pass<"nnapi-partition", "ModuleOp"> {
  let summary = "Outline the TOSA regions NNAPI can run into partition functions";
  let description = [{
    Marks every TOSA op that NNAPI can run at `feature-level` (the shared
    legality predicate of convert-tosa-to-nnapi), grows the marked ops into
    regions along data edges without ever creating a cycle between a region
    and the host ops around it, and outlines each region into a private
    `func.func` with the `nnapi.partition` attribute, replaced by a
    `func.call`. Constants a region uses are cloned into it. Unsupported ops
    stay where they are; with `emit-remarks`, each gets a remark saying why.
  }];
  let options = [
    Option<"featureLevel", "feature-level", "unsigned", /*default=*/"7",
           "NNAPI feature level (1..8) the partitions must run on">,
    Option<"emitRemarks", "emit-remarks", "bool", /*default=*/"false",
           "Emit a remark for every op left on the host, with the reason">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::nnapi::NNAPIDialect"];
}

def NNAPIFuseActivations : Pass<"nnapi-fuse-activations"> {
  let summary = "Fold nnapi.relu/relu1/relu6 into their producer's fused activation";
  let dependentDialects = ["::mlir::nnapi::NNAPIDialect"];
}

#endif // NNAPI_TRANSFORMS_PASSES_TD
