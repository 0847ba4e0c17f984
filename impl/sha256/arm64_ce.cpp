// sha256/arm64-ce: the Armv8 Cryptography Extension (SHA256H, SHA256H2,
// SHA256SU0, SHA256SU1), with a 2-way interleaved finup_2x after the
// kernel's sha256_ce_finup2x.
//
// Only the functions below carry target("+crypto"); the file is compiled
// for baseline Armv8-A, so no SHA-2 instruction runs unless dispatch has seen
// HWCAP_SHA2.
#include <arm_neon.h>

#include <cstring>

#include "sha256/sha256.h"
#include "zeroize.h"

#define LOCKSTEP_CE __attribute__((target("+crypto")))
#define LOCKSTEP_CE_INLINE __attribute__((target("+crypto"), always_inline)) inline

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
    wk[j] = vaddq_u32(m[j][0], vld1q_u32(kK));
  }
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i) {
#pragma GCC unroll 2
    for (int j = 0; j < N; ++j) {
      const uint32x4_t now = wk[j];
      if (i < 15) {
        if (i + 1 >= 4) extend(m[j], i + 1);
        wk[j] = vaddq_u32(m[j][(i + 1) & 3], vld1q_u32(kK + 4 * (i + 1)));
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

LOCKSTEP_CE void blocks_ce(State* state, const uint8_t* data, size_t nblocks) {
  Regs s[1] = {{vld1q_u32(state->h), vld1q_u32(state->h + 4)}};
  for (; nblocks; --nblocks, data += 64) {
    const uint8_t* const blk[1] = {data};
    compress<1>(s, blk);
  }
  vst1q_u32(state->h, s[0].abcd);
  vst1q_u32(state->h + 4, s[0].efgh);
}

void store_be64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (56 - 8 * i));
}

// The kernel's bounds (lib/crypto/arm64/sha256.h as finup_2x arrived; later
// kernels raise the top to INT_MAX on arm64). This code has no trouble outside
// them, but declining where the x86 backend does keeps the front end's
// fallback after a decline under test on arm64 too.
constexpr size_t kFinupMin = 64;
constexpr size_t kFinupMax = 65536;

// finup_2x_ce finishes both messages in one instruction stream: the block
// that completes the context's buffered bytes, the whole blocks of each
// message, then the padded tail, two compressions interleaved throughout.
LOCKSTEP_CE bool finup_2x_ce(const Sha256Ctx* ctx, const uint8_t* data1, const uint8_t* data2,
                             size_t len, uint8_t* out1, uint8_t* out2) {
  if (len < kFinupMin || len > kFinupMax) return false;
  const size_t buffered = ctx->bytecount % 64;
  // Same wrap of the bit count at 2^64 as the front end's final().
  const uint64_t bits = (ctx->bytecount + len) << 3;
  const Regs init = {vld1q_u32(ctx->state.h), vld1q_u32(ctx->state.h + 4)};
  Regs s[2] = {init, init};
  const uint8_t* in[2] = {data1, data2};
  size_t rest = len;

  // Each stream's last one or two blocks are built here, starting from the
  // buffered prefix; the buffer first serves for the block the prefix opens.
  alignas(16) uint8_t tail[2][128];
  size_t have = buffered;  // bytes of tail[j] holding data
  for (int j = 0; j < 2; ++j) std::memcpy(tail[j], ctx->buf, buffered);
  if (buffered != 0 && buffered + rest >= 64) {
    const size_t need = 64 - buffered;
    for (int j = 0; j < 2; ++j) {
      std::memcpy(tail[j] + buffered, in[j], need);
      in[j] += need;
    }
    rest -= need;
    const uint8_t* const blk[2] = {tail[0], tail[1]};
    compress<2>(s, blk);
    have = 0;
  }
  // If the prefix block is still open here, rest < 64 - have: the loop is
  // skipped and everything lands in the tail.
  for (; rest >= 64; rest -= 64, in[0] += 64, in[1] += 64) {
    const uint8_t* const blk[2] = {in[0], in[1]};
    compress<2>(s, blk);
  }
  const size_t used = have + rest;  // < 64
  const size_t tail_len = used + 9 <= 64 ? 64 : 128;
  for (int j = 0; j < 2; ++j) {
    std::memcpy(tail[j] + have, in[j], rest);
    tail[j][used] = 0x80;
    std::memset(tail[j] + used + 1, 0, tail_len - 8 - (used + 1));
    store_be64(tail[j] + tail_len - 8, bits);
  }
  for (size_t off = 0; off < tail_len; off += 64) {
    const uint8_t* const blk[2] = {tail[0] + off, tail[1] + off};
    compress<2>(s, blk);
  }

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
  zeroize(tail, sizeof tail);
  return true;
}

}  // namespace

const Sha256Backend kSha256Arm64Ce = {
    {"sha256/arm64-ce",
     {cpu::Feature::kAsimd, cpu::Feature::kArmSha2},
     "Armv8 Crypto Extension SHA-256; 2-way finup_2x for 64 <= len <= 65536 "
     "(the kernel's bounds), else the front end's sequential path"},
    blocks_ce,
    finup_2x_ce,
};

}  // namespace lockstep
