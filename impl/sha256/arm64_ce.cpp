// sha256/arm64-ce: the Armv8 Cryptography Extension (SHA256H, SHA256H2,
// SHA256SU0, SHA256SU1), with a 2-way interleaved finup_2x after the
// kernel's sha256_ce_finup2x.
//
// Only the functions below carry target("+crypto"); the file is compiled
// for baseline Armv8-A, so no SHA-2 instruction runs unless dispatch has seen
// HWCAP_SHA2.
#include <arm_neon.h>

#include "sha256/constants.h"
#include "sha256/finup_2x_walk.h"
#include "sha256/sha256.h"
#include "zeroize.h"

#define LOCKSTEP_CE __attribute__((target("+crypto")))
#define LOCKSTEP_CE_INLINE __attribute__((target("+crypto"), always_inline)) inline
#define LOCKSTEP_CE_FLATTEN __attribute__((target("+crypto"), flatten))

namespace lockstep {
namespace {

using State = sha2::BlockState<sha2::Sha256Family>;

// The instructions take the working variables in lane order, {a b c d} and
// {e f g h}, which is how the chaining words lie in memory: no shuffles.
struct Regs {
  uint32x4_t abcd, efgh;
};

// load_be reads four message words; SHA-256 words are big-endian.
LOCKSTEP_CE_INLINE uint32x4_t load_be(const uint8_t* p) {
  return vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p)));
}

// extend makes W[4i..4i+3] in m[i % 4] (i >= 4), where m holds the sixteen
// words before them: SU0 adds sigma0 of W[t-15] to W[t-16], SU1 adds W[t-7]
// and sigma1 of W[t-2], feeding its own first two results into its last two.
LOCKSTEP_CE_INLINE void extend(uint32x4_t (&m)[4], int i) {
  uint32x4_t& w = m[i & 3];
  w = vsha256su0q_u32(w, m[(i + 1) & 3]);
  w = vsha256su1q_u32(w, m[(i + 2) & 3], m[(i + 3) & 3]);
}

// compress runs one block for each of N independent streams. The streams'
// steps alternate, so one stream's SHA256H/H2 latency is covered by the
// other's: that is what the 2-way finup is for. Words for group i + 1 are
// made before the rounds of group i, keeping them off the rounds' path.
template <int N>
LOCKSTEP_CE_INLINE void compress(Regs (&s)[N], const uint8_t* const (&blk)[N]) {
  Regs start[N];
  uint32x4_t m[N][4];
  uint32x4_t wk[N];  // W + K of the group about to run
#pragma GCC unroll 2
  for (int j = 0; j < N; ++j) {
    start[j] = s[j];
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) m[j][i] = load_be(blk[j] + 16 * i);
    wk[j] = vaddq_u32(m[j][0], vld1q_u32(kSha256K));
  }
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i) {
#pragma GCC unroll 2
    for (int j = 0; j < N; ++j) {
      const uint32x4_t now = wk[j];
      if (i < 15) {
        if (i + 1 >= 4) extend(m[j], i + 1);
        wk[j] = vaddq_u32(m[j][(i + 1) & 3], vld1q_u32(kSha256K + 4 * (i + 1)));
      }
      // SHA256H2 wants {a b c d} from before SHA256H replaced it.
      const uint32x4_t abcd = s[j].abcd;
      s[j].abcd = vsha256hq_u32(abcd, s[j].efgh, now);
      s[j].efgh = vsha256h2q_u32(s[j].efgh, abcd, now);
    }
  }
#pragma GCC unroll 2
  for (int j = 0; j < N; ++j) {
    s[j].abcd = vaddq_u32(s[j].abcd, start[j].abcd);
    s[j].efgh = vaddq_u32(s[j].efgh, start[j].efgh);
  }
}

[[gnu::noinline]] LOCKSTEP_CE void blocks_ce(State* state, const uint8_t* data, size_t nblocks) {
  Regs s[1] = {{vld1q_u32(state->h), vld1q_u32(state->h + 4)}};
  for (; nblocks; --nblocks, data += 64) {
    const uint8_t* const blk[1] = {data};
    compress<1>(s, blk);
  }
  vst1q_u32(state->h, s[0].abcd);
  vst1q_u32(state->h + 4, s[0].efgh);
}

// finup_2x_ce finishes both messages in one instruction stream, the two
// compressions interleaved; the walk supplies the blocks. flatten, so that
// compress2 is inlined (finup_2x_walk.h says why it must be asked for).
[[gnu::noinline]] LOCKSTEP_CE_FLATTEN bool finup_2x_ce(const lockstep_sha256_ctx* ctx, const uint8_t* data1,
                                     const uint8_t* data2, size_t len, uint8_t* out1,
                                     uint8_t* out2) {
  const Regs init = {vld1q_u32(ctx->state.h), vld1q_u32(ctx->state.h + 4)};
  Regs s[2] = {init, init};
  // The lambda needs the target too: it is where compress<2> is inlined.
  auto compress2 = [&s](const uint8_t* blk0, const uint8_t* blk1) LOCKSTEP_CE {
    const uint8_t* const blk[2] = {blk0, blk1};
    compress<2>(s, blk);
  };
  if (!sha256::finup_2x_walk(ctx, data1, data2, len, compress2)) return false;

  // Read everything before writing anything: the outputs may overlap each
  // other, the inputs or the context.
  uint8x16_t d[2][2];
  for (int j = 0; j < 2; ++j) {
    d[j][0] = vrev32q_u8(vreinterpretq_u8_u32(s[j].abcd));
    d[j][1] = vrev32q_u8(vreinterpretq_u8_u32(s[j].efgh));
  }
  vst1q_u8(out1, d[0][0]);
  vst1q_u8(out1 + 16, d[0][1]);
  vst1q_u8(out2, d[1][0]);
  vst1q_u8(out2 + 16, d[1][1]);
  return true;
}

}  // namespace

// extern: the registry declares it; a header need not.
extern const Sha256Backend kSha256Arm64Ce = {
    {"sha256/arm64-ce",
     {cpu::Feature::kArmSha2},
     "Armv8 Crypto Extension SHA-256; 2-way finup_2x for 64 <= len <= 65536 "
     "(the kernel's bounds), else the front end's sequential path"},
    // Cleared after each call: the schedule words the compiler spills
    // (the residue column found finup_2x's on the stack without it).
    Wiping<1024, blocks_ce>::call,
    Wiping<1024, finup_2x_ce>::call,
};

}  // namespace lockstep
