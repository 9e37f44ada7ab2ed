//===- NNAPIOps.td - nnapi dialect operations --------------*- tablegen -*-===//
#ifndef NNAPI_OPS_TD
#define NNAPI_OPS_TD

include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.td"
include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIInterfaces.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Enums and types
//===----------------------------------------------------------------------===//

def NNAPI_FuseNone : I32EnumAttrCase<"none", 0>;
def NNAPI_FuseRelu : I32EnumAttrCase<"relu", 1>;
def NNAPI_FuseRelu1 : I32EnumAttrCase<"relu1", 2>;
def NNAPI_FuseRelu6 : I32EnumAttrCase<"relu6", 3>;
def NNAPI_FuseCodeAttr : I32EnumAttr<"FuseCode",
    "NNAPI fused activation (FuseCode)",
    [NNAPI_FuseNone, NNAPI_FuseRelu, NNAPI_FuseRelu1, NNAPI_FuseRelu6]> {
  let cppNamespace = "::mlir::nnapi";
}

/// Ranked tensors. A dynamic dimension is allowed only on operations whose
/// output shapes the NNAPI spec's rules compute (nnapi-mlir/NNAPI/Shapes.h):
/// the runtime fills it in at each call (verifySpecOperands).
def NNAPI_FloatTensor : RankedTensorOf<[F32, F16]>;
/// An 8-bit quantized element (`!quant.uniform<i8:f32, ...>`:
/// TENSOR_QUANT8_ASYMM_SIGNED, u8: TENSOR_QUANT8_ASYMM, per axis:
/// TENSOR_QUANT8_SYMM_PER_CHANNEL) or a 32-bit one (a quantized bias:
/// TENSOR_INT32 with a scale).
def NNAPI_QuantType : Type<
    CPred<"::llvm::isa<::mlir::quant::QuantizedType>($_self)">,
    "quantized type">;
/// The data of operations that take float or 8-bit quantized tensors.
def NNAPI_DataTensor : RankedTensorOf<[F32, F16, NNAPI_QuantType]>;
/// A bias: float, or TENSOR_INT32 (plain, or with a scale) for quantized data.
def NNAPI_BiasTensor : RankedTensorOf<[F32, F16, I32, NNAPI_QuantType]>;
/// TENSOR_BOOL8: one byte per element in the blob and in memory.
def NNAPI_BoolTensor : RankedTensorOf<[I1]>;
def NNAPI_IntTensor : RankedTensorOf<[I32]>;
/// A window's explicit padding [left, right, top, bottom], and its strides,
/// dilations or size [w, h]: their counts are checked with the operation's
/// invariants, before anything reads them by position (Operands.cpp). Their
/// values are NNAPI's rules (verifySpecShapes).
def NNAPI_WindowPadding : ConfinedAttr<DenseI64ArrayAttr, [DenseArrayCount<4>]>;
def NNAPI_WidthHeight : ConfinedAttr<DenseI64ArrayAttr, [DenseArrayCount<2>]>;

//===----------------------------------------------------------------------===//
// Base classes
//===----------------------------------------------------------------------===//

// A rule of the compiler's own that needs feature level `level` when
// `condition` (C++ on the op) holds; `what` says what needs it. Operand
// rules (types, ranks, optional operands) are not written here: they are the
// NNAPI spec's (nnapi-mlir/NNAPI/Layouts.h), applied to the operands the op
// gives by role (Operands.cpp). Only behaviour the lowering relies on that
// NNAPI defines from some level belongs here.
class NNAPI_LevelRule<int lvl, string description, code cond> {
  int level = lvl;
  string what = description;
  code condition = cond;
}

// `operation` names the NNAPI operation (a row of NNAPI/Operations.def, which
// gives its code and the feature level that introduced it). `levelRules`
// raise the level further for behaviour (above); they become the op's
// raiseFeatureLevel() and its line in docs/ops.md (kFeatureLevelRules).
class NNAPI_Op<string mnemonic, string operation, list<Trait> traits = []>
    : Op<NNAPI_Dialect, mnemonic,
         !listconcat(traits, [Pure, NNAPI_OperationInterface])> {
  code extraNNAPIDeclaration = "";
  list<NNAPI_LevelRule> levelRules = [];
  let extraClassDeclaration = [{
    static constexpr int32_t kOperationCode = ANEURALNETWORKS_}] # operation # [{;
    /// The behaviour rules of this op that need a feature level beyond
    /// its operands', as "what (level)".
    static constexpr ::llvm::StringLiteral kFeatureLevelRules = "}] #
        !interleave(!foreach(r, levelRules, r.what # " (" # r.level # ")"),
                    ", ") # [{";
    /// Applies those rules (see NNAPIOperationInterface).
    void raiseFeatureLevel([[maybe_unused]] ::mlir::nnapi::FeatureLevelNeed &need) {
  }] # !foldl("", levelRules, acc, r,
              acc # "if (" # r.condition # ") need.require(" # r.level #
              ", \"" # r.what # "\");\n") # [{
    }
  }] # extraNNAPIDeclaration;
}

class NNAPI_BinaryOp<string mnemonic, string operation,
                     TypeConstraint data = NNAPI_FloatTensor>
    : NNAPI_Op<mnemonic, operation> {
  let summary = "element-wise " # mnemonic # " with numpy broadcasting";
  let description = [{
    NNAPI }] # !toupper(mnemonic) # [{: element-wise with numpy-style
    broadcasting of operands up to rank 4 and a fused activation.

    ```mlir
    %r = nnapi.}] # mnemonic # [{ %a, %b fused relu
        : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
    ```
  }];
  let arguments = (ins data:$lhs, data:$rhs,
      DefaultValuedAttr<NNAPI_FuseCodeAttr, "::mlir::nnapi::FuseCode::none">:$fused_activation);
  let results = (outs data:$output);
  let assemblyFormat = [{
    $lhs `,` $rhs (`fused` $fused_activation^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

class NNAPI_PlainBinaryOp<string mnemonic, string operation, string what>
    : NNAPI_Op<mnemonic, operation> {
  let summary = what # ", element-wise with numpy broadcasting";
  let description = [{
    NNAPI }] # operation # [{ (}] # what # [{): element-wise with numpy-style
    broadcasting of operands of rank 1 to 4; no fused activation.

    ```mlir
    %r = nnapi.}] # mnemonic # [{ %a, %b
        : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$lhs, NNAPI_FloatTensor:$rhs);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

class NNAPI_UnaryOp<string mnemonic, string operation, string what>
    : NNAPI_Op<mnemonic, operation, [SameOperandsAndResultType]> {
  let summary = what;
  let description = [{
    NNAPI }] # !toupper(mnemonic) # [{ (}] # what # [{), element-wise on a
    tensor of rank 1 to 4.

    ```mlir
    %r = nnapi.}] # mnemonic # [{ %x : tensor<1x8x8x4xf32>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

// A unary operation that also takes 8-bit quantized data, whose result may
// be quantized with other parameters (NNAPI's rules: quantizedOutputError);
// its type prints once when it is the input's, else `T -> U`.
class NNAPI_QuantUnaryOp<string mnemonic, string operation, string what>
    : NNAPI_Op<mnemonic, operation, [SameOperandsAndResultShape]> {
  let summary = what;
  let description = [{
    NNAPI }] # !toupper(mnemonic) # [{ (}] # what # [{), element-wise on a
    tensor of rank 1 to 4; also on 8-bit quantized data.

    ```mlir
    %r = nnapi.}] # mnemonic # [{ %x : tensor<1x8x8x4xf32>
    ```
  }];
  let arguments = (ins NNAPI_DataTensor:$input);
  let results = (outs NNAPI_DataTensor:$output);
  let assemblyFormat =
      "$input attr-dict `:` custom<ResultType>(type($input), type($output))";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Element-wise
//===----------------------------------------------------------------------===//

// ADD also on 8-bit quantized data (each operand its own scale).
def NNAPI_AddOp : NNAPI_BinaryOp<"add", "ADD", NNAPI_DataTensor>;
def NNAPI_MulOp : NNAPI_BinaryOp<"mul", "MUL", NNAPI_DataTensor>;
def NNAPI_SubOp : NNAPI_BinaryOp<"sub", "SUB">;
def NNAPI_DivOp : NNAPI_BinaryOp<"div", "DIV">;

def NNAPI_ReluOp : NNAPI_UnaryOp<"relu", "RELU", "max(x, 0)">;
def NNAPI_Relu1Op : NNAPI_UnaryOp<"relu1", "RELU1", "clamp(x, -1, 1)">;
def NNAPI_Relu6Op : NNAPI_UnaryOp<"relu6", "RELU6", "clamp(x, 0, 6)">;
def NNAPI_LogisticOp : NNAPI_QuantUnaryOp<"logistic", "LOGISTIC", "1 / (1 + exp(-x))">;
def NNAPI_TanhOp : NNAPI_QuantUnaryOp<"tanh", "TANH", "hyperbolic tangent">;
def NNAPI_ExpOp : NNAPI_UnaryOp<"exp", "EXP", "e^x">;
def NNAPI_LogOp : NNAPI_UnaryOp<"log", "LOG", "natural logarithm">;
def NNAPI_SqrtOp : NNAPI_UnaryOp<"sqrt", "SQRT", "square root">;
def NNAPI_RsqrtOp : NNAPI_UnaryOp<"rsqrt", "RSQRT", "1 / sqrt(x)">;
def NNAPI_AbsOp : NNAPI_UnaryOp<"abs", "ABS", "absolute value">;
def NNAPI_NegOp : NNAPI_UnaryOp<"neg", "NEG", "-x">;
def NNAPI_FloorOp : NNAPI_UnaryOp<"floor", "FLOOR", "largest integer not above x">;
def NNAPI_SinOp : NNAPI_UnaryOp<"sin", "SIN", "sine">;
def NNAPI_HardSwishOp : NNAPI_QuantUnaryOp<"hard_swish", "HARD_SWISH",
                                      "x * relu6(x + 3) / 6">;

def NNAPI_MaximumOp : NNAPI_PlainBinaryOp<"maximum", "MAXIMUM", "max(a, b)">;
def NNAPI_MinimumOp : NNAPI_PlainBinaryOp<"minimum", "MINIMUM", "min(a, b)">;
def NNAPI_PowOp : NNAPI_PlainBinaryOp<"pow", "POW", "a^b">;
def NNAPI_PreluOp : NNAPI_PlainBinaryOp<"prelu", "PRELU",
                                        "a >= 0 ? a : a * b">;

def NNAPI_EluOp : NNAPI_Op<"elu", "ELU", [SameOperandsAndResultType]> {
  let summary = "exponential linear unit";
  let description = [{
    NNAPI ELU: max(0, x) + min(0, alpha * (exp(x) - 1)), element-wise on a
    tensor of rank 1 to 4.

    ```mlir
    %y = nnapi.elu %x alpha = 1.0 : tensor<1x8xf32>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input, F32Attr:$alpha);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = "$input `alpha` `=` $alpha attr-dict `:` type($input)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Comparisons, logical operations, selection (TENSOR_BOOL8)
//===----------------------------------------------------------------------===//

class NNAPI_CompareOp<string mnemonic, string operation, string what>
    : NNAPI_Op<mnemonic, operation> {
  let summary = what # ", element-wise, to a bool tensor";
  let description = [{
    NNAPI }] # operation # [{: }] # what # [{ of two float tensors of rank 1
    to 4 with numpy-style broadcasting; the result is TENSOR_BOOL8.

    ```mlir
    %r = nnapi.}] # mnemonic # [{ %a, %b
        : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xi1>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$lhs, NNAPI_FloatTensor:$rhs);
  let results = (outs NNAPI_BoolTensor:$output);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def NNAPI_EqualOp : NNAPI_CompareOp<"equal", "EQUAL", "a == b">;
def NNAPI_NotEqualOp : NNAPI_CompareOp<"not_equal", "NOT_EQUAL", "a != b">;
def NNAPI_GreaterOp : NNAPI_CompareOp<"greater", "GREATER", "a > b">;
def NNAPI_GreaterEqualOp
    : NNAPI_CompareOp<"greater_equal", "GREATER_EQUAL", "a >= b">;

class NNAPI_LogicalBinaryOp<string mnemonic, string operation, string what>
    : NNAPI_Op<mnemonic, operation> {
  let summary = "logical " # what # ", element-wise";
  let description = [{
    NNAPI }] # operation # [{ of two bool tensors of rank 1 to 4 with
    numpy-style broadcasting.

    ```mlir
    %r = nnapi.}] # mnemonic # [{ %a, %b
        : (tensor<2x4xi1>, tensor<2x4xi1>) -> tensor<2x4xi1>
    ```
  }];
  let arguments = (ins NNAPI_BoolTensor:$lhs, NNAPI_BoolTensor:$rhs);
  let results = (outs NNAPI_BoolTensor:$output);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def NNAPI_LogicalAndOp : NNAPI_LogicalBinaryOp<"logical_and", "LOGICAL_AND", "and">;
def NNAPI_LogicalOrOp : NNAPI_LogicalBinaryOp<"logical_or", "LOGICAL_OR", "or">;

def NNAPI_LogicalNotOp : NNAPI_Op<"logical_not", "LOGICAL_NOT",
                                  [SameOperandsAndResultType]> {
  let summary = "logical not, element-wise";
  let description = [{
    NNAPI LOGICAL_NOT of a bool tensor of rank 1 to 4.

    ```mlir
    %r = nnapi.logical_not %a : tensor<2x4xi1>
    ```
  }];
  let arguments = (ins NNAPI_BoolTensor:$input);
  let results = (outs NNAPI_BoolTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def NNAPI_CastOp : NNAPI_Op<"cast", "CAST"> {
  let summary = "convert elements to another type";
  let description = [{
    NNAPI CAST between TENSOR_FLOAT32, TENSOR_FLOAT16, TENSOR_INT32 and (from
    feature level 4) TENSOR_BOOL8 tensors of one shape: a float narrows to
    float16 by rounding to nearest, an integer or bool becomes the float of
    its value, any value becomes the bool `value != 0`. A float becomes an
    integer by a rounding NNAPI leaves unspecified; the TOSA patterns never
    ask for that.

    ```mlir
    %y = nnapi.cast %mask : (tensor<1x16xi1>) -> tensor<1x16xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[NNAPI_FloatTensor, NNAPI_IntTensor,
                                   NNAPI_BoolTensor]>:$input);
  let results = (outs AnyTypeOf<[NNAPI_FloatTensor, NNAPI_IntTensor,
                                 NNAPI_BoolTensor]>:$output);
  let assemblyFormat = [{
    $input attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def NNAPI_SelectOp : NNAPI_Op<"select", "SELECT"> {
  let summary = "choose elements of two tensors by a bool tensor";
  let description = [{
    NNAPI SELECT: `condition ? a : b` element by element. The three operands
    and the result have one shape (SELECT does not broadcast).

    ```mlir
    %r = nnapi.select %c, %a, %b
        : (tensor<2x4xi1>, tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins NNAPI_BoolTensor:$condition, NNAPI_FloatTensor:$on_true,
                       NNAPI_FloatTensor:$on_false);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = [{
    $condition `,` $on_true `,` $on_false attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Convolutions and pooling (NHWC)
//===----------------------------------------------------------------------===//

def NNAPI_Conv2DOp : NNAPI_Op<"conv_2d", "CONV_2D"> {
  let summary = "2-D convolution, NHWC, explicit padding";
  let description = [{
    NNAPI CONV_2D with explicit padding. `input` is [batch, h, w, in],
    `filter` is [out, kh, kw, in], `bias` is [out]. `padding` is
    [left, right, top, bottom], `strides` and `dilations` are [w, h] (NNAPI's
    operand order). Dilations other than 1 need feature level 3.

    ```mlir
    %y = nnapi.conv_2d %x, %w, %b padding = [1, 1, 1, 1] strides = [1, 1]
        dilations = [1, 1] fused relu
        : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>)
        -> tensor<1x8x8x4xf32>
    ```
  }];
  let arguments = (ins NNAPI_DataTensor:$input, NNAPI_DataTensor:$filter,
      NNAPI_BiasTensor:$bias, NNAPI_WindowPadding:$padding,
      NNAPI_WidthHeight:$strides, NNAPI_WidthHeight:$dilations,
      DefaultValuedAttr<NNAPI_FuseCodeAttr, "::mlir::nnapi::FuseCode::none">:$fused_activation);
  let results = (outs NNAPI_DataTensor:$output);
  let assemblyFormat = [{
    $input `,` $filter `,` $bias `padding` `=` $padding `strides` `=` $strides
    `dilations` `=` $dilations (`fused` $fused_activation^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def NNAPI_DepthwiseConv2DOp : NNAPI_Op<"depthwise_conv_2d", "DEPTHWISE_CONV_2D"> {
  let summary = "depthwise 2-D convolution, NHWC, explicit padding";
  let description = [{
    NNAPI DEPTHWISE_CONV_2D. `filter` is [1, kh, kw, out] with
    out = in * depth_multiplier; output channel c * multiplier + m reads input
    channel c. Attributes as for nnapi.conv_2d.

    ```mlir
    %y = nnapi.depthwise_conv_2d %x, %w, %b padding = [1, 1, 1, 1]
        strides = [1, 1] dilations = [1, 1] depth_multiplier = 1
        : (tensor<1x8x8x4xf32>, tensor<1x3x3x4xf32>, tensor<4xf32>)
        -> tensor<1x8x8x4xf32>
    ```
  }];
  let arguments = (ins NNAPI_DataTensor:$input, NNAPI_DataTensor:$filter,
      NNAPI_BiasTensor:$bias, NNAPI_WindowPadding:$padding,
      NNAPI_WidthHeight:$strides, NNAPI_WidthHeight:$dilations,
      I32Attr:$depth_multiplier,
      DefaultValuedAttr<NNAPI_FuseCodeAttr, "::mlir::nnapi::FuseCode::none">:$fused_activation);
  let results = (outs NNAPI_DataTensor:$output);
  let assemblyFormat = [{
    $input `,` $filter `,` $bias `padding` `=` $padding `strides` `=` $strides
    `dilations` `=` $dilations `depth_multiplier` `=` $depth_multiplier
    (`fused` $fused_activation^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def NNAPI_GroupedConv2DOp : NNAPI_Op<"grouped_conv_2d", "GROUPED_CONV_2D"> {
  let summary = "grouped 2-D convolution, NHWC, explicit padding";
  let description = [{
    NNAPI GROUPED_CONV_2D: the input's channels and the output's split into
    `num_groups` equal groups; output group g convolves input group g.
    `filter` is [out, kh, kw, in / num_groups], `bias` [out]; `padding`
    [left, right, top, bottom] and `strides` [w, h] as for nnapi.conv_2d
    (no dilation).

    ```mlir
    %y = nnapi.grouped_conv_2d %x, %w, %b padding = [1, 1, 1, 1]
        strides = [1, 1] num_groups = 2
        : (tensor<1x8x8x4xf32>, tensor<8x3x3x2xf32>, tensor<8xf32>)
        -> tensor<1x8x8x8xf32>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input, NNAPI_FloatTensor:$filter,
      NNAPI_FloatTensor:$bias, NNAPI_WindowPadding:$padding,
      NNAPI_WidthHeight:$strides, I32Attr:$num_groups,
      DefaultValuedAttr<NNAPI_FuseCodeAttr, "::mlir::nnapi::FuseCode::none">:$fused_activation);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = [{
    $input `,` $filter `,` $bias `padding` `=` $padding `strides` `=` $strides
    `num_groups` `=` $num_groups (`fused` $fused_activation^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def NNAPI_TransposeConv2DOp
    : NNAPI_Op<"transpose_conv_2d", "TRANSPOSE_CONV_2D"> {
  let summary = "transposed 2-D convolution, NHWC, explicit padding";
  let description = [{
    NNAPI TRANSPOSE_CONV_2D with explicit padding: every input pixel (y, x)
    adds `filter` times its value at output (y * stride_h + ky - top,
    x * stride_w + kx - left); the output is [batch, (h - 1) * stride_h + kh
    - top - bottom, (w - 1) * stride_w + kw - left - right, out]. `filter` is
    [out, kh, kw, in], `bias` [out]; `padding` [left, right, top, bottom]
    crops the full output, `strides` are [w, h].

    ```mlir
    %y = nnapi.transpose_conv_2d %x, %w, %b padding = [0, 0, 0, 0]
        strides = [2, 2]
        : (tensor<1x4x4x8xf32>, tensor<4x2x2x8xf32>, tensor<4xf32>)
        -> tensor<1x8x8x4xf32>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input, NNAPI_FloatTensor:$filter,
      NNAPI_FloatTensor:$bias, NNAPI_WindowPadding:$padding,
      NNAPI_WidthHeight:$strides,
      DefaultValuedAttr<NNAPI_FuseCodeAttr, "::mlir::nnapi::FuseCode::none">:$fused_activation);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = [{
    $input `,` $filter `,` $bias `padding` `=` $padding `strides` `=` $strides
    (`fused` $fused_activation^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def NNAPI_QuantizeOp : NNAPI_Op<"quantize", "QUANTIZE"> {
  let summary = "float to 8-bit quantized";
  let description = [{
    NNAPI QUANTIZE: round(x / scale) + zero point, saturated, with the
    result type's scale and zero point (NNAPI rounds halves away from zero).

    ```mlir
    %q = nnapi.quantize %x : (tensor<1x8xf32>) -> tensor<1x8x!quant.uniform<i8:f32, 0.1:-3>>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input);
  let results = (outs NNAPI_DataTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def NNAPI_DequantizeOp : NNAPI_Op<"dequantize", "DEQUANTIZE"> {
  let summary = "8-bit quantized to float";
  let description = [{
    NNAPI DEQUANTIZE: (q - zero point) * scale.

    ```mlir
    %x = nnapi.dequantize %q : (tensor<1x8x!quant.uniform<i8:f32, 0.1:-3>>) -> tensor<1x8xf32>
    ```
  }];
  let arguments = (ins NNAPI_DataTensor:$input);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def NNAPI_FullyConnectedOp : NNAPI_Op<"fully_connected", "FULLY_CONNECTED"> {
  let summary = "fully connected layer";
  let description = [{
    NNAPI FULLY_CONNECTED: the input (rank 2 to 4) is flattened to
    [batch, input_size] with input_size = weights' dimension 1; the result is
    input x weights^T + bias, shape [batch, units].

    ```mlir
    %y = nnapi.fully_connected %x, %w, %b
        : (tensor<1x64xf32>, tensor<10x64xf32>, tensor<10xf32>) -> tensor<1x10xf32>
    ```
  }];
  let arguments = (ins NNAPI_DataTensor:$input, NNAPI_DataTensor:$weights,
      NNAPI_BiasTensor:$bias,
      DefaultValuedAttr<NNAPI_FuseCodeAttr, "::mlir::nnapi::FuseCode::none">:$fused_activation);
  let results = (outs NNAPI_DataTensor:$output);
  let assemblyFormat = [{
    $input `,` $weights `,` $bias (`fused` $fused_activation^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

class NNAPI_PoolOp<string mnemonic, string operation, string what>
    : NNAPI_Op<mnemonic, operation> {
  let summary = what # " pooling, NHWC, explicit padding";
  let description = [{
    NNAPI }] # !toupper(mnemonic) # [{. `padding` is [left, right, top,
    bottom], `strides` and `filter` are [w, h]. Average pooling divides by
    the number of window elements inside the input (padding not counted).
    8-bit quantized data keeps its scale and zero point.

    ```mlir
    %y = nnapi.}] # mnemonic # [{ %x padding = [0, 0, 0, 0] strides = [2, 2]
        filter = [2, 2] : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
    ```
  }];
  let arguments = (ins NNAPI_DataTensor:$input, NNAPI_WindowPadding:$padding,
      NNAPI_WidthHeight:$strides, NNAPI_WidthHeight:$filter,
      DefaultValuedAttr<NNAPI_FuseCodeAttr, "::mlir::nnapi::FuseCode::none">:$fused_activation);
  let results = (outs NNAPI_DataTensor:$output);
  let assemblyFormat = [{
    $input `padding` `=` $padding `strides` `=` $strides `filter` `=` $filter
    (`fused` $fused_activation^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def NNAPI_MaxPool2DOp : NNAPI_PoolOp<"max_pool_2d", "MAX_POOL_2D", "max">;
def NNAPI_AveragePool2DOp : NNAPI_PoolOp<"average_pool_2d", "AVERAGE_POOL_2D", "average">;

class NNAPI_ResizeOp<string mnemonic, string operation, string kind,
                     string what>
    : NNAPI_Op<mnemonic, operation> {
  let summary = kind # " resize of height and width, NHWC";
  let description = [{
    NNAPI }] # operation # [{ to the result type's height and width (the
    serializer emits them as NNAPI's output size operands), with
    scale = in / out, or (in - 1) / (out - 1) with `align_corners`. }] # what
    # [{ The two flags need feature level 4 and exclude each other.

    ```mlir
    %y = nnapi.}] # mnemonic # [{ %x half_pixel_centers
        : (tensor<1x4x4x8xf32>) -> tensor<1x8x8x8xf32>
    ```
  }];
  let arguments = (ins NNAPI_DataTensor:$input, UnitAttr:$align_corners,
                       UnitAttr:$half_pixel_centers);
  let results = (outs NNAPI_DataTensor:$output);
  let assemblyFormat = [{
    $input (`align_corners` $align_corners^)?
    (`half_pixel_centers` $half_pixel_centers^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def NNAPI_ResizeBilinearOp : NNAPI_ResizeOp<"resize_bilinear",
    "RESIZE_BILINEAR", "bilinear", "Output row y interpolates the two input rows "
    "around y * scale, or (y + 0.5) * scale - 0.5 with `half_pixel_centers`, "
    "a sample outside the input taking its edge (columns alike).">;
def NNAPI_ResizeNearestNeighborOp : NNAPI_ResizeOp<"resize_nearest_neighbor",
    "RESIZE_NEAREST_NEIGHBOR", "nearest-neighbor", "Output row y copies input row floor(y * "
    "scale), floor((y + 0.5) * scale) with `half_pixel_centers`, or "
    "round(y * scale) with `align_corners`, at most in - 1 (columns alike).">;

//===----------------------------------------------------------------------===//
// Shape and normalization
//===----------------------------------------------------------------------===//

def NNAPI_ReshapeOp : NNAPI_Op<"reshape", "RESHAPE"> {
  let summary = "reshape to the result type's shape";
  let description = [{
    NNAPI RESHAPE. The target shape is the result type; the serializer emits
    it as NNAPI's constant shape operand. 8-bit quantized data keeps its
    scale and zero point.

    ```mlir
    %y = nnapi.reshape %x : (tensor<1x4x4x8xf32>) -> tensor<1x128xf32>
    ```
  }];
  let arguments = (ins NNAPI_DataTensor:$input);
  let results = (outs NNAPI_DataTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def NNAPI_SoftmaxOp : NNAPI_Op<"softmax", "SOFTMAX", [SameOperandsAndResultShape]> {
  let summary = "softmax(beta * x) along an axis";
  let description = [{
    NNAPI SOFTMAX. Feature level 1 accepts only rank 2 or 4 inputs and the
    last axis; any other rank (1 to 4) or axis needs feature level 3.

    ```mlir
    %y = nnapi.softmax %x beta = 1.0 axis = -1 : tensor<1x10xf32>
    ```
  }];
  let arguments = (ins NNAPI_DataTensor:$input, F32Attr:$beta,
      DefaultValuedAttr<I32Attr, "-1">:$axis);
  let results = (outs NNAPI_DataTensor:$output);
  let assemblyFormat = [{
    $input `beta` `=` $beta (`axis` `=` $axis^)? attr-dict `:`
    custom<ResultType>(type($input), type($output))
  }];
  let hasVerifier = 1;
}

def NNAPI_LogSoftmaxOp
    : NNAPI_Op<"log_softmax", "LOG_SOFTMAX", [SameOperandsAndResultType]> {
  let summary = "log(softmax(beta * x)) along an axis";
  let description = [{
    NNAPI LOG_SOFTMAX: beta * x - log(sum(exp(beta * x))) along `axis`, of a
    tensor of rank 1 to 4.

    ```mlir
    %y = nnapi.log_softmax %x beta = 1.0 axis = -1 : tensor<1x10xf32>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input, F32Attr:$beta, I32Attr:$axis);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = [{
    $input `beta` `=` $beta `axis` `=` $axis attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

def NNAPI_InstanceNormalizationOp
    : NNAPI_Op<"instance_normalization", "INSTANCE_NORMALIZATION",
               [SameOperandsAndResultType]> {
  let summary = "normalize each image channel over its height and width";
  let description = [{
    NNAPI INSTANCE_NORMALIZATION of a 4-D tensor: per batch and channel,
    (x - mean) * gamma / sqrt(variance + epsilon) + beta, the mean and
    (biased) variance taken over height and width. The layout is NHWC, or
    NCHW with `nchw`.

    ```mlir
    %y = nnapi.instance_normalization %x gamma = 1.0 beta = 0.0
        epsilon = 1.0e-05 nchw : tensor<1x8x16x16xf32>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input, F32Attr:$gamma,
                       F32Attr:$beta, F32Attr:$epsilon, UnitAttr:$nchw);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = [{
    $input `gamma` `=` $gamma `beta` `=` $beta `epsilon` `=` $epsilon
    (`nchw` $nchw^)? attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

def NNAPI_LocalResponseNormalizationOp
    : NNAPI_Op<"local_response_normalization", "LOCAL_RESPONSE_NORMALIZATION",
               [SameOperandsAndResultType]> {
  let summary = "normalize by the squares of neighbouring channels";
  let description = [{
    NNAPI LOCAL_RESPONSE_NORMALIZATION along `axis`: x / (bias + alpha *
    s)^beta, s the sum of the squares of the elements at most `radius` away
    along the axis (the window is cut at the ends). An axis other than the
    last needs feature level 3.

    ```mlir
    %y = nnapi.local_response_normalization %x radius = 2 bias = 1.0
        alpha = 2.0e-05 beta = 0.75 axis = 1 : tensor<1x16x8x8xf32>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input, I32Attr:$radius,
                       F32Attr:$bias, F32Attr:$alpha, F32Attr:$beta,
                       I32Attr:$axis);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = [{
    $input `radius` `=` $radius `bias` `=` $bias `alpha` `=` $alpha
    `beta` `=` $beta `axis` `=` $axis attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
}

def NNAPI_L2NormalizationOp
    : NNAPI_Op<"l2_normalization", "L2_NORMALIZATION",
               [SameOperandsAndResultType]> {
  let summary = "divide by the L2 norm along an axis";
  let description = [{
    NNAPI L2_NORMALIZATION along `axis`: x / sqrt(sum of the squares along
    the axis); a vector of zeros gives zeros. NNAPI defines that result
    from feature level 4 (it is undefined before), so the op needs level 4;
    an axis other than the last or a rank other than 4 would need level 3.

    ```mlir
    %y = nnapi.l2_normalization %x axis = 1 : tensor<2x8xf32>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input, I32Attr:$axis);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = "$input `axis` `=` $axis attr-dict `:` type($input)";
  let hasVerifier = 1;
  // Not an operand rule: below level 4 the result for a vector of zeros is
  // undefined, and the lowering relies on zeros.
  let levelRules = [
    NNAPI_LevelRule<4, "zeros for a vector of zeros (undefined before)",
                    [{ true }]>];
}

def NNAPI_ConcatenationOp : NNAPI_Op<"concatenation", "CONCATENATION"> {
  let summary = "concatenate tensors along an axis";
  let description = [{
    NNAPI CONCATENATION of one or more tensors of equal rank (1 to 4) that
    agree on every dimension but `axis`. 8-bit quantized inputs may have
    other scales and zero points than the output from feature level 3.

    ```mlir
    %y = nnapi.concatenation %a, %b axis = 3
        : (tensor<1x4x4x2xf32>, tensor<1x4x4x3xf32>) -> tensor<1x4x4x5xf32>
    ```
  }];
  let arguments = (ins Variadic<NNAPI_DataTensor>:$inputs, I32Attr:$axis);
  let results = (outs NNAPI_DataTensor:$output);
  let assemblyFormat = [{
    $inputs `axis` `=` $axis attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

def NNAPI_TransposeOp : NNAPI_Op<"transpose", "TRANSPOSE"> {
  let summary = "permute the dimensions";
  let description = [{
    NNAPI TRANSPOSE: result dimension i is input dimension `perm[i]`. The
    serializer emits `perm` as NNAPI's constant TENSOR_INT32 operand.
    8-bit quantized data keeps its scale and zero point.

    ```mlir
    %y = nnapi.transpose %x perm = [0, 3, 1, 2]
        : (tensor<1x8x8x4xf32>) -> tensor<1x4x8x8xf32>
    ```
  }];
  let arguments = (ins NNAPI_DataTensor:$input, DenseI64ArrayAttr:$perm);
  let results = (outs NNAPI_DataTensor:$output);
  let assemblyFormat = [{
    $input `perm` `=` $perm attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

class NNAPI_PadOpBase<string mnemonic, string operation, dag extra,
                      string extraFormat>
    : NNAPI_Op<mnemonic, operation> {
  let arguments = !con((ins NNAPI_FloatTensor:$input,
                            DenseI64ArrayAttr:$padding), extra);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = "$input `padding` `=` $padding " # extraFormat #
      " attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def NNAPI_PadOp : NNAPI_PadOpBase<"pad", "PAD", (ins), ""> {
  let summary = "pad with zeros";
  let description = [{
    NNAPI PAD: `padding` holds, per dimension, the elements added before and
    after it ([before0, after0, before1, after1, ...]); the new elements are
    zero.

    ```mlir
    %y = nnapi.pad %x padding = [0, 0, 1, 1, 1, 1, 0, 0]
        : (tensor<1x8x8x4xf32>) -> tensor<1x10x10x4xf32>
    ```
  }];
}

def NNAPI_PadV2Op : NNAPI_PadOpBase<"pad_v2", "PAD_V2", (ins F32Attr:$value),
                                    "`value` `=` $value"> {
  let summary = "pad with a constant";
  let description = [{
    NNAPI PAD_V2: as nnapi.pad, the new elements are `value`.

    ```mlir
    %y = nnapi.pad_v2 %x padding = [0, 0, 1, 1] value = -1.0
        : (tensor<1x8xf32>) -> tensor<1x10xf32>
    ```
  }];
}

def NNAPI_MirrorPadOp : NNAPI_PadOpBase<"mirror_pad", "MIRROR_PAD",
    (ins UnitAttr:$symmetric), "(`symmetric` $symmetric^)?"> {
  let summary = "pad with the input's mirror image";
  let description = [{
    NNAPI MIRROR_PAD: as nnapi.pad, the new elements mirror the input at its
    edges: without the edge element (REFLECT, [1, 2, 3] -> [2, 1, 2, 3, 2])
    or, with `symmetric`, with it (SYMMETRIC, -> [1, 1, 2, 3, 3]). REFLECT
    padding must be smaller than the dimension, SYMMETRIC at most equal.

    ```mlir
    %y = nnapi.mirror_pad %x padding = [0, 0, 2, 1]
        : (tensor<1x8xf32>) -> tensor<1x11xf32>
    ```
  }];
}

def NNAPI_ReverseOp : NNAPI_Op<"reverse", "REVERSE",
                               [SameOperandsAndResultType]> {
  let summary = "reverse the order of one dimension";
  let description = [{
    NNAPI REVERSE of dimension `axis` (the serializer emits it as NNAPI's
    one-element TENSOR_INT32 axis operand).

    ```mlir
    %y = nnapi.reverse %x axis = 1 : tensor<2x8xf32>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input, I32Attr:$axis);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = "$input `axis` `=` $axis attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def NNAPI_GatherOp : NNAPI_Op<"gather", "GATHER"> {
  let summary = "select slices of one dimension by indices";
  let description = [{
    NNAPI GATHER along `axis` with TENSOR_INT32 `indices` of any rank,
    constant or computed at run time (token ids of an embedding lookup):
    dimension `axis` of the input is replaced by the indices' dimensions,
    each holding the slice the index names. A constant index must lie in
    the dimension; a computed one that does not fails the execution.

    ```mlir
    %i = arith.constant dense<[2, 0, 2]> : tensor<3xi32>
    %y = nnapi.gather %x[%i] axis = 1
        : (tensor<4x5x6xf32>, tensor<3xi32>) -> tensor<4x3x6xf32>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input, NNAPI_IntTensor:$indices,
                       I32Attr:$axis);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = [{
    $input `[` $indices `]` `axis` `=` $axis attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

class NNAPI_BlockOp<string mnemonic, string operation, string what>
    : NNAPI_Op<mnemonic, operation> {
  let summary = what;
  let description = [{
    NNAPI }] # operation # [{ (}] # what # [{) with blocks of
    `block_size` x `block_size`: the channel of a block element (i, j) of
    channel c is (i * block_size + j) * C + c, C the channels of the space
    side. NHWC, or NCHW with `nchw` (feature level 3).

    ```mlir
    %y = nnapi.}] # mnemonic # [{ %x block_size = 2 nchw
        : (tensor<1x8x4x4xf32>) -> tensor<1x2x8x8xf32>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input, I32Attr:$block_size,
                       UnitAttr:$nchw);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = [{
    $input `block_size` `=` $block_size (`nchw` $nchw^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def NNAPI_DepthToSpaceOp : NNAPI_BlockOp<"depth_to_space", "DEPTH_TO_SPACE",
    "move channel blocks into height and width">;
def NNAPI_SpaceToDepthOp : NNAPI_BlockOp<"space_to_depth", "SPACE_TO_DEPTH",
    "move height and width blocks into channels">;

def NNAPI_ChannelShuffleOp : NNAPI_Op<"channel_shuffle", "CHANNEL_SHUFFLE",
                                      [SameOperandsAndResultType]> {
  let summary = "interleave channel groups";
  let description = [{
    NNAPI CHANNEL_SHUFFLE along dimension `axis`: its C elements, seen as
    `num_groups` groups of C / num_groups, are transposed, so output element
    i * num_groups + g is input element g * (C / num_groups) + i.

    ```mlir
    %y = nnapi.channel_shuffle %x num_groups = 2 axis = 1
        : tensor<1x8x4x4xf32>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input, I32Attr:$num_groups,
                       I32Attr:$axis);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = [{
    $input `num_groups` `=` $num_groups `axis` `=` $axis attr-dict `:`
    type($input)
  }];
  let hasVerifier = 1;
}

def NNAPI_SliceOp : NNAPI_Op<"slice", "SLICE"> {
  let summary = "a contiguous block of the input";
  let description = [{
    NNAPI SLICE: the block starting at `begin` whose size is the result
    type's shape. The serializer emits both as NNAPI's constant operands.

    ```mlir
    %y = nnapi.slice %x begin = [0, 2] : (tensor<4x8xf32>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input, DenseI64ArrayAttr:$begin);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = [{
    $input `begin` `=` $begin attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def NNAPI_StridedSliceOp : NNAPI_Op<"strided_slice", "STRIDED_SLICE"> {
  let summary = "every stride-th element of a block of the input";
  let description = [{
    NNAPI STRIDED_SLICE with positive strides and no masks: along each
    dimension d, the elements begin[d], begin[d] + strides[d], ... below
    end[d] (0 <= begin < end <= size), so the result has
    ceil((end - begin) / stride) elements there. The serializer emits the
    three arrays as NNAPI's constant operands and zero masks.

    ```mlir
    %y = nnapi.strided_slice %x begin = [0, 1] end = [4, 8] strides = [2, 3]
        : (tensor<4x8xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input, DenseI64ArrayAttr:$begin,
                       DenseI64ArrayAttr:$end, DenseI64ArrayAttr:$strides);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = [{
    $input `begin` `=` $begin `end` `=` $end `strides` `=` $strides attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def NNAPI_SplitOp : NNAPI_Op<"split", "SPLIT"> {
  let summary = "equal pieces of the input along one axis";
  let description = [{
    NNAPI SPLIT: the input cut along dimension `axis` into as many pieces of
    equal size as the op has results (NNAPI's num_splits operand), in order.

    ```mlir
    %a, %b, %c = nnapi.split %x axis = 1
        : (tensor<2x6xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input, I32Attr:$axis);
  let results = (outs Variadic<NNAPI_FloatTensor>:$outputs);
  let assemblyFormat = [{
    $input `axis` `=` $axis attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def NNAPI_TileOp : NNAPI_Op<"tile", "TILE"> {
  let summary = "repeat the input along each dimension";
  let description = [{
    NNAPI TILE: the result repeats the input `result[d] / input[d]` times
    along dimension d (NNAPI's multiples operand, which the serializer
    computes from the types).

    ```mlir
    %y = nnapi.tile %x : (tensor<1x3xf32>) -> tensor<4x6xf32>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = "$input attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let extraNNAPIDeclaration = [{
    /// NNAPI's multiples operand: result dimension / input dimension.
    ::llvm::SmallVector<int64_t> getMultiples() {
      ::llvm::SmallVector<int64_t> m;
      for (auto [i, o] : ::llvm::zip(getInput().getType().getShape(),
                                     getOutput().getType().getShape()))
        m.push_back(i ? o / i : 0);
      return m;
    }
  }];
}

//===----------------------------------------------------------------------===//
// Reductions and matrix products
//===----------------------------------------------------------------------===//

class NNAPI_ReduceOp<string mnemonic, string operation, string what,
                     Type tensor = NNAPI_FloatTensor>
    : NNAPI_Op<mnemonic, operation> {
  let summary = what # " over some dimensions";
  let description = [{
    NNAPI }] # operation # [{: the }] # what # [{ of the input over the
    dimensions `axes` (distinct, non-negative). With `keep_dims` the reduced
    dimensions stay with size 1; without, they are removed (a result with no
    dimension left has shape [1]).

    ```mlir
    %y = nnapi.}] # mnemonic # [{ %x axes = [1, 2] keep_dims
        : (tensor<1x8x8x4xf32>) -> tensor<1x1x1x4xf32>
    ```
  }];
  let arguments = (ins tensor:$input, DenseI64ArrayAttr:$axes,
                       UnitAttr:$keep_dims);
  let results = (outs tensor:$output);
  let assemblyFormat = [{
    $input `axes` `=` $axes (`keep_dims` $keep_dims^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def NNAPI_MeanOp : NNAPI_ReduceOp<"mean", "MEAN", "mean">;
def NNAPI_ReduceSumOp : NNAPI_ReduceOp<"reduce_sum", "REDUCE_SUM", "sum">;
def NNAPI_ReduceMaxOp : NNAPI_ReduceOp<"reduce_max", "REDUCE_MAX", "maximum">;
def NNAPI_ReduceMinOp : NNAPI_ReduceOp<"reduce_min", "REDUCE_MIN", "minimum">;
def NNAPI_ReduceProdOp : NNAPI_ReduceOp<"reduce_prod", "REDUCE_PROD", "product">;
def NNAPI_ReduceAnyOp : NNAPI_ReduceOp<"reduce_any", "REDUCE_ANY",
                                       "logical or", NNAPI_BoolTensor>;
def NNAPI_ReduceAllOp : NNAPI_ReduceOp<"reduce_all", "REDUCE_ALL",
                                       "logical and", NNAPI_BoolTensor>;

class NNAPI_ArgOp<string mnemonic, string operation, string what>
    : NNAPI_Op<mnemonic, operation> {
  let summary = "index of the " # what # " along an axis";
  let description = [{
    NNAPI }] # operation # [{: the index of the }] # what # [{ of the input
    along `axis`, the first one on ties, as a TENSOR_INT32 without that
    dimension. NaN is never the }] # what # [{ (as TOSA's argmax).

    ```mlir
    %i = nnapi.}] # mnemonic # [{ %x axis = 1
        : (tensor<2x10xf32>) -> tensor<2xi32>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input, I32Attr:$axis);
  let results = (outs NNAPI_IntTensor:$output);
  let assemblyFormat = [{
    $input `axis` `=` $axis attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def NNAPI_ArgMaxOp : NNAPI_ArgOp<"argmax", "ARGMAX", "maximum">;
def NNAPI_ArgMinOp : NNAPI_ArgOp<"argmin", "ARGMIN", "minimum">;

def NNAPI_BatchMatmulOp : NNAPI_Op<"batch_matmul", "BATCH_MATMUL"> {
  let summary = "matrix products over batch dimensions";
  let description = [{
    NNAPI BATCH_MATMUL: for each index of the leading (batch) dimensions,
    which both operands share, lhs x rhs over the last two dimensions;
    `adj_x` / `adj_y` transpose those two dimensions of lhs / rhs first.
    Operands have equal rank, 2 to 4.

    ```mlir
    %y = nnapi.batch_matmul %a, %b adj_y
        : (tensor<4x16x8xf32>, tensor<4x32x8xf32>) -> tensor<4x16x32xf32>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$lhs, NNAPI_FloatTensor:$rhs,
                       UnitAttr:$adj_x, UnitAttr:$adj_y);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = [{
    $lhs `,` $rhs (`adj_x` $adj_x^)? (`adj_y` $adj_y^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Sequence models
//===----------------------------------------------------------------------===//

def NNAPI_LstmNone : I32EnumAttrCase<"none", 0>;
def NNAPI_LstmRelu : I32EnumAttrCase<"relu", 1>;
def NNAPI_LstmRelu6 : I32EnumAttrCase<"relu6", 3>;
def NNAPI_LstmTanh : I32EnumAttrCase<"tanh", 4>;
def NNAPI_LstmSigmoid : I32EnumAttrCase<"sigmoid", 6>;
def NNAPI_LstmActivationAttr : I32EnumAttr<"LstmActivation",
    "NNAPI LSTM activation of the cell input and output",
    [NNAPI_LstmNone, NNAPI_LstmRelu, NNAPI_LstmRelu6, NNAPI_LstmTanh,
     NNAPI_LstmSigmoid]> {
  let cppNamespace = "::mlir::nnapi";
}

def NNAPI_UnidirectionalSequenceLstmOp
    : NNAPI_Op<"unidirectional_sequence_lstm", "UNIDIRECTIONAL_SEQUENCE_LSTM",
               [AttrSizedOperandSegments]> {
  let summary = "an LSTM layer run over a whole sequence";
  let description = [{
    NNAPI UNIDIRECTIONAL_SEQUENCE_LSTM. For each step t of `input`
    ([steps, batch, input_size], or [batch, steps, input_size] without
    `time_major`), with h and c the output and cell states (from
    `output_state_in` and `cell_state_in`), σ the logistic function and
    act the `activation`:

        i = σ(W_i x + R_i h + P_i ⊙ c + b_i)   (1 - f without input weights)
        f = σ(W_f x + R_f h + P_f ⊙ c + b_f)
        c = clip(f ⊙ c + i ⊙ act(W_c x + R_c h + b_c), cell_clip)
        o = σ(W_o x + R_o h + P_o ⊙ c + b_o)
        h = o ⊙ act(c), projected: clip(W_proj h + b_proj, proj_clip)

    Input weights are [units, input_size], recurrent weights [units,
    output_size], peepholes and biases [units]. The input gate's weights and
    bias are all given or all omitted (CIFG: a coupled input gate); the
    peepholes are given for every gate (but a coupled input gate) or none.
    Without a projection, output_size is units. A clip of 0 clips nothing.
    NNAPI's layer normalization weights are always omitted.

    The result is h at every step ([steps, batch, output_size], the input's
    order); the final output and cell states follow when the op has three
    results (feature level 4).

    ```mlir
    %y, %h, %c = nnapi.unidirectional_sequence_lstm %x
        input_to_input_weights %wi input_to_forget_weights %wf
        input_to_cell_weights %wc input_to_output_weights %wo
        recurrent_to_input_weights %ri recurrent_to_forget_weights %rf
        recurrent_to_cell_weights %rc recurrent_to_output_weights %ro
        input_gate_bias %bi forget_gate_bias %bf cell_bias %bc
        output_gate_bias %bo output_state_in %h0 cell_state_in %c0
        : (tensor<5x1x8xf32>, tensor<16x8xf32>, ...) ->
          (tensor<5x1x16xf32>, tensor<1x16xf32>, tensor<1x16xf32>)
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input,
      Optional<NNAPI_FloatTensor>:$input_to_input_weights,
      NNAPI_FloatTensor:$input_to_forget_weights,
      NNAPI_FloatTensor:$input_to_cell_weights,
      NNAPI_FloatTensor:$input_to_output_weights,
      Optional<NNAPI_FloatTensor>:$recurrent_to_input_weights,
      NNAPI_FloatTensor:$recurrent_to_forget_weights,
      NNAPI_FloatTensor:$recurrent_to_cell_weights,
      NNAPI_FloatTensor:$recurrent_to_output_weights,
      Optional<NNAPI_FloatTensor>:$cell_to_input_weights,
      Optional<NNAPI_FloatTensor>:$cell_to_forget_weights,
      Optional<NNAPI_FloatTensor>:$cell_to_output_weights,
      Optional<NNAPI_FloatTensor>:$input_gate_bias,
      NNAPI_FloatTensor:$forget_gate_bias,
      NNAPI_FloatTensor:$cell_bias,
      NNAPI_FloatTensor:$output_gate_bias,
      Optional<NNAPI_FloatTensor>:$projection_weights,
      Optional<NNAPI_FloatTensor>:$projection_bias,
      NNAPI_FloatTensor:$output_state_in,
      NNAPI_FloatTensor:$cell_state_in,
      DefaultValuedAttr<NNAPI_LstmActivationAttr,
                        "::mlir::nnapi::LstmActivation::tanh">:$activation,
      DefaultValuedAttr<F32Attr, "0.0f">:$cell_clip,
      DefaultValuedAttr<F32Attr, "0.0f">:$proj_clip,
      DefaultValuedAttr<BoolAttr, "true">:$time_major);
  let results = (outs NNAPI_FloatTensor:$output,
                      Variadic<NNAPI_FloatTensor>:$state_outputs);
  let assemblyFormat = [{
    $input
    (`input_to_input_weights` $input_to_input_weights^)?
    `input_to_forget_weights` $input_to_forget_weights
    `input_to_cell_weights` $input_to_cell_weights
    `input_to_output_weights` $input_to_output_weights
    (`recurrent_to_input_weights` $recurrent_to_input_weights^)?
    `recurrent_to_forget_weights` $recurrent_to_forget_weights
    `recurrent_to_cell_weights` $recurrent_to_cell_weights
    `recurrent_to_output_weights` $recurrent_to_output_weights
    (`cell_to_input_weights` $cell_to_input_weights^)?
    (`cell_to_forget_weights` $cell_to_forget_weights^)?
    (`cell_to_output_weights` $cell_to_output_weights^)?
    (`input_gate_bias` $input_gate_bias^)?
    `forget_gate_bias` $forget_gate_bias
    `cell_bias` $cell_bias
    `output_gate_bias` $output_gate_bias
    (`projection_weights` $projection_weights^)?
    (`projection_bias` $projection_bias^)?
    `output_state_in` $output_state_in
    `cell_state_in` $cell_state_in
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def NNAPI_UnidirectionalSequenceRnnOp
    : NNAPI_Op<"unidirectional_sequence_rnn", "UNIDIRECTIONAL_SEQUENCE_RNN"> {
  let summary = "a simple RNN layer run over a whole sequence";
  let description = [{
    NNAPI UNIDIRECTIONAL_SEQUENCE_RNN. For each step t of `input`
    ([steps, batch, input_size], or [batch, steps, input_size] without
    `time_major`), from h = `hidden_state` ([batch, units]):

        h = act(W x_t + R h + b)

    with W = `weights` [units, input_size], R = `recurrent_weights`
    [units, units], b = `bias` [units] and act the fused activation (NNAPI
    has no tanh here). The result is h at every step, in the input's order.

    ```mlir
    %y = nnapi.unidirectional_sequence_rnn %x, %w, %r, %b, %h0 fused relu
        : (tensor<5x1x8xf32>, tensor<16x8xf32>, tensor<16x16xf32>,
           tensor<16xf32>, tensor<1x16xf32>) -> tensor<5x1x16xf32>
    ```
  }];
  let arguments = (ins NNAPI_FloatTensor:$input, NNAPI_FloatTensor:$weights,
      NNAPI_FloatTensor:$recurrent_weights, NNAPI_FloatTensor:$bias,
      NNAPI_FloatTensor:$hidden_state,
      DefaultValuedAttr<NNAPI_FuseCodeAttr,
                        "::mlir::nnapi::FuseCode::none">:$fused_activation,
      DefaultValuedAttr<BoolAttr, "true">:$time_major);
  let results = (outs NNAPI_FloatTensor:$output);
  let assemblyFormat = [{
    $input `,` $weights `,` $recurrent_weights `,` $bias `,` $hidden_state
    (`fused` $fused_activation^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Control flow: operations whose operands include referenced models
//===----------------------------------------------------------------------===//

// IF and WHILE take models as operands. Their regions are those models
// (IsolatedFromAbove: a model sees only its inputs, as block arguments);
// the blob writer makes each region a referenced model (blob format 3).
// Their level is 4, or that of an operation inside that needs more.
class NNAPI_ControlFlowOp<string mnemonic, string operation>
    : Op<NNAPI_Dialect, mnemonic,
         [IsolatedFromAbove, RecursiveMemoryEffects]> {
  let extraClassDeclaration = [{
    static constexpr int32_t kOperationCode = ANEURALNETWORKS_}] # operation # [{;
    static constexpr ::llvm::StringLiteral kFeatureLevelRules = "";
    /// 4, or the level of an operation inside that needs more.
    ::mlir::nnapi::FeatureLevelNeed getFeatureLevelNeed();
  }];
  let hasVerifier = 1;
}

def NNAPI_IfOp : NNAPI_ControlFlowOp<"if", "IF"> {
  let summary = "runs one of two models";
  let description = [{
    NNAPI IF: runs `then_branch` on `inputs` when `condition` (one boolean)
    is true, else `else_branch`; its results are the branch's. Each branch
    takes the inputs as block arguments and yields the results.

    ```mlir
    %y = nnapi.if %c : tensor<i1> (%x) : (tensor<4xf32>) -> tensor<4xf32>
    then {
    ^bb0(%a: tensor<4xf32>):
      ...
      nnapi.yield %r : tensor<4xf32>
    } else {
      ...
    }
    ```
  }];
  let arguments = (ins StaticShapeTensorOf<[I1]>:$condition,
                       Variadic<AnyStaticShapeTensor>:$inputs);
  let results = (outs Variadic<AnyStaticShapeTensor>:$outputs);
  let regions = (region SizedRegion<1>:$then_branch,
                        SizedRegion<1>:$else_branch);
  let assemblyFormat = [{
    $condition `:` type($condition) `(` $inputs `)` attr-dict `:`
    functional-type($inputs, $outputs) `then` $then_branch `else` $else_branch
  }];
}

def NNAPI_WhileOp : NNAPI_ControlFlowOp<"while", "WHILE"> {
  let summary = "runs a body model while a condition model says so";
  let description = [{
    NNAPI WHILE. The first results-many `inputs` are loop-carried: the body
    replaces them each iteration and the op returns their last values; the
    others are read-only (NNAPI's input-only operands). Both regions take
    all inputs as block arguments; `condition` yields one boolean, `body`
    the next loop-carried values.

    ```mlir
    %i = nnapi.while (%i0, %n) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    condition {
    ^bb0(%a: tensor<1xf32>, %b: tensor<1xf32>):
      %c = nnapi.less %a, %b : ... -> tensor<1xi1>
      nnapi.yield %c : tensor<1xi1>
    } body {
    ^bb0(%a: tensor<1xf32>, %b: tensor<1xf32>):
      ...
      nnapi.yield %next : tensor<1xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<AnyStaticShapeTensor>:$inputs);
  let results = (outs Variadic<AnyStaticShapeTensor>:$outputs);
  let regions = (region SizedRegion<1>:$condition, SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, $outputs)
    `condition` $condition `body` $body
  }];
}

#endif // NNAPI_OPS_TD
