//===- Passes.td - Host code generation passes --------------*- tablegen -*-===//
//
// The host pipeline's code generation: linalg on tensors (from TOSA) to
// tiled, fused and vectorized loops, then vector ops lowered to what LLVM
// selects well, and the intermediate buffers of each function planned into
// one arena. docs/design.md ("Host code generation") explains the
// strategies.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_CODEGEN_PASSES_TD
#define NNAPI_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def NNAPICodegenPrepare : Pass<"nnapi-codegen-prepare", "::mlir::func::FuncOp"> {
  let summary = "Put linalg ops in the forms the code generation strategies handle";
  let description = [{
    Runs on linalg on tensors, before tiling:
    - convolution filters `[F, KH, KW, C]` (`linalg.conv_2d_nhwc_fhwc`) are
      re-laid out to `[KH, KW, C, F]` (`linalg.conv_2d_nhwc_hwcf`), whose
      output channels are contiguous: constant filters are transposed at
      compile time, others by a `linalg.transpose` at run time;
    - `linalg.transpose` of a constant (fully-connected weights) is folded;
    - a `linalg.depthwise_conv_2d_nhwc_hwcm` with a multiplier of 1 becomes
      `linalg.depthwise_conv_2d_nhwc_hwc`;
    - indexing maps that read a unit dimension at constant 0 read it at the
      loop index instead, so that producers and consumers fuse;
    - a `linalg.matmul` whose right-hand side is a constant `[K, N]` becomes
      a contraction with that constant packed at compile time into panels
      `[N / P, K, P]` of P = two vectors' worth of columns, so that each
      output tile streams one contiguous panel;
    - a `tensor.pad` becomes a buffer with a filled border into whose
      interior the producer of the padded value writes directly;
    - with `int8-dot`, an integer convolution (or matmul by a constant)
      with zero points on 8-bit data and a constant filter becomes a
      `linalg.conv_2d_nhwc_hwcf` on the 8-bit input and the filter minus its
      zero point; the input's zero point times each output channel's filter
      sum is taken from its accumulator's initial value. Where those
      differences do not fit 8 bits the filter keeps its values and its zero
      point times each window's input sum is subtracted after.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"256",
           "Width of the target's vector registers (sets the panel width)">,
    Option<"int8Dot", "int8-dot", "std::string", /*default=*/"\"\"",
           "The target's 8-bit dot-product instructions (avx512-vnni, "
           "avx-vnni, dotprod, i8mm, avx512-madd, avx2-madd; empty: "
           "none): integer convolutions on 8-bit "
           "data keep their 8-bit operands for them">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::arith::ArithDialect"];
}

def NNAPICodegen : Pass<"nnapi-codegen", "::mlir::func::FuncOp"> {
  let summary = "Tile, fuse and vectorize linalg ops for the host CPU";
  let description = [{
    Each convolution, depthwise convolution, pooling, matmul and batch
    matmul becomes a nest of loops over register-sized output tiles into
    which its initializer (bias broadcast, fill) and the chain of
    element-wise ops after it are fused; reduction loops are tiled to one
    filter row and a few input channels, 2-D windows decomposed to 1-D, and
    every op of a tile vectorized (contractions, FMAs). Accumulators are
    hoisted out of the reduction loops so they stay in registers. Element-wise
    chains on their own are tiled along the innermost dimension and
    vectorized. Tile sizes follow the target's vector width and register
    count; loops whose tile does not divide the size are peeled, so
    remainders are vectorized with static shapes too. An op left to scalar
    loops gets an `nnapi.codegen` attribute saying why (and a remark with
    `emit-remarks`).
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "unsigned", /*default=*/"256",
           "Width of the target's vector registers (128, 256 or 512)">,
    Option<"vectorRegisters", "vector-registers", "unsigned", /*default=*/"16",
           "Number of vector registers of the target">,
    Option<"emitRemarks", "emit-remarks", "bool", /*default=*/"false",
           "Emit a remark for every op left to scalar loops">,
    Option<"int8Dot", "int8-dot", "std::string", /*default=*/"\"\"",
           "The target's 8-bit dot-product instructions (avx512-vnni, "
           "avx-vnni, dotprod, i8mm, avx512-madd, avx2-madd; empty: "
           "none) the 8-bit convolution tiles use">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
}

def NNAPILowerVectors : Pass<"nnapi-lower-vectors", "::mlir::func::FuncOp"> {
  let summary = "Lower vector ops on buffers to FMAs, broadcasts and 1-D transfers";
  let description = [{
    After bufferization: contractions become outer products and FMAs,
    multi-dimensional transfers 1-D loads and stores (full and partial
    transfers split), transposes shuffles, so that the LLVM conversion sees
    only operations it maps to the target's vector instructions. Vector
    transcendental functions (exp, tanh, erf, log...) become polynomial
    approximations instead of one libm call per lane. First, with
    `int8-dot`, the 8-bit dot products nnapi-codegen's convolution tiles
    write as multi-reductions over groups of four extended byte products
    become the target's instruction (`llvm.call_intrinsic` of vpdpbusd or
    sdot), and TOSA's saturating float -> i32 conversion of a value already
    clamped to +-2^30 a plain fptosi.
  }];
  let options = [
    Option<"int8Dot", "int8-dot", "std::string", /*default=*/"\"\"",
           "The target's 8-bit dot-product instructions (avx512-vnni, "
           "avx-vnni, dotprod, i8mm, avx512-madd, avx2-madd; empty: "
           "none) the 8-bit dot products of "
           "nnapi-codegen's convolution tiles become">,
  ];
  let dependentDialects = ["::mlir::vector::VectorDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def NNAPIPlanBuffers : Pass<"nnapi-plan-buffers", "::mlir::func::FuncOp"> {
  let summary = "Place a function's intermediate buffers in one arena, reusing memory by lifetime";
  let description = [{
    After bufferization and before deallocation: every statically shaped
    `memref.alloc` in a function's body whose uses (through views and
    casts) stay inside the function becomes a `memref.view` into one
    64-byte-aligned arena allocated at the function's entry. Buffers share
    memory when their lifetimes (from allocation to last use, in program
    order) do not overlap; placement is greedy by size. The function gets an
    `nnapi.arena_bytes` attribute (and `nnapi.unplanned_bytes`, what the
    buffers would take without reuse).
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::arith::ArithDialect"];
}

// Host preparation around bufferization: what the host copy needs before
// and after one-shot bufferize and buffer-results-to-out-params.

def NNAPICopyAliasedResults : Pass<"nnapi-copy-aliased-results", "ModuleOp"> {
  let summary = "Give every function result its own tensor before bufferization";
  let description = [{
    Results are turned into caller-allocated out-parameters after
    bufferization, which needs each returned buffer to be a fresh
    allocation. A function that returns one of its arguments, a constant, or
    the same value twice gets a `linalg.copy` into a `tensor.empty` for that
    result. Likewise call operands produced by `tensor.extract_slice`: they
    bufferize to strided views, which identity-layout function arguments
    cannot take.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def NNAPIReturnFreshBuffers : Pass<"nnapi-return-fresh-buffers", "::mlir::func::FuncOp"> {
  let summary = "Return allocations, not reshapes of them, so results become out-parameters without a copy";
  let description = [{
    After bufferization, a function that returns `memref.expand_shape` or
    `memref.collapse_shape` of a fresh, statically shaped `memref.alloc`
    allocates the returned shape instead and reshapes that for the other
    uses. buffer-results-to-out-params can then write the result straight
    into the caller's buffer instead of copying it there.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def NNAPIInlineDeallocHelper : Pass<"nnapi-inline-dealloc-helper", "ModuleOp"> {
  let summary = "Put bufferization's dealloc helper in its callers";
  let description = [{
    bufferization-lower-deallocations calls a private `dealloc_helper`
    function that takes memrefs of dynamic size (run-time loops need it).
    The host code's bare-pointer calling convention cannot pass those, so
    each call gets the helper's body instead and the helper goes.
  }];
}

def NNAPIExpandMath : Pass<"nnapi-expand-math"> {
  let summary = "Expand math ops that neither libm nor LLVM lowering handles";
  let description = [{
    Rewrites `math.rsqrt` as `1 / sqrt(x)` so that the host lowering
    (math-to-libm, math-to-llvm) can finish.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def NNAPIPointwiseConvAsMatmul
    : Pass<"nnapi-pointwise-conv-as-matmul", "::mlir::func::FuncOp"> {
  let summary = "Float 1x1 convolutions over dynamically sized feature maps as fully connected layers";
  let description = [{
    A `tosa.conv2d` with a 1x1 kernel, unit strides and no padding is a
    matmul over the feature map's pixels. TOSA's optional decompositions
    rewrite it so when the feature map is static; a feature map with
    dynamic height or width (issue 54) needs two inferred sizes in the
    reshape back, which `tosa.reshape` cannot say. This pass writes the
    same for it, the way back as a `tensor.reshape` to the input's sizes
    (MLIR 19 cannot bufferize a `tensor.expand_shape` with two dynamic
    sizes in one group); an activation after the convolution (clamp,
    sigmoid, tanh, erf) moves onto the matrix:

    ```mlir
    %flat = tosa.reshape %x {new_shape = array<i64: -1, C>}
    %w2 = tosa.reshape %w {new_shape = array<i64: F, C>}
    %fc = tosa.fully_connected %flat, %w2, %bias
    %a = tosa.clamp %fc ...
    %shape = tensor.from_elements %n, %h, %w, %cF : tensor<4xindex>
    %y = tensor.reshape %a(%shape)
    ```

    so that the host code multiplies by a filter packed at compile time,
    with the bias and the activation in its tiles, as for a static model.
    Convolutions with zero points are left alone.
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect",
                           "::mlir::tensor::TensorDialect"];
}

def NNAPIBoundLoops : Pass<"nnapi-bound-loops", "ModuleOp"> {
  let summary = "Stop run-time loops of the host code at the runtime's loop timeout";
  let description = [{
    NNAPI stops a WHILE that runs longer than its loop timeout; the host
    code, and the host copy a partition falls back to, must not hang where
    NNAPI would not. Before each `scf.while` (a `tosa.while_loop` after
    tosa-to-scf) the deadline is asked of the runtime
    (`nnapi_rt_loop_deadline`), and the loop's condition is and-ed with
    `nnapi_rt_loop_continue(deadline)`, checked before every iteration:

    ```mlir
    %deadline = func.call @nnapi_rt_loop_deadline() : () -> i64
    scf.while (...) : ... {
      ...
      %go = func.call @nnapi_rt_loop_continue(%deadline) : (i64) -> i32
      %ok = arith.cmpi ne, %go, %c0_i32 : i32
      %both = arith.andi %cond, %ok : i1
      scf.condition(%both) ...
    }
    ```

    A loop stopped that way marks the run as timed out, and the model's
    entry point (nnapi-emit-entry-point) returns
    NNAPI_MODEL_STATUS_LOOP_TIMEOUT. Runtime.h documents the option.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect"];
}

// Parallel host code: loops of output tiles that nnapi-codegen marks
// (`nnapi.parallel`) run on the runtime's thread pool.

def NNAPIOutlineParallelLoops : Pass<"nnapi-outline-parallel-loops", "ModuleOp"> {
  let summary = "Outline loops of independent output tiles into functions the runtime's pool calls";
  let description = [{
    After bufferization (buffers are the results' out-parameters): each
    outermost `scf.for` that nnapi-codegen marked `nnapi.parallel`, with the
    marked loops perfectly nested in it (only pure ops between them), is
    one band of independent iterations. The band becomes a private function
    `@<func>_parallel<N>(%begin: index, %end: index, <captured values>)`
    running its iterations `[begin, end)` in the order of the nest (the
    linear index is split into the loops' indices), and the band a call of
    it over `[0, count)` carrying `nnapi.parallel_grain`: iterations per
    chunk, chosen so that a chunk holds at least `chunk-work` iteration
    points. Bands with less than `min-work` points in all stay serial loops,
    so small ops never pay for threads. Constants are cloned into the
    function; a band that captures a buffer of dynamic shape or layout
    stays serial. The pass then drops every `nnapi.parallel` mark.
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t",
           /*default=*/"::mlir::nnapi::NNAPIDialect::kMinParallelWork",
           "Iteration points below which a band stays a serial loop">,
    Option<"chunkWork", "chunk-work", "int64_t", /*default=*/"16384",
           "Iteration points a chunk of a band holds at least">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def NNAPIOutlineLayers : Pass<"nnapi-outline-layers", "ModuleOp"> {
  let summary = "Split large host functions into functions of a bounded size";
  let description = [{
    On buffers, after buffer planning: a function body of more than twice
    `layer-ops` ops (nested ones counted) is cut, in program order, into
    segments of at least `layer-ops` ops, each ending where no value it
    computes is used after it; a segment becomes a private `no_inline`
    function `@<func>_layer<N>` taking what it uses from outside (constants
    are cloned into it) and the segment one call of it. Views, globals and
    other pure ops on the function's buffers stay in the caller and are
    passed in, so that two layers with the same code differ only in their
    arguments (nnapi-merge-identical-functions then keeps one). A buffer of
    dynamic shape or layout goes as its base buffer and the dynamic parts
    of its layout, from which the layer rebuilds it. Allocations and
    deallocations end a segment. The single blocks of large ops (a
    partition call's fallback branch holding the host copy, a loop's body)
    are cut first, the same way.

    Large functions are what makes LLVM slow and hard to share between
    threads (its optimizer and code generation work per function, some of
    them in time quadratic in a block's size); cut, they balance across the
    parts `nnapi-compile` compiles at once.
  }];
  let options = [
    Option<"layerOps", "layer-ops", "unsigned", /*default=*/"150",
           "Ops (nested ones counted) a layer function holds at least">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def NNAPIMergeIdenticalFunctions
    : Pass<"nnapi-merge-identical-functions", "ModuleOp"> {
  let summary = "Keep one of each set of identical private functions";
  let description = [{
    Private functions with the same type, attributes (but their names) and
    body, ignoring locations, are one function: every use of the others'
    names refers to the first in the module's order, and the others are
    erased. Repeated until nothing changes, so that functions that differed
    only in the identical functions they call merge too. This is what makes
    a model's repeated layers (the same shapes, other weights) and their
    parallel loops compile once.
  }];
}

def NNAPILowerParallelCalls : Pass<"nnapi-lower-parallel-calls", "ModuleOp"> {
  let summary = "Turn calls of outlined parallel loops into nnapi_rt_parallel_for";
  let description = [{
    On the LLVM dialect: a call `@f(%zero, %count, %args...)` carrying
    `nnapi.parallel_grain` becomes a call of the runtime's
    `nnapi_rt_parallel_for(@f_task, %context, %count, grain)`. The
    arguments are stored into a stack struct, `%context`; `@f_task(context,
    begin, end)` loads them and calls `@f(begin, end, args...)`, which LLVM
    then inlines (both get internal linkage).
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // NNAPI_CODEGEN_PASSES_TD
