// Template definitions of the SHA-2 front end. Included only by the family
// source files that instantiate it (sha256.cpp, sha512.cpp), so that the front end is
// compiled once, with baseline flags.
#pragma once

#include <bit>
#include <cstring>

#include "sha2/sha2.h"
#include "zeroize.h"

namespace lockstep::sha2 {
namespace detail {

template <class W>
W big_endian(W v) {
  if constexpr (std::endian::native == std::endian::little) {
    if constexpr (sizeof(W) == 8) return __builtin_bswap64(v);
    else return __builtin_bswap32(v);
  }
  return v;
}

// One store of a byte-swapped word: a byte loop here cost final() a stall
// where the 16-byte reads of the bytes it had just written waited for them.
template <class W>
void store_be(uint8_t* p, W v) {
  static_assert(sizeof(W) == 4 || sizeof(W) == 8);
  v = big_endian(v);
  std::memcpy(p, &v, sizeof v);
}

template <class F>
void run_blocks(Ctx<F>& ctx, const uint8_t* data, size_t nblocks) {
  ctx.backend->count_call();
  invoke(*ctx.backend, "blocks", ctx.backend->blocks, &ctx.state, data, nblocks);
}

template <class F>
void update(Ctx<F>& ctx, const uint8_t* data, size_t len) {
  constexpr size_t B = F::kBlockSize;
  size_t partial = ctx.bytecount % B;
  ctx.bytecount += len;
  if (partial + len >= B) {
    if (partial) {
      const size_t fill = B - partial;
      std::memcpy(ctx.buf + partial, data, fill);
      data += fill;
      len -= fill;
      run_blocks(ctx, ctx.buf, 1);
    }
    if (const size_t nblocks = len / B) {
      run_blocks(ctx, data, nblocks);
      data += nblocks * B;
      len %= B;
    }
    partial = 0;
  }
  if (len) std::memcpy(ctx.buf + partial, data, len);
}

// The final block is written in 16-byte chunks, one store each: the
// backends read their blocks 16 bytes at a time, and a load is forwarded
// from an earlier store only if one store covers it. Padding made of a byte
// store, a memset and an 8-byte length made every load of the final block
// wait until those stores reached the cache, after everything before them
// had retired, the whole previous compression included.
using Chunk = int8_t __attribute__((vector_size(16)));
using Chunk64 = uint64_t __attribute__((vector_size(16)));

// padded_chunk is chunk `i` of the block in `buf` with the bytes from
// `keep` on cleared and 0x80 at `mark` (no mark where it is out of range).
inline Chunk padded_chunk(const uint8_t* buf, size_t i, size_t keep, size_t mark) {
  constexpr Chunk kIota = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  // Block positions are below 128, so they compare as signed bytes.
  const Chunk at = kIota + static_cast<int8_t>(16 * i);
  Chunk c;
  std::memcpy(&c, buf + 16 * i, sizeof c);
  c &= at < static_cast<int8_t>(keep);
  return c | ((at == static_cast<int8_t>(mark)) & static_cast<int8_t>(0x80));
}

// pad_block rewrites the block in `buf` as its first `keep` bytes, 0x80 at
// `mark`, zeros, and, where `length` is given, the big-endian length field
// `length` holds (high word first) in its last 16 bytes.
template <size_t B>
void pad_block(uint8_t* buf, size_t keep, size_t mark, const Chunk64* length) {
  for (size_t i = 0; i < B / 16; ++i) {
    Chunk c = padded_chunk(buf, i, keep, mark);
    if (length != nullptr && i == B / 16 - 1) c |= std::bit_cast<Chunk>(*length);
    std::memcpy(buf + 16 * i, &c, sizeof c);
  }
}

// Pads, compresses the last block(s) and writes the first `DigestSize`
// bytes of the state, then zeroises the context. The size is a constant so
// that the copy out is a few moves, not a call of memcpy.
template <size_t DigestSize, class F>
void final(Ctx<F>& ctx, uint8_t* out) {
  constexpr size_t B = F::kBlockSize;
  constexpr size_t L = F::kLengthFieldSize;
  const size_t partial = ctx.bytecount % B;
  // The length field is the bit count: a 64-bit byte count shifted left by 3,
  // with the top bits carried into a 128-bit field where there is one.
#if defined(LOCKSTEP_PLANT_BYTECOUNT32)
  // Teeth hook (teeth/CMakeLists.txt): a 32-bit byte count, wrong past 4 GiB.
  const uint64_t bytecount = static_cast<uint32_t>(ctx.bytecount);
#else
  const uint64_t bytecount = ctx.bytecount;
#endif
  const Chunk64 length = {L == 16 ? big_endian<uint64_t>(bytecount >> 61) : 0,
                          big_endian<uint64_t>(bytecount << 3)};
  if (partial + 1 > B - L) {
    // No room for the length after the 0x80: it takes a block of its own.
    pad_block<B>(ctx.buf, partial, partial, nullptr);
    run_blocks(ctx, ctx.buf, 1);
    pad_block<B>(ctx.buf, 0, B, &length);
  } else {
    pad_block<B>(ctx.buf, partial, partial, &length);
  }
  run_blocks(ctx, ctx.buf, 1);

  // Straight into `out`, word by word; a digest that ends inside a word
  // (SHA-512/224) takes that word's first bytes by way of a copy.
  using W = typename F::Word;
  constexpr size_t kWhole = DigestSize / sizeof(W), kRest = DigestSize % sizeof(W);
  for (size_t i = 0; i < kWhole; ++i) store_be<W>(out + i * sizeof(W), ctx.state.h[i]);
  if constexpr (kRest != 0) {
    uint8_t last[sizeof(W)];
    store_be<W>(last, ctx.state.h[kWhole]);
    std::memcpy(out + kWhole * sizeof(W), last, kRest);
    zeroize(last, sizeof last);
  }
  zeroize(&ctx, sizeof ctx);
}

}  // namespace detail

template <class F>
const HashBackend<F>* default_backend() {
  static DefaultBackend<HashBackend<F>> cache(&registry<F>);
  return cache.get();
}

template <class A>
void Hash<A>::init(Ctx& ctx, const Backend* backend) {
  ctx.state = A::kIv;
  ctx.bytecount = 0;
  ctx.backend = backend ? backend : default_backend<Family>();
}

template <class A>
void Hash<A>::update(Ctx& ctx, const uint8_t* data, size_t len) {
  detail::update(ctx, data, len);
}

template <class A>
void Hash<A>::final(Ctx& ctx, uint8_t* out) {
  detail::final<kDigestSize>(ctx, out);
}

template <class A>
void Hash<A>::digest(const uint8_t* data, size_t len, uint8_t* out, const Backend* backend) {
  Ctx ctx;
  init(ctx, backend);
  update(ctx, data, len);
  final(ctx, out);
}

template <class A>
void Hmac<A>::prepare_key(HmacKey<A>& key, const uint8_t* raw, size_t raw_len,
                          const Backend* backend) {
  using F = typename A::Family;
  constexpr size_t B = F::kBlockSize;
  // Keys longer than a block are replaced by their digest (RFC 2104, 2).
#if defined(LOCKSTEP_PLANT_HMAC_KEY_BLOCK)
  // Teeth hook (teeth/CMakeLists.txt): a key of exactly one block is hashed.
  constexpr size_t kLongest = B - 1;
#else
  constexpr size_t kLongest = B;  // the longest key used as it is
#endif
  uint8_t k[B] = {};
  if (raw_len > kLongest) {
    Hash<A>::digest(raw, raw_len, k, backend);
  } else if (raw_len) {
    std::memcpy(k, raw, raw_len);
  }
  Ctx<F> ctx;
  for (uint8_t& b : k) b ^= 0x36;
  Hash<A>::init(ctx, backend);
  detail::run_blocks(ctx, k, 1);
  key.istate = ctx.state;
  for (uint8_t& b : k) b ^= 0x36 ^ 0x5c;
  Hash<A>::init(ctx, backend);
  detail::run_blocks(ctx, k, 1);
  key.ostate = ctx.state;
  zeroize(k, sizeof k);
  zeroize(&ctx, sizeof ctx);
}

template <class A>
void Hmac<A>::init(HmacCtx<A>& ctx, const HmacKey<A>& key, const Backend* backend) {
  Hash<A>::init(ctx.inner, backend);
  ctx.inner.state = key.istate;
  ctx.inner.bytecount = A::Family::kBlockSize;
  ctx.ostate = key.ostate;
}

template <class A>
void Hmac<A>::init_usingrawkey(HmacCtx<A>& ctx, const uint8_t* raw, size_t raw_len,
                               const Backend* backend) {
  HmacKey<A> key;
  prepare_key(key, raw, raw_len, backend);
  init(ctx, key, backend);
  zeroize(&key, sizeof key);
}

template <class A>
void Hmac<A>::update(HmacCtx<A>& ctx, const uint8_t* data, size_t len) {
  detail::update(ctx.inner, data, len);
}

template <class A>
void Hmac<A>::final(HmacCtx<A>& ctx, uint8_t* out) {
  uint8_t inner[A::kDigestSize];
  const Backend* backend = ctx.inner.backend;
  detail::final<A::kDigestSize>(ctx.inner, inner);
  ctx.inner.backend = backend;
  ctx.inner.state = ctx.ostate;
  ctx.inner.bytecount = A::Family::kBlockSize;
  detail::update(ctx.inner, inner, sizeof inner);
  detail::final<A::kDigestSize>(ctx.inner, out);
  zeroize(inner, sizeof inner);
  zeroize(&ctx, sizeof ctx);
}

template <class A>
void Hmac<A>::mac(const HmacKey<A>& key, const uint8_t* data, size_t len, uint8_t* out,
                  const Backend* backend) {
  HmacCtx<A> ctx;
  init(ctx, key, backend);
  update(ctx, data, len);
  final(ctx, out);
}

template <class A>
void Hmac<A>::mac_usingrawkey(const uint8_t* raw, size_t raw_len, const uint8_t* data,
                              size_t len, uint8_t* out, const Backend* backend) {
  HmacCtx<A> ctx;
  init_usingrawkey(ctx, raw, raw_len, backend);
  update(ctx, data, len);
  final(ctx, out);
}

}  // namespace lockstep::sha2
