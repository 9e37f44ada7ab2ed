//===- NNAPICompositeOps.td - Named composites of TOSA ops --*- tablegen -*-===//
//
// Structural ops of the nnapi dialect that are not NNAPI operations: a named
// composite of TOSA ops and its terminator. Kept apart from NNAPIOps.td,
// whose ops each are one NNAPI operation (nnapi-ops-doc lists those).
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_COMPOSITE_OPS_TD
#define NNAPI_COMPOSITE_OPS_TD

include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def NNAPI_CompositeOp : Op<NNAPI_Dialect, "composite",
    [IsolatedFromAbove, SingleBlock, RecursiveMemoryEffects]> {
  let summary = "a named chain of TOSA ops that means one operation";
  let description = [{
    A chain of TOSA ops that computes one thing NNAPI has a single operation
    for (a softmax, a hard swish, an instance normalization), raised by
    `nnapi-raise-composites` before placement. `name` says what it computes
    and `composite_attributes` its parameters, as
    `nnapi-mlir/Transforms/Composites.h` documents for each name. The body
    is the decomposition: it computes the same values from the block
    arguments (one per input) and yields the results. The partitioner places
    the composite as one op, the conversion to the nnapi dialect has one
    pattern per name, and `nnapi-inline-composites` puts the body back for
    host code. A composite of a name the conversion does not know is valid;
    one the conversion refuses is placed op by op, its body inlined first.

    ```mlir
    %y = nnapi.composite "hard_swish" (%x) : (tensor<8xf32>) -> tensor<8xf32> {
    ^bb0(%a: tensor<8xf32>):
      ...
      nnapi.yield %r : tensor<8xf32>
    }
    ```
  }];
  let arguments = (ins StrAttr:$name, Variadic<AnyType>:$inputs,
                       DefaultValuedAttr<DictionaryAttr, "{}">:$composite_attributes);
  let results = (outs Variadic<AnyType>:$outputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $name `(` $inputs `)` attr-dict `:` functional-type($inputs, $outputs)
    $body
  }];
  let extraClassDeclaration = [{
    /// The integer, float, string or dense i64 array parameter `key`, if the
    /// composite has one of that kind.
    std::optional<int64_t> getIntParameter(::llvm::StringRef key);
    std::optional<double> getFloatParameter(::llvm::StringRef key);
    std::optional<::llvm::StringRef> getStringParameter(::llvm::StringRef key);
    std::optional<::llvm::SmallVector<int64_t>>
    getIntArrayParameter(::llvm::StringRef key);
    /// The yield that ends the body.
    ::mlir::Operation *getYield() { return getBody().front().getTerminator(); }
    /// Puts the body's ops in place of the composite (inner composites
    /// stay) and erases it.
    void inlineBody();
  }];
  let hasVerifier = 1;
}

def NNAPI_YieldOp : Op<NNAPI_Dialect, "yield",
    [Pure, Terminator, ParentOneOf<["CompositeOp", "IfOp", "WhileOp"]>]> {
  let summary = "the values a composite's body, a branch of nnapi.if or a "
                "region of nnapi.while computes";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

#endif // NNAPI_COMPOSITE_OPS_TD
