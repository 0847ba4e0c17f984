// chacha/generic: portable C++ (RFC 8439, 2.3), one block at a time; the
// reference every other ChaCha backend is held to.
#include "chacha/chacha.h"
#include "chacha/walk.h"

namespace lockstep::chacha {
namespace {

void block(const State& state, uint8_t* dst, const uint8_t* src, int rounds) {
  uint32_t x[16];
  for (int i = 0; i < 16; ++i) x[i] = state.x[i];
  permute(x, rounds);
  for (int i = 0; i < 16; ++i) {
    const uint32_t k = x[i] + state.x[i];
    for (int j = 0; j < 4; ++j) dst[4 * i + j] = src[4 * i + j] ^ static_cast<uint8_t>(k >> (8 * j));
  }
  zeroize(x, sizeof x);
}

void crypt_generic(State* state, uint8_t* dst, const uint8_t* src, size_t len, int rounds) {
  crypt_wide<1>(state, dst, src, len, rounds, block);
}

}  // namespace

// extern: the registry declares it; a header need not.
extern const ChachaBackend kChachaGeneric = {
    {"chacha/generic", {}, "portable C++, one block at a time; the reference for the others"},
    crypt_generic,
};

}  // namespace lockstep::chacha
