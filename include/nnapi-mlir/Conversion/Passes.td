//===- Passes.td - nnapi-mlir conversion passes ------------*- tablegen -*-===//
#ifndef NNAPI_CONVERSION_PASSES_TD
#define NNAPI_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTosaToNNAPI : Pass<"convert-tosa-to-nnapi", "ModuleOp"> {
  let summary = "Rewrite the TOSA bodies of NNAPI partitions into the nnapi dialect";
  let description = [{
    For every function with the `nnapi.partition` attribute: turns a
    decomposed softmax into nnapi.softmax, every other TOSA op into its nnapi
    op, folds a following clamp/ReLU into the producer's fused activation, and
    checks that each resulting op runs at the partition's feature level
    (`nnapi.feature_level`, else the `feature-level` option). Anything left
    over is an error naming the op. Functions without the attribute are left
    alone.
  }];
  let options = [
    Option<"featureLevel", "feature-level", "unsigned", /*default=*/"7",
           "Feature level for partitions without nnapi.feature_level">,
  ];
  let dependentDialects = ["::mlir::nnapi::NNAPIDialect",
                           "::mlir::arith::ArithDialect"];
}

def NNAPISerializePartitions : Pass<"nnapi-serialize-partitions", "ModuleOp"> {
  let summary = "Serialize each NNAPI partition into a blob kept as a module constant";
  let description = [{
    For every TOSA partition function: converts a copy to the nnapi dialect
    (as convert-tosa-to-nnapi does), serializes it into the versioned blob
    format, stores the bytes in a private `memref.global` constant named
    `<partition>_blob`, and records it in the partition's `nnapi.blob`
    attribute. The partition keeps its TOSA body: that is its host copy,
    compiled with the rest of the module and run when NNAPI fails.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::nnapi::NNAPIDialect",
                           "::mlir::arith::ArithDialect"];
}

def NNAPIExportSignature : Pass<"nnapi-export-signature", "ModuleOp"> {
  let summary = "Record the entry function's inputs and outputs for the model ABI";
  let description = [{
    Describes the entry function (its tensor arguments and results, names
    from `nnapi.name` argument attributes or "-") and the number of
    partitions as the text documented in Runtime/ModelABI.h, stored in the
    module attribute `nnapi.signature`. An argument with `nnapi.bound` (the
    value the model was compiled for) is marked "bound" there, and its value
    moves to the module attribute `nnapi.bound_inputs` for
    nnapi-emit-entry-point. Inputs and outputs without elements stay in the
    signature but leave the entry function (an empty input becomes an empty
    constant): a zero-size buffer has no bare-pointer form. Must run while
    the entry function still has tensor types.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "Name of the entry function">,
    Option<"shapeBuckets", "shape-buckets", "std::string", /*default=*/"\"\"",
           "Typical input shapes (';' between shapes, ',' between inputs), "
           "checked against the inputs and recorded as 'bucket' lines">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def NNAPILowerPartitionCalls : Pass<"nnapi-lower-partition-calls", "ModuleOp"> {
  let summary = "Dispatch partition calls to the runtime, with the host copy as fallback";
  let description = [{
    Runs after bufferization (buffer results turned into out-parameters).
    Each partition function with an `nnapi.blob` is renamed `<name>_host`; a
    new function with the old name passes the blob and the buffers' pointers
    to `nnapi_rt_execute` and calls the host copy when it returns non-zero.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

def NNAPIOutputDims : Pass<"nnapi-output-dims", "ModuleOp"> {
  let summary = "Derive the function that computes the entry's dynamic output dimensions";
  let description = [{
    For an entry function with dynamically shaped results, on tensors after
    lowering to linalg: adds `nnapi_output_dims`, taking each dynamic
    dimension of each input (in order, as index) and returning each dynamic
    dimension of each output. It is the entry with the shapes of its
    results reified and everything else removed; an output whose shape
    depends on the values of an input, not only its dimensions, is an
    error naming both. Nothing happens for an entry with static results.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "Name of the entry function">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def NNAPIDynamicEntry : Pass<"nnapi-dynamic-entry", "ModuleOp"> {
  let summary = "Give the entry's dynamically shaped buffers a bare-pointer form";
  let description = [{
    Runs on buffers, before func-to-llvm with the bare-pointer calling
    convention, which only takes static shapes. Each dynamically shaped
    argument of the entry (inputs and output buffers) becomes a rank-0
    buffer (its pointer), and an index argument per dynamic dimension is
    appended, in order; the body sees the original buffer again through
    memref.reinterpret_cast with row-major strides.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "Name of the entry function">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def NNAPIEmitEntryPoint : Pass<"nnapi-emit-entry-point", "ModuleOp"> {
  let summary = "Emit nnapi_model_run and nnapi_model_signature in the LLVM dialect";
  let description = [{
    Runs on the LLVM dialect, after func-to-llvm with the bare-pointer memref
    calling convention. Adds `nnapi_model_run(void **inputs, void **outputs)`
    that unpacks the pointer arrays and calls the entry function, and
    `nnapi_model_signature()` returning the `nnapi.signature` text. For
    each input in `nnapi.bound_inputs`, nnapi_model_run first compares the
    caller's buffer with the value (memcmp) and returns 1 + the input's
    index, without running, when they differ.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "Name of the entry function">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // NNAPI_CONVERSION_PASSES_TD
