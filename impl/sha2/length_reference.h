// The digest a SHA-2 context must give at any byte count, from padding
// written out byte by byte (FIPS 180-4, 5.1) and compressed by the generic
// block function: a reference for byte counts no message can reach, which
// checks the front end's length field without sharing its code. The
// context's count is seeded past 2^32 or 2^61 by the check; Crypto++ and
// OpenSSL cannot be given one.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "catalog.h"
#include "sha256/sha256.h"
#include "sha512/sha512.h"

namespace lockstep::sha2 {
namespace detail {

template <class F>
std::vector<uint8_t> finish_by_hand(const HashBackend<F>& generic, const uint8_t* ctx, size_t buf_offset,
                                    uint64_t count, std::span<const uint8_t> data, size_t digest_size) {
  constexpr size_t B = F::kBlockSize, L = F::kLengthFieldSize;
  BlockState<F> state;
  std::memcpy(&state, ctx, sizeof state);
  std::vector<uint8_t> tail(ctx + buf_offset, ctx + buf_offset + count % B);
  tail.insert(tail.end(), data.begin(), data.end());
  // SHA-256's field holds the bit count mod 2^64; SHA-512's all 128 bits.
  const unsigned __int128 bits = (static_cast<unsigned __int128>(count) + data.size()) * 8;
  tail.push_back(0x80);
  while ((tail.size() + L) % B != 0) tail.push_back(0);
  for (size_t i = L; i-- > 0;) tail.push_back(static_cast<uint8_t>(bits >> (8 * i)));
  generic.blocks(&state, tail.data(), tail.size() / B);
  std::vector<uint8_t> out;
  for (const auto w : state.h)
    for (size_t i = sizeof w; i-- > 0;) out.push_back(static_cast<uint8_t>(w >> (8 * i)));
  out.resize(digest_size);
  return out;
}

}  // namespace detail

// finish_at_count is the digest of a context of `a` whose state words and
// buffered bytes are those at `ctx`, and whose byte count is `count` (not
// the one stored there), after `data`. count + data.size() must stay below
// 2^64: the context keeps a 64-bit count.
inline std::vector<uint8_t> finish_at_count(const catalog::HashAlgorithm& a, const uint8_t* ctx, uint64_t count,
                                            std::span<const uint8_t> data) {
  const size_t buf_offset = a.bytecount_offset + sizeof(uint64_t);
  if (a.block_size == Sha256Family::kBlockSize)
    return detail::finish_by_hand(kSha256Generic, ctx, buf_offset, count, data, a.digest_size);
  return detail::finish_by_hand(kSha512Generic, ctx, buf_offset, count, data, a.digest_size);
}

}  // namespace lockstep::sha2
