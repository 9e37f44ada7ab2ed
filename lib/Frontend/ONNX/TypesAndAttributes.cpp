//===- TypesAndAttributes.cpp - ONNX types, tensors and attributes --------===//
//
// The Importer's reading of ONNX data: element and tensor types, constant
// tensors (initializers, Constant nodes: raw or typed data, external data
// refused), and node attributes.
//
//===----------------------------------------------------------------------===//

#include "nnapi-mlir/Frontend/ONNX/ONNXImporter.h"
#include "nnapi-mlir/Dialect/NNAPI/IR/NNAPIDialect.h"

#include "Importer.h"
#include "ONNXLoader.h"
#include "ONNXSchemas.h"
#include "OpRegistry.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::nnapi;
using namespace mlir::nnapi::onnx_import;

//===----------------------------------------------------------------------===//
// Types and constants
//===----------------------------------------------------------------------===//

FailureOr<Type> Importer::elementType(int32_t t, const Twine &what) {
  switch (t) {
  case onnx::TensorProto::FLOAT:
    return Type(builder.getF32Type());
  case onnx::TensorProto::FLOAT16:
    return Type(builder.getF16Type());
  case onnx::TensorProto::BFLOAT16:
    // Carried and cast only (Cast, CastLike, Identity): the importer
    // refuses computing on it.
    return Type(builder.getBF16Type());
  case onnx::TensorProto::UINT8:
  case onnx::TensorProto::UINT16:
    // Unsigned integers are plain integer data computed in a wider signed
    // type (zero-extended at the graph's inputs, truncated at its outputs:
    // wrap-around arithmetic comes out right); uint64 above 2^63 does not.
    return Type(builder.getI32Type());
  case onnx::TensorProto::UINT32:
  case onnx::TensorProto::UINT64:
    return Type(builder.getI64Type());
  case onnx::TensorProto::DOUBLE:
    // Computed in float64 on the host (NNAPI has none: the partitioner
    // keeps such ops off the device).
    return Type(builder.getF64Type());
  case onnx::TensorProto::INT8:
    return Type(builder.getIntegerType(8));
  case onnx::TensorProto::INT16:
    return Type(builder.getIntegerType(16));
  case onnx::TensorProto::INT32:
    return Type(builder.getI32Type());
  case onnx::TensorProto::INT64:
    return Type(builder.getI64Type());
  case onnx::TensorProto::BOOL:
    return Type(builder.getI1Type());
  default:
    return emitError(loc) << what << " has ONNX element type "
                          << onnx::TensorProto::DataType_Name(
                                 onnx::TensorProto::DataType(t))
                          << ", which is not supported (float, float16, "
                             "bfloat16 (cast only), float64, int8/16/32/64, "
                             "uint8/16/32/64 (as integer data) and bool "
                             "are)";
  }
}

FailureOr<RankedTensorType> Importer::tensorType(const onnx::TypeProto &type,
                                                 const Twine &what) {
  if (!type.has_tensor_type())
    return emitError(loc) << what << " is not a tensor";
  const auto &t = type.tensor_type();
  FailureOr<Type> element = elementType(t.elem_type(), what);
  if (failed(element))
    return failure();
  if (!t.has_shape())
    return emitError(loc) << what << " has no known shape (rank unknown)";
  Shape shape;
  for (const auto &[i, d] : llvm::enumerate(t.shape().dim())) {
    // With inputs kept dynamic, a dimension without a value is one.
    if (dynamic() && !d.has_dim_value()) {
      shape.push_back(ShapedType::kDynamic);
      continue;
    }
    if (!d.has_dim_value() || d.dim_value() < 0)
      return emitError(loc)
             << what << " has dynamic dimension " << i
             << (d.has_dim_param() ? " ('" + d.dim_param() + "')" : "")
             << "; only static shapes are supported";
    shape.push_back(d.dim_value());
  }
  // (A dynamic dimension counts as 1 here; the runtime bounds its size.)
  Shape counted(shape);
  for (int64_t &d : counted)
    d = ShapedType::isDynamic(d) ? 1 : d;
  if (checkedCount(counted) < 0)
    return emitError(loc) << what << " has a dimension above " << kMaxDim
                          << " or more than " << kMaxElements << " elements";
  return RankedTensorType::get(shape, *element);
}

/// Reads `count` elements from `raw`; false (nothing allocated) if `raw`
/// does not hold exactly that many.
template <typename T>
static bool readTyped(const std::string &raw, std::vector<T> &out,
                      int64_t count) {
  if (raw.size() != size_t(count) * sizeof(T))
    return false;
  out.resize(count);
  if (count)
    std::memcpy(out.data(), raw.data(), raw.size());
  return true;
}

FailureOr<DenseElementsAttr> Importer::tensorAttr(const onnx::TensorProto &t) {
  std::string what = "tensor '" + t.name() + "'";
  if (t.data_location() == onnx::TensorProto::EXTERNAL)
    return emitError(loc) << what
                          << " stores its data externally, which is not "
                             "supported";
  Shape shape(t.dims().begin(), t.dims().end());
  int64_t count = checkedCount(shape);
  if (count < 0)
    return emitError(loc) << what << " has a negative dimension, one above "
                          << kMaxDim << " or more than " << kMaxElements
                          << " elements";
  FailureOr<Type> e = elementType(t.data_type(), what);
  if (failed(e))
    return failure();
  Type element = *e;
  auto type = RankedTensorType::get(shape, element);
  bool raw = t.has_raw_data();
  auto sizeError = [&]() {
    return emitError(loc) << what << " holds the wrong amount of data for "
                          << count << " elements";
  };
  switch (t.data_type()) {
  case onnx::TensorProto::FLOAT: {
    std::vector<float> v;
    if (raw) {
      if (!readTyped(t.raw_data(), v, count))
        return sizeError();
    } else {
      if (t.float_data_size() != count)
        return sizeError();
      v.assign(t.float_data().begin(), t.float_data().end());
    }
    return DenseElementsAttr::get(type, ArrayRef<float>(v));
  }
  case onnx::TensorProto::DOUBLE: {
    std::vector<double> d;
    if (raw) {
      if (!readTyped(t.raw_data(), d, count))
        return sizeError();
    } else {
      if (t.double_data_size() != count)
        return sizeError();
      d.assign(t.double_data().begin(), t.double_data().end());
    }
    return DenseElementsAttr::get(type, ArrayRef<double>(d));
  }
  case onnx::TensorProto::FLOAT16:
  case onnx::TensorProto::BFLOAT16: {
    std::vector<uint16_t> v;
    if (raw) {
      if (!readTyped(t.raw_data(), v, count))
        return sizeError();
    } else {
      if (t.int32_data_size() != count)
        return sizeError();
      for (int32_t x : t.int32_data())
        v.push_back(uint16_t(x));
    }
    const llvm::fltSemantics &semantics =
        t.data_type() == onnx::TensorProto::BFLOAT16 ? APFloat::BFloat()
                                                      : APFloat::IEEEhalf();
    std::vector<APFloat> f;
    for (uint16_t bits : v)
      f.emplace_back(semantics, APInt(16, bits));
    return DenseElementsAttr::get(type, f);
  }
  case onnx::TensorProto::INT64: {
    std::vector<int64_t> v;
    if (raw) {
      if (!readTyped(t.raw_data(), v, count))
        return sizeError();
    } else {
      if (t.int64_data_size() != count)
        return sizeError();
      v.assign(t.int64_data().begin(), t.int64_data().end());
    }
    return DenseElementsAttr::get(type, ArrayRef<int64_t>(v));
  }
  case onnx::TensorProto::UINT8:
  case onnx::TensorProto::UINT16:
  case onnx::TensorProto::UINT32:
  case onnx::TensorProto::UINT64: {
    size_t width = nnapi_mlir::onnx_frontend::elementBytes(t.data_type());
    bool wide = width > 2; // stored in uint64_data, else int32_data
    SmallVector<APInt> ints;
    unsigned bits = element.getIntOrFloatBitWidth();
    if (raw) {
      if (t.raw_data().size() != size_t(count) * width)
        return sizeError();
      for (int64_t i = 0; i < count; ++i) {
        uint64_t x = 0;
        std::memcpy(&x, t.raw_data().data() + i * width, width);
        ints.push_back(APInt(bits, x));
      }
    } else if (wide) {
      if (t.uint64_data_size() != count)
        return sizeError();
      for (uint64_t x : t.uint64_data())
        ints.push_back(APInt(bits, x));
    } else {
      if (t.int32_data_size() != count)
        return sizeError();
      for (int32_t x : t.int32_data())
        ints.push_back(APInt(bits, uint64_t(uint32_t(x))));
    }
    return DenseElementsAttr::get(type, ints);
  }
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::BOOL: {
    size_t width = nnapi_mlir::onnx_frontend::elementBytes(t.data_type());
    std::vector<int64_t> v;
    if (raw) {
      if (t.raw_data().size() != size_t(count) * width)
        return sizeError();
      for (int64_t i = 0; i < count; ++i) {
        const char *p = t.raw_data().data() + i * width;
        if (width == 4) {
          int32_t x;
          std::memcpy(&x, p, 4);
          v.push_back(x);
        } else if (width == 2) {
          int16_t x;
          std::memcpy(&x, p, 2);
          v.push_back(x);
        } else {
          v.push_back(int8_t(*p));
        }
      }
    } else {
      if (t.int32_data_size() != count)
        return sizeError();
      v.assign(t.int32_data().begin(), t.int32_data().end());
    }
    SmallVector<APInt> ints;
    unsigned bits = element.getIntOrFloatBitWidth();
    for (int64_t x : v)
      ints.push_back(APInt(bits, uint64_t(x), /*isSigned=*/true));
    return DenseElementsAttr::get(type, ints);
  }
  default:
    return emitError(loc) << what << " has unsupported element type";
  }
}

DenseElementsAttr Importer::boundaryValue(const onnx::TensorProto &t) {
  DenseElementsAttr internal = constantOf(t.name());
  Type boundary = boundaryType(t.data_type(), internal.getElementType());
  if (boundary == internal.getElementType())
    return internal;
  auto type = RankedTensorType::get(internal.getType().getShape(), boundary);
  // Unsigned integers: the same values, at the caller's width.
  SmallVector<APInt> ints;
  for (APInt v : internal.getValues<APInt>())
    ints.push_back(v.trunc(boundary.getIntOrFloatBitWidth()));
  return DenseElementsAttr::get(type, ints);
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

namespace mlir::nnapi::onnx_import {

const onnx::AttributeProto *findAttr(const onnx::NodeProto &node,
                                     StringRef name) {
  for (const auto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

int64_t intAttr(const onnx::NodeProto &node, StringRef name, int64_t dflt) {
  const auto *a = findAttr(node, name);
  return a ? a->i() : dflt;
}

float floatAttr(const onnx::NodeProto &node, StringRef name, float dflt) {
  const auto *a = findAttr(node, name);
  return a ? a->f() : dflt;
}

std::string stringAttr(const onnx::NodeProto &node, StringRef name,
                       StringRef dflt) {
  const auto *a = findAttr(node, name);
  return a ? a->s() : dflt.str();
}

std::optional<Shape> intsAttr(const onnx::NodeProto &node, StringRef name) {
  const auto *a = findAttr(node, name);
  if (!a)
    return std::nullopt;
  return Shape(a->ints().begin(), a->ints().end());
}

} // namespace mlir::nnapi::onnx_import
