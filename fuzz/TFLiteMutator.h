//===- TFLiteMutator.h - Structure-aware mutations of TFLite models -*- C++ -*-===//
//
// Byte flips of a flatbuffer mostly break its offsets, so the verifier
// refuses the file and the importer behind it is barely reached. This
// mutator changes one value the schema lets a model carry wrong, in place
// (flatbuffers' mutable accessors): a dimension, a shape signature, an
// element type, a tensor's buffer, an operator's tensor index, operator
// code index, builtin code or version, a scale, zero point or quantized
// dimension, a byte of constant data or of an operator's options, a
// subgraph's input or output, a signature's subgraph.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_FUZZ_TFLITEMUTATOR_H
#define NNAPI_MLIR_FUZZ_TFLITEMUTATOR_H

#include <cstddef>
#include <cstdint>

namespace nnapi_mlir::fuzz {

/// Mutates the TFLite model in `data` (`size` bytes) in place with the
/// random source `seed`. Returns `size`, or 0 if `data` is not a model the
/// verifier accepts or it has nothing the chosen mutation could change
/// (the caller then mutates bytes instead).
size_t mutateTFLiteModel(uint8_t *data, size_t size, unsigned seed);

} // namespace nnapi_mlir::fuzz

#endif
