//===- Passes.td - TOSA-to-TOSA preparation passes ---------*- tablegen -*-===//
//
// Passes that rewrite TOSA before placement: layout (transposes), constant
// folding, scale/shift folding, and raising chains into named composites
// (nnapi.composite, the one op of the nnapi dialect they know), which the
// host pipeline inlines again.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_TOSA_TRANSFORMS_PASSES_TD
#define NNAPI_TOSA_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def NNAPIMaterializeSelectOperands : Pass<"nnapi-materialize-select-operands"> {
  let summary = "Give tosa.select's constant operands the result's shape";
  let description = [{
    MLIR 19's folder of `tosa.select` returns its on-true (or on-false)
    operand as soon as the predicate is a splat constant, also when that
    operand is broadcast: a `tensor<1xf32>` then stands for a
    `tensor<3xf32>`, and the function no longer verifies (an ONNX Hardmax
    over a dimension of size 1 reached it). Constant operands that are
    broadcast become constants of the result's shape (a splat stays a
    splat: no extra memory), before any pass folds:

    ```mlir
    %r = tosa.select %p, %c1, %c0 : (tensor<3x1xi1>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<3x1xf32>
    // becomes the same select of two tensor<3x1xf32> splats
    ```

    Dense constants of more than 65,536 result elements, and operands that
    are not constants, are left as they are.
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def NNAPIPropagateTransposes : Pass<"nnapi-propagate-transposes"> {
  let summary = "Sink tosa.transpose through element-wise ops, concats, reductions and reshapes, never adding one, so that inverse pairs cancel";
  let description = [{
    The ONNX importer wraps every NHWC op (convolutions, pools, resize) of an
    NCHW model in a transpose to NHWC and one back. This pass moves each
    transpose forward until it meets its inverse or the graph's output:
    below element-wise TOSA ops and concats (axis remapped) whose other
    operands are transposes by the same permutation, constants (permuted),
    tensors whose layout change moves only unit dimensions (reshaped) or
    tensors that already have a transposed copy (reused: a residual add of
    the graph input); below reductions (axis remapped); and below reshapes
    that merge dimensions adjacent in the transposed input too or split
    one (a patch embedding's [N, C, H*W]). No move adds a transpose: when an
    operand joins by a reshape or a reused copy, the sunk transposes must
    have no other user. Transposes that move only unit dimensions become
    reshapes, and such reshapes sink below element-wise ops until they
    cancel (a squeeze-excite gate). TOSA's canonicalization folds the
    pairs. An NCHW CNN keeps one transpose per feature-map input and output.
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def NNAPIChannelsLastIO : Pass<"nnapi-channels-last-io", "::mlir::func::FuncOp"> {
  let summary = "Take and return channels-last feature maps: drop the layout transposes at a public function's edges";
  let description = [{
    After `nnapi-propagate-transposes`, an NCHW model keeps one transpose to
    channels-last after each feature-map input and one back before each
    feature-map output. This pass changes a public function's signature
    instead: an argument of rank 4 or 5 whose every use is a transpose by
    [0, 2, ..., r-1, 1] becomes that transposed type (NHWC for rank 4), and a
    result that is a transpose by [0, r-1, 1, ..., r-2] is returned before the
    transpose. Other arguments and results keep their types. Callers then
    pass and receive channels-last data (`nnapi-compile --channels-last-io`).
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def NNAPISpecializeShapes : Pass<"nnapi-specialize-shapes", "ModuleOp"> {
  let summary = "Add a static copy of a dynamically shaped entry for each typical input shape";
  let description = [{
    For each shape of `shape-buckets` (nnapi-compile --shape-buckets, read
    as nnapi-export-signature reads it), adds a public copy of the entry
    function, `<entry>__shape<k>`, whose arguments have that static shape;
    tosa-infer-shapes then makes its TOSA ops static and its results take
    the inferred types. The rest of the pipeline treats the copy as a model
    of its own (placement at that size, static partitions, static host
    code with out-parameters), and nnapi-emit-entry-point calls it when a
    call's dynamic sizes are the bucket's; other sizes run the dynamic
    entry. A copy whose results stay dynamic is dropped with a warning (its
    bucket runs the dynamic code). Runs before placement.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "Name of the entry function">,
    Option<"shapeBuckets", "shape-buckets", "std::string", /*default=*/"\"\"",
           "Typical input shapes (';' between shapes, ',' between inputs)">,
  ];
  let dependentDialects = ["::mlir::tosa::TosaDialect",
                           "::mlir::tensor::TensorDialect"];
}

def NNAPIStripQuantTypes : Pass<"nnapi-strip-quant-types"> {
  let summary = "Replace quantized element types by their storage types";
  let description = [{
    TOSA from quantizing producers (a TFLite model through tosa-to-linalg's
    front ends) types 8-bit data `!quant.uniform<i8:f32, s:z>`; its scales
    and zero points also live in the ops that compute with it
    (`tosa.rescale`'s multipliers, shifts and zero points, the
    `quantization_info` of convolutions, matmuls and pools). MLIR 19's
    tosa-to-linalg crashes on rescales of quantized types and the host code
    computes on integers, so every quantized element type (of results, block
    arguments and function signatures) becomes its storage type: signless
    for signed storage (i8, i16, i32), unsigned (ui8) for unsigned storage,
    as TOSA spells unsigned data. Constants keep their values (their
    attributes are of the storage type already).
  }];
}

def NNAPIFoldConstants : Pass<"nnapi-fold-constants"> {
  let summary = "Fold slices, transposes, gathers and dequantizations of constants into constants";
  let description = [{
    `tosa.slice`, `tosa.transpose` (constant permutation) and `tosa.gather`
    (constant indices in range) of a dense constant become the constant they
    compute; a position embedding's lookup of rows 0..n-1 is one. An imported grouped
    convolution slices its constant weights and bias per group: folded,
    each group's convolution has constant weights again, which NNAPI and
    the host code generation both need. Without the fold the slices are
    computations of their own, placed like any op. A `dequantize` composite
    of constant integers (a QDQ model's int8 weights and int32 biases)
    becomes the float32 values its body computes, in the same float32
    operations, so a float operation between DequantizeLinear and
    QuantizeLinear has constant weights too.
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect"];
}

def NNAPIRaiseQuantizedTosa : Pass<"nnapi-raise-quantized-tosa"> {
  let summary = "Raise quantized TOSA convolutions into quantized composites";
  let description = [{
    Quantized TOSA from other producers (a TFLite model through TOSA)
    carries its parameters in `!quant.uniform` element types, which
    nnapi-strip-quant-types removes. Before it, this pass turns a
    `tosa.conv2d` or `tosa.depthwise_conv2d` on per-tensor int8 data with
    constant int8 weights (zero point 0; per-tensor, or per output channel
    along the weights' channel dimension), a constant int32 bias and the
    input's zero point in `quantization_info`, whose only use is a
    `tosa.rescale` to per-tensor int8 with multipliers that are input scale
    x weight scale / output scale (relative error 1e-6), possibly followed
    by a clamp of the stored values, into one `quantized` composite with
    the parameters read off the types: what NNAPI runs as one int8
    CONV_2D / DEPTHWISE_CONV_2D (the clamp a fused activation when its
    bounds are one's range). The body keeps the TOSA ops, so the host copy
    computes TOSA's integer arithmetic exactly as before. Groups that do not
    fit stay as they are.
  }];
  let dependentDialects = ["::mlir::nnapi::NNAPIDialect"];
}

def NNAPIRaiseQuantized : Pass<"nnapi-raise-quantized"> {
  let summary = "Raise dequantize -> float op -> quantize into quantized composites";
  let description = [{
    A `tosa.conv2d`, `tosa.depthwise_conv2d` or `tosa.fully_connected` whose
    input comes from a per-tensor `dequantize` composite, whose weights are
    a `dequantize` composite of constant int8 values (through transposes
    and reshapes, applied to the constant here), whose bias is a
    `dequantize` composite of constant int32 values in units of input scale
    x weight scale (or a float constant, quantized here), and whose only
    use, possibly through a clamp, is a per-tensor `quantize` composite,
    becomes one `quantized` composite (Composites.h), and so do
    dequantize + dequantize -> `tosa.add` / `tosa.mul` (-> clamp) ->
    quantize, dequantize (-> reshape) -> `tosa.matmul` by a constant
    dequantized matrix (-> reshape) -> quantize (an imported MatMul), and
    dequantize... -> a pool (-> clamp), reshape,
    concatenation, sigmoid, tanh, or softmax / hard swish composite ->
    quantize whose parameters NNAPI's operation takes (pools and reshape
    keep their input's; LOGISTIC, TANH and SOFTMAX have fixed output
    parameters: NNAPI/Operations.h, quantizedOutputError): what ONNX's QDQ
    format means by the group, and what NNAPI runs as one 8-bit operation.
    The body keeps the float chain, so the host copy computes what it did.
    Groups that do not fit (per-channel weights of a fully connected
    operation, weight zero points with per-channel scales, a bias in other
    units, other output parameters) stay float. The partition pipeline runs
    it twice: before constants fold, and after nnapi-raise-composites for
    the groups around softmax and hard swish.
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

def NNAPIRaiseComposites : Pass<"nnapi-raise-composites"> {
  let summary = "Raise TOSA chains that mean one operation into named nnapi.composite ops";
  let description = [{
    Finds the chains of TOSA ops that compute one thing NNAPI has a single
    operation for (softmax, mean, hard swish, PReLU, ELU, log-softmax,
    instance and L2 normalization, LRN, mirror pad, depth/space
    rearrangements, grouped convolutions, channel shuffles, splits, strided
    slices, not-equal, argmin: `nnapi-mlir/Transforms/Composites.h` lists
    them with their parameters), as the ONNX importer or any TOSA producer
    writes them, and replaces each with an `nnapi.composite` whose body is
    the chain. Composites nest (an instance normalization holds two means):
    the larger one is raised. A chain whose intermediate values are used
    outside it is left alone. Run it last before nnapi-partition: placement
    sees one op per composite, the conversion has one pattern per name.
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect",
                           "::mlir::nnapi::NNAPIDialect"];
}

def NNAPIInlineComposites : Pass<"nnapi-inline-composites"> {
  let summary = "Replace each nnapi.composite with its body";
  let description = [{
    The host pipeline's first step: every `nnapi.composite` left on the host
    (or in a partition's host copy) becomes the TOSA ops of its body again,
    inner composites too. Quantized composites first get their host form
    (`composite::quantizedHostBody`): a QDQ convolution computes the exact
    integer sums of its 8-bit operands instead of a float convolution, and
    it and a QDQ addition requantize with one multiplier, not a division.
  }];
}

#endif // NNAPI_TOSA_TRANSFORMS_PASSES_TD
