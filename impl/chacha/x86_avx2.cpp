// chacha/x86-avx2: ChaCha in AVX2, in the shape of the kernel's
// chacha-avx2-x86_64.S. Eight blocks at a time with one state word per ymm
// register (block i in lane i), transposed back to byte order on output.
// Shorter last pieces keep the state in rows instead, one block per 128-bit
// lane: two ymm row sets for four blocks, one for two, and one xmm set for a
// single block, so that a short message does not pay for eight.
//
// Only the functions below carry target("avx2"); the file is compiled with
// baseline flags, so nothing here runs unless dispatch has checked the
// feature.
#include <immintrin.h>

#include "chacha/chacha.h"
#include "zeroize.h"
#include "chacha/walk.h"

#define LOCKSTEP_AVX2 __attribute__((target("avx2")))
#define LOCKSTEP_AVX2_INLINE __attribute__((target("avx2"), always_inline)) inline
#define LOCKSTEP_CHACHA_INLINE LOCKSTEP_AVX2_INLINE
#define LOCKSTEP_CHACHA_KERNEL LOCKSTEP_AVX2
#include "chacha/rows.h"

namespace lockstep::chacha {
namespace {

// The instructions for rounds.h and rows.h, for both widths, so that the row
// code serves one block in an xmm register as well as two in a ymm register.
struct Ops {
#define LOCKSTEP_OP static LOCKSTEP_AVX2_INLINE
  LOCKSTEP_OP __m128i add(__m128i a, __m128i b) { return _mm_add_epi32(a, b); }
  LOCKSTEP_OP __m256i add(__m256i a, __m256i b) { return _mm256_add_epi32(a, b); }
  LOCKSTEP_OP __m128i eor(__m128i a, __m128i b) { return _mm_xor_si128(a, b); }
  LOCKSTEP_OP __m256i eor(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }

  // Rotates by whole bytes are a single byte shuffle, cheaper than the two
  // shifts and an or that 12 and 7 need. The ymm masks repeat per 128-bit
  // lane, as vpshufb works within lanes.
  //
  // The masks pass through an empty asm: seeing a constant, clang rewrites
  // the rotate by 16 as vpshuflw + vpshufhw and pushes the rotate by 8 back
  // through the xor before it, both extra port-5 shuffles that cost the
  // eight-block code a third of its speed. The asm statements are identical,
  // so the compilers share one mask register among them.
  template <class V>
  LOCKSTEP_OP V opaque(V x) {
    __asm__("" : "+x"(x));
    return x;
  }
  LOCKSTEP_OP __m128i rot16_mask() {
    return _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
  }
  LOCKSTEP_OP __m128i rot8_mask() {
    return _mm_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
  }
  LOCKSTEP_OP __m128i rot16(__m128i x) { return _mm_shuffle_epi8(x, opaque(rot16_mask())); }
  LOCKSTEP_OP __m128i rot8(__m128i x) { return _mm_shuffle_epi8(x, opaque(rot8_mask())); }
  LOCKSTEP_OP __m256i rot16(__m256i x) {
    return _mm256_shuffle_epi8(x, opaque(_mm256_broadcastsi128_si256(rot16_mask())));
  }
  LOCKSTEP_OP __m256i rot8(__m256i x) {
    return _mm256_shuffle_epi8(x, opaque(_mm256_broadcastsi128_si256(rot8_mask())));
  }

  template <int N>
  LOCKSTEP_OP __m128i shifts(__m128i x) {
    return _mm_or_si128(_mm_slli_epi32(x, N), _mm_srli_epi32(x, 32 - N));
  }
  template <int N>
  LOCKSTEP_OP __m256i shifts(__m256i x) {
    return _mm256_or_si256(_mm256_slli_epi32(x, N), _mm256_srli_epi32(x, 32 - N));
  }
  template <class V>
  LOCKSTEP_OP V rot12(V x) {
    return shifts<12>(x);
  }
  template <class V>
  LOCKSTEP_OP V rot7(V x) {
    return shifts<7>(x);
  }

  LOCKSTEP_OP __m128i words1(__m128i x) { return _mm_shuffle_epi32(x, 0x39); }
  LOCKSTEP_OP __m128i words2(__m128i x) { return _mm_shuffle_epi32(x, 0x4e); }
  LOCKSTEP_OP __m128i words3(__m128i x) { return _mm_shuffle_epi32(x, 0x93); }
  LOCKSTEP_OP __m256i words1(__m256i x) { return _mm256_shuffle_epi32(x, 0x39); }
  LOCKSTEP_OP __m256i words2(__m256i x) { return _mm256_shuffle_epi32(x, 0x4e); }
  LOCKSTEP_OP __m256i words3(__m256i x) { return _mm256_shuffle_epi32(x, 0x93); }

  // The row code's two blocks to a ymm register (rows.h).
  LOCKSTEP_OP __m256i broadcast(const uint32_t* w) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w)));
  }
  LOCKSTEP_OP __m256i count(__m256i d, int n) {
    return add(d, _mm256_setr_epi32(n, 0, 0, 0, n + 1, 0, 0, 0));
  }

  // Lane pickers for rows.h's two blocks to a ymm register.
  template <int I, int J>
  LOCKSTEP_OP __m256i lanes(__m256i a, __m256i b) {
    return _mm256_permute2x128_si256(a, b, I | (2 + J) << 4);
  }
#undef LOCKSTEP_OP
};

// transpose turns, within each 128-bit lane, four registers holding one
// word of four blocks each into four registers holding four consecutive
// words of one block each.
LOCKSTEP_AVX2_INLINE void transpose(__m256i& a, __m256i& b, __m256i& c, __m256i& d) {
  const __m256i ab_lo = _mm256_unpacklo_epi32(a, b), ab_hi = _mm256_unpackhi_epi32(a, b);
  const __m256i cd_lo = _mm256_unpacklo_epi32(c, d), cd_hi = _mm256_unpackhi_epi32(c, d);
  a = _mm256_unpacklo_epi64(ab_lo, cd_lo);
  b = _mm256_unpackhi_epi64(ab_lo, cd_lo);
  c = _mm256_unpacklo_epi64(ab_hi, cd_hi);
  d = _mm256_unpackhi_epi64(ab_hi, cd_hi);
}

// store_lanes writes four blocks after the transposes, when x[4g + j] holds
// words 4g..4g+3 of block j in its low lane and of block j + 4 in its high
// lane: Sel 0x20 takes blocks 0..3, 0x31 blocks 4..7. Pairing groups 0 with
// 1 and 2 with 3 makes 32 contiguous bytes of one block.
template <int Sel>
LOCKSTEP_AVX2_INLINE void store_lanes(uint8_t* dst, const uint8_t* src, const __m256i (&x)[16]) {
#pragma GCC unroll 4
  for (int j = 0; j < 4; ++j) {
    xor_store<Ops>(dst, src, 64 * j, _mm256_permute2x128_si256(x[j], x[4 + j], Sel));
    xor_store<Ops>(dst, src, 64 * j + 32, _mm256_permute2x128_si256(x[8 + j], x[12 + j], Sel));
  }
}

LOCKSTEP_AVX2 void block8(const State& state, uint8_t* dst, const uint8_t* src, int rounds) {
  // Only the counter differs between lanes; a 32-bit add wraps each lane on
  // its own, as the counter must (no carry into word 13).
  const __m256i counters = Ops::add(_mm256_set1_epi32(static_cast<int>(state.x[12])),
                                    _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256i x[16];
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i) x[i] = _mm256_set1_epi32(static_cast<int>(state.x[i]));
  x[12] = counters;
  word_rounds<Ops, 4>(x, rounds);
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i)
    x[i] = Ops::add(x[i], i == 12 ? counters : _mm256_set1_epi32(static_cast<int>(state.x[i])));
  transpose(x[0], x[1], x[2], x[3]);
  transpose(x[4], x[5], x[6], x[7]);
  transpose(x[8], x[9], x[10], x[11]);
  transpose(x[12], x[13], x[14], x[15]);
  store_lanes<0x20>(dst, src, x);
  store_lanes<0x31>(dst + 256, src + 256, x);
}

[[gnu::noinline]] void crypt_avx2(State* state, uint8_t* dst, const uint8_t* src, size_t len, int rounds) {
  // Like the kernel's glue: eight-block groups, a last piece of five to
  // eight blocks through the eight-block code too, and anything shorter
  // through the narrowest code that covers it in one call. Four blocks are
  // two ymm row sets side by side; one block is in xmm.
  crypt_tiers(state, dst, src, len, rounds, tier<8>(block8), tier<4>(row_blocks<Ops, __m256i, 2>),
              tier<2>(row_blocks<Ops, __m256i, 1>), tier<1>(row_blocks<Ops, __m128i, 1>));
}

// One block or less: the one-block kernel alone, with a frame of a few
// hundred bytes to clear rather than the whole walk's (walk.h, crypt_entry).
[[gnu::noinline]] void crypt_avx2_one(State* state, uint8_t* dst, const uint8_t* src, size_t len, int rounds) {
  crypt_wide<1>(state, dst, src, len, rounds, row_blocks<Ops, __m128i, 1>);
}

}  // namespace

// extern: the registry declares it; a header need not.
extern const ChachaBackend kChachaX86Avx2 = {
    {"chacha/x86-avx2",
     {cpu::Feature::kAvx2},
     "8 blocks in ymm registers, one state word per register; rows of 4, 2 or 1 blocks for "
     "shorter last pieces"},
    crypt_entry<320, crypt_avx2_one, 2240, crypt_avx2>,
};

}  // namespace lockstep::chacha
