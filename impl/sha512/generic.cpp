// sha512/generic: portable C++ (FIPS 180-4, 6.4), the reference every other
// SHA-512 backend is held to.
#include "sha512/constants.h"
#include "sha512/sha512.h"

namespace lockstep {
namespace {

constexpr uint64_t ror(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

uint64_t load_be64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = v << 8 | p[i];
  return v;
}

void blocks_generic(sha2::BlockState<sha2::Sha512Family>* state, const uint8_t* data,
                    size_t nblocks) {
  uint64_t* h = state->h;
  uint64_t w[80];
  for (; nblocks; --nblocks, data += 128) {
    for (int t = 0; t < 16; ++t) w[t] = load_be64(data + 8 * t);
    for (int t = 16; t < 80; ++t) {
      const uint64_t s0 = ror(w[t - 15], 1) ^ ror(w[t - 15], 8) ^ (w[t - 15] >> 7);
      const uint64_t s1 = ror(w[t - 2], 19) ^ ror(w[t - 2], 61) ^ (w[t - 2] >> 6);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 80; ++t) {
      const uint64_t t1 =
          hh + (ror(e, 14) ^ ror(e, 18) ^ ror(e, 41)) + ((e & f) ^ (~e & g)) + kSha512K[t] + w[t];
      const uint64_t t2 = (ror(a, 28) ^ ror(a, 34) ^ ror(a, 39)) + ((a & b) ^ (a & c) ^ (b & c));
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

const Sha512Backend kSha512Generic = {
    {"sha512/generic", {}, "portable C++; the reference for the other backends"},
    blocks_generic,
};

}  // namespace lockstep
