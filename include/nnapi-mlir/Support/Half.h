//===- Half.h - IEEE half and bfloat16 <-> float conversions ----*- C++ -*-===//
//
// Round to nearest even. Shared by the host device's kernels, the runtime's
// result checks and the tools.
//
//===----------------------------------------------------------------------===//
#ifndef NNAPI_MLIR_SUPPORT_HALF_H
#define NNAPI_MLIR_SUPPORT_HALF_H

#include <cstdint>
#include <cstring>

namespace nnapi_mlir {

inline float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1F, mant = h & 0x3FF, bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else { // subnormal: renormalize
      exp = 127 - 15 + 1;
      while (!(mant & 0x400)) {
        mant <<= 1;
        --exp;
      }
      bits = sign | (exp << 23) | ((mant & 0x3FF) << 13);
    }
  } else if (exp == 0x1F) {
    bits = sign | 0x7F800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline uint16_t floatToHalf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  uint16_t sign = (bits >> 16) & 0x8000;
  int32_t exp = int32_t((bits >> 23) & 0xFF);
  uint32_t mant = bits & 0x7FFFFF;
  if (exp == 0xFF) // inf or nan
    return sign | 0x7C00 | (mant ? 0x200 : 0);
  int32_t e = exp - 127 + 15;
  if (e >= 0x1F)
    return sign | 0x7C00;
  if (e <= 0) {
    if (e < -10)
      return sign;
    mant |= 0x800000;
    uint32_t shift = uint32_t(14 - e);
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1)))
      ++half;
    return sign | uint16_t(half);
  }
  uint32_t half = (uint32_t(e) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1FFF;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1)))
    ++half; // may carry into the exponent, which is the correct rounding
  return sign | uint16_t(half);
}

/// bfloat16 is float32's upper half.
inline float bfloat16ToFloat(uint16_t b) {
  uint32_t bits = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

/// To nearest, ties to even; NaN -> 0x7FC0 (the host code's rounding).
inline uint16_t floatToBFloat16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if (f != f)
    return 0x7FC0;
  return uint16_t((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
}

} // namespace nnapi_mlir

#endif // NNAPI_MLIR_SUPPORT_HALF_H
