//===- TensorProto.h - Read ONNX TensorProto files (test data) --*- C++ -*-===//
//
// A bounds-checked reader of the protobuf wire format for the one message
// ONNX test data uses (input_N.pb / output_N.pb), so nnapi-run needs no
// protobuf library. Returns the tensor as the little-endian bytes the model
// ABI uses, with its shape and dtype ("f32", "i64", ...).
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_TOOLS_NNAPI_RUN_TENSORPROTO_H
#define NNAPI_MLIR_TOOLS_NNAPI_RUN_TENSORPROTO_H

#include <cstdint>
#include <string>
#include <vector>

namespace nnapi_mlir {

struct ProtoTensor {
  std::string name;
  std::string dtype; ///< f64, f32, f16, i1, i8, i16, i32, i64 (as in signatures)
  std::vector<int64_t> dims;
  std::vector<uint8_t> data;
};

/// Parses a serialized onnx.TensorProto. False with `error` on malformed
/// input or an element type the model ABI cannot carry.
bool parseTensorProto(const std::vector<uint8_t> &bytes, ProtoTensor &tensor,
                      std::string &error);
bool readTensorProto(const std::string &path, ProtoTensor &tensor,
                     std::string &error);

} // namespace nnapi_mlir

#endif
