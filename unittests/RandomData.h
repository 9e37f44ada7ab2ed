//===- RandomData.h - Reproducible random tensors for kernel tests -*- C++ -*-===//
#ifndef NNAPI_MLIR_UNITTESTS_RANDOMDATA_H
#define NNAPI_MLIR_UNITTESTS_RANDOMDATA_H

#include <random>
#include <vector>

namespace nnapi_mlir::test {

/// `n` floats uniform in [lo, hi) from a generator seeded with `seed`.
inline std::vector<float> randomData(size_t n, unsigned seed, float lo = -1.0f,
                                     float hi = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

} // namespace nnapi_mlir::test

#endif // NNAPI_MLIR_UNITTESTS_RANDOMDATA_H
