// sha256/x86-avx2: the message schedule of two blocks at once in AVX2 (one
// block per 128-bit lane, as the kernel's sha256-avx2-asm.S does), the rounds
// in scalar code whose rotates become BMI2 RORX.
//
// Only the functions below carry target("avx2,bmi2"); the file is compiled
// with baseline flags, so nothing here runs unless dispatch has checked the
// features.
#include <immintrin.h>

#include <array>
#include <bit>
#include <utility>

#include "sha256/constants.h"
#include "zeroize.h"
#include "sha256/sha256.h"

#define LOCKSTEP_AVX2 __attribute__((target("avx2,bmi2")))
#define LOCKSTEP_AVX2_INLINE __attribute__((target("avx2,bmi2"), always_inline)) inline

namespace lockstep {
namespace {

// kK2 repeats each group of four constants for the upper lane, so one
// aligned 256-bit load serves both blocks.
alignas(32) constexpr std::array<uint32_t, 128> kK2 = [] {
  std::array<uint32_t, 128> k{};
  for (int i = 0; i < 128; ++i) k[i] = kSha256K[(i / 8) * 4 + i % 4];
  return k;
}();

using State = sha2::BlockState<sha2::Sha256Family>;

// The schedule is kept in "xfer" layout: group g (words 4g..4g+3) of the
// first block at xfer[8g..8g+3] and of the second at xfer[8g+4..8g+7],
// already summed with K, ready for the rounds.
using Xfer = uint32_t[128];

// sigma0 of each 32-bit word: ror 7 ^ ror 18 ^ shr 3. AVX2 has no vector
// rotate, so each one is two shifts.
LOCKSTEP_AVX2_INLINE __m256i small_sigma0(__m256i x) {
  const __m256i r7 = _mm256_or_si256(_mm256_srli_epi32(x, 7), _mm256_slli_epi32(x, 25));
  const __m256i r18 = _mm256_or_si256(_mm256_srli_epi32(x, 18), _mm256_slli_epi32(x, 14));
  return _mm256_xor_si256(_mm256_xor_si256(r7, r18), _mm256_srli_epi32(x, 3));
}

// sigma1 of two words per lane. `dup` holds each word twice, {x, x, y, y},
// so a 64-bit shift of the pair leaves the 32-bit rotate in its low half;
// the results are in words 0 and 2 of each lane, the others are junk.
LOCKSTEP_AVX2_INLINE __m256i small_sigma1_pairs(__m256i dup) {
  const __m256i r = _mm256_xor_si256(_mm256_srli_epi64(dup, 17), _mm256_srli_epi64(dup, 19));
  return _mm256_xor_si256(r, _mm256_srli_epi32(dup, 10));
}

// schedule makes W[t..t+3] of both blocks from the four vectors before it
// (x0 = W[t-16..t-13] ... x3 = W[t-4..t-1]).
LOCKSTEP_AVX2_INLINE __m256i schedule(__m256i x0, __m256i x1, __m256i x2, __m256i x3) {
  // Byte masks, the same for both lanes, that move words 0 and 2 to words
  // 0 and 1, or to words 2 and 3, and zero the rest (-128 clears a byte).
  const __m256i to_low = _mm256_broadcastsi128_si256(
      _mm_setr_epi8(0, 1, 2, 3, 8, 9, 10, 11, -128, -128, -128, -128, -128, -128, -128, -128));
  const __m256i to_high = _mm256_broadcastsi128_si256(
      _mm_setr_epi8(-128, -128, -128, -128, -128, -128, -128, -128, 0, 1, 2, 3, 8, 9, 10, 11));
  const __m256i w15 = _mm256_alignr_epi8(x1, x0, 4);  // W[t-15..t-12]
  const __m256i w7 = _mm256_alignr_epi8(x3, x2, 4);   // W[t-7..t-4]
  __m256i w = _mm256_add_epi32(_mm256_add_epi32(x0, w7), small_sigma0(w15));
  // W[t] and W[t+1] need sigma1 of W[t-2] and W[t-1]; W[t+2] and W[t+3]
  // need sigma1 of the two words just made. The shuffles make {W[t-2],
  // W[t-2], W[t-1], W[t-1]} and then {W[t], W[t], W[t+1], W[t+1]}.
  const __m256i lo = small_sigma1_pairs(_mm256_shuffle_epi32(x3, 0xfa));
  w = _mm256_add_epi32(w, _mm256_shuffle_epi8(lo, to_low));
  const __m256i hi = small_sigma1_pairs(_mm256_shuffle_epi32(w, 0x50));
  return _mm256_add_epi32(w, _mm256_shuffle_epi8(hi, to_high));
}

LOCKSTEP_AVX2_INLINE void store_xfer(Xfer& xfer, int group, __m256i w) {
  const __m256i k = _mm256_load_si256(reinterpret_cast<const __m256i*>(kK2.data() + 8 * group));
  _mm256_store_si256(reinterpret_cast<__m256i*>(xfer + 8 * group), _mm256_add_epi32(w, k));
}

// one_round does one round with the variables renamed instead of moved: the
// caller passes them rotated by one each time, and `d` and `h` come back as
// the new e and a.
LOCKSTEP_AVX2_INLINE void one_round(uint32_t a, uint32_t b, uint32_t c, uint32_t& d, uint32_t e,
                                    uint32_t f, uint32_t g, uint32_t& h, uint32_t wk) {
  const uint32_t s1 = std::rotr(e, 6) ^ std::rotr(e, 11) ^ std::rotr(e, 25);
  const uint32_t ch = ((f ^ g) & e) ^ g;
  const uint32_t t1 = h + wk + s1 + ch;
  const uint32_t s0 = std::rotr(a, 2) ^ std::rotr(a, 13) ^ std::rotr(a, 22);
  // Maj(a, b, c) as b ^ ((a ^ b) & (b ^ c)): this round's b ^ c is the last
  // round's a ^ b, which the compiler reuses.
  const uint32_t maj = b ^ ((a ^ b) & (b ^ c));
  d += t1;
  h = t1 + s0 + maj;
}

// eight_rounds does rounds t..t+7 of one block, reading its words from
// `w` (the block's column of xfer, stride 8 words per group of four).
LOCKSTEP_AVX2_INLINE void eight_rounds(uint32_t (&v)[8], const uint32_t* w) {
  uint32_t &a = v[0], &b = v[1], &c = v[2], &d = v[3], &e = v[4], &f = v[5], &g = v[6], &h = v[7];
  one_round(a, b, c, d, e, f, g, h, w[0]);
  one_round(h, a, b, c, d, e, f, g, w[1]);
  one_round(g, h, a, b, c, d, e, f, w[2]);
  one_round(f, g, h, a, b, c, d, e, w[3]);
  one_round(e, f, g, h, a, b, c, d, w[8]);
  one_round(d, e, f, g, h, a, b, c, w[9]);
  one_round(c, d, e, f, g, h, a, b, w[10]);
  one_round(b, c, d, e, f, g, h, a, w[11]);
}

LOCKSTEP_AVX2_INLINE void add_state(uint32_t* h, const uint32_t (&v)[8]) {
  for (int i = 0; i < 8; ++i) h[i] += v[i];
}

LOCKSTEP_AVX2_INLINE __m256i load_pair(const uint8_t* p0, const uint8_t* p1, int i) {
  return _mm256_inserti128_si256(
      _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p0 + 16 * i))),
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(p1 + 16 * i)), 1);
}

[[gnu::noinline]] LOCKSTEP_AVX2 void blocks_avx2(State* state, const uint8_t* data, size_t nblocks) {
  const __m256i bswap = _mm256_broadcastsi128_si256(
      _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
  alignas(32) Xfer xfer;
  uint32_t* h = state->h;
  while (nblocks) {
    // Two blocks per pass; a last odd block runs alone, its upper lane
    // computing the schedule of a copy of itself that nobody reads.
    const uint8_t* second = nblocks >= 2 ? data + 64 : data;
    __m256i x[4];
    for (int i = 0; i < 4; ++i) {
      x[i] = _mm256_shuffle_epi8(load_pair(data, second, i), bswap);
      store_xfer(xfer, i, x[i]);
    }
    uint32_t v[8];
    for (int i = 0; i < 8; ++i) v[i] = h[i];
    // The first block's rounds are interleaved with the schedule of later
    // groups, so that the out-of-order core overlaps the two.
    for (int g = 0; g < 12; g += 2) {
      x[0] = schedule(x[0], x[1], x[2], x[3]);
      store_xfer(xfer, g + 4, x[0]);
      x[1] = schedule(x[1], x[2], x[3], x[0]);
      store_xfer(xfer, g + 5, x[1]);
      eight_rounds(v, xfer + 8 * g);
      std::swap(x[0], x[2]);
      std::swap(x[1], x[3]);
    }
    for (int g = 12; g < 16; g += 2) eight_rounds(v, xfer + 8 * g);
    add_state(h, v);
    if (second == data) break;

    for (int i = 0; i < 8; ++i) v[i] = h[i];
    for (int g = 0; g < 16; g += 2) eight_rounds(v, xfer + 8 * g + 4);
    add_state(h, v);
    data += 128;
    nblocks -= 2;
  }
}

}  // namespace

// extern: the registry declares it; a header need not.
extern const Sha256Backend kSha256X86Avx2 = {
    {"sha256/x86-avx2",
     {cpu::Feature::kAvx2, cpu::Feature::kBmi2},
     "AVX2 message schedule for two blocks at a time, scalar rounds with BMI2 RORX"},
    Wiping<832, blocks_avx2>::call,
};

}  // namespace lockstep
