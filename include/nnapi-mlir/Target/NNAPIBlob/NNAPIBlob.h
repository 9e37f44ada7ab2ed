//===- NNAPIBlob.h - nnapi dialect to NNAPI model blob ----------*- C++ -*-===//
#ifndef NNAPI_MLIR_TARGET_NNAPIBLOB_NNAPIBLOB_H
#define NNAPI_MLIR_TARGET_NNAPIBLOB_NNAPIBLOB_H

#include "nnapi-mlir/NNAPI/BlobFormat.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::nnapi {
namespace blob = ::nnapi_mlir::blob;

/// Builds the NNAPI model of a function whose body holds only nnapi ops,
/// arith.constant tensors and func.return: arguments become model inputs,
/// returned values model outputs, op attributes NNAPI's scalar operands. The
/// model's feature level is the highest getMinFeatureLevel() of its ops.
/// Emits an error on anything else.
FailureOr<blob::Model> buildBlobModel(func::FuncOp func);

/// buildBlobModel followed by blob::write.
FailureOr<std::vector<uint8_t>> serializeToBlob(func::FuncOp func);

/// Registers the nnapi-translate translations:
///   --serialize-nnapi-blob (MLIR with one partition function -> blob bytes)
///   --dump-nnapi-blob      (blob bytes -> text listing)
void registerNNAPIBlobTranslations();

} // namespace mlir::nnapi

#endif
