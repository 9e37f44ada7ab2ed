//===- Passes.td - nnapi dialect transformation passes -----*- tablegen -*-===//
#ifndef NNAPI_TRANSFORMS_PASSES_TD
#define NNAPI_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def NNAPIPartition : Pass<"nnapi-partition", "ModuleOp"> {
  let summary = "Place TOSA ops on NNAPI or the host by estimated latency and outline the NNAPI regions";
  let description = [{
    Decides, for every TOSA op of every function, whether it runs on NNAPI
    or on the host, and outlines each NNAPI region into a private
    `func.func` with the `nnapi.partition` attribute, replaced by a
    `func.call`. Constants a region uses are cloned into it.

    An op can go to NNAPI when the shared legality predicate of
    convert-tosa-to-nnapi accepts it at the feature level (the smaller of
    `feature-level` and the device profile's), the device profile runs its
    NNAPI operation on its operand type, it is not a `stop-ops` type and the
    `placement` override does not keep it on the host. Among those, the pass
    picks the placement with the lowest estimated latency under the
    profile's cost model: compute on each side, one transfer per tensor that
    crosses between host and a partition, and a fixed cost per partition.
    Partitions are always connected and convex, so no cycle can form. The
    search is exact for clusters of up to 64 connected candidate ops within
    a search budget (see docs/design.md); `max-partitions` and
    `min-partition-cost` then drop the least profitable partitions.

    With `emit-remarks`, every op left on the host gets a remark saying why
    and every partition one with its estimated saving. `report` writes the
    same as JSON, a self-contained HTML graph and Graphviz DOT.
  }];
  let options = [
    Option<"featureLevel", "feature-level", "unsigned", /*default=*/"7",
           "NNAPI feature level (1..8) the partitions must run on">,
    Option<"deviceProfile", "device-profile", "std::string", /*default=*/"",
           "Device profile JSON (default: a generic accelerator at feature-level)">,
    Option<"minPartitionCost", "min-partition-cost", "double", /*default=*/"0",
           "Keep partitions on the host unless they save at least this many microseconds">,
    Option<"maxPartitions", "max-partitions", "unsigned", /*default=*/"0",
           "Keep at most this many partitions, the most profitable ones (0: no limit)">,
    Option<"allowFp16", "allow-fp16", "bool", /*default=*/"false",
           "Let NNAPI compute float32 with float16 precision (relaxed), at float16 cost and support">,
    ListOption<"stopOps", "stop-ops", "std::string",
           "Op types that stay on the host: TOSA names (tosa.reshape) or NNAPI operations (RESHAPE)">,
    Option<"placement", "placement", "std::string", /*default=*/"",
           "JSON file forcing ops to a side by name or type: {host: [...], nnapi: [...]}">,
    Option<"searchBudget", "search-budget", "uint64_t", /*default=*/"65536",
           "Branch-and-bound nodes per cluster before settling for the best placement found">,
    Option<"emitRemarks", "emit-remarks", "bool", /*default=*/"false",
           "Emit a remark for every op left on the host and every partition">,
    Option<"report", "report", "std::string", /*default=*/"",
           "Write the placement report to PATH.json, PATH.html and PATH.dot">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::nnapi::NNAPIDialect"];
}

def NNAPIPropagateTransposes : Pass<"nnapi-propagate-transposes"> {
  let summary = "Sink tosa.transpose through element-wise ops so that inverse pairs cancel";
  let description = [{
    The ONNX importer wraps every NHWC op (convolutions, pools, resize) of an
    NCHW model in a transpose to NHWC and one back. This pass moves each
    transpose below the element-wise TOSA ops that consume it (unary ops,
    casts, and binary/ternary ops whose other operands are the same
    transpose or a broadcast constant), then lets TOSA's canonicalization
    fold transpose pairs. A chain of convolutions, pools and element-wise
    ops is left with no transposes between its ops.
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def NNAPIFoldScaleShift : Pass<"nnapi-fold-scale-shift"> {
  let summary = "Fold constant per-channel multiplies and adds into the convolution or fully-connected op before them";
  let description = [{
    `tosa.mul(conv, s)` and `tosa.add(conv, t)`, where `conv` is a
    `tosa.conv2d`, `tosa.depthwise_conv2d` or `tosa.fully_connected` with
    constant float32 weights and bias and no other user, and `s`/`t` are
    constants that vary only along the output channels, become the
    producer with scaled weights and bias (`W * s`, `b * s`) or a shifted
    bias (`b + t`). This removes an imported BatchNormalization's two
    passes over the activation, wherever the op then runs.
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def NNAPIFuseActivations : Pass<"nnapi-fuse-activations"> {
  let summary = "Fold nnapi.relu/relu1/relu6 into their producer's fused activation";
  let dependentDialects = ["::mlir::nnapi::NNAPIDialect"];
}

#endif // NNAPI_TRANSFORMS_PASSES_TD
