// The block walk of a 2-way SHA-256 finup_2x, after the kernel's
// sha256_ni_finup2x and sha256_ce_finup2x: which blocks, in which order, and
// the padding. The backends bring only the interleaved compression.
//
// Nothing here may use ISA code: it is inlined into callers compiled with
// different target attributes (x86 SHA-NI, arm64 +crypto).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "sha256/sha256.h"
#include "zeroize.h"

namespace lockstep::sha256 {

// The kernel's bounds (lib/crypto/x86/sha256.h; lib/crypto/arm64/sha256.h as
// finup_2x arrived, later arm64 kernels raise the top to INT_MAX). Below one
// block the x86 assembly cannot form the first block from the context's
// buffer; above 64 KiB it keeps preemption off too long. The walk has neither
// limit, but declining where the kernel does keeps the front end's fallback
// after a decline under test.
inline constexpr size_t kFinupMin = 64;
inline constexpr size_t kFinupMax = 65536;

inline void store_be64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (56 - 8 * i));
}

// finup_2x_walk calls compress2(blk0, blk1) on each pair of 64-byte blocks
// that finish `ctx` with data1 and with data2: the block completing the
// buffered prefix, the whole blocks, then the padded tail. It returns false,
// having called nothing, when `len` is outside the bounds. It has read all of
// ctx, data1 and data2 when it returns, so the caller stores the digests after
// it, whatever they overlap.
//
// compress2 must carry the caller's target attribute, since the ISA's
// compression is inlined into it. GCC will not inline compress2 here (this
// has no target), only into the caller once this is inlined there, and then
// only if asked: callers are flatten, or each block pair pays a call and a
// round trip of the state through memory (2% at 4 KiB on SHA-NI).
template <class Compress2>
__attribute__((always_inline)) inline bool finup_2x_walk(const lockstep_sha256_ctx* ctx, const uint8_t* data1,
                                                         const uint8_t* data2, size_t len,
                                                         Compress2&& compress2) {
  if (len < kFinupMin || len > kFinupMax) return false;
  const size_t partial = ctx->bytecount % 64;
  // The length field wraps at 2^64 bits exactly as the front end's does.
  const uint64_t bits = (ctx->bytecount + len) << 3;
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
    compress2(tail[0], tail[1]);
    fill = 0;
  }
  // With the prefix still open (fill > 0), left < 64 - fill: no whole block.
  for (; left >= 64; left -= 64, p[0] += 64, p[1] += 64) compress2(p[0], p[1]);

  // Now fill + left < 64: the rest goes into the tail with its padding, the
  // length field in a second block when 0x80 and it do not fit in this one.
  const size_t used = fill + left;
  const size_t tail_len = used + 9 <= 64 ? 64 : 128;
  for (int j = 0; j < 2; ++j) {
    std::memcpy(tail[j] + fill, p[j], left);
    tail[j][used] = 0x80;
    std::memset(tail[j] + used + 1, 0, tail_len - 8 - (used + 1));
    store_be64(tail[j] + tail_len - 8, bits);
  }
  for (size_t off = 0; off < tail_len; off += 64) compress2(tail[0] + off, tail[1] + off);
  zeroize(tail, sizeof tail);
  return true;
}

}  // namespace lockstep::sha256
