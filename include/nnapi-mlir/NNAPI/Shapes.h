//===- Shapes.h - The output-shape rules of NNAPI operations ----*- C++ -*-===//
//
// What an operation's outputs' shapes are, given its inputs (their shapes,
// and the values of its constant operands): the rules of NNAPI's
// documentation, written once (lib/NNAPI/Shapes.cpp). The host device checks
// a model's declared output shapes against them, and fills in the
// dimensions a model leaves unspecified; the runtime specializes a partition
// with dynamic dimensions to the shapes of a call with them.
//
// Each rule checks what it reads (a stride of 0, an axis out of range, a
// window larger than the padded input) and says what is wrong in `error`;
// the operand layout (Layouts.h) has already checked counts, types, ranks and
// which operands are constants. The sequence RNN and LSTM have no rule here:
// their many sized operands are checked by the host device's validator and
// the dialect's verifiers, and they take no dynamic dimensions.
//
// Plain C++: no LLVM, no MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_NNAPI_SHAPES_H
#define NNAPI_MLIR_NNAPI_SHAPES_H

#include "nnapi-mlir/NNAPI/Layouts.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nnapi_mlir::spec {

using Dims = std::vector<uint32_t>;

/// An input of an operation as the shape rules read it.
struct ShapeOperand {
  int32_t type = -1;
  const Dims *dims = nullptr;
  /// A constant's bytes (scalars and constant tensors the rule reads), else
  /// null.
  const uint8_t *value = nullptr;
};

/// An output of an operation: its operand type (-1: whatever the model
/// declares, for CAST, QUANTIZE and DEQUANTIZE) and its dimensions.
struct ShapeResult {
  int32_t type = -1;
  Dims dims;
};

/// Operation `code` has its output-shape rule here.
bool hasShapeRule(int32_t code);

/// The shapes and types of operation `code`'s outputs, from its inputs,
/// whose roles `layout` gives (spec::match). False with `error` when the
/// inputs break a rule of the operation.
bool inferShapes(int32_t code, const Match &layout,
                 const std::vector<ShapeOperand> &inputs,
                 std::vector<ShapeResult> &outputs, std::string &error);

/// Resolves NNAPI's implicit padding (PADDING_SAME, PADDING_VALID) along
/// one dimension.
void implicitPadding(int32_t paddingCode, int32_t inSize, int32_t stride,
                     int32_t filterSize, int32_t dilation, int32_t &padHead,
                     int32_t &padTail);

/// A window's output size along one dimension; 0 when the window does not
/// fit the padded input (or the stride is not positive).
int32_t windowOutputSize(int32_t inSize, int32_t filterSize, int32_t stride,
                         int32_t dilation, int32_t padHead, int32_t padTail);

/// STRIDED_SLICE's masks: bit d of each applies to dimension d.
struct StridedSliceMasks {
  int32_t begin = 0, end = 0, shrinkAxis = 0;
};

/// Where STRIDED_SLICE starts along one dimension, its step, and how many
/// elements it takes (negative indices and masks resolved, the range
/// clamped as NNAPI does); `shrink`: the dimension is dropped from the
/// output.
struct SliceAxis {
  int32_t begin = 0, stride = 1;
  uint32_t count = 0;
  bool shrink = false;
};

/// STRIDED_SLICE along dimension `d` of size `dim`; false with `error` when
/// a stride is 0, a shrunk dimension begins outside the input or the slice
/// is empty. The shape rule and the host device's kernel parameters both
/// come from here.
bool stridedSliceAxis(uint32_t dim, uint32_t d, int32_t begin, int32_t end,
                      int32_t stride, const StridedSliceMasks &masks,
                      SliceAxis &out, std::string &error);

/// Numpy-style broadcast of `a` and `b` into `out`; false when they do not
/// broadcast.
bool broadcastDims(const Dims &a, const Dims &b, Dims &out);

/// "[1,2,3]".
std::string dimsStr(const Dims &dims);

/// The value of a FLOAT32 or FLOAT16 scalar operand stored at `bytes`.
float floatScalar(int32_t type, const uint8_t *bytes);

} // namespace nnapi_mlir::spec

#endif // NNAPI_MLIR_NNAPI_SHAPES_H
