// chacha/x86-avx512f: sixteen blocks at a time in zmm registers, one state
// word per register (block i in lane i), rotates by VPROLD and a 16x16
// transpose back to byte order on output. The first column round of a
// call's blocks is the same in every lane but for the column holding the
// counter, so three of its four quarter-rounds are done once per call.
//
// Shorter pieces take narrower paths that keep each block's four rows in
// four registers (no transpose going in): eight or four blocks with a block
// per 128-bit lane of zmm registers, and a single block in xmm registers.
//
// Only AVX512F is assumed (Knights Landing has no VL), so every rotate is a
// zmm VPROLD; the one-block path rotates its xmm rows in the low lane of a
// zmm register. Only the functions below carry target("avx512f"); the file
// is compiled with baseline flags, so nothing here runs unless dispatch has
// checked the feature.

// GCC 12's AVX-512 headers make their "undefined" vectors by initialising a
// variable from itself (GCC bug 105593), which -Wuninitialized then reports
// wherever those intrinsics are inlined.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#include <bit>

#include "chacha/chacha.h"
#include "chacha/walk.h"
#include "zeroize.h"

#define LOCKSTEP_AVX512F __attribute__((target("avx512f")))
#define LOCKSTEP_AVX512F_INLINE __attribute__((target("avx512f"), always_inline)) inline
#define LOCKSTEP_CHACHA_INLINE LOCKSTEP_AVX512F_INLINE
#define LOCKSTEP_CHACHA_KERNEL LOCKSTEP_AVX512F
#include "chacha/rows.h"

namespace lockstep::chacha {
namespace {

// The instructions for rounds.h and rows.h, at both widths.
struct Ops {
#define LOCKSTEP_OP static LOCKSTEP_AVX512F_INLINE
  LOCKSTEP_OP __m512i add(__m512i a, __m512i b) { return _mm512_add_epi32(a, b); }
  LOCKSTEP_OP __m512i eor(__m512i a, __m512i b) { return _mm512_xor_si512(a, b); }
  LOCKSTEP_OP __m512i rot16(__m512i x) { return _mm512_rol_epi32(x, 16); }
  LOCKSTEP_OP __m512i rot12(__m512i x) { return _mm512_rol_epi32(x, 12); }
  LOCKSTEP_OP __m512i rot8(__m512i x) { return _mm512_rol_epi32(x, 8); }
  LOCKSTEP_OP __m512i rot7(__m512i x) { return _mm512_rol_epi32(x, 7); }
  LOCKSTEP_OP __m512i words1(__m512i x) {
    return _mm512_shuffle_epi32(x, static_cast<_MM_PERM_ENUM>(0x39));
  }
  LOCKSTEP_OP __m512i words2(__m512i x) {
    return _mm512_shuffle_epi32(x, static_cast<_MM_PERM_ENUM>(0x4e));
  }
  LOCKSTEP_OP __m512i words3(__m512i x) {
    return _mm512_shuffle_epi32(x, static_cast<_MM_PERM_ENUM>(0x93));
  }
  // The row code's four blocks to a zmm register (rows.h).
  LOCKSTEP_OP __m512i broadcast(const uint32_t* w) {
    return _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w)));
  }
  LOCKSTEP_OP __m512i count(__m512i d, int n) {
    return add(d, _mm512_setr_epi32(n, 0, 0, 0, n + 1, 0, 0, 0, n + 2, 0, 0, 0, n + 3, 0, 0, 0));
  }

  LOCKSTEP_OP __m128i add(__m128i a, __m128i b) { return _mm_add_epi32(a, b); }
  LOCKSTEP_OP __m128i eor(__m128i a, __m128i b) { return _mm_xor_si128(a, b); }
  // Without VL there is no xmm VPROLD; the upper lanes rotate junk for free.
  LOCKSTEP_OP __m128i rot16(__m128i x) { return rot_in_zmm<16>(x); }
  LOCKSTEP_OP __m128i rot12(__m128i x) { return rot_in_zmm<12>(x); }
  LOCKSTEP_OP __m128i rot8(__m128i x) { return rot_in_zmm<8>(x); }
  LOCKSTEP_OP __m128i rot7(__m128i x) { return rot_in_zmm<7>(x); }
  LOCKSTEP_OP __m128i words1(__m128i x) { return _mm_shuffle_epi32(x, 0x39); }
  LOCKSTEP_OP __m128i words2(__m128i x) { return _mm_shuffle_epi32(x, 0x4e); }
  LOCKSTEP_OP __m128i words3(__m128i x) { return _mm_shuffle_epi32(x, 0x93); }
  // Two xmm row sets side by side (two blocks): the second one's counter.
  LOCKSTEP_OP __m128i count(__m128i d, int n) { return add(d, _mm_setr_epi32(n, 0, 0, 0)); }

  template <int N>
  LOCKSTEP_OP __m128i rot_in_zmm(__m128i x) {
    return _mm512_castsi512_si128(_mm512_rol_epi32(_mm512_castsi128_si512(x), N));
  }

  // Lane pickers for rows.h's four blocks to a zmm register.
  template <int I0, int I1, int J0, int J1>
  LOCKSTEP_OP __m512i lanes(__m512i a, __m512i b) {
    return _mm512_shuffle_i32x4(a, b, I0 | I1 << 2 | J0 << 4 | J1 << 6);
  }
#undef LOCKSTEP_OP
};

LOCKSTEP_AVX512F_INLINE __m512i splat(uint32_t w) {
  return _mm512_set1_epi32(static_cast<int>(w));
}

// Head holds what the first column round makes of the words that are the
// same in every block of a call (all but the counter, word 12): columns 1
// to 3 whole, and column 0's first addition. It is key material.
struct Head {
  uint32_t x[16];
};

// Scalar code, but the target of the rounds.h it uses.
LOCKSTEP_AVX512F void make_head(const State& state, Head& head) {
  // Worked out in registers and stored once, so that the kernel's loads of
  // `head` wait on these stores only, not on a chain of updates in memory.
#pragma GCC unroll 3
  for (int col = 1; col < 4; ++col) {
    uint32_t a = state.x[col], b = state.x[4 + col], c = state.x[8 + col], d = state.x[12 + col];
    quarter<ScalarOps>(a, b, c, d);
    head.x[col] = a, head.x[4 + col] = b, head.x[8 + col] = c, head.x[12 + col] = d;
  }
  head.x[0] = state.x[0] + state.x[4];
  head.x[4] = state.x[4];
  head.x[8] = state.x[8];
  head.x[12] = 0;  // unused: column 0 is done per block
}

// transpose16 turns x[w] = word w of blocks 0..15 into x[b] = block b,
// words 0..15, in four rounds of two-register shuffles.
LOCKSTEP_AVX512F_INLINE void transpose16(__m512i (&x)[16]) {
  __m512i t[16];
  // Pairs of words: t[2k] lane q = words 2k, 2k+1 of blocks 4q, 4q+1;
  // t[2k+1] the same of blocks 4q+2, 4q+3.
#pragma GCC unroll 8
  for (int k = 0; k < 8; ++k) {
    t[2 * k] = _mm512_unpacklo_epi32(x[2 * k], x[2 * k + 1]);
    t[2 * k + 1] = _mm512_unpackhi_epi32(x[2 * k], x[2 * k + 1]);
  }
  // Quads: u[4g + r] lane q = words 4g..4g+3 of block 4q + r.
  __m512i u[16];
#pragma GCC unroll 4
  for (int g = 0; g < 4; ++g) {
    u[4 * g + 0] = _mm512_unpacklo_epi64(t[4 * g], t[4 * g + 2]);
    u[4 * g + 1] = _mm512_unpackhi_epi64(t[4 * g], t[4 * g + 2]);
    u[4 * g + 2] = _mm512_unpacklo_epi64(t[4 * g + 1], t[4 * g + 3]);
    u[4 * g + 3] = _mm512_unpackhi_epi64(t[4 * g + 1], t[4 * g + 3]);
  }
  // A 4x4 transpose of 128-bit lanes for each r: 0x88 takes lanes 0 and 2
  // of both sources, 0xdd lanes 1 and 3.
#pragma GCC unroll 4
  for (int r = 0; r < 4; ++r) {
    const __m512i even01 = _mm512_shuffle_i32x4(u[r], u[4 + r], 0x88);
    const __m512i odd01 = _mm512_shuffle_i32x4(u[r], u[4 + r], 0xdd);
    const __m512i even23 = _mm512_shuffle_i32x4(u[8 + r], u[12 + r], 0x88);
    const __m512i odd23 = _mm512_shuffle_i32x4(u[8 + r], u[12 + r], 0xdd);
    x[r] = _mm512_shuffle_i32x4(even01, even23, 0x88);
    x[4 + r] = _mm512_shuffle_i32x4(odd01, odd23, 0x88);
    x[8 + r] = _mm512_shuffle_i32x4(even01, even23, 0xdd);
    x[12 + r] = _mm512_shuffle_i32x4(odd01, odd23, 0xdd);
  }
}

LOCKSTEP_AVX512F void block16(const State& state, const Head& head, uint8_t* dst,
                              const uint8_t* src, int rounds) {
  // A 32-bit add wraps each lane's counter on its own (no carry into word 13).
  const __m512i counters = Ops::add(
      splat(state.x[12]), _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
  __m512i x[16];
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i) x[i] = splat(head.x[i]);
  // The rest of the first column round: column 0, where the counter is.
  x[12] = Ops::rot16(Ops::eor(counters, x[0]));
  x[8] = Ops::add(x[8], x[12]);
  x[4] = Ops::rot12(Ops::eor(x[4], x[8]));
  arx<Ops, 8>(x[0], x[4], x[12]);
  arx<Ops, 7>(x[8], x[12], x[4]);
  diagonals<Ops, 4>(x, x);
  // The remaining double rounds two per pass, one first when their number
  // is odd: the longer loop body schedules better. (Doing the first one
  // above needs rounds >= 1, which the contract's even rounds >= 2 gives.)
  const int rest = (rounds + 1) / 2 - 1;
  if (rest % 2) {
    columns<Ops, 4>(x, x);
    diagonals<Ops, 4>(x, x);
  }
  for (int i = rest / 2; i > 0; --i) {
    columns<Ops, 4>(x, x);
    diagonals<Ops, 4>(x, x);
    columns<Ops, 4>(x, x);
    diagonals<Ops, 4>(x, x);
  }
#pragma GCC unroll 16
  for (int k = 0; k < 16; ++k) x[k] = Ops::add(x[k], k == 12 ? counters : splat(state.x[k]));
  transpose16(x);
#pragma GCC unroll 16
  for (int b = 0; b < 16; ++b) xor_store<Ops>(dst, src, 64 * b, x[b]);
}

[[gnu::noinline]] LOCKSTEP_AVX512F void crypt_avx512f(State* state, uint8_t* dst, const uint8_t* src, size_t len,
                                    int rounds) {
  if (len > 8 * kBlockSize) {
    Head head;
    make_head(*state, head);
    const auto wide = [&head](const State& s, uint8_t* out, const uint8_t* in, int r) {
      block16(s, head, out, in, r);
    };
    // A last piece of over eight blocks goes through the 16-block code too,
    // by way of walk.h's buffer.
    const size_t n = wide_part<16, 8>(len);
    crypt_wide<16>(state, dst, src, n, rounds, wide);
    dst += n, src += n, len -= n;
    zeroize(&head, sizeof head);
  }
  // Eight blocks are two zmm row sets side by side: the two dependency
  // chains keep both vector ports busy. Two blocks are two xmm row sets,
  // not a zmm set of four through walk.h's buffer (that bounce made 128
  // bytes slower than 256). One block is in xmm.
  crypt_tiers(state, dst, src, len, rounds, tier<8>(row_blocks<Ops, __m512i, 2>),
              tier<4>(row_blocks<Ops, __m512i, 1>), tier<2>(row_blocks<Ops, __m128i, 2>),
              tier<1>(row_blocks<Ops, __m128i, 1>));
}

// One block or less: the one-block kernel alone, with a frame of a few
// hundred bytes to clear rather than the whole walk's (walk.h, crypt_entry).
[[gnu::noinline]] LOCKSTEP_AVX512F void crypt_avx512f_one(State* state, uint8_t* dst, const uint8_t* src, size_t len, int rounds) {
  crypt_wide<1>(state, dst, src, len, rounds, row_blocks<Ops, __m128i, 1>);
}

}  // namespace

// extern: the registry declares it; a header need not.
extern const ChachaBackend kChachaX86Avx512f = {
    {"chacha/x86-avx512f",
     {cpu::Feature::kAvx512f},
     "16 blocks in zmm registers, one state word per register; 8, 4 or 1 block(s) in rows "
     "for short pieces; passed over for chacha/x86-avx512vl where the CPU prefers ymm",
#if defined(LOCKSTEP_PLANT_LOST_PREFER_YMM)
     // Planted (teeth/, class o): the preference rule lost, zmm code kept
     // on the CPUs the kernel's zmm exclusion list names.
     {}},
#else
     {cpu::Feature::kPreferYmm}},
#endif
    crypt_entry<320, crypt_avx512f_one, 2048, crypt_avx512f>,
};

}  // namespace lockstep::chacha
