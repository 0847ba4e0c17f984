// sha512/arm64-ce: the Armv8.2 SHA-512 instructions (SHA512H, SHA512H2,
// SHA512SU0, SHA512SU1), two rounds per SHA512H/SHA512H2 pair.
//
// Only the functions below carry the target attribute; the file is compiled
// for baseline Armv8-A, so no SHA-512 instruction runs unless dispatch has
// seen HWCAP_SHA512. Many cores with the SHA-256 instructions (Cortex-A53,
// A57, A72) lack these, and would take SIGILL.
//
// Why arch=armv8.2-a and not a bare "+sha3" as the SHA-256 file's "+crypto":
// GCC 12's arm_neon.h declares these intrinsics under arch=armv8.2-a+sha3,
// and an always_inline intrinsic only inlines into a caller whose target is
// a superset. The architecture permits FEAT_SHA512 only from Armv8.2, so
// the wider arch asks nothing of a CPU that reports it; and nothing here
// gives the compiler a use for other Armv8.1/8.2 instructions anyway.
#include <arm_neon.h>

#include "sha512/constants.h"
#include "sha512/sha512.h"
#include "zeroize.h"

#define LOCKSTEP_SHA512 __attribute__((target("arch=armv8.2-a+sha3")))
#define LOCKSTEP_SHA512_INLINE \
  __attribute__((target("arch=armv8.2-a+sha3"), always_inline)) inline

namespace lockstep {
namespace {

using State = sha2::BlockState<sha2::Sha512Family>;

// The chaining words as pairs in lane order, which is memory order: the
// state loads and stores without shuffles, and SHA512H2 takes {a b} as is.
struct Regs {
  uint64x2_t ab, cd, ef, gh;
};

// load_be reads two message words; SHA-512 words are big-endian.
LOCKSTEP_SHA512_INLINE uint64x2_t load_be(const uint8_t* p) {
  return vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(p)));
}

// extend makes W[2i], W[2i+1] in m[i % 8] (i >= 8), where m holds the sixteen
// words before them. SU0 adds sigma0 of W[t-15] to W[t-16]; SU1 adds sigma1
// of W[t-2] and W[t-7]. Unlike SHA-256's, neither result needs the other,
// so SU1 takes its inputs straight from m, but W[t-7], W[t-6] straddle two
// pairs.
LOCKSTEP_SHA512_INLINE void extend(uint64x2_t (&m)[8], int i) {
  uint64x2_t& w = m[i & 7];
  const uint64x2_t w7 = vextq_u64(m[(i + 4) & 7], m[(i + 5) & 7], 1);
  w = vsha512su0q_u64(w, m[(i + 1) & 7]);
  w = vsha512su1q_u64(w, m[(i + 7) & 7], w7);
}

// rounds runs rounds t and t+1, given kw = {W[t] + K[t], W[t+1] + K[t+1]}.
// SHA512H wants h + kw[t] in the high lane and g + kw[t+1] in the low one,
// plus {f g} and {d e}, which straddle the pairs. It returns the two rounds'
// T1 (high lane: round t). From those, SHA512H2 makes the new {a b}, and
// {c d} + T1 is the new {e f}; {a b} and {e f} just move down a place.
LOCKSTEP_SHA512_INLINE void rounds(Regs& s, uint64x2_t kw) {
  const uint64x2_t hg = vaddq_u64(s.gh, vextq_u64(kw, kw, 1));
  const uint64x2_t fg = vextq_u64(s.ef, s.gh, 1);
  const uint64x2_t de = vextq_u64(s.cd, s.ef, 1);
  const uint64x2_t t1 = vsha512hq_u64(hg, fg, de);
  const uint64x2_t ab = vsha512h2q_u64(t1, s.cd, s.ab);
  s.gh = s.ef;
  s.ef = vaddq_u64(s.cd, t1);
  s.cd = s.ab;
  s.ab = ab;
}

// compress runs one block. Fully unrolled, so that m is registers, not a
// stack array indexed at run time. Words for pair i + 1 are made before the
// rounds of pair i, keeping the schedule off the rounds' path.
LOCKSTEP_SHA512_INLINE void compress(Regs& s, const uint8_t* blk) {
  const Regs start = s;
  uint64x2_t m[8];
#pragma GCC unroll 8
  for (int i = 0; i < 8; ++i) m[i] = load_be(blk + 16 * i);
  uint64x2_t kw = vaddq_u64(m[0], vld1q_u64(kSha512K));
#pragma GCC unroll 40
  for (int i = 0; i < 40; ++i) {
    const uint64x2_t now = kw;
    if (i < 39) {
      if (i + 1 >= 8) extend(m, i + 1);
      kw = vaddq_u64(m[(i + 1) & 7], vld1q_u64(kSha512K + 2 * (i + 1)));
    }
    rounds(s, now);
  }
  s.ab = vaddq_u64(s.ab, start.ab);
  s.cd = vaddq_u64(s.cd, start.cd);
  s.ef = vaddq_u64(s.ef, start.ef);
  s.gh = vaddq_u64(s.gh, start.gh);
}

[[gnu::noinline]] LOCKSTEP_SHA512 void blocks_ce(State* state, const uint8_t* data, size_t nblocks) {
  Regs s = {vld1q_u64(state->h), vld1q_u64(state->h + 2), vld1q_u64(state->h + 4),
            vld1q_u64(state->h + 6)};
  for (; nblocks; --nblocks, data += 128) compress(s, data);
  vst1q_u64(state->h, s.ab);
  vst1q_u64(state->h + 2, s.cd);
  vst1q_u64(state->h + 4, s.ef);
  vst1q_u64(state->h + 6, s.gh);
}

}  // namespace

// extern: the registry declares it; a header need not.
extern const Sha512Backend kSha512Arm64Ce = {
    {"sha512/arm64-ce",
     {cpu::Feature::kArmSha512},
     "Armv8.2 SHA512H/H2/SU0/SU1; needs HWCAP_SHA512, so cores without it "
     "(Cortex-A53/A57/A72) get sha512/generic instead of SIGILL"},
    Wiping<1024, blocks_ce>::call,  // cleared after each call, as every own backend
};

}  // namespace lockstep
