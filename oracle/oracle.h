// Reference adapters. Crypto++ is the primary oracle; it runs in two modes,
// as detected (its SIMD paths, SHA-NI here) and portable (its CPU feature
// flags cleared), because its SIMD paths have had bugs of their own.
// OpenSSL's libcrypto is the independent second opinion.
//
// The oracle uses only the third-party libraries, never lockstep's impl.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lockstep::oracle {

using Bytes = std::vector<uint8_t>;

enum class Source { kCryptoppPortable, kCryptoppSimd, kOpenssl };
inline constexpr Source kAllSources[] = {Source::kCryptoppPortable, Source::kCryptoppSimd,
                                         Source::kOpenssl};

// "cryptopp-portable", "cryptopp-simd", "openssl"
std::string_view source_name(Source s);

// Whether the library is linked in this build (cross builds have neither).
bool available(Source s);

// Algorithm names are the catalog's: "sha224", "sha256", "sha384",
// "sha512", "sha512-224", "sha512-256". An unknown name throws
// std::invalid_argument.
bool supports_hash(std::string_view alg);
Bytes digest(std::string_view alg, Source s, std::span<const uint8_t> msg);
Bytes hmac(std::string_view alg, Source s, std::span<const uint8_t> key,
           std::span<const uint8_t> msg);

// provider names the code path `s` takes for `alg`: Crypto++'s
// AlgorithmProvider() ("SHANI", "SSE2", "C++", ...) in that mode, or the
// OpenSSL provider ("default"). Tests use it to prove that the two Crypto++
// modes run different code.
std::string provider(std::string_view alg, Source s);

// A streaming digest, for messages too large to hold (ACVP LDT, the kernel's
// consolidated values).
class Stream {
 public:
  Stream(std::string_view alg, Source s);
  ~Stream();
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  void update(std::span<const uint8_t> data);
  Bytes final();

 private:
  struct Impl;
  Impl* impl_;
};

// ChaCha in the RFC 8439 layout: a 32-byte key, a 12-byte nonce, and a
// 32-bit block counter that starts at `counter` and wraps from 2^32 - 1 to
// 0 without carrying into the nonce (impl/chacha/chacha.h). Where a library
// carries instead (OpenSSL's EVP_chacha20, Crypto++'s original ChaCha and
// its XChaCha20), its adapter splits the call at the wrap, so every source
// answers with lockstep's semantics.
//
// supports_* says whether a source's adapter can answer, whether or not its
// library is linked in this build: check available() as well. Asking a
// source that does not support the request, or giving a key or nonce of the
// wrong size, throws std::invalid_argument.

// supports_chacha: Crypto++ (both modes) 20 rounds through ChaChaTLS, 12
// and 8 through its original ChaCha; OpenSSL 20 only (EVP_chacha20).
bool supports_chacha(Source s, int rounds);
// chacha XORs `msg` with the keystream of ChaCha with `rounds` rounds,
// starting at block `counter`.
Bytes chacha(Source s, int rounds, std::span<const uint8_t> key32, uint32_t counter,
             std::span<const uint8_t> nonce12, std::span<const uint8_t> msg);

// supports_hchacha20: every source. Neither library exposes HChaCha20
// (draft-irtf-cfrg-xchacha-03, 2.2), so each adapter derives it from its own
// ChaCha20 block function: the block of the state with the 16-byte nonce in
// words 12..15, minus that input state, is the permuted state.
bool supports_hchacha20(Source s);
// hchacha20 returns the 32-byte subkey for `key32` and `nonce16`.
Bytes hchacha20(Source s, std::span<const uint8_t> key32, std::span<const uint8_t> nonce16);

// supports_hchacha and hchacha: the same for `rounds` rounds, 20 from
// every source, 12 from Crypto++'s original ChaCha (XChaCha12, as the
// kernel's xchacha12 skcipher derives its key).
bool supports_hchacha(Source s, int rounds);
Bytes hchacha(Source s, int rounds, std::span<const uint8_t> key32, std::span<const uint8_t> nonce16);

// supports_xchacha20: Crypto++ (XChaCha20); OpenSSL 3.0 has no XChaCha20.
bool supports_xchacha20(Source s);
// xchacha20 is XChaCha20 (draft-irtf-cfrg-xchacha-03, 2.3) from block
// `counter`: ChaCha20 under hchacha20(key32, nonce24[0..16]) with the nonce
// 00000000 || nonce24[16..24], its counter wrapping as chacha's does.
Bytes xchacha20(Source s, std::span<const uint8_t> key32, std::span<const uint8_t> nonce24,
                uint32_t counter, std::span<const uint8_t> msg);

// chacha_provider is provider() for chacha with `rounds` rounds: Crypto++'s
// AlgorithmProvider() ("AVX2", "SSE2", "NEON", "C++") in that mode, or the
// OpenSSL provider of its ChaCha20.
std::string chacha_provider(Source s, int rounds);

// Opinion is one party's answer to one question.
struct Opinion {
  std::string who;  // "sha256/generic", "cryptopp-portable", ...
  Bytes value;
};

// Vote groups opinions by value, so a report can say who agrees with whom.
struct Vote {
  std::vector<std::vector<std::string>> groups;  // largest group first
  bool unanimous() const { return groups.size() <= 1; }
  // "agree: [generic cryptopp-portable openssl] [sha256/x86-shani]"
  std::string to_string() const;
};

Vote tally(const std::vector<Opinion>& opinions);

// oracle_opinions asks every available source for the digest of `msg`.
std::vector<Opinion> digest_opinions(std::string_view alg, std::span<const uint8_t> msg);
std::vector<Opinion> hmac_opinions(std::string_view alg, std::span<const uint8_t> key,
                                   std::span<const uint8_t> msg);

// chacha_opinions asks every available source that supports `rounds`, and
// hchacha20_opinions and xchacha20_opinions every available source that
// supports those. Rounds that no source supports, and keys or nonces of the
// wrong size, throw std::invalid_argument even when no source is available.
std::vector<Opinion> chacha_opinions(int rounds, std::span<const uint8_t> key32, uint32_t counter,
                                     std::span<const uint8_t> nonce12,
                                     std::span<const uint8_t> msg);
std::vector<Opinion> hchacha20_opinions(std::span<const uint8_t> key32,
                                        std::span<const uint8_t> nonce16);
std::vector<Opinion> xchacha20_opinions(std::span<const uint8_t> key32,
                                        std::span<const uint8_t> nonce24, uint32_t counter,
                                        std::span<const uint8_t> msg);

}  // namespace lockstep::oracle
