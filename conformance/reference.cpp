#include "reference.h"

#include "chacha/chacha.h"
#include "oracle/oracle.h"

namespace lockstep::conformance {

bool oracle_for(const catalog::HashAlgorithm& alg) {
  return oracle::available(oracle::Source::kCryptoppPortable) && oracle::supports_hash(alg.name);
}

const Backend* generic_of(const catalog::HashAlgorithm& alg) {
  return alg.family->backends().back();
}

Bytes expected_digest(const catalog::HashAlgorithm& alg, std::span<const uint8_t> msg) {
  if (oracle_for(alg)) return oracle::digest(alg.name, oracle::Source::kCryptoppPortable, msg);
  Bytes out(alg.digest_size);
  alg.digest(msg.data(), msg.size(), out.data(), generic_of(alg));
  return out;
}

Bytes expected_hmac(const catalog::HashAlgorithm& alg, std::span<const uint8_t> key,
                    std::span<const uint8_t> msg) {
  if (oracle_for(alg)) return oracle::hmac(alg.name, oracle::Source::kCryptoppPortable, key, msg);
  Bytes out(alg.digest_size);
  alg.hmac(key.data(), key.size(), msg.data(), msg.size(), out.data(), generic_of(alg));
  return out;
}

namespace {
bool extended_nonce(const catalog::CipherAlgorithm& alg) { return alg.nonce_size == 24; }
}  // namespace

bool oracle_for(const catalog::CipherAlgorithm& alg) {
  constexpr oracle::Source kSource = oracle::Source::kCryptoppPortable;
  return oracle::available(kSource) && (extended_nonce(alg)
                                            ? oracle::supports_xchacha20(kSource)
                                            : oracle::supports_chacha(kSource, alg.rounds));
}

Bytes expected_chacha(const catalog::CipherAlgorithm& alg, std::span<const uint8_t> key,
                      uint32_t counter, std::span<const uint8_t> nonce,
                      std::span<const uint8_t> msg) {
  if (oracle_for(alg) && extended_nonce(alg))
    return oracle::xchacha20(oracle::Source::kCryptoppPortable, key, nonce, counter, msg);
  if (oracle_for(alg))
    return oracle::chacha(oracle::Source::kCryptoppPortable, alg.rounds, key, counter, nonce, msg);
  Bytes out(msg.size());
  uint32_t state[16];
  alg.init(state, key.data(), counter, nonce.data());
  alg.crypt(state, out.data(), msg.data(), msg.size(), alg.family->backends().back());
  return out;
}

Bytes expected_xchacha(int rounds, std::span<const uint8_t> key, std::span<const uint8_t> nonce24,
                       uint32_t counter, std::span<const uint8_t> msg) {
  const catalog::CipherAlgorithm& plain = *catalog::find_cipher(rounds == 12 ? "chacha12" : "chacha20");
  constexpr oracle::Source kSource = oracle::Source::kCryptoppPortable;
  const std::span<const uint8_t> hnonce = nonce24.first(chacha::kHNonceSize);
  Bytes subkey(chacha::kKeySize);
  if (oracle::available(kSource) && oracle::supports_hchacha(kSource, rounds)) {
    subkey = oracle::hchacha(kSource, rounds, key, hnonce);
  } else {
    chacha::State s;
    chacha::init(s, key.data(), hnonce.data());
    uint32_t words[8];
    chacha::hchacha(s, words, rounds);
    for (int i = 0; i < 8; ++i)
      for (int b = 0; b < 4; ++b) subkey[4 * i + b] = static_cast<uint8_t>(words[i] >> (8 * b));
  }
  Bytes nonce12(chacha::kNonceSize, 0);
  std::copy(nonce24.begin() + chacha::kHNonceSize, nonce24.end(), nonce12.begin() + 4);
  return expected_chacha(plain, subkey, counter, nonce12, msg);
}

bool wraps_past(uint32_t counter, size_t len) {
  return uint64_t{counter} + (len + 63) / 64 >= (uint64_t{1} << 32);
}

Bytes expected_chacha_carrying(const catalog::CipherAlgorithm& alg, std::span<const uint8_t> key,
                               uint32_t counter, std::span<const uint8_t> nonce,
                               std::span<const uint8_t> msg) {
  const uint64_t to_wrap = ((uint64_t{1} << 32) - counter) * 64;
  if (msg.size() <= to_wrap) return expected_chacha(alg, key, counter, nonce, msg);
  Bytes out = expected_chacha(alg, key, counter, nonce, msg.first(to_wrap));
  uint32_t state[16];
  alg.init(state, key.data(), 0, nonce.data());
  ++state[13];
  Bytes rest(msg.size() - to_wrap);
  alg.crypt(state, rest.data(), msg.data() + to_wrap, rest.size(), alg.family->backends().back());
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

}  // namespace lockstep::conformance
