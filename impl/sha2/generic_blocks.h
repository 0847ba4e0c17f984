// The portable SHA-2 compression function (FIPS 180-4, 6.2 and 6.4), one
// template for both families: they differ only in word size, round count,
// round constants and rotation amounts, which P supplies.
#pragma once

#include <cstddef>
#include <cstdint>

#include "sha2/sha2.h"

namespace lockstep::sha2 {

// P has: Word; kRounds; kK (kRounds constants); the rotations of Σ0 and Σ1
// (kBigSigma0/1, three each) and of σ0 and σ1 (kSmallSigma0/1: two rotations
// then a shift).
template <class P>
[[gnu::noinline]] void generic_blocks(BlockState<typename P::Family>* state, const uint8_t* data, size_t nblocks) {
  using W = typename P::Word;
  constexpr int kBits = 8 * sizeof(W);
  constexpr size_t kBlock = P::Family::kBlockSize;
  auto ror = [](W x, int n) -> W { return static_cast<W>((x >> n) | (x << (kBits - n))); };
  auto load_be = [](const uint8_t* p) {
    W v = 0;
    for (size_t i = 0; i < sizeof(W); ++i) v = static_cast<W>(v << 8 | p[i]);
    return v;
  };
  auto big = [&](W x, const int (&r)[3]) { return ror(x, r[0]) ^ ror(x, r[1]) ^ ror(x, r[2]); };
  auto small = [&](W x, const int (&r)[3]) { return ror(x, r[0]) ^ ror(x, r[1]) ^ (x >> r[2]); };

  W* h = state->h;
  W w[P::kRounds];
  for (; nblocks; --nblocks, data += kBlock) {
    for (int t = 0; t < 16; ++t) w[t] = load_be(data + sizeof(W) * t);
    for (int t = 16; t < P::kRounds; ++t)
      w[t] = w[t - 16] + small(w[t - 15], P::kSmallSigma0) + w[t - 7] + small(w[t - 2], P::kSmallSigma1);
    W a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < P::kRounds; ++t) {
      const W t1 = hh + big(e, P::kBigSigma1) + ((e & f) ^ (~e & g)) + P::kK[t] + w[t];
      const W t2 = big(a, P::kBigSigma0) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d;
    h[4] += e, h[5] += f, h[6] += g, h[7] += hh;
  }
}

}  // namespace lockstep::sha2
