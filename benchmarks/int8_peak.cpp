// The CPU's peak rate of 8-bit dot products, the yardstick of the int8
// convolution GOPS in docs/benchmarks.md: independent chains of vpdpbusd
// (x86-64 with AVX512-VNNI, 512-bit), vpmaddwd + vpaddd (x86-64 with AVX2
// and no VNNI, 256-bit: what the host code uses there) or sdot (AArch64
// with dotprod), enough of them to hide the latency, timed over a second.
//
//   g++ -O2 -march=native benchmarks/int8_peak.cpp -o /tmp/int8_peak && /tmp/int8_peak
//
// Prints "instr=... macs_per_instr=... gops=..." (an operation is a
// multiply or an add: two per multiply-accumulate).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <initializer_list>

#if defined(__AVX512VNNI__)
#include <immintrin.h>
using Vec = __m512i;
static const char *kName = "vpdpbusd zmm";
static constexpr int kMacs = 64, kPerLane = 4, kChains = 12;
static const int32_t kOnes = 0x01010101;
static inline Vec splat(int32_t v) { return _mm512_set1_epi32(v); }
static inline Vec dot(Vec acc, Vec a, Vec b) {
  return _mm512_dpbusd_epi32(acc, a, b);
}
static inline int32_t lane0(Vec v) {
  return _mm_cvtsi128_si32(_mm512_castsi512_si128(v));
}
#elif defined(__AVX2__)
#include <immintrin.h>
using Vec = __m256i;
static const char *kName = "vpmaddwd + vpaddd ymm";
// Six chains: the sum's latency is one cycle, and the copies the empty asm
// needs would make twelve spill.
static constexpr int kMacs = 16, kPerLane = 2, kChains = 6;
static const int32_t kOnes = 0x00010001;
static inline Vec splat(int32_t v) { return _mm256_set1_epi32(v); }
// The products do not depend on the accumulator: without the empty asm the
// compiler computes them once, not once per chain and iteration.
static inline Vec dot(Vec acc, Vec a, Vec b) {
  asm volatile("" : "+x"(a));
  return _mm256_add_epi32(acc, _mm256_madd_epi16(a, b));
}
static inline int32_t lane0(Vec v) {
  return _mm_cvtsi128_si32(_mm256_castsi256_si128(v));
}
#elif defined(__ARM_FEATURE_DOTPROD)
#include <arm_neon.h>
using Vec = int32x4_t;
static const char *kName = "sdot (128-bit)";
static constexpr int kMacs = 16, kPerLane = 4, kChains = 12;
static const int32_t kOnes = 0x01010101;
static inline Vec splat(int32_t v) { return vdupq_n_s32(v); }
static inline Vec dot(Vec acc, Vec a, Vec b) {
  return vdotq_s32(acc, vreinterpretq_s8_s32(a), vreinterpretq_s8_s32(b));
}
static inline int32_t lane0(Vec v) { return vgetq_lane_s32(v, 0); }
#else
#error "needs AVX512-VNNI, AVX2 or AArch64 dotprod (-march=native on such a CPU)"
#endif

int main() {
  // kChains chains in registers (named, so that no compiler keeps them in
  // memory; starting apart, so that none is merged with another), each
  // instruction depending on its chain's previous one.
  Vec a0 = splat(0), a1 = splat(1), a2 = splat(2), a3 = splat(3),
      a4 = splat(4), a5 = splat(5), a6 = splat(6), a7 = splat(7),
      a8 = splat(8), a9 = splat(9), a10 = splat(10), a11 = splat(11);
  Vec x = splat(kOnes), w = splat(kOnes);
  const int64_t iterations = 100000000;
  auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < iterations; ++i) {
    a0 = dot(a0, x, w);
    a1 = dot(a1, x, w);
    a2 = dot(a2, x, w);
    a3 = dot(a3, x, w);
    a4 = dot(a4, x, w);
    a5 = dot(a5, x, w);
    if constexpr (kChains == 6)
      continue;
    a6 = dot(a6, x, w);
    a7 = dot(a7, x, w);
    a8 = dot(a8, x, w);
    a9 = dot(a9, x, w);
    a10 = dot(a10, x, w);
    a11 = dot(a11, x, w);
  }
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - start)
                       .count();
  int64_t sum = 0;
  for (Vec a : {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11})
    sum += lane0(a);
  double instructions = double(iterations) * kChains;
  std::printf("instr=%s macs_per_instr=%d seconds=%.3f gops=%.1f\n", kName,
              kMacs, seconds, 2.0 * kMacs * instructions / seconds / 1e9);
  // Each lane adds kPerLane products of 1 x 1 per instruction to its start.
  return sum == 66 + int64_t(kChains) * iterations * kPerLane ? 0 : 1;
}
