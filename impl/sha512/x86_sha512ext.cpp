// sha512/x86-sha512ext: Intel's SHA512 extension (VSHA512RNDS2, VSHA512MSG1,
// VSHA512MSG2; CPUID.(7,1):EAX[0], Arrow Lake and Lunar Lake onwards), with
// AVX2 for the byte swap, the schedule's W[t-7] term and the state layout.
//
// GCC 12 and binutils 2.40 know neither target("sha512") nor the mnemonics,
// so the three instructions are bytes, one fixed encoding each, and their
// operands are pinned to the registers those bytes name. That one form builds
// under GCC and clang alike (clang-19 would also take the intrinsics).
//
// Only the functions below carry target("avx2"); the file is compiled with
// baseline flags, so nothing here runs unless dispatch has checked avx2 and
// sha512. On a CPU without SHA512 the instructions raise #UD; the trap
// emulator in emulation/sha512ext runs them then (LOCKSTEP_EMULATE=sha512ext).
#include <immintrin.h>

#include "sha512/constants.h"
#include "zeroize.h"
#include "sha512/sha512.h"

#define LOCKSTEP_SHA512EXT __attribute__((target("avx2")))
#define LOCKSTEP_SHA512EXT_INLINE __attribute__((target("avx2"), always_inline)) inline

namespace lockstep {
namespace {

using State = sha2::BlockState<sha2::Sha512Family>;

// The instructions, with the signatures of clang's intrinsics. The encodings
// (Intel SDM vol. 2, VEX.256.F2.0F38.W0 CB/CC/CD /r, register forms only):
//
//   c4 e2 77 cb c2   vsha512rnds2 ymm0, ymm1, xmm2
//   c4 e2 7f cc c1   vsha512msg1  ymm0, xmm1
//   c4 e2 7f cd c1   vsha512msg2  ymm0, ymm1
//
// c4: three-byte VEX. e2: R, X and B (stored inverted) clear, map 0F38. 77 or
// 7f: W0, vvvv (inverted) = ymm1 for VSHA512RNDS2's second source and 1111,
// no register, for the other two; L1 (256 bits); pp = F2. ModRM 11 000 rrr:
// ymm0 is the destination (and first source), r/m the last source.
//
// The register variables are the only way to give an asm operand a fixed
// register that both compilers support; they are set from parameters only,
// so no code between setting them and the asm can reuse the registers.
LOCKSTEP_SHA512EXT_INLINE __m256i sha512rnds2(__m256i cdgh, __m256i abef, __m128i wk) {
  register __m256i dst asm("ymm0") = cdgh;
  register __m256i src1 asm("ymm1") = abef;
  register __m128i src2 asm("xmm2") = wk;
  __asm__(".byte 0xc4, 0xe2, 0x77, 0xcb, 0xc2  # vsha512rnds2 %%ymm0, %%ymm1, %%xmm2"
          : "+x"(dst)
          : "x"(src1), "x"(src2));
  return dst;
}

LOCKSTEP_SHA512EXT_INLINE __m256i sha512msg1(__m256i w, __m128i next) {
  register __m256i dst asm("ymm0") = w;
  register __m128i src asm("xmm1") = next;
  __asm__(".byte 0xc4, 0xe2, 0x7f, 0xcc, 0xc1  # vsha512msg1 %%ymm0, %%xmm1"
          : "+x"(dst)
          : "x"(src));
  return dst;
}

LOCKSTEP_SHA512EXT_INLINE __m256i sha512msg2(__m256i w, __m256i prev) {
  register __m256i dst asm("ymm0") = w;
  register __m256i src asm("ymm1") = prev;
  __asm__(".byte 0xc4, 0xe2, 0x7f, 0xcd, 0xc1  # vsha512msg2 %%ymm0, %%ymm1"
          : "+x"(dst)
          : "x"(src));
  return dst;
}

// VSHA512RNDS2 keeps the eight working variables as two vectors, qwords high
// to low: abef = {a, b, e, f} and cdgh = {c, d, g, h}, as SHA256RNDS2 does
// with dwords.
struct Lanes {
  __m256i abef, cdgh;
};

// Reverses the bytes of each qword: the message words are big-endian.
LOCKSTEP_SHA512EXT_INLINE __m256i bswap64_mask() {
  return _mm256_set_epi64x(0x08090a0b0c0d0e0fLL, 0x0001020304050607LL, 0x08090a0b0c0d0e0fLL,
                           0x0001020304050607LL);
}

LOCKSTEP_SHA512EXT_INLINE Lanes to_lanes(const uint64_t h[8]) {
  const __m256i abcd = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(h));
  const __m256i efgh = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(h + 4));
  const __m256i dcba = _mm256_permute4x64_epi64(abcd, 0x1b);  // qwords low..high: d c b a
  const __m256i hgfe = _mm256_permute4x64_epi64(efgh, 0x1b);  // h g f e
  // Low..high, abef is f e b a: the high halves of hgfe and dcba; cdgh is
  // h g d c: their low halves.
  return {_mm256_permute2x128_si256(hgfe, dcba, 0x31), _mm256_permute2x128_si256(hgfe, dcba, 0x20)};
}

LOCKSTEP_SHA512EXT_INLINE void from_lanes(const Lanes& s, uint64_t h[8]) {
  const __m256i dcba = _mm256_permute2x128_si256(s.cdgh, s.abef, 0x31);  // d c | b a
  const __m256i hgfe = _mm256_permute2x128_si256(s.cdgh, s.abef, 0x20);  // h g | f e
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(h), _mm256_permute4x64_epi64(dcba, 0x1b));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(h + 4), _mm256_permute4x64_epi64(hgfe, 0x1b));
}

// next_words makes W[t..t+3], t = 4i (i >= 4), in m[i % 4] from the four
// vectors before it: VSHA512MSG1 adds sigma0 of W[t-15..t-12] to
// W[t-16..t-13], we add W[t-7..t-4], and VSHA512MSG2 adds sigma1 of W[t-2],
// W[t-1] and of the two words it has just made.
LOCKSTEP_SHA512EXT_INLINE void next_words(__m256i (&m)[4], int i) {
  __m256i& w = m[i & 3];                 // W[t-16..t-13]
  const __m256i w12 = m[(i + 1) & 3];    // W[t-12..t-9]; MSG1 reads W[t-12]
  const __m256i w8 = m[(i + 2) & 3];     // W[t-8..t-5]
  const __m256i w4 = m[(i + 3) & 3];     // W[t-4..t-1]
  // W[t-7..t-4]: the top three qwords of w8, then the bottom one of w4.
  const __m256i w7 = _mm256_permute4x64_epi64(_mm256_blend_epi32(w8, w4, 0x03), 0x39);
  w = sha512msg1(w, _mm256_castsi256_si128(w12));
  w = sha512msg2(_mm256_add_epi64(w, w7), w4);
}

LOCKSTEP_SHA512EXT_INLINE void compress(Lanes& s, const uint8_t* blk) {
  const __m256i bswap = bswap64_mask();
  const __m256i* k = reinterpret_cast<const __m256i*>(kSha512K);
  const Lanes saved = s;
  __m256i m[4];
#pragma GCC unroll 4
  for (int i = 0; i < 4; ++i) {
    const __m256i in = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(blk + 32 * i));
    m[i] = _mm256_shuffle_epi8(in, bswap);
  }
#pragma GCC unroll 20
  for (int i = 0; i < 20; ++i) {
    if (i >= 4) next_words(m, i);
    const __m256i wk = _mm256_add_epi64(m[i & 3], _mm256_load_si256(k + i));
    // Each VSHA512RNDS2 does two rounds with the two low qwords of its third
    // operand, and its result is the next call's (a, b, e, f); the (a, b, e,
    // f) it was given are the next call's (c, d, g, h).
    s.cdgh = sha512rnds2(s.cdgh, s.abef, _mm256_castsi256_si128(wk));
    s.abef = sha512rnds2(s.abef, s.cdgh, _mm256_extracti128_si256(wk, 1));
  }
  s.abef = _mm256_add_epi64(s.abef, saved.abef);
  s.cdgh = _mm256_add_epi64(s.cdgh, saved.cdgh);
}

[[gnu::noinline]] LOCKSTEP_SHA512EXT void blocks_sha512ext(State* state, const uint8_t* data, size_t nblocks) {
  Lanes s = to_lanes(state->h);
  for (; nblocks; --nblocks, data += 128) compress(s, data);
  from_lanes(s, state->h);
}

}  // namespace

// extern: the registry declares it; a header need not.
extern const Sha512Backend kSha512X86Sha512Ext = {
    {"sha512/x86-sha512ext",
     {cpu::Feature::kAvx2, cpu::Feature::kSha512},
     "SHA512 extension (VSHA512RNDS2/MSG1/MSG2, as bytes: GCC 12 lacks them) with AVX2; "
     "runs elsewhere under LOCKSTEP_EMULATE=sha512ext"},
    Wiping<2048, blocks_sha512ext>::call,
};

}  // namespace lockstep
