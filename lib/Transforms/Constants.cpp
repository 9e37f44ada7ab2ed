//===- Constants.cpp - Compile-time rearrangement of constants ------------===//

#include "nnapi-mlir/Transforms/Constants.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"

#include <cstring>
#include <vector>

using namespace mlir;

namespace {
/// A constant of `resultType` whose element i is element source[i] of
/// `attr`. Whole-byte integer and float elements move as raw bytes; other
/// element types (i1, complex) element by element.
DenseElementsAttr gatherElements(DenseElementsAttr attr,
                                 RankedTensorType resultType,
                                 ArrayRef<int64_t> source) {
  Type element = resultType.getElementType();
  if (element.isIntOrFloat() && element.getIntOrFloatBitWidth() % 8 == 0) {
    size_t bytes = element.getIntOrFloatBitWidth() / 8;
    ArrayRef<char> raw = attr.getRawData();
    std::vector<char> out(source.size() * bytes);
    for (size_t linear = 0; linear < source.size(); ++linear)
      std::memcpy(&out[linear * bytes], &raw[source[linear] * bytes], bytes);
    return DenseElementsAttr::getFromRawBuffer(resultType, out);
  }
  SmallVector<Attribute> values(attr.getValues<Attribute>());
  SmallVector<Attribute> out;
  out.reserve(source.size());
  for (int64_t from : source)
    out.push_back(values[from]);
  return DenseElementsAttr::get(resultType, out);
}

/// Row-major strides of `shape`.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// For each element of a `shape` tensor in row-major order, `from(index)`.
template <typename F>
std::vector<int64_t> sourceIndices(ArrayRef<int64_t> shape, F from) {
  int64_t rank = shape.size(), count = 1;
  for (int64_t d : shape)
    count *= d;
  std::vector<int64_t> source(count);
  SmallVector<int64_t> index(rank, 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    source[linear] = from(index);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return source;
}
} // namespace

DenseElementsAttr mlir::nnapi::permuteElements(DenseElementsAttr attr,
                                               ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(attr.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  if (attr.isSplat())
    return attr.resizeSplat(resultType);
  SmallVector<int64_t> inStrides = stridesOf(type.getShape());
  std::vector<int64_t> source =
      sourceIndices(shape, [&](ArrayRef<int64_t> index) {
        int64_t from = 0;
        for (size_t d = 0; d < index.size(); ++d)
          from += index[d] * inStrides[perm[d]];
        return from;
      });
  return gatherElements(attr, resultType, source);
}

DenseElementsAttr mlir::nnapi::sliceElements(DenseElementsAttr attr,
                                             ArrayRef<int64_t> start,
                                             ArrayRef<int64_t> size) {
  auto type = cast<RankedTensorType>(attr.getType());
  auto resultType = RankedTensorType::get(size, type.getElementType());
  if (attr.isSplat())
    return attr.resizeSplat(resultType);
  SmallVector<int64_t> inStrides = stridesOf(type.getShape());
  std::vector<int64_t> source =
      sourceIndices(size, [&](ArrayRef<int64_t> index) {
        int64_t from = 0;
        for (size_t d = 0; d < index.size(); ++d)
          from += (start[d] + index[d]) * inStrides[d];
        return from;
      });
  return gatherElements(attr, resultType, source);
}

DenseElementsAttr mlir::nnapi::gatherRows(DenseElementsAttr values,
                                          ArrayRef<int64_t> indices,
                                          int64_t width) {
  auto type = cast<RankedTensorType>(values.getType());
  int64_t k = type.getDimSize(1), c = type.getDimSize(2);
  auto resultType = RankedTensorType::get({type.getDimSize(0), width, c},
                                          type.getElementType());
  if (values.isSplat())
    return values.resizeSplat(resultType);
  std::vector<int64_t> source =
      sourceIndices(resultType.getShape(), [&](ArrayRef<int64_t> index) {
        int64_t row = indices[index[0] * width + index[1]];
        return (index[0] * k + row) * c + index[2];
      });
  return gatherElements(values, resultType, source);
}

std::optional<double> mlir::nnapi::splatValue(Value v) {
  FloatAttr scalar;
  if (matchPattern(v, m_Constant(&scalar)))
    return scalar.getValueAsDouble();
  DenseFPElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat())
    return std::nullopt;
  return attr.getSplatValue<APFloat>().convertToDouble();
}
