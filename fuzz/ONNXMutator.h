//===- ONNXMutator.h - Structure-aware mutations of ONNX models -*- C++ -*-===//
//
// Byte flips of a serialized ModelProto mostly produce something protobuf
// cannot parse, so the importer behind the parser is barely reached. This
// mutator parses the model, changes one thing a model can really have wrong
// (a dimension, an attribute value, an input name, a node's operator type,
// a tensor's payload, an element type, an opset version; a node or an
// initializer dropped or duplicated) and serializes it again.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_FUZZ_ONNXMUTATOR_H
#define NNAPI_MLIR_FUZZ_ONNXMUTATOR_H

#include <cstddef>
#include <cstdint>

namespace nnapi_mlir::fuzz {

/// Mutates the serialized model in `data` (`size` bytes, room for
/// `maxSize`) with the random source `seed`. Returns the new size, or 0 if
/// `data` is not a model or the result would not fit (the caller then
/// mutates bytes instead). `mutateBytes` is libFuzzer's byte mutator.
size_t mutateONNXModel(uint8_t *data, size_t size, size_t maxSize,
                       unsigned seed,
                       size_t (*mutateBytes)(uint8_t *, size_t, size_t));

} // namespace nnapi_mlir::fuzz

#endif
