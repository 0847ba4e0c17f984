// The ChaCha front end: key setup, dispatch, HChaCha20 and XChaCha20.
#include "chacha/chacha.h"

#include "zeroize.h"

#define LOCKSTEP_CHACHA_INLINE __attribute__((always_inline)) inline
#include "chacha/rounds.h"

namespace lockstep::chacha {
namespace {

uint32_t load_le32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

void store_le32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// "expand 32-byte k" as four little-endian words.
constexpr uint32_t kSigma[4] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};

void init_key(State& state, const uint8_t key[kKeySize]) {
  for (int i = 0; i < 4; ++i) state.x[i] = kSigma[i];
  for (int i = 0; i < 8; ++i) state.x[4 + i] = load_le32(key + 4 * i);
}

}  // namespace

void init(State& state, const uint8_t key[kKeySize], const uint8_t iv[kIvSize]) {
  init_key(state, key);
  for (int i = 0; i < 4; ++i) state.x[12 + i] = load_le32(iv + 4 * i);
}

void init_rfc8439(State& state, const uint8_t key[kKeySize], uint32_t counter,
                  const uint8_t nonce[kNonceSize]) {
  init_key(state, key);
  state.x[12] = counter;
  for (int i = 0; i < 3; ++i) state.x[13 + i] = load_le32(nonce + 4 * i);
}

const ChachaBackend* default_backend() {
  static DefaultBackend<ChachaBackend> cache(&registry);
  return cache.get();
}

void crypt(State& state, uint8_t* dst, const uint8_t* src, size_t len, int rounds,
           const ChachaBackend* backend) {
  const ChachaBackend* b = backend ? backend : default_backend();
  b->count_call();
  invoke(*b, "crypt", b->crypt, &state, dst, src, len, rounds);
}

void permute(uint32_t x[16], int rounds) { word_rounds<ScalarOps, 4>(x, rounds); }

void hchacha(const State& state, uint32_t out[8], int rounds) {
  uint32_t x[16];
  for (int i = 0; i < 16; ++i) x[i] = state.x[i];
  permute(x, rounds);
  for (int i = 0; i < 4; ++i) out[i] = x[i], out[4 + i] = x[12 + i];
  zeroize(x, sizeof x);
}

void hchacha20(const uint8_t key[kKeySize], const uint8_t nonce[kHNonceSize],
               uint8_t subkey[kKeySize], const ChachaBackend* own) {
  State s;
  init(s, key, nonce);  // the 16 nonce bytes fill words 12..15
  uint32_t out[8];
  if (own != nullptr && own->hchacha != nullptr) {
    own->count_call();
    invoke(*own, "hchacha", own->hchacha, &s, out, 20);
  } else {
    hchacha(s, out, 20);
  }
  for (int i = 0; i < 8; ++i) store_le32(subkey + 4 * i, out[i]);
  zeroize(&s, sizeof s);
  zeroize(out, sizeof out);
}

void xchacha20(const uint8_t key[kKeySize], const uint8_t nonce[kXNonceSize], uint32_t counter,
               uint8_t* dst, const uint8_t* src, size_t len, const ChachaBackend* backend) {
  uint8_t subkey[kKeySize];
  hchacha20(key, nonce, subkey);
  uint8_t inner_nonce[kNonceSize] = {};
  for (int i = 0; i < 8; ++i) inner_nonce[4 + i] = nonce[16 + i];
  State s;
  init_rfc8439(s, subkey, counter, inner_nonce);
  crypt(s, dst, src, len, 20, backend);
  zeroize(subkey, sizeof subkey);
  zeroize(&s, sizeof s);
}

}  // namespace lockstep::chacha
