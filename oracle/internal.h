// Shared by the oracle's adapters; not part of the contract in oracle.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "oracle.h"

namespace lockstep::oracle::detail {

// LOCKSTEP_ORACLE_HASHES lists every algorithm the oracle knows, one line
// each: the catalog name, the Crypto++ class and the OpenSSL EVP_MD getter.
// Each adapter expands it with its own X, so adding an algorithm is one line.
// Crypto++ 8.7 has no SHA-512/t; cryptopp_sha512t.h builds it on its SHA-512.
#define LOCKSTEP_ORACLE_HASHES(X)                              \
  X("sha224", CryptoPP::SHA224, EVP_sha224)                    \
  X("sha256", CryptoPP::SHA256, EVP_sha256)                    \
  X("sha384", CryptoPP::SHA384, EVP_sha384)                    \
  X("sha512", CryptoPP::SHA512, EVP_sha512)                    \
  X("sha512-224", CryptoppSha512_224, EVP_sha512_224)          \
  X("sha512-256", CryptoppSha512_256, EVP_sha512_256)

// StreamImpl is one library's incremental digest.
class StreamImpl {
 public:
  virtual ~StreamImpl() = default;
  virtual void update(std::span<const uint8_t> data) = 0;
  virtual Bytes final() = 0;
};

// Crypto++ (cryptopp.cpp). `portable` runs with its CPU feature flags
// cleared. `alg` must be known (oracle.cpp checks).
Bytes cryptopp_digest(std::string_view alg, bool portable, std::span<const uint8_t> msg);
Bytes cryptopp_hmac(std::string_view alg, bool portable, std::span<const uint8_t> key,
                    std::span<const uint8_t> msg);
std::unique_ptr<StreamImpl> cryptopp_stream(std::string_view alg, bool portable);
std::string cryptopp_provider(std::string_view alg, bool portable);

// OpenSSL libcrypto (openssl.cpp).
Bytes openssl_digest(std::string_view alg, std::span<const uint8_t> msg);
Bytes openssl_hmac(std::string_view alg, std::span<const uint8_t> key,
                   std::span<const uint8_t> msg);
std::unique_ptr<StreamImpl> openssl_stream(std::string_view alg);
std::string openssl_provider(std::string_view alg);

// Crypto++ ChaCha (cryptopp.cpp): 20 rounds through ChaChaTLS, 12 and 8
// through the original ChaCha. Sizes and rounds are checked by oracle.cpp.
Bytes cryptopp_chacha(int rounds, bool portable, std::span<const uint8_t> key, uint32_t counter,
                      std::span<const uint8_t> nonce, std::span<const uint8_t> msg);
// HChaCha of `rounds` rounds (20 or 12) from the original ChaCha's block.
Bytes cryptopp_hchacha(int rounds, bool portable, std::span<const uint8_t> key,
                       std::span<const uint8_t> nonce);
Bytes cryptopp_xchacha20(bool portable, std::span<const uint8_t> key,
                         std::span<const uint8_t> nonce, uint32_t counter,
                         std::span<const uint8_t> msg);
std::string cryptopp_chacha_provider(int rounds, bool portable);

// OpenSSL ChaCha20 (openssl.cpp), EVP_chacha20 only.
Bytes openssl_chacha20(std::span<const uint8_t> key, uint32_t counter,
                       std::span<const uint8_t> nonce, std::span<const uint8_t> msg);
Bytes openssl_hchacha20(std::span<const uint8_t> key, std::span<const uint8_t> nonce);
std::string openssl_chacha_provider();

inline constexpr size_t kChachaBlock = 64;

inline uint32_t load_le32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}
inline void store_le32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

// CounterRun is a stretch of a ChaCha message in which the 32-bit block
// counter does not wrap.
struct CounterRun {
  uint32_t counter;  // the block counter at `offset`
  size_t offset;     // a multiple of 64
  size_t len;
};

// counter_runs cuts a `len`-byte message that starts at block `counter` at
// every wrap of the counter from 2^32 - 1 to 0. lockstep's counter wraps
// without carrying into word 13 (impl/chacha/chacha.h); OpenSSL's
// EVP_chacha20 and Crypto++'s ChaCha and XChaCha20 carry, so their adapters
// start each run afresh at counter 0 instead (BoringSSL's CRYPTO_chacha_20
// splits the same way). Only a message beyond 256 GiB holds two wraps.
inline std::vector<CounterRun> counter_runs(uint32_t counter, size_t len) {
  std::vector<CounterRun> runs;
  size_t offset = 0;
  while (offset < len) {
    const uint64_t to_wrap = ((uint64_t{1} << 32) - counter) * kChachaBlock;
    const size_t n = len - offset <= to_wrap ? len - offset : static_cast<size_t>(to_wrap);
    runs.push_back({counter, offset, n});
    offset += n;
    counter = static_cast<uint32_t>(counter + n / kChachaBlock);  // 0 if the run reached the wrap
  }
  return runs;
}

// hchacha_from_block derives HChaCha20 (draft-irtf-cfrg-xchacha-03, 2.2)
// from a library's ChaCha20 block: `block` is the keystream of the state
// whose words 12..15 are `nonce16`. That keystream is the permuted state
// plus the input state; HChaCha20 is words 0..3 and 12..15 of the permuted
// state, so subtracting the known input words (the constant and the nonce)
// gives them back. Neither library exposes HChaCha20 itself; this lets each
// answer with its own ChaCha core instead of the oracle reimplementing one.
inline Bytes hchacha_from_block(const uint8_t block[kChachaBlock],
                                std::span<const uint8_t> nonce16) {
  static const uint8_t kSigma[] = {'e', 'x', 'p', 'a', 'n', 'd', ' ', '3',
                                   '2', '-', 'b', 'y', 't', 'e', ' ', 'k'};
  Bytes out(32);
  for (size_t i = 0; i < 4; ++i) {
    store_le32(&out[4 * i], load_le32(block + 4 * i) - load_le32(kSigma + 4 * i));
    store_le32(&out[16 + 4 * i],
               load_le32(block + 48 + 4 * i) - load_le32(nonce16.data() + 4 * i));
  }
  return out;
}

// nonnull gives libraries a valid pointer for empty spans: some of them
// treat a null key as "no key", and memcpy(dst, nullptr, 0) is undefined.
inline const uint8_t* nonnull(std::span<const uint8_t> s) {
  static const uint8_t kEmpty = 0;
  return s.empty() ? &kEmpty : s.data();
}

}  // namespace lockstep::oracle::detail
