//===- Passes.td - TOSA-to-TOSA preparation passes ---------*- tablegen -*-===//
//
// Passes that rewrite TOSA before placement: layout (transposes), constant
// folding, scale/shift folding. They know nothing of the nnapi dialect.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_TOSA_TRANSFORMS_PASSES_TD
#define NNAPI_TOSA_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

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

def NNAPIFoldConstants : Pass<"nnapi-fold-constants"> {
  let summary = "Fold slices, transposes and gathers of constants into constants";
  let description = [{
    `tosa.slice`, `tosa.transpose` (constant permutation) and `tosa.gather`
    (constant indices in range) of a dense constant become the constant they
    compute; a position embedding's lookup of rows 0..n-1 is one. An imported grouped
    convolution slices its constant weights and bias per group: folded,
    each group's convolution has constant weights again, which NNAPI and
    the host code generation both need. Without the fold the slices are
    computations of their own, placed like any op.
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

#endif // NNAPI_TOSA_TRANSFORMS_PASSES_TD
