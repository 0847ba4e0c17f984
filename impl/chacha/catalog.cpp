// The ChaCha family in the catalog: ChaCha20 and ChaCha12 in the RFC 8439
// layout, XChaCha20 and HChaCha20, over the typed front end.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "catalog.h"
#include "chacha/chacha.h"

namespace lockstep::chacha {

extern const catalog::Family kFamily;  // the algorithms point back at it

namespace {

const ChachaBackend* typed(const Backend* b) {
  if (!b) return nullptr;
  for (const auto* t : registry())
    if (t == b) return t;
  std::fprintf(stderr, "lockstep: backend %.*s is not a chacha backend\n",
               static_cast<int>(b->name.size()), b->name.data());
  std::abort();
}

std::span<const Backend* const> backends() {
  static const std::vector<const Backend*> list(registry().begin(), registry().end());
  return list;
}

const Backend* default_of() { return default_backend(); }

bool carries(const Backend* b) {
  const ChachaBackend* t = typed(b);
  return t != nullptr && t->counter == Counter::kCarry64;
}

lockstep_chacha_overlap overlap(const Backend* b) {
  const ChachaBackend* t = typed(b);
  return static_cast<lockstep_chacha_overlap>(t != nullptr ? t->overlap : Overlap::kAny);
}

void set_state(uint32_t out[16], const State& s) { std::copy(std::begin(s.x), std::end(s.x), out); }

template <int Rounds>
struct CipherEntry {
  static void init(uint32_t state[16], const uint8_t* key, uint32_t counter, const uint8_t* nonce) {
    State s;
    init_rfc8439(s, key, counter, nonce);
    set_state(state, s);
  }
  // XChaCha20 (draft-irtf-cfrg-xchacha, 2.3): ChaCha20 under the HChaCha20
  // subkey of the first 16 nonce bytes, with nonce 00000000 || nonce[16..24].
  static void init_x(uint32_t state[16], const uint8_t* key, uint32_t counter,
                     const uint8_t* nonce) {
    uint8_t subkey[kKeySize];
    hchacha20(key, nonce, subkey);
    uint8_t short_nonce[kNonceSize] = {};
    std::copy(nonce + kHNonceSize, nonce + kXNonceSize, short_nonce + 4);
    State s;
    init_rfc8439(s, subkey, counter, short_nonce);
    set_state(state, s);
    std::fill(std::begin(subkey), std::end(subkey), uint8_t{0});
  }
  static void crypt(uint32_t state[16], uint8_t* dst, const uint8_t* src, size_t len,
                    const Backend* b) {
    State s;
    std::copy(state, state + 16, s.x);
    chacha::crypt(s, dst, src, len, Rounds, typed(b));
    std::copy(std::begin(s.x), std::end(s.x), state);
  }
  static std::string unsupported(const Backend* b) {
    const ChachaBackend* t = typed(b);
    if (t == nullptr || t->supports_rounds(Rounds)) return "";
    if (t->crypt == nullptr) return "has no ChaCha function, only a whole-message driver (its cipher_driver)";
    return "declares no " + std::to_string(Rounds) + "-round support (its chacha_rounds)";
  }
  static constexpr catalog::CipherAlgorithm make(std::string_view name, std::string_view display) {
    return {name, display, &kFamily, Rounds, kNonceSize, &init, &crypt, &unsupported, &carries,
            &overlap};
  }
  static constexpr catalog::CipherAlgorithm make_x(std::string_view name, std::string_view display) {
    return {name, display, &kFamily, Rounds, kXNonceSize, &init_x, &crypt, &unsupported, &carries,
            &overlap};
  }
};

void derive_hchacha20(const uint8_t* key, const uint8_t* input, uint8_t* out) {
  hchacha20(key, input, out);
}

bool derive_hchacha20_by(const Backend* b, const uint8_t* key, const uint8_t* input, uint8_t* out) {
  const ChachaBackend* t = typed(b);
  if (t == nullptr || t->hchacha == nullptr) return false;
  hchacha20(key, input, out, t);
  return true;
}

constinit const catalog::CipherAlgorithm kChacha20 = CipherEntry<20>::make("chacha20", "ChaCha20");
constinit const catalog::CipherAlgorithm kChacha12 = CipherEntry<12>::make("chacha12", "ChaCha12");
constinit const catalog::CipherAlgorithm kXChacha20 =
    CipherEntry<20>::make_x("xchacha20", "XChaCha20");
constinit const catalog::CipherAlgorithm* const kCiphers[] = {&kChacha20, &kChacha12, &kXChacha20};
constinit const catalog::SubkeyAlgorithm kHChacha20 = {
    "hchacha20", "HChaCha20", &kFamily, kKeySize, kHNonceSize, kKeySize, &derive_hchacha20,
    &derive_hchacha20_by};
constinit const catalog::SubkeyAlgorithm* const kSubkeys[] = {&kHChacha20};

std::vector<const void*> code_of(const Backend* b) {
  const auto* c = static_cast<const ChachaBackend*>(b);
  std::vector<const void*> out = {reinterpret_cast<const void*>(c->crypt)};
  if (c->hchacha != nullptr) out.push_back(reinterpret_cast<const void*>(c->hchacha));
  return out;
}

}  // namespace

constinit const catalog::Family kFamily = {
    .name = "chacha",
    .backends = &backends,
    .default_backend = &default_of,
    .ciphers = kCiphers,
    .subkeys = kSubkeys,
    .code = &code_of,
};

}  // namespace lockstep::chacha
