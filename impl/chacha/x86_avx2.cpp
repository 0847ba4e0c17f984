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
#include "chacha/walk.h"

#define LOCKSTEP_AVX2 __attribute__((target("avx2")))
#define LOCKSTEP_AVX2_INLINE __attribute__((target("avx2"), always_inline)) inline

namespace lockstep::chacha {
namespace {

// The operations come for both widths, so that the row code serves one
// block in an xmm register as well as two in a ymm register.

LOCKSTEP_AVX2_INLINE __m128i add(__m128i a, __m128i b) { return _mm_add_epi32(a, b); }
LOCKSTEP_AVX2_INLINE __m256i add(__m256i a, __m256i b) { return _mm256_add_epi32(a, b); }
LOCKSTEP_AVX2_INLINE __m128i xor_(__m128i a, __m128i b) { return _mm_xor_si128(a, b); }
LOCKSTEP_AVX2_INLINE __m256i xor_(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }

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
LOCKSTEP_AVX2_INLINE V opaque(V x) {
  __asm__("" : "+x"(x));
  return x;
}
LOCKSTEP_AVX2_INLINE __m128i rot16_mask() {
  return _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
}
LOCKSTEP_AVX2_INLINE __m128i rot8_mask() {
  return _mm_setr_epi8(3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14);
}
LOCKSTEP_AVX2_INLINE __m128i rotl16(__m128i x) { return _mm_shuffle_epi8(x, opaque(rot16_mask())); }
LOCKSTEP_AVX2_INLINE __m128i rotl8(__m128i x) { return _mm_shuffle_epi8(x, opaque(rot8_mask())); }
LOCKSTEP_AVX2_INLINE __m256i rotl16(__m256i x) {
  return _mm256_shuffle_epi8(x, opaque(_mm256_broadcastsi128_si256(rot16_mask())));
}
LOCKSTEP_AVX2_INLINE __m256i rotl8(__m256i x) {
  return _mm256_shuffle_epi8(x, opaque(_mm256_broadcastsi128_si256(rot8_mask())));
}

template <int N>
LOCKSTEP_AVX2_INLINE __m128i rotl(__m128i x) {
  return _mm_or_si128(_mm_slli_epi32(x, N), _mm_srli_epi32(x, 32 - N));
}
template <int N>
LOCKSTEP_AVX2_INLINE __m256i rotl(__m256i x) {
  return _mm256_or_si256(_mm256_slli_epi32(x, N), _mm256_srli_epi32(x, 32 - N));
}

// Word shuffle within each 128-bit lane.
template <int Imm>
LOCKSTEP_AVX2_INLINE __m128i shuffle(__m128i x) {
  return _mm_shuffle_epi32(x, Imm);
}
template <int Imm>
LOCKSTEP_AVX2_INLINE __m256i shuffle(__m256i x) {
  return _mm256_shuffle_epi32(x, Imm);
}

template <class V>
LOCKSTEP_AVX2_INLINE void quarter(V& a, V& b, V& c, V& d) {
  a = add(a, b), d = rotl16(xor_(d, a));
  c = add(c, d), b = rotl<12>(xor_(b, c));
  a = add(a, b), d = rotl8(xor_(d, a));
  c = add(c, d), b = rotl<7>(xor_(b, c));
}

// double_round on rows: turning rows b, c and d left by one, two and three
// words lines the diagonals up as columns; the second shuffle turns them back.
template <class V>
LOCKSTEP_AVX2_INLINE void double_round(V& a, V& b, V& c, V& d) {
  quarter(a, b, c, d);
  b = shuffle<0x39>(b), c = shuffle<0x4e>(c), d = shuffle<0x93>(d);
  quarter(a, b, c, d);
  b = shuffle<0x93>(b), c = shuffle<0x4e>(c), d = shuffle<0x39>(d);
}

LOCKSTEP_AVX2_INLINE __m128i load128(const void* p) {
  return _mm_loadu_si128(static_cast<const __m128i*>(p));
}
LOCKSTEP_AVX2_INLINE __m256i load256(const void* p) {
  return _mm256_loadu_si256(static_cast<const __m256i*>(p));
}

// Each chunk is loaded just before the store to the same offset, and the
// callers go in ascending order: with dst <= src a store then only overwrites
// input that has been read already.
LOCKSTEP_AVX2_INLINE void xor_store(uint8_t* dst, const uint8_t* src, size_t offset, __m128i ks) {
  _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + offset), xor_(load128(src + offset), ks));
}
LOCKSTEP_AVX2_INLINE void xor_store(uint8_t* dst, const uint8_t* src, size_t offset, __m256i ks) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + offset), xor_(load256(src + offset), ks));
}

// Row i of the state in both 128-bit lanes.
LOCKSTEP_AVX2_INLINE __m256i row2(const State& state, int i) {
  return _mm256_broadcastsi128_si256(load128(state.x + 4 * i));
}

// The counters of two row-layout blocks: `first` in the low lane, first + 1
// in the high one. 32-bit adds wrap each block's counter on its own, as it
// must (no carry into word 13).
LOCKSTEP_AVX2_INLINE __m256i counter_step(int first) {
  return _mm256_setr_epi32(first, 0, 0, 0, first + 1, 0, 0, 0);
}

// store_rows writes the two blocks of a ymm row set: the low lanes of a, b,
// c and d are the first block, the high lanes the second.
LOCKSTEP_AVX2_INLINE void store_rows(uint8_t* dst, const uint8_t* src, __m256i a, __m256i b,
                                     __m256i c, __m256i d) {
  xor_store(dst, src, 0, _mm256_permute2x128_si256(a, b, 0x20));
  xor_store(dst, src, 32, _mm256_permute2x128_si256(c, d, 0x20));
  xor_store(dst, src, 64, _mm256_permute2x128_si256(a, b, 0x31));
  xor_store(dst, src, 96, _mm256_permute2x128_si256(c, d, 0x31));
}

LOCKSTEP_AVX2 void block1(const State& state, uint8_t* dst, const uint8_t* src, int rounds) {
  const __m128i a0 = load128(state.x), b0 = load128(state.x + 4), c0 = load128(state.x + 8),
                d0 = load128(state.x + 12);
  __m128i a = a0, b = b0, c = c0, d = d0;
  for (int i = 0; i < rounds; i += 2) double_round(a, b, c, d);
  xor_store(dst, src, 0, add(a, a0));
  xor_store(dst, src, 16, add(b, b0));
  xor_store(dst, src, 32, add(c, c0));
  xor_store(dst, src, 48, add(d, d0));
}

LOCKSTEP_AVX2 void block2(const State& state, uint8_t* dst, const uint8_t* src, int rounds) {
  const __m256i a0 = row2(state, 0), b0 = row2(state, 1), c0 = row2(state, 2),
                d0 = add(row2(state, 3), counter_step(0));
  __m256i a = a0, b = b0, c = c0, d = d0;
  for (int i = 0; i < rounds; i += 2) double_round(a, b, c, d);
  store_rows(dst, src, add(a, a0), add(b, b0), add(c, c0), add(d, d0));
}

LOCKSTEP_AVX2 void block4(const State& state, uint8_t* dst, const uint8_t* src, int rounds) {
  const __m256i a0 = row2(state, 0), b0 = row2(state, 1), c0 = row2(state, 2),
                d0 = add(row2(state, 3), counter_step(0)),
                d1 = add(row2(state, 3), counter_step(2));
  // Two independent row sets: one alone would leave the core waiting on the
  // latency of its dependency chain.
  __m256i a = a0, b = b0, c = c0, d = d0;
  __m256i e = a0, f = b0, g = c0, h = d1;
  for (int i = 0; i < rounds; i += 2) {
    double_round(a, b, c, d);
    double_round(e, f, g, h);
  }
  store_rows(dst, src, add(a, a0), add(b, b0), add(c, c0), add(d, d0));
  store_rows(dst + 128, src + 128, add(e, a0), add(f, b0), add(g, c0), add(h, d1));
}

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
    xor_store(dst, src, 64 * j, _mm256_permute2x128_si256(x[j], x[4 + j], Sel));
    xor_store(dst, src, 64 * j + 32, _mm256_permute2x128_si256(x[8 + j], x[12 + j], Sel));
  }
}

LOCKSTEP_AVX2 void block8(const State& state, uint8_t* dst, const uint8_t* src, int rounds) {
  // Only the counter differs between lanes; a 32-bit add wraps each lane on
  // its own, as the counter must (no carry into word 13).
  const __m256i counters = add(_mm256_set1_epi32(static_cast<int>(state.x[12])),
                               _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  __m256i x[16];
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i) x[i] = _mm256_set1_epi32(static_cast<int>(state.x[i]));
  x[12] = counters;
  for (int i = 0; i < rounds; i += 2) {
    quarter(x[0], x[4], x[8], x[12]);
    quarter(x[1], x[5], x[9], x[13]);
    quarter(x[2], x[6], x[10], x[14]);
    quarter(x[3], x[7], x[11], x[15]);
    quarter(x[0], x[5], x[10], x[15]);
    quarter(x[1], x[6], x[11], x[12]);
    quarter(x[2], x[7], x[8], x[13]);
    quarter(x[3], x[4], x[9], x[14]);
  }
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i)
    x[i] = add(x[i], i == 12 ? counters : _mm256_set1_epi32(static_cast<int>(state.x[i])));
  transpose(x[0], x[1], x[2], x[3]);
  transpose(x[4], x[5], x[6], x[7]);
  transpose(x[8], x[9], x[10], x[11]);
  transpose(x[12], x[13], x[14], x[15]);
  store_lanes<0x20>(dst, src, x);
  store_lanes<0x31>(dst + 256, src + 256, x);
}

void crypt_avx2(State* state, uint8_t* dst, const uint8_t* src, size_t len, int rounds) {
  // Like the kernel's glue: eight-block groups, a last piece of five to
  // eight blocks through the eight-block code too, and anything shorter
  // through the narrowest code that covers it in one call.
  constexpr size_t kGroup = 8 * kBlockSize;
  const size_t rest = len % kGroup;
  const size_t wide = rest > kGroup / 2 ? len : len - rest;
  crypt_wide<8>(state, dst, src, wide, rounds, block8);
  dst += wide, src += wide, len -= wide;
  if (len > 2 * kBlockSize)
    crypt_wide<4>(state, dst, src, len, rounds, block4);
  else if (len > kBlockSize)
    crypt_wide<2>(state, dst, src, len, rounds, block2);
  else
    crypt_wide<1>(state, dst, src, len, rounds, block1);
}

}  // namespace

const ChachaBackend kChachaX86Avx2 = {
    {"chacha/x86-avx2",
     {cpu::Feature::kAvx2},
     "8 blocks in ymm registers, one state word per register; rows of 4, 2 or 1 blocks for "
     "shorter last pieces"},
    crypt_avx2,
};

}  // namespace lockstep::chacha
