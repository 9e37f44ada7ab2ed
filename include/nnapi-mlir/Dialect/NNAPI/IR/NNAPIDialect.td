//===- NNAPIDialect.td - The nnapi dialect -----------------*- tablegen -*-===//
#ifndef NNAPI_DIALECT_TD
#define NNAPI_DIALECT_TD

include "mlir/IR/OpBase.td"

def NNAPI_Dialect : Dialect {
  let name = "nnapi";
  let cppNamespace = "::mlir::nnapi";
  let summary = "Operations of Android's Neural Networks API";
  let description = [{
    One op per NNAPI operation, on static-shaped float tensors in NHWC
    layout. Scalar parameters that NNAPI passes as extra operands (padding,
    strides, fused activation, axis, ...) are attributes here; the blob
    serializer turns them back into constant operands. Verifiers encode
    NNAPI's operand rules, and every op reports its operation code and the
    lowest feature level that can run it (NNAPIOperationInterface).

    Functions with the `nnapi.partition` unit attribute are partitions: their
    bodies hold nnapi ops (after convert-tosa-to-nnapi) or the TOSA ops they
    were outlined from. `nnapi.feature_level` (i32) on a partition is the
    feature level it targets. `nnapi.relax_f32_to_f16` (unit) lets the
    device compute float32 with float16 range and precision.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                            "::mlir::quant::QuantizationDialect"];
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    static constexpr ::llvm::StringLiteral kPartitionAttrName = "nnapi.partition";
    static constexpr ::llvm::StringLiteral kFeatureLevelAttrName = "nnapi.feature_level";
    static constexpr ::llvm::StringLiteral kBlobAttrName = "nnapi.blob";
    static constexpr ::llvm::StringLiteral kSignatureAttrName = "nnapi.signature";
    static constexpr ::llvm::StringLiteral kNameAttrName = "nnapi.name";
    /// On an entry argument or result of integer type: the caller's data is
    /// unsigned (the signature says u8..u64; the importer widens it).
    static constexpr ::llvm::StringLiteral kUnsignedAttrName = "nnapi.unsigned";
    static constexpr ::llvm::StringLiteral kRelaxAttrName = "nnapi.relax_f32_to_f16";
    /// On an entry argument: the value the model was compiled for (the
    /// importer's --input-value or --specialize-value), as the caller's
    /// element type. The graph uses the constant; the entry point checks on
    /// every run that the argument still holds it.
    static constexpr ::llvm::StringLiteral kBoundAttrName = "nnapi.bound";
    /// On the module, from nnapi-export-signature to nnapi-emit-entry-point:
    /// the bound values by input index ({"1" = dense<...>}).
    static constexpr ::llvm::StringLiteral kBoundInputsAttrName = "nnapi.bound_inputs";
    /// On an entry argument with dynamic dimensions: the sizes each may take,
    /// an inclusive (low, high) pair per dynamic dimension in order
    /// (array<i64>). Without it a dynamic dimension is [1..2^31-1].
    static constexpr ::llvm::StringLiteral kDimRangesAttrName = "nnapi.dim_ranges";
    /// On an entry argument with dynamic dimensions: the size each takes
    /// most often, one per dynamic dimension in order (array<i64>; 0: not
    /// given), within its range. Placement counts the dimension at that
    /// size (typicalDynamicSize); without it, at its range's geometric mean.
    static constexpr ::llvm::StringLiteral kDimTypicalAttrName = "nnapi.dim_typical";
    /// On a static copy of the entry for a typical shape (nnapi-specialize-
    /// shapes to nnapi-emit-entry-point): its inputs' then its outputs'
    /// shapes, an array of array<i64>, which the entry point compares with
    /// the call's sizes and the output buffers' before calling it.
    static constexpr ::llvm::StringLiteral kStaticShapesAttrName = "nnapi.static_shapes";
    /// The function nnapi-output-dims derives from the entry: the dynamic
    /// dimensions of its outputs from those of its inputs.
    static constexpr ::llvm::StringLiteral kOutputDimsFnName = "nnapi_output_dims";
    /// Host code generation: why an op runs as scalar loops (string), and a
    /// function's planned arena and what its buffers would take without
    /// reuse (integers, bytes).
    static constexpr ::llvm::StringLiteral kCodegenAttrName = "nnapi.codegen";
    static constexpr ::llvm::StringLiteral kArenaBytesAttrName = "nnapi.arena_bytes";
    static constexpr ::llvm::StringLiteral kUnplannedBytesAttrName = "nnapi.unplanned_bytes";
    /// Parallel host code. On an `scf.for` of output tiles (nnapi-codegen to
    /// nnapi-outline-parallel-loops): its iterations are independent, and
    /// the value (i64) is the work of one iteration, in iteration points of
    /// the ops it computes. On the call of an outlined loop body (to
    /// nnapi-lower-parallel-calls): the iterations per chunk (i64).
    static constexpr ::llvm::StringLiteral kParallelAttrName = "nnapi.parallel";
    static constexpr ::llvm::StringLiteral kParallelGrainAttrName = "nnapi.parallel_grain";
    /// Iteration points below which a band of parallel host loops stays a
    /// serial loop (nnapi-outline-parallel-loops' default min-work): small
    /// ops never pay for threads, so the partitioner prices them at one.
    static constexpr int64_t kMinParallelWork = 131072;
    /// On the module, from nnapi-partition to nnapi-emit-entry-point: the
    /// thread count placement priced both sides at (i32), which the library
    /// exports (nnapi_model_placement_threads) for the runtime to compare
    /// with its own.
    static constexpr ::llvm::StringLiteral kPlacementThreadsAttrName = "nnapi.placement_threads";
  }];
}

#endif // NNAPI_DIALECT_TD
