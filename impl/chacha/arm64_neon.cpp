// chacha/arm64-neon: Advanced SIMD, four blocks at a time after the kernel's
// chacha_4block_xor_neon (one state word per q register, the four blocks in
// its lanes, transposed back on output), and one block at a time, rows of
// the state in four q registers, for tails of at most 64 bytes.
//
// ASIMD is part of baseline Armv8-A, so nothing here needs a target
// attribute; the descriptor still names kAsimd so that masking it off with
// LOCKSTEP_CPU falls back to chacha/generic.
#include <arm_neon.h>

#include "chacha/chacha.h"
#include "chacha/walk.h"

#define LOCKSTEP_NEON_INLINE __attribute__((always_inline)) inline
#define LOCKSTEP_CHACHA_INLINE LOCKSTEP_NEON_INLINE
#define LOCKSTEP_CHACHA_KERNEL
#include "chacha/rows.h"

namespace lockstep::chacha {
namespace {

// The instructions for rounds.h and rows.h.
struct Ops {
#define LOCKSTEP_OP static LOCKSTEP_NEON_INLINE
  LOCKSTEP_OP uint32x4_t add(uint32x4_t a, uint32x4_t b) { return vaddq_u32(a, b); }
  LOCKSTEP_OP uint32x4_t eor(uint32x4_t a, uint32x4_t b) { return veorq_u32(a, b); }
  // By 16 a rotate is a halfword swap, one instruction; otherwise USHR
  // supplies the low bits and SLI shifts the word in above them, two
  // instructions where SHL, USHR and ORR would be three.
  LOCKSTEP_OP uint32x4_t rot16(uint32x4_t v) {
    return vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(v)));
  }
  LOCKSTEP_OP uint32x4_t rot12(uint32x4_t v) { return sli<12>(v); }
  LOCKSTEP_OP uint32x4_t rot8(uint32x4_t v) { return sli<8>(v); }
  LOCKSTEP_OP uint32x4_t rot7(uint32x4_t v) { return sli<7>(v); }
  template <int N>
  LOCKSTEP_OP uint32x4_t sli(uint32x4_t v) {
    return vsliq_n_u32(vshrq_n_u32(v, 32 - N), v, N);
  }
  LOCKSTEP_OP uint32x4_t words1(uint32x4_t v) { return vextq_u32(v, v, 1); }
  LOCKSTEP_OP uint32x4_t words2(uint32x4_t v) { return vextq_u32(v, v, 2); }
  LOCKSTEP_OP uint32x4_t words3(uint32x4_t v) { return vextq_u32(v, v, 3); }
#undef LOCKSTEP_OP
};

// transpose turns four word vectors (lane j = block j) into four rows
// (row j = those four words of block j): TRN1/TRN2 on words, then on
// doublewords.
LOCKSTEP_NEON_INLINE void transpose(uint32x4_t& r0, uint32x4_t& r1, uint32x4_t& r2,
                                    uint32x4_t& r3) {
  const uint32x4_t t0 = vtrn1q_u32(r0, r1), t1 = vtrn2q_u32(r0, r1);
  const uint32x4_t t2 = vtrn1q_u32(r2, r3), t3 = vtrn2q_u32(r2, r3);
  const uint64x2_t u0 = vreinterpretq_u64_u32(t0), u1 = vreinterpretq_u64_u32(t1);
  const uint64x2_t u2 = vreinterpretq_u64_u32(t2), u3 = vreinterpretq_u64_u32(t3);
  r0 = vreinterpretq_u32_u64(vtrn1q_u64(u0, u2));
  r1 = vreinterpretq_u32_u64(vtrn1q_u64(u1, u3));
  r2 = vreinterpretq_u32_u64(vtrn2q_u64(u0, u2));
  r3 = vreinterpretq_u32_u64(vtrn2q_u64(u1, u3));
}

// kLaneCounter offsets word 12 per lane. The vector add wraps each lane mod
// 2^32 on its own, which is the counter semantics chacha.h asks for: no
// carry into word 13, unlike a 64-bit counter.
alignas(16) constexpr uint32_t kLaneCounter[4] = {0, 1, 2, 3};

// block4 is four blocks, counters x[12] + 0..3, word i of all four in x[i].
void block4(const State& state, uint8_t* dst, const uint8_t* src, int rounds) {
  const uint32x4_t ctr = vaddq_u32(vdupq_n_u32(state.x[12]), vld1q_u32(kLaneCounter));
  // The fixed-count loops are unrolled so that x[] lives in registers, not
  // in a stack array that GCC would otherwise index.
  uint32x4_t x[16];
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i) x[i] = vdupq_n_u32(state.x[i]);
  x[12] = ctr;
  word_rounds<Ops, 4>(x, rounds);
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i)
    x[i] = vaddq_u32(x[i], i == 12 ? ctr : vdupq_n_u32(state.x[i]));
#pragma GCC unroll 4
  for (int g = 0; g < 16; g += 4) transpose(x[g], x[g + 1], x[g + 2], x[g + 3]);
  // Block j is rows x[j], x[4 + j], x[8 + j], x[12 + j]. The blocks go in
  // address order, each loaded before it is stored; for dst <= src that is
  // enough, since a store can only clobber src bytes at offsets no higher
  // than its own, and those have been read already.
#pragma GCC unroll 4
  for (int j = 0; j < 4; ++j) {
    const uint8_t* s = src + 64 * j;
    uint8_t* d = dst + 64 * j;
    const uint8x16_t in0 = vld1q_u8(s), in1 = vld1q_u8(s + 16);
    const uint8x16_t in2 = vld1q_u8(s + 32), in3 = vld1q_u8(s + 48);
    vst1q_u8(d, veorq_u8(in0, vreinterpretq_u8_u32(x[j])));
    vst1q_u8(d + 16, veorq_u8(in1, vreinterpretq_u8_u32(x[4 + j])));
    vst1q_u8(d + 32, veorq_u8(in2, vreinterpretq_u8_u32(x[8 + j])));
    vst1q_u8(d + 48, veorq_u8(in3, vreinterpretq_u8_u32(x[12 + j])));
  }
}

[[gnu::noinline]] void crypt_neon(State* state, uint8_t* dst, const uint8_t* src, size_t len, int rounds) {
  // Up to one block, four lanes would waste three quarters of the work; past
  // that, as the kernel's chacha_doneon does, one 4-block pass through the
  // bounce buffer stands in for two to four dependent single blocks.
  crypt_tiers(state, dst, src, len, rounds, tier<4>(block4),
              tier<1>(row_blocks<Ops, uint32x4_t, 1>));
}

}  // namespace

// extern: the registry declares it; a header need not.
extern const ChachaBackend kChachaArm64Neon = {
    {"chacha/arm64-neon",
     {cpu::Feature::kAsimd},
     "Advanced SIMD, 4 blocks in parallel (the kernel's chacha_4block_xor_neon shape); "
     "1 block for tails of at most 64 bytes"},
    // Cleared after each call: the residue column found keystream words
    // left on the stack (656 bytes of frames at -O1) without it.
    Wiping<1024, crypt_neon>::call,
};

}  // namespace lockstep::chacha
