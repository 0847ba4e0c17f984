// chacha/x86-ssse3: ChaCha in SSSE3, in the shape of the kernel's
// chacha-ssse3-x86_64.S. Four blocks at a time with one state word per xmm
// register (block i in lane i), words 0 to 3 kept in memory as the kernel
// keeps them (rounds.h, word_rounds_spilled), transposed back to byte order
// on output. A last piece of up to three blocks keeps each block's state as
// rows in four registers instead, where four lanes of work would be partly
// thrown away; unlike the kernel, two or three such blocks run side by side
// rather than one after another or in the four-block code.
//
// Only the functions below carry target("ssse3"); the file is compiled with
// baseline flags, so nothing here runs unless dispatch has checked the
// feature.
#include <immintrin.h>

#include "chacha/chacha.h"
#include "zeroize.h"
#include "chacha/walk.h"

#define LOCKSTEP_SSSE3 __attribute__((target("ssse3")))
#define LOCKSTEP_SSSE3_INLINE __attribute__((target("ssse3"), always_inline)) inline
#define LOCKSTEP_CHACHA_INLINE LOCKSTEP_SSSE3_INLINE
#define LOCKSTEP_CHACHA_KERNEL LOCKSTEP_SSSE3
#include "chacha/rows.h"

namespace lockstep::chacha {
namespace {

// The instructions for rounds.h and rows.h.
struct Ops {
  static LOCKSTEP_SSSE3_INLINE __m128i add(__m128i a, __m128i b) { return _mm_add_epi32(a, b); }
  static LOCKSTEP_SSSE3_INLINE __m128i eor(__m128i a, __m128i b) { return _mm_xor_si128(a, b); }

  // Rotates by whole bytes are a single byte shuffle, cheaper than the two
  // shifts and an or that 12 and 7 need.
  //
  // The masks pass through an empty asm: seeing a constant, clang rewrites
  // the rotate by 16 as pshuflw + pshufhw and pushes the rotate by 8 back
  // through the xor before it, both extra shuffles on the one port that does
  // them. The asm statements are identical, so the compilers share one mask
  // register among them.
  static LOCKSTEP_SSSE3_INLINE __m128i opaque(__m128i x) {
    __asm__("" : "+x"(x));
    return x;
  }
  static LOCKSTEP_SSSE3_INLINE __m128i rot16(__m128i x) {
    return _mm_shuffle_epi8(
        x, opaque(_mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13)));
  }
  static LOCKSTEP_SSSE3_INLINE __m128i rot8(__m128i x) {
    return _mm_shuffle_epi8(
        x, opaque(_mm_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14)));
  }
  static LOCKSTEP_SSSE3_INLINE __m128i rot12(__m128i x) { return shifts<12>(x); }
  static LOCKSTEP_SSSE3_INLINE __m128i rot7(__m128i x) { return shifts<7>(x); }
  template <int N>
  static LOCKSTEP_SSSE3_INLINE __m128i shifts(__m128i x) {
    return _mm_or_si128(_mm_slli_epi32(x, N), _mm_srli_epi32(x, 32 - N));
  }

  static LOCKSTEP_SSSE3_INLINE __m128i words1(__m128i x) { return _mm_shuffle_epi32(x, 0x39); }
  static LOCKSTEP_SSSE3_INLINE __m128i words2(__m128i x) { return _mm_shuffle_epi32(x, 0x4e); }
  static LOCKSTEP_SSSE3_INLINE __m128i words3(__m128i x) { return _mm_shuffle_epi32(x, 0x93); }

  // The counters of rows.h's blocks side by side.
  static LOCKSTEP_SSSE3_INLINE __m128i count(__m128i d, int n) {
    return add(d, _mm_setr_epi32(n, 0, 0, 0));
  }
};

// transpose turns four registers holding one word of four blocks each into
// four registers holding four consecutive words of one block each.
LOCKSTEP_SSSE3_INLINE void transpose(__m128i& a, __m128i& b, __m128i& c, __m128i& d) {
  const __m128i ab_lo = _mm_unpacklo_epi32(a, b), ab_hi = _mm_unpackhi_epi32(a, b);
  const __m128i cd_lo = _mm_unpacklo_epi32(c, d), cd_hi = _mm_unpackhi_epi32(c, d);
  a = _mm_unpacklo_epi64(ab_lo, cd_lo);
  b = _mm_unpackhi_epi64(ab_lo, cd_lo);
  c = _mm_unpacklo_epi64(ab_hi, cd_hi);
  d = _mm_unpackhi_epi64(ab_hi, cd_hi);
}

LOCKSTEP_SSSE3 void block4(const State& state, uint8_t* dst, const uint8_t* src, int rounds) {
  // Only the counter differs between lanes; a 32-bit add wraps each lane on
  // its own, as the counter must (no carry into word 13).
  const __m128i counters =
      Ops::add(_mm_set1_epi32(static_cast<int>(state.x[12])), _mm_setr_epi32(0, 1, 2, 3));
  __m128i x[16];
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i) x[i] = _mm_set1_epi32(static_cast<int>(state.x[i]));
  x[12] = counters;
  word_rounds_spilled<Ops>(x, rounds);
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i)
    x[i] = Ops::add(x[i], i == 12 ? counters : _mm_set1_epi32(static_cast<int>(state.x[i])));
  transpose(x[0], x[1], x[2], x[3]);
  transpose(x[4], x[5], x[6], x[7]);
  transpose(x[8], x[9], x[10], x[11]);
  transpose(x[12], x[13], x[14], x[15]);
  // x[4g + j] now holds words 4g..4g+3 of block j.
#pragma GCC unroll 4
  for (int j = 0; j < 4; ++j) {
#pragma GCC unroll 4
    for (int g = 0; g < 4; ++g) xor_store<Ops>(dst, src, 64 * j + 16 * g, x[4 * g + j]);
  }
}

[[gnu::noinline]] void crypt_ssse3(State* state, uint8_t* dst, const uint8_t* src, size_t len, int rounds) {
  // A last piece that needs four blocks costs the four-block code, bounced,
  // about what three blocks in rows do; shorter ones go to the rows.
  crypt_tiers(state, dst, src, len, rounds, tier<4>(block4),
              tier<3>(row_blocks<Ops, __m128i, 3>), tier<2>(row_blocks<Ops, __m128i, 2>),
              tier<1>(row_blocks<Ops, __m128i, 1>));
}

// One block or less: the one-block kernel alone, with a frame of a few
// hundred bytes to clear rather than the whole walk's (walk.h, crypt_entry).
[[gnu::noinline]] void crypt_ssse3_one(State* state, uint8_t* dst, const uint8_t* src, size_t len, int rounds) {
  crypt_wide<1>(state, dst, src, len, rounds, row_blocks<Ops, __m128i, 1>);
}

}  // namespace

// extern: the registry declares it; a header need not.
extern const ChachaBackend kChachaX86Ssse3 = {
    {"chacha/x86-ssse3",
     {cpu::Feature::kSsse3},
     "4 blocks in xmm registers, one state word per register; 1 to 3 blocks in rows for "
     "a last piece of up to 192 bytes"},
    crypt_entry<320, crypt_ssse3_one, 896, crypt_ssse3>,
};

}  // namespace lockstep::chacha
