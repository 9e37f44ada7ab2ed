//===- Probes.h - One-operation models that measure a device ----*- C++ -*-===//
//
// nnapi-profile-device's micro-models: for an NNAPI operation, a TOSA model
// whose only op (or composite) becomes that operation, at a ladder of sizes
// from a few hundred elements to a few hundred thousand, in float32 or
// float16; and the chains that measure a partition boundary. Constants are
// random and non-uniform so that nothing folds. The text is a pure function
// of (probe, size, type).
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_TOOLS_PROFILE_DEVICE_PROBES_H
#define NNAPI_MLIR_TOOLS_PROFILE_DEVICE_PROBES_H

#include "nnapi-mlir/NNAPI/DeviceProfile.h"

#include <string>
#include <vector>

namespace nnapi_mlir::profiling {

class ModelText;

struct Probe {
  /// The NNAPI operation the model's op becomes (checked against the
  /// partitioner's report when it is compiled).
  const char *operation;
  /// Appends the op at ladder step `size` (0 .. kNumSizes - 1).
  void (*build)(ModelText &model, unsigned size);
};

constexpr unsigned kNumSizes = 4;

/// Every probe, in NNAPI operation order; at most one per operation.
const std::vector<Probe> &probes();

/// The TOSA text of `probe` at ladder step `size` with `type` tensors.
std::string probeModel(const Probe &probe, unsigned size,
                       profile::DataType type);

/// The three float32 models that price a partition boundary at ladder step
/// `size` (tensors of 256 to 262144 elements), each forced onto one
/// partition: `Single` computes y = x + x, `Chain` a = x + x and y = a + a,
/// `TwoInputs` y = x1 + x2. 2 Single - Chain is the cost of a partition call
/// and of moving one tensor in and one out, at every size; TwoInputs -
/// Single, at the smallest size (where reading one more input costs next to
/// nothing), that of moving one more tensor in.
enum class BoundaryModel { Single, Chain, TwoInputs };
constexpr unsigned kNumBoundaryModels = 3;
/// "single", "chain", "two_inputs": the name samples files record.
const char *boundaryModelName(BoundaryModel which);
std::string boundaryModel(BoundaryModel which, unsigned size);
int64_t boundaryElements(unsigned size);

/// y = x + x on one float32: run as host code, the cost of calling a
/// compiled model, which every one-op host model pays once and a whole
/// model once in all, not once per op.
std::string hostCallModel();

} // namespace nnapi_mlir::profiling

#endif // NNAPI_MLIR_TOOLS_PROFILE_DEVICE_PROBES_H
