//===- OpKinds.h - Which reference kernel runs an NNAPI operation -*- C++ -*-===//
//
// The host device's map from NNAPI operation codes to the kinds of its
// element-wise and reduction kernels, which know no opcodes. Internal to the
// host device.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_HOSTDEVICE_OPKINDS_H
#define NNAPI_MLIR_LIB_HOSTDEVICE_OPKINDS_H

#include "nnapi-mlir/HostDevice/Kernels.h"

#include <optional>

namespace nnapi_mlir::host {

/// The kernel kind of an element-wise NNAPI operation (one input, one output
/// of its shape; or two broadcast inputs), if `opcode` is one.
std::optional<UnaryKind> unaryKindOf(int32_t opcode);
std::optional<BinaryKind> binaryKindOf(int32_t opcode);
/// The comparisons, to TENSOR_BOOL8.
std::optional<CompareKind> compareKindOf(int32_t opcode);
/// MEAN and the float REDUCE_* operations.
std::optional<ReduceKind> reduceKindOf(int32_t opcode);

} // namespace nnapi_mlir::host

#endif // NNAPI_MLIR_LIB_HOSTDEVICE_OPKINDS_H
