// chacha/x86-avx512vl: eight blocks at a time in ymm registers, in the shape
// of the kernel's chacha_8block_xor_avx512vl: one state word per register
// (block i in lane i), rotates by VPROLD, and an 8x8 transpose back to byte
// order on output. The 32 registers of AVX-512 hold the whole state with
// room to spare, where AVX2 must spill.
//
// Shorter pieces take narrower paths that keep each block's four rows in
// four registers, as the kernel's 4- and 2-block code does: four or two
// blocks with a block per 128-bit lane of ymm registers, and a single block
// in xmm registers. The tail goes through walk.h's buffer rather than byte
// masked loads and stores, which would need AVX512BW as well.
//
// Only the functions below carry target("avx512f,avx512vl"); the file is
// compiled with baseline flags, so nothing here runs unless dispatch has
// checked the features.
#include <immintrin.h>

#include "chacha/chacha.h"
#include "zeroize.h"
#include "chacha/walk.h"

#define LOCKSTEP_AVX512VL __attribute__((target("avx512f,avx512vl")))
#define LOCKSTEP_AVX512VL_INLINE __attribute__((target("avx512f,avx512vl"), always_inline)) inline
#define LOCKSTEP_CHACHA_INLINE LOCKSTEP_AVX512VL_INLINE
#define LOCKSTEP_CHACHA_KERNEL LOCKSTEP_AVX512VL
#include "chacha/rows.h"

namespace lockstep::chacha {
namespace {

// The instructions for rounds.h and rows.h, at both widths.
struct Ops {
#define LOCKSTEP_OP static LOCKSTEP_AVX512VL_INLINE
  LOCKSTEP_OP __m256i add(__m256i a, __m256i b) { return _mm256_add_epi32(a, b); }
  LOCKSTEP_OP __m256i eor(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
  LOCKSTEP_OP __m256i rot16(__m256i x) { return _mm256_rol_epi32(x, 16); }
  LOCKSTEP_OP __m256i rot12(__m256i x) { return _mm256_rol_epi32(x, 12); }
  LOCKSTEP_OP __m256i rot8(__m256i x) { return _mm256_rol_epi32(x, 8); }
  LOCKSTEP_OP __m256i rot7(__m256i x) { return _mm256_rol_epi32(x, 7); }
  LOCKSTEP_OP __m256i words1(__m256i x) { return _mm256_shuffle_epi32(x, 0x39); }
  LOCKSTEP_OP __m256i words2(__m256i x) { return _mm256_shuffle_epi32(x, 0x4e); }
  LOCKSTEP_OP __m256i words3(__m256i x) { return _mm256_shuffle_epi32(x, 0x93); }

  // The row code's two blocks to a ymm register (rows.h): lane pickers, one
  // row in both lanes, and the two counters.
  template <int I, int J>
  LOCKSTEP_OP __m256i lanes(__m256i a, __m256i b) {
    return _mm256_shuffle_i32x4(a, b, I | J << 1);
  }
  LOCKSTEP_OP __m256i broadcast(const uint32_t* w) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w)));
  }
  LOCKSTEP_OP __m256i count(__m256i d, int n) {
    return add(d, _mm256_setr_epi32(n, 0, 0, 0, n + 1, 0, 0, 0));
  }

  LOCKSTEP_OP __m128i add(__m128i a, __m128i b) { return _mm_add_epi32(a, b); }
  LOCKSTEP_OP __m128i eor(__m128i a, __m128i b) { return _mm_xor_si128(a, b); }
  LOCKSTEP_OP __m128i rot16(__m128i x) { return _mm_rol_epi32(x, 16); }
  LOCKSTEP_OP __m128i rot12(__m128i x) { return _mm_rol_epi32(x, 12); }
  LOCKSTEP_OP __m128i rot8(__m128i x) { return _mm_rol_epi32(x, 8); }
  LOCKSTEP_OP __m128i rot7(__m128i x) { return _mm_rol_epi32(x, 7); }
  LOCKSTEP_OP __m128i words1(__m128i x) { return _mm_shuffle_epi32(x, 0x39); }
  LOCKSTEP_OP __m128i words2(__m128i x) { return _mm_shuffle_epi32(x, 0x4e); }
  LOCKSTEP_OP __m128i words3(__m128i x) { return _mm_shuffle_epi32(x, 0x93); }
#undef LOCKSTEP_OP
};

LOCKSTEP_AVX512VL_INLINE __m256i splat(uint32_t w) {
  return _mm256_set1_epi32(static_cast<int>(w));
}

LOCKSTEP_AVX512VL void block8(const State& state, uint8_t* dst, const uint8_t* src, int rounds) {
  // A 32-bit add wraps each lane's counter on its own (no carry into word 13).
  const __m256i counters = Ops::add(splat(state.x[12]), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256i x[16];
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i) x[i] = splat(state.x[i]);
  x[12] = counters;
  word_rounds<Ops, 4>(x, rounds);
#pragma GCC unroll 16
  for (int k = 0; k < 16; ++k) x[k] = Ops::add(x[k], k == 12 ? counters : splat(state.x[k]));

  // Pairs of words: t[2k] lane q = words 2k, 2k+1 of blocks 4q, 4q+1;
  // t[2k+1] the same of blocks 4q+2, 4q+3.
  __m256i t[16];
#pragma GCC unroll 8
  for (int k = 0; k < 8; ++k) {
    t[2 * k] = _mm256_unpacklo_epi32(x[2 * k], x[2 * k + 1]);
    t[2 * k + 1] = _mm256_unpackhi_epi32(x[2 * k], x[2 * k + 1]);
  }
  // Quads: x[4g + r] lane q = words 4g..4g+3 of block 4q + r.
#pragma GCC unroll 4
  for (int g = 0; g < 4; ++g) {
    x[4 * g + 0] = _mm256_unpacklo_epi64(t[4 * g], t[4 * g + 2]);
    x[4 * g + 1] = _mm256_unpackhi_epi64(t[4 * g], t[4 * g + 2]);
    x[4 * g + 2] = _mm256_unpacklo_epi64(t[4 * g + 1], t[4 * g + 3]);
    x[4 * g + 3] = _mm256_unpackhi_epi64(t[4 * g + 1], t[4 * g + 3]);
  }
  // Block 4q + r is lane q of x[r], x[4 + r], x[8 + r], x[12 + r]: shuffle
  // 0 joins the low lanes of two registers, 3 the high ones.
#pragma GCC unroll 4
  for (int r = 0; r < 4; ++r) {
    xor_store<Ops>(dst, src, 64 * r, _mm256_shuffle_i32x4(x[r], x[4 + r], 0));
    xor_store<Ops>(dst, src, 64 * r + 32, _mm256_shuffle_i32x4(x[8 + r], x[12 + r], 0));
  }
#pragma GCC unroll 4
  for (int r = 0; r < 4; ++r) {
    xor_store<Ops>(dst, src, 256 + 64 * r, _mm256_shuffle_i32x4(x[r], x[4 + r], 3));
    xor_store<Ops>(dst, src, 256 + 64 * r + 32, _mm256_shuffle_i32x4(x[8 + r], x[12 + r], 3));
  }
}

[[gnu::noinline]] LOCKSTEP_AVX512VL void crypt_avx512vl(State* state, uint8_t* dst, const uint8_t* src, size_t len,
                                      int rounds) {
  // As in the kernel's glue: eight-block groups, and a last piece of over
  // four blocks through the 8-block code too, by way of walk.h's buffer.
  // Four blocks are two ymm row sets side by side: one dependency chain
  // alone would leave the vector ports idle. One block is in xmm.
  crypt_tiers(state, dst, src, len, rounds, tier<8>(block8), tier<4>(row_blocks<Ops, __m256i, 2>),
              tier<2>(row_blocks<Ops, __m256i, 1>), tier<1>(row_blocks<Ops, __m128i, 1>));
}

// One block or less: the one-block kernel alone, with a frame of a few
// hundred bytes to clear rather than the whole walk's (walk.h, crypt_entry).
[[gnu::noinline]] LOCKSTEP_AVX512VL void crypt_avx512vl_one(State* state, uint8_t* dst, const uint8_t* src, size_t len, int rounds) {
  crypt_wide<1>(state, dst, src, len, rounds, row_blocks<Ops, __m128i, 1>);
}

}  // namespace

// extern: the registry declares it; a header need not.
extern const ChachaBackend kChachaX86Avx512vl = {
    {"chacha/x86-avx512vl",
     {cpu::Feature::kAvx512vl},
     "8 blocks in ymm registers with AVX-512 rotates, one state word per register; 4, 2 or 1 "
     "block(s) in rows for short pieces"},
    crypt_entry<320, crypt_avx512vl_one, 1536, crypt_avx512vl>,
};

}  // namespace lockstep::chacha
