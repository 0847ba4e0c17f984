// sha256/x86-shani: the SHA-NI instructions (SHA256RNDS2, SHA256MSG1,
// SHA256MSG2), with a 2-way interleaved finup_2x after the kernel's
// sha256_ni_finup2x.
//
// Only the functions below carry target("sha,ssse3,sse4.1"); the file is
// compiled with baseline flags, so nothing here runs unless dispatch has
// checked the features.
#include <immintrin.h>

#include "sha256/constants.h"
#include "zeroize.h"
#include "sha256/finup_2x_walk.h"
#include "sha256/sha256.h"

#define LOCKSTEP_SHANI __attribute__((target("sha,ssse3,sse4.1")))
#define LOCKSTEP_SHANI_INLINE __attribute__((target("sha,ssse3,sse4.1"), always_inline)) inline
#define LOCKSTEP_SHANI_FLATTEN __attribute__((target("sha,ssse3,sse4.1"), flatten))

namespace lockstep {
namespace {

using State = sha2::BlockState<sha2::Sha256Family>;

// SHA256RNDS2 keeps the eight working variables as two vectors, lanes high
// to low: abef = {a, b, e, f} and cdgh = {c, d, g, h}.
struct Lanes {
  __m128i abef, cdgh;
};

LOCKSTEP_SHANI_INLINE __m128i bswap_mask() {
  return _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
}

LOCKSTEP_SHANI_INLINE Lanes to_lanes(const uint32_t h[8]) {
  const __m128i abcd = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h));
  const __m128i efgh = _mm_loadu_si128(reinterpret_cast<const __m128i*>(h + 4));
  const __m128i badc = _mm_shuffle_epi32(abcd, 0xb1);  // lanes low..high: b a d c
  const __m128i hgfe = _mm_shuffle_epi32(efgh, 0x1b);  // h g f e
  // abef takes f e from hgfe's high half and b a from badc's low half.
  return {_mm_alignr_epi8(badc, hgfe, 8), _mm_blend_epi16(hgfe, badc, 0xf0)};
}

// from_lanes returns {a b c d} and {e f g h} in memory order.
LOCKSTEP_SHANI_INLINE void from_lanes(const Lanes& s, __m128i* abcd, __m128i* efgh) {
  const __m128i t0 = _mm_shuffle_epi32(s.abef, 0x1b);  // lanes low..high: a b e f
  const __m128i t1 = _mm_shuffle_epi32(s.cdgh, 0xb1);  // g h c d
  *abcd = _mm_blend_epi16(t0, t1, 0xf0);
  *efgh = _mm_alignr_epi8(t1, t0, 8);
}

// next_words makes W[4i..4i+3] in m[i % 4] from the four vectors before it
// (i >= 4): MSG1 adds sigma0 of W[t-15..t-12] to W[t-16..t-13], we add
// W[t-7..t-4], and MSG2 adds sigma1 of W[t-2], W[t-1] and of the two words
// it has just made.
LOCKSTEP_SHANI_INLINE void next_words(__m128i (&m)[4], int i) {
  __m128i& w = m[i & 3];
  const __m128i w7 = _mm_alignr_epi8(m[(i + 3) & 3], m[(i + 2) & 3], 4);
  w = _mm_add_epi32(_mm_sha256msg1_epu32(w, m[(i + 1) & 3]), w7);
  w = _mm_sha256msg2_epu32(w, m[(i + 3) & 3]);
}

// compress runs one block for each of N independent streams, with the steps
// of the streams alternating so that one stream's SHA256RNDS2 latency is
// hidden behind the other's: that is the whole point of the 2-way finup.
// The words of group i + 1 are made before the rounds of group i, so that
// the rounds, the critical path, never wait for them.
template <int N>
LOCKSTEP_SHANI_INLINE void compress(Lanes (&s)[N], const uint8_t* const (&blk)[N]) {
  const __m128i bswap = bswap_mask();
  const __m128i* k = reinterpret_cast<const __m128i*>(kSha256K);
  Lanes saved[N];
  __m128i m[N][4];
  __m128i wk[N][2];  // W + K of the current and the next group
#pragma GCC unroll 2
  for (int j = 0; j < N; ++j) {
    saved[j] = s[j];
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
      const __m128i in = _mm_loadu_si128(reinterpret_cast<const __m128i*>(blk[j] + 16 * i));
      m[j][i] = _mm_shuffle_epi8(in, bswap);
    }
    wk[j][0] = _mm_add_epi32(m[j][0], _mm_load_si128(k));
  }
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i) {
    if (i < 15) {
#pragma GCC unroll 2
      for (int j = 0; j < N; ++j) {
        if (i + 1 >= 4) next_words(m[j], i + 1);
        wk[j][(i + 1) & 1] = _mm_add_epi32(m[j][(i + 1) & 3], _mm_load_si128(k + i + 1));
      }
    }
#pragma GCC unroll 2
    for (int j = 0; j < N; ++j) {
      // Each SHA256RNDS2 does two rounds with the two low words of its
      // third operand; the second call gets the two high words.
      const __m128i w = wk[j][i & 1];
      s[j].cdgh = _mm_sha256rnds2_epu32(s[j].cdgh, s[j].abef, w);
      s[j].abef = _mm_sha256rnds2_epu32(s[j].abef, s[j].cdgh, _mm_shuffle_epi32(w, 0x0e));
    }
  }
#pragma GCC unroll 2
  for (int j = 0; j < N; ++j) {
    s[j].abef = _mm_add_epi32(s[j].abef, saved[j].abef);
    s[j].cdgh = _mm_add_epi32(s[j].cdgh, saved[j].cdgh);
  }
}

[[gnu::noinline]] LOCKSTEP_SHANI void blocks_shani(State* state, const uint8_t* data, size_t nblocks) {
  Lanes s[1] = {to_lanes(state->h)};
  for (; nblocks; --nblocks, data += 64) {
    const uint8_t* const blk[1] = {data};
    compress<1>(s, blk);
  }
  __m128i abcd, efgh;
  from_lanes(s[0], &abcd, &efgh);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state->h), abcd);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(state->h + 4), efgh);
}

// finup_2x_shani finishes both messages in one instruction stream, the two
// compressions interleaved; the walk supplies the blocks. flatten, so that
// compress2 is inlined (finup_2x_walk.h says why it must be asked for).
[[gnu::noinline]] LOCKSTEP_SHANI_FLATTEN bool finup_2x_shani(const lockstep_sha256_ctx* ctx, const uint8_t* data1,
                                           const uint8_t* data2, size_t len, uint8_t* out1,
                                           uint8_t* out2) {
  const Lanes start = to_lanes(ctx->state.h);
  Lanes s[2] = {start, start};
  // The lambda needs the target too: it is where compress<2> is inlined.
  auto compress2 = [&s](const uint8_t* blk0, const uint8_t* blk1) LOCKSTEP_SHANI {
    const uint8_t* const blk[2] = {blk0, blk1};
    compress<2>(s, blk);
  };
  if (!sha256::finup_2x_walk(ctx, data1, data2, len, compress2)) return false;

  // Both digests are complete before either is stored, since the outputs
  // may overlap each other or the inputs.
  const __m128i bswap = bswap_mask();
  __m128i d[2][2];
  for (int j = 0; j < 2; ++j) {
    from_lanes(s[j], &d[j][0], &d[j][1]);
    d[j][0] = _mm_shuffle_epi8(d[j][0], bswap);
    d[j][1] = _mm_shuffle_epi8(d[j][1], bswap);
  }
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out1), d[0][0]);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out1 + 16), d[0][1]);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out2), d[1][0]);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out2 + 16), d[1][1]);
  return true;
}

}  // namespace

// extern: the registry declares it; a header need not.
extern const Sha256Backend kSha256X86Shani = {
    {"sha256/x86-shani",
     {cpu::Feature::kShaNi, cpu::Feature::kSse41},
     "SHA-NI; 2-way finup_2x for 64 <= len <= 65536 (the kernel's bounds), "
     "else the front end's sequential path"},
    Wiping<64, blocks_shani>::call,
    Wiping<832, finup_2x_shani>::call,
};

}  // namespace lockstep
