// sha256/x86-shani: the SHA-NI instructions (SHA256RNDS2, SHA256MSG1,
// SHA256MSG2), with a 2-way interleaved finup_2x after the kernel's
// sha256_ni_finup2x.
//
// Only the functions below carry target("sha,ssse3,sse4.1"); the file is
// compiled with baseline flags, so nothing here runs unless dispatch has
// checked the features.
#include <immintrin.h>

#include <cstring>

#include "sha256/sha256.h"
#include "zeroize.h"

#define LOCKSTEP_SHANI __attribute__((target("sha,ssse3,sse4.1")))
#define LOCKSTEP_SHANI_INLINE __attribute__((target("sha,ssse3,sse4.1"), always_inline)) inline

namespace lockstep {
namespace {

alignas(16) constexpr uint32_t kK[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

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
  const __m128i* k = reinterpret_cast<const __m128i*>(kK);
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

LOCKSTEP_SHANI void blocks_shani(State* state, const uint8_t* data, size_t nblocks) {
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

void store_be64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (56 - 8 * i));
}

// The kernel's bounds (lib/crypto/x86/sha256.h): below one block its assembly
// cannot form the first block from the context's buffer, and above 64 KiB it
// keeps preemption off too long. The code below has neither limit; keeping the
// kernel's bounds makes this backend decline where the kernel's does, so the
// front end's fallback after a decline is exercised too.
constexpr size_t kFinupMin = 64;
constexpr size_t kFinupMax = 65536;

// finup_2x_shani finishes both messages in one instruction stream: the
// context's buffered bytes and then each message's own data, block by block,
// and then the padded tail, with the two compressions interleaved.
LOCKSTEP_SHANI bool finup_2x_shani(const Sha256Ctx* ctx, const uint8_t* data1, const uint8_t* data2,
                                   size_t len, uint8_t* out1, uint8_t* out2) {
  if (len < kFinupMin || len > kFinupMax) return false;
  const size_t partial = ctx->bytecount % 64;
  // The length field wraps at 2^64 bits exactly as the front end's does.
  const uint64_t bits = (ctx->bytecount + len) << 3;
  const Lanes start = to_lanes(ctx->state.h);
  Lanes s[2] = {start, start};
  const uint8_t* p[2] = {data1, data2};
  size_t left = len;

  // tail holds the last, padded block or two of each stream. It starts with
  // the buffered prefix, and first serves for the block that completes it.
  alignas(16) uint8_t tail[2][128];
  size_t fill = partial;  // bytes of tail[j] in use
  for (int j = 0; j < 2; ++j) std::memcpy(tail[j], ctx->buf, partial);
  if (partial && partial + left >= 64) {
    const size_t take = 64 - partial;
    for (int j = 0; j < 2; ++j) {
      std::memcpy(tail[j] + partial, p[j], take);
      p[j] += take;
    }
    left -= take;
    const uint8_t* const blk[2] = {tail[0], tail[1]};
    compress<2>(s, blk);
    fill = 0;
  }
  // With the prefix still open (fill > 0), left < 64 - fill: no whole block.
  for (; left >= 64; left -= 64) {
    const uint8_t* const blk[2] = {p[0], p[1]};
    compress<2>(s, blk);
    p[0] += 64;
    p[1] += 64;
  }
  // Now fill + left < 64: the rest goes into the tail with its padding.
  const size_t used = fill + left;
  const size_t tail_len = used < 56 ? 64 : 128;
  for (int j = 0; j < 2; ++j) {
    std::memcpy(tail[j] + fill, p[j], left);
    tail[j][used] = 0x80;
    std::memset(tail[j] + used + 1, 0, tail_len - 8 - used - 1);
    store_be64(tail[j] + tail_len - 8, bits);
  }
  for (size_t off = 0; off < tail_len; off += 64) {
    const uint8_t* const blk[2] = {tail[0] + off, tail[1] + off};
    compress<2>(s, blk);
  }

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
  zeroize(tail, sizeof tail);
  return true;
}

}  // namespace

const Sha256Backend kSha256X86Shani = {
    {"sha256/x86-shani",
     {cpu::Feature::kShaNi, cpu::Feature::kSsse3, cpu::Feature::kSse41},
     "SHA-NI; 2-way finup_2x for 64 <= len <= 65536 (the kernel's bounds), "
     "else the front end's sequential path"},
    blocks_shani,
    finup_2x_shani,
};

}  // namespace lockstep
