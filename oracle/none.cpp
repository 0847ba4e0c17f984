// The oracle's stand-ins for the libraries a build lacks: both in the cross
// builds (the target has neither Crypto++ nor OpenSSL), OpenSSL alone in an
// OSS-Fuzz/ClusterFuzzLite build (LOCKSTEP_ORACLE_OPENSSL=OFF: Crypto++ is
// built there from source with the fuzzers' own compiler and sanitizer).
// A missing library's source is not available(); every question that would
// need it throws, naming why, so that a suite which forgets to check
// available() fails loudly instead of comparing against nothing.
//
// Questions that need no library keep working: source_name, supports_hash,
// the supports_* of the ChaCha family (what each adapter could answer),
// tally, and the *_opinions calls, which ask only the available sources.
#include <stdexcept>
#include <string>

#include "internal.h"
#include "oracle.h"

namespace lockstep::oracle {

bool available(Source s) {
  return s == Source::kOpenssl ? LOCKSTEP_ORACLE_HAS_OPENSSL : LOCKSTEP_ORACLE_HAS_CRYPTOPP;
}

namespace detail {
#if !LOCKSTEP_ORACLE_HAS_CRYPTOPP || !LOCKSTEP_ORACLE_HAS_OPENSSL
namespace {

[[noreturn]] void unavailable(std::string_view what, std::string_view alg) {
  throw std::runtime_error(
      "oracle: " + std::string(what) + "(" + std::string(alg) +
      ") asked of a build without the library that answers it (cross builds have neither "
      "Crypto++ nor OpenSSL, OSS-Fuzz builds no OpenSSL); check oracle::available() first");
}

}  // namespace
#endif

#if !LOCKSTEP_ORACLE_HAS_CRYPTOPP
Bytes cryptopp_digest(std::string_view alg, bool, std::span<const uint8_t>) {
  unavailable("digest", alg);
}
Bytes cryptopp_hmac(std::string_view alg, bool, std::span<const uint8_t>,
                    std::span<const uint8_t>) {
  unavailable("hmac", alg);
}
std::unique_ptr<StreamImpl> cryptopp_stream(std::string_view alg, bool) {
  unavailable("Stream", alg);
}
std::string cryptopp_provider(std::string_view alg, bool) { unavailable("provider", alg); }
Bytes cryptopp_chacha(int rounds, bool, std::span<const uint8_t>, uint32_t,
                      std::span<const uint8_t>, std::span<const uint8_t>) {
  unavailable("chacha", "chacha" + std::to_string(rounds));
}
Bytes cryptopp_hchacha(int rounds, bool, std::span<const uint8_t>, std::span<const uint8_t>) {
  unavailable("hchacha", "hchacha" + std::to_string(rounds));
}
Bytes cryptopp_xchacha20(bool, std::span<const uint8_t>, std::span<const uint8_t>, uint32_t,
                         std::span<const uint8_t>) {
  unavailable("xchacha20", "xchacha20");
}
std::string cryptopp_chacha_provider(int rounds, bool) {
  unavailable("chacha_provider", "chacha" + std::to_string(rounds));
}

#endif

#if !LOCKSTEP_ORACLE_HAS_OPENSSL
Bytes openssl_digest(std::string_view alg, std::span<const uint8_t>) {
  unavailable("digest", alg);
}
Bytes openssl_hmac(std::string_view alg, std::span<const uint8_t>, std::span<const uint8_t>) {
  unavailable("hmac", alg);
}
std::unique_ptr<StreamImpl> openssl_stream(std::string_view alg) { unavailable("Stream", alg); }
std::string openssl_provider(std::string_view alg) { unavailable("provider", alg); }
Bytes openssl_chacha20(std::span<const uint8_t>, uint32_t, std::span<const uint8_t>,
                       std::span<const uint8_t>) {
  unavailable("chacha", "chacha20");
}
Bytes openssl_hchacha20(std::span<const uint8_t>, std::span<const uint8_t>) {
  unavailable("hchacha20", "hchacha20");
}
std::string openssl_chacha_provider() { unavailable("chacha_provider", "chacha20"); }
#endif

}  // namespace detail
}  // namespace lockstep::oracle
