// sha512/x86-avx2: the two-block schedule of x86_schedule2x.inc with the
// sigmas in AVX2, which has no 64-bit rotate.
//
// Only the functions below carry target("avx2,bmi2"); the file is compiled
// with baseline flags, so nothing here runs unless dispatch has checked the
// features.
#include <immintrin.h>

#include <array>
#include <bit>
#include <utility>

#include "sha512/constants.h"
#include "sha512/sha512.h"
#include "zeroize.h"

#define LOCKSTEP_SCHEDULE_TARGET __attribute__((target("avx2,bmi2")))
#define LOCKSTEP_SCHEDULE_INLINE __attribute__((target("avx2,bmi2"), always_inline)) inline

namespace lockstep {
namespace {
namespace avx2 {

// sigma0 of each word: ror 1 ^ ror 8 ^ shr 7. AVX2 has no 64-bit rotate,
// but ror 8 moves whole bytes, so a shuffle does it in one instruction.
LOCKSTEP_SCHEDULE_INLINE __m256i small_sigma0(__m256i x) {
  const __m256i ror8 = _mm256_broadcastsi128_si256(
      _mm_setr_epi8(1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8));
  const __m256i right = _mm256_xor_si256(_mm256_srli_epi64(x, 1), _mm256_srli_epi64(x, 7));
  const __m256i rest = _mm256_xor_si256(_mm256_slli_epi64(x, 63), _mm256_shuffle_epi8(x, ror8));
  return _mm256_xor_si256(right, rest);
}

// sigma1 of each word: ror 19 ^ ror 61 ^ shr 6. The rotates are split into
// their shifts and everything is xored flat: no OR is needed, since the two
// halves of a rotate share no bits.
LOCKSTEP_SCHEDULE_INLINE __m256i small_sigma1(__m256i x) {
  const __m256i right = _mm256_xor_si256(
      _mm256_xor_si256(_mm256_srli_epi64(x, 19), _mm256_srli_epi64(x, 61)),
      _mm256_srli_epi64(x, 6));
  const __m256i left = _mm256_xor_si256(_mm256_slli_epi64(x, 45), _mm256_slli_epi64(x, 3));
  return _mm256_xor_si256(right, left);
}

#include "sha512/x86_schedule2x.inc"

}  // namespace avx2
}  // namespace

// extern: the registry declares it; a header need not.
extern const Sha512Backend kSha512X86Avx2 = {
    {"sha512/x86-avx2",
     {cpu::Feature::kAvx2, cpu::Feature::kBmi2},
     "AVX2 message schedule for two blocks at a time, pipelined under scalar rounds with BMI2 "
     "RORX"},
    avx2::wiped_blocks,
};

}  // namespace lockstep
