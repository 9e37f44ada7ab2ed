//===- Constants.cpp - Compile-time rearrangement of constants ------------===//

#include "nnapi-mlir/Dialect/NNAPI/IR/Constants.h"

#include "mlir/IR/BuiltinTypes.h"

#include <cstring>
#include <vector>

using namespace mlir;

DenseElementsAttr mlir::nnapi::permuteElements(DenseElementsAttr attr,
                                               ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(attr.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  auto resultType = RankedTensorType::get(shape, type.getElementType());
  if (attr.isSplat())
    return attr.resizeSplat(resultType);

  // Source element of each result element, in result order.
  SmallVector<int64_t> inStrides(rank, 1);
  for (int64_t d = rank - 2; d >= 0; --d)
    inStrides[d] = inStrides[d + 1] * type.getDimSize(d + 1);
  int64_t count = type.getNumElements();
  std::vector<int64_t> source(count);
  SmallVector<int64_t> index(rank, 0);
  for (int64_t linear = 0; linear < count; ++linear) {
    int64_t from = 0;
    for (int64_t d = 0; d < rank; ++d)
      from += index[d] * inStrides[perm[d]];
    source[linear] = from;
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }

  Type element = type.getElementType();
  if (element.isIntOrFloat() && element.getIntOrFloatBitWidth() % 8 == 0) {
    size_t bytes = element.getIntOrFloatBitWidth() / 8;
    ArrayRef<char> raw = attr.getRawData();
    std::vector<char> out(raw.size());
    for (int64_t linear = 0; linear < count; ++linear)
      std::memcpy(&out[linear * bytes], &raw[source[linear] * bytes], bytes);
    return DenseElementsAttr::getFromRawBuffer(resultType, out);
  }
  SmallVector<Attribute> values(attr.getValues<Attribute>());
  SmallVector<Attribute> out;
  out.reserve(count);
  for (int64_t from : source)
    out.push_back(values[from]);
  return DenseElementsAttr::get(resultType, out);
}
