// sha256/generic: portable C++ (FIPS 180-4, 6.2), the reference every other
// SHA-256 backend is held to.
#include <cstring>

#include "sha256/constants.h"
#include "sha256/sha256.h"

namespace lockstep {
namespace {

constexpr uint32_t ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

uint32_t load_be32(const uint8_t* p) {
  return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | uint32_t{p[3]};
}

void blocks_generic(sha2::BlockState<sha2::Sha256Family>* state, const uint8_t* data,
                    size_t nblocks) {
  uint32_t* h = state->h;
  uint32_t w[64];
  for (; nblocks; --nblocks, data += 64) {
    for (int t = 0; t < 16; ++t) w[t] = load_be32(data + 4 * t);
    for (int t = 16; t < 64; ++t) {
      const uint32_t s0 = ror(w[t - 15], 7) ^ ror(w[t - 15], 18) ^ (w[t - 15] >> 3);
      const uint32_t s1 = ror(w[t - 2], 17) ^ ror(w[t - 2], 19) ^ (w[t - 2] >> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 64; ++t) {
      const uint32_t t1 =
          hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + kSha256K[t] + w[t];
      const uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
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

}  // namespace

const Sha256Backend kSha256Generic = {
    {"sha256/generic", {}, "portable C++; the reference for the other backends"},
    blocks_generic,
};

}  // namespace lockstep
