//===- Fit.h - Cost models fitted to measured latencies ---------*- C++ -*-===//
//
// nnapi-profile-device's arithmetic, apart from measuring so that unit tests
// can check it: a device profile's cost model (fixed + per MAC + per element,
// NNAPI/DeviceProfile.h) fitted to samples, and a straight line for the
// boundary costs. Plain C++.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_TOOLS_PROFILE_DEVICE_FIT_H
#define NNAPI_MLIR_TOOLS_PROFILE_DEVICE_FIT_H

#include "nnapi-mlir/NNAPI/DeviceProfile.h"

#include <optional>
#include <vector>

namespace nnapi_mlir::profiling {

/// One measured run: the work the partitioner charges the op (CostModel.cpp)
/// and the median latency.
struct Sample {
  double macs = 0, elements = 0, us = 0;
  /// What errors are relative to, when not `us`: a device sample is the
  /// model's latency less the boundary, and its error counts against the
  /// whole latency.
  double referenceUs = 0;
};

struct CostFit {
  profile::CostModel cost;
  double worstRelativeError = 0;
};

/// Fits `fixed_us + (macs * ns_per_mac + elements * ns_per_element) / 1000`
/// by least squares on errors relative to the square root of each sample's
/// reference latency, with non-negative coefficients (every subset of the
/// three coefficients is solved; the non-negative solution with the least
/// weighted squared error wins, which is the constrained optimum). The worst
/// error reported is relative to each sample's reference. Samples with a
/// latency <= 0 are ignored; nullopt when none is left.
std::optional<CostFit> fitCost(const std::vector<Sample> &samples);

/// `intercept + slope * x` by least squares, both clamped to >= 0 (a
/// negative slope refits the intercept alone, a negative intercept the slope
/// alone). Empty input: {0, 0}.
struct Line {
  double intercept = 0, slope = 0;
};
Line fitLine(const std::vector<double> &x, const std::vector<double> &y);

/// The median (the mean of the middle two for an even count); 0 when empty.
double median(std::vector<double> values);

} // namespace nnapi_mlir::profiling

#endif // NNAPI_MLIR_TOOLS_PROFILE_DEVICE_FIT_H
