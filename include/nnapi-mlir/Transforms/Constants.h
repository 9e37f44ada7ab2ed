//===- Constants.h - Compile-time rearrangement of constants ----*- C++ -*-===//
//
// Shared by the ONNX importer (NCHW weights to TOSA's layouts), constant
// folding before placement (FoldConstants.cpp), the conversion and the host
// code generation (filters to HWCF, packed matmul panels).
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_TRANSFORMS_CONSTANTS_H
#define NNAPI_MLIR_TRANSFORMS_CONSTANTS_H

#include "mlir/IR/BuiltinAttributes.h"

#include <optional>

namespace mlir::nnapi {

/// `attr` transposed: dimension i of the result is dimension perm[i] of
/// `attr`. Whole-byte integer and float elements are moved as raw bytes;
/// other element types (i1, complex) element by element.
DenseElementsAttr permuteElements(DenseElementsAttr attr,
                                  ArrayRef<int64_t> perm);

/// The block of `attr` of shape `size` from index `start` (in range).
DenseElementsAttr sliceElements(DenseElementsAttr attr, ArrayRef<int64_t> start,
                                ArrayRef<int64_t> size);

/// tosa.gather's result for constants: element [n, w, c] is element
/// [n, indices[n * W + w], c] of `values` [N, K, C] (indices in [0, K)).
DenseElementsAttr gatherRows(DenseElementsAttr values,
                             ArrayRef<int64_t> indices, int64_t width);

/// The value of a float constant that holds one value everywhere (a splat
/// tensor or vector, or a scalar).
std::optional<double> splatValue(Value v);

} // namespace mlir::nnapi

#endif // NNAPI_MLIR_TRANSFORMS_CONSTANTS_H
