//===- Fit.cpp - Cost models fitted to measured latencies -----------------===//

#include "Fit.h"

#include <algorithm>
#include <array>
#include <cmath>

using namespace nnapi_mlir;
using namespace nnapi_mlir::profiling;

namespace {

/// Solves the normal equations of min |A x - b| for the columns in `cols`
/// (at most 3) by Gaussian elimination with partial pivoting; false when
/// they are singular.
bool leastSquares(const std::vector<std::array<double, 3>> &a,
                  const std::vector<double> &b, const std::vector<int> &cols,
                  std::array<double, 3> &x) {
  size_t n = cols.size();
  double m[3][4] = {};
  for (size_t r = 0; r < a.size(); ++r)
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j)
        m[i][j] += a[r][cols[i]] * a[r][cols[j]];
      m[i][n] += a[r][cols[i]] * b[r];
    }
  for (size_t i = 0; i < n; ++i) {
    size_t pivot = i;
    for (size_t k = i + 1; k < n; ++k)
      if (std::fabs(m[k][i]) > std::fabs(m[pivot][i]))
        pivot = k;
    if (!(std::fabs(m[pivot][i]) > 1e-300))
      return false;
    for (size_t j = 0; j <= n; ++j)
      std::swap(m[i][j], m[pivot][j]);
    for (size_t k = 0; k < n; ++k) {
      if (k == i)
        continue;
      double f = m[k][i] / m[i][i];
      for (size_t j = i; j <= n; ++j)
        m[k][j] -= f * m[i][j];
    }
  }
  x = {0, 0, 0};
  for (size_t i = 0; i < n; ++i)
    x[cols[i]] = m[i][n] / m[i][i];
  return true;
}

} // namespace

std::optional<CostFit>
nnapi_mlir::profiling::fitCost(const std::vector<Sample> &samples) {
  // Columns in microseconds: 1, MACs / 1000, elements / 1000, so that the
  // coefficients are fixed_us, ns_per_mac and ns_per_element. Each row is
  // divided by the square root of its latency: relative errors would let
  // every size count the same (and the smallest, where a linear model of a
  // cached machine fits worst, pull the large ones that dominate a model's
  // time), absolute errors would let only the largest count.
  std::vector<std::array<double, 3>> rows, weighted;
  std::vector<double> us, reference, target;
  for (const Sample &s : samples) {
    if (!(s.us > 0))
      continue;
    double ref = s.referenceUs > 0 ? s.referenceUs : s.us;
    double weight = std::sqrt(ref);
    std::array<double, 3> row = {1.0, s.macs / 1000.0, s.elements / 1000.0};
    rows.push_back(row);
    weighted.push_back({row[0] / weight, row[1] / weight, row[2] / weight});
    us.push_back(s.us);
    reference.push_back(ref);
    target.push_back(s.us / weight);
  }
  if (rows.empty())
    return std::nullopt;
  std::optional<CostFit> best;
  double bestObjective = 0;
  for (unsigned mask = 1; mask < 8; ++mask) {
    std::vector<int> cols;
    for (int c = 0; c < 3; ++c)
      if (mask & (1u << c))
        cols.push_back(c);
    std::array<double, 3> x;
    if (!leastSquares(weighted, target, cols, x) ||
        std::any_of(x.begin(), x.end(), [](double v) { return v < 0; }))
      continue;
    // Non-negative least squares: the optimum is the least squares solution
    // on one face of the orthant, so the best feasible one over all faces.
    double objective = 0, worst = 0;
    for (size_t r = 0; r < rows.size(); ++r) {
      double estimate = rows[r][0] * x[0] + rows[r][1] * x[1] + rows[r][2] * x[2];
      double e = weighted[r][0] * x[0] + weighted[r][1] * x[1] +
                 weighted[r][2] * x[2] - target[r];
      objective += e * e;
      worst = std::max(worst, std::fabs(estimate - us[r]) / reference[r]);
    }
    if (!best || objective < bestObjective) {
      best = CostFit{{x[0], x[1], x[2]}, worst};
      bestObjective = objective;
    }
  }
  return best;
}

Line nnapi_mlir::profiling::fitLine(const std::vector<double> &x,
                                    const std::vector<double> &y) {
  size_t n = std::min(x.size(), y.size());
  if (n == 0)
    return {};
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; ++i) {
    sx += x[i];
    sy += y[i];
    sxx += x[i] * x[i];
    sxy += x[i] * y[i];
  }
  double det = double(n) * sxx - sx * sx;
  Line line;
  if (det > 0) {
    line.slope = (double(n) * sxy - sx * sy) / det;
    line.intercept = (sy - line.slope * sx) / double(n);
  } else {
    line.intercept = sy / double(n);
  }
  if (line.slope < 0) {
    line.slope = 0;
    line.intercept = sy / double(n);
  }
  if (line.intercept < 0) {
    line.intercept = 0;
    line.slope = sxx > 0 ? std::max(0.0, sxy / sxx) : 0;
  }
  return line;
}

double nnapi_mlir::profiling::median(std::vector<double> values) {
  if (values.empty())
    return 0;
  size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  double hi = values[mid];
  if (values.size() % 2)
    return hi;
  double lo = *std::max_element(values.begin(), values.begin() + mid);
  return (lo + hi) / 2;
}
