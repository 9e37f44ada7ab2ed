//===- Verify.h - Checking NNAPI results against the host copy --*- C++ -*-===//
//
// Drivers can return wrong values without an error. The compiled model holds
// an exact host copy of every partition, so the runtime can compare the two
// (the verify and validate options, Runtime.h): compareOperand() says
// whether a device's output is within the tolerance of the host's for its
// type (docs/validation.md gives the numbers and why), and narrowDown()
// finds the operations of a partition that a device computes wrong.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_LIB_RUNTIME_VERIFY_H
#define NNAPI_MLIR_LIB_RUNTIME_VERIFY_H

#include "Devices.h"

#include "nnapi-mlir/NNAPI/BlobFormat.h"

#include <cstdint>
#include <string>
#include <vector>

namespace nnapi_mlir::runtime {

/// How a device's values of one tensor compare with the host's.
struct Check {
  double error = 0;     ///< The largest difference, in `unit`.
  double tolerance = 0; ///< The largest allowed, in `unit`.
  /// "abs" (floats: absolute difference), "quanta" (8-bit quantized
  /// types: steps of the scale) or "exact" (integers and booleans:
  /// elements that differ).
  const char *unit = "exact";
  bool pass = true;
  size_t element = 0; ///< Where the largest difference is.
  double deviceValue = 0, hostValue = 0;
  /// error / tolerance: how far past the tolerance (> 1 fails).
  double ratio() const;
  /// "max error 3 quanta > tolerance 2 quanta at element 5 (device 12,
  /// host 9)".
  std::string describe() const;
};

/// Compares operand `operand` of `m` (a tensor) as computed by a device and
/// by the host. `callerView`: the buffers hold the caller's view of the
/// operand (int8 for a TENSOR_QUANT8_ASYMM of an int8AsUint8 model), not
/// NNAPI's. The float tolerance scales with the host tensor's largest
/// magnitude and with the model's relaxation to float16.
Check compareOperand(const blob::Model &m, uint32_t operand, const void *device,
                     const void *host, bool callerView);

/// `b` is worse than `a` (further past its tolerance).
bool worse(const Check &b, const Check &a);

/// An operation a device computed wrong on its own.
struct WrongOperation {
  uint32_t index = 0; ///< In the partition.
  std::string signature;
  Check check;
};

struct Narrowing {
  /// The device whose values the suspect's were checked against, or "" if
  /// none could serve (`note` says why).
  std::string reference;
  std::vector<WrongOperation> wrong;
  std::string note;
};

/// Finds the operations of `m` that `suspect` computes wrong. One of
/// `references` (the first whose outputs for `inputs` agree with
/// `hostOutputs`, the host copy's) computes every intermediate tensor; then
/// each operation runs alone on the suspect on the reference's inputs and
/// its outputs are compared with the reference's. Buffers are in the
/// caller's view (compareOperand).
Narrowing narrowDown(const NNAPIFunctionTable &fn, const blob::Model &m,
                     const DeviceInfo &suspect,
                     const std::vector<const DeviceInfo *> &references,
                     const std::vector<const void *> &inputs,
                     const std::vector<const void *> &hostOutputs);

} // namespace nnapi_mlir::runtime

#endif // NNAPI_MLIR_LIB_RUNTIME_VERIFY_H
