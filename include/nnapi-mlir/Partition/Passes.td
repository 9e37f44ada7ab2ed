//===- Passes.td - nnapi-partition -------------------------*- tablegen -*-===//
//
// Placement sits above the conversion it consults (TosaToNNAPIConverter):
// it decides, convert-tosa-to-nnapi only converts.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_PARTITION_PASSES_TD
#define NNAPI_PARTITION_PASSES_TD

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

    Costs are the profile's at one thread, scaled to `placement-threads` by its
    `thread_scaling` (Amdahl's law per side, fitted by
    nnapi-profile-device); the module gets `nnapi.placement_threads`, which
    the library exports so that the runtime can warn when it runs the
    model at another count.

    With `emit-remarks`, every op left on the host gets a remark saying why
    and every partition one with its estimated saving. `report` writes the
    same as JSON, a self-contained HTML graph and Graphviz DOT.

    These options are the one declaration: the compile pipelines'
    options, nnapi-compile's flags and the Python package's keyword
    arguments are generated from them (PartitionOptions.inc).
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
    Option<"deviceQuirks", "device-quirks", "std::string", /*default=*/"",
           "Quirks record JSON (nnapi-run --validate): what it lists as computed wrong by the device profile's device stays on the host">,
    Option<"placement", "placement", "std::string", /*default=*/"",
           "JSON file forcing ops to a side by name or type: {host: [...], nnapi: [...]}">,
    Option<"placementThreads", "placement-threads", "unsigned", /*default=*/"0",
           "Threads the model will run on (the runtime's threads option): both sides are priced at that count with the device profile's thread_scaling, and the library records it (0: the CPUs this process may run on)">,
    Option<"searchBudget", "search-budget", "uint64_t", /*default=*/"65536",
           "Branch-and-bound nodes per cluster before settling for the best placement found">,
    Option<"emitRemarks", "emit-remarks", "bool", /*default=*/"false",
           "Emit a remark for every op left on the host and every partition (in the pipelines, also for every op the host code generation leaves to scalar loops)">,
    Option<"validation", "validation", "std::string", /*default=*/"",
           "nnapi-run --validate's results (--validation-out FILE) to show in the report">,
    Option<"report", "report", "std::string", /*default=*/"",
           "Write the placement report to PATH.json, PATH.html and PATH.dot">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::nnapi::NNAPIDialect"];
}

#endif // NNAPI_PARTITION_PASSES_TD
